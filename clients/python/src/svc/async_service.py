"""`AsyncService`: one inference service, driven from asyncio. The methods of `Service`, awaited."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncGenerator, Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any

from . import _api as api
from ._http import AsyncHttp
from ._inference import AudioFile, ChatOptions, Prompt, TranscribeOptions, chat_answer, import_openai, transcription_answer
from ._record_view import STOP_TIMEOUT, WAIT_INTERVAL
from ._service_base import ServiceBase, check_status
from ._stop_on_exit import ended_already
from .contracts import ChatCompletion, RunResponse, ServiceRecord, ServiceStatus, Transcription
from .errors import SvcApiError

if TYPE_CHECKING:
    from typing_extensions import Unpack  # type checkers only: the annotations are never evaluated


class AsyncService(ServiceBase):
    """A launched inference service. `async with await svc.run(…) as s:` stops it when the block ends, also on an exception."""

    def __init__(self, http: AsyncHttp, record: ServiceRecord, api_key: str | None = None, run: RunResponse | None = None) -> None:
        super().__init__(http.base_url, http.token, record, api_key, run)
        self._http = http

    async def refresh(self) -> AsyncService:
        self.record = await self._http.call(api.get_service(self.id))
        return self

    async def wait(self, status: ServiceStatus = "HEALTHY", timeout: float | None = None, interval: float = WAIT_INTERVAL) -> AsyncService:
        """See `Service.wait`."""
        check_status(status)
        return await self._poll(lambda: self._reached(status), status, timeout, interval)

    async def _poll(self, done: Callable[[], bool], wanted: ServiceStatus, timeout: float | None, interval: float) -> AsyncService:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            await self.refresh()
            if done():
                return self
            if deadline is not None and time.monotonic() >= deadline:
                raise self._timed_out(wanted, timeout)
            await asyncio.sleep(interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic())))

    async def logs(self, tail: int | None = None) -> str:
        return await self._http.call(api.service_logs(self.id, tail=tail))

    def follow_logs(self, tail: int | None = None) -> AsyncGenerator[str, None]:
        return self._http.lines(api.service_logs(self.id, follow=True, tail=tail))

    async def stop(self, wait: bool = True) -> AsyncService:
        """See `Service.stop`."""
        self.record = await self._http.call(api.stop_service(self.id))
        return await self._poll(self._ended, "STOPPED", STOP_TIMEOUT, WAIT_INTERVAL) if wait else self

    async def restart(self) -> AsyncService:
        self.record = await self._http.call(api.restart_service(self.id))
        return self

    async def add_adapter(self, adapter: str) -> AsyncService:
        """See `Service.add_adapter`."""
        self.record = await self._http.call(api.add_service_adapter(self.id, adapter))
        return self

    async def remove_adapter(self, adapter: str) -> AsyncService:
        """See `Service.remove_adapter`."""
        self.record = await self._http.call(api.remove_service_adapter(self.id, adapter))
        return self

    async def rm(self, force: bool = False) -> None:
        self.record = await self._http.call(api.remove_service(self.id, force))

    async def chat(self, prompt: Prompt, **options: Unpack[ChatOptions]) -> ChatCompletion:
        """See `Service.chat`."""
        return chat_answer(await self._http.send(**self._chat(prompt, options)))

    async def transcribe(self, audio_path: str | os.PathLike[str], **options: Unpack[TranscribeOptions]) -> Transcription:
        """See `Service.transcribe`."""
        return transcription_answer(await self._http.send(**self._transcribe(audio_path, options)))

    async def transcribe_file(self, file: AudioFile, **options: Unpack[TranscribeOptions]) -> Transcription:
        """See `Service.transcribe_file`."""
        return transcription_answer(await self._http.send(**self._upload(file, options)))

    def openai(self, api_key: str | None = None, **options: Any) -> Any:
        """An `openai.AsyncOpenAI` client for this service; see `Service.openai`."""
        return import_openai().AsyncOpenAI(**self._openai_arguments(api_key, options))

    async def __aenter__(self) -> AsyncService:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        try:
            await self.stop()
        except SvcApiError as refused:
            if not ended_already(refused):
                raise
