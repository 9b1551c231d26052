import type { EngineKind } from "@svc/contracts";

/** What follows from an engine's kind alone, so code that holds only a record (with its `engine`) asks instead of naming kinds. */
export interface KindTraits {
  /** The engine holds a run's --gres GPUs for its whole run (a Slurm allocation), so GPU-hours are counted. */
  countsGpuHours: boolean;
  /**
   * The engine forgets a job some time after it ended (Slurm, after MinJobAge), so a job it no longer
   * knows may have ended on its own; elsewhere a missing job was removed outside svc.
   */
  forgetsEndedJobs: boolean;
  /** A starting service's server answers on this machine, so its health is watched between ticks (Docker). */
  watchesHealth: boolean;
}

export const KIND_TRAITS: Record<EngineKind, KindTraits> = {
  docker: { countsGpuHours: false, forgetsEndedJobs: false, watchesHealth: true },
  slurm: { countsGpuHours: true, forgetsEndedJobs: true, watchesHealth: false },
};
