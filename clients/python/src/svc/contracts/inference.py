"""Answers of a launched service's own endpoints (spec §4.2; runtimes/), read through /proxy/<id>/."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypedDict


class ChatMessageParam(TypedDict):
    role: str
    content: str


@dataclass(frozen=True, kw_only=True)
class ChatMessage:
    role: str
    content: str | None
    reasoning_content: str | None = None
    tool_calls: list[Any] | None = None


@dataclass(frozen=True, kw_only=True)
class ChatChoice:
    index: int
    message: ChatMessage
    #: `length` when the token cap was hit, else `stop`.
    finish_reason: str | None
    logprobs: Any = None


@dataclass(frozen=True, kw_only=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int


@dataclass(frozen=True, kw_only=True)
class ChatCompletion:
    """`POST /v1/chat/completions` answered in the common chat-completion shape."""

    id: str
    object: str
    created: int
    model: str
    choices: list[ChatChoice]
    usage: Usage | None = None

    @property
    def text(self) -> str:
        """The first choice's content ("" when it has none)."""
        return (self.choices[0].message.content or "") if self.choices else ""


@dataclass(frozen=True, kw_only=True)
class Segment:
    start: float
    end: float
    text: str
    id: int | None = None


TranscriptionFormat = Literal["text", "json", "verbose_json"]


@dataclass(frozen=True, kw_only=True)
class Transcription:
    """`POST /transcribe` (a file on the service host) or an uploaded file's transcript."""

    text: str
    #: The path as given to `transcribe()`; None for an upload.
    audio_path: str | None = None
    task: str = "transcribe"
    #: None with response_format `text`.
    segments: list[Segment] | None = None
    language: str | None = None
    duration: float | None = None
