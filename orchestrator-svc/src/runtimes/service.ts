import { ApiError, DEFAULT_PROFILE, notFound, type Profile, type RuntimeInstall, type RuntimeInstallState, type RuntimeList, type RuntimeRemoval, type SlurmProfile } from "@svc/contracts";
import type { ClusterRuntime } from "../engines/slurm/runtime/cluster-runtime";
import type { RuntimeInstalls } from "../engines/slurm/runtime/installs";
import { engineFailure } from "../services/engine-failure";

export interface RuntimesDeps {
  profile(name: string): Promise<Profile>;
  /** The runtime on a slurm profile's cluster (through that profile's Slurm engine and connection); an EngineError for any other profile. */
  runtimeOf(profile: Profile): Promise<{ profile: SlurmProfile; runtime: ClusterRuntime }>;
  installs: RuntimeInstalls;
  /** Live services of a profile whose job has a work folder on the cluster: service id → work folder. */
  liveJobs(profile: string): Map<string, string>;
}

/** `svc runtime install|ls|rm`: the svc runtime bundle on slurm profiles' clusters. */
export class RuntimesService {
  constructor(private readonly deps: RuntimesDeps) {}

  private async slurm(name: string | undefined): Promise<{ profile: SlurmProfile; runtime: ClusterRuntime }> {
    const profile = await this.deps.profile(name ?? DEFAULT_PROFILE);
    return this.deps.runtimeOf(profile).catch((error) => {
      throw engineFailure(error, `Could not reach the svc runtime of profile ${profile.name}`);
    });
  }

  async list(name: string | undefined): Promise<RuntimeList> {
    const { profile, runtime } = await this.slurm(name);
    return this.listOn(profile, runtime);
  }

  private async listOn(profile: SlurmProfile, runtime: ClusterRuntime): Promise<RuntimeList> {
    const jobs = this.deps.liveJobs(profile.name);
    try {
      const bundle = await runtime.bundle();
      const { machine, versions, uses } = await runtime.list([...jobs.values()]);
      const users = (version: string) => [...jobs.keys()].filter((id) => uses.get(id) === version);
      return {
        profile: profile.name,
        host: profile.host,
        machine,
        current: bundle.id,
        unavailable: bundle.unavailable,
        versions: versions.map((v) => ({ ...v, current: v.version === bundle.id, services: users(v.version) })),
      };
    } catch (error) {
      throw engineFailure(error, `Could not list the svc runtimes on ${profile.host}`);
    }
  }

  async install(name: string | undefined): Promise<RuntimeInstall> {
    const { profile, runtime } = await this.slurm(name);
    return runtime.install().catch((error) => {
      throw engineFailure(error, `Could not install the svc runtime on ${profile.host}`);
    });
  }

  installTask(id: string): RuntimeInstall {
    const task = this.deps.installs.get(id);
    if (!task) throw notFound(`No runtime install has the id ${id} (this svc keeps the last 50).`);
    return task;
  }

  installTasks(filter: { profile?: string; state?: RuntimeInstallState }): RuntimeInstall[] {
    return this.deps.installs.list(filter);
  }

  /** Removes `version`, or without one every version but the current one; versions live services run are kept. */
  async remove(name: string | undefined, version: string | undefined): Promise<RuntimeRemoval> {
    const { profile, runtime } = await this.slurm(name);
    const listed = await this.listOn(profile, runtime);
    const installed = listed.versions;
    if (version !== undefined && !installed.some((v) => v.version === version)) {
      throw notFound(`Version ${version} of the svc runtime is not installed on ${listed.host} ('svc runtime ls --profile ${listed.profile}' lists them).`);
    }
    const inUse = installed.filter((v) => v.version === version && v.services.length > 0);
    if (inUse.length > 0) {
      throw new ApiError(409, "runtime_in_use", `Version ${version} runs live services (${inUse[0].services.join(", ")}): stop them first.`);
    }
    const doomed = version !== undefined ? [version] : installed.filter((v) => !v.current && v.services.length === 0).map((v) => v.version);
    if (doomed.length === 0) return { profile: listed.profile, removed: [] };
    try {
      return { profile: profile.name, removed: await runtime.remove(doomed) };
    } catch (error) {
      throw engineFailure(error, `Could not remove svc runtimes on ${profile.host}`);
    }
  }
}
