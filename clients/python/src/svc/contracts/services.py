"""Inference services (contracts/src/services.ts): what `svc run` records and reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

from .deployments import DeploymentRecord

Task = Literal["text-generation", "speech-recognition"]
TASKS: tuple[Task, ...] = ("text-generation", "speech-recognition")

ServiceStatus = Literal["SUBMITTED", "PENDING", "STARTING", "HEALTHY", "UNHEALTHY", "STOPPING", "STOPPED", "FAILED", "TIMEOUT"]
SERVICE_STATUSES: tuple[ServiceStatus, ...] = ("SUBMITTED", "PENDING", "STARTING", "HEALTHY", "UNHEALTHY", "STOPPING", "STOPPED", "FAILED", "TIMEOUT")
#: States a service does not leave by itself; `restart()` starts it again.
TERMINAL_STATUSES: tuple[ServiceStatus, ...] = ("STOPPED", "FAILED", "TIMEOUT")


@dataclass(frozen=True, kw_only=True)
class JobOptions:
    """Slurm-style job options as stored with a service (the Docker engine honours mem and gres)."""

    time: str | None = None
    ntasks_per_node: int | None = None
    mem: int | None = None
    gres: int | None = None
    partition: str | None = None
    constraint: str | None = None
    account: str | None = None
    qos: str | None = None
    reservation: str | None = None
    #: Nodes not to run on (a Slurm hostlist).
    exclude: str | None = None
    #: Nodes to run on (a Slurm hostlist).
    nodelist: str | None = None


@dataclass(frozen=True, kw_only=True)
class TextGenerationOptions:
    disable_custom_kernels: bool | None = None
    sharded: str | None = None
    max_input_length: int | None = None
    max_total_tokens: int | None = None


@dataclass(frozen=True, kw_only=True)
class SpeechRecognitionOptions:
    input_dir: str | None = None


@dataclass(frozen=True, kw_only=True)
class ServicePolicyState:
    """Lifecycle policies of a service (contracts/src/policies.ts), durations in words and in seconds."""

    #: Stopped after answering no request for this long; None: never.
    idle_stop: str | None
    idle_stop_seconds: int | None
    #: A request while it is STOPPED starts it again.
    on_demand: bool
    start_timeout: str
    start_timeout_seconds: int
    #: Slurm: handed over to a successor job before the time limit.
    renew: bool
    renew_before: str | None
    renew_before_seconds: int | None


@dataclass(frozen=True, kw_only=True)
class ServiceSuccessor:
    """A renewal under way: the successor job (or, while `phase` is draining, the old job finishing)."""

    phase: Literal["submitting", "starting", "draining"]
    handle: str | None
    since: datetime


@dataclass(frozen=True, kw_only=True)
class ServiceRecord:
    """One row of `svc ls`: a service as the orchestrator records it."""

    id: str
    name: str
    image: Literal["text_generation", "speech_recognition"]
    task: Task
    model: str
    revision: str
    profile: str
    status: ServiceStatus
    #: Why it is in this state (exit code and last output, scheduler reason, …).
    reason: str | None
    host: str | None
    port: int | None
    #: Where the service answers directly, once its port is known.
    url: str | None
    engine: Literal["docker", "slurm"]
    runtime: str
    #: Container id or Slurm job id.
    handle: str | None
    api_key_set: bool
    job: JobOptions
    text_generation: TextGenerationOptions | None = None
    speech_recognition: SpeechRecognitionOptions | None = None
    engine_args: list[str]
    policies: ServicePolicyState
    #: When the gateway last passed it a request (or it last became HEALTHY).
    last_request_at: datetime | None
    #: When the current Slurm job reaches its time limit.
    ends_at: datetime | None
    successor: ServiceSuccessor | None
    #: Host folders bound read-only into the service (`mount=[...]`).
    mounts: list[str] | None = None
    #: Seconds it may fail its health check while starting before it counts as UNHEALTHY.
    grace_period: int | None = None
    created_by: str
    created_at: datetime
    updated_at: datetime
    #: How long the engine has run it, over all its runs (in lists and details).
    running_seconds: float | None = None
    #: Slurm: GPUs allocated (GRES per node) × running hours; None on Docker.
    gpu_hours: float | None = None
    #: The id of the deployment this service is a replica of (`run(..., replicas=…)`), else None.
    deployment: str | None = None
    #: The LoRA adapters it serves on its model (`run(..., adapter=[...])`), each a model of /v1.
    adapters: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class StatusEvent:
    """A change of status in a workload's `events`; `ServiceEvent` and `BatchEvent` name their statuses."""

    at: datetime
    from_: str | None = field(metadata={"json": "from"})
    to: str
    reason: str | None


