import { createHash } from "node:crypto";
import { join } from "node:path";
import type { AnyElysia } from "elysia";
import { SvcClient } from "@svc/client";
import { ApiError, internalFetch, type ServiceContext } from "@svc/platform";
import { freePort } from "@svc/platform/net";
import { ServiceStore, type ServiceRow } from "./db/service-store";
import { DockerApi } from "./engines/docker/docker-api";
import { DockerEngine } from "./engines/docker/docker-engine";
import { SlurmEngines } from "./engines/slurm/pool";
import { Reconciler } from "./reconciler/reconciler";
import { registryLookups } from "./launch/lookups";
import { RuntimeCatalog } from "./runtimes/catalog";
import { ServicesService } from "./services/service";
import { servicesController } from "./services";
import { imagesController } from "./images";
import { ImagesService } from "./images/service";

/** Wires the orchestrator: its records, the engines, the reconciler loop and the services API. */
export function features(ctx: ServiceContext): AnyElysia[] {
  const env = process.env;
  const store = new ServiceStore(join(ctx.dataDir, "orchestrator.db"));
  const docker = new DockerEngine(DockerApi.fromEnv(env), {
    network: env.SVC_DOCKER_NETWORK === "publish" ? "publish" : "host",
    homeLabel: createHash("sha256").update(ctx.settings.homeDir).digest("hex").slice(0, 16),
  });
  const client = new SvcClient({ baseUrl: "http://svc.internal", fetch: internalFetch(ctx.upstreams, ctx.internalSecret) });
  // One engine, so one SSH connection, per slurm profile (engines/slurm/pool.ts).
  const slurm = new SlurmEngines(async (name) => {
    const profile = await client.profiles.get(name);
    if (profile.schema !== "slurm") throw new ApiError(409, "profile_schema_changed", `Profile ${name} is no longer a slurm profile.`);
    return profile;
  });
  const engineOf = (row: ServiceRow) => (row.engine === "slurm" ? slurm.byName(row.profile) : docker);
  const log = (message: string) => console.log(`[reconciler] ${message}`);
  const reconciler = new Reconciler({ store, engineFor: engineOf, log });
  const runtimes = RuntimeCatalog.fromEnv(env);
  const services = new ServicesService({
    store,
    planner: { ...registryLookups(client), runtimeImage: (task, kind) => runtimes.image(task, kind), cpuTextGeneration: runtimes.cpuTextGeneration, isProjectRuntime: (image) => runtimes.isProjectRuntime(image) },
    engineFor: (profile) => (profile.schema === "slurm" ? slurm.forProfile(profile) : docker),
    engineOf,
    reconciler,
    freePort: () => freePort(),
    ensureRuntime: (engine, image) => runtimes.ensure(engine, image),
    jobsDir: join(ctx.dataDir, "jobs"),
  });
  reconciler.start();
  docker.watch(() => reconciler.wake());
  return [servicesController(services), imagesController(new ImagesService(runtimes, docker))];
}
