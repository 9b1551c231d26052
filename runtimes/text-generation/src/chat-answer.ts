import type { ChatHistoryItem, Token } from "node-llama-cpp";
import { invalidRequest } from "@svc/runtime-common";
import { callableTools, templateFunctions, type CallableTool } from "./chat-history";
import { generate, type GenerationDeps } from "./generation";
import { wholeSchema } from "./json-grammar/grammar-text";
import { grammarSchema, type JsonGrammarSchema } from "./json-grammar/schema";
import type { FinishReason, GenerationOptions } from "./llama-engine";
import type { ChatCompletionRequest } from "./schemas";

/** What a chat answer streams: text, or one tool call (its start, then its arguments in pieces). */
export type AnswerEvent = { kind: "text"; piece: string } | { kind: "call"; name: string } | { kind: "arguments"; piece: string };

export interface ChatAnswer {
  /** The text answer; null when the answer is a tool call. */
  text: string | null;
  call?: { name: string; arguments: string };
  completionTokens: number;
  /** Prompt tokens the engine had in its cache already (those of the answer's first generation). */
  cachedTokens: number;
  finishReason: FinishReason | "tool_calls";
  stopReason: string | null;
}

/** How a request is answered: the prompt it is charged for, and the generation. */
export interface AnswerPlan {
  prompt: Token[];
  /** Prompt tokens the plan may add while it writes a call (its forced JSON start); kept free in the budget. */
  reserve: number;
  run(options: GenerationOptions, onEvent: (event: AnswerEvent) => void): Promise<ChatAnswer>;
}

type Request = Pick<ChatCompletionRequest, "tools" | "tool_choice" | "response_format">;

/** The answer's start the model continues when it writes a call: a JSON object `{"name": …, "arguments": …}`. */
const callStart = (name?: string) => (name === undefined ? '{"name": ' : `{"name": ${JSON.stringify(name)}, "arguments": `);

/**
 * Plans a chat answer (see docs/endpoints.md, "Tool calls and structured outputs"):
 * - `response_format` json_object / json_schema: the text is generated under the schema's grammar;
 * - `tool_choice` required: a first grammar-constrained step picks the tool's name, a second writes
 *   its arguments under the tool's parameter schema; a named tool: only the second;
 * - `auto`: the model writes freely; when its answer starts with its chat template's call syntax
 *   (e.g. "||call:"), it has chosen to call, and the call is then written as for `required`;
 *   otherwise the text is the answer. Sampling is seeded, so the choice repeats for the same request;
 * - `none`: text, the tools not shown to the model.
 */
export async function planAnswer(deps: GenerationDeps, history: ChatHistoryItem[], request: Request): Promise<AnswerPlan> {
  const engine = deps.engine();
  const choice = request.tool_choice ?? (request.tools?.length ? "auto" : "none");
  const tools = choice === "none" ? [] : callableTools(request.tools ?? []);
  if (choice !== "none" && tools.length === 0) throw invalidRequest(`tool_choice: ${JSON.stringify(choice)} needs tools; the request has none`, "tool_choice");
  const textSchema = responseSchema(request.response_format);
  if (choice === "auto" && textSchema) {
    throw invalidRequest('response_format: a JSON format together with tool_choice "auto" is not supported; use tool_choice "required" or "none", or drop response_format', "response_format");
  }
  const functions = tools.length ? templateFunctions(tools) : undefined;
  const prompt = engine.tokenizeHistory(history, functions);

  if (choice === "none") {
    const grammar = textSchema ? await engine.jsonGrammar(textSchema) : undefined;
    return { prompt, reserve: 0, run: (options, onEvent) => writeText(deps, prompt, { ...options, grammar }, onEvent) };
  }
  const named = typeof choice === "object" ? tools.find((tool) => tool.name === choice.function.name) : undefined;
  if (typeof choice === "object" && !named) throw invalidRequest(`tool_choice.function.name: "${choice.function.name}" is not one of the tools (${tools.map((tool) => tool.name).join(", ")})`, "tool_choice");
  const longest = tools.reduce((a, b) => (b.name.length > a.name.length ? b : a)).name;
  const reserve = engine.tokenizeHistory(history, functions, callStart(longest)).length - prompt.length;
  const call = (options: GenerationOptions, onEvent: (event: AnswerEvent) => void, spent = 0, cached?: number) => writeCall(deps, history, functions!, named ? [named] : tools, options, onEvent, spent, cached);
  if (choice !== "auto") return { prompt, reserve, run: call };
  return {
    prompt,
    reserve,
    async run(options, onEvent) {
      const decided = await writeTextUnlessCall(deps, prompt, options, engine.functionCallPrefix.trim(), onEvent);
      return decided.calls ? call(options, onEvent, decided.answer.completionTokens, decided.answer.cachedTokens) : decided.answer;
    },
  };
}

