/**
 * Memory of common datacenter GPUs, by the type names Slurm GRES and nvidia-smi give them (issue 29).
 * A profile's `gpu_memory` overrides it (see parseGpuMemorySetting). Plain values, no typebox: the
 * CLI, profile-svc and orchestrator-svc all read it.
 *
 * Figures are the vendors' "GB" per GPU taken as GiB, which is how the cards report it (nvidia-smi:
 * A100 80GB 81920 MiB, H100 80GB HBM3 81559 MiB, measured on an H100 on 2026-11-27). Where a type
 * name comes in several sizes the smallest is listed (a plan never counts on memory the card may
 * not have) with a note; a size in the name itself (`a100_80g`, `a100-sxm4-80gb`,
 * `nvidia_h100_80gb_hbm3`, MIG `a100_3g.40gb`) wins over the table.
 */

export interface GpuTableEntry {
  /** The name svc shows, e.g. A100. */
  model: string;
  /** Type names that mean it, lower case without separators (`rtx_a6000` → rtxa6000). */
  names: readonly string[];
  memoryGiB: number;
  /** Where the figure comes from. */
  source: string;
  /** Said with the figure: other sizes under the same name. */
  note?: string;
}

const NVIDIA = (product: string) => `NVIDIA ${product} datasheet`;
const AMD = (product: string) => `AMD Instinct ${product} data sheet`;

export const GPU_TABLE: readonly GpuTableEntry[] = [
  { model: "A100", names: ["a100"], memoryGiB: 40, source: NVIDIA("A100 Tensor Core GPU (40GB HBM2, 80GB HBM2e)"), note: "A100 comes with 40 or 80 GB; the smaller is assumed: set gpu_memory = 80G (or a GRES type naming 80g) for 80 GB cards" },
  { model: "A800", names: ["a800"], memoryGiB: 40, source: NVIDIA("A800 (40GB, 80GB)"), note: "A800 comes with 40 or 80 GB; the smaller is assumed: set gpu_memory = 80G for 80 GB cards" },
  { model: "H100", names: ["h100", "h100sxm", "h100pcie", "h800"], memoryGiB: 80, source: NVIDIA("H100 Tensor Core GPU (SXM and PCIe 80GB)") },
  { model: "H100 NVL", names: ["h100nvl"], memoryGiB: 94, source: NVIDIA("H100 Tensor Core GPU (H100 NVL 94GB)") },
  { model: "H200", names: ["h200", "h200nvl"], memoryGiB: 141, source: NVIDIA("H200 Tensor Core GPU (141GB HBM3e)") },
  { model: "GH200", names: ["gh200"], memoryGiB: 96, source: NVIDIA("GH200 Grace Hopper Superchip (96GB HBM3, 144GB HBM3e)"), note: "GH200 comes with 96 or 144 GB of GPU memory; the smaller is assumed: set gpu_memory = 144G for the HBM3e version" },
  { model: "B200", names: ["b200"], memoryGiB: 180, source: NVIDIA("DGX B200 (1,440 GB GPU memory over 8 GPUs)") },
  { model: "L40S", names: ["l40s"], memoryGiB: 48, source: NVIDIA("L40S GPU (48GB GDDR6)") },
  { model: "L40", names: ["l40"], memoryGiB: 48, source: NVIDIA("L40 GPU (48GB GDDR6)") },
  { model: "A40", names: ["a40"], memoryGiB: 48, source: NVIDIA("A40 GPU (48GB GDDR6)") },
  { model: "RTX A6000", names: ["a6000", "rtxa6000"], memoryGiB: 48, source: NVIDIA("RTX A6000 (48GB GDDR6)") },
  { model: "RTX 6000 Ada", names: ["rtx6000ada", "6000ada"], memoryGiB: 48, source: NVIDIA("RTX 6000 Ada Generation (48GB GDDR6)") },
  { model: "Quadro RTX 8000", names: ["rtx8000", "quadrortx8000"], memoryGiB: 48, source: NVIDIA("Quadro RTX 8000 (48GB GDDR6)") },
  { model: "RTX A5000", names: ["a5000", "rtxa5000"], memoryGiB: 24, source: NVIDIA("RTX A5000 (24GB GDDR6)") },
  { model: "A30", names: ["a30"], memoryGiB: 24, source: NVIDIA("A30 Tensor Core GPU (24GB HBM2)") },
  { model: "A10", names: ["a10"], memoryGiB: 24, source: NVIDIA("A10 Tensor Core GPU (24GB GDDR6)") },
  { model: "A10G", names: ["a10g"], memoryGiB: 24, source: "AWS EC2 G5 instance types (NVIDIA A10G, 24 GB per GPU)" },
  { model: "L4", names: ["l4"], memoryGiB: 24, source: NVIDIA("L4 Tensor Core GPU (24GB GDDR6)") },
  { model: "T4", names: ["t4"], memoryGiB: 16, source: NVIDIA("T4 Tensor Core GPU (16GB GDDR6)") },
  { model: "V100", names: ["v100", "v100s"], memoryGiB: 16, source: NVIDIA("Tesla V100 (16GB, 32GB HBM2)"), note: "V100 comes with 16 or 32 GB; the smaller is assumed: set gpu_memory = 32G (or a GRES type naming 32g) for 32 GB cards" },
  { model: "P100", names: ["p100"], memoryGiB: 12, source: NVIDIA("Tesla P100 (12GB, 16GB CoWoS HBM2)"), note: "P100 comes with 12 or 16 GB; the smaller is assumed: set gpu_memory = 16G for 16 GB cards" },
  { model: "RTX 4090", names: ["rtx4090", "4090"], memoryGiB: 24, source: NVIDIA("GeForce RTX 4090 specifications (24GB GDDR6X)") },
  { model: "RTX 3090", names: ["rtx3090", "3090"], memoryGiB: 24, source: NVIDIA("GeForce RTX 3090 specifications (24GB GDDR6X)") },
  { model: "RTX 2080 Ti", names: ["rtx2080ti", "2080ti"], memoryGiB: 11, source: NVIDIA("GeForce RTX 2080 Ti specifications (11GB GDDR6)") },
  { model: "MI325X", names: ["mi325x"], memoryGiB: 256, source: AMD("MI325X (256GB HBM3E)") },
  { model: "MI300X", names: ["mi300x"], memoryGiB: 192, source: AMD("MI300X (192GB HBM3)") },
  { model: "MI300A", names: ["mi300a"], memoryGiB: 128, source: AMD("MI300A APU (128GB unified HBM3)") },
  // Each MI250(X) is two GCDs, and ROCm and Slurm count each GCD as one GPU: 128 GB per module, 64 per GPU.
  { model: "MI250X", names: ["mi250x"], memoryGiB: 64, source: AMD("MI250X (128GB HBM2e over 2 GCDs)") },
  { model: "MI250", names: ["mi250"], memoryGiB: 64, source: AMD("MI250 (128GB HBM2e over 2 GCDs)") },
  { model: "MI210", names: ["mi210"], memoryGiB: 64, source: AMD("MI210 (64GB HBM2e)") },
  { model: "MI100", names: ["mi100"], memoryGiB: 32, source: AMD("MI100 (32GB HBM2)") },
];

