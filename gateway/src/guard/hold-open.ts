/**
 * Seconds a connection may stay silent: a client that sends its headers or body slowly, or keeps
 * an idle connection, is dropped after this.
 */
export const IDLE_TIMEOUT_SECONDS = 10;

/** The part of Bun's server that sets one request's idle timeout (absent when the app is called directly). */
export type TimeoutControl = { timeout(request: Request, seconds: number): void } | null | undefined;

/**
 * Lifts the idle timeout for one request whose answer may be long in coming or a stream (a
 * proxied chat, followed logs, a launch that builds an image). Only called once the request is
 * authorised and its body read (or, through /proxy/, streaming). The connection closes after the
 * answer, so a lifted connection never idles on: the headers returned say so, for the answer.
 */
export function holdOpen(request: Request, server: TimeoutControl): Record<string, string> {
  server?.timeout(request, 0);
  return { connection: "close" };
}

/** How long a passed-on request may wait for its answer before its idle timeout is lifted (well inside IDLE_TIMEOUT_SECONDS). */
export const LIFT_AFTER_MS = (IDLE_TIMEOUT_SECONDS * 1000) / 2;

/** holdOpen for a request passed on to a service, done only when its answer turns out slow or streamed. */
export interface LazyHold {
  /** Headers for the answer `upstream` gave: none when it came quickly with a known length (the connection is kept for the next request). */
  answered(upstream: Response): Record<string, string>;
  /** `response` (made here, not passed on) as it must go: closing the connection if the timeout was lifted meanwhile. */
  settle(response: Response): Response;
}

/**
 * Like holdOpen, but lifts the timeout only once the answer is slow (LIFT_AFTER_MS without one) or
 * a stream (no content-length): a small quick answer keeps its connection alive, so a client
 * sending many small requests does not open a connection for each (what nginx does too).
 */
export function holdOpenIfSlow(request: Request, server: TimeoutControl, liftAfterMs = LIFT_AFTER_MS): LazyHold {
  return new SlowAnswerHold(request, server, liftAfterMs);
}

const NOTHING: Record<string, string> = Object.freeze({}) as Record<string, string>;
const CLOSING: Record<string, string> = Object.freeze({ connection: "close" });

/** holdOpenIfSlow's hold: one object and (with a server) one timer per request, as every proxied request makes one. */
class SlowAnswerHold implements LazyHold {
  private lifted = false;
  private readonly timer: Timer | undefined;

  constructor(
    private readonly request: Request,
    private readonly server: TimeoutControl,
    liftAfterMs: number,
  ) {
    if (server) this.timer = setTimeout(liftHold, liftAfterMs, this).unref();
  }

  lift(): void {
    if (this.lifted) return;
    this.lifted = true;
    try {
      this.server?.timeout(this.request, 0);
    } catch {
      // The request is already over: nothing to hold open.
    }
  }

  answered(upstream: Response): Record<string, string> {
    clearTimeout(this.timer);
    if (!upstream.headers.has("content-length")) this.lift();
    return this.lifted ? CLOSING : NOTHING;
  }

  settle(response: Response): Response {
    clearTimeout(this.timer);
    if (this.lifted && !response.headers.has("connection")) response.headers.set("connection", "close");
    return response;
  }
}

const liftHold = (hold: SlowAnswerHold) => hold.lift();
