"""What the stand-ins share: failing with a clear message, the node they run on, its GPUs, pid files,
and reading an engine's arguments against the option list svc pins for it."""
import argparse
import json
import os
import re
import socket
import sys

OPTIONS_DIR = "/usr/share/svc-stand-ins/options"
# A test sets the version a stand-in reports (`vllm.__version__`) by writing it here, one file per engine.
VERSION_DIR = "/etc/svc-stand-ins"
PID_DIR = "/tmp/svc-stand-ins"


def say(prog, message):
    print(f"{prog}: {message}", file=sys.stderr, flush=True)


def fail(prog, message, code=1):
    say(prog, f"error: {message}")
    sys.exit(code)


def node_name():
    return os.environ.get("SLURMD_NODENAME") or socket.gethostname()


def visible_gpus():
    """The GPUs Slurm gave this job or step on this node (its GRES), as CUDA_VISIBLE_DEVICES lists them."""
    value = os.environ.get("CUDA_VISIBLE_DEVICES", "").strip()
    return [gpu for gpu in value.split(",") if gpu.strip()] if value else []


def write_pid(role):
    """Where a test finds the process of `role` on this node (e.g. to kill one node's part)."""
    os.makedirs(PID_DIR, exist_ok=True)
    job = os.environ.get("SLURM_JOB_ID", "nojob")
    with open(os.path.join(PID_DIR, f"{job}.{node_name()}.{role}.pid"), "w") as file:
        file.write(f"{os.getpid()}\n")


def _line(version, engine="vllm"):
    """A version's release line as svc reads it (versions.ts): vLLM's major.minor, SGLang's major.minor.patch."""
    match = re.match(r"^v?(\d+)\.(\d+)(?:\.(\d+))?", version)
    if not match:
        return None
    numbers = (int(match.group(1)), int(match.group(2)), int(match.group(3) or 0))
    return numbers if engine == "sglang" else numbers[:2]


def _lists(engine):
    """Every option list svc has for `engine` (<engine>.json, the pinned one, and <engine>-<version>.json), oldest line first."""
    found = []
    for name in sorted(os.listdir(OPTIONS_DIR)):
        if name == f"{engine}.json" or (name.startswith(f"{engine}-") and name.endswith(".json")):
            with open(os.path.join(OPTIONS_DIR, name)) as file:
                found.append(json.load(file))
    return sorted(found, key=lambda each: _line(each["version"], engine))


def engine_version(engine):
    """The version this stand-in plays: the test's file in VERSION_DIR, else the pinned list's."""
    try:
        with open(os.path.join(VERSION_DIR, f"{engine}-version")) as file:
            version = file.read().strip()
        if _line(version, engine):
            return version
    except OSError:
        pass
    return _lists(engine)[-1]["version"].lstrip("v")


def option_list(engine):
    """The list of the version played, as svc picks it: its release line's, else the nearest older, else the oldest."""
    lists = _lists(engine)
    wanted = _line(engine_version(engine), engine)
    older = [each for each in lists if _line(each["version"], engine) <= wanted]
    return older[-1] if older else lists[0]


class ArgumentError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise ArgumentError(message)


def parse_engine_args(prog, engine, argv):
    """
    Reads `argv` as the engine's own argparse parser would (long names, aliases, unique prefixes,
    `--name=value`, choices), built from the same pinned list `svc run` checks against. vLLM also
    takes `--max_model_len` for `--max-model-len`. Returns {long name: [values] or True}, under each
    spelling of the option (a release may name it `--tp-size`, another `--tensor-parallel-size`).
    """
    pinned = option_list(engine)
    if engine == "vllm":
        argv = [_dashes(arg) for arg in argv]
    parser = _Parser(prog=prog, add_help=False)
    spellings = {}
    for option in pinned["options"]:
        dest = option["name"][2:]
        negations = [alias for alias in option["aliases"] if alias.startswith("--no-")]
        names = [option["name"], *[alias for alias in option["aliases"] if alias not in negations]]
        spellings[dest] = names
        if option["value"] == "none":
            parser.add_argument(*names, dest=dest, action="store_true", default=None)
            if negations:
                parser.add_argument(*negations, dest=dest, action="store_false")
        else:
            nargs = "+" if option["value"] == "required" else "?"
            parser.add_argument(*names, dest=dest, nargs=nargs, choices=option.get("choices"), default=None)
    try:
        values = vars(parser.parse_args(argv))
    except ArgumentError as error:
        fail(prog, f"{error} (checked against {engine} {pinned['version']}'s options, for {engine} {engine_version(engine)})", 2)
    return {name: value for dest, value in values.items() if value is not None for name in spellings[dest]}


