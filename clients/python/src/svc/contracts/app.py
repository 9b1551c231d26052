"""The application itself (contracts/src/info.ts, images.ts, errors.ts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .services import Task


@dataclass(frozen=True, kw_only=True)
class ImageChoice:
    """The image the app runs for a task on an inference server."""

    task: Task
    engine: Literal["svc", "vllm", "sglang"]
    image: str
    #: The variable of `svc start`'s environment that pinned it (SVC_TEXT_GENERATION_IMAGE, …), or None for the default.
    set_by: str | None


@dataclass(frozen=True, kw_only=True)
class AppInfo:
    name: Literal["svc"]
    version: str
    host: str
    port: int
    home_dir: str
    #: Debug mode: when on, no authentication is required.
    debug: bool
    #: How Docker services are reached: "publish" (own network, port published on 127.0.0.1),
    #: "host" (host networking), None while the Docker Engine does not answer.
    docker_network: Literal["publish", "host"] | None = None
    #: The images services run (`run(..., image=...)` replaces one for a service).
    images: list[ImageChoice]


@dataclass(frozen=True, kw_only=True)
class ComponentHealth:
    name: str
    state: Literal["up", "down"]
    latency_ms: float | None
    detail: str | None = None


@dataclass(frozen=True, kw_only=True)
class EngineReach:
    """Whether an engine can be reached: the Docker Engine (profile None), or a slurm profile's cluster."""

    engine: Literal["docker", "slurm"]
    profile: str | None
    #: The Docker socket, or user@host:port of the cluster.
    target: str
    #: "unknown" until the first background check has ended.
    state: Literal["reachable", "unreachable", "unknown"]
    detail: str
    checked_at: str | None


@dataclass(frozen=True, kw_only=True)
class HealthReport:
    #: Whether svc's own parts answer; an unreachable engine does not make it "degraded".
    status: Literal["ok", "degraded"]
    services: list[ComponentHealth]
    engines: list[EngineReach]


@dataclass(frozen=True, kw_only=True)
class RuntimeImage:
    """A runtime image that serves a task."""

    task: Task
    engine: Literal["svc", "vllm", "sglang"]
    image: str
    #: The variable that pinned it (SVC_TEXT_GENERATION_IMAGE, …), or None for the default.
    set_by: str | None
    #: Whether the image is on this machine's Docker Engine.
    present: bool
    size_bytes: int | None
    created_at: str | None


@dataclass(frozen=True, kw_only=True)
class ImageBuild:
    """A build of a project runtime image and its output so far (`svc image build`, or a `svc run` that needs it)."""

    id: str
    task: Task
    image: str
    state: Literal["running", "completed", "failed"]
    #: The latest lines of the build's output; `lines[i]` is line `dropped_lines + i`.
    lines: list[str]
    dropped_lines: int
    started_at: str
    finished_at: str | None = None
    error: str | None = None


@dataclass(frozen=True, kw_only=True)
class ErrorBody:
    """The body of every 4xx/5xx answer of the API; SvcApiError carries its fields."""

    error: str
    message: str
    details: Any = None
