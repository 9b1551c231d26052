/**
 * For what must be told its port before it binds it (a container on the host network, sshd and
 * Slurm in the test container): picks a port, starts, and on a failure that says the port was
 * taken meanwhile (`taken`), picks another and starts again, so a collision never fails a start.
 */
export async function retryWhilePortTaken<T>(pick: () => Promise<number>, start: (port: number) => Promise<T>, taken: (error: unknown) => boolean, tries = 5): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const port = await pick();
    try {
      return await start(port);
    } catch (error) {
      if (attempt >= tries || !taken(error)) throw error;
    }
  }
}
