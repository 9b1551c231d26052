/**
 * Reading a profile's GPUs without a cluster: scontrol's records (as the test cluster and a larger,
 * mixed cluster print them), GRES strings, nvidia-smi's CSV (captured on an H100), and GPU memory
 * from the table, a size in the type's name, the device, or the profile's gpu_memory.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Profile } from "@svc/contracts";
import { localPartition, parseNvidiaSmi } from "../src/gpus/local-gpus";
import { resolveGpus, slurmPartitions, type GpuReading } from "../src/gpus/reading";
import { parseGpuGres, parseNodes, parsePartitions, recordFields } from "../src/gpus/scontrol";
import { readSlurmGpus, SLURM_GPU_SCRIPT } from "../src/gpus/slurm-gpus";

const fixture = (name: string) => readFileSync(join(import.meta.dir, "fixtures", name), "utf8");
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
const slurm = (extra: Partial<Profile> = {}) => ({ name: "cluster", schema: "slurm", host: "h", user: "u", home: "~/svc", cache: "/c", ...extra }) as Profile;

/** Runs a fixture through the same path as a real read: one command's output, parsed and resolved. */
async function readFixture(name: string, profile = slurm()) {
  const runs: string[] = [];
  const connection = { run: async (script: string) => (runs.push(script), { code: 0, stdout: fixture(name), stderr: "", bytes: Buffer.alloc(0) }) };
  const reading = await readSlurmGpus(connection as never, new Date("2026-11-27T10:00:00Z"));
  return { runs, gpus: resolveGpus(profile, reading) };
}

describe("GRES strings", () => {
  test.each([
    ["gpu:a100:4(S:0-1)", [{ type: "a100", count: 4 }]],
    ["gpu:4", [{ type: null, count: 4 }]],
    ["gpu:h100:8(S:0-1),shard:h100:32(S:0-1)", [{ type: "h100", count: 8 }]],
    ["gpu:v100:2(S:0,1),gpu:a100:2(S:2)", [{ type: "v100", count: 2 }, { type: "a100", count: 2 }]],
    ["gpu:a100:no_consume:2", [{ type: "a100", count: 2 }]],
    ["mps:400,gpu:l40s:4", [{ type: "l40s", count: 4 }]],
    ["(null)", []],
    ["", []],
  ])("%s", (gres, expected) => {
    expect(parseGpuGres(gres)).toEqual(expected);
  });
});

describe("scontrol records", () => {
  test("a value with spaces runs to the next Key=; a key repeated inside a value keeps the first", () => {
    const fields = recordFields("NodeName=c002 OS=Linux 4.18.0 #1 SMP Wed Nov 1 Partitions=cpu Reason=bad DIMM, Partitions=none [root@2026-11-20T09:00:00]");
    expect(fields.get("OS")).toBe("Linux 4.18.0 #1 SMP Wed Nov 1");
    expect(fields.get("Partitions")).toBe("cpu");
    expect(fields.get("Reason")).toBe("bad DIMM,");
  });

  test("partitions and nodes of the test cluster, as its scontrol printed them", () => {
    const [partitions, nodes] = fixture("scontrol-test-cluster.txt").split("@@svc-nodes\n");
    expect(parsePartitions(partitions)).toEqual([
      { name: "gpu", default: false, state: "UP", totalNodes: 2, maxTime: "04:00:00" },
      { name: "debug", default: true, state: "UP", totalNodes: 1, maxTime: "UNLIMITED" },
    ]);
    expect(parseNodes(nodes).map((node) => [node.name, node.partitions, node.gpus, node.cpus, node.memoryMb])).toEqual([
      ["gpu-a", ["gpu"], [{ type: "a100", count: 4 }], 16, 64000],
      ["gpu-b", ["gpu"], [{ type: "a100", count: 4 }], 16, 64000],
      ["localhost", ["debug"], [], 8, 8000],
    ]);
  });
});

