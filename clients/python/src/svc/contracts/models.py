"""The model registry (contracts/src/models.ts)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

ModelImage = Literal["text-generation", "speech-recognition"]


@dataclass(frozen=True, kw_only=True)
class ModelFacts:
    """What a model's own files say (config.json, the safetensors headers, GGUF metadata).

    A field the files do not give is None: unknown, never guessed.
    """

    architecture: str | None = None
    model_type: str | None = None
    #: Exact parameter count, from the weight headers.
    parameters: int | None = None
    #: Exact bytes of the weights, from the weight headers.
    weight_bytes: int | None = None
    dtype: str | None = None
    quantization: str | None = None
    layers: int | None = None
    hidden_size: int | None = None
    intermediate_size: int | None = None
    attention_heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    vocab_size: int | None = None
    context_length: int | None = None
    sliding_window: int | None = None
    experts: int | None = None
    experts_per_token: int | None = None
    kv_lora_rank: int | None = None
    qk_rope_head_dim: int | None = None
    #: The files the facts were read from, relative to the snapshot folder.
    files: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class Model:
    """One row of `svc model ls`: a (repo, revision, profile)."""

    repo: str
    revision: str
    profile: str
    image: ModelImage
    #: The snapshot folder on the profile's host.
    model_dir: str
    size_bytes: int
    #: Files of the repo are missing from the snapshot (it was downloaded with include/exclude patterns).
    partial: bool
    #: When the snapshot was first registered.
    seen_at: datetime
    #: What its files say; None when they say nothing.
    facts: ModelFacts | None = None


@dataclass(frozen=True, kw_only=True)
class ScanIssue:
    """Something found in a model folder that is not registered (or registered without all its facts), and why."""

    profile: str
    path: str
    repo: str | None = None
    revision: str | None = None
    reason: str
    #: The model was registered all the same: only its facts are incomplete.
    registered: bool | None = None


@dataclass(frozen=True, kw_only=True)
class ProfileRefresh:
    profile: str
    status: Literal["ok", "failed"]
    error: str | None = None
    scanned_dirs: list[str]
    added: int
    removed: int
    updated: int
    unchanged: int
    ssh_round_trips: int
    duration_ms: float


@dataclass(frozen=True, kw_only=True)
class RefreshReport:
    """What `svc model ls --refresh` found."""

    profiles: list[ProfileRefresh]
    issues: list[ScanIssue]
    removed_for_missing_profiles: int


@dataclass(frozen=True, kw_only=True)
class DownloadFailure:
    error: str
    message: str


@dataclass(frozen=True, kw_only=True)
class DownloadTask:
    """A `svc model add` download and its progress."""

    id: str
    repo: str
    requested_revision: str
    revision: str
    profile: str
    state: Literal["running", "completed", "failed"]
    bytes_done: int
    bytes_total: int
    bytes_resumed: int
    files_done: int
    files_total: int
    #: Files of the repo left out by the include/exclude patterns.
    files_skipped: int
    include: list[str]
    exclude: list[str]
    started_at: datetime
    finished_at: datetime | None = None
    error: DownloadFailure | None = None
    model: Model | None = None
