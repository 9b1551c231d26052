"""Requests to a launched service's own endpoints (spec §4.2) through the gateway's /proxy/<id>/, sans I/O."""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Union

import httpx

from ._decode import decode
from .contracts import ChatCompletion, ChatMessageParam, Transcription, TranscriptionFormat
from .errors import OpenAINotInstalledError

Prompt = Union[str, Sequence[ChatMessageParam]]
AudioFile = Union[str, "os.PathLike[str]", bytes, IO[bytes]]

CHAT_PATH = "/v1/chat/completions"
TRANSCRIBE_PATH = "/transcribe"
UPLOAD_PATH = "/v1/audio/transcriptions"


def _given(**values: Any) -> dict[str, Any]:
    return {key: value for key, value in values.items() if value is not None}


def chat_body(prompt: Prompt, model: str, system: str | None, max_tokens: int | None, temperature: float | None, extra: dict[str, Any]) -> dict[str, Any]:
    """A chat completion request: `prompt` is the user's message, or the whole list of messages."""
    if isinstance(prompt, str):
        messages: list[Any] = [{"role": "user", "content": prompt}]
    else:
        messages = [dict(message) for message in prompt]
    if system is not None:
        messages.insert(0, {"role": "system", "content": system})
    return {"model": model, "messages": messages, **_given(max_completion_tokens=max_tokens, temperature=temperature), **extra}


def chat_answer(response: httpx.Response) -> ChatCompletion:
    return decode(ChatCompletion, response.json(), "chat completion")  # type: ignore[no-any-return]


def transcribe_body(audio_path: str | os.PathLike[str], response_format: TranscriptionFormat, language: str | None, prompt: str | None, temperature: float | None) -> dict[str, Any]:
    return {"audio_path": os.fspath(audio_path), "response_format": response_format, **_given(language=language, prompt=prompt, temperature=temperature)}


def upload_form(response_format: TranscriptionFormat, language: str | None, prompt: str | None, temperature: float | None) -> dict[str, str]:
    return {key: str(value) for key, value in _given(response_format=response_format, language=language, prompt=prompt, temperature=temperature).items()}


def upload_file(file: AudioFile) -> tuple[str, Any]:
    """(file name, content) of an upload: a path is read here, bytes and open files are sent as they are."""
    if isinstance(file, (str, os.PathLike)):
        path = Path(file)
        return path.name, path.read_bytes()
    if isinstance(file, bytes):
        return "audio.wav", file
    return Path(getattr(file, "name", "audio.wav")).name, file


def transcription_answer(response: httpx.Response) -> Transcription:
    if response.headers.get("content-type", "").startswith("text/plain"):
        return Transcription(text=response.text.strip())
    return decode(Transcription, response.json(), "transcription")  # type: ignore[no-any-return]


def import_openai() -> Any:
    try:
        return importlib.import_module("openai")
    except ImportError as error:
        raise OpenAINotInstalledError(
            "Service.openai() needs the `openai` package, which cannot be imported here: install it (pip install openai). "
            "Without it, service.chat(…) and service.transcribe(…) reach the service too."
        ) from error
