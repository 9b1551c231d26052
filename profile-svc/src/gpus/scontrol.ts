/**
 * Parsing what `scontrol -o show partition` and `scontrol -o show node` print (one record a line,
 * `Key=value` pairs) and the GRES strings in them. Pure functions, so the shapes real clusters
 * print are tested without one.
 */

/** `Key=value` pairs of one record line. A value may hold spaces (`OS=Linux 5.15 #1 SMP`, `Reason=…`): it runs to the next ` Key=`. */
export function recordFields(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  const keys = [...line.matchAll(/(?:^|\s)([A-Za-z][A-Za-z0-9_:/]*)=/g)];
  keys.forEach((match, i) => {
    const start = match.index! + match[0].length;
    const end = i + 1 < keys.length ? keys[i + 1].index! : line.length;
    if (!fields.has(match[1])) fields.set(match[1], line.slice(start, end).trim());
  });
  return fields;
}

export interface GpuGres {
  /** The GRES type (`a100`), or null for `gpu:4`. */
  type: string | null;
  count: number;
}

/** Splits on commas outside parentheses: `gpu:a100:2(S:0,1),gpu:v100:2(S:2)` has two parts. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of text) {
    if (char === "(") depth++;
    if (char === ")") depth = Math.max(0, depth - 1);
    if (char === "," && depth === 0) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts.map((part) => part.trim()).filter(Boolean);
}

const COUNT_SUFFIX: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * The GPUs in a node's `Gres=` value: `gpu:a100:4(S:0-1)`, `gpu:4`, `gpu:h100:8,shard:h100:32`,
 * `gpu:a100:no_consume:2`, `(null)`. Other resources (shard, mps, …) are left out.
 */
export function parseGpuGres(gres: string | undefined): GpuGres[] {
  if (!gres || gres === "(null)" || gres === "N/A") return [];
  const gpus: GpuGres[] = [];
  for (const part of topLevelParts(gres)) {
    const words = part.replace(/\(.*\)$/, "").split(":");
    if (words[0] !== "gpu") continue;
    const countWord = words.length > 1 ? words[words.length - 1] : "1";
    const count = countWord.match(/^(\d+)([kmg]?)$/i);
    if (!count) continue;
    const middle = words.slice(1, -1).filter((word) => word !== "no_consume");
    gpus.push({ type: middle[0] || null, count: Number(count[1]) * COUNT_SUFFIX[count[2].toLowerCase()] });
  }
  return gpus;
}

export interface SlurmNode {
  name: string;
  partitions: string[];
  gpus: GpuGres[];
  cpus: number;
  /** RealMemory, in MiB as Slurm counts it. */
  memoryMb: number;
}

export interface SlurmPartition {
  name: string;
  default: boolean;
  /** UP, DOWN, DRAIN or INACTIVE. */
  state: string;
  totalNodes: number;
  maxTime: string | null;
}

const integer = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : 0);

/** The records of one `scontrol -o show …` listing: its lines that start with `first=`. */
const records = (text: string, first: string) =>
  text
    .split("\n")
    .filter((line) => line.startsWith(`${first}=`))
    .map(recordFields);

export function parseNodes(text: string): SlurmNode[] {
  return records(text, "NodeName").map((fields) => {
    const partitions = fields.get("Partitions");
    return {
      name: fields.get("NodeName")!,
      partitions: partitions && partitions !== "(null)" ? partitions.split(",") : [],
      gpus: parseGpuGres(fields.get("Gres")),
      cpus: integer(fields.get("CPUTot")),
      memoryMb: integer(fields.get("RealMemory")),
    };
  });
}

export function parsePartitions(text: string): SlurmPartition[] {
  return records(text, "PartitionName").map((fields) => {
    const maxTime = fields.get("MaxTime");
    return {
      name: fields.get("PartitionName")!,
      default: fields.get("Default") === "YES",
      state: fields.get("State") ?? "UP",
      totalNodes: integer(fields.get("TotalNodes")),
      maxTime: maxTime && maxTime !== "NONE" ? maxTime : null,
    };
  });
}
