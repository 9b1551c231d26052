"""What `Service` and `AsyncService` share: the record, the API key, the addresses, the wait rule."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import quote

from ._http import proxy_headers
from ._inference import CHAT_PATH, TRANSCRIBE_PATH, UPLOAD_PATH, AudioFile, ChatOptions, Prompt, TranscribeOptions
from ._inference import chat_request, transcribe_request, upload_request
from ._record_view import RecordView
from .contracts import SERVICE_STATUSES, TERMINAL_STATUSES, RunResponse, ServiceRecord, ServiceStatus
from .errors import ServiceFailedError, SvcError, SvcTimeoutError

#: How the keys `svc key create` makes begin (contracts/src/keys.ts).
API_KEY_PREFIX = "svc-k-"


class ServiceBase(RecordView[ServiceRecord]):
    """A launched inference service, as last seen (`refresh()` updates it)."""

    def __init__(self, base_url: str, token: str | None, record: ServiceRecord, api_key: str | None = None, run: RunResponse | None = None) -> None:
        super().__init__(record, run)
        self._base_url = base_url
        self._token = token
        #: The service's API key, when known: given to `run()` or `service()`, or set here.
        self.api_key = api_key

    @property
    def status(self) -> ServiceStatus:
        return self.record.status

    @property
    def reason(self) -> str | None:
        return self.record.reason

    @property
    def port(self) -> int | None:
        return self.record.port

    @property
    def url(self) -> str | None:
        """Where the service answers directly, once its port is known (on the application's machine)."""
        return self.record.url

    @property
    def proxy_url(self) -> str:
        """The service through the gateway: `<app>/proxy/<id>`, reachable wherever the application is."""
        return f"{self._base_url}/proxy/{quote(self.id, safe='')}"

    @property
    def warnings(self) -> list[str]:
        return list(self.run_response.warnings) if self.run_response else []

    def __repr__(self) -> str:
        return f"{type(self).__name__}(id={self.id!r}, name={self.name!r}, model={self.record.model!r}, status={self.status!r}, port={self.port!r})"

    def _key(self, api_key: str | None) -> str | None:
        key = api_key or self.api_key
        if key is None and self.record.api_key_set:
            raise SvcError(f"Service {self.id} was started with an API key, which this object does not know: pass api_key=…, or set service.api_key.")
        return key

    def _proxy_headers(self, api_key: str | None) -> dict[str, str]:
        return proxy_headers(self._token, self._key(api_key))

    def _proxy_post(self, path: str, api_key: str | None, payload: dict[str, Any]) -> dict[str, Any]:
        """Arguments of `send()` for a POST to the service's `path` through the gateway."""
        return {"method": "POST", "path": f"/proxy/{quote(self.id, safe='')}{path}", "headers": self._proxy_headers(api_key), **payload}

    def _chat(self, prompt: Prompt, options: ChatOptions) -> dict[str, Any]:
        api_key, body = chat_request(self.record.model, prompt, options)
        return self._proxy_post(CHAT_PATH, api_key, {"json": body})

    def _transcribe(self, audio_path: str | os.PathLike[str], options: TranscribeOptions) -> dict[str, Any]:
        api_key, body = transcribe_request(audio_path, options)
        return self._proxy_post(TRANSCRIBE_PATH, api_key, {"json": body})

    def _upload(self, file: AudioFile, options: TranscribeOptions) -> dict[str, Any]:
        api_key, payload = upload_request(file, options)
        return self._proxy_post(UPLOAD_PATH, api_key, payload)

    @property
    def model_id(self) -> str:
        """What to pass as `model` to the client `openai()` gives: the model's repo id (the gateway's /v1 picks
        a HEALTHY service of it); `name` instead reaches exactly this service."""
        return self.record.model

    def _uses_v1(self, api_key: str | None) -> bool:
        """/v1 when the model has a repo id and no key of the service itself is given (an svc API key goes to /v1)."""
        if api_key is not None and not api_key.startswith(API_KEY_PREFIX):
            return False
        return "/" in self.record.model

    def _openai_arguments(self, api_key: str | None, options: dict[str, Any]) -> dict[str, Any]:
        if self._uses_v1(api_key):
            # One endpoint for every model: the gateway sends the service's own key; the caller shows an svc key or token.
            return {"base_url": f"{self._base_url}/v1", "api_key": api_key or self._token or "none", **options}
        headers = {**proxy_headers(self._token, None), **options.pop("default_headers", {})}
        # The client needs some key; a service started without one ignores it.
        return {"base_url": f"{self.proxy_url}/v1", "api_key": self._key(api_key) or "none", "default_headers": headers, **options}

    def _reached(self, wanted: ServiceStatus) -> bool:
        """Whether the service is `wanted` now; raises ServiceFailedError when it ended otherwise."""
        if self.status == wanted:
            return True
        if self.status in TERMINAL_STATUSES:
            raise ServiceFailedError(self.id, self.status, self.reason)
        return False

    def _ended(self) -> bool:
        return self.status in TERMINAL_STATUSES

    def _timed_out(self, wanted: ServiceStatus, timeout: float | None) -> SvcTimeoutError:
        return SvcTimeoutError(f"Service {self.id} did not become {wanted} within {timeout} s; it is {self.status}" + (f" ({self.reason})." if self.reason else "."), self.status)


def check_status(status: str) -> None:
    if status not in SERVICE_STATUSES:
        raise ValueError(f"Unknown status {status!r}; the statuses are {', '.join(SERVICE_STATUSES)}.")
