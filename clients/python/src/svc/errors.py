"""The exceptions of the svc Python API. Every one is an `SvcError`."""

from __future__ import annotations

from typing import Any


class SvcError(Exception):
    """Base class of every error this package raises."""


class SvcConfigError(SvcError, ValueError):
    """A setting (SVC_HOST, SVC_PORT, SVC_HOME_DIR, SVC_AUTH_TOKEN, …) has a value svc does not accept."""


class SvcUnreachableError(SvcError, ConnectionError):
    """The application did not answer at all: not started, or started with other SVC_HOST/SVC_PORT settings."""

    def __init__(self, url: str, cause: BaseException | None = None) -> None:
        self.url = url
        super().__init__(
            f"Cannot reach the svc application at {url}. Is `svc start` running? This client finds it through "
            "SVC_HOST and SVC_PORT (defaults localhost:8000), which must match the settings the application was started with."
            + (f" ({cause})" if cause else "")
        )


class SvcApiError(SvcError):
    """The API (or a service behind /proxy) answered with an error status.

    `status` is the HTTP status, `error` the API's stable code (e.g. `not_found`) and `message`
    what went wrong and what to do about it.
    """

    def __init__(self, status: int, error: str, message: str, details: Any = None) -> None:
        self.status = status
        self.error = error
        self.message = message
        self.details = details
        super().__init__(f"{message} (HTTP {status}, {error})")


class ServiceFailedError(SvcError):
    """A service ended (FAILED, STOPPED or TIMEOUT) while `wait()` waited for another status."""

    def __init__(self, service_id: str, status: str, reason: str | None) -> None:
        self.service_id = service_id
        self.status = status
        self.reason = reason
        super().__init__(f"Service {service_id} is {status}" + (f": {reason}" if reason else "."))


class SvcTimeoutError(SvcError, TimeoutError):
    """An answer, or a status awaited by `wait()`, did not come in time. `status` is the last status seen, if any."""

    def __init__(self, message: str, status: str | None = None) -> None:
        self.status = status
        super().__init__(message)


class OpenAINotInstalledError(SvcError, ImportError):
    """`Service.openai()` was called but the `openai` package cannot be imported."""
