import { createHash } from "node:crypto";
import { join } from "node:path";
import type { AnyElysia } from "elysia";
import { DEFAULT_PROFILE, GPU_ENGINES, type GpuEngine, type Profile } from "@svc/contracts";
import { internalClient, type ServiceContext } from "@svc/platform";
import { homeLayout } from "@svc/platform/config";
import { freePort } from "@svc/platform/net";
import { ImageCatalog } from "./catalog/images";
import { ServiceStore } from "./db/service-store";
import { DockerApi } from "./engines/docker/docker-api";
import { DockerEngine } from "./engines/docker/docker-engine";
import { NetworkMode } from "./engines/docker/network-mode";
import { engineFactsController } from "./engines/facts";
import { EngineReachability } from "./engines/reachability";
import { FoundVersions } from "./engines/versions/found-versions";
import { versionProbe } from "./engines/versions/probes";
import { runPythonInImage } from "./engines/docker/image-python";
import { Engines } from "./engines/registry";
import { SlurmEngine } from "./engines/slurm/slurm-engine";
import { protectedPlaces } from "./launch/data-paths";
import { Reconciler } from "./reconciler/reconciler";
import { ServicesService } from "./services/service";
import { servicesController } from "./services";
import { serviceRoutesController } from "./services/routes";
import { metricsController, OrchestratorMetrics } from "./metrics";
import { imagesController } from "./images";
import { ImagesService } from "./images/service";
import { sharedSlurmDeps } from "./engines/slurm/shared-deps";
import { runtimesController } from "./runtimes";
import { RuntimesService } from "./runtimes/service";
import { BatchStore } from "./db/batch-store";
import { batchesController } from "./batches";
import { BatchesService } from "./batches/service";
import type { JobFollower } from "./reconciler/reconciler";
import { DeploymentStore } from "./db/deployment-store";
import { deploymentsController } from "./deployments";
import { DeploymentsService } from "./deployments/service";
import { InFlightCounts } from "./deployments/in-flight";
import { scalerOf, type Scaler } from "./deployments/scaler";

