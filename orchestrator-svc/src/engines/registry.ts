import { type EngineKind, type Profile, type SlurmProfile } from "@svc/contracts";
import type { DockerEngine } from "./docker/docker-engine";
import type { Engine } from "./engine";
import { EngineError } from "./engine-error";
import type { ClusterRuntime } from "./slurm/runtime/cluster-runtime";
import type { SlurmEngine } from "./slurm/slurm-engine";

export interface EnginesDeps {
  /** The one Docker engine (every local profile's services run on this machine). */
  docker: DockerEngine;
  /** A new engine for a slurm profile's name; `load` asks for the profile as it is now. */
  slurm(name: string, load: () => Promise<SlurmProfile>): SlurmEngine;
  /** The profile by name, as profile-svc has it now. */
  profile(name: string): Promise<Profile>;
}

/**
 * Which engine runs a profile's services. The only place that tells profiles apart by schema: a
 * local profile's services run on Docker here, a slurm profile's as jobs on its cluster, with one
 * SlurmEngine (so one connection) per slurm profile, made on first use and kept, because the
 * reconciler asks each engine once per tick about all of its services.
 */
export class Engines {
  private readonly slurm = new Map<string, SlurmEngine>();

  constructor(private readonly deps: EnginesDeps) {}

  forProfile(profile: Profile): Engine {
    if (profile.schema === "local") return this.deps.docker;
    return this.slurmFor(profile);
  }

  /** A slurm profile's engine, taking the profile as it is now. */
  slurmFor(profile: SlurmProfile): SlurmEngine {
    return this.slurmEngine(profile.name).use(profile);
  }

  /** The svc runtime on a profile's cluster (`svc runtime …`): only a slurm profile has one. */
  async clusterRuntime(profile: Profile): Promise<{ profile: SlurmProfile; runtime: ClusterRuntime }> {
    if (profile.schema !== "slurm") {
      throw new EngineError("invalid", "not_a_slurm_profile", `Profile ${profile.name} is a local profile: its services run in containers here and need no svc runtime. Name a slurm profile (--profile).`);
    }
    return { profile, runtime: await this.slurmFor(profile).runtime() };
  }

  /** The engine of a recorded service: by the engine kind it was started with and its profile's name. */
  forRecord(record: { engine: EngineKind; profile: string }): Engine {
    const byKind: Record<EngineKind, () => Engine> = { docker: () => this.deps.docker, slurm: () => this.slurmEngine(record.profile) };
    return byKind[record.engine]();
  }

  /** Every engine made so far. */
  all(): Engine[] {
    return [this.deps.docker, ...this.slurm.values()];
  }

  private slurmEngine(name: string): SlurmEngine {
    let engine = this.slurm.get(name);
    if (!engine) {
      engine = this.deps.slurm(name, async () => {
        const profile = await this.deps.profile(name);
        if (profile.schema !== "slurm") throw new EngineError("conflict", "profile_schema_changed", `Profile ${name} is no longer a slurm profile.`);
        return profile;
      });
      this.slurm.set(name, engine);
    }
    return engine;
  }

  closeAll() {
    for (const engine of this.slurm.values()) engine.close();
    this.slurm.clear();
  }
}
