"""What `Svc` and `AsyncSvc` share: finding the application and its token."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

import httpx

from ._http import DEFAULT_TIMEOUT
from .settings import load_settings

H = TypeVar("H")


def resolve_target(url: str | None, token: str | None, env: Mapping[str, str] | None) -> tuple[str, str | None]:
    """The application's URL and token: as given, else found as the CLI finds them (see `svc.settings`).

    A token is looked up only for the application the settings describe, never sent to a URL given here.
    """
    if url is not None:
        return url.rstrip("/"), token
    settings = load_settings(env)
    return settings.url, token or settings.token()


class ClientBase(Generic[H]):
    """`url`: e.g. http://localhost:8000, default: from SVC_HOST/SVC_PORT (or `env`); `token`: the
    auth token, default: SVC_AUTH_TOKEN/SVC_TOKEN, else `$SVC_HOME_DIR/auth_token` (only without `url`)."""

    def __init__(
        self,
        url: str | None = None,
        *,
        token: str | None = None,
        timeout: httpx.Timeout | float | None = DEFAULT_TIMEOUT,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.url, self.token = resolve_target(url, token, env)
        self._http: H = self._connect(timeout)

    def _connect(self, timeout: httpx.Timeout | float | None) -> H:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"
