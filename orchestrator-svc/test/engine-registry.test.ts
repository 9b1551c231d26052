/** The engine registry: the one place that tells engine kinds and profile schemas apart. */
import { expect, test } from "bun:test";
import type { Profile } from "@svc/contracts";
import { Engines } from "../src/engines/registry";
import type { DockerEngine } from "../src/engines/docker/docker-engine";
import type { SlurmEngine } from "../src/engines/slurm/slurm-engine";

const local: Profile = { name: "default", schema: "local", home_dir: "/h", cache_dir: "/c" };

test("a slurm profile's live work folders: its services' and batch jobs' jobs, not another profile's nor Docker's", () => {
  const engines = new Engines({ docker: {} as DockerEngine, slurm: () => ({}) as SlurmEngine, profile: async () => local });
  const rows = [
    { id: "service-1", engine: "slurm" as const, profile: "hpc", handle: "101:/home/svc/.svc/jobs/service-1" },
    { id: "batch-1", engine: "slurm" as const, profile: "hpc", handle: "102:/home/svc/.svc/jobs/batch-1" },
    { id: "submitting", engine: "slurm" as const, profile: "hpc", handle: null },
    { id: "other", engine: "slurm" as const, profile: "other", handle: "103:/home/me/.svc/jobs/other" },
    { id: "container", engine: "docker" as const, profile: "hpc", handle: "c0ffee" },
  ];
  expect([...engines.clusterWorkDirs("hpc", rows)]).toEqual([
    ["service-1", "/home/svc/.svc/jobs/service-1"],
    ["batch-1", "/home/svc/.svc/jobs/batch-1"],
  ]);
});
