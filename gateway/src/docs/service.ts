import { SERVICE_OPENAPI_PATH, SERVICES, VERSION, LICENSE, type ServiceName } from "@svc/contracts";
import type { InternalClient, OpenApiPart } from "@svc/platform";
import { addGatewayAnswers, type RouteInDocument } from "./gateway-answers";
import { API_TAGS } from "./tags";

async function fetchPart(client: InternalClient, name: ServiceName): Promise<OpenApiPart | undefined> {
  try {
    const response = await client.serviceRoute(name, SERVICE_OPENAPI_PATH, 2000);
    return response.ok ? ((await response.json()) as OpenApiPart) : undefined;
  } catch {
    return undefined;
  }
}

function description(debug: boolean, missing: string[]): string {
  const auth = debug
    ? "Debug mode is on: no authentication is required."
    : "Send `Authorization: Bearer <token>` with the auth token (SVC_AUTH_TOKEN, or the one `svc start` wrote to `$SVC_HOME_DIR/auth_token`).";
  const gap = missing.length ? `\n\nNot answering right now, so their routes are missing: ${missing.join(", ")}.` : "";
  return (
    `Manage profiles, models and inference services. ${auth} Every error is \`{error, message}\` (ErrorBody) with a stable \`error\` code.` +
    "\n\nThe inference services themselves answer at `/proxy/{service id}/…` with OpenAI's API (github.com/openai/openai-openapi), " +
    `its errors included; that API is not part of this document.${gap}`
  );
}

/**
 * The OpenAPI 3.1 document of the whole REST API: the gateway's own routes plus each internal
 * service's part, with the answers the gateway adds in front of them (401, 403, 503).
 */
export async function apiDocument(own: OpenApiPart, client: InternalClient, debug: boolean) {
  const parts = await Promise.all(SERVICES.map(async ({ name }) => ({ name, part: await fetchPart(client, name) })));
  const paths: OpenApiPart["paths"] = {};
  const schemas = { ...own.components.schemas };
  const routes: RouteInDocument[] = [];
  const add = (part: OpenApiPart, forwarded: boolean) => {
    for (const [path, methods] of Object.entries(part.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        (paths[path] ??= {})[method] = operation;
        routes.push({ method, path, operation, forwarded });
      }
    }
    for (const [name, schema] of Object.entries(part.components?.schemas ?? {})) schemas[name] ??= schema;
  };
  add(own, false);
  const missing: string[] = [];
  for (const { name, part } of parts) {
    if (part) add(part, true);
    else missing.push(name);
  }
  addGatewayAnswers(routes);
  const used = new Set(routes.flatMap(({ operation }) => (operation.tags as string[] | undefined) ?? []));
  return {
    openapi: "3.1.0",
    info: { title: "svc API", version: VERSION, description: description(debug, missing), license: LICENSE },
    servers: [{ url: "/", description: "The svc application that serves this document" }],
    security: [{ bearer: [] }],
    tags: API_TAGS.filter((tag) => used.has(tag.name)),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "The auth token of svc (not needed in debug mode)." } },
    },
  };
}
