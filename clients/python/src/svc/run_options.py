"""The options of `svc run` as Python keyword arguments, and the request body they make."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Literal

from ._decode import camel
from ._workload_options import JOB_KEYS, TEXT_GENERATION_KEYS, WorkloadKeywords
from .scaling_options import SCALING_KEYS, ScalingKeywords, scaling_value


class RunOptions(WorkloadKeywords, ScalingKeywords, total=False):
    """Keyword arguments of `Svc.run()` / `AsyncSvc.run()`: every option of `svc run` (revision, profile,
    name and the job options as `WorkloadKeywords` has them; `replicas` and the other scaling options
    as `ScalingKeywords` has them, given with `replicas`: see `DeploymentRunOptions`)."""

    #: Secret callers must send as `Authorization: Bearer <key>`; kept on the returned Service.
    api_key: str
    # Lifecycle policies (durations: 30s, 30m, 2h, 1h30m or HH:MM:SS)
    #: Stop after answering no request for this long ("0": never; default: the profile's idle_stop).
    idle_stop: str
    #: A request while the service is STOPPED starts it again and waits until it is HEALTHY.
    on_demand: bool
    #: How long such a request waits (default 15m).
    start_timeout: str
    #: Slurm, with time: hand over to a successor job before the time limit.
    renew: bool
    #: How long before the job's end the successor is submitted (default 10m).
    renew_before: str
    # Every task
    #: Host folders bound read-only into the service, each at the same path.
    mount: Sequence[str | os.PathLike[str]]
    #: Seconds a starting service may fail its health check before it counts as UNHEALTHY.
    grace_period: int
    #: This service's container image instead of the app's.
    image: str
    # text-generation
    disable_custom_kernels: bool
    #: Shard across all GPUs (needs 2 or more); True/False or "true"/"false".
    sharded: bool | str
    max_input_length: int
    max_total_tokens: int
    #: The GPU engine with gres: "vllm" or "sglang" (default: the profile's engine, else vllm).
    engine: Literal["vllm", "sglang"]
    #: LoRA adapters of the registry (repo ids) served on the model, each a model of /v1 under its name.
    adapter: Sequence[str]
    #: The GPU engine's version where it runs, when you know better than svc (e.g. "0.11.1"): its arguments are checked against that version's options.
    engine_version: str
    # speech-recognition
    #: Folder on the service host that `transcribe(audio_path)` paths are resolved in.
    input_dir: str | os.PathLike[str]
    #: Passed to the inference engine, each as one argument.
    engine_args: Sequence[str]


class DeploymentRunOptions(RunOptions, total=True):
    """`run()`'s keywords with `replicas`, which make it start a deployment."""

    #: "MIN..MAX" (e.g. "0..3") or a count; MIN 0: no replica runs until a request comes.
    replicas: str | int


#: Where each option goes in the request body: (group or None for the top level, JSON name).
_PLACES: dict[str, tuple[str | None, str]] = {
    **{key: (None, camel(key)) for key in ("revision", "profile", "name", "api_key", "engine_args")},
    **{key: ("job", camel(key)) for key in JOB_KEYS},
    "mount": (None, "mounts"),
    "grace_period": (None, "gracePeriod"),
    "image": (None, "image"),
    "engine": (None, "engine"),
    "adapter": (None, "adapters"),
    "engine_version": (None, "engineVersion"),
    **{key: ("textGeneration", camel(key)) for key in TEXT_GENERATION_KEYS},
    "input_dir": ("speechRecognition", "inputDir"),
    **{key: ("policies", camel(key)) for key in ("idle_stop", "on_demand", "start_timeout", "renew", "renew_before")},
    **{key: ("scaling", camel(key)) for key in SCALING_KEYS},
}


def _json_value(key: str, value: Any) -> Any:
    if key in SCALING_KEYS:
        return scaling_value(key, value)
    if key == "sharded" and isinstance(value, bool):
        return "true" if value else "false"
    if key == "input_dir":
        return os.fspath(value)
    if key == "mount":
        if isinstance(value, (str, os.PathLike)):
            raise TypeError("mount must be a list of folders, e.g. ['/data/corpus'], not one path.")
        return [os.fspath(path) for path in value]
    if key == "adapter":
        if isinstance(value, str):
            raise TypeError("adapter must be a list of adapter repo ids, e.g. ['acme/llama-lora'], not one string.")
        return [str(name) for name in value]
    if key == "engine_args":
        if isinstance(value, str):
            raise TypeError("engine_args must be a list of arguments, e.g. ['--ctx-size', '512'], not one string.")
        return [str(arg) for arg in value]
    return value


def run_request(task: str, model: str, options: RunOptions | DeploymentRunOptions, dry_run: bool = False) -> dict[str, Any]:
    """The body of POST /api/services. Options set to None are left out."""
    unknown = sorted(set(options) - set(_PLACES))
    if unknown:
        raise TypeError(f"Unknown run option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; the options are: {', '.join(_PLACES)}.")
    body: dict[str, Any] = {"task": task, "model": model}
    if dry_run:
        body["dryRun"] = True
    for key, value in options.items():
        if value is None:
            continue
        group, name = _PLACES[key]
        target = body if group is None else body.setdefault(group, {})
        target[name] = _json_value(key, value)
    if "scaling" in body and "replicas" not in body["scaling"]:
        given = [key for key in SCALING_KEYS if key in options]
        raise TypeError(f"{', '.join(given)} {'belongs' if len(given) == 1 else 'belong'} to a deployment: add replicas='MIN..MAX' (e.g. replicas='1..3').")
    return body
