import { Elysia } from "elysia";
import { SERVICE_FACTS_PATH, type ServiceFacts } from "@svc/contracts";
import type { DockerEngine } from "./docker/docker-engine";
import type { EngineReachability } from "./reachability";

/** What the gateway's /api/info and /api/health report of the engines (internal route, not in the API document). */
export function engineFactsController(docker: DockerEngine, reachability: EngineReachability) {
  return new Elysia({ name: "orchestrator/facts" }).get(
    SERVICE_FACTS_PATH,
    async (): Promise<ServiceFacts> => {
      const engines = await reachability.current();
      // Only ask Docker for its network when it answers: the answer is kept, a failure is not.
      const docker_ = engines.find((entry) => entry.engine === "docker");
      return { dockerNetwork: docker_?.state === "reachable" ? await docker.network.known() : null, engines };
    },
    { detail: { hide: true } },
  );
}
