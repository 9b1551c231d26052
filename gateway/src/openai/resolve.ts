import { isComing, isDormant, type ServiceRoute } from "@svc/contracts";

export type Resolution =
  | { kind: "ready"; repo: string; services: ServiceRoute[] }
  | { kind: "starting"; repo: string; services: ServiceRoute[] }
  /** No service answers now, but `service` (--on-demand or --renew) is worth waiting for: on its way up, or stopped and started by the request. */
  | { kind: "wake"; repo: string; service: ServiceRoute }
  /** Only outside endpoints have the model, and none is HEALTHY: their reasons. */
  | { kind: "down"; repo: string; reasons: string[] }
  | { kind: "ambiguous"; revisions: string[] }
  | { kind: "unknown" };

const ready = (route: ServiceRoute) => route.status === "HEALTHY" && route.url !== null;

/**
 * The services a request's `model` names: a repo id (`owner/name`), `owner/name@revision` (a
 * unique prefix of the revision is enough), a service's name or id, or a LoRA adapter's repo id
 * (the services that serve it on their model; `repo` is then the adapter's). svc's own services come
 * first: an outside endpoint's model is used only while none of svc's services of it is HEALTHY
 * (then it answers at once, rather than waiting for one of svc's on its way up).
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
    if (matches.length === 0) {
      const serving = routes.filter((route) => route.adapters?.includes(model));
      if (serving.length > 0) return resolveAmong(serving, () => model);
    }
  }
  return resolveAmong(matches, (route) => route.model);
}

/** What `matches` (the services of one model) answer now; `repoOf`: the model's name as the request's outcome records it. */
function resolveAmong(matches: ServiceRoute[], repoOf: (route: ServiceRoute) => string): Resolution {
  const healthy = matches.filter(ready);
  const own = healthy.filter((route) => !route.outside);
  if (own.length > 0) return { kind: "ready", repo: repoOf(own[0]), services: own };
  if (healthy.length > 0) return { kind: "ready", repo: repoOf(healthy[0]), services: healthy };
  const newest = (candidates: ServiceRoute[]) => [...candidates].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  const coming = matches.filter((route) => !route.outside && isComing(route.status));
  const awaited = coming.filter((route) => route.waits);
  if (awaited.length > 0) return { kind: "wake", repo: repoOf(awaited[0]), service: newest(awaited) };
  if (coming.length > 0) return { kind: "starting", repo: repoOf(coming[0]), services: coming };
  const dormant = matches.filter((route) => !route.outside && route.onDemand && (isDormant(route.status) || route.status === "STOPPING"));
  if (dormant.length > 0) return { kind: "wake", repo: repoOf(dormant[0]), service: newest(dormant) };
  const down = matches.filter((route) => route.outside);
  if (down.length > 0) return { kind: "down", repo: repoOf(down[0]), reasons: down.map((route) => `endpoint ${route.name}: ${route.outside!.reason ?? route.status}`) };
  return { kind: "unknown" };
}

/** The repo ids served now (by a HEALTHY service), its adapters' included, sorted. */
export const servedModels = (routes: ServiceRoute[]) => [...new Set(routes.filter(ready).flatMap((route) => [route.model, ...(route.adapters ?? [])]))].sort();
