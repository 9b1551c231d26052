/**
 * How long a token's event may wait to share a socket write with the ones after it: one 60 Hz frame,
 * so a reader painting tokens sees no difference. An engine slower than one token per window
 * (~60 tokens/s) has every event written as it comes; a faster one has its events gathered into
 * at most one write per window. Each write wakes the client, whose work then competes with the
 * engine for the cores: with the tiny model (~3,000 tokens/s on 2 cores) one write per token cost
 * ~20% of the tokens/s a client receives, one per 2 ms ~18%, one per 16 ms ~2% (bench/figures/runtime.ts).
 */
export const COALESCE_MS = 16;

/**
 * Writes text to `out`: `writeNow` at once (with anything held); `write` at once if it is the first
 * or the last write was at least `windowMs` ago, otherwise held for the next `write` past the window
 * (or a timer, should the writes pause). A stream's first token is never held.
 */
export class CoalescingWriter {
  private held = "";
  private lastWrite = Number.NEGATIVE_INFINITY;
  private timer?: ReturnType<typeof setTimeout>;
  private wrote = false;

  constructor(
    private readonly out: (text: string) => void,
    private readonly windowMs = COALESCE_MS,
  ) {}

  write(text: string): void {
    this.held += text;
    if (!this.wrote || performance.now() - this.lastWrite >= this.windowMs) {
      this.wrote = true;
      this.flush();
      return;
    }
    // Normally the next write past the window takes what is held: no timer fires while tokens flow.
    this.timer ??= setTimeout(() => this.flush(), this.lastWrite + this.windowMs - performance.now());
  }

  writeNow(text: string): void {
    this.held += text;
    this.flush();
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.held) return;
    this.out(this.held);
    this.held = "";
    this.lastWrite = performance.now();
  }
}
