import { Elysia } from "elysia";
import { operation, type InternalClient, type OpenApiPart } from "@svc/platform";
import { DOCS_ASSETS, DOCS_PAGE } from "./assets";
import { OpenApiDocument } from "@svc/contracts";
import { apiDocument } from "./service";

export interface DocsOptions {
  /** The gateway's own part of the document, computed from its routes. */
  ownPart: () => OpenApiPart;
  client: InternalClient;
  debug: boolean;
}

/** The merged OpenAPI document and a Swagger UI page that needs nothing from the internet. */
export function docsController({ ownPart, client, debug }: DocsOptions) {
  return new Elysia({ name: "gateway/docs" })
    .get("/api/openapi.json", () => apiDocument(ownPart(), client, debug), {
      ...operation("getOpenApiDocument", { summary: "This OpenAPI document of the whole REST API", tags: ["app"], ok: { 200: OpenApiDocument } }),
    })
    .get("/api/docs", () => new Response(DOCS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }), {
      detail: { hide: true },
    })
    .get(
      "/api/docs/assets/:name",
      ({ params, status }) => {
        const asset = DOCS_ASSETS[params.name];
        if (!asset) return status(404, { error: "not_found", message: `No docs asset named ${params.name}.` });
        return new Response(Bun.file(asset.file), { headers: { "content-type": asset.type, "cache-control": "public, max-age=3600" } });
      },
      { detail: { hide: true } },
    );
}
