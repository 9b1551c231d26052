"""Deployments (contracts/src/deployments.ts): replicas of one model that the scaler keeps between MIN and MAX."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal

#: How /v1 picks a replica: the one with the fewest requests in flight, or by a hash of the prompt's prefix with bounded load.
RoutingMode = Literal["least-busy", "prefix"]
ROUTING_MODES: tuple[RoutingMode, ...] = ("least-busy", "prefix")
DeploymentStatus = Literal["ACTIVE", "STOPPED"]


@dataclass(frozen=True, kw_only=True)
class DeploymentEvent:
    """One scaling decision, or a change made by a person (scale, stop), with its reason."""

    at: datetime
    #: Live replicas (HEALTHY or on their way up) before and after.
    from_: int = field(metadata={"json": "from"})
    to: int
    #: E.g. "scaled up to 3: 9.5 in flight per replica for 30 s".
    message: str


@dataclass(frozen=True, kw_only=True)
class DeploymentRecord:
    """A deployment (`svc run --replicas MIN..MAX`): its bounds, scaling settings and replicas by state now."""

    id: str
    name: str
    #: The task, as services.py's `Task` (not imported: services.py imports this module).
    task: Literal["text-generation", "speech-recognition"]
    model: str
    revision: str
    profile: str
    engine: Literal["docker", "slurm"]
    #: ACTIVE: the scaler keeps it between its bounds; STOPPED: no replica runs until it is scaled again.
    status: DeploymentStatus
    min: int
    max: int
    #: Requests in flight per HEALTHY replica above which a replica is added.
    target_inflight: int
    scale_up_after_seconds: int
    scale_down_after_seconds: int
    routing: RoutingMode
    #: Replicas HEALTHY now, and on their way up (SUBMITTED, PENDING, STARTING).
    healthy: int
    coming: int
    #: Requests in flight over all replicas, as the gateway last reported.
    in_flight: int
    #: The LoRA adapters its replicas serve (`adapter=[...]`), each a model of /v1.
    adapters: list[str] | None = None
    created_by: str
    created_at: datetime
    updated_at: datetime
