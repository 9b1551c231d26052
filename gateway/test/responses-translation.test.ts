/**
 * The Responses API's translation to and from chat completions (svc's CPU runtime): the chat
 * request a Responses request becomes, the Response a chat answer becomes, and the typed events a
 * chat stream becomes, in OpenAI's order, each checked against OpenAI's published shapes.
 */
import { describe, expect, test } from "bun:test";
import { assertShape, ResponseObject, ResponseStreamEvent } from "@svc/contracts/openai";
import { inResponsesTerms } from "../src/responses/chat-refusal";
import { messageOrigin } from "../src/responses/message-origin";
import { responseOfChat, startedResponse } from "../src/responses/from-chat";
import type { CreateResponseRequest, ResponseBody } from "../src/responses/model";
import { checkForTranslation } from "../src/responses/refusals";
import { responseEvents } from "../src/responses/stream-events";
import { toChatRequest, turnHistory } from "../src/responses/to-chat";

const request = (fields: Partial<CreateResponseRequest> = {}): CreateResponseRequest => ({ model: "owner/m", input: "Hi", ...fields });

describe("a Responses request as a chat request", () => {
  test("instructions, messages of every role, function calls and their outputs, tools, tool_choice, text.format and max_output_tokens", () => {
    const tools = [{ type: "function" as const, name: "weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } } }, strict: true }];
    const body = request({
      instructions: "Be brief.",
      input: [
        { role: "developer", content: "Answer in English." },
        { type: "message", role: "user", content: [{ type: "input_text", text: "Weather in " }, { type: "input_text", text: "Oslo?" }] },
        { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}' },
        { type: "function_call", call_id: "call_2", name: "weather", arguments: '{"city":"Bergen"}' },
        { type: "function_call_output", call_id: "call_1", output: "rain" },
        { role: "assistant", content: [{ type: "output_text", text: "It rains." }] },
      ],
      tools,
      tool_choice: { type: "function", name: "weather" },
      text: { format: { type: "json_schema", name: "answer", schema: { type: "object" }, strict: true } },
      max_output_tokens: 12,
      temperature: 0,
      top_p: 0.5,
      stream: true,
    });
    const checked = checkForTranslation(body as unknown as Record<string, unknown>);
    expect("request" in checked).toBe(true);
    expect(toChatRequest(body, turnHistory(undefined, body.input))).toEqual({
      model: "owner/m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "system", content: "Answer in English." },
        { role: "user", content: "Weather in Oslo?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
            { id: "call_2", type: "function", function: { name: "weather", arguments: '{"city":"Bergen"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "rain" },
        { role: "assistant", content: "It rains." },
      ],
      max_completion_tokens: 12,
      temperature: 0,
      top_p: 0.5,
      tools: [{ type: "function", function: { name: "weather", description: "Weather of a city", parameters: tools[0].parameters, strict: true } }],
      tool_choice: { type: "function", function: { name: "weather" } },
      response_format: { type: "json_schema", json_schema: { name: "answer", schema: { type: "object" }, strict: true } },
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(toChatRequest(request({ text: { format: { type: "json_object" } } }), []).response_format).toEqual({ type: "json_object" });
    expect(toChatRequest(request({ text: { format: { type: "text" } } }), [])).not.toHaveProperty("response_format");
  });

  test("a previous response's turns come first: its history and its output, not its instructions", () => {
    const previous = responseOfChat(startedResponse(request({ instructions: "Old rules." }), "owner/m"), { choices: [{ message: { content: "Hello!" }, finish_reason: "stop" }] });
    const history = turnHistory({ history: [{ type: "message", role: "user", content: "Hi" }], response: previous }, "And now?");
    expect(toChatRequest(request({ input: "And now?" }), history).messages).toEqual([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello!" },
      { role: "user", content: "And now?" },
    ]);
  });

  test("what the translation cannot honour is refused, each option named; unknown and wrongly typed fields too", () => {
    const refusal = (fields: Record<string, unknown>) => {
      const checked = checkForTranslation({ model: "owner/m", input: "Hi", ...fields });
      if (!("refusal" in checked)) throw new Error("not refused");
      return checked.refusal;
    };
    const many = refusal({ tools: [{ type: "web_search" }], reasoning: { effort: "low" }, include: ["file_search_call.results"] });
    expect(many.code).toBe("unsupported_parameter");
    expect(many.param).toBe("tools[0].type");
    for (const named of ["tools[0].type", "web_search", "reasoning", "include", "file_search_call.results"]) expect(many.message).toContain(named);
    expect(refusal({ input: [{ role: "user", content: [{ type: "input_audio", input_audio: {} }] }] }).param).toBe("input[0].content[0].type");
    expect(refusal({ input: [{ type: "item_reference", id: "x" }] }).param).toBe("input[0].type");
    expect(refusal({ colour: "blue" })).toMatchObject({ code: "unknown_parameter", param: "colour" });
    expect(refusal({ max_output_tokens: 0 })).toMatchObject({ code: "invalid_value", param: "max_output_tokens" });
  });
});

test("a chat refusal's fields in the Responses request's terms", () => {
  expect(inResponsesTerms("tools.1.function.parameters.properties.n.multipleOf: no; tools.0.function.name: x; tool_choice.function.name")).toBe(
    "tools[1].parameters.properties.n.multipleOf: no; tools[0].name: x; tool_choice.name",
  );
  expect(inResponsesTerms("response_format: a JSON format together with tool_choice")).toBe("text.format: a JSON format together with tool_choice");
  expect(inResponsesTerms("max_completion_tokens: 0 is below 1")).toBe("max_output_tokens: 0 is below 1");
  // A message's part, by where the message came from.
  const origin = messageOrigin([-1, 0, 1, 2], 1, false);
  expect(inResponsesTerms("messages.3.content.1: an image part", origin)).toBe("input[1].content[1]: an image part");
  expect(inResponsesTerms("messages.0.content.0; messages.1", origin)).toBe("instructions.content[0]; previous_response_id (an earlier turn)");
  expect(inResponsesTerms("messages.0.content.2", messageOrigin([0], 0, true))).toBe("input.content[2]");
});

describe("a chat answer as a Response", () => {
  const started = startedResponse(request({ max_output_tokens: 5, metadata: { project: "x" } }), "owner/m");
  const usage = { prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 };

  test("text becomes a message with output_text; usage in the Responses API's names", () => {
    const response = responseOfChat(started, { choices: [{ message: { role: "assistant", content: "Hello there" }, finish_reason: "stop" }], usage });
    assertShape(ResponseObject, response, "a translated answer");
    expect(response).toMatchObject({ object: "response", status: "completed", incomplete_details: null, model: "owner/m", metadata: { project: "x" }, max_output_tokens: 5 });
    expect(response.id).toMatch(/^resp_/);
    expect(response.output).toEqual([{ id: expect.stringMatching(/^msg_/), type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Hello there", annotations: [], logprobs: [] }] }]);
    expect(response.usage).toEqual({ input_tokens: 7, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 12 });
    // The request gave no user: the field is absent (OpenAI's document allows a string or nothing, not null).
    expect("user" in response).toBe(false);
    expect(startedResponse(request({ user: "u-1" }), "owner/m")).toMatchObject({ user: "u-1" });
  });

  test("an answer cut at the token limit is incomplete, with its reason", () => {
    const response = responseOfChat(started, { choices: [{ message: { content: "Hello" }, finish_reason: "length" }], usage });
    assertShape(ResponseObject, response, "a cut answer");
    expect(response.status).toBe("incomplete");
    expect(response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  test("tool calls become function_call items", () => {
    const chat = { choices: [{ message: { content: null, tool_calls: [{ id: "call_9", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } }] }, finish_reason: "tool_calls" }], usage };
    const response = responseOfChat(started, chat);
    assertShape(ResponseObject, response, "a function call");
    expect(response.output).toEqual([{ id: expect.stringMatching(/^fc_/), type: "function_call", call_id: "call_9", name: "weather", arguments: '{"city":"Oslo"}', status: "completed" }]);
  });
});

/** A chat stream's SSE bytes, as the runtime sends them (usage in a last chunk without choices). */
function chatStream(chunks: unknown[], end = "data: [DONE]\n\n"): ReadableStream<Uint8Array> {
  const text = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + end;
  const bytes = new TextEncoder().encode(text);
  // Split at odd places: an event may come in pieces.
  const pieces = [bytes.slice(0, 17), bytes.slice(17, 101), bytes.slice(101)];
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

async function events(stream: ReadableStream<Uint8Array>): Promise<Array<Record<string, any>>> {
  const text = await new Response(stream).text();
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((event) => {
      const [name, data] = event.split("\n");
      const parsed = JSON.parse(data.slice("data: ".length));
      expect(name).toBe(`event: ${parsed.type}`);
      return parsed;
    });
}

const delta = (fields: Record<string, unknown>, finish: string | null = null) => ({ object: "chat.completion.chunk", choices: [{ index: 0, delta: fields, finish_reason: finish }], usage: null });
const usageChunk = { object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } };

describe("a chat stream as the Responses API's events", () => {
  test("text: created, in_progress, item and part added, deltas, text/part/item done, completed — numbered in order, the last carrying the final response", async () => {
    let finished: ResponseBody | undefined;
    const started = startedResponse(request({ stream: true }), "owner/m");
    const all = await events(responseEvents(chatStream([delta({ role: "assistant", content: "" }), delta({ content: "Hel" }), delta({ content: "lo" }), delta({}, "stop"), usageChunk]), started, (response) => (finished = response)));
    all.forEach((event, i) => assertShape(ResponseStreamEvent, event, `event ${i} (${event.type})`));
    expect(all.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(all.map((event) => event.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all[0].response.status).toBe("in_progress");
    expect(all.filter((event) => event.type === "response.output_text.delta").map((event) => event.delta)).toEqual(["Hel", "lo"]);
    expect(all[6].text).toBe("Hello");
    const completed = all.at(-1)!.response;
    expect(completed).toEqual(finished!);
    expect(completed.output[0].id).toBe(all[2].item.id);
    expect(completed.output[0].content[0].text).toBe("Hello");
    expect(completed.usage).toMatchObject({ input_tokens: 4, output_tokens: 2, total_tokens: 6 });
  });

  test("tool calls: an item per call with its argument deltas, then arguments done and item done", async () => {
    const started = startedResponse(request({ stream: true }), "owner/m");
    const chunks = [
      delta({ role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "weather", arguments: "" } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
      delta({}, "tool_calls"),
      usageChunk,
    ];
    const all = await events(responseEvents(chatStream(chunks), started, () => {}));
    all.forEach((event, i) => assertShape(ResponseStreamEvent, event, `event ${i} (${event.type})`));
    expect(all.map((event) => event.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(all[5]).toMatchObject({ name: "weather", arguments: '{"city":"Oslo"}' });
    expect(all.at(-1)!.response.output).toEqual([{ id: all[2].item.id, type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Oslo"}', status: "completed" }]);
  });

  test("cut at max_output_tokens ends with response.incomplete; a runtime error with response.failed, and nothing is kept", async () => {
    const started = startedResponse(request({ stream: true }), "owner/m");
    const cut = await events(responseEvents(chatStream([delta({ content: "Hi" }), delta({}, "length"), usageChunk]), started, () => {}));
    expect(cut.at(-1)).toMatchObject({ type: "response.incomplete", response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } });
    let kept = false;
    const failed = await events(responseEvents(chatStream([delta({ content: "Hi" }), { error: { message: "engine crashed" } }]), started, () => (kept = true)));
    failed.forEach((event, i) => assertShape(ResponseStreamEvent, event, `event ${i} (${event.type})`));
    expect(failed.at(-1)).toMatchObject({ type: "response.failed", response: { status: "failed", error: { code: "server_error", message: "engine crashed" } } });
    expect(kept).toBe(false);
  });
});
