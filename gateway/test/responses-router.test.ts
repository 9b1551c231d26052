/**
 * /v1/responses through the gateway's router against stand-ins: a chat runtime (svc's CPU
 * runtime's API) that the gateway translates for, and an engine that serves /v1/responses itself
 * (vLLM's), which gets the request as sent. Storage per key, previous_response_id, store: false,
 * GET/DELETE, refusals naming options, and usage recorded per key under /v1/responses.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ServiceRoute } from "@svc/contracts";
import { assertShape, OpenAiErrorResponse, ResponseObject } from "@svc/contracts/openai";
import { openGatewayDb } from "../src/db/connection";
import { KeyRing } from "../src/keys/service";
import { v1Authenticator } from "../src/keys/v1-auth";
import { ServiceCatalog } from "../src/openai/catalog";
import type { V1Outcome } from "../src/openai/outcome";
import { OpenAiRouter } from "../src/openai/service";
import { ResponsesApi } from "../src/responses/service";
import { ResponseStore } from "../src/responses/store";

const seen: Array<{ path: string; body: Record<string, any> }> = [];
/** The bodies as the stand-ins received them, byte for byte. */
const raw: string[] = [];
const usage = { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 };
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const path = new URL(request.url).pathname;
    const text = await request.text();
    const body = JSON.parse(text) as Record<string, any>;
    seen.push({ path, body });
    raw.push(text);
    if (path === "/v1/responses") {
      const answer = { id: "resp_native1", object: "response", created_at: 1, status: "completed", error: null, incomplete_details: null, instructions: null, model: body.model, output: [], parallel_tool_calls: true, temperature: null, top_p: null, tool_choice: "auto", tools: [], metadata: {}, usage: { input_tokens: 3, output_tokens: 1, total_tokens: 4, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } };
      if (!body.stream) return Response.json(answer);
      const events = [{ type: "response.created", sequence_number: 0, response: { ...answer, status: "in_progress", usage: null } }, { type: "response.completed", sequence_number: 1, response: answer }];
      return new Response(events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
    }
    // As svc's CPU runtime refuses an image part (runtimes/text-generation/src/text-parts.ts).
    const imageAt = (body.messages ?? []).flatMap((message: { content: unknown }, i: number) => (Array.isArray(message.content) ? message.content.map((part: { type: string }, j: number) => (part.type === "image_url" ? `messages.${i}.content.${j}` : "")).filter(Boolean) : []))[0];
    if (path === "/v1/chat/completions" && imageAt && body.model === "owner/cpu") {
      return Response.json({ error: { message: `${imageAt}: an image part (image_url) is not supported: the CPU runtime (llama.cpp) serves text only; run this model on vLLM or SGLang.`, type: "invalid_request_error", param: imageAt, code: "unsupported_content" } }, { status: 400 });
    }
    if (body.response_format?.json_schema?.name === "refused") {
      const param = "response_format.json_schema.schema.properties.word.pattern";
      return Response.json({ error: { message: `${param}: lookarounds cannot be written by a grammar.`, type: "invalid_request_error", param, code: null } }, { status: 400 });
    }
    const reply = `reply ${seen.length}`;
    if (!body.stream) return Response.json({ id: "c", object: "chat.completion", created: 1, model: "/snapshot", choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "stop" }], usage });
    const chunk = (delta: object, finish: string | null) => ({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }], usage: null });
    const chunks = [chunk({ role: "assistant", content: "" }, null), chunk({ content: reply }, null), chunk({}, "stop"), { id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [], usage }];
    return new Response(chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n", { headers: { "content-type": "text/event-stream" } });
  },
});
const url = `http://127.0.0.1:${server.port}`;
const home = mkdtempSync(join(tmpdir(), "svc-responses-"));
afterAll(() => {
  server.stop(true);
  rmSync(home, { recursive: true, force: true });
});

const route = (name: string, model: string, kind: ServiceRoute["server"]): ServiceRoute => ({
  id: `id-${name}`,
  name,
  task: "text-generation",
  model,
  revision: "0123",
  profile: "default",
  engine: "docker",
  server: kind,
  status: "HEALTHY",
  url,
  apiKey: null,
  createdAt: "2026-11-25T10:00:00.000Z",
  onDemand: false,
  waits: false,
});

const TOKEN = "the-svc-token-0123456789";
const db = openGatewayDb(home);
const keys = new KeyRing(db);
const store = new ResponseStore(db, 30);
const outcomes: V1Outcome[] = [];
const catalog = new ServiceCatalog(async () => [route("cpu", "owner/cpu", "svc"), route("gpu", "owner/gpu", "vllm"), route("sgl", "owner/sgl", "sglang")]);
const router = new OpenAiRouter(catalog, v1Authenticator(keys, TOKEN), (outcome) => outcomes.push(outcome), { responses: new ResponsesApi(store) });
const alice = keys.create({ name: "alice" }).key;
const bob = keys.create({ name: "bob" }).key;

