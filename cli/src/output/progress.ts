/**
 * A download progress display: on a terminal, one bar redrawn in place (bytes, rate, time left);
 * anywhere else, a plain line now and then (every 10 % or 10 s) so logs stay readable.
 */
import { formatBytes } from "@svc/contracts/format-bytes";
import { textBar } from "./bar";

export { formatBytes };

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

export interface ProgressOptions {
  /** Draw a bar redrawn in place (only on a terminal). */
  tty: boolean;
  /** Raw output for the bar (no newline added), e.g. process.stderr.write. */
  write: (text: string) => void;
  /** Line output for the plain mode. */
  line: (text: string) => void;
  /** Terminal width; default 80. */
  columns?: number;
  now?: () => number;
}

export class ProgressDisplay {
  private readonly samples: { at: number; bytes: number }[] = [];
  private lastLine = { at: 0, fraction: -1 };
  private drawn = false;
  private readonly now: () => number;

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /** Bytes per second over the last few seconds. */
  private rate(): number {
    if (this.samples.length < 2) return 0;
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    const seconds = (last.at - first.at) / 1000;
    return seconds > 0 ? (last.bytes - first.bytes) / seconds : 0;
  }

  /** The text of the progress line for `done` of `total` bytes. */
  describe(done: number, total: number): string {
    const rate = this.rate();
    const left = rate > 0 ? formatDuration((total - done) / rate) : "--:--";
    const percent = total > 0 ? Math.floor((done / total) * 100) : 100;
    return `${formatBytes(done)} / ${formatBytes(total)}  ${String(percent).padStart(3)}%  ${formatBytes(Math.round(rate))}/s  ${left} left`;
  }

  update(done: number, total: number): void {
    const at = this.now();
    this.samples.push({ at, bytes: done });
    while (this.samples.length > 2 && at - this.samples[0].at > 5000) this.samples.shift();
    const text = this.describe(done, total);
    if (this.options.tty) {
      const columns = this.options.columns ?? 80;
      const width = Math.max(10, Math.min(40, columns - text.length - 4));
      this.options.write(`\r\x1b[K${textBar(total > 0 ? done / total : 1, width)} ${text}`);
      this.drawn = true;
      return;
    }
    const fraction = total > 0 ? done / total : 1;
    if (this.lastLine.fraction >= 1) return;
    if (fraction >= 1 || fraction - this.lastLine.fraction >= 0.1 - 1e-9 || at - this.lastLine.at >= 10_000) {
      this.options.line(text);
      this.lastLine = { at, fraction };
    }
  }

  /** Ends the display (a final newline after the bar). */
  finish(): void {
    if (this.options.tty && this.drawn) this.options.write("\n");
    this.drawn = false;
  }
}
