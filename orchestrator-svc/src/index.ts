/** orchestrator-svc: services on Docker and Slurm behind /api/services and /api/images. */
export { features } from "./features";
export { ServiceStore } from "./db/service-store";
export type { Engine, LaunchSpec, Observation } from "./engines/engine";
export { SlurmEngine, slurmWorkDir } from "./engines/slurm/slurm-engine";
export { SshConnection } from "./engines/slurm/connection";
export { probeHealth } from "./reconciler/health-probe";