const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  router.handle(
    new Request(`http://localhost:8000/v1/responses${path}`, {
      method: init.method ?? (init.body ? "POST" : "GET"),
      headers: { authorization: `Bearer ${init.key ?? alice}`, "content-type": "application/json" },
      body: init.body ? JSON.stringify(init.body) : undefined,
    }),
  );

async function create(body: Record<string, unknown>, key = alice) {
  const response = await call("", { body, key });
  expect(response.status).toBe(200);
  const json = (await response.json()) as Record<string, any>;
  assertShape(ResponseObject, json, "a response");
  return json as unknown as Record<string, any>;
}

describe("translated for svc's CPU runtime", () => {
  test("a plain request: the runtime gets chat completions; the answer is a Response, kept for its key only, usage recorded under /v1/responses", async () => {
    const first = await create({ model: "owner/cpu", input: "Hi", instructions: "Be brief.", max_output_tokens: 8 });
    expect(seen.at(-1)).toEqual({ path: "/v1/chat/completions", body: { model: "owner/cpu", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi" }], max_completion_tokens: 8 } });
    expect(first.output[0].content[0].text).toMatch(/^reply /);
    expect(first.usage).toMatchObject({ input_tokens: 9, output_tokens: 2 });
    expect(outcomes.at(-1)).toMatchObject({ endpoint: "/v1/responses", status: 200, model: "owner/cpu", usage: { promptTokens: 9, completionTokens: 2 } });
    expect(await (await call(`/${first.id}`)).json()).toEqual(first);
    const other = await call(`/${first.id}`, { key: bob });
    expect(other.status).toBe(404);
    assertShape(OpenAiErrorResponse, await other.json(), "another key's response");
    expect((await call(`/${first.id}`, { key: TOKEN })).status).toBe(404);
  });

  test("previous_response_id: the earlier turn (input and output) comes before the new input; another key's id is a 404", async () => {
    const first = await create({ model: "owner/cpu", input: "Hi" });
    const second = await create({ model: "owner/cpu", input: "And then?", previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    expect(seen.at(-1)!.body.messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: first.output[0].content[0].text },
      { role: "user", content: "And then?" },
    ]);
    await create({ model: "owner/cpu", input: "Third", previous_response_id: second.id });
    expect(seen.at(-1)!.body.messages.map((message: { content: string }) => message.content)).toEqual(["Hi", first.output[0].content[0].text, "And then?", second.output[0].content[0].text, "Third"]);
    const refused = await call("", { body: { model: "owner/cpu", input: "x", previous_response_id: first.id }, key: bob });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as any).error).toMatchObject({ code: "previous_response_not_found", param: "previous_response_id" });
  });

  test("streamed: the typed events, and the final response is the one kept", async () => {
    const response = await call("", { body: { model: "owner/cpu", input: "Hi", stream: true } });
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const events = (await response.text()).split("\n\n").filter(Boolean).map((event) => JSON.parse(event.split("\n")[1].slice(6)));
    expect(events[0].type).toBe("response.created");
    const completed = events.at(-1);
    expect(completed.type).toBe("response.completed");
    expect(await (await call(`/${completed.response.id}`)).json()).toEqual(completed.response);
    expect(outcomes.at(-1)).toMatchObject({ endpoint: "/v1/responses", end: "complete", usage: { promptTokens: 9, completionTokens: 2 } });
  });

  test("store: false keeps nothing; DELETE removes a kept one; another key cannot delete it", async () => {
    const unkept = await create({ model: "owner/cpu", input: "Hi", store: false });
    expect((await call(`/${unkept.id}`)).status).toBe(404);
    const kept = await create({ model: "owner/cpu", input: "Hi" });
    expect((await call(`/${kept.id}`, { method: "DELETE", key: bob })).status).toBe(404);
    const deleted = await call(`/${kept.id}`, { method: "DELETE" });
    expect(await deleted.json()).toEqual({ id: kept.id, object: "response.deleted", deleted: true });
    expect((await call(`/${kept.id}`)).status).toBe(404);
  });

  test("options the runtime cannot honour are a 400 naming them, recorded as usage; the runtime gets nothing", async () => {
    const before = seen.length;
    for (const [body, param] of [
      [{ model: "owner/cpu", input: "Hi", tools: [{ type: "web_search" }] }, "tools[0].type"],
      [{ model: "owner/cpu", input: "Hi", reasoning: { effort: "high" } }, "reasoning"],
      [{ model: "owner/cpu", input: "Hi", background: true }, "background"],
      [{ model: "owner/cpu", input: "Hi", temperature: 7 }, "temperature"],
    ] as const) {
      const response = await call("", { body });
      expect(response.status).toBe(400);
      const error = (await response.json()) as any;
      assertShape(OpenAiErrorResponse, error, "a refusal");
      expect(error.error.param).toBe(param);
      expect(error.error.message).toContain(param);
      expect(outcomes.at(-1)).toMatchObject({ endpoint: "/v1/responses", status: 400 });
    }
    expect(seen.length).toBe(before);
  });
});

describe("a refusal of the translated request", () => {
  test("names the field the client sent (text.format.schema…), not the chat field it became", async () => {
    const format = { type: "json_schema", name: "refused", schema: { type: "object", properties: { word: { type: "string", pattern: "^(?!x)" } } } };
    const response = await call("", { body: { model: "owner/cpu", input: "Hi", text: { format } } });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as any;
    expect(error.param).toBe("text.format.schema.properties.word.pattern");
    expect(error.message).toBe("text.format.schema.properties.word.pattern: lookarounds cannot be written by a grammar.");
  });
});

describe("passed on to an engine that serves /v1/responses", () => {
  test("the request goes as sent (options included), its answer is kept and its usage recorded", async () => {
    const answer = await create({ model: "owner/gpu", input: "Hi", reasoning: { effort: "low" } });
    expect(seen.at(-1)).toEqual({ path: "/v1/responses", body: { model: "owner/gpu", input: "Hi", reasoning: { effort: "low" } } });
    expect(outcomes.at(-1)).toMatchObject({ endpoint: "/v1/responses", usage: { promptTokens: 3, completionTokens: 1 } });
    expect(((await (await call(`/${answer.id}`)).json()) as any).id).toBe("resp_native1");
  });

  test("a previous_response_id is replaced by the turns it stands for; a stream's final response is kept and its usage read", async () => {
    const response = await call("", { body: { model: "owner/gpu", input: "Next", previous_response_id: "resp_native1", stream: true } });
    expect(await response.text()).toContain("response.completed");
    expect(seen.at(-1)!.body).toEqual({ model: "owner/gpu", stream: true, input: [{ type: "message", role: "user", content: "Hi" }, { type: "message", role: "user", content: "Next" }] });
    expect(outcomes.at(-1)).toMatchObject({ endpoint: "/v1/responses", end: "complete", usage: { promptTokens: 3, completionTokens: 1 } });
  });
});

/** A 1×1 PNG as a data URL, and an image on the web: both go on as the client wrote them. */
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const WEB_IMAGE = "https://example.org/cat.jpg?size=large&x=%2F";

describe("images (issue 43)", () => {
  test("a chat's image parts reach a vLLM or SGLang service byte for byte", async () => {
    for (const model of ["owner/gpu", "owner/sgl"]) {
      const text = JSON.stringify({ model, messages: [{ role: "user", content: [{ type: "text", text: "Compare:" }, { type: "image_url", image_url: { url: PNG, detail: "low" } }, { type: "image_url", image_url: { url: WEB_IMAGE } }] }], max_tokens: 4 });
      const response = await router.handle(new Request("http://localhost:8000/v1/chat/completions", { method: "POST", headers: { authorization: `Bearer ${alice}`, "content-type": "application/json" }, body: text }));
      expect(response.status).toBe(200);
      expect(seen.at(-1)!.path).toBe("/v1/chat/completions");
      expect(raw.at(-1)).toBe(text);
    }
  });

  test("Responses input_image: passed on as sent to an engine serving /v1/responses; translated to an image_url part for the CPU runtime, whose refusal names the input part", async () => {
    const input = [{ role: "user", content: [{ type: "input_text", text: "What is this?" }, { type: "input_image", image_url: PNG, detail: "high" }, { type: "input_image", image_url: WEB_IMAGE }] }];
    await create({ model: "owner/gpu", input });
    expect(seen.at(-1)).toEqual({ path: "/v1/responses", body: { model: "owner/gpu", input } });

    const response = await call("", { body: { model: "owner/cpu", instructions: "Be brief.", input } });
    expect(seen.at(-1)!.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "What is this?" }, { type: "image_url", image_url: { url: PNG, detail: "high" } }, { type: "image_url", image_url: { url: WEB_IMAGE } }] },
    ]);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as any;
    expect(error).toMatchObject({ param: "input[0].content[1]", code: "unsupported_content" });
    expect(error.message).toStartWith("input[0].content[1]: an image part (image_url) is not supported: the CPU runtime (llama.cpp) serves text only");
  });

  test("an input_image by file_id, or without its image_url, is a 400 naming the part, on every engine; nothing is sent", async () => {
    const before = seen.length;
    for (const model of ["owner/gpu", "owner/cpu"]) {
      for (const [part, param] of [
        [{ type: "input_image", file_id: "file-abc" }, "input[1].content[1].file_id"],
        [{ type: "input_image", detail: "auto" }, "input[1].content[1].image_url"],
      ] as const) {
        const response = await call("", { body: { model, input: [{ role: "system", content: "x" }, { role: "user", content: [{ type: "input_text", text: "Hi" }, part] }] } });
        expect(response.status).toBe(400);
        const { error } = (await response.json()) as any;
        expect(error.param).toBe(param);
        expect(error.message).toContain(param);
      }
    }
    expect(seen.length).toBe(before);
  });
});
