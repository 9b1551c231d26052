"""`AsyncService`: one inference service, driven from asyncio. The methods of `Service`, awaited."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncGenerator, Callable
from types import TracebackType
from typing import Any

from . import _api as api
from ._http import AsyncHttp
from ._inference import AudioFile, Prompt, chat_answer, chat_body, import_openai, transcribe_body, transcription_answer, upload_file, upload_form
from ._inference import CHAT_PATH, TRANSCRIBE_PATH, UPLOAD_PATH
from ._service_base import STOP_TIMEOUT, WAIT_INTERVAL, ServiceBase, check_status
from .contracts import ChatCompletion, RunResponse, ServiceRecord, ServiceStatus, Transcription, TranscriptionFormat
from .errors import SvcApiError


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

    async def rm(self, force: bool = False) -> None:
        self.record = await self._http.call(api.remove_service(self.id, force))

    async def chat(
        self,
        prompt: Prompt,
        *,
        system: str | None = None,
        max_tokens: int | None = None,
        temperature: float | None = None,
        api_key: str | None = None,
        **extra: Any,
    ) -> ChatCompletion:
        """See `Service.chat`."""
        body = chat_body(prompt, self.record.model, system, max_tokens, temperature, extra)
        return chat_answer(await self._http.send("POST", self._proxy_path(CHAT_PATH), headers=self._proxy_headers(api_key), json=body))

    async def transcribe(
        self,
        audio_path: str | os.PathLike[str],
        *,
        response_format: TranscriptionFormat = "json",
        language: str | None = None,
        prompt: str | None = None,
        temperature: float | None = None,
        api_key: str | None = None,
    ) -> Transcription:
        """See `Service.transcribe`."""
        body = transcribe_body(audio_path, response_format, language, prompt, temperature)
        return transcription_answer(await self._http.send("POST", self._proxy_path(TRANSCRIBE_PATH), headers=self._proxy_headers(api_key), json=body))

    async def transcribe_file(
        self,
        file: AudioFile,
        *,
        response_format: TranscriptionFormat = "json",
        language: str | None = None,
        prompt: str | None = None,
        temperature: float | None = None,
        api_key: str | None = None,
    ) -> Transcription:
        """See `Service.transcribe_file`."""
        form = upload_form(response_format, language, prompt, temperature)
        files = {"file": upload_file(file)}
        return transcription_answer(await self._http.send("POST", self._proxy_path(UPLOAD_PATH), headers=self._proxy_headers(api_key), data=form, files=files))

    def openai(self, api_key: str | None = None, **options: Any) -> Any:
        """An `openai.AsyncOpenAI` client for this service; see `Service.openai`."""
        return import_openai().AsyncOpenAI(**self._openai_arguments(api_key, options))

    async def __aenter__(self) -> AsyncService:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        try:
            await self.stop()
        except SvcApiError as refused:
            if refused.status not in (404, 409):
                raise
