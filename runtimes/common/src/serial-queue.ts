/**
 * Runs work one piece at a time in arrival order (spec §1.6): callers wait their turn, none are
 * refused. `acquire` resolves with a release function; call it exactly once.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();
  private waitingCount = 0;

  get waiting(): number {
    return this.waitingCount;
  }

  acquire(): Promise<() => void> {
    this.waitingCount++;
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    return previous.then(() => {
      this.waitingCount--;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release();
      };
    });
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}
