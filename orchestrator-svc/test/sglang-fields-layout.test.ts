/** The generator's reader for newer SGLang, whose ServerArgs is split over arg_groups/fields/*.py (a made-up checkout). */
import { expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readAnnotated } from "../src/engines/options/annotated";
import { CHOICES_FILE, FIELDS_DIR, fieldsFiles, namespaceClasses, SERVER_ARGS_FILE } from "../src/engines/options/fields";
import { optionsFrom, sglangFieldsLayout } from "../src/engines/options/generate";

const serving = [
  '"""Config fields of the ``serving`` namespace."""',
  "",
  "import msgspec",
  "from sglang.srt.arg_groups.arg_utils import A, Arg",
  "from sglang.srt.arg_groups.choices import LOAD_FORMAT_CHOICES",
  "",
  "",
  "class Serving(msgspec.Struct):",
  '    """Namespace ``serving``."""',
  "",
  '    _NS_PATH = "serving"',
  "    host: A[str, \"The host of the HTTP server.\"] = \"127.0.0.1\"",
  "    tokenizer_mode: A[",
  "        str,",
  "        Arg(",
  "            help=\"Tokenizer mode: 'auto' (fast, if there is one) or 'slow'.\",",
  '            choices=["auto", "slow"],',
  "        ),",
  '    ] = "auto"',
  '    load_format: A[str, Arg(help="How to load.", choices=LOAD_FORMAT_CHOICES)] = "auto"',
  '    sampling_defaults: A[Literal["openai", "model"], "Where defaults come from."] = "model"',
  "    # -----------------------------------------------------------------",
  "    # Registered by hand in server_args.py: no A[...] here.",
  "    tool_call_parser: Optional[str] = None",
  '    grpc_worker_threads: A[Optional[int], Arg(no_cli=True)] = None',
  '    skip_server_warmup: A[bool, "If set, skip warmup."] = False',
  '    tp_size: A[int, Arg(cli_name="--tensor-parallel-size", aliases=["--tp-size"], help="TP.")] = 1',
  '    enable_old_thing: A[bool, Arg(action=DeprecatedStoreTrueAction, action_kwargs={"new_flag": "--new"})] = False',
  '    old_path: A[Optional[str], Arg(action=DeprecatedAliasStoreAction, help="Use --path.")] = None',
  "",
  "    def derived(self):",
  "        return None",
  "",
  "",
  "class NotANamespace(msgspec.Struct):",
  "    helper: A[int, \"No _NS_PATH: not read.\"] = 0",
].join("\n");

const memory = ["class Memory(msgspec.Struct):", '    _NS_PATH = "memory"', '    mem_fraction_static: A[Optional[float], "The fraction."] = None'].join("\n");
const choices = ['LOAD_FORMAT_CHOICES = [', '    "auto",', '    "safetensors",', "]"].join("\n");
const serverArgs = [
  "class ServerArgs(msgspec.Struct):",
  "    @staticmethod",
  "    def add_cli_args(parser):",
  '        parser.add_argument("--tool-call-parser", type=str, choices=["llama3", "pythonic", "qwen25"])',
].join("\n");

function checkout(withServerArgs: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-sglang-fields-"));
  mkdirSync(join(dir, FIELDS_DIR), { recursive: true });
  writeFileSync(join(dir, FIELDS_DIR, "serving.py"), serving);
  writeFileSync(join(dir, FIELDS_DIR, "memory.py"), memory);
  writeFileSync(join(dir, FIELDS_DIR, "__init__.py"), "def collect_input_fields(sources):\n    pass\n");
  writeFileSync(join(dir, CHOICES_FILE), choices);
  if (withServerArgs) writeFileSync(join(dir, SERVER_ARGS_FILE), serverArgs);
  return dir;
}

test("only the classes that declare a namespace are read, from every fields file but __init__.py, then server_args.py", () => {
  expect(namespaceClasses(serving)).toEqual(["Serving"]);
  expect(fieldsFiles(checkout(true))).toEqual([
    { path: `${FIELDS_DIR}/memory.py`, classes: ["Memory"] },
    { path: `${FIELDS_DIR}/serving.py`, classes: ["Serving"] },
    { path: SERVER_ARGS_FILE, classes: [] },
  ]);
  expect(fieldsFiles(checkout(false)).map((file) => file.path)).toEqual([`${FIELDS_DIR}/memory.py`, `${FIELDS_DIR}/serving.py`]);
});

