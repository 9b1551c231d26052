"""What `Service`, `AsyncService` and `Deployment` share: the API's record as last seen, and how often to ask again."""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .contracts import RunResponse

#: How often `wait()` asks for the record again, in seconds.
WAIT_INTERVAL = 0.5
#: How long `stop()` waits for the engine to report the service (or every replica) ended.
STOP_TIMEOUT = 60.0


class _Record(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


RecordT = TypeVar("RecordT", bound=_Record)


class RecordView(Generic[RecordT]):
    """An object of the API, as last seen (`refresh()` updates it)."""

    def __init__(self, record: RecordT, run: RunResponse | None = None) -> None:
        #: Everything the API said at the last refresh.
        self.record: RecordT = record
        #: The answer of `run()` (revision chosen, warnings, start-up script); None otherwise.
        self.run_response = run

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def name(self) -> str:
        return self.record.name