/** Wires the orchestrator: its records, the engines, the reconciler loop and the services API. */
export function features(ctx: ServiceContext): AnyElysia[] {
  const env = process.env;
  const store = new ServiceStore(join(ctx.dataDir, "orchestrator.db"));
  const client = internalClient(ctx.upstreams, ctx.internalSecret);
  const catalog = ImageCatalog.fromEnv(env);
  const dockerApi = DockerApi.fromEnv(env);
  const docker = new DockerEngine(dockerApi, {
    network: NetworkMode.fromSetting(env.SVC_DOCKER_NETWORK),
    homeLabel: createHash("sha256").update(ctx.settings.homeDir).digest("hex").slice(0, 16),
    keysDir: join(ctx.dataDir, "api-keys"),
    freePort: () => freePort(),
    projectTask: (image) => catalog.projectTask(image),
    projectImage: (task) => catalog.image(task, "svc"),
  });
  const slurmDeps = sharedSlurmDeps({ cacheDir: homeLayout(ctx.settings.homeDir).cacheDir("npm"), localImages: docker.images });
  const engines = new Engines({
    docker,
    slurm: (name, load) => new SlurmEngine(name, load, slurmDeps),
    profile: (name) => client.profiles.get(name),
  });
  const log = (message: string) => console.log(`[reconciler] ${message}`);
  const followers: JobFollower[] = [];
  const metrics = new OrchestratorMetrics(store);
  const scaling: { scaler?: Scaler } = {};
  const inFlight = new InFlightCounts();
  const reconciler = new Reconciler({
    store,
    engineFor: (row) => engines.forRecord(row),
    inFlight,
    log,
    onTickStart: () => metrics.tickStarted(),
    onTick: (seconds) => metrics.tick(seconds),
    followers,
    afterTick: async () => scaling.scaler?.tick(),
  });
  const capabilitiesOf = (profile: Profile) => engines.forProfile(profile).capabilities;
  const foundVersions = new FoundVersions(join(ctx.dataDir, "engine-versions.json"), versionProbe(engines, { labels: (name) => docker.images.labels(name), python: (name, line) => runPythonInImage(dockerApi, name, line) }));
  // A bare Slurm job runs the cluster's own python3 whatever the image is called: its version is the profile's.
  const findVersion = (profile: Profile, engine: GpuEngine, image: string) => foundVersions.find(profile, engine, capabilitiesOf(profile).runsImages ? image : null);
  const engineVersions = async (name = DEFAULT_PROFILE) => {
    const profile = await client.profiles.get(name);
    await Promise.all(GPU_ENGINES.map((engine) => findVersion(profile, engine, catalog.image("text-generation", engine))));
    return foundVersions.list(profile.name);
  };
  const planner = {
    profile: (name: string) => client.profiles.get(name),
    models: (profile: string, repo?: string) => client.models.list({ profile, repo }),
    image: (task: Parameters<typeof catalog.image>[0], server: Parameters<typeof catalog.image>[1]) => catalog.image(task, server),
    cpuTextGeneration: catalog.cpuTextGeneration,
    capabilities: (profile: Parameters<typeof engines.forProfile>[0]) => engines.forProfile(profile).capabilities,
    protectedPlaces: protectedPlaces(ctx.settings.homeDir, dockerApi.socketPath),
    isProjectRuntime: (image: string) => catalog.isProjectRuntime(image, (name) => docker.images.labels(name)),
    // A profile whose GPUs cannot be read launches unsized on the GPUs the run asks for (see launch/gpu-placement.ts).
    gpus: (profile: Profile) => client.profiles.gpus(profile.name).catch(() => null),
    engineVersion: findVersion,
  };
  const batchStore = new BatchStore(join(ctx.dataDir, "orchestrator.db"));
  const batches = new BatchesService({
    store: batchStore,
    uploadsDir: homeLayout(ctx.settings.homeDir).uploadsDir,
    planner,
    engineFor: (profile) => engines.forProfile(profile),
    engineOf: (row) => engines.forRecord(row),
    wake: () => reconciler.wake(),
    log: (message) => console.log(`[batches] ${message}`),
  });
  followers.push(batches);
  const services = new ServicesService({
    store,
    planner,
    engineFor: (profile) => engines.forProfile(profile),
    engineOf: (row) => engines.forRecord(row),
    reconciler,
    inFlight,
  });
  const deploymentStore = new DeploymentStore(join(ctx.dataDir, "orchestrator.db"));
  const deployments = new DeploymentsService({ store: deploymentStore, services: store, replicas: services, inFlight, planner, wake: () => reconciler.wake(), log: (message) => console.log(`[deployments] ${message}`) });
  scaling.scaler = scalerOf({ deployments: deploymentStore, services: store, inFlight, starts: deployments, stops: services, now: Date.now, log: (message) => console.log(`[scaler] ${message}`) });
  reconciler.start();
  const reachability = new EngineReachability({ docker: dockerApi, profiles: () => client.profiles.list(), slurmFor: (profile) => engines.slurmFor(profile) });
  reachability.start();
  for (const engine of engines.all()) if (engine.capabilities.watches) engine.watch?.(() => reconciler.wake());
  const runtimes = new RuntimesService({
    profile: (name) => client.profiles.get(name),
    runtimeOf: (profile) => engines.clusterRuntime(profile),
    installs: slurmDeps.installs,
    liveJobs: (profile) => engines.clusterWorkDirs(profile, [...store.live(), ...batchStore.live()]),
  });
  return [servicesController(services, deployments), deploymentsController(deployments), batchesController(batches), imagesController(new ImagesService(catalog, docker)), runtimesController(runtimes, engineVersions), engineFactsController(docker, reachability), serviceRoutesController(store, deploymentStore), metricsController(metrics)];
}
