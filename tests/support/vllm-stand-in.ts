/**
 * A stand-in for vLLM's OpenAI server (`python3 -m vllm.entrypoints.openai.api_server`), for the
 * batch driver's tests and the test cluster, which has no GPU and no vLLM: it takes vLLM's
 * arguments (--model, --host, --port), its key from VLLM_API_KEY, serves the model under the
 * name --model gives, answers 404 to any other model name as vLLM does, and answers
 * /v1/chat/completions, /v1/completions and /v1/embeddings with text made from the request.
 */
const args = process.argv.slice(2);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const model = option("--model");
if (!model) {
  console.error("vllm (stand-in): --model is required");
  process.exit(2);
}
const key = process.env.VLLM_API_KEY;
const error = (status: number, message: string) => Response.json({ object: "error", message, type: status === 404 ? "NotFoundError" : "BadRequestError", code: status }, { status });

Bun.serve({
  hostname: option("--host") ?? "127.0.0.1",
  port: Number(option("--port") ?? 8000),
  async fetch(request) {
    const path = new URL(request.url).pathname;
    if (path === "/health") return new Response("");
    if (key && request.headers.get("authorization") !== `Bearer ${key}`) return Response.json({ error: "Unauthorized" }, { status: 401 });
    if (path === "/v1/models") return Response.json({ object: "list", data: [{ id: model, object: "model", owned_by: "vllm" }] });
    const body = (await request.json().catch(() => ({}))) as { model?: string; messages?: { content: string }[]; prompt?: string; input?: string };
    if (body.model !== model) return error(404, `The model \`${body.model}\` does not exist.`);
    if (path === "/v1/chat/completions") {
      const text = body.messages?.at(-1)?.content ?? "";
      return Response.json({ object: "chat.completion", model, choices: [{ index: 0, message: { role: "assistant", content: `vllm stand-in read ${text.length} characters` }, finish_reason: "stop" }] });
    }
    if (path === "/v1/completions") return Response.json({ object: "text_completion", model, choices: [{ index: 0, text: `vllm stand-in completed ${String(body.prompt ?? "").length} characters`, finish_reason: "stop" }] });
    if (path === "/v1/embeddings") return Response.json({ object: "list", model, data: [{ object: "embedding", index: 0, embedding: [String(body.input ?? "").length, 1] }] });
    return error(404, `Not Found: ${path}`);
  },
});
console.log(`vllm (stand-in): serving ${model}`);
