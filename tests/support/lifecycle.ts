/**
 * What the lifecycle tests (--idle-stop, --on-demand, --renew) share: chat requests through
 * /proxy/<id> or the gateway's /v1, a streamed one read raw (to see the gateway's keep-alive comments), and counts
 * of the events a service recorded.
 */
import type { SvcClient } from "@svc/client";

export interface ChatResult {
  ok: boolean;
  status: number;
  text: string;
  /** The service that answered (the gateway's x-svc-service header), when one did. */
  service: string | null;
}

type ChatOptions = { stream?: boolean; apiKey?: string; timeoutMs?: number; maxTokens?: number };

/** One chat completion through /proxy/<id>/v1 (no retries: a failure counts). */
export const chatThroughProxy = (appUrl: string, id: string, model: string, options: ChatOptions = {}) => chatAt(`${appUrl}/proxy/${id}/v1/chat/completions`, model, options);

/** One chat completion through the gateway's /v1, which picks the service by `model` (no retries: a failure counts). */
export const chatThroughV1 = (appUrl: string, model: string, options: ChatOptions = {}) => chatAt(`${appUrl}/v1/chat/completions`, model, options);

async function chatAt(url: string, model: string, options: ChatOptions): Promise<ChatResult> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}) },
      body: JSON.stringify({ model, messages: [{ role: "user", content: "Hello" }], max_completion_tokens: options.maxTokens ?? 4, temperature: 0, ...(options.stream ? { stream: true } : {}) }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 600_000),
    });
    const text = await response.text();
    const ok = response.ok && (options.stream ? text.includes("data: [DONE]") && !text.includes('"error"') : (JSON.parse(text) as { object?: string }).object === "chat.completion");
    return { ok, status: response.status, text, service: response.headers.get("x-svc-service") };
  } catch (error) {
    return { ok: false, status: 0, text: String(error), service: null };
  }
}

/** Events of a service whose reason starts with `prefix`. */
export async function eventsLike(client: SvcClient, id: string, prefix: string) {
  return (await client.services.get(id)).events.filter((event) => event.reason?.startsWith(prefix));
}
