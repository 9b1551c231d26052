/** orchestrator-svc: services on Docker and Slurm behind /api/services, /api/images and /api/runtimes. */
export { features } from "./features";
export { ServiceStore, type ServiceRow } from "./db/service-store";
export { BatchStore, type BatchRow } from "./db/batch-store";
export { instanceKey, type Engine, type EngineCapabilities, type LaunchSpec, type Observation, type Submitted } from "./engines/engine";
export { EngineError, type EngineErrorKind } from "./engines/engine-error";
export { SlurmEngine, slurmWorkDir, type SlurmEngineDeps } from "./engines/slurm/slurm-engine";
export { sharedSlurmDeps } from "./engines/slurm/shared-deps";
export { RuntimeBundles } from "./engines/slurm/runtime/bundles";
export { Reconciler } from "./reconciler/reconciler";
export { probeHealth } from "./reconciler/health-probe";