def _dashes(arg):
    if not arg.startswith("--"):
        return arg
    name, equals, value = arg.partition("=")
    return name.replace("_", "-") + equals + value


def one(args, name, default=None):
    value = args.get(name)
    if value is None or value is True or value is False:
        return default
    return value[0] if isinstance(value, list) else value


def integer(prog, args, name, default):
    value = one(args, name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        fail(prog, f"{name} {value!r} is not a whole number", 2)


def model_config(prog, model_dir):
    """The model folder's config.json, as the engines read it before anything else."""
    path = os.path.join(model_dir, "config.json")
    try:
        with open(path) as file:
            return json.load(file)
    except OSError as error:
        fail(prog, f"cannot read the model's config.json ({path}): {error.strerror}")
    except ValueError as error:
        fail(prog, f"{path} is not JSON: {error}")


def check_parallel(prog, config, tensor, pipeline):
    """The engines' own checks of the parallel sizes against the model: heads split evenly, a layer or more per stage."""
    heads = config.get("num_attention_heads")
    if isinstance(heads, int) and heads % tensor != 0:
        fail(prog, f"the model's {heads} attention heads must be divisible by the tensor parallel size ({tensor})")
    layers = config.get("num_hidden_layers")
    if isinstance(layers, int) and layers < pipeline:
        fail(prog, f"the model's {layers} layers cannot be split into {pipeline} pipeline stages")


#: Where each engine takes its LoRA adapters (NAME=PATH each), and the routes it loads and unloads them on while it runs.
LORA = {
    "vllm": {"option": "--lora-modules", "load": "/v1/load_lora_adapter", "unload": "/v1/unload_lora_adapter"},
    "sglang": {"option": "--lora-paths", "load": "/load_lora_adapter", "unload": "/unload_lora_adapter"},
}


def check_adapter(prog, name, path, max_rank):
    """What the engine reads of a PEFT adapter folder on this node: adapter_config.json, its weights, a rank it was started for. Returns the problem, or None."""
    config_path = os.path.join(path, "adapter_config.json")
    if not os.path.isfile(config_path):
        return f"LoRA adapter {name}: {config_path} is not there on {node_name()}"
    if not any(os.path.isfile(os.path.join(path, weights)) for weights in ("adapter_model.safetensors", "adapter_model.bin")):
        return f"LoRA adapter {name}: no adapter_model.safetensors in {path} on {node_name()}"
    try:
        with open(config_path) as file:
            rank = json.load(file).get("r")
    except ValueError as error:
        return f"LoRA adapter {name}: {config_path} is not JSON: {error}"
    if isinstance(rank, int) and rank > max_rank:
        return f"LoRA adapter {name} has rank {rank}, above --max-lora-rank {max_rank}"
    return None


def lora_adapters(prog, engine, args):
    """The adapters the engine's arguments serve, {name: folder}, each checked on this node as the engine would; and the --max-lora-rank it was started with."""
    option = LORA[engine]["option"]
    pairs = args.get(option) or []
    max_rank = integer(prog, args, "--max-lora-rank", 16)
    if pairs and not args.get("--enable-lora"):
        fail(prog, f"{option} without --enable-lora", 2)
    adapters = {}
    for pair in pairs:
        name, equals, path = pair.partition("=")
        if not equals or not name or not path:
            fail(prog, f"{option} {pair!r}: give NAME=PATH", 2)
        if name in adapters:
            fail(prog, f"{option}: {name} is given twice", 2)
        problem = check_adapter(prog, name, path, max_rank)
        if problem:
            fail(prog, problem)
        adapters[name] = path
    if engine == "vllm" and pairs and len(pairs) > integer(prog, args, "--max-loras", 1):
        say(prog, f"warning: {len(pairs)} adapters, --max-loras {integer(prog, args, '--max-loras', 1)}: fewer of them run in one batch")
    if adapters:
        say(prog, f"LoRA adapters (rank up to {max_rank}): {', '.join(f'{name} ({path})' for name, path in adapters.items())}")
    return adapters, max_rank
