/**
 * Writes openai-answers.json (beside this file): the schemas of the answers svc gives on /v1, as
 * OpenAI's published OpenAPI document defines them, from a copy of that document:
 *
 *   bun contracts/src/openai/document/generate.ts <openapi.yaml> "<where it came from>"
 *
 * (openapi.yaml of github.com/openai/openai-openapi; say the commit and its date). Each endpoint's
 * success answer is read from the document's `paths`, with every schema it refers to; descriptions,
 * examples and the `x-` annotations of OpenAI's SDK generators are left out.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OpenAiAnswers } from "./answers";

/** The /v1 endpoints svc answers, as the document names them (under https://api.openai.com/v1). */
const SERVED = [
  "POST /chat/completions",
  "POST /completions",
  "POST /embeddings",
  "POST /audio/transcriptions",
  "GET /models",
  "GET /models/{model}",
  "POST /responses",
  "GET /responses/{response_id}",
  "POST /files",
  "GET /files",
  "GET /files/{file_id}",
  "DELETE /files/{file_id}",
  "POST /batches",
  "GET /batches",
  "GET /batches/{batch_id}",
  "POST /batches/{batch_id}/cancel",
];
/** Schemas svc answers that no path's success answer names. */
const ALSO = ["ErrorResponse"];

const DROPPED = new Set(["description", "example", "examples", "title", "default", "deprecated"]);
const REF_PREFIX = "#/components/schemas/";

type Json = Record<string, unknown>;

/** `value` without what only documents it. */
function stripped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripped);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !DROPPED.has(key) && !key.startsWith("x-"))
      .map(([key, inner]) => [key, key === "properties" ? Object.fromEntries(Object.entries(inner as Json).map(([name, schema]) => [name, stripped(schema)])) : stripped(inner)]),
  );
}

/** The names of the component schemas `value` refers to. */
function references(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => references(item, found));
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string" && inner.startsWith(REF_PREFIX)) found.push(inner.slice(REF_PREFIX.length));
      else references(inner, found);
    }
  }
  return found;
}

export function openAiAnswers(document: Json, source: string): OpenAiAnswers {
  const components = (document.components as { schemas: Record<string, Json> }).schemas;
  const answers: OpenAiAnswers["answers"] = {};
  for (const endpoint of SERVED) {
    const [method, path] = endpoint.split(" ");
    const operation = ((document.paths as Record<string, Record<string, Json>>)[path] ?? {})[method.toLowerCase()] as { responses?: Record<string, { content?: Record<string, { schema: unknown }> }> } | undefined;
    const content = operation?.responses?.["200"]?.content;
    if (!content) throw new Error(`${endpoint}: the document has no 200 answer for it`);
    answers[endpoint] = Object.fromEntries(Object.entries(content).map(([type, { schema }]) => [type, stripped(schema)]));
  }
  const wanted = [...references(answers), ...ALSO];
  const schemas: Record<string, unknown> = {};
  while (wanted.length) {
    const name = wanted.pop()!;
    if (name in schemas) continue;
    if (!components[name]) throw new Error(`the document refers to ${name}, which it does not define`);
    schemas[name] = stripped(components[name]);
    wanted.push(...references(schemas[name]));
  }
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]]));
  return { source, generatedBy: "contracts/src/openai/document/generate.ts", answers, schemas: sorted };
}

if (import.meta.main) {
  const [file, source] = process.argv.slice(2);
  if (!file || !source) throw new Error('usage: bun contracts/src/openai/document/generate.ts <openapi.yaml> "<where it came from: repository, commit, date>"');
  const document = Bun.YAML.parse(await Bun.file(file).text()) as Json;
  const extract = openAiAnswers(document, source);
  writeFileSync(join(import.meta.dir, "openai-answers.json"), `${JSON.stringify(extract, null, 1)}\n`);
  console.log(`openai-answers.json: ${Object.keys(extract.answers).length} answers, ${Object.keys(extract.schemas).length} schemas, from ${source}`);
}
