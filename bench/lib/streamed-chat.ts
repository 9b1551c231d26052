/** One streamed chat of the fair-share figure (bench/figures/fair-share.ts), timed as a client sees it. */
export interface StreamedChat {
  sentAt: number;
  /** When its first token's text came (not the role chunk before it). */
  firstTokenAt?: number;
  endedAt?: number;
  status?: number;
  /** Completion tokens, from the usage chunk. */
  tokens: number;
  /** Neither a whole stream nor a 429 with Retry-After. */
  lost?: string;
}

const FIRST_TOKEN = /"content":"[^"]/;

/** A greedy (temperature 0) streamed chat of `maxTokens`, read to its end; performance.now() times. */
export async function streamedChat(url: string, key: string, model: string, maxTokens: number): Promise<StreamedChat> {
  const sent: StreamedChat = { sentAt: performance.now(), tokens: 0 };
  try {
    const answer = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model, stream: true, stream_options: { include_usage: true }, max_tokens: maxTokens, temperature: 0, messages: [{ role: "user", content: "Tell me a story." }] }),
    });
    sent.status = answer.status;
    if (answer.status === 429) {
      await answer.text();
      if (!answer.headers.get("retry-after")) sent.lost = "429 without Retry-After";
      return sent;
    }
    if (answer.status !== 200 || !answer.body) {
      sent.lost = `status ${answer.status}: ${(await answer.text()).slice(0, 120)}`;
      return sent;
    }
    const decoder = new TextDecoder();
    let tail = "";
    for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
      const piece = decoder.decode(chunk, { stream: true });
      // Only the newest bytes are looked at (a token's chunk may be split across two reads: a few bytes of the last are kept).
      if (sent.firstTokenAt === undefined && FIRST_TOKEN.test(tail.slice(-16) + piece)) sent.firstTokenAt = performance.now();
      tail = (tail + piece).slice(-400);
    }
    sent.endedAt = performance.now();
    sent.tokens = Number(tail.match(/"completion_tokens":(\d+)/)?.[1] ?? 0);
    if (!tail.trimEnd().endsWith("data: [DONE]")) sent.lost = `a stream ended without [DONE]: …${tail.slice(-80)}`;
  } catch (error) {
    sent.lost = String((error as Error).message ?? error);
  }
  return sent;
}
