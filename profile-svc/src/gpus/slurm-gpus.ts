import type { ClusterConnection } from "@svc/ssh";
import type { GpuReading } from "./reading";
import { slurmPartitions } from "./reading";
import { parseNodes, parsePartitions } from "./scontrol";

/** The partitions and nodes could not be read; the message says what the cluster answered. */
export class GpuReadError extends Error {
  override name = "GpuReadError";
}

const NODES_MARK = "@@svc-nodes";

/** One round trip: the partitions (one a line), a mark, the nodes (one a line). */
export const SLURM_GPU_SCRIPT = `PATH="$PATH:/usr/bin:/bin"; scontrol -o show partition && echo ${NODES_MARK} && scontrol -o show node`;

/** Reads a Slurm cluster's partitions and their nodes' GPUs, CPUs and memory over `connection`, in one command. */
export async function readSlurmGpus(connection: ClusterConnection, now = new Date()): Promise<GpuReading> {
  const result = await connection.run(SLURM_GPU_SCRIPT);
  const [partitions, nodes] = result.stdout.split(new RegExp(`^${NODES_MARK}$`, "m"));
  if (result.code !== 0 || nodes === undefined) {
    const said = (result.stderr.trim() || result.stdout.trim()).split("\n").slice(-3).join(" ");
    throw new GpuReadError(`scontrol show partition/node failed (exit ${result.code})${said ? `: ${said}` : ""}`);
  }
  return { source: "slurm", checkedAt: now.toISOString(), partitions: slurmPartitions(parsePartitions(partitions), parseNodes(nodes)) };
}
