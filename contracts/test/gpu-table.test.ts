/** The GPU table: the type names clusters and nvidia-smi use, sizes in names, and the profile's gpu_memory. */
import { describe, expect, test } from "bun:test";
import { GPU_TABLE, gpuTypeMemory, parseGpuMemorySetting, settingFor } from "../src/gpu-table";

const GIB = 1024 ** 3;
const gib = (type: string) => {
  const found = gpuTypeMemory(type);
  return found && { gib: found.memoryBytes / GIB, model: found.entry?.model, fromName: found.fromName };
};

describe("GPU memory by type name", () => {
  test.each([
    ["a100", 40, "A100", false],
    ["A100", 40, "A100", false],
    ["a100_80g", 80, "A100", true],
    ["a100-80gb", 80, "A100", true],
    ["nvidia_a100-sxm4-80gb", 80, "A100", true],
    ["nvidia_a100_3g.40gb", 40, "A100", true],
    ["a100_1g.10gb", 10, "A100", true],
    ["h100", 80, "H100", false],
    ["nvidia_h100_80gb_hbm3", 80, "H100", true],
    ["NVIDIA H100 80GB HBM3", 80, "H100", true],
    ["h100_nvl", 94, "H100 NVL", false],
    ["h200", 141, "H200", false],
    ["gh200", 96, "GH200", false],
    ["b200", 180, "B200", false],
    ["l40s", 48, "L40S", false],
    ["l40", 48, "L40", false],
    ["a40", 48, "A40", false],
    ["rtx_a6000", 48, "RTX A6000", false],
    ["a6000", 48, "RTX A6000", false],
    ["quadro_rtx_8000", 48, "Quadro RTX 8000", false],
    ["a10", 24, "A10", false],
    ["a10g", 24, "A10G", false],
    ["l4", 24, "L4", false],
    ["t4", 16, "T4", false],
    ["tesla_t4", 16, "T4", false],
    ["v100", 16, "V100", false],
    ["v100_32g", 32, "V100", true],
    ["tesla_v100-sxm2-32gb", 32, "V100", true],
    ["geforce_rtx_2080_ti", 11, "RTX 2080 Ti", false],
    ["mi250x", 64, "MI250X", false],
    ["amd_instinct_mi300x", 192, "MI300X", false],
    ["rtx_4090_24g", 24, "RTX 4090", true],
    ["mystery_48g", 48, undefined, true],
  ])("%s → %d GiB", (type, memory, model, fromName) => {
    expect(gib(type)).toEqual({ gib: memory, model, fromName });
  });

  test("unknown types and GPUs without a size are unknown", () => {
    for (const type of ["gpu", "mi50", "tesla", "", "k80x"]) expect(gpuTypeMemory(type)).toBeUndefined();
  });

  test("every entry has a source, and no type name means two models", () => {
    const names = GPU_TABLE.flatMap((entry) => entry.names);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of GPU_TABLE) expect(entry.source.length).toBeGreaterThan(10);
  });
});

describe("gpu_memory", () => {
  test("a size for all, sizes per type, both", () => {
    expect(parseGpuMemorySetting("80G")).toEqual({ all: 80 * GIB, byType: {} });
    expect(parseGpuMemorySetting("81920M")).toEqual({ all: 80 * GIB, byType: {} });
    expect(parseGpuMemorySetting("0.5T")).toEqual({ all: 512 * GIB, byType: {} });
    expect(parseGpuMemorySetting("80")).toEqual({ all: 80 * GIB, byType: {} });
    const mixed = parseGpuMemorySetting("a100_80g:80G, MI50:32GB, 24GiB");
    expect(mixed).toEqual({ all: 24 * GIB, byType: { a10080g: 80 * GIB, mi50: 32 * GIB } });
    expect(settingFor(mixed as never, "a100_80g")).toBe(80 * GIB);
    expect(settingFor(mixed as never, "mi50")).toBe(32 * GIB);
    expect(settingFor(mixed as never, "h100")).toBe(24 * GIB);
    expect(settingFor(parseGpuMemorySetting("a100:80G") as never, "h100")).toBeUndefined();
  });

  test.each([
    ["eighty", '"eighty" is not a size'],
    ["80X", '"80X" is not a size'],
    ["a100:", '"a100:" is not TYPE:SIZE'],
    [":80G", '":80G" is not TYPE:SIZE'],
    ["80G,", "has an empty part"],
    ["80G, 40G", "gives a size for every type twice"],
    ["0G", '"0G" is not a size'],
  ])("%s is refused, saying why", (text, message) => {
    const result = parseGpuMemorySetting(text);
    expect(typeof result).toBe("string");
    expect(result as string).toContain(message);
  });
});
