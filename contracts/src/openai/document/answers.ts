import extract from "./openai-answers.json";

/** The schemas of svc's /v1 answers as OpenAI's published document defines them (generate.ts writes the JSON). */
export interface OpenAiAnswers {
  /** The document's repository, commit and date. */
  source: string;
  generatedBy: string;
  /** Each endpoint's success answer, by content type (`application/json`, `text/event-stream`). */
  answers: Record<string, Record<string, unknown>>;
  /** Every component schema the answers refer to, by its name in the document. */
  schemas: Record<string, unknown>;
}

export const OPENAI_ANSWERS = extract as OpenAiAnswers;

/** The document's schema of the Responses stream event of `type` (`response.created`: ResponseCreatedEvent). */
export function streamEventSchema(type: string): string {
  const union = OPENAI_ANSWERS.schemas.ResponseStreamEvent as { anyOf: Array<{ $ref: string }> };
  for (const { $ref } of union.anyOf) {
    const name = $ref.split("/").pop()!;
    const property = (OPENAI_ANSWERS.schemas[name] as { properties?: { type?: { enum?: string[] } } }).properties?.type;
    if (property?.enum?.includes(type)) return name;
  }
  throw new Error(`OpenAI's document (openai-answers.json) has no stream event ${type}`);
}
