/** POST /v1/chat/completions served by Bun's router (direct-route.ts) answers every request as the Elysia route does. */
import { expect, test } from "bun:test";
import { createRuntimeApp, directJsonRoute, EngineState, inferenceGate, invalidRequest, MetricsRegistry, RequestQueue } from "@svc/runtime-common";
import { ChatCompletionRequest, integerStringsToNumbers } from "../src/schemas";

const KEY = "s3cret";
const engine = new EngineState();
engine.markReady();
// The handler echoes the body it was given, and refuses one field with the runtime's own error.
const handle = async ({ body }: { body: ChatCompletionRequest }) => {
  if (body.model === "refused") throw invalidRequest("model: refused here", "model");
  if (body.model === "broken") throw new Error("engine broke");
  return body.stream ? new Response("data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } }) : body;
};
const app = createRuntimeApp({ apiKey: KEY, engine, queue: new RequestQueue(), metrics: new MetricsRegistry(), isInferencePath: (path) => path.startsWith("/v1/") }).post(
  "/v1/chat/completions",
  handle,
  { body: ChatCompletionRequest, transform: integerStringsToNumbers },
);
const direct = directJsonRoute({ schema: ChatCompletionRequest, transform: integerStringsToNumbers, handle, gate: inferenceGate({ apiKey: KEY, engine }), app });

const request = (body: string, headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${KEY}` }) =>
  new Request("http://127.0.0.1/v1/chat/completions", { method: "POST", headers, body });
const answer = async (response: Response) => ({ status: response.status, type: response.headers.get("content-type"), text: await response.text() });
const messages = [{ role: "user", content: "hi" }];

test("valid, invalid, unparsable, unauthorised and failing requests get the Elysia route's answer, byte for byte", async () => {
  const cases: Array<[string, Record<string, string>?]> = [
    [JSON.stringify({ messages })],
    [JSON.stringify({ messages, max_tokens: "12", seed: "3", user: "u" })],
    [JSON.stringify({ messages, stream: true })],
    [JSON.stringify({ messages, max_tokens: 0 })],
    [JSON.stringify({ messages: [] })],
    [JSON.stringify({ messages, temperature: "hot" })],
    [JSON.stringify({ messages, model: "refused" })],
    [JSON.stringify({ messages, model: "broken" })],
    ["[1, 2"],
    ["null"],
    [""],
    [JSON.stringify({ messages }), { "content-type": "text/plain", authorization: `Bearer ${KEY}` }],
    [JSON.stringify({ messages }), { "content-type": "application/json" }],
    [JSON.stringify({ messages }), { "content-type": "application/json", authorization: "Bearer wrong" }],
  ];
  for (const [body, headers] of cases) {
    const expected = await answer(await app.handle(request(body, headers)));
    expect({ sent: body, ...(await answer(await direct(request(body, headers)))) }).toEqual({ sent: body, ...expected });
  }
});

test("a valid body reaches the handler as the Elysia route gives it: integer strings as numbers, other fields kept", async () => {
  const response = await direct(request(JSON.stringify({ messages, max_tokens: "12", metadata: { a: 1 } })));
  expect(await response.json()).toEqual({ messages, max_tokens: 12, metadata: { a: 1 } });
});

test("while the model loads, the direct route answers 503 as the app does", async () => {
  const loading = new EngineState();
  const route = directJsonRoute({ schema: ChatCompletionRequest, transform: integerStringsToNumbers, handle, gate: inferenceGate({ engine: loading }), app });
  const response = await route(request(JSON.stringify({ messages })));
  expect(response.status).toBe(503);
  expect((await response.json()).error.code).toBe("model_loading");
});
