import { READINESS_ORDER, type ServiceRoute } from "@svc/contracts";
import { proxyError } from "../proxy/proxy-error";
import { resolveModel, servedModels } from "./resolve";

/** One entry of /v1/models: OpenAI's model object plus what svc knows of the services behind it. */
export interface ServedModel {
  id: string;
  object: "model";
  created: number;
  owned_by: string;
  task: string;
  /** The newest revision served; `revisions` lists every one. */
  revision: string;
  revisions: string[];
  /** HEALTHY when a service answers, else the state of the furthest along. */
  status: string;
  /** HEALTHY services of this model. */
  replicas: number;
  services: Array<{ id: string; name: string; revision: string; status: string; profile: string; reason?: string | null }>;
  /** A LoRA adapter: the model it is served on (the newest service's), as vLLM lists an adapter's `parent` and `root`. */
  parent?: string;
  root?: string;
}

/**
 * /v1/models: one entry per repo id with a live service (not one being stopped), and one per LoRA
 * adapter such a service serves (with its base as `parent` and `root`), sorted by id.
 */
export function modelsList(routes: ServiceRoute[]): ServedModel[] {
  const byRepo = new Map<string, ServiceRoute[]>();
  const adapters = new Set<string>();
  const add = (name: string, route: ServiceRoute) => byRepo.set(name, [...(byRepo.get(name) ?? []), route]);
  for (const route of routes) {
    if (route.status === "STOPPING") continue;
    add(route.model, route);
    for (const adapter of route.adapters ?? []) {
      if (adapter === route.model) continue;
      adapters.add(adapter);
      add(adapter, route);
    }
  }
  return [...byRepo.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([repo, services]) => {
      const newest = [...services].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
      const status = READINESS_ORDER.find((candidate) => services.some((service) => service.status === candidate)) ?? newest.status;
      const base = adapters.has(repo) && newest.model !== repo ? { parent: newest.model, root: newest.model } : {};
      return {
        id: repo,
        object: "model",
        created: Math.floor(Math.min(...services.map((service) => Date.parse(service.createdAt))) / 1000),
        // A model only outside endpoints serve is owned by (the first of) them.
        owned_by: services.find((service) => !service.outside) ? repo.split("/")[0] : services[0].outside!.endpoint,
        task: newest.task,
        revision: newest.revision,
        revisions: [...new Set(services.map((service) => service.revision))],
        status,
        replicas: services.filter((service) => service.status === "HEALTHY").length,
        services: services.map((service) => ({
          id: service.id,
          name: service.name,
          revision: service.revision,
          status: service.status,
          profile: service.profile,
          ...(service.outside ? { reason: service.outside.reason } : {}),
        })),
        ...base,
      };
    });
}

/** GET /v1/models (the list) or /v1/models/<id> (one entry, or 404), of the models (and adapters) the caller may use. */
export function modelsAnswer(path: string, routes: ServiceRoute[], allowed: (model: string) => boolean = () => true): Response {
  const list = modelsList(routes).filter((model) => allowed(model.id));
  if (path === "/v1/models") return Response.json({ object: "list", data: list });
  let wanted: string;
  try {
    wanted = decodeURIComponent(path.slice("/v1/models/".length));
  } catch {
    return proxyError(400, "invalid_request", "The model id in the path is not valid percent-encoding: encode it with encodeURIComponent (owner%2Fname).");
  }
  const resolved = resolveModel(wanted, routes);
  const found = resolved.kind === "ready" || resolved.kind === "starting" || resolved.kind === "wake" ? list.find((model) => model.id === resolved.repo) : undefined;
  if (!found) return proxyError(404, "model_not_found", `The model '${wanted}' is not served. Served now: ${servedModels(routes).filter(allowed).join(", ") || "none"}.`);
  return Response.json(found);
}
