"""The keywords of `create_key()` and `update_key()` (contracts/src/keys.ts), and the JSON they make."""

from __future__ import annotations

from typing import Any, TypedDict

from ._decode import camel
from .contracts import ServiceTier


class KeyPolicy(TypedDict, total=False):
    """A key's limits through /v1 (None: no limit; in `update_key()`, None removes one), its tier and weight."""

    #: Requests a minute.
    requests_per_minute: int | None
    #: Tokens (prompt + completion) a minute.
    tokens_per_minute: int | None
    #: Requests in flight at once.
    max_parallel: int | None
    #: Token budget a UTC day.
    daily_tokens: int | None
    #: Token budget a calendar month (UTC).
    monthly_tokens: int | None
    #: Its requests' default service_tier, and the highest they may ask for (default "default").
    tier: ServiceTier
    #: Its share of a saturated model against other keys, 1 to 100 (default 1).
    weight: int


class KeyChanges(KeyPolicy, total=False):
    """What `update_key()` changes: any field given replaces the key's (None removes a limit, the model list or the expiry)."""

    #: The repo ids it may use; None: every model.
    models: list[str] | None
    #: `30d`, `12h`, `90m`, `2w` or a date; None: never.
    expires: str | None


POLICY_KEYS: tuple[str, ...] = tuple(KeyPolicy.__annotations__)
CHANGE_KEYS: tuple[str, ...] = (*POLICY_KEYS, "models", "expires")
#: What may not be removed: a key always has a tier and a weight.
REQUIRED_VALUES = ("tier", "weight")


def key_fields(options: KeyPolicy | KeyChanges, allowed: tuple[str, ...], removing: bool) -> dict[str, Any]:
    """The JSON fields of `options`: for a create, None leaves a field out; for an update (`removing`), None is sent as null."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise TypeError(f"Unknown key option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; the options are: {', '.join(allowed)}.")
    fixed = [key for key in REQUIRED_VALUES if key in options and options[key] is None]  # type: ignore[literal-required]
    if fixed and removing:
        raise TypeError(f"{', '.join(fixed)} cannot be removed: give a value.")
    return {camel(key): value for key, value in options.items() if value is not None or removing}
