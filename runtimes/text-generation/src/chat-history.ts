import type { ChatHistoryItem, ChatModelFunctionCall, ChatModelFunctions } from "node-llama-cpp";
import { invalidRequest } from "@svc/runtime-common";
import { grammarSchema, type JsonGrammarSchema } from "./json-grammar/schema";
import type { ChatCompletionRequest } from "./schemas";

type Message = ChatCompletionRequest["messages"][number];
type Tool = NonNullable<ChatCompletionRequest["tools"]>[number];

/** A tool the model may call: its name, and the schema its arguments are generated under. */
export interface CallableTool {
  name: string;
  description?: string;
  parameters: JsonGrammarSchema;
}

const SYSTEM_ROLES = new Set(["system", "developer"]);

function textOf(message: Message): string {
  return typeof message.content === "string" ? message.content : (message.content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/** A call's arguments as the template writes them: parsed where they are JSON, else the text as sent. */
function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The messages as node-llama-cpp's chat history: an assistant turn's tool calls become function
 * calls with the results of the `tool` messages that answer them (by `tool_call_id`), so the
 * template renders a second turn the way it renders its own calls and results.
 */
export function chatHistory(messages: Message[]): ChatHistoryItem[] {
  const results = new Map<string, string>();
  messages.forEach((message, index) => {
    if (message.role !== "tool") return;
    if (!message.tool_call_id) throw invalidRequest(`messages.${index}.tool_call_id: a tool message names the call it answers`, `messages.${index}.tool_call_id`);
    results.set(message.tool_call_id, textOf(message));
  });
  const called = new Set<string>();
  const history: ChatHistoryItem[] = [];
  messages.forEach((message, index) => {
    if (SYSTEM_ROLES.has(message.role)) history.push({ type: "system", text: textOf(message) });
    else if (message.role === "user") history.push({ type: "user", text: textOf(message) });
    else if (message.role === "assistant") {
      const calls: ChatModelFunctionCall[] = (message.tool_calls ?? []).map((call) => {
        called.add(call.id);
        return { type: "functionCall", name: call.function.name, params: parsedArguments(call.function.arguments), result: results.get(call.id) ?? "" };
      });
      const text = textOf(message);
      history.push({ type: "model", response: text ? [text, ...calls] : calls });
    } else if (message.role === "tool") {
      if (!called.has(message.tool_call_id!)) {
        throw invalidRequest(`messages.${index}.tool_call_id: "${message.tool_call_id}" answers no tool call of an earlier assistant message`, `messages.${index}.tool_call_id`);
      }
    } else {
      throw invalidRequest(`messages.${index}.role: "${message.role}" is not one of system, developer, user, assistant, tool`, `messages.${index}.role`);
    }
  });
  return history;
}

/** The request's tools, their parameters checked against what the grammar can enforce. */
export function callableTools(tools: Tool[]): CallableTool[] {
  const names = new Set<string>();
  return tools.map((tool, index) => {
    const { name, description, parameters } = tool.function;
    if (names.has(name)) throw invalidRequest(`tools.${index}.function.name: "${name}" is named twice`, `tools.${index}.function.name`);
    names.add(name);
    const schema = parameters ?? { type: "object", properties: {} };
    return { name, description, parameters: grammarSchema(schema, `tools.${index}.function.parameters`) };
  });
}

/** The tools as the chat template documents them in its system text. */
export function templateFunctions(tools: CallableTool[]): ChatModelFunctions {
  return Object.fromEntries(tools.map((tool) => [tool.name, { description: tool.description, params: tool.parameters.documented }]));
}
