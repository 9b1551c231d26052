"""The options of `svc batch run` as Python keyword arguments, and the request body they make."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ._decode import camel
from ._workload_options import JOB_KEYS, TEXT_GENERATION_KEYS, WorkloadKeywords


class BatchOptions(WorkloadKeywords, total=False):
    """Keyword arguments of `Svc.run_batch()` / `AsyncSvc.run_batch()`: every option of `svc batch run`
    (revision, profile, name and the job options as `WorkloadKeywords` has them)."""

    #: Folder tasks (transcribe, chat, embed): the inputs and where outputs go, on the host that runs the job.
    input_dir: str | os.PathLike[str]
    output_dir: str | os.PathLike[str]
    #: Task openai: the requests file (OpenAI's batch input format) and the results file.
    input: str | os.PathLike[str]
    output: str | os.PathLike[str]
    #: Task openai, instead of input and output: a requests file in svc's uploads folder (where the gateway keeps
    #: /v1/files); svc copies it to the host that runs the job, and `batch_results()` reads the results back.
    upload: str | os.PathLike[str]
    #: transcribe: language, format (json, text, srt, vtt), prompt, temperature; chat: prompt (with {text}), system, max_tokens, temperature, seed.
    params: dict[str, str | int | float | bool]
    #: Extensions of the inputs, e.g. [".wav", ".mp3"].
    input_ext: Sequence[str]
    #: Requests in flight at once (default 4).
    concurrency: int
    #: Seconds to wait for new inputs once all are done (default 120).
    idle_timeout: int
    # text-generation runtime options.
    disable_custom_kernels: bool
    sharded: str
    max_input_length: int
    max_total_tokens: int


_TOP = ("input_dir", "output_dir", "input", "output", "upload", "params", "input_ext", "concurrency", "idle_timeout", "revision", "profile", "name")


def batch_request(task: str, model: str, options: BatchOptions, dry_run: bool = False) -> dict[str, Any]:
    """The body of POST /api/batches for these options."""
    values: dict[str, Any] = dict(options)
    unknown = set(values) - set(_TOP) - set(JOB_KEYS) - set(TEXT_GENERATION_KEYS)
    if unknown:
        raise TypeError(f"unknown batch options: {', '.join(sorted(unknown))}")
    body: dict[str, Any] = {"task": task, "model": model}
    for key in _TOP:
        if key in values:
            value = values[key]
            if isinstance(value, os.PathLike):
                value = os.fspath(value)
            elif key == "input_ext":
                value = list(value)
            body[camel(key)] = value
    job = {camel(key): values[key] for key in JOB_KEYS if key in values}
    if job:
        body["job"] = job
    text = {camel(key): values[key] for key in TEXT_GENERATION_KEYS if key in values}
    if text:
        body["textGeneration"] = text
    if dry_run:
        body["dryRun"] = True
    return body
