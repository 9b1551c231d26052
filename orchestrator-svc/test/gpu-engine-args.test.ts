/** `--engine vllm|sglang` and each engine's arguments, checked at `svc run` against its pinned option list. */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model, Profile, RunRequest } from "@svc/contracts";
import { ApiError } from "@svc/contracts";
import { planLaunch, type PlannerDeps } from "../src/launch/planner";
import { plannerDeps } from "./planner-deps";
import { ImageCatalog } from "../src/catalog/images";
import { ENGINE_OPTIONS, readUpstreamArgs } from "../src/engines/options/check";
import { addArgumentCalls, dataclassFields, optionsFrom } from "../src/engines/options/generate";

const home = mkdtempSync(join(tmpdir(), "svc-gpu-engine-args-"));
const local: Profile = { name: "default", schema: "local", home_dir: home, cache_dir: home };
const cluster = { name: "cluster", schema: "slurm", host: "localhost", user: "me", home: "~/svc", cache: "/cache" } as Profile;
const model: Model = { repo: "acme/tiny", revision: "a".repeat(40), profile: "default", image: "text-generation", modelDir: home, sizeBytes: 1, partial: false, seenAt: "2026-01-01T00:00:00.000Z" };

function deps(profile: Profile = cluster): PlannerDeps {
  return plannerDeps({}, profile, model);
}
const plan = (extra: Partial<RunRequest>, profile?: Profile) => planLaunch({ task: "text-generation", model: "acme/tiny", ...extra }, deps(profile), "default");
const refusal = (promise: Promise<unknown>) => promise.then(() => { throw new Error("accepted"); }, (error) => error as ApiError);

test("with GPUs vLLM serves by default; --engine sglang, or the profile's engine, picks SGLang at its pinned image", async () => {
  const vllm = await plan({ job: { gres: 2 } });
  expect([vllm.server, vllm.image]).toEqual(["vllm", "vllm/vllm-openai:v0.28.0"]);
  expect(vllm.args).toEqual(["--served-model-name", "acme/tiny", "--tensor-parallel-size", "2"]);
  const sglang = await plan({ job: { gres: 2 }, engine: "sglang" });
  expect([sglang.server, sglang.image]).toEqual(["sglang", "lmsysorg/sglang:v0.5.18"]);
  expect(sglang.args).toEqual(["--served-model-name", "acme/tiny", "--tp-size", "2"]);
  expect((await plan({ job: { gres: 1 } }, { ...cluster, engine: "sglang" } as Profile)).server).toBe("sglang");
  expect((await plan({ job: { gres: 1 }, engine: "vllm" }, { ...cluster, engine: "sglang" } as Profile)).server).toBe("vllm");
});

test("two nodes: tensor parallel within each, pipeline parallel across them, svc's options in the engine's own names", async () => {
  const vllm = await plan({ job: { gres: 4, nodes: 2 }, textGeneration: { maxTotalTokens: 2048, disableCustomKernels: true } });
  expect(vllm.placement).toMatchObject({ nodes: 2, gpusPerNode: 4, tensorParallel: 4, pipelineParallel: 2, source: "user" });
  expect(vllm.args).toEqual(["--served-model-name", "acme/tiny", "--max-model-len", "2048", "--tensor-parallel-size", "4", "--pipeline-parallel-size", "2", "--enforce-eager"]);
  const sglang = await plan({ engine: "sglang", job: { gres: 4, nodes: 2 }, textGeneration: { maxTotalTokens: 2048, disableCustomKernels: true } });
  expect(sglang.args).toEqual(["--served-model-name", "acme/tiny", "--context-length", "2048", "--tp-size", "4", "--pp-size", "2", "--disable-cuda-graph"]);
});