@dataclass(frozen=True, kw_only=True)
class ServiceEvent(StatusEvent):
    from_: ServiceStatus | None = field(metadata={"json": "from"})
    to: ServiceStatus


@dataclass(frozen=True, kw_only=True)
class ServicePhases:
    """When the latest run was queued, started running and first answered its health check."""

    queued: datetime | None
    starting: datetime | None
    ready: datetime | None


@dataclass(frozen=True, kw_only=True)
class ServiceDetails(ServiceRecord):
    """Every field of a service (`svc details`), with its start-up phases and events."""

    phases: ServicePhases
    events: list[ServiceEvent]


@dataclass(frozen=True, kw_only=True)
class PlacementMemory:
    weight_bytes: int
    kv_cache_bytes: int
    overhead_bytes: int
    #: GPU memory x the engine's utilisation.
    usable_bytes_per_gpu: int
    #: A vision-language model's vision tower, part of weight_bytes.
    vision_tower_bytes: int | None = None


@dataclass(frozen=True, kw_only=True)
class Placement:
    """Where a GPU launch runs and why (docs/gpu-sizing.md): planned by svc, or the user's own, checked."""

    #: One line, e.g. "141 GB bf16 weights + 11 GB KV (8 x 8,192 tokens) -> 2 x A100-80GB, tensor parallel 2, partition gpu".
    summary: str
    partition: str | None
    gpu_type: str | None
    nodes: int
    gpus_per_node: int
    tensor_parallel: int
    pipeline_parallel: int
    #: The context the engine is started with (lowered from the model's when the whole one does not fit).
    max_model_len: int | None
    concurrency: int
    memory: PlacementMemory
    #: "planned": svc chose it; "user": --gres/--nodes given, checked only.
    source: Literal["planned", "user"]
    reasons: list[str]


@dataclass(frozen=True, kw_only=True)
class EngineVersionCheck:
    """A GPU launch's engine version (docs/engines.md) and the option list its arguments were checked against."""

    engine: Literal["vllm", "sglang"]
    #: The version where it runs; None when it could not be found (arguments unchecked).
    version: str | None
    #: "given" (engine_version=), "found" (read where it runs), "pinned" (svc's image), "unknown".
    source: Literal["given", "found", "pinned", "unknown"]
    #: The release whose option list checked the arguments; None when unchecked.
    checked_against: str | None
    #: Where the version was read.
    how: str | None = None


@dataclass(frozen=True, kw_only=True)
class RunResponse:
    """Answer of a run or dry run."""

    #: Rows of the model registry that matched the model on the profile.
    matched: int
    revision: str
    warnings: list[str]
    #: The start-up script (Docker: the equivalent `docker run` line).
    script: str
    #: None for a dry run.
    service: ServiceRecord | None
    #: The policies the service gets (also on a dry run).
    policies: ServicePolicyState | None = None
    #: A GPU launch: where it runs and why (also on a dry run).
    placement: Placement | None = None
    #: A GPU launch: its engine's version and the option list its arguments were checked against.
    engine_version: EngineVersionCheck | None = None
    #: A run with `replicas`: the deployment it made (its replicas are services).
    deployment: DeploymentRecord | None = None
