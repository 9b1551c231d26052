"""Leaving a `with` block stops what it ran, also on an exception; a 404 or 409 means it had ended already."""

from __future__ import annotations

from types import TracebackType
from typing import TYPE_CHECKING

from .errors import SvcApiError

if TYPE_CHECKING:
    from typing_extensions import Self  # type checkers only: the annotations are never evaluated


def ended_already(refused: SvcApiError) -> bool:
    """Whether `stop()` was refused because there is nothing left to stop (404: removed; 409: it had ended)."""
    return refused.status in (404, 409)


class StopOnExit:
    """`with …:` support for an object with a blocking `stop()`."""

    def stop(self) -> object:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        try:
            self.stop()
        except SvcApiError as refused:
            if not ended_already(refused):
                raise
