"""API keys for /v1 and its usage (contracts/src/keys.ts, usage.ts): `svc key`, `svc usage`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

UsageGrouping = Literal["key", "model", "service"]
#: The tokens-per-hour series: the last 24 hours or the last 7 days.
UsageHourlyWindow = Literal["day", "week"]
#: `key`: a key that exists now; `removed`: a key removed since; `token`: the svc token and UI sessions; `anonymous`: no key (debug mode).
UsageCallerKind = Literal["key", "removed", "token", "anonymous"]
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
class UsageSpent:
    #: Requests answered (429 refusals not counted).
    requests: int
    #: Prompt + completion tokens.
    tokens: int


@dataclass(frozen=True, kw_only=True)
class KeyAllowance:
    """What a caller spent against its key's limits: the last minute, today and this month (UTC)."""

    #: The key's name (a removed key's as recorded), `svc-token` or `anonymous`.
    name: str
    key_id: str | None
    kind: UsageCallerKind
    #: All None for removed keys and callers that are not keys.
    limits: KeyLimits
    last_minute: UsageSpent
    today: UsageSpent
    month: UsageSpent
    #: Requests answered 429 since the report's `since`.
    refused_429: int


@dataclass(frozen=True, kw_only=True)
class UsageHour:
    #: The hour's start (UTC).
    hour: datetime
    #: The caller's name, as `KeyAllowance.name`.
    key: str
    requests: int
    tokens: int


@dataclass(frozen=True, kw_only=True)
class HourlyUsage:
    window: UsageHourlyWindow
    #: The first hour's start: 24 (`day`) or 168 (`week`) hours up to the current one.
    from_: datetime
    #: Each hour and caller with requests; hours without any are left out.
    hours: list[UsageHour]


@dataclass(frozen=True, kw_only=True)
class UsageReport:
    """What /v1 served per key, model or service, per day and hour (`svc usage`), each key against its limits, and the services' running time."""

    since: datetime
    by: UsageGrouping
    retention_days: int
    totals: UsageCounts
    groups: list[UsageGroup]
    days: list[UsageDay]
    services: list[ServiceTime]
    #: When the report was made: the last minute, today and this month end here.
    at: datetime
    #: Every key and every other caller with usage, against the key's limits.
    keys: list[KeyAllowance]
    #: Tokens per hour per caller over the last day or week.
    hourly: HourlyUsage
