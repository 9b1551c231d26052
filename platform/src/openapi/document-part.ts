import type { AnyElysia } from "elysia";
import type { TSchema } from "@sinclair/typebox";
import { ErrorBody } from "@svc/contracts";
import { isNoContent, isOptional, MEDIA_TYPE_KEY, toDocumentSchema, type JsonSchema } from "./json-schema";

type Operation = Record<string, unknown> & { responses: Record<string, Record<string, unknown>> };

/** Paths and named schemas of part of the API, as OpenAPI 3.1 writes them; the gateway merges the parts. */
export interface OpenApiPart {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
}

const METHODS = new Set(["get", "put", "post", "delete", "patch"]);

/** What each status means when the route does not say more. */
export const STATUS_DESCRIPTIONS: Record<string, string> = {
  "200": "OK.",
  "201": "Created.",
  "202": "Accepted: the work goes on as a task; poll it for progress.",
  "204": "Done; no content.",
  "400": "The request does not match the operation's schema, or a value is not allowed (`invalid_request`); the message says what to fix.",
  "404": "Not found.",
  "409": "Conflicts with the current state.",
  "422": "A check failed; nothing was changed.",
  "502": "A server svc depends on answered with an error.",
  "503": "A part svc needs is not answering; try again in a few seconds.",
};

/** `/api/services/:ref/` → `/api/services/{ref}`: OpenAPI's templates, without a trailing slash. */
export const documentPath = (path: string) => path.replace(/:([^/]+)/g, "{$1}").replace(/(.)\/+$/, "$1");

const isSchema = (value: unknown): value is TSchema => !!value && typeof value === "object" && ("type" in value || "anyOf" in value || "$id" in value || Symbol.for("TypeBox.Kind") in value);

function parameters(location: "path" | "query", schema: TSchema | undefined, components: Record<string, JsonSchema>) {
  if (!schema) return [];
  const object = toDocumentSchema(schema, components);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties ?? {}) as Record<string, JsonSchema>).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: location, required: location === "path" || required.has(name), ...(description ? { description } : {}), schema: rest };
  });
}

function response(status: string, schema: TSchema, description: string | undefined, components: Record<string, JsonSchema>) {
  const body = toDocumentSchema(schema, components);
  const text = description ?? (body.description as string | undefined) ?? STATUS_DESCRIPTIONS[status] ?? `Status ${status}.`;
  if (isNoContent(body)) return { description: text };
  const { [MEDIA_TYPE_KEY]: mediaType, ...rest } = body;
  return { description: text, content: { [typeof mediaType === "string" ? mediaType : "application/json"]: { schema: rest } } };
}

/**
 * The OpenAPI paths of an Elysia app's routes (those `include` accepts, none with `detail.hide`),
 * from their typebox schemas: parameters, JSON body, every declared answer, and a 400 on each route
 * that validates its input. Documentation comes from `operation()` (operationId, summary, tags,
 * what each error means).
 */
export function openApiPart(app: AnyElysia, include: (path: string) => boolean = () => true): OpenApiPart {
  const components: Record<string, JsonSchema> = {};
  const paths: OpenApiPart["paths"] = {};
  for (const route of app.routes) {
    const method = route.method.toLowerCase();
    const hooks = (route.hooks ?? {}) as Record<string, any>;
    const detail = (hooks.detail ?? {}) as Record<string, any>;
    const path = documentPath(route.path);
    if (!METHODS.has(method) || detail.hide || !include(path) || paths[path]?.[method]) continue;

    const { responses: described = {}, hide: _, ...documentation } = detail;
    const declared: Record<string, TSchema> = isSchema(hooks.response) ? { 200: hooks.response } : (hooks.response ?? {});
    const responses: Operation["responses"] = {};
    for (const [status, schema] of Object.entries(declared)) {
      responses[status] = response(status, schema, described[status]?.description || undefined, components);
      if (described[status]?.headers) responses[status].headers = described[status].headers;
    }
    // Every route that validates its input answers 400 for input that does not match.
    if (hooks.params || hooks.query || hooks.body) {
      const own = described["400"]?.description;
      responses["400"] = response("400", ErrorBody, own ? `${STATUS_DESCRIPTIONS["400"]} Also: ${own}` : undefined, components);
    }

    const operation: Operation = { ...documentation, responses };
    const pathParameters = hooks.params
      ? parameters("path", hooks.params, components)
      : [...route.path.matchAll(/:([^/]+)/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    const allParameters = [...pathParameters, ...parameters("query", hooks.query, components)];
    if (allParameters.length > 0) operation.parameters = allParameters;
    if (hooks.body && method !== "get") {
      operation.requestBody = { required: !isOptional(hooks.body), content: { "application/json": { schema: toDocumentSchema(hooks.body, components) } } };
    }
    (paths[path] ??= {})[method] = operation;
  }
  return { paths, components: { schemas: components } };
}
