import { Elysia } from "elysia";
import { SERVICE_FACTS_PATH, type ServiceFacts } from "@svc/contracts";
import type { DockerEngine } from "./docker/docker-engine";

/** What the gateway's /api/info reports of the engines (internal route, not in the API document). */
export function engineFactsController(docker: DockerEngine) {
  return new Elysia({ name: "orchestrator/facts" }).get(SERVICE_FACTS_PATH, async (): Promise<ServiceFacts> => ({ dockerNetwork: await docker.network.known() }), {
    detail: { hide: true },
  });
}
