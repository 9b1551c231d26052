import type { ServiceRoute } from "@svc/contracts";

/** Live states in which a service will answer soon: /v1 says 503 with Retry-After instead of 404. */
const COMING = new Set(["SUBMITTED", "PENDING", "STARTING", "UNHEALTHY"]);

export type Resolution =
  | { kind: "ready"; repo: string; services: ServiceRoute[] }
  | { kind: "starting"; repo: string; services: ServiceRoute[] }
  | { kind: "ambiguous"; revisions: string[] }
  | { kind: "unknown" };

const ready = (route: ServiceRoute) => route.status === "HEALTHY" && route.url !== null;

/**
 * The services a request's `model` names: a repo id (`owner/name`), `owner/name@revision` (a
 * unique prefix of the revision is enough), or a service's name or id.
 */
export function resolveModel(model: string, routes: ServiceRoute[]): Resolution {
  const at = model.lastIndexOf("@");
  let matches: ServiceRoute[];
  if (at > 0) {
    const repo = model.slice(0, at);
    const prefix = model.slice(at + 1);
    matches = routes.filter((route) => route.model === repo && route.revision.startsWith(prefix));
    const revisions = [...new Set(matches.map((route) => route.revision))];
    if (revisions.length > 1) return { kind: "ambiguous", revisions };
  } else {
    matches = routes.filter((route) => route.model === model);
    if (matches.length === 0) matches = routes.filter((route) => route.name === model || route.id === model);
  }
  const live = matches.filter((route) => route.status !== "STOPPING");
  if (live.length === 0) return { kind: "unknown" };
  const repo = live[0].model;
  const healthy = live.filter(ready);
  if (healthy.length > 0) return { kind: "ready", repo, services: healthy };
  if (live.some((route) => COMING.has(route.status))) return { kind: "starting", repo, services: live };
  return { kind: "unknown" };
}

/** The repo ids served now (by a HEALTHY service), sorted. */
export const servedModels = (routes: ServiceRoute[]) => [...new Set(routes.filter(ready).map((route) => route.model))].sort();