/** The grammar schema of a JSON response_format; undefined for text. */
function responseSchema(format: Request["response_format"]): JsonGrammarSchema | undefined {
  if (!format || format.type === "text") return undefined;
  if (format.type === "json_object") return wholeSchema({ type: "object", additionalProperties: true });
  if (!format.json_schema.schema) throw invalidRequest("response_format.json_schema.schema: the schema is missing", "response_format");
  return grammarSchema(format.json_schema.schema, "response_format.json_schema.schema");
}

async function writeText(deps: GenerationDeps, prompt: Token[], options: GenerationOptions, onEvent: (event: AnswerEvent) => void): Promise<ChatAnswer> {
  const result = await generate(deps, prompt, options, (piece) => onEvent({ kind: "text", piece }));
  return { ...result, text: result.text };
}

/** Writes a text answer, unless it starts with the call syntax `prefix`: then stops, saying the model calls. */
async function writeTextUnlessCall(deps: GenerationDeps, prompt: Token[], options: GenerationOptions, prefix: string, onEvent: (event: AnswerEvent) => void) {
  const decided = new AbortController();
  let held = "";
  let state = "open" as "open" | "text" | "call";
  const result = await generate(deps, prompt, { ...options, signal: AbortSignal.any([decided.signal, ...(options.signal ? [options.signal] : [])]) }, (piece) => {
    if (state === "text") return onEvent({ kind: "text", piece });
    held += piece;
    state = callDecision(held, prefix);
    if (state === "call") decided.abort();
    else if (state === "text") onEvent({ kind: "text", piece: held });
  });
  if (state === "open" && held) onEvent({ kind: "text", piece: held });
  return { calls: state === "call", answer: { ...result, text: result.text } as ChatAnswer };
}

/** Whether the answer so far is a call (starts with `prefix`), text, or too short to tell. */
export function callDecision(text: string, prefix: string): "open" | "text" | "call" {
  const start = text.trimStart();
  if (start.startsWith(prefix)) return "call";
  return prefix.startsWith(start) ? "open" : "text";
}

/** Writes one call of one of `tools`: its name (when there is a choice), then its arguments. */
async function writeCall(
  deps: GenerationDeps,
  history: ChatHistoryItem[],
  functions: ReturnType<typeof templateFunctions>,
  tools: CallableTool[],
  options: GenerationOptions,
  onEvent: (event: AnswerEvent) => void,
  spent: number,
  /** The cached prompt tokens of a generation made before this call's (auto's text attempt). */
  cached: number | undefined,
): Promise<ChatAnswer> {
  const engine = deps.engine();
  // Stop strings are for text; they would cut a call's JSON short.
  const callOptions = { ...options, stop: [] };
  let tool = tools[0];
  let used = spent;
  if (tools.length > 1) {
    const grammar = await engine.jsonGrammar(wholeSchema({ enum: tools.map((candidate) => candidate.name) }));
    const picked = await generate(deps, engine.tokenizeHistory(history, functions, callStart()), { ...callOptions, grammar, maxTokens: options.maxTokens - used });
    used += picked.completionTokens;
    cached ??= picked.cachedTokens;
    const name = picked.finishReason === "stop" ? parseName(picked.text) : undefined;
    tool = tools.find((candidate) => candidate.name === name)!;
    if (!tool) return { text: picked.text, completionTokens: used, cachedTokens: cached, finishReason: "length", stopReason: null };
  }
  onEvent({ kind: "call", name: tool.name });
  if (used >= options.maxTokens) return { text: null, call: { name: tool.name, arguments: "" }, completionTokens: used, cachedTokens: cached ?? 0, finishReason: "length", stopReason: null };
  const grammar = await engine.jsonGrammar(tool.parameters);
  const prompt = engine.tokenizeHistory(history, functions, callStart(tool.name));
  const args = await generate(deps, prompt, { ...callOptions, grammar, maxTokens: options.maxTokens - used }, (piece) => onEvent({ kind: "arguments", piece }));
  return {
    text: null,
    call: { name: tool.name, arguments: args.text },
    completionTokens: used + args.completionTokens,
    cachedTokens: cached ?? args.cachedTokens,
    finishReason: args.finishReason === "length" ? "length" : "tool_calls",
    stopReason: null,
  };
}

function parseName(text: string): string | undefined {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
