/**
 * A fake OpenAI-compatible server in the test's own process: the cheapest upstream /v1 can route to
 * (`svc endpoint add`, or a route of the gateway's own tests). It answers chat completions (plain and
 * streamed), completions, embeddings and transcriptions of `model`, and lists it at GET /v1/models.
 */
export interface FakeOpenAi {
  url: string;
  /** While on, answers wait until it is turned off again. */
  holdAnswers(on: boolean): void;
  heldCount(): number;
  stop(): void;
}

const notFound = () => Response.json({ error: { message: "not found", type: "invalid_request_error", param: null, code: null } }, { status: 404 });

/** Every answer reports `usage` (7 prompt and 3 completion tokens unless given), a stream's in a final chunk. */
export function startFakeOpenAi(model: string, usage = { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 }): FakeOpenAi {
  const held: Array<() => void> = [];
  let holding = false;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (request.method === "GET" && path === "/v1/models") return Response.json({ object: "list", data: [{ id: model, object: "model", created: 1, owned_by: "lab" }] });
      if (request.method !== "POST") return notFound();
      if (path === "/v1/audio/transcriptions") return Response.json({ text: "hello" });
      const body = (await request.json()) as { stream?: boolean };
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      if (path === "/v1/embeddings") return Response.json({ object: "list", data: [{ object: "embedding", index: 0, embedding: [0.1] }], model, usage: { prompt_tokens: usage.prompt_tokens, total_tokens: usage.prompt_tokens } });
      if (path === "/v1/completions") return Response.json({ id: "cmpl-1", object: "text_completion", created: 1, model, choices: [{ index: 0, text: "hello", finish_reason: "stop" }], usage });
      if (path !== "/v1/chat/completions") return notFound();
      const message = { role: "assistant", content: "hello" };
      if (!body.stream) return Response.json({ id: "chatcmpl-1", object: "chat.completion", created: 1, model, choices: [{ index: 0, message, finish_reason: "stop" }], usage });
      const chunk = { id: "chatcmpl-1", object: "chat.completion.chunk", created: 1, model, choices: [{ index: 0, delta: message, finish_reason: "stop" }] };
      const last = { ...chunk, choices: [], usage };
      return new Response(`data: ${JSON.stringify(chunk)}\n\ndata: ${JSON.stringify(last)}\n\ndata: [DONE]\n\n`, { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    holdAnswers(on) {
      holding = on;
      if (!on) held.splice(0).forEach((release) => release());
    },
    heldCount: () => held.length,
    stop: () => server.stop(true),
  };
}
