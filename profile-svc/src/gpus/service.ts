import { ApiError, type ClusterGpus, type Profile } from "@svc/contracts";
import type { ProfileService } from "../profiles/service";
import { onCluster } from "../profiles/slurm-checks";
import { resolveGpus, type GpuReading } from "./reading";
import { GpuReadError, readSlurmGpus } from "./slurm-gpus";

/**
 * A profile's GPUs: the last reading (from the profile's check, or an earlier request) unless
 * `refresh` asks to read again or there is none yet; GPU memory is decided from the profile as it
 * is now (its `gpu_memory` may have changed since).
 */
export class GpusService {
  constructor(private readonly profiles: ProfileService) {}

  async get(name: string, refresh = false): Promise<ClusterGpus> {
    const profile = await this.profiles.get(name);
    const cached = refresh ? undefined : this.profiles.gpuCache.load(name);
    const reading = cached ?? (await this.read(profile));
    if (!cached) this.profiles.gpuCache.save(name, reading);
    return resolveGpus(profile, reading);
  }

  private read(profile: Profile): Promise<GpuReading> {
    if (profile.schema === "local") return this.profiles.readLocalGpus();
    return onCluster(profile, this.profiles.clusterOptions, (connection) => readSlurmGpus(connection)).catch((error: unknown) => {
      if (error instanceof GpuReadError) throw new ApiError(422, "remote_check_failed", `Could not read the partitions of ${profile.user}@${profile.host}: ${error.message}.`);
      throw error;
    });
  }
}
