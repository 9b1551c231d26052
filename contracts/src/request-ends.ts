/**
 * How the gateway learns where a stream from one of svc's own runtimes ended, and its token usage,
 * without reading the stream: it names the request (REQUEST_ID_HEADER), the runtime records the
 * request's end under that name, and the gateway reads the records with a long poll of
 * REQUEST_ENDS_PATH (`?after=SEQ&wait_ms=MS`; without `after`, at once, only where the records
 * stand). The stream itself then passes through the gateway untouched.
 */
export const REQUEST_ID_HEADER = "x-svc-request-id";
export const REQUEST_ENDS_PATH = "/svc/request-ends";

/** How a stream ended at the runtime: written to its end, its client gone, or failed. */
export type RequestEndKind = "complete" | "cancelled" | "error";

export interface RequestEnd {
  /** The record's place: each record's is one above the one before. */
  seq: number;
  /** The REQUEST_ID_HEADER the request carried. */
  id: string;
  end: RequestEndKind;
  /** The answer's tokens, where it was written to its end. */
  usage: { promptTokens: number; completionTokens: number } | null;
}

export interface RequestEndsPage {
  /** The runtime process's own id: another one means it started again (and what was in flight there ended with it). */
  instance: string;
  /** The last record's seq (the next poll's `after`). */
  last: number;
  /** Records after `after` were dropped before this poll (the runtime keeps the newest ones only). */
  lost: boolean;
  ends: RequestEnd[];
}
