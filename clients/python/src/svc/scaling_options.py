"""The scaling keywords of `run(..., replicas=…)` and `scale()` (contracts/src/deployments.ts), and the JSON they make."""

from __future__ import annotations

from typing import Any, TypedDict

from ._decode import camel
from .contracts import RoutingMode


class ScalingKeywords(TypedDict, total=False):
    """How a deployment scales (durations: 30s, 5m, 1h30m or HH:MM:SS); `run()` takes them with `replicas`."""

    #: Requests in flight per HEALTHY replica above which a replica is added (default: from the engine's concurrency).
    target_inflight: int
    #: How long the load must stay above the target before a replica is added (default 30s).
    scale_up_after: str
    #: How long a replica must have had no request before it is drained and stopped (default 5m).
    scale_down_after: str
    #: How /v1 picks a replica: "least-busy" (default) or "prefix" (prompts sharing a long prefix go to the same replica).
    routing: RoutingMode


class ScaleOptions(ScalingKeywords, total=False):
    """What `Svc.scale()` changes: any field given replaces the deployment's."""

    #: "MIN..MAX" (e.g. "0..3") or a count; MIN 0: no replica runs until a request comes.
    replicas: str | int


#: The keywords, in their order.
SCALING_KEYS: tuple[str, ...] = ("replicas", *ScalingKeywords.__annotations__)


def scaling_value(key: str, value: Any) -> Any:
    """A keyword's value as the API takes it: replicas as text ("2" for 2)."""
    if key == "replicas":
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise TypeError(f"replicas must be 'MIN..MAX' (e.g. '0..3') or a count, not {value!r}.")
        return str(value)
    return value


def scale_request(options: ScaleOptions) -> dict[str, Any]:
    """The body of PATCH /api/deployments/{ref}. Options set to None are left out."""
    unknown = sorted(set(options) - set(SCALING_KEYS))
    if unknown:
        raise TypeError(f"Unknown scaling option{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; the options are: {', '.join(SCALING_KEYS)}.")
    body = {camel(key): scaling_value(key, value) for key, value in options.items() if value is not None}
    if not body:
        raise TypeError("scale() needs the new replicas ('1..4') or at least one of target_inflight, scale_up_after, scale_down_after, routing.")
    return body
