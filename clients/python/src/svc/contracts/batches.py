"""Batch jobs (contracts/src/batches.ts): a model run over a whole folder, or an OpenAI batch file (`svc batch`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from .services import JobOptions, StatusEvent

BatchTask = Literal["transcribe", "chat", "embed", "openai"]
BATCH_TASKS: tuple[BatchTask, ...] = ("transcribe", "chat", "embed", "openai")
BatchStatus = Literal["SUBMITTED", "PENDING", "RUNNING", "STOPPING", "STOPPED", "COMPLETED", "FAILED"]
BATCH_STATUSES: tuple[BatchStatus, ...] = ("SUBMITTED", "PENDING", "RUNNING", "STOPPING", "STOPPED", "COMPLETED", "FAILED")
#: States a batch job does not leave by itself; `resume()` starts it again.
FINISHED_BATCH_STATUSES: tuple[BatchStatus, ...] = ("STOPPED", "COMPLETED", "FAILED")


@dataclass(frozen=True, kw_only=True)
class BatchProgress:
    """How far a job is, as its driver last reported it from the node."""

    phase: Literal["starting", "running", "idle", "finished", "stopped", "failed"]
    #: Inputs seen so far.
    total: int
    done: int
    failed: int
    running: int
    #: In the current allocation.
    files_per_minute: float
    #: Time left at the current rate, when it can be told.
    eta_seconds: int | None
    updated_at: datetime


@dataclass(frozen=True, kw_only=True)
class BatchRecord:
    """One row of `svc batch ls`."""

    id: str
    name: str
    task: BatchTask
    #: The model it runs (with an adapter: the adapter's base).
    model: str
    revision: str
    #: The LoRA adapter every request names, applied to `model` (its base), when the job was given an adapter.
    adapter: str | None
    profile: str
    engine: Literal["docker", "slurm"]
    status: BatchStatus
    reason: str | None
    #: Jobs the engine ran for it (a Slurm job that reached its time limit is followed by another).
    allocations: int
    progress: BatchProgress | None
    input_dir: str | None
    output_dir: str | None
    input: str | None
    output: str | None
    handle: str | None
    created_by: str
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, kw_only=True)
class BatchFile:
    #: Relative to the input folder (task openai: the custom_id).
    path: str
    status: Literal["pending", "running", "done", "failed"]
    reason: str | None = None


@dataclass(frozen=True, kw_only=True)
class BatchEvent(StatusEvent):
    from_: BatchStatus | None = field(metadata={"json": "from"})
    to: BatchStatus


@dataclass(frozen=True, kw_only=True)
class BatchDetails(BatchRecord):
    """Everything about a batch job (`svc batch details`): its options, each input's status, its failures and events."""

    params: dict[str, str | int | float | bool]
    input_ext: list[str] | None
    concurrency: int
    idle_timeout: int
    job: JobOptions
    files: list[BatchFile]
    failures: list[BatchFile]
    #: Why `files` is empty or cut, when it is.
    files_note: str | None
    events: list[BatchEvent]


@dataclass(frozen=True, kw_only=True)
class BatchRunResponse:
    matched: int
    revision: str
    warnings: list[str]
    #: The job's start-up script (Docker: the equivalent `docker run` line).
    script: str
    #: None for a dry run.
    batch: BatchRecord | None
