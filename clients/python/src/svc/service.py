"""`Service`: one inference service, driven from blocking code (scripts, notebooks)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from . import _api as api
from ._http import SyncHttp
from ._inference import AudioFile, ChatOptions, Prompt, TranscribeOptions, chat_answer, import_openai, transcription_answer
from ._record_view import STOP_TIMEOUT, WAIT_INTERVAL
from ._service_base import ServiceBase, check_status
from ._stop_on_exit import StopOnExit
from .contracts import ChatCompletion, RunResponse, ServiceRecord, ServiceStatus, Transcription

if TYPE_CHECKING:
    from typing_extensions import Unpack  # type checkers only: the annotations are never evaluated


class Service(StopOnExit, ServiceBase):
    """A launched inference service. `with svc.run(…) as s:` stops it when the block ends, also on an exception."""

    def __init__(self, http: SyncHttp, record: ServiceRecord, api_key: str | None = None, run: RunResponse | None = None) -> None:
        super().__init__(http.base_url, http.token, record, api_key, run)
        self._http = http

    def refresh(self) -> Service:
        """Reads the service's record again (status, port, reason, …)."""
        self.record = self._http.call(api.get_service(self.id))
        return self

    def wait(self, status: ServiceStatus = "HEALTHY", timeout: float | None = None, interval: float = WAIT_INTERVAL) -> Service:
        """Waits until the service is `status`.

        Raises ServiceFailedError (with the reason, e.g. the exit code and last output) when it ends
        as FAILED, STOPPED or TIMEOUT instead, and SvcTimeoutError after `timeout` seconds (None: no limit).
        """
        check_status(status)
        return self._poll(lambda: self._reached(status), status, timeout, interval)

    def _poll(self, done: Callable[[], bool], wanted: ServiceStatus, timeout: float | None, interval: float) -> Service:
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            self.refresh()
            if done():
                return self
            if deadline is not None and time.monotonic() >= deadline:
                raise self._timed_out(wanted, timeout)
            time.sleep(interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic())))

    def logs(self, tail: int | None = None) -> str:
        """The service's output so far (the last `tail` lines)."""
        return self._http.call(api.service_logs(self.id, tail=tail))

    def follow_logs(self, tail: int | None = None) -> Generator[str, None, None]:
        """The service's output line by line, staying open for new lines (like `svc logs -f`); `close()` it when done."""
        return self._http.lines(api.service_logs(self.id, follow=True, tail=tail))

    def stop(self, wait: bool = True) -> Service:
        """Stops the service and frees its resources; the record stays.

        Returns once the engine reports it ended (STOPPED), unless `wait=False`.
        """
        self.record = self._http.call(api.stop_service(self.id))
        return self._poll(self._ended, "STOPPED", STOP_TIMEOUT, WAIT_INTERVAL) if wait else self

    def restart(self) -> Service:
        """Starts a stopped, failed or timed-out service again, with the same id and options."""
        self.record = self._http.call(api.restart_service(self.id))
        return self

    def add_adapter(self, adapter: str) -> Service:
        """Serves one more LoRA adapter of the registry on the running service, without a restart (like `svc adapter add`)."""
        self.record = self._http.call(api.add_service_adapter(self.id, adapter))
        return self

    def remove_adapter(self, adapter: str) -> Service:
        """Stops serving a LoRA adapter, at once while it runs (like `svc adapter rm`)."""
        self.record = self._http.call(api.remove_service_adapter(self.id, adapter))
        return self

    def rm(self, force: bool = False) -> None:
        """Deletes the service's record; a live service needs `force=True` (it is stopped first)."""
        self.record = self._http.call(api.remove_service(self.id, force))

    def chat(self, prompt: Prompt, **options: Unpack[ChatOptions]) -> ChatCompletion:
        """One chat completion: `prompt` is the user's message (or a list of {role, content} messages).

        Options: `system`, `max_tokens` (max_completion_tokens), `temperature`, `top_p`, `stop`, `seed`,
        `api_key`; others go into the request as they are. The answer's text is `.text`.
        """
        return chat_answer(self._http.send(**self._chat(prompt, options)))

    def transcribe(self, audio_path: str | os.PathLike[str], **options: Unpack[TranscribeOptions]) -> Transcription:
        """Transcribes a file on the service host, in its input folder (`input_dir` of `run()`).

        Options: `response_format` (`text`, `json`, `verbose_json`), `language`, `prompt`, `temperature`, `api_key`.
        """
        return transcription_answer(self._http.send(**self._transcribe(audio_path, options)))

    def transcribe_file(self, file: AudioFile, **options: Unpack[TranscribeOptions]) -> Transcription:
        """Uploads audio from this machine (a path, bytes or an open binary file) and transcribes it; options as `transcribe`."""
        return transcription_answer(self._http.send(**self._upload(file, options)))

    def openai(self, api_key: str | None = None, **options: Any) -> Any:
        """An `openai.OpenAI` client at the gateway's one endpoint for every model, `<app>/v1`, with the svc
        token (or `api_key`, when it is a key from `create_key`): pass `model=service.model_id` (the repo id)
        or `model=service.name`. Given the service's own API key instead, or for a model without a repo id,
        it is `<app>/proxy/<id>/v1` with that key, as before.

        Needs the `openai` package (OpenAINotInstalledError otherwise); `options` go to its constructor.
        """
        return import_openai().OpenAI(**self._openai_arguments(api_key, options))
