/** A fake OpenAI-compatible server in the test's own process, for `svc endpoint add`: the cheapest upstream /v1 can route to. */
export interface FakeOpenAi {
  url: string;
  /** While on, chat answers wait until it is turned off again. */
  holdAnswers(on: boolean): void;
  heldCount(): number;
  stop(): void;
}

/** Every chat answer reports `usage` (7 prompt and 3 completion tokens unless given), streamed ones in a final chunk. */
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
      if (request.method !== "POST" || path !== "/v1/chat/completions") return Response.json({ error: { message: "not found", type: "invalid_request_error", param: null, code: null } }, { status: 404 });
      const body = (await request.json()) as { stream?: boolean };
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
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
