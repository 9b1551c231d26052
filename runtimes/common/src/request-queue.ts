/**
 * Lets at most `slots` pieces of work run at once, the rest waiting in arrival order (spec §1.6):
 * callers wait their turn, none are refused. With one slot (the default) work runs one piece at a
 * time. `acquire` resolves with a release function; call it exactly once.
 */
export class RequestQueue {
  private running = 0;
  private readonly waiters: Array<() => void> = [];

  constructor(readonly slots = 1) {
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`a queue needs at least one slot, got ${slots}`);
  }

  get waiting(): number {
    return this.waiters.length;
  }

  async acquire(): Promise<() => void> {
    if (this.running < this.slots && this.waiters.length === 0) this.running++;
    // The slot is handed over by the releasing caller, so `running` already counts this one.
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.running--;
    };
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
