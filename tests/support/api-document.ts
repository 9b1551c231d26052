/**
 * The served OpenAPI document as a checker: which operation a request is, and whether an answer is
 * one that operation documents (status, media type, and the body against its schema, with Ajv's
 * JSON Schema 2020-12, the dialect of OpenAPI 3.1).
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";

export type JsonObject = Record<string, any>;

export interface DocumentedOperation {
  method: string;
  /** The path as the document writes it, e.g. /api/profiles/{name}. */
  path: string;
  operation: JsonObject;
}

/** An answer the document does not describe; thrown by the checked fetch in the test that got it. */
export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractViolation";
  }
}

const METHODS = ["get", "put", "post", "delete", "patch"];
const COMPONENT_REF = "#/components/schemas/";

/** `#/components/schemas/X` → `#/$defs/X`, so that each schema compiles on its own with the components beside it. */
function localRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(localRefs);
  if (!node || typeof node !== "object") return node;
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, key === "$ref" && typeof value === "string" ? value.replace(COMPONENT_REF, "#/$defs/") : localRefs(value)]),
  );
}

const mediaType = (contentType: string | null) => (contentType ?? "").split(";")[0].trim().toLowerCase();

export class ApiDocument {
  private readonly ajv = addFormats(new Ajv2020({ allErrors: true, strict: true }));
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly routes: Array<DocumentedOperation & { pattern: RegExp; templated: number }>;
  private readonly defs: JsonObject;

  constructor(readonly doc: JsonObject) {
    this.defs = localRefs(doc.components?.schemas ?? {}) as JsonObject;
    this.routes = Object.entries(doc.paths as JsonObject)
      .flatMap(([path, item]) =>
        METHODS.filter((method) => item[method]).map((method) => {
          const source = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
          return { method: method.toUpperCase(), path, operation: item[method], pattern: new RegExp(`^${source}$`), templated: (path.match(/\{/g) ?? []).length };
        }),
      )
      // A literal segment wins over a template: /api/models/refresh before /api/models/{x}.
      .sort((a, b) => a.templated - b.templated);
  }

  /** Every operation of the document. */
  operations(): DocumentedOperation[] {
    return this.routes.map(({ method, path, operation }) => ({ method, path, operation }));
  }

  /** The operation a request is, or undefined when the document has none for its method and path. */
  operationFor(method: string, pathname: string): DocumentedOperation | undefined {
    return this.routes.find((route) => route.method === method.toUpperCase() && route.pattern.test(pathname));
  }

  /** A validator for a schema of the document (compiled once per place). */
  validator(where: string, schema: JsonObject): ValidateFunction {
    let validate = this.validators.get(where);
    if (!validate) {
      validate = this.ajv.compile({ ...(localRefs(schema) as JsonObject), $defs: this.defs });
      this.validators.set(where, validate);
    }
    return validate;
  }

  /**
   * What is wrong with an answer to `operation`: an undocumented status or media type, or a body
   * that does not match its schema. Empty when it is documented. `body` is the parsed JSON (or the
   * text) when the media type has a schema to check it against.
   */
  problems(found: DocumentedOperation, status: number, contentType: string | null, body: unknown): string[] {
    const where = `${found.method} ${found.path} → ${status}`;
    const answer = found.operation.responses?.[String(status)];
    if (!answer) return [`${where}: the document lists ${Object.keys(found.operation.responses ?? {}).join(", ")} for this operation, not ${status}`];
    const content = (answer.content ?? {}) as JsonObject;
    const type = mediaType(contentType);
    if (Object.keys(content).length === 0) return type && body !== undefined && body !== "" ? [`${where}: documented without content, answered ${type}`] : [];
    if (!content[type]) return [`${where}: answered ${type || "no content type"}, the document says ${Object.keys(content).join(" or ")}`];
    const schema = content[type].schema;
    if (!schema || body === undefined) return [];
    const validate = this.validator(`${where} ${type}`, schema);
    if (validate(body)) return [];
    const errors = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || "/"} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ""}`);
    return [`${where}: the body does not match the document's schema:\n    ${errors.join("\n    ")}\n  body: ${JSON.stringify(body).slice(0, 600)}`];
  }

  /** Checks a Response (reading a copy of a JSON body; other bodies stay unread, e.g. streams). */
  async check(method: string, url: string | URL, response: Response): Promise<string[]> {
    const found = this.operationFor(method, new URL(url).pathname);
    if (!found) return [];
    const type = mediaType(response.headers.get("content-type"));
    let body: unknown;
    if (type === "application/json") {
      const text = await response.clone().text();
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return [`${found.method} ${found.path} → ${response.status}: says application/json but the body is not JSON: ${text.slice(0, 200)}`];
      }
    }
    return this.problems(found, response.status, response.headers.get("content-type"), body);
  }
}
