/**
 * A request that fails its schema, said as sentences about what the caller gave: the option as the
 * CLI writes it (`--max-total-tokens`), engine arguments by their position and first characters —
 * not typebox's "engineArgs.0: Expected string length less or equal to 4096". The JSON paths go
 * beside the message (the answer's `details`), so the CLI, which prints the message, shows none.
 */

export interface ValidationIssue {
  path?: string;
  message?: string;
  summary?: string;
  value?: unknown;
  schema?: Record<string, unknown>;
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

/** How much of an engine argument its sentence quotes, so that the caller can tell which one it is. */
const QUOTED_LENGTH = 24;

function quoted(value: unknown): string {
  if (typeof value !== "string") return "";
  return ` (${JSON.stringify(value.length > QUOTED_LENGTH ? `${value.slice(0, QUOTED_LENGTH)}…` : value)})`;
}

/** What the caller calls the value at `parts` (a JSON path split on dots). */
function subject(parts: string[], value?: unknown): string {
  if (parts.length === 0) return "The request";
  const last = parts.at(-1)!;
  if (/^\d+$/.test(last)) {
    const list = parts.at(-2) ?? "list";
    return list === "engineArgs" ? `Engine argument ${Number(last) + 1}${quoted(value)}` : `Item ${Number(last) + 1} of ${subject(parts.slice(0, -1))}`;
  }
  if (last === "task" || last === "model") return `The ${last}`;
  return `--${kebab(last)}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function literals(schema: Record<string, unknown>): string[] | undefined {
  const members = (schema.anyOf ?? schema.enum) as unknown[] | undefined;
  if (!Array.isArray(members)) return undefined;
  const values = members.map((member) => (typeof member === "object" && member !== null ? (member as { const?: unknown }).const : member));
  return values.every((value) => typeof value === "string") ? (values as string[]) : undefined;
}

/** What is wrong with the value, as the end of a sentence. */
function problem(issue: ValidationIssue): string {
  const schema = issue.schema ?? {};
  const value = issue.value;
  // A value that may also be null (a limit null removes): said against what it must be when it is not null.
  const members = schema.anyOf as Array<Record<string, unknown>> | undefined;
  const notNull = Array.isArray(members) && value !== null ? members.filter((member) => member.type !== "null") : [];
  if (notNull.length === 1 && notNull.length < members!.length) return problem({ ...issue, schema: notNull[0] });
  const options = literals(schema);
  if (value === undefined) return "is required";
  if (options) return `must be one of ${options.join(", ")}, not ${JSON.stringify(value)}`;
  if (typeof value === "string") {
    if (typeof schema.maxLength === "number" && value.length > schema.maxLength) return `is too long (${plural(value.length, "character")}): at most ${plural(schema.maxLength, "character")}`;
    if (typeof schema.minLength === "number" && value.length < schema.minLength) return value.length === 0 ? "is empty" : `needs at least ${plural(schema.minLength, "character")}`;
    if (typeof schema.pattern === "string") return `${JSON.stringify(value)} is not allowed${typeof schema.description === "string" ? `: ${schema.description}` : ""}`;
  }
  if (typeof value === "number") {
    if (schema.type === "integer" && !Number.isInteger(value)) return `must be a whole number, not ${value}`;
    if (typeof schema.minimum === "number" && value < schema.minimum) return `must be at least ${schema.minimum}, not ${value}`;
    if (typeof schema.maximum === "number" && value > schema.maximum) return `must be at most ${schema.maximum}, not ${value}`;
  }
  if (Array.isArray(value) && typeof schema.maxItems === "number" && value.length > schema.maxItems) return `has ${value.length} items: at most ${schema.maxItems}`;
  if (typeof schema.type === "string" && schema.type !== typeof value) {
    const kind = { integer: "a whole number", number: "a number", string: "text", boolean: "true or false", array: "a list", object: "an object" }[schema.type] ?? schema.type;
    return `must be ${kind}`;
  }
  const said = issue.summary ?? issue.message ?? "is not valid";
  return `is not valid: ${said.charAt(0).toLowerCase()}${said.slice(1)}`;
}

export interface ValidationDescription {
  /** One sentence per issue (at most three): "--mem must be at least 1, not 0." */
  message: string;
  /** The JSON path of each sentence's value, in the same order ("job.mem"); "" for the whole request. */
  fields: string[];
}

export function describeValidation(error: { all?: ValidationIssue[] }): ValidationDescription {
  const fields: string[] = [];
  const sentences: string[] = [];
  for (const issue of error.all ?? []) {
    const path = (issue.path ?? "").replace(/^\//, "").replaceAll("/", ".");
    // A union reports each member's failure at the same path; one sentence per path is enough.
    if (fields.includes(path)) continue;
    fields.push(path);
    const unknownField = /^Unexpected property/i.test(issue.message ?? "") || /additional/i.test(issue.summary ?? "");
    const parts = path ? path.split(".") : [];
    sentences.push(unknownField ? `${path || "The request"} is not a field of this request.` : `${subject(parts, issue.value)} ${problem(issue)}.`);
    if (sentences.length === 3) break;
  }
  return sentences.length > 0 ? { message: sentences.join(" "), fields } : { message: "The request does not match the expected shape.", fields: [] };
}
