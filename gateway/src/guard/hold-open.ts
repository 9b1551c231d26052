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
