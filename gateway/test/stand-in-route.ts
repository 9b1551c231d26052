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

/**
 * A stand-in runtime's server on loopback answering POSTs with `answer`; anything else is a 404, like
 * a runtime that keeps no records of its streams' ends (REQUEST_ENDS_PATH): the gateway reads each stream.
 */
export function standInServer(answer: (request: Request) => Response | Promise<Response>) {
  return Bun.serve({ hostname: "127.0.0.1", port: 0, idleTimeout: 0, fetch: (request) => (request.method === "POST" ? answer(request) : new Response("not found", { status: 404 })) });
}
