"""The svc runtime on slurm profiles' clusters (contracts/src/runtimes.ts): `svc runtime install|ls|rm`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from .app import ErrorBody
from .services import Task


@dataclass(frozen=True, kw_only=True)
class FoundEngineVersion:
    """A vLLM or SGLang version found where a profile runs it (`svc profile show`; docs/engines.md)."""

    engine: Literal["vllm", "sglang"]
    #: The image it runs in; None for a bare Slurm job (the cluster's python3).
    image: str | None
    #: None: not installed there, or not readable.
    version: str | None
    how: str
    found_at: datetime


@dataclass(frozen=True, kw_only=True)
class RuntimeVersion:
    """One installed version of the svc runtime (a content hash of its bundle)."""

    version: str
    arch: str
    tasks: list[str]
    size_bytes: int
    installed_at: datetime
    #: The version this svc installs and starts jobs with.
    current: bool
    #: Live services of this svc whose job runs this version.
    services: list[str]


@dataclass(frozen=True, kw_only=True)
class UnavailableTask:
    task: Task
    reason: str


@dataclass(frozen=True, kw_only=True)
class RuntimeList:
    """What is installed on a slurm profile's cluster, and which version svc would use (`current`)."""

    profile: str
    host: str
    #: `uname -m` of the cluster's login node.
    machine: str
    current: str
    unavailable: list[UnavailableTask]
    versions: list[RuntimeVersion]


@dataclass(frozen=True, kw_only=True)
class RuntimeInstall:
    """An install of the svc runtime on a cluster and its progress; poll `runtime_install(id)` while `state` is running."""

    id: str
    profile: str
    host: str
    version: str
    arch: str
    state: Literal["running", "done", "failed"]
    #: The version was there already: nothing was sent.
    already_installed: bool
    #: Size of the bundle's tar stream, and how much of it has been sent.
    bytes_total: int
    bytes_done: int
    #: Bytes that went over the connection (compressed).
    bytes_sent: int
    started_at: datetime
    finished_at: datetime | None = None
    notes: list[str]
    error: ErrorBody | None = None


@dataclass(frozen=True, kw_only=True)
class RuntimeRemoval:
    profile: str
    removed: list[str]
