/** The generated option lists themselves: a cluster's vLLM 0.28 gets 0.28's options, 0.11 and 0.12 to 0.23 keep their own; SGLang's one list. */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiError, Model, Profile, RunRequest } from "@svc/contracts";
import { DEFAULT_IMAGES } from "@svc/platform/config";
import { planLaunch } from "../src/launch/planner";
import { OPTION_STRING } from "../src/engines/options/generate";
import { OPTION_LISTS, pinnedList } from "../src/engines/options/versions";
import { plannerDeps } from "./planner-deps";

const home = mkdtempSync(join(tmpdir(), "svc-option-lists-"));
const cluster = { name: "cluster", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/cache" } as Profile;
const model: Model = { repo: "acme/tiny", revision: "a".repeat(40), profile: "cluster", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" };
const plan = (extra: Partial<RunRequest>, found: string) =>
  planLaunch(
    { task: "text-generation", model: "acme/tiny", job: { gres: 1 }, ...extra },
    { ...plannerDeps({}, cluster, model), engineVersion: async () => ({ version: found, how: "python3 on the cluster" }) },
    "cluster",
  );
const refusal = (promise: Promise<unknown>) => promise.then(() => { throw new Error("accepted"); }, (error) => error as ApiError);
const names = (version: string, engine: "vllm" | "sglang" = "vllm") =>
  new Set(OPTION_LISTS[engine].find((list) => list.version === version)!.options.flatMap((option) => [option.name, ...option.aliases]));

const VLLM_LISTS = ["v0.11.1", "v0.12.0", "v0.13.0", "v0.14.0", "v0.15.0", "v0.16.0", "v0.17.0", "v0.18.0", "v0.19.0", "v0.20.0", "v0.21.0", "v0.22.0", "v0.23.0", "v0.28.0"];

test("vLLM's lists are the v0.11, v0.12 to v0.23 and v0.28 lines, the newest pinned, and its image follows it", () => {
  expect(OPTION_LISTS.vllm.map((list) => list.version)).toEqual(VLLM_LISTS);
  expect(pinnedList("vllm").version).toBe("v0.28.0");
  expect(DEFAULT_IMAGES.vllm).toBe("vllm/vllm-openai:v0.28.0");
  // The real differences the tests below lean on.
  expect(names("v0.28.0").has("--performance-mode")).toBe(true);
  expect(names("v0.11.1").has("--performance-mode")).toBe(false);
  expect(names("v0.11.1").has("--swap-space")).toBe(true);
  expect(names("v0.28.0").has("--swap-space")).toBe(false);
  // What svc sets itself exists in each, and the options the docs' examples name.
  for (const version of VLLM_LISTS) {
    for (const option of ["--host", "--port", "--served-model-name", "--tensor-parallel-size", "-tp", "--pipeline-parallel-size", "--max-model-len", "--enforce-eager", "--enable-auto-tool-choice", "--tool-call-parser", "--distributed-executor-backend", "--gpu-memory-utilization", "--enable-lora", "--lora-modules", "--max-lora-rank", "--max-loras", "--chat-template", "--quantization", "--dtype", "--trust-remote-code"]) {
      expect(`${version} ${option} ${names(version).has(option)}`).toBe(`${version} ${option} true`);
    }
  }
});

test("the lists read at upstream's release tags sit between: 0.11's removed options go in 0.18, 0.20 adds its own, and each has its own frontend options", () => {
  // Removed between 0.17 and 0.18, added in 0.17 (each read from the release's own EngineArgs).
  expect(names("v0.17.0").has("--swap-space")).toBe(true);
  for (const version of ["v0.18.0", "v0.19.0", "v0.20.0", "v0.21.0", "v0.22.0", "v0.23.0"]) {
    expect(names(version).has("--swap-space")).toBe(false);
    expect(names(version).has("--performance-mode")).toBe(true);
  }
  expect(names("v0.16.0").has("--performance-mode")).toBe(false);
  // Added in 0.20.
  expect(names("v0.20.0").has("--numa-bind")).toBe(true);
  expect(names("v0.19.0").has("--numa-bind")).toBe(false);
  // The copies the 0.18 and 0.21 lists were once made from added their own: not in the releases' files.
  expect(names("v0.18.0").has("--extract-activation-layers")).toBe(false);
  expect(names("v0.21.0").has("--mlu-config")).toBe(false);
  // Each list from 0.12 to 0.23 reads both files at its tag's commit: its frontend options are its own.
  const commits = (version: string) => OPTION_LISTS.vllm.find((list) => list.version === version)!.commits;
  for (const version of VLLM_LISTS.filter((version) => version !== "v0.11.1" && version !== "v0.28.0")) {
    const [engine, frontend] = commits(version);
    expect(frontend.path).toBe("vllm/entrypoints/openai/cli_args.py");
    expect(`${version} ${frontend.commit}`).toBe(`${version} ${engine.commit}`);
  }
  expect(commits("v0.18.0")[0].commit).toBe("bcf2be96120005e9aea171927f85055a6a5c0cf6");
  expect(commits("v0.21.0")[0].commit).toBe("ad7125a431e176d4161099480a66f0169609a690");
  // 0.19 dropped --disable-frontend-multiprocessing; 0.21 has --grpc and --fingerprint-mode of its own cli_args.py.
  expect(names("v0.18.0").has("--disable-frontend-multiprocessing")).toBe(true);
  expect(names("v0.19.0").has("--disable-frontend-multiprocessing")).toBe(false);
  expect(names("v0.21.0").has("--grpc")).toBe(true);
  expect(names("v0.21.0").has("--fingerprint-mode")).toBe(true);
  // 0.28 has no release's cli_args.py (the HyQuant copy has none): its frontend options are v0.23.0's, read at its tag.
  expect(commits("v0.28.0")[1]).toEqual({ path: "vllm/entrypoints/openai/cli_args.py", commit: commits("v0.23.0")[1].commit, date: "2026-06-14" });
  expect(names("v0.28.0").has("--disable-frontend-multiprocessing")).toBe(false);
  expect(names("v0.28.0").has("--fingerprint-mode")).toBe(true);
  // The HyQuant fork's own fields are left out.
  expect([...names("v0.28.0")].filter((name) => name.startsWith("--hyquant-"))).toEqual([]);
});

test("every name in every list is an option string as users type it (no misread piece such as \"--pass-\")", () => {
  for (const engine of ["vllm", "sglang"] as const) {
    for (const list of OPTION_LISTS[engine]) {
      expect([...names(list.version, engine)].filter((name) => !OPTION_STRING.test(name)).map((name) => `${list.version} ${name}`)).toEqual([]);
    }
  }
});

test("a cluster's vLLM 0.19.1 is checked against v0.19's list, 0.21.2 against v0.21's, 0.25 against v0.23's with a warning", async () => {
  const own19 = await plan({ engineArgs: ["--max-model-len", "512"] }, "0.19.1");
  expect(own19.engineVersion).toMatchObject({ version: "0.19.1", checkedAgainst: "v0.19.0" });
  expect(own19.warnings.join(" ")).not.toContain("no option list");
  const own = await plan({ engineArgs: ["--numa-bind"] }, "0.21.2");
  expect(own.engineVersion).toMatchObject({ version: "0.21.2", checkedAgainst: "v0.21.0" });
  expect(own.warnings.join(" ")).not.toContain("no option list");
  const later = await plan({ engineArgs: ["--max-model-len", "512"] }, "0.25.0");
  expect(later.engineVersion).toMatchObject({ checkedAgainst: "v0.23.0" });
  expect(later.warnings.join(" ")).toContain("svc has no option list for vLLM 0.25.0");
  const refused = await refusal(plan({ engineArgs: ["--numa-bind"] }, "0.19.0"));
  expect(refused.message).toContain("--numa-bind is not an option of vLLM v0.19.0");
});

test("a cluster with vLLM 0.28 gets 0.28's options and has a 0.11-only one refused, naming the version; the dry run names it", async () => {
  const launched = await plan({ engineArgs: ["--performance-mode", "throughput", "-dpl", "1"] }, "0.28.0");
  expect(launched.engineVersion).toMatchObject({ engine: "vllm", version: "0.28.0", source: "found", checkedAgainst: "v0.28.0" });
  expect(launched.warnings.join(" ")).not.toContain("no option list");
  const refused = await refusal(plan({ engineArgs: ["--swap-space", "4"] }, "0.28.0"));
  expect(refused.status).toBe(400);
  expect(refused.message).toContain("--swap-space is not an option of vLLM v0.28.0");
});

test("a cluster with vLLM 0.11 keeps 0.11's options: --swap-space passes, --performance-mode is refused", async () => {
  const launched = await plan({ engineArgs: ["--swap-space", "4"] }, "0.11.2");
  expect(launched.engineVersion).toMatchObject({ version: "0.11.2", checkedAgainst: "v0.11.1" });
  const refused = await refusal(plan({ engineArgs: ["--performance-mode", "throughput"] }, "0.11.2"));
  expect(refused.message).toContain("--performance-mode is not an option of vLLM v0.11.1");
});

test("SGLang has a list per patch release from v0.5.5 to v0.5.18, the last pinned, with its image; what svc sets itself and the tool-call parsers it picks are in each", () => {
  const releases = ["v0.5.5", ...[6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18].map((patch) => `v0.5.${patch}`)];
  expect(OPTION_LISTS.sglang.map((list) => list.version)).toEqual(releases);
  expect(pinnedList("sglang").version).toBe("v0.5.18");
  expect(DEFAULT_IMAGES.sglang).toBe("lmsysorg/sglang:v0.5.18");
  const parsers = ["llama3", "pythonic", "qwen25", "mistral", "deepseekv3"];
  for (const release of releases) {
    for (const option of ["--model-path", "--host", "--port", "--api-key", "--served-model-name", "--tp-size", "--tensor-parallel-size", "--pp-size", "--context-length", "--mem-fraction-static", "--disable-cuda-graph", "--nnodes", "--node-rank", "--dist-init-addr", "--tool-call-parser", "--enable-lora", "--lora-paths", "--max-lora-rank", "--chat-template", "--quantization", "--dtype", "--trust-remote-code"]) {
      expect([release, option, names(release, "sglang").has(option)]).toEqual([release, option, true]);
    }
    // SGLang builds its parser choices from a registry, not a list: any name passes, svc's included.
    const list = OPTION_LISTS.sglang.find((each) => each.version === release)!;
    expect(list.options.find((option) => option.name === "--tool-call-parser")!.choices ?? parsers).toEqual(expect.arrayContaining(parsers));
  }
});

test("SGLang's patch releases each add options: a cluster's 0.5.9 is checked against v0.5.9's own list, 0.5.5.post3 against v0.5.5's, a newer one against the pinned list with a warning", async () => {
  const launched = await plan({ engine: "sglang", engineArgs: ["--context-length", "512"] }, "0.5.9");
  expect(launched.engineVersion).toMatchObject({ engine: "sglang", version: "0.5.9", source: "found", checkedAgainst: "v0.5.9" });
  expect(launched.warnings.join(" ")).not.toContain("no option list");
  const post = await plan({ engine: "sglang", engineArgs: ["--context-length", "512"] }, "0.5.5.post3");
  expect(post.engineVersion).toMatchObject({ checkedAgainst: "v0.5.5" });
  expect(post.warnings.join(" ")).not.toContain("no option list");
  const newer = await plan({ engine: "sglang", engineArgs: ["--context-length", "512"] }, "0.5.23");
  expect(newer.engineVersion).toMatchObject({ checkedAgainst: "v0.5.18" });
  expect(newer.warnings.join(" ")).toContain("svc has no option list for SGLang 0.5.23");
  const refused = await refusal(plan({ engine: "sglang", engineArgs: ["--swap-space", "4"] }, "0.5.9"));
  expect(refused.message).toContain("--swap-space is not an option of SGLang v0.5.9");
  // An option v0.5.9 added is refused for 0.5.5, whose list lacks it.
  const added = OPTION_LISTS.sglang.find((list) => list.version === "v0.5.9")!.options.find((option) => !names("v0.5.5", "sglang").has(option.name) && option.value === "none")!;
  expect((await refusal(plan({ engine: "sglang", engineArgs: [added.name] }, "0.5.5"))).message).toContain(`${added.name} is not an option of SGLang v0.5.5`);
});
