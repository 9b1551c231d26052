"""The model registry (contracts/src/models.ts)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

ModelImage = Literal["text-generation", "speech-recognition"]
#: model: served on its own; adapter: a LoRA adapter, served on a base model.
ModelKind = Literal["model", "adapter"]


@dataclass(frozen=True, kw_only=True)
class VisionFacts:
    """A vision-language model's vision tower (config.json's vision_config): it also takes images, on vLLM and SGLang."""

    #: vision_config.model_type, where the config names one.
    model_type: str | None = None
    #: The vision tower's and its projector's parameters, from the weight headers.
    parameters: int | None = None
    #: Their bytes, part of the model's weight_bytes.
    weight_bytes: int | None = None


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
    #: safetensors or gguf: the engines that can load the weights differ.
    weight_format: Literal["safetensors", "gguf"] | None = None
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
    #: Set for a vision-language model.
    vision: VisionFacts | None = None
    #: The files the facts were read from, relative to the snapshot folder.
    files: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class AdapterModule:
    """A module a LoRA adapter changes, with the shapes of its A and B tensors."""

    #: As the adapter's tensors name it, without layer numbers: self_attn.q_proj (PEFT), attn_q (GGUF).
    name: str
    in_features: int
    out_features: int
    rank: int
    #: How many layers have it (0: outside the layers, such as lm_head).
    layers: int


@dataclass(frozen=True, kw_only=True)
class AdapterFacts:
    """What a LoRA adapter's files say (adapter_config.json and its safetensors header, or its GGUF metadata)."""

    kind: Literal["peft", "gguf"]
    #: The adapter's weights, relative to the snapshot folder.
    file: str
    #: The base model's repo id as the adapter names it.
    base: str | None = None
    #: What it names as its base when that is not a repo id (a local path).
    base_named: str | None = None
    rank: int | None = None
    alpha: float | None = None
    target_modules: list[str] | None = None
    modules: list[AdapterModule] | None = None
    #: Its tensors reach this many layers: the base needs at least as many.
    layers: int | None = None
    task_type: str | None = None


@dataclass(frozen=True, kw_only=True)
class AdapterBase:
    """How an adapter's base stands in the registry of the adapter's profile."""

    state: Literal["registered", "not_registered", "does_not_fit", "not_named"]
    repo: str | None = None
    #: Why the registered base does not fit (does_not_fit).
    problems: list[str]
    #: The state in a sentence, with what to do when something is missing.
    message: str


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
    #: Set when the snapshot is a LoRA adapter (served on a base model, never on its own).
    adapter: AdapterFacts | None = None
    #: An adapter's base as the registry has it for the same profile.
    adapter_base: AdapterBase | None = None


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
