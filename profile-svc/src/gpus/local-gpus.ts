import { cpus, totalmem } from "node:os";
import { compactGpuType, gpuTypeMemory } from "@svc/contracts";
import type { GpuReading, ReadPartition } from "./reading";

/** nvidia-smi's list of this machine's GPUs: one `name, memory.total` a line (MiB). */
export const NVIDIA_SMI = ["nvidia-smi", "--query-gpu=name,memory.total", "--format=csv,noheader,nounits"];

export interface DeviceGpu {
  name: string;
  memoryBytes: number;
}

/**
 * The GPUs in nvidia-smi's CSV: `NVIDIA H100 80GB HBM3, 81559` (noheader,nounits) or with its
 * header and `MiB` units; lines that are neither (a driver's error) are skipped.
 */
export function parseNvidiaSmi(text: string): DeviceGpu[] {
  return text.split("\n").flatMap((line) => {
    const match = line.trim().match(/^(.+?),\s*(\d+)(?:\s*MiB)?$/);
    return match ? [{ name: match[1].trim(), memoryBytes: Number(match[2]) * 1024 ** 2 }] : [];
  });
}

/** The GRES-like type of a device name: the table's first name for its model (`NVIDIA H100 80GB HBM3` → h100), else the compacted name. */
function deviceType(name: string): string {
  return gpuTypeMemory(name)?.entry?.names[0] ?? compactGpuType(name);
}

/**
 * This machine as one partition `local`: its GPUs (all of them counted, under the model with the
 * least memory when they differ), CPUs and memory, no time limit.
 */
export function localPartition(gpus: DeviceGpu[], machine = { cpus: cpus().length, memoryBytes: totalmem() }): ReadPartition {
  const smallest = [...gpus].sort((a, b) => a.memoryBytes - b.memoryBytes)[0];
  const models = [...new Set(gpus.map((gpu) => gpu.name))];
  return {
    name: "local",
    default: true,
    nodes: 1,
    gpusPerNode: gpus.length,
    gpuType: smallest ? deviceType(smallest.name) : null,
    ...(smallest ? { deviceMemoryBytes: smallest.memoryBytes } : {}),
    cpusPerNode: machine.cpus,
    memoryBytesPerNode: machine.memoryBytes,
    timeLimit: null,
    notes: models.length > 1 ? [`GPU models differ (${models.join(", ")}): the one with the least memory is shown`] : [],
  };
}

/** Runs nvidia-smi when there is one (no GPUs otherwise: a machine without NVIDIA's driver has none svc can use). */
export async function readLocalGpus(now = new Date(), command = NVIDIA_SMI): Promise<GpuReading> {
  let gpus: DeviceGpu[] = [];
  if (Bun.which(command[0])) {
    const proc = Bun.spawn(command, { stdout: "pipe", stderr: "ignore" });
    const timer = setTimeout(() => proc.kill(), 10_000);
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    clearTimeout(timer);
    if (code === 0) gpus = parseNvidiaSmi(text);
  }
  return { source: "docker", checkedAt: now.toISOString(), partitions: [localPartition(gpus)] };
}
