import { Elysia } from "elysia";
import { REQUEST_ENDS_PATH, REQUEST_ID_HEADER, type RequestEnd, type RequestEndKind, type RequestEndsPage } from "@svc/contracts/request-ends";
import { checkBearer } from "./bearer-auth";
import { invalidRequest } from "./openai-error";

/** Records kept (at least) for polls that come late: the gateway polls while it has a stream in flight here, so far fewer wait between two polls. */
const KEPT = 20_000;
/** The longest a poll waits for a record, and what it waits without `wait_ms`. */
const MAX_WAIT_MS = 30_000;
const LONGEST_ID = 128;

/** Records how one named stream ended, and its tokens where it was written to its end. */
export type EndReporter = (end: RequestEndKind, usage: RequestEnd["usage"]) => void;

/**
 * The ends of streamed requests that named themselves with REQUEST_ID_HEADER (the gateway's), kept
 * for the gateway's long polls of REQUEST_ENDS_PATH: the gateway learns each stream's end and usage
 * here instead of reading the stream on its way.
 */
export class RequestEnds {
  readonly instance = crypto.randomUUID();
  private readonly ends: RequestEnd[] = [];
  private last = 0;
  private readonly waiting = new Set<() => void>();

  /** What records the end of `request`'s stream: only one that names itself (with REQUEST_ID_HEADER) has its end recorded. */
  reporter(request: Request): EndReporter | undefined {
    const id = request.headers.get(REQUEST_ID_HEADER);
    if (!id || id.length > LONGEST_ID) return undefined;
    return (end, usage) => this.record(id, end, usage);
  }

  record(id: string, end: RequestEndKind, usage: RequestEnd["usage"]): void {
    this.ends.push({ seq: ++this.last, id, end, usage });
    // Trimmed a quarter at a time: not a shift of the whole list per record.
    if (this.ends.length > KEPT * 1.25) this.ends.splice(0, this.ends.length - KEPT);
    for (const wake of this.waiting) wake();
    this.waiting.clear();
  }

  /** The records after `after`, waiting up to `waitMs` for one; without `after`, only where the records stand. */
  async after(after: number | undefined, waitMs: number, signal?: AbortSignal): Promise<RequestEndsPage> {
    if (after === this.last && waitMs > 0 && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", wake);
          this.waiting.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, waitMs);
        signal?.addEventListener("abort", wake);
        this.waiting.add(wake);
      });
    }
    if (after === undefined) return { instance: this.instance, last: this.last, lost: false, ends: [] };
    const first = this.ends[0]?.seq ?? this.last + 1;
    const ends = after >= this.last ? [] : this.ends.slice(Math.max(0, after + 1 - first));
    return { instance: this.instance, last: this.last, lost: after + 1 < first, ends };
  }
}

const wholeNumber = (text: string | null | undefined) => (text != null && /^\d{1,15}$/.test(text) ? Number(text) : undefined);

/** `GET REQUEST_ENDS_PATH?after=SEQ&wait_ms=MS`, behind the service's API key. */
export function requestEndsRoute(ends: RequestEnds, apiKey: string | undefined) {
  return new Elysia().get(REQUEST_ENDS_PATH, ({ request, query }) => {
    const denied = checkBearer(request, apiKey);
    if (denied) return denied;
    const after = wholeNumber(query.after);
    const waitMs = wholeNumber(query.wait_ms);
    if ((query.after !== undefined && after === undefined) || (query.wait_ms !== undefined && waitMs === undefined)) {
      throw invalidRequest("`after` and `wait_ms` are whole numbers.", "after");
    }
    return ends.after(after, Math.min(waitMs ?? MAX_WAIT_MS, MAX_WAIT_MS), request.signal);
  });
}