const GIB = 1024 ** 3;
const BY_NAME = new Map(GPU_TABLE.flatMap((entry) => entry.names.map((name) => [name, entry] as const)));
/** Vendor and product-line words that come before the model in GRES and nvidia-smi names. */
const PREFIX = /^(?:nvidia|tesla|amd|instinct|radeon|quadro|geforce)(?:[-_ ]+|$)/;

/** A GPU type as the table's names spell it: lower case, vendor words and separators dropped. */
export function compactGpuType(type: string): string {
  let text = type.trim().toLowerCase();
  while (PREFIX.test(text)) text = text.replace(PREFIX, "");
  return text.replace(/[-_ .]/g, "");
}

export interface GpuTypeMemory {
  /** The table's entry, when the type names a known model. */
  entry?: GpuTableEntry;
  memoryBytes: number;
  /** The size came from the type's own name (`a100_80g`), not the table's figure. */
  fromName: boolean;
}

/**
 * The memory of one GPU of `type` (a GRES type or an nvidia-smi name): a size in the name, else
 * the table's figure; undefined when neither knows it.
 */
export function gpuTypeMemory(type: string): GpuTypeMemory | undefined {
  let text = type.trim().toLowerCase();
  while (PREFIX.test(text)) text = text.replace(PREFIX, "");
  const words = text.split(/[-_ .]+/).filter(Boolean);
  let entry: GpuTableEntry | undefined;
  for (let end = words.length; end > 0 && !entry; end--) entry = BY_NAME.get(words.slice(0, end).join(""));
  // A size word: 80g, 80gb, 141gb — but not a MIG slice's compute part (the 3g of 3g.40gb).
  const sized = text.match(/(?:^|[-_ .])(\d{1,4})g(?:i?b)?(?=$|[-_ ])/);
  if (sized && Number(sized[1]) > 0) return { entry, memoryBytes: Number(sized[1]) * GIB, fromName: true };
  return entry ? { entry, memoryBytes: entry.memoryGiB * GIB, fromName: false } : undefined;
}

/** `gpu_memory` of a profile: one size for every GPU type, and/or sizes per type (`a100:80G, mi50:32G`). */
export interface GpuMemorySetting {
  all?: number;
  byType: Record<string, number>;
}

const UNIT: Record<string, number> = { "": GIB, k: 1024, m: 1024 ** 2, g: GIB, t: 1024 ** 4 };
export const GPU_MEMORY_RULE = "a size such as 80G (G = GiB, as Slurm reads --mem; M and T too), or sizes per GPU type such as a100:80G, mi50:32G";

function parseSize(text: string): number | undefined {
  const match = text.trim().match(/^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i);
  if (!match) return undefined;
  const bytes = Math.round(Number(match[1]) * UNIT[match[2].toLowerCase()]);
  return bytes > 0 && Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** Parses `gpu_memory`; a string says what is wrong with it. */
export function parseGpuMemorySetting(text: string): GpuMemorySetting | string {
  const setting: GpuMemorySetting = { byType: {} };
  const parts = text.split(",").map((part) => part.trim());
  if (parts.some((part) => part === "")) return `gpu_memory "${text}" has an empty part: give ${GPU_MEMORY_RULE}`;
  for (const part of parts) {
    const colon = part.lastIndexOf(":");
    const type = colon < 0 ? undefined : compactGpuType(part.slice(0, colon));
    const bytes = parseSize(colon < 0 ? part : part.slice(colon + 1));
    if (bytes === undefined || type === "") return `gpu_memory "${text}": "${part}" is not ${colon < 0 ? "a size" : "TYPE:SIZE"}; give ${GPU_MEMORY_RULE}`;
    if (type === undefined) {
      if (setting.all !== undefined) return `gpu_memory "${text}" gives a size for every type twice: give one, or sizes per type (TYPE:SIZE)`;
      setting.all = bytes;
    } else setting.byType[type] = bytes;
  }
  return setting;
}

/** The profile's size for GPUs of `type` (per type first, then the one for all), if it gives one. */
export function settingFor(setting: GpuMemorySetting | undefined, type: string | null): number | undefined {
  if (!setting) return undefined;
  return (type !== null ? setting.byType[compactGpuType(type)] : undefined) ?? setting.all;
}
