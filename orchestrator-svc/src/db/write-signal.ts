/** Wakes whoever waits for a store's next write (the gateway's long poll of the service routes). */
export class WriteSignal {
  private waiting: { promise: Promise<void>; resolve: () => void } | undefined;

  /** A write was committed. */
  notify(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.resolve();
  }

  /** Resolves at the next write (one promise shared by all who wait). */
  next(): Promise<void> {
    this.waiting ??= Promise.withResolvers<void>();
    return this.waiting.promise;
  }
}
