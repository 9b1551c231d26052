import { Elysia } from "elysia";
import { ClusterGpus } from "@svc/contracts";
import { operation } from "@svc/platform";
import { ProfileParams } from "../profiles/model";
import { GpusQuery } from "./model";
import type { GpusService } from "./service";

/** GET /api/profiles/{name}/gpus: the partitions and GPUs a profile's services can get. */
export function gpusController(service: GpusService) {
  return new Elysia({ name: "profile-svc/gpus", prefix: "/api/profiles" }).get("/:name/gpus", ({ params, query }) => service.get(params.name, query.refresh ?? false), {
    params: ProfileParams,
    query: GpusQuery,
    ...operation("getProfileGpus", {
      summary: "A profile's partitions and GPUs",
      tags: ["profiles"],
      description:
        "slurm: each partition that takes jobs, from `scontrol show partition/node` in one round trip: nodes, GPUs per node and their GRES type, CPUs, memory and time limit " +
        "(where nodes differ, the smallest figures and a note). local: this machine as one partition `local` (its GPUs from nvidia-smi, none without it). " +
        "GPU memory comes from the profile's `gpu_memory`, the device, or svc's GPU table (gpuMemorySource). Read with each profile check and kept; `refresh=true` reads again.",
      ok: { 200: ClusterGpus },
      errors: {
        404: "No profile of that name (`not_found`), or none at all (`no_profiles`).",
        409: "profiles.cfg does not parse (`profiles_file_invalid`) or is held too long (`profiles_file_busy`).",
        422: "Reading the cluster failed: `ssh_unreachable`, `ssh_auth_failed`, `ssh_host_key_changed`, `ssh_host_key_unknown`, `ssh_failed`, or `remote_check_failed` (scontrol failed).",
      },
    }),
  });
}