describe("a Slurm profile's partitions", () => {
  test("the test cluster in one command: debug (default, first) without GPUs; gpu with 2 nodes × 4 a100 at the table's A100 figure and its note", async () => {
    const { runs, gpus } = await readFixture("scontrol-test-cluster.txt");
    expect(runs).toEqual([SLURM_GPU_SCRIPT]);
    expect(gpus.source).toBe("slurm");
    expect(gpus.checkedAt).toBe("2026-11-27T10:00:00.000Z");
    const [debug, gpu] = gpus.partitions;
    expect(debug).toEqual({ name: "debug", default: true, nodes: 1, gpusPerNode: 0, gpuType: null, gpuMemoryBytes: null, gpuMemorySource: "unknown", cpusPerNode: 8, memoryBytesPerNode: 8000 * MIB, timeLimit: "UNLIMITED" });
    expect(gpu).toMatchObject({ name: "gpu", default: false, nodes: 2, gpusPerNode: 4, gpuType: "a100", gpuMemoryBytes: 40 * GIB, gpuMemorySource: "table", cpusPerNode: 16, memoryBytesPerNode: 64000 * MIB, timeLimit: "04:00:00" });
    expect(gpu.note).toContain("A100 comes with 40 or 80 GB");
  });

  test("gpu_memory overrides the table: one size for all, or per type", async () => {
    for (const setting of ["80G", "a100:80G", "81920M", "80GiB"]) {
      const { gpus } = await readFixture("scontrol-test-cluster.txt", slurm({ gpu_memory: setting }));
      const gpu = gpus.partitions.find((p) => p.name === "gpu")!;
      expect([setting, gpu.gpuMemoryBytes, gpu.gpuMemorySource, gpu.note]).toEqual([setting, 80 * GIB, "profile", undefined]);
      expect(gpus.partitions.find((p) => p.name === "debug")!.gpuMemorySource).toBe("unknown");
    }
    const other = await readFixture("scontrol-test-cluster.txt", slurm({ gpu_memory: "v100:32G" }));
    expect(other.gpus.partitions.find((p) => p.name === "gpu")!.gpuMemorySource).toBe("table");
  });

  test("a mixed cluster: nodes without GPUs left out, the smallest count and least-memory type with notes, untyped GPUs unknown, a DOWN partition left out", async () => {
    const { gpus } = await readFixture("scontrol-mixed-cluster.txt");
    const byName = Object.fromEntries(gpus.partitions.map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual(["cpu", "gpu", "h100", "interactive"]);
    expect(byName.cpu).toMatchObject({ default: true, nodes: 2, gpusPerNode: 0, gpuType: null, cpusPerNode: 128, memoryBytesPerNode: 515000 * MIB, timeLimit: "7-00:00:00" });
    expect(byName.cpu.note).toBeUndefined();
    // g001 4 × a100_80g, g002 8 × a100_80g, g003 2 × v100 + 6 × a100_80g.
    expect(byName.gpu).toMatchObject({ nodes: 3, gpusPerNode: 4, gpuType: "v100", gpuMemoryBytes: 16 * GIB, gpuMemorySource: "table", memoryBytesPerNode: 500000 * MIB });
    expect(byName.gpu.note).toContain("GPUs per node differ (4–8): the smallest count is shown");
    expect(byName.gpu.note).toContain("GPU types differ (v100 on 1, a100_80g on 3 nodes)");
    // h100 with shards alongside: the shards are not GPUs.
    expect(byName.h100).toMatchObject({ nodes: 2, gpusPerNode: 8, gpuType: "h100", gpuMemoryBytes: 80 * GIB, gpuMemorySource: "table", cpusPerNode: 112, timeLimit: "1-00:00:00" });
    expect(byName.h100.note).toBeUndefined();
    // c001 has none, g001 4 × a100_80g, old01 4 untyped.
    expect(byName.interactive).toMatchObject({ nodes: 2, gpusPerNode: 4, gpuType: null, gpuMemoryBytes: null, gpuMemorySource: "unknown", cpusPerNode: 16 });
    expect(byName.interactive.note).toContain("2 of its 3 nodes have GPUs");
    expect(byName.interactive.note).toContain("GPU memory unknown for GPUs without a type: set gpu_memory");
  });

  test("a failing scontrol is an error naming what it said", async () => {
    const connection = { run: async () => ({ code: 1, stdout: "", stderr: "slurm_load_partitions: Unable to contact slurm controller (connect failure)\n", bytes: Buffer.alloc(0) }) };
    await expect(readSlurmGpus(connection as never)).rejects.toThrow("scontrol show partition/node failed (exit 1): slurm_load_partitions: Unable to contact slurm controller");
  });
});

describe("a local profile's GPUs", () => {
  test("nvidia-smi's CSV as an H100 machine printed it, with or without header and units", () => {
    const expected = [{ name: "NVIDIA H100 80GB HBM3", memoryBytes: 81559 * MIB }];
    expect(parseNvidiaSmi(fixture("nvidia-smi-h100-noheader.txt"))).toEqual(expected);
    expect(parseNvidiaSmi(fixture("nvidia-smi-h100-csv.txt"))).toEqual(expected);
    expect(parseNvidiaSmi("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.\n")).toEqual([]);
  });

  test("one partition `local`: the device's own memory, or no GPUs at all", () => {
    const machine = { cpus: 16, memoryBytes: 128 * GIB };
    const reading = (gpus: ReturnType<typeof parseNvidiaSmi>): GpuReading => ({ source: "docker", checkedAt: "2026-11-27T10:00:00.000Z", partitions: [localPartition(gpus, machine)] });
    const local = { name: "default", schema: "local", home_dir: "/h", cache_dir: "/c" } as Profile;
    const two = parseNvidiaSmi(`${fixture("nvidia-smi-h100-noheader.txt")}NVIDIA H100 80GB HBM3, 81559\n`);
    expect(resolveGpus(local, reading(two)).partitions).toEqual([
      { name: "local", default: true, nodes: 1, gpusPerNode: 2, gpuType: "h100", gpuMemoryBytes: 81559 * MIB, gpuMemorySource: "device", cpusPerNode: 16, memoryBytesPerNode: 128 * GIB, timeLimit: null },
    ]);
    expect(resolveGpus({ ...local, gpu_memory: "70G" }, reading(two)).partitions[0]).toMatchObject({ gpuMemoryBytes: 70 * GIB, gpuMemorySource: "profile" });
    expect(resolveGpus(local, reading([])).partitions).toEqual([
      { name: "local", default: true, nodes: 1, gpusPerNode: 0, gpuType: null, gpuMemoryBytes: null, gpuMemorySource: "unknown", cpusPerNode: 16, memoryBytesPerNode: 128 * GIB, timeLimit: null },
    ]);
  });
});
