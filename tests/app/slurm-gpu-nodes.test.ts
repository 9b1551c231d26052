/**
 * The Slurm test cluster's GPU nodes (startSlurmCluster with `gpuNodes`): the partition `gpu` of two
 * nodes, each its own slurmd with typed GPU GRES (`gpu:a100:4` on device files), next to the
 * unchanged default partition `debug`; a two-node job that asks for all GPUs runs on both nodes,
 * each node's name resolves to the address a job's server listens on.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { shellQuote } from "@svc/platform/shell";
import { ensureDocker, GPU_TEST_NODES, startSlurmCluster, type SshTestHost } from "@svc/testing";

let cluster: SshTestHost;

beforeAll(async () => {
  ensureDocker();
  cluster = await startSlurmCluster({ authorizedKeys: [], gpuNodes: true });
}, 300_000);

afterAll(async () => {
  await cluster?.stop();
});

const onCluster = async (command: string) => {
  const result = await cluster.execAsUser(command);
  if (result.exitCode !== 0) throw new Error(`${command} failed (${result.exitCode}):\n${result.output}`);
  return result.output;
};

describe("the test cluster's GPU nodes", () => {
  test("sinfo: gpu-a and gpu-b idle in partition gpu with gpu:a100:4; localhost alone in the default partition debug, without GPUs", async () => {
    const rows = (await onCluster("sinfo -h -N -o '%N|%P|%T|%G|%c|%m|%l'"))
      .trim()
      .split("\n")
      .map((line) => line.split("|"));
    const { nodes, partition, gpuType, gpusPerNode, cpusPerNode, memoryMbPerNode, timeLimit } = GPU_TEST_NODES;
    expect(rows.sort()).toEqual(
      [
        ...nodes.map((node) => [node, partition, "idle", `gpu:${gpuType}:${gpusPerNode}`, String(cpusPerNode), String(memoryMbPerNode), timeLimit]),
        ["localhost", "debug*", "idle", "(null)", "8", "8000", "infinite"],
      ].sort(),
    );
  });

  test("a job on partition gpu with --nodes 2 --gres gpu:a100:4 runs on both nodes, with all four GPUs and a resolvable node name on each", async () => {
    const step = 'echo "$SLURMD_NODENAME $CUDA_VISIBLE_DEVICES $(getent ahostsv4 "$SLURMD_NODENAME" | awk \'NR == 1 { print $1 }\')"';
    const script = `#!/bin/sh\nsrun sh -c ${shellQuote(step)}\n`;
    const out = "gpu-job.out";
    await onCluster(`printf '%s' ${shellQuote(script)} > gpu-job.sh && sbatch --wait --partition gpu --nodes 2 --gres gpu:a100:4 --time 1 -o ${out} gpu-job.sh`);
    const lines = (await onCluster(`cat ${out}`)).trim().split("\n").sort();
    expect(lines).toEqual(GPU_TEST_NODES.nodes.map((node) => `${node} 0,1,2,3 127.0.0.1`));
  });

  test("more GPUs per node than a GPU node has is refused at submission; the default partition has no GPUs", async () => {
    const tooMany = await cluster.execAsUser("sbatch --partition gpu --gres gpu:a100:5 --wrap true");
    expect(tooMany.exitCode).not.toBe(0);
    expect(tooMany.output).toContain("Requested node configuration is not available");
    const onDebug = await cluster.execAsUser("sbatch --gres gpu:1 --wrap true");
    expect(onDebug.exitCode).not.toBe(0);
    expect(onDebug.output).toContain("Requested node configuration is not available");
  });
});

