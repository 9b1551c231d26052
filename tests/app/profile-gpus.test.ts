/**
 * A slurm profile's partitions and GPUs, end to end: the real application and CLI against the test
 * cluster with its GPU nodes (images/slurm-test, partition `gpu`: 2 nodes × 4 a100). The profile's
 * check reads them over its SSH connection; `svc profile show` lists them with GPU memory from the
 * table, `--gpu-memory` overrides it, and the API reads again on ?refresh=true.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { ClusterGpus } from "@svc/contracts";
import { GPU_TEST_NODES, runSvc, startAppWithCluster, type ClusterApp } from "@svc/testing";

const PROFILE = "cluster";
const GIB = 1024 ** 3;
let started: ClusterApp;
const run = (args: string[]) => runSvc(args, started.env);

beforeAll(async () => {
  started = await startAppWithCluster(PROFILE, { gpuNodes: true });
}, 600_000);

afterAll(async () => {
  await started?.cleanup();
});

/** The row of `partition` in `svc profile show`'s table, split into its columns. */
function row(show: string, partition: string): string[] {
  const line = show.split("\n").find((text) => text.startsWith(`${partition} `) || text.startsWith(`${partition}* `));
  if (!line) throw new Error(`no row for ${partition} in:\n${show}`);
  return line.split(/ {2,}/);
}

describe("a slurm profile's GPUs", () => {
  test("svc profile show: debug (default) without GPUs, gpu with 2 nodes × 4 a100 at the table's A100 figure", async () => {
    const show = await run(["profile", "show", "--name", PROFILE]);
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^PARTITION +NODES +GPUS\/NODE +GPU MEMORY +CPUS\/NODE +MEMORY\/NODE +TIME LIMIT$/m);
    expect(row(show.stdout, "debug")).toEqual(["debug*", "1", "0", "-", "8", "7.81 GiB", "UNLIMITED"]);
    const { nodes, gpusPerNode, gpuType, cpusPerNode } = GPU_TEST_NODES;
    expect(row(show.stdout, "gpu")).toEqual(["gpu", String(nodes.length), `${gpusPerNode} × ${gpuType}`, "40.0 GiB (table)", String(cpusPerNode), "62.5 GiB", "04:00:00"]);
    expect(show.stdout).toContain("gpu: A100 comes with 40 or 80 GB; the smaller is assumed: set gpu_memory = 80G");
  });

  test("--gpu-memory 80G: the check runs again and the gpu partition shows 80 GiB from the profile; --json has it all", async () => {
    const update = await run(["profile", "update", "--name", PROFILE, "--gpu-memory", "80G"]);
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/^gpu_memory: +80G$/m);
    const show = await run(["profile", "show", "--name", PROFILE]);
    expect(row(show.stdout, "gpu")[3]).toBe("80.0 GiB (profile)");
    expect(show.stdout).not.toContain("A100 comes with");
    const json = JSON.parse((await run(["profile", "show", "--name", PROFILE, "--json"])).stdout) as { name: string; gpu_memory: string; gpus: ClusterGpus };
    expect(json.name).toBe(PROFILE);
    expect(json.gpu_memory).toBe("80G");
    expect(json.gpus.partitions.map((p) => [p.name, p.default, p.nodes, p.gpusPerNode, p.gpuType, p.gpuMemoryBytes, p.gpuMemorySource])).toEqual([
      ["debug", true, 1, 0, null, null, "unknown"],
      ["gpu", false, 2, 4, "a100", 80 * GIB, "profile"],
    ]);
    const bad = await run(["profile", "update", "--name", PROFILE, "--gpu-memory", "plenty"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"plenty" is not a size');
  });

  test("GET /api/profiles/{name}/gpus: the last reading, and ?refresh=true reads the cluster again (a node taken out of the partition shows only then); an unknown profile is 404", async () => {
    const before = await started.client.profiles.gpus(PROFILE);
    expect(before.source).toBe("slurm");
    // The partition loses a node on the cluster: only a new reading sees it.
    const changed = await started.cluster.container.exec(["scontrol", "update", "partitionname=gpu", "nodes=gpu-a"]);
    expect(changed.exitCode).toBe(0);
    try {
      expect((await started.client.profiles.gpus(PROFILE)).partitions.find((p) => p.name === "gpu")!.nodes).toBe(2);
      const again = await started.client.profiles.gpus(PROFILE, { refresh: true });
      expect(again.partitions.find((p) => p.name === "gpu")!.nodes).toBe(1);
      expect(Date.parse(again.checkedAt)).toBeGreaterThan(Date.parse(before.checkedAt));
    } finally {
      await started.cluster.container.exec(["scontrol", "update", "partitionname=gpu", "nodes=gpu-a,gpu-b"]);
    }
    await expect(started.client.profiles.gpus("nope")).rejects.toMatchObject({ status: 404, code: "not_found" });
  });
});
