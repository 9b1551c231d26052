/**
 * Turns the growing decoded text of a generation into safe-to-send pieces: holds back a trailing
 * incomplete UTF-8 character and any tail that could still become a stop string, and reports the
 * first stop string found (the text is cut before it).
 */
export class StopTextFilter {
  private sent = 0;
  private readonly longestStop: number;

  constructor(private readonly stops: string[]) {
    this.longestStop = Math.max(0, ...stops.map((stop) => stop.length));
  }

  /** `decoded` is the whole text generated so far. */
  next(decoded: string): { piece: string; stoppedBy?: string } {
    const text = decoded.endsWith("\uFFFD") ? decoded.replace(/\uFFFD+$/, "") : decoded;
    const searchFrom = Math.max(0, this.sent - this.longestStop);
    let cut = -1;
    let stoppedBy: string | undefined;
    for (const stop of this.stops) {
      const at = text.indexOf(stop, searchFrom);
      if (at !== -1 && (cut === -1 || at < cut)) {
        cut = at;
        stoppedBy = stop;
      }
    }
    if (stoppedBy !== undefined) return { piece: this.take(text, Math.max(cut, this.sent)), stoppedBy };
    return { piece: this.take(text, text.length - this.heldBack(text)) };
  }

  /** Whatever is still held back once the generation has ended without a stop string. */
  flush(decoded: string): string {
    return this.take(decoded, decoded.length);
  }

  private heldBack(text: string): number {
    for (let length = Math.min(this.longestStop - 1, text.length - this.sent); length > 0; length--) {
      const tail = text.slice(text.length - length);
      if (this.stops.some((stop) => stop.startsWith(tail))) return length;
    }
    return 0;
  }

  private take(text: string, end: number): string {
    if (end <= this.sent) return "";
    const piece = text.slice(this.sent, end);
    this.sent = end;
    return piece;
  }
}
