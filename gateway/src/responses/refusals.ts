import { SERVICE_TIERS } from "@svc/contracts";
import { refuseImageParts } from "./image-parts";
import { checkCreateRequest, KNOWN_FIELDS, type CreateResponseRequest } from "./model";

/** Why a request is refused (400), OpenAI's way: a message and the request field at fault. */
export interface Refusal {
  code: string;
  message: string;
  param: string | null;
}

/** Parts the translation carries: text, and images (as chat image_url parts, which the CPU runtime itself refuses naming them). */
const TRANSLATED_PARTS = new Set(["input_text", "output_text", "input_image"]);
const TRANSLATED_ITEMS = new Set(["message", "function_call", "function_call_output"]);
/** The gateway orders requests by tier itself (its admit and wait stages): the runtime needs to know none. */
const HONOURED_TIERS = new Set<string>(["auto", ...SERVICE_TIERS]);

/** `/input/0/role` → `input[0].role`, as OpenAI names a field. */
const paramOf = (path: string) =>
  path
    .split("/")
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join("");

const unsupported = (found: Array<[string, string]>): Refusal => ({
  code: "unsupported_parameter",
  message: `Not supported by svc here: ${found.map(([param, why]) => `${param} (${why})`).join("; ")}. Leave ${found.length > 1 ? "them" : "it"} out.`,
  param: found[0][0],
});

/** What no svc service honours, whatever its engine: the gateway answers every response at once and keeps no conversations, prompts or image files. */
export function refuseEverywhere(body: Record<string, unknown>): Refusal | undefined {
  const found: Array<[string, string]> = [];
  if (body.background === true) found.push(["background", "responses are answered while the request is open; send background: false or leave it out"]);
  if (body.conversation !== undefined && body.conversation !== null) found.push(["conversation", "svc keeps no conversations; chain turns with previous_response_id"]);
  if (body.prompt !== undefined && body.prompt !== null) found.push(["prompt", "svc keeps no prompt templates"]);
  found.push(...refuseImageParts(body.input));
  return found.length ? unsupported(found) : undefined;
}

/**
 * Checks a request that svc translates to chat completions (its CPU runtime): the shape of every
 * field it reads, no unknown field, and nothing the translation cannot honour (built-in tools,
 * reasoning, `include`, files and audio, …): a refusal naming each of them, never ignored. Images
 * are translated, and refused by the runtime itself (chat-refusal.ts names the part as sent).
 */
export function checkForTranslation(body: Record<string, unknown>): { request: CreateResponseRequest } | { refusal: Refusal } {
  const unknown = Object.keys(body).filter((field) => !KNOWN_FIELDS.has(field));
  if (unknown.length) return { refusal: { code: "unknown_parameter", message: `Unknown parameter: ${unknown.map((field) => `'${field}'`).join(", ")}.`, param: unknown[0] } };
  const wrong = checkCreateRequest.Errors(body).First();
  if (wrong) {
    const param = paramOf(wrong.path);
    return { refusal: { code: "invalid_value", message: `Invalid value for '${param || "body"}': ${wrong.message}.`, param: param || null } };
  }
  const request = body as CreateResponseRequest;
  const found: Array<[string, string]> = [];
  request.tools?.forEach((tool, i) => {
    if (tool.type !== "function") found.push([`tools[${i}].type`, `the built-in tool '${tool.type}'; svc serves function tools`]);
  });
  const choice = request.tool_choice;
  if (typeof choice === "object" && choice.type !== "function") found.push(["tool_choice.type", `'${choice.type}'; use auto, none, required or a function`]);
  const format = request.text?.format?.type;
  if (format !== undefined && !["text", "json_object", "json_schema"].includes(format)) found.push(["text.format.type", `'${format}'`]);
  if (request.text?.verbosity) found.push(["text.verbosity", "the model has no verbosity setting"]);
  if (request.reasoning !== undefined && request.reasoning !== null) found.push(["reasoning", "the CPU runtime's models have no reasoning options"]);
  if (request.include?.length) found.push(["include", `${request.include.map((value) => `'${value}'`).join(", ")} cannot be added by the CPU runtime`]);
  if (request.truncation === "auto") found.push(["truncation", "'auto': svc does not drop earlier turns; send 'disabled'"]);
  if (request.top_logprobs) found.push(["top_logprobs", "the CPU runtime gives no log probabilities"]);
  if (request.service_tier && !HONOURED_TIERS.has(request.service_tier)) found.push(["service_tier", `'${request.service_tier}'`]);
  if (request.max_tool_calls !== undefined && request.max_tool_calls !== null) found.push(["max_tool_calls", "built-in tools only"]);
  if (Array.isArray(request.input)) {
    request.input.forEach((item, i) => {
      const type = item.type ?? "message";
      if (!TRANSLATED_ITEMS.has(type)) found.push([`input[${i}].type`, `'${type}' items; send messages, function_call and function_call_output items`]);
      const content = (item as { content?: unknown }).content;
      if (Array.isArray(content)) {
        content.forEach((part: { type: string }, j) => {
          if (!TRANSLATED_PARTS.has(part.type)) found.push([`input[${i}].content[${j}].type`, `'${part.type}': the CPU runtime reads text only`]);
        });
      }
    });
  }
  return found.length ? { refusal: unsupported(found) } : { request };
}
