/**
 * Waits `ms`, or less when `settled` settles first. Its timer is cleared either way: a pending
 * `Bun.sleep` raced against the work would hold the process open after the command is done
 * (`svc run` exited up to 0.5 s after printing the service id).
 */
export function pauseUnless(ms: number, settled: Promise<unknown>): Promise<void> {
  let timer: Timer | undefined;
  const elapsed = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  const done = settled.then(
    () => {},
    () => {},
  );
  return Promise.race([elapsed, done]).finally(() => clearTimeout(timer));
}
