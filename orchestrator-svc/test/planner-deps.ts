import type { ClusterGpus, Model, Profile } from "@svc/contracts";
import { ImageCatalog } from "../src/catalog/images";
import type { PlannerDeps } from "../src/launch/planner";
import { capabilitiesFor } from "./engine-capabilities";

/** A planner over one profile with one model, the images `env` pins and the profile's GPUs (unknown by default), for planner tests that start no engine. */
export function plannerDeps(env: Record<string, string>, profile: Profile, model: Model, gpus: ClusterGpus | null = null): PlannerDeps {
  const catalog = ImageCatalog.fromEnv(env);
  return {
    profile: async () => profile,
    models: async () => [{ ...model, profile: profile.name }],
    image: (task, server) => catalog.image(task, server),
    cpuTextGeneration: catalog.cpuTextGeneration,
    isProjectRuntime: (image) => catalog.isProjectRuntime(image),
    capabilities: capabilitiesFor,
    protectedPlaces: [],
    gpus: async () => gpus,
  };
}
