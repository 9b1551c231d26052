/** Option lists by release line: which list checks a version, the nearest older one with a warning, and where each list came from. */
import { expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiError, GPU_ENGINES, type Model, type Profile, type RunRequest } from "@svc/contracts";
import { planLaunch } from "../src/launch/planner";
import { ENGINE_OPTIONS } from "../src/engines/options/check";
import type { EngineOptionList } from "../src/engines/options/option-list";
import { OPTION_LISTS, optionListFor, parseEngineVersion, pinnedList, releaseLine } from "../src/engines/options/versions";
import { plannerDeps } from "./planner-deps";
import { spellForVersion } from "../src/launch/respell";

const list = (version: string, names: string[]): EngineOptionList => ({
  engine: "vllm",
  version,
  source: "test",
  files: [],
  commits: [],
  generatedBy: "test",
  options: names.map((name) => ({ name, aliases: [], value: "required" as const })),
});
const lines = [list("v0.11.1", ["--old-only"]), list("v0.20.0", ["--added-in-20"]), list("v0.30.2", ["--added-in-30"])];

test("versions are read as the engines print them, down to their release line", () => {
  expect(parseEngineVersion("0.11.1")).toEqual([0, 11, 1]);
  expect(parseEngineVersion("v0.13.0rc2")).toEqual([0, 13, 0]);
  expect(parseEngineVersion("0.11.1.post1+cu128")).toEqual([0, 11, 1]);
  expect(parseEngineVersion("0.5.5.post3")).toEqual([0, 5, 5]);
  expect(parseEngineVersion("latest")).toBeUndefined();
  expect(releaseLine("0.26.4")).toBe("0.26");
});

test("a version's own release line is used; a line svc has no list for gets the nearest older one, with a warning naming both", () => {
  expect(optionListFor("vllm", "0.20.3", lines)).toEqual({ list: lines[1], version: "0.20.3" });
  expect(optionListFor("vllm", "v0.30.0", lines).list).toBe(lines[2]);
  const between = optionListFor("vllm", "0.26.1", lines);
  expect(between.list).toBe(lines[1]);
  expect(between.warning).toContain("no option list for vLLM 0.26.1");
  expect(between.warning).toContain("vLLM v0.20.0's, the nearest older release");
  const newer = optionListFor("vllm", "1.2.0", lines);
  expect(newer.list).toBe(lines[2]);
  expect(newer.warning).toContain("v0.30.2");
  const older = optionListFor("vllm", "0.9.2", lines);
  expect(older.list).toBe(lines[0]);
  expect(older.warning).toContain("the oldest svc has a list for");
  expect(optionListFor("vllm", undefined, lines)).toEqual({ list: lines[2], version: "v0.30.2" });
});

