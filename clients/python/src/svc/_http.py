"""Sending calls over HTTP (httpx), blocking and asyncio, and turning failures into `SvcError`s."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncGenerator, Generator, Iterator
from typing import Any, TypeVar

import httpx

from ._api import Call
from ._decode import decode
from .errors import SvcApiError, SvcError, SvcTimeoutError, SvcUnreachableError

T = TypeVar("T")

#: Inference and image builds may take minutes; connecting may not.
DEFAULT_TIMEOUT = httpx.Timeout(30.0, read=600.0)
#: Followed logs stay open as long as the service writes.
FOLLOW_TIMEOUT = httpx.Timeout(30.0, read=None)

#: The answer header of GET /api/services that carries the next page's cursor.
NEXT_CURSOR_HEADER = "X-Next-Cursor"

#: The gateway token on /proxy/ paths, where Authorization carries the service's own API key.
TOKEN_HEADER = "X-Svc-Token"


def api_headers(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def proxy_headers(token: str | None, api_key: str | None) -> dict[str, str]:
    headers = {TOKEN_HEADER: token} if token else {}
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    return headers


def api_error(response: httpx.Response) -> SvcApiError:
    """The error an answer with an error status stands for: the API's `{error, message}`, or an OpenAI-shaped error of a service."""
    status = response.status_code
    try:
        body = response.json()
    except ValueError:
        body = None
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        code = error.get("code") or error.get("type") or f"http_{status}"
        return SvcApiError(status, str(code), str(error.get("message") or response.reason_phrase), error)
    if isinstance(error, str):
        message = body.get("message") if isinstance(body, dict) else None
        return SvcApiError(status, error, str(message or response.reason_phrase), body.get("details") if isinstance(body, dict) else None)
    text = response.text.strip()[:300]
    return SvcApiError(status, f"http_{status}", f"The server answered {status} {response.reason_phrase}" + (f": {text}" if text else "."))


def check(response: httpx.Response, also_ok: tuple[int, ...] = ()) -> httpx.Response:
    if response.is_error and response.status_code not in also_ok:
        raise api_error(response)
    return response


def answer(call: Call[T], response: httpx.Response) -> T:
    if call.returns is None or response.status_code == 204:
        return None  # type: ignore[return-value]
    if call.returns is str:
        return response.text  # type: ignore[return-value]
    try:
        body = response.json()
    except ValueError as error:
        raise SvcError(f"{call.method} {call.path} answered something that is not JSON.") from error
    return decode(call.returns, body, f"{call.method} {call.route}")  # type: ignore[no-any-return]


@contextlib.contextmanager
def translated(base_url: str) -> Iterator[None]:
    """Turns httpx's transport failures into SvcUnreachableError / SvcTimeoutError."""
    try:
        yield
    except httpx.TimeoutException as error:
        raise SvcTimeoutError(f"The svc application at {base_url} did not answer in time ({type(error).__name__}).") from error
    except httpx.TransportError as error:
        raise SvcUnreachableError(base_url, error) from error


class SyncHttp:
    """Blocking requests to one application."""

    def __init__(self, base_url: str, token: str | None, timeout: httpx.Timeout | float | None) -> None:
        self.base_url = base_url
        self.token = token
        self.client = httpx.Client(timeout=timeout)

    def call(self, call: Call[T]) -> T:
        return self.call_with_headers(call)[0]

    def call_with_headers(self, call: Call[T]) -> tuple[T, httpx.Headers]:
        """The answer of `call` and the headers it came with (e.g. GET /api/services' X-Next-Cursor)."""
        response = self.send(call.method, call.path, headers=api_headers(self.token), params=call.query, json=call.body, also_ok=call.also_ok)
        return answer(call, response), response.headers

    def send(self, method: str, path: str, *, also_ok: tuple[int, ...] = (), **options: Any) -> httpx.Response:
        with translated(self.base_url):
            return check(self.client.request(method, self.base_url + path, **options), also_ok)

    def lines(self, call: Call[str]) -> Generator[str, None, None]:
        """The text answer of `call` line by line, as it arrives."""
        with translated(self.base_url), self.client.stream(
            call.method, self.base_url + call.path, params=call.query, headers=api_headers(self.token), timeout=FOLLOW_TIMEOUT
        ) as response:
            if response.is_error:
                response.read()
                raise api_error(response)
            yield from response.iter_lines()

    def close(self) -> None:
        self.client.close()


class AsyncHttp:
    """asyncio requests to one application."""

    def __init__(self, base_url: str, token: str | None, timeout: httpx.Timeout | float | None) -> None:
        self.base_url = base_url
        self.token = token
        self.client = httpx.AsyncClient(timeout=timeout)

    async def call(self, call: Call[T]) -> T:
        return (await self.call_with_headers(call))[0]

    async def call_with_headers(self, call: Call[T]) -> tuple[T, httpx.Headers]:
        response = await self.send(call.method, call.path, headers=api_headers(self.token), params=call.query, json=call.body, also_ok=call.also_ok)
        return answer(call, response), response.headers

    async def send(self, method: str, path: str, *, also_ok: tuple[int, ...] = (), **options: Any) -> httpx.Response:
        with translated(self.base_url):
            return check(await self.client.request(method, self.base_url + path, **options), also_ok)

    async def lines(self, call: Call[str]) -> AsyncGenerator[str, None]:
        with translated(self.base_url):
            async with self.client.stream(
                call.method, self.base_url + call.path, params=call.query, headers=api_headers(self.token), timeout=FOLLOW_TIMEOUT
            ) as response:
                if response.is_error:
                    await response.aread()
                    raise api_error(response)
                async for line in response.aiter_lines():
                    yield line

    async def aclose(self) -> None:
        await self.client.aclose()
