import { Elysia, t } from "elysia";
import { CreateEndpointRequest, EndpointParams, OutsideEndpoint } from "@svc/contracts";
import { operation } from "@svc/platform";
import type { EndpointRegistry } from "./service";

const tags = ["endpoints"];

/** /api/endpoints: outside OpenAI-compatible servers whose models /v1 serves (svc endpoint add|ls|rm). */
export function endpointsController(endpoints: EndpointRegistry) {
  // normalize: false refuses unknown fields instead of dropping them, as /api/keys does.
  return new Elysia({ name: "gateway/endpoints", prefix: "/api/endpoints", normalize: false })
    .get("", () => endpoints.list(), {
      ...operation("listEndpoints", { summary: "List outside endpoints with their models and health (never their keys)", tags, ok: { 200: t.Array(OutsideEndpoint) } }),
    })
    .post(
      "",
      async ({ body, set }) => {
        const added = await endpoints.add(body);
        set.status = 201;
        return added;
      },
      {
        body: CreateEndpointRequest,
        ...operation("createEndpoint", {
          summary: "Register an outside OpenAI-compatible server; its models are served through /v1 with its key, which is stored and never shown",
          tags,
          ok: { 201: OutsideEndpoint },
          errors: {
            400: "A bad URL (`invalid_request`), or its models could not be read and none were given (`endpoint_unreachable`).",
            409: "An endpoint of that name exists (`conflict`).",
          },
        }),
      },
    )
    .delete("/:name", ({ params }) => endpoints.remove(params.name), {
      params: EndpointParams,
      ...operation("deleteEndpoint", { summary: "Remove an outside endpoint and its stored key; its models leave /v1 at once", tags, ok: { 200: OutsideEndpoint }, errors: { 404: "No endpoint has that name (`not_found`)." } }),
    });
}