test("a version that is none is a 400 naming the field", () => {
  let error: unknown;
  try {
    optionListFor("sglang", "newest");
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  expect((error as ApiError).details).toMatchObject({ field: "engineVersion" });
});

test("every list says where it came from: its release, its files and each file's commit (or that none was known)", () => {
  for (const engine of GPU_ENGINES) {
    const lists = OPTION_LISTS[engine];
    expect(lists.length).toBeGreaterThan(0);
    expect(ENGINE_OPTIONS[engine]).toBe(pinnedList(engine));
    const versions = lists.map((each) => parseEngineVersion(each.version)!);
    // Oldest first, one per release line (vLLM: major.minor; SGLang: major.minor.patch).
    const line = (numbers: number[]) => (engine === "sglang" ? numbers[0] * 1e6 + numbers[1] * 1e3 + numbers[2] : numbers[0] * 1000 + numbers[1]);
    for (let i = 1; i < versions.length; i++) expect(line(versions[i])).toBeGreaterThan(line(versions[i - 1]));
    for (const each of lists) {
      expect(each.engine).toBe(engine);
      expect(parseEngineVersion(each.version)).toBeDefined();
      expect(each.source.length).toBeGreaterThan(10);
      expect(each.commits.map((commit) => commit.path)).toEqual(each.files);
      for (const commit of each.commits) {
        if (commit.commit !== null) expect(commit.commit).toMatch(/^[0-9a-f]{40}$/);
        if (commit.date !== null) expect(commit.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (commit.commit !== null) expect(each.source).toContain(commit.commit);
      }
      expect(each.options.length).toBeGreaterThan(100);
    }
  }
});

const home = mkdtempSync(join(tmpdir(), "svc-engine-versions-"));
const cluster = { name: "cluster", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/cache" } as Profile;
const model: Model = { repo: "acme/tiny", revision: "a".repeat(40), profile: "cluster", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" };
const plan = (extra: Partial<RunRequest>, found: string | null = null) =>
  planLaunch(
    { task: "text-generation", model: "acme/tiny", job: { gres: 1 }, ...extra },
    { ...plannerDeps({}, cluster, model), engineVersion: async () => (found === null ? null : { version: found, how: "python3 on the cluster" }) },
    "cluster",
  );
const refusal = (promise: Promise<unknown>) => promise.then(() => { throw new Error("accepted"); }, (error) => error as ApiError);

test("the launch says which version its arguments were checked for: given, found where it runs, or pinned", async () => {
  const pinned = pinnedList("vllm").version;
  expect((await plan({})).engineVersion).toEqual({ engine: "vllm", version: pinned, source: "pinned", checkedAgainst: pinned });
  expect((await plan({ engineVersion: "0.11.2" })).engineVersion).toMatchObject({ version: "0.11.2", source: "given", checkedAgainst: "v0.11.1" });
  const found = await plan({ engineVersion: undefined }, "0.11.0");
  expect(found.engineVersion).toMatchObject({ version: "0.11.0", source: "found", checkedAgainst: "v0.11.1", how: "python3 on the cluster" });
  // --engine-version wins over what was found.
  expect((await plan({ engineVersion: "0.11.1", engine: "sglang" }, "0.5.5")).engineVersion).toMatchObject({ engine: "sglang", source: "given" });
});

test("a version with no list of its own is checked against the nearest older one, with a warning; --image with no version found stays unchecked", async () => {
  const newer = await plan({ engineArgs: ["--max-model-len", "4096"] }, "9.1.0");
  expect(newer.warnings.join(" ")).toContain("no option list for vLLM 9.1.0");
  expect(newer.engineVersion).toMatchObject({ version: "9.1.0", checkedAgainst: pinnedList("vllm").version });
  const wrong = await refusal(plan({ engineArgs: ["--max-modle-len", "4096"] }, "9.1.0"));
  expect(wrong.status).toBe(400);
  expect(wrong.message).toContain(`(for 9.1.0)`);
  expect(wrong.details).toMatchObject({ engine: "vllm", engineVersion: "9.1.0" });
  const own = await plan({ image: "example.org/my-vllm:1", engineArgs: ["--anything"] });
  expect(own.engineVersion).toMatchObject({ version: null, source: "unknown", checkedAgainst: null });
  expect(own.warnings.join(" ")).toContain("--engine-version");
  // With --image and --engine-version, the arguments are checked for that version.
  expect((await refusal(plan({ image: "example.org/my-vllm:1", engineVersion: "0.11.1", engineArgs: ["--anything"] }))).message).toContain("--anything is not an option of vLLM v0.11.1");
});

test("the options svc sets itself are spelled as the version names them; one the version lacks is left out with a warning", () => {
  const sglang: EngineOptionList = { ...list("v0.9.0", []), engine: "sglang", options: [{ name: "--tensor-parallel-size", aliases: [], value: "required" }, { name: "--served-model-name", aliases: [], value: "required" }] };
  const args = ["--served-model-name", "m", "--tp-size", "4", "--disable-cuda-graph", "--context-length", "512", "--tp-size", "2"];
  const spelled = spellForVersion("sglang", args, 7, sglang);
  expect(spelled.args).toEqual(["--served-model-name", "m", "--tensor-parallel-size", "4", "--tp-size", "2"]);
  expect(spelled.warnings).toEqual([
    "SGLang v0.9.0 has no --disable-cuda-graph: svc leaves it out of the options it sets.",
    "SGLang v0.9.0 has no --context-length: svc leaves it out of the options it sets.",
  ]);
  const parsers: EngineOptionList = { ...list("v0.9.0", []), options: [{ name: "--tool-call-parser", aliases: [], value: "required", choices: ["hermes"] }, { name: "--enable-auto-tool-choice", aliases: [], value: "none" }] };
  expect(spellForVersion("vllm", ["--enable-auto-tool-choice", "--tool-call-parser", "llama3_json"], 3, parsers)).toEqual({
    args: [],
    warnings: ["vLLM v0.9.0 has no llama3_json among the values of --tool-call-parser: svc leaves it out of the options it sets."],
  });
  // With the pinned list nothing changes.
  const pinned = spellForVersion("sglang", args.slice(0, 7), 7, pinnedList("sglang"));
  expect(pinned).toEqual({ args: args.slice(0, 7), warnings: [] });
});
