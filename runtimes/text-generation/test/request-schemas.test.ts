/** The sampling integers stay plain in the schema (no per-request decode pass), yet "12" is still taken as 12. */
import { expect, test } from "bun:test";
import { createRuntimeApp, EngineState, MetricsRegistry, RequestQueue } from "@svc/runtime-common";
import { ChatCompletionRequest, integerStringsToNumbers } from "../src/schemas";

const app = createRuntimeApp({ engine: new EngineState(), queue: new RequestQueue(), metrics: new MetricsRegistry(), isInferencePath: () => false }).post("/v1/chat/completions", ({ body }) => body, { body: ChatCompletionRequest, transform: integerStringsToNumbers });

const post = async (fields: object) => {
  const response = await app.handle(
    new Request("http://127.0.0.1/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ messages: [{ role: "user", content: "hi" }], ...fields }) }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> & { error?: { message: string; param: string | null } } };
};

test("integers sent as strings are read as numbers", async () => {
  expect((await post({ max_tokens: "12", seed: "-3", max_completion_tokens: "7", n: "1" })).body).toMatchObject({ max_tokens: 12, seed: -3, max_completion_tokens: 7, n: 1 });
  expect((await post({ max_tokens: 12 })).body).toMatchObject({ max_tokens: 12 });
});

test("an integer field out of range or not an integer, as a string or not, is refused with the field's message", async () => {
  for (const max_tokens of ["0", "abc", 1.5, 0]) {
    const { status, body } = await post({ max_tokens });
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ message: "max_tokens: must be an integer of at least 1", param: "max_tokens" });
  }
  expect((await post({ n: "2" })).body.error).toMatchObject({ message: "n: only one choice per request is supported", param: "n" });
});
