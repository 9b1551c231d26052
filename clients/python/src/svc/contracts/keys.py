"""API keys for /v1 and its usage (contracts/src/keys.ts, usage.ts): `svc key`, `svc usage`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

UsageGrouping = Literal["key", "model", "service"]
#: OpenAI's `service_tier`, highest first: `priority` before `default` before `flex` when a model is saturated.
ServiceTier = Literal["priority", "default", "flex"]
SERVICE_TIERS: tuple[ServiceTier, ...] = ("priority", "default", "flex")


@dataclass(frozen=True, kw_only=True)
class KeyLimits:
    """What a key may use through /v1, each None for no limit; tokens are prompt + completion."""

    requests_per_minute: int | None
    tokens_per_minute: int | None
    #: Requests in flight at once.
    max_parallel: int | None
    #: Tokens a UTC day.
    daily_tokens: int | None
    #: Tokens a calendar month (UTC).
    monthly_tokens: int | None


@dataclass(frozen=True, kw_only=True)
class ApiKey:
    """A key for the OpenAI endpoint /v1; the key itself is only in `CreatedKey`, once."""

    id: str
    name: str
    #: The key's first characters, to recognise it.
    prefix: str
    #: Repo ids the key may use; None: every model.
    models: list[str] | None
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None
    expired: bool
    limits: KeyLimits
    #: Its requests' default service_tier, and the highest they may ask for.
    tier: ServiceTier
    #: Its share of a saturated model against other keys (default 1).
    weight: int


@dataclass(frozen=True, kw_only=True)
class CreatedKey(ApiKey):
    #: The key: shown this once, kept only as a hash.
    key: str


@dataclass(frozen=True, kw_only=True)
class UsageCounts:
    requests: int
    #: Answers with a 4xx or 5xx status.
    errors: int
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True, kw_only=True)
class UsageGroup(UsageCounts):
    #: The key's name (`svc-token`, `anonymous`), the repo id or the service's name.
    group: str
    avg_latency_ms: float


@dataclass(frozen=True, kw_only=True)
class UsageDay(UsageCounts):
    #: YYYY-MM-DD (UTC).
    day: str


@dataclass(frozen=True, kw_only=True)
class ServiceTime:
    id: str
    name: str
    model: str
    profile: str
    engine: str
    status: str
    running_seconds: float
    gpu_hours: float | None


@dataclass(frozen=True, kw_only=True)
class UsageReport:
    """What /v1 served per key, model or service and per day (`svc usage`), and the services' running time."""

    since: datetime
    by: UsageGrouping
    retention_days: int
    totals: UsageCounts
    groups: list[UsageGroup]
    days: list[UsageDay]
    services: list[ServiceTime]
