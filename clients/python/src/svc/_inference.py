"""Requests to a launched service's own endpoints (spec §4.2) through the gateway's /proxy/<id>/, sans I/O."""

from __future__ import annotations

import importlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, TypedDict, Union

import httpx

from ._decode import decode
from .contracts import ChatCompletion, ChatMessageParam, Transcription, TranscriptionFormat
from .errors import OpenAINotInstalledError

#: The user's message, or the whole list of {role, content} messages.
Prompt = Union[str, Sequence[ChatMessageParam]]
#: A path on this machine, the bytes, or an open binary file.
AudioFile = Union[str, "os.PathLike[str]", bytes, IO[bytes]]

CHAT_PATH = "/v1/chat/completions"
TRANSCRIBE_PATH = "/transcribe"
UPLOAD_PATH = "/v1/audio/transcriptions"


class ChatOptions(TypedDict, total=False):
    """Keyword arguments of `chat()`. Other keys go into the request as they are."""

    #: A system message put before the prompt.
    system: str
    #: Cap on generated tokens (max_completion_tokens).
    max_tokens: int
    temperature: float
    top_p: float
    stop: str | list[str]
    seed: int
    #: The service's API key, when the Service object does not know it.
    api_key: str


class TranscribeOptions(TypedDict, total=False):
    """Keyword arguments of `transcribe()` and `transcribe_file()`."""

    #: `text` (no segments), `json` (default: with segments) or `verbose_json`.
    response_format: TranscriptionFormat
    #: Two- or three-letter language code.
    language: str
    prompt: str
    temperature: float
    api_key: str


def chat_request(model: str, prompt: Prompt, options: ChatOptions) -> tuple[str | None, dict[str, Any]]:
    """(API key, body) of a chat completion request."""
    rest: dict[str, Any] = dict(options)
    api_key, system, max_tokens = rest.pop("api_key", None), rest.pop("system", None), rest.pop("max_tokens", None)
    messages: list[Any] = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else [dict(message) for message in prompt]
    if system is not None:
        messages.insert(0, {"role": "system", "content": system})
    if max_tokens is not None:
        rest["max_completion_tokens"] = max_tokens
    return api_key, {"model": model, "messages": messages, **rest}


def chat_answer(response: httpx.Response) -> ChatCompletion:
    return decode(ChatCompletion, response.json(), "chat completion")  # type: ignore[no-any-return]


def _transcribe_fields(options: TranscribeOptions) -> tuple[str | None, dict[str, Any]]:
    fields: dict[str, Any] = {"response_format": "json", **options}
    return fields.pop("api_key", None), fields


def transcribe_request(audio_path: str | os.PathLike[str], options: TranscribeOptions) -> tuple[str | None, dict[str, Any]]:
    """(API key, body) of POST /transcribe: a file in the service's input folder."""
    api_key, fields = _transcribe_fields(options)
    return api_key, {"audio_path": os.fspath(audio_path), **fields}


def upload_request(file: AudioFile, options: TranscribeOptions) -> tuple[str | None, dict[str, Any]]:
    """(API key, httpx arguments) of an upload to POST /v1/audio/transcriptions."""
    api_key, fields = _transcribe_fields(options)
    if isinstance(file, (str, os.PathLike)):
        content: Any = (Path(file).name, Path(file).read_bytes())
    elif isinstance(file, bytes):
        content = ("audio.wav", file)
    else:
        content = (Path(getattr(file, "name", "audio.wav")).name, file)
    return api_key, {"data": {key: str(value) for key, value in fields.items()}, "files": {"file": content}}


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