test("a misspelt option is a 400 naming the nearest real one of that engine's pinned version", async () => {
  const vllm = await refusal(plan({ job: { gres: 1 }, engineArgs: ["--max-modle-len", "4096"] }));
  expect(vllm.status).toBe(400);
  expect(vllm.message).toStartWith("--max-modle-len is not an option of vLLM v0.28.0. Did you mean --max-model-len");
  expect(vllm.details).toMatchObject({ engine: "vllm", version: "v0.28.0" });
  const sglang = await refusal(plan({ engine: "sglang", job: { gres: 1 }, engineArgs: ["--mem-fraction-statc", "0.8"] }));
  expect(sglang.message).toStartWith("--mem-fraction-statc is not an option of SGLang v0.5.18. Did you mean --mem-fraction-static?");
  // Each engine's names: vLLM's option is no SGLang option.
  expect((await refusal(plan({ engine: "sglang", job: { gres: 1 }, engineArgs: ["--gpu-memory-utilization", "0.8"] }))).message).toContain("is not an option of SGLang");
  expect((await plan({ job: { gres: 1 }, engineArgs: ["--gpu-memory-utilization", "0.8"] })).args).toContain("--gpu-memory-utilization");
});

test("values are read as the engine's parser reads them: flags, choices, =value, aliases, prefixes, vLLM's underscores", async () => {
  const given = readUpstreamArgs(["--enforce-eager", "--dtype=bfloat16", "-q", "awq", "--max_num_seqs", "8", "--gpu-mem", "0.5", "--allowed-origins", "a", "b"], ENGINE_OPTIONS.vllm);
  expect(given.problems).toEqual([]);
  expect([...given.given.keys()]).toEqual(["--enforce-eager", "--dtype", "--quantization", "--max-num-seqs", "--gpu-memory-utilization", "--allowed-origins"]);
  expect(given.given.get("--allowed-origins")).toEqual(["a", "b"]);
  expect(readUpstreamArgs(["--enforce-eager=yes"], ENGINE_OPTIONS.vllm).problems).toEqual(["--enforce-eager is a flag of vLLM v0.28.0 and takes no value."]);
  expect(readUpstreamArgs(["--max-model-len"], ENGINE_OPTIONS.vllm).problems).toEqual(["--max-model-len needs a value."]);
  expect(readUpstreamArgs(["--kv-cache-dtype", "fp9"], ENGINE_OPTIONS.sglang).problems[0]).toStartWith('--kv-cache-dtype "fp9": use one of auto, fp8_e5m2');
  expect(readUpstreamArgs(["--max-num"], ENGINE_OPTIONS.vllm).problems[0]).toStartWith("--max-num is ambiguous in vLLM v0.28.0");
  expect(readUpstreamArgs(["stray"], ENGINE_OPTIONS.sglang).problems[0]).toContain('"stray" is not an option of SGLang v0.5.18');
  // SGLang's parser takes no underscores.
  expect(readUpstreamArgs(["--max_running_requests", "8"], ENGINE_OPTIONS.sglang).problems[0]).toContain("Did you mean --max-running-requests?");
});

