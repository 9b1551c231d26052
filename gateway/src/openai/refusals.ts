import type { ServiceRoute } from "@svc/contracts";
import { proxyError } from "../proxy/proxy-error";
import { mayUse, type Caller } from "./caller";
import { servedModels, type Resolution } from "./resolve";

export const RETRY_AFTER_SECONDS = "5";

/** The answer to a model that resolved to something not served now (unknown, only UNHEALTHY outside endpoints, ambiguous, starting), with the model it counts for. */
export function notServed(resolved: Exclude<Resolution, { kind: "ready" } | { kind: "wake" }>, model: string, routes: ServiceRoute[], caller: Caller): { response: Response; model: string; served: boolean } {
  switch (resolved.kind) {
    case "unknown": {
      const served = servedModels(routes).filter((repo) => mayUse(caller, repo));
      return { response: proxyError(404, "model_not_found", `The model '${model}' is not served. Served now: ${served.length ? served.join(", ") : "none"} (svc run starts one).`), model, served: false };
    }
    case "down":
      return {
        response: proxyError(503, "endpoint_unhealthy", `The model '${resolved.repo}' is served only by outside endpoints that are UNHEALTHY (${resolved.reasons.join("; ")}).`, { "retry-after": RETRY_AFTER_SECONDS }),
        model: resolved.repo,
        served: true,
      };
    case "ambiguous":
      return { response: proxyError(400, "ambiguous_model", `'${model}' matches several revisions (${resolved.revisions.join(", ")}): give more of the revision.`), model, served: false };
    case "starting":
      return {
        response: proxyError(503, "model_not_ready", `The model '${resolved.repo}' is starting (${resolved.services.map((s) => `${s.name}: ${s.status}`).join(", ")}); try again shortly.`, { "retry-after": RETRY_AFTER_SECONDS }),
        model: resolved.repo,
        served: true,
      };
  }
}

/** The answer when orchestrator-svc, which knows the services, does not answer. */
export const catalogDown = () => proxyError(503, "service_unavailable", "orchestrator-svc is not answering; try again in a few seconds.", { "retry-after": RETRY_AFTER_SECONDS });