test("the fields layout: cli_name, named choices from choices.py, Literal choices, deprecated actions, hand-registered options", () => {
  const dir = checkout(true);
  expect(optionsFrom(dir, sglangFieldsLayout(dir))).toEqual([
    { name: "--enable-old-thing", aliases: [], value: "none" },
    { name: "--host", aliases: [], value: "required" },
    { name: "--load-format", aliases: [], value: "required", choices: ["auto", "safetensors"] },
    { name: "--mem-fraction-static", aliases: [], value: "required" },
    { name: "--old-path", aliases: [], value: "required" },
    { name: "--sampling-defaults", aliases: [], value: "required", choices: ["openai", "model"] },
    { name: "--skip-server-warmup", aliases: [], value: "none" },
    { name: "--tensor-parallel-size", aliases: ["--tp-size"], value: "required" },
    { name: "--tokenizer-mode", aliases: [], value: "required", choices: ["auto", "slow"] },
    { name: "--tool-call-parser", aliases: [], value: "required", choices: ["llama3", "pythonic", "qwen25"] },
  ]);
});

test("annotated fields: a Literal type gives choices unless Arg names its own; cli_name replaces the field's name", () => {
  expect(readAnnotated('A[Optional[Literal["a", "b"]], "help"]', "")?.choices).toEqual(["a", "b"]);
  expect(readAnnotated('A[Literal["a", "b"], Arg(choices=["c"])]', "")?.choices).toEqual(["c"]);
  expect(readAnnotated('A[bool, Arg(cli_name="--no-x", action="store_false")]', "")).toMatchObject({ cliName: "--no-x", flag: true });
  expect(readAnnotated("A[int, Arg(action=DeprecatedAction)]", "")?.flag).toBe(true);
  expect(readAnnotated("A[str, Arg(action=DeprecatedAliasStoreAction)]", "")?.flag).toBe(false);
});

test("server_args.py of the releases: only what the parser registers is an option (dest=, deprecated flags, NS-only fields, choices built from more than a list)", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-sglang-release-"));
  mkdirSync(join(dir, "python/sglang/srt"), { recursive: true });
  const source = [
    "@dataclasses.dataclass",
    "class ServerArgs:",
    '    host: A[str, "The host."] = "127.0.0.1"',
    "    swa_ratio: A[",
    "        float,",
    '        ("A help text in parentheses, "',
    '         "over two lines."),',
    "    ] = 0.8",
    '    custom_handler: A[Optional[Callable], NS("device")] = None',
    '    stat_loggers: A[Optional[Dict[str, type]], NS("observability")] = None',
    "    fp8_gemm_runner_backend: str = \"auto\"",
    "    tool_call_parser: Optional[str] = None",
    "    incremental_streaming_output: A[bool, \"Stream incrementally.\"] = False",
    "",
    "    @staticmethod",
    "    def add_cli_args(parser):",
    '        parser.add_argument("--tool-call-parser", type=str, choices=["auto"] + parsers)',
    '        parser.add_argument("--fp8-gemm-backend", type=str, choices=CHOICES, dest="fp8_gemm_runner_backend")',
    '        parser.add_argument("--stream-output", action=DeprecatedStoreTrueAction, dest="incremental_streaming_output")',
    '        parser.add_argument("--old-mode", action=DeprecatedAliasStoreAction, dest="other")',
  ].join("\n");
  writeFileSync(join(dir, SERVER_ARGS_FILE), source);
  const layout = { files: [{ path: SERVER_ARGS_FILE, classes: ["ServerArgs"] }], negatableFlags: false, extra: [], skip: /^_/, registeredOnly: true };
  expect(optionsFrom(dir, layout)).toEqual([
    { name: "--fp8-gemm-backend", aliases: [], value: "required" },
    { name: "--host", aliases: [], value: "required" },
    { name: "--incremental-streaming-output", aliases: [], value: "none" },
    { name: "--old-mode", aliases: [], value: "required" },
    { name: "--stream-output", aliases: [], value: "none" },
    { name: "--swa-ratio", aliases: [], value: "required" },
    { name: "--tool-call-parser", aliases: [], value: "required" },
  ]);
  // Without registeredOnly (vLLM's reading) every field is an option, as before.
  expect(optionsFrom(dir, { ...layout, registeredOnly: false }).map((option) => option.name)).toContain("--stat-loggers");
});
