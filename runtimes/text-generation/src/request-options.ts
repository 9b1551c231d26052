import { invalidRequest } from "@svc/runtime-common";

/**
 * OpenAI request fields the runtime takes without acting on them, because they change nothing
 * about the answer: who asks (`user`, `safety_identifier`), labels (`metadata`), billing and caching
 * hints (`service_tier`, `prompt_cache_key`). `parallel_tool_calls` allows several calls; an answer
 * holds at most one, which both of its values allow.
 */
const HARMLESS = new Set(["user", "safety_identifier", "metadata", "service_tier", "prompt_cache_key", "parallel_tool_calls"]);

const isEmptyObject = (value: unknown) => typeof value === "object" && value !== null && Object.keys(value).length === 0;

/** Fields taken only at their default (a value that asks for nothing); any other value is refused. */
const DEFAULT_ONLY: Record<string, { accepts: (value: unknown) => boolean; want: string }> = {
  logprobs: { accepts: (value) => value === false || value === 0, want: "log probabilities are not computed" },
  top_logprobs: { accepts: (value) => value === 0, want: "log probabilities are not computed" },
  echo: { accepts: (value) => value === false, want: "the prompt is not echoed" },
  best_of: { accepts: (value) => value === 1, want: "one candidate is generated per request" },
  frequency_penalty: { accepts: (value) => value === 0, want: "repetition penalties are not applied" },
  presence_penalty: { accepts: (value) => value === 0, want: "repetition penalties are not applied" },
  logit_bias: { accepts: isEmptyObject, want: "token biases are not applied" },
  store: { accepts: (value) => value === false, want: "answers are not stored" },
  modalities: { accepts: (value) => Array.isArray(value) && value.every((modality) => modality === "text"), want: "only text is generated" },
};

/**
 * Refuses, with a 400 naming it, every field of `body` the endpoint does not honour: not one of
 * `supported` (what its schema reads), not harmless, and not at its do-nothing default. A null
 * value means unset and is always taken. So nothing a client asks for is silently ignored.
 */
export function refuseUnsupported(body: object, supported: ReadonlySet<string>, endpoint: string): void {
  for (const [field, value] of Object.entries(body)) {
    if (value === null || supported.has(field) || HARMLESS.has(field)) continue;
    const rule = DEFAULT_ONLY[field];
    if (rule?.accepts(value)) continue;
    const reason = rule ? `${rule.want} by this runtime` : `${endpoint} of this runtime (svc's CPU llama.cpp runtime) does not support it`;
    throw invalidRequest(`${field}: ${JSON.stringify(value)?.slice(0, 80)} is not supported: ${reason}. Remove the field.`, field, "unsupported_parameter");
  }
}

/** The fields of a typebox object schema. */
export const fieldsOf = (schema: { properties: object }): ReadonlySet<string> => new Set(Object.keys(schema.properties));