test("svc's own options are refused; parallel sizes may be given again, and the user's win with a warning", async () => {
  for (const [engine, arg] of [["vllm", "--served-model-name"], ["vllm", "--port=8001"], ["sglang", "--model-path"], ["sglang", "--dist-init-addr"], ["sglang", "--node-rank"]] as const) {
    const error = await refusal(plan({ engine, job: { gres: 1 }, engineArgs: [arg, "x"] }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/svc sets (it|--port) itself/);
  }
  const vllm = await plan({ job: { gres: 4, nodes: 2 }, engineArgs: ["-tp", "8", "--pipeline-parallel-size", "1"] });
  expect(vllm.args.filter((arg) => /parallel|^-tp$/.test(arg))).toEqual(["-tp", "--pipeline-parallel-size"]);
  expect(vllm.warnings).toContain("--tensor-parallel-size from your engine arguments replaces the placement's 4: yours is used.");
  expect(vllm.warnings).toContain("--pipeline-parallel-size from your engine arguments replaces the placement's 2: yours is used.");
});

test("--engine without GPUs, --engine for speech, and more than one node on a local profile are refused saying what to do", async () => {
  expect((await refusal(plan({ engine: "sglang" }))).message).toBe("--engine sglang runs on GPUs: add --gres N (GPUs per node) or --partition with a GPU partition, or drop --engine to run on the CPU runtime.");
  expect((await refusal(planLaunch({ task: "speech-recognition", model: "acme/tiny", engine: "vllm" }, deps(), "default"))).message).toContain("--engine applies to text-generation only");
  const local2 = await refusal(plan({ engine: "sglang", job: { gres: 1, nodes: 2 } }, local));
  expect(local2.status).toBe(400);
  expect(local2.message).toBe("--nodes 2: profile default runs services on this machine, one node. A model across nodes runs on a slurm profile.");
  expect((await plan({ engine: "sglang", job: { gres: 1 } }, local)).server).toBe("sglang");
});

test("the generator reads dataclass fields (continued types, Literal choices) and add_argument spellings", () => {
  const source = [
    "@dataclass",
    "class ServerArgs:",
    '    model_path: str',
    '    tp_size: int = 1',
    '    mode: Optional[',
    '        Literal["a", "b"]',
    '    ] = None',
    '    enable_x: bool = False',
    "",
    "    def add_cli_args(parser):",
    '        parser.add_argument(',
    '            "--tensor-parallel-size",',
    '            "--tp-size",  # the short name',
    '            type=int,',
    '        )',
    '        parser.add_argument("--kv", "-k", choices=["x", "y"])',
  ].join("\n");
  expect(dataclassFields(source, "ServerArgs")).toEqual([
    { name: "model_path", type: "str" },
    { name: "tp_size", type: "int" },
    { name: "mode", type: 'Optional[ Literal["a", "b"] ]' },
    { name: "enable_x", type: "bool" },
  ]);
  expect(addArgumentCalls(source)).toEqual([
    { names: ["--tensor-parallel-size", "--tp-size"], optionalValue: false, choices: undefined, flag: false },
    { names: ["--kv", "-k"], optionalValue: false, choices: ["x", "y"], flag: false },
  ]);
});

test("the generator joins split option strings as Python does and makes no name of a piece (no \"--pass-\")", () => {
  const source = [
    "@dataclass",
    "class EngineArgs:",
    "    pass_: int = 0",
    "    pass_config: str = None",
    "",
    "    def add_cli_args(parser):",
    '        parser.add_argument("--pass-" "config", "-pc", type=str)',
    "        parser.add_argument(",
    '            "--pass-"  # split over lines',
    '            "through",',
    '            action="store_true",',
    "        )",
    '        parser.add_argument(f"--pass-{name}", type=str)',
    '        parser.add_argument("--pass-" + name, type=str)',
    '        parser.add_argument("--pass-", type=str)',
    '        parser.add_argument("--device", choices=["auto", "cpu"] + platform_devices)',
  ].join("\n");
  expect(addArgumentCalls(source)).toEqual([
    { names: ["--pass-config", "-pc"], optionalValue: false, choices: undefined, flag: false },
    { names: ["--pass-through"], optionalValue: false, choices: undefined, flag: true },
    // `choices=[…] + more` names more than it lists: no choices.
    { names: ["--device"], optionalValue: false, choices: undefined, flag: false },
  ]);
  const dir = mkdtempSync(join(tmpdir(), "svc-split-"));
  mkdirSync(join(dir, "vllm/engine"), { recursive: true });
  writeFileSync(join(dir, "vllm/engine/arg_utils.py"), source);
  const options = optionsFrom(dir, { files: [{ path: "vllm/engine/arg_utils.py", classes: ["EngineArgs"] }], negatableFlags: true, extra: [], skip: /^_/ });
  expect(options.map((option) => option.name)).toEqual(["--device", "--pass-config", "--pass-through"]);
  expect(options.find((option) => option.name === "--pass-config")).toEqual({ name: "--pass-config", aliases: ["-pc"], value: "required" });
});

test("the generator reads vLLM's frontend options with or without BaseFrontendArgs (v0.12 to v0.16 have FrontendArgs alone); a class not marked optional must be there", () => {
  const frontend = (withBase: boolean) =>
    [
      ...(withBase ? ["@config", "class BaseFrontendArgs:", "    lora_modules: list[str] | None = None", "", "@config", "class FrontendArgs(BaseFrontendArgs):"] : ["@config", "@dataclass", "class FrontendArgs:", "    lora_modules: list[str] | None = None"]),
      '    host: str | None = None',
      "    port: int = 8000",
      "",
    ].join("\n");
  const layout = {
    files: [{ path: "vllm/entrypoints/openai/cli_args.py", classes: ["BaseFrontendArgs", "FrontendArgs"], optional: ["BaseFrontendArgs"] }],
    negatableFlags: true,
    extra: [],
    skip: /^_/,
  };
  for (const withBase of [true, false]) {
    const dir = mkdtempSync(join(tmpdir(), "svc-frontend-"));
    mkdirSync(join(dir, "vllm/entrypoints/openai"), { recursive: true });
    writeFileSync(join(dir, "vllm/entrypoints/openai/cli_args.py"), frontend(withBase));
    expect(optionsFrom(dir, layout).map((option) => option.name)).toEqual(["--host", "--lora-modules", "--port"]);
    if (!withBase) expect(() => optionsFrom(dir, { ...layout, files: [{ ...layout.files[0], optional: [] }] })).toThrow("class BaseFrontendArgs not found");
  }
});

test("the generator reads the annotated style of newer releases: A[type, Arg(aliases, choices by name, actions, no_cli)], docstrings skipped", () => {
  const source = [
    'LOAD_FORMAT_CHOICES = [',
    '    "auto",',
    '    "safetensors",  # the usual one',
    ']',
    'SAMPLING_BACKEND_CHOICES = {"flashinfer", "pytorch"}',
    "",
    "@dataclasses.dataclass",
    "class ServerArgs:",
    '    """Server-wide configuration.',
    "",
    "    Example: a line with a colon that is no field",
    '    """',
    "",
    '    model_path: A[str, Arg(help="The path (a folder", aliases=["--model"])]',
    '    host: A[str, "The host of the HTTP server."] = "127.0.0.1"',
    "    load_format: A[",
    "        str,",
    "        Arg(",
    '            help="How to load (see [the docs)",',
    "            choices=LOAD_FORMAT_CHOICES,",
    "        ),",
    '    ] = "auto"',
    '    sampling_backend: A[Optional[str], Arg(choices=SAMPLING_BACKEND_CHOICES)] = None',
    '    trust_remote_code: A[bool, "Whether to allow custom models."] = False',
    '    enable_x: A[bool, Arg(action=argparse.BooleanOptionalAction)] = True',
    '    lora_paths: A[Optional[list], Arg(nargs="?", help="bool-free help")] = None',
    '    internal_state: A[int, Arg(no_cli=True)] = 0',
    '    """A field\'s own docstring: not a field."""',
    '    tp_size: A[int, Arg(aliases=["--tensor-parallel-size", "--tp"])] = 1',
    "",
    "    def add_cli_args(parser):",
    "        pass",
  ].join("\n");
  const dir = mkdtempSync(join(tmpdir(), "svc-annotated-"));
  mkdirSync(join(dir, "python/sglang/srt"), { recursive: true });
  writeFileSync(join(dir, "python/sglang/srt/server_args.py"), source);
  const options = optionsFrom(dir, { files: [{ path: "python/sglang/srt/server_args.py", classes: ["ServerArgs"] }], negatableFlags: false, extra: [], skip: /^_/ });
  expect(options).toEqual([
    { name: "--enable-x", aliases: ["--no-enable-x"], value: "none" },
    { name: "--host", aliases: [], value: "required" },
    { name: "--load-format", aliases: [], value: "required", choices: ["auto", "safetensors"] },
    { name: "--lora-paths", aliases: [], value: "optional" },
    { name: "--model-path", aliases: ["--model"], value: "required" },
    { name: "--sampling-backend", aliases: [], value: "required", choices: ["flashinfer", "pytorch"] },
    { name: "--tp-size", aliases: ["--tensor-parallel-size", "--tp"], value: "required" },
    { name: "--trust-remote-code", aliases: [], value: "none" },
  ]);
});
