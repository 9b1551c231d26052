"""The gateway's fair-share queues of saturated models (contracts/src/queues.ts): `GET /api/queues`."""

from __future__ import annotations

from dataclasses import dataclass

from .keys import ServiceTier


@dataclass(frozen=True, kw_only=True)
class FairShareSettings:
    #: Off (SVC_FAIR_SHARE=false): requests go to the replicas as they come, none waits.
    enabled: bool
    #: The longest a request waits before 429 (SVC_FAIR_SHARE_QUEUE_SECONDS).
    queue_seconds: int
    #: Requests of one key that may wait for one model (SVC_FAIR_SHARE_QUEUE_PER_KEY).
    per_key: int


@dataclass(frozen=True, kw_only=True)
class QueuedKey:
    """One key's requests waiting for a model in one tier."""

    #: The key's name, or `svc-token` / `anonymous`.
    key: str
    tier: ServiceTier
    weight: int
    waiting: int
    #: How long its longest-waiting request has waited.
    oldest_seconds: float


@dataclass(frozen=True, kw_only=True)
class QueueRefusals:
    """Requests refused with 429 since the gateway started."""

    #: After waiting the queue time limit.
    timeout: int
    #: At once: the key already had the most requests waiting.
    full: int


@dataclass(frozen=True, kw_only=True)
class ModelQueue:
    """The fair-share queue of one model, as the gateway holds it now."""

    model: str
    #: Requests its HEALTHY services take at once; None: not known, never queued.
    capacity: int | None
    in_flight: int
    waiting: int
    keys: list[QueuedKey]
    #: About how long requests waited for a slot lately (what Retry-After of a refusal says).
    typical_wait_seconds: float
    refused: QueueRefusals


@dataclass(frozen=True, kw_only=True)
class QueueReport:
    """The fair-share settings and every model that had to queue a request since the gateway started."""

    fair_share: FairShareSettings
    models: list[ModelQueue]
