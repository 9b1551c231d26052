"""Outside OpenAI-compatible servers behind /v1 (contracts/src/endpoints.ts): `svc endpoint`."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal


@dataclass(frozen=True, kw_only=True)
class OutsideEndpoint:
    """An outside server whose models /v1 serves; its API key is stored by svc and never answered."""

    name: str
    #: Its base URL; /v1 requests go to <url>/v1/….
    url: str
    #: The models /v1 routes there.
    models: list[str]
    #: True: the models were given at add, not read from the server.
    models_given: bool
    has_key: bool
    status: Literal["HEALTHY", "UNHEALTHY"]
    #: Why it is UNHEALTHY.
    reason: str | None
    checked_at: datetime | None
    created_at: datetime
