import type { ServiceRoute } from "@svc/contracts";

/** The route of a HEALTHY text-generation service of svc's runtime on Docker, as orchestrator-svc lists it, with `fields` changed. */
export function standInRoute(fields: Partial<ServiceRoute> & Pick<ServiceRoute, "id" | "url">): ServiceRoute {
  return {
    name: fields.id,
    task: "text-generation",
    model: "owner/m",
    revision: "0123456789abcdef",
    profile: "default",
    engine: "docker",
    server: "svc",
    status: "HEALTHY",
    apiKey: null,
    createdAt: "2026-11-25T10:00:00.000Z",
    onDemand: false,
    waits: false,
    ...fields,
  };
}
