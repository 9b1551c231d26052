import { SERVICE_OPENAPI_PATH, SERVICES, VERSION, type ServiceName } from "@svc/contracts";
import type { InternalClient } from "@svc/platform";

export interface OpenApiPart {
  paths?: Record<string, unknown>;
  components?: { schemas?: Record<string, unknown> };
}

async function fetchPart(client: InternalClient, name: ServiceName): Promise<OpenApiPart | undefined> {
  try {
    const response = await client.serviceRoute(name, SERVICE_OPENAPI_PATH, 2000);
    return response.ok ? ((await response.json()) as OpenApiPart) : undefined;
  } catch {
    return undefined;
  }
}

/** One OpenAPI document for the whole application: the gateway's own routes plus every service's. */
export async function mergedOpenApi(
  own: OpenApiPart,
  client: InternalClient,
  debug: boolean,
) {
  const parts = await Promise.all(SERVICES.map(async ({ name }) => ({ name, part: await fetchPart(client, name) })));
  const paths: Record<string, unknown> = { ...own.paths };
  const schemas: Record<string, unknown> = { ...own.components?.schemas };
  const missing: string[] = [];
  for (const { name, part } of parts) {
    if (!part) {
      missing.push(name);
      continue;
    }
    Object.assign(paths, part.paths);
    Object.assign(schemas, part.components?.schemas);
  }
  const auth = debug
    ? "Debug mode is on: no authentication is required."
    : "Send `Authorization: Bearer <token>` with the auth token (SVC_AUTH_TOKEN, or the one `svc start` wrote to `$SVC_HOME_DIR/auth_token`).";
  const gap = missing.length ? `\n\nNot answering right now, so their routes are missing: ${missing.join(", ")}.` : "";
  return {
    openapi: "3.0.3",
    info: { title: "svc API", version: VERSION, description: `Manage profiles, models and inference services. ${auth}${gap}` },
    components: { schemas, securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    security: [{ bearer: [] }],
    paths,
  };
}
