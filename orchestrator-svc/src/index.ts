/** orchestrator-svc: services on Docker and Slurm behind /api/services and /api/images. */
export { features } from "./features";
export { ServiceStore, type ServiceRow } from "./db/service-store";
export type { Engine, EngineCapabilities, LaunchSpec, Observation, Submitted } from "./engines/engine";
export { EngineError, type EngineErrorKind } from "./engines/engine-error";
export { SlurmEngine, slurmWorkDir } from "./engines/slurm/slurm-engine";
export { Reconciler } from "./reconciler/reconciler";
export { probeHealth } from "./reconciler/health-probe";
