import { HubError } from "./errors";

export interface TimedFetchOptions {
  fetchImpl: typeof fetch;
  /** Names the hub in messages (HF_ENDPOINT). */
  endpoint: string;
  /** What is being asked for, e.g. "the file list of acme/x at 3f1c…". */
  what: string;
  connectTimeoutMs: number;
  stallTimeoutMs: number;
  /** Cancels the request (and its body) from outside. */
  signal?: AbortSignal;
}

const secondsText = (ms: number) => `${Number((ms / 1000).toFixed(3))} s`;

/**
 * fetch with the two limits every hub request has: its answer must begin within the connect
 * timeout (connecting and any redirect included), and its body may not go without a byte for
 * longer than the stall timeout. Either ends the request with a HubError of kind `unreachable`
 * that names the hub and says it stopped answering; the body then errors with that HubError.
 */
export async function timedFetch(url: string, init: RequestInit, options: TimedFetchOptions): Promise<Response> {
  const controller = new AbortController();
  const outer = options.signal;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  outer?.addEventListener("abort", forward, { once: true });
  const release = () => outer?.removeEventListener("abort", forward);

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.connectTimeoutMs);
  let response: Response;
  try {
    response = await options.fetchImpl(url, { ...init, signal: controller.signal, redirect: "follow" });
  } catch (error) {
    release();
    if (timedOut) {
      throw new HubError(
        "unreachable",
        `The hub at ${options.endpoint} stopped answering: no answer to the request for ${options.what} within ${secondsText(options.connectTimeoutMs)} ` +
          `(SVC_HUB_CONNECT_TIMEOUT). Check HF_ENDPOINT and the network, then try again.`,
      );
    }
    if (outer?.aborted) throw error;
    throw new HubError("unreachable", `Cannot reach the hub at ${options.endpoint} (${(error as Error).message}); check the network or HF_ENDPOINT.`);
  } finally {
    clearTimeout(timer);
  }
  if (!response.body) {
    release();
    return response;
  }
  const stalled = () =>
    new HubError(
      "unreachable",
      `The hub at ${options.endpoint} stopped answering while sending ${options.what}: no data for ${secondsText(options.stallTimeoutMs)} (SVC_HUB_STALL_TIMEOUT).`,
    );
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      let stallTimer: Timer | undefined;
      const stall = new Promise<never>((_, reject) => {
        stallTimer = setTimeout(() => {
          reject(stalled());
          controller.abort();
        }, options.stallTimeoutMs);
      });
      try {
        const chunk = await Promise.race([reader.read(), stall]);
        if (chunk.done) {
          release();
          out.close();
        } else out.enqueue(chunk.value);
      } catch (error) {
        release();
        out.error(error);
      } finally {
        clearTimeout(stallTimer);
      }
    },
    cancel(reason) {
      release();
      controller.abort();
      return reader.cancel(reason).catch(() => {});
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
