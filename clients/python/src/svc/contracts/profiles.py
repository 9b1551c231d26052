"""Profiles (contracts/src/profiles.ts): where and how services run. Field names are those of profiles.cfg."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict, Union


@dataclass(frozen=True, kw_only=True)
class LocalProfile:
    name: str
    schema: Literal["local"]
    home_dir: str
    cache_dir: str
    #: Default idle_stop of this profile's services (e.g. "30m").
    idle_stop: str | None = None
    #: The GPU engine of this profile's text-generation services when `run()` gives none (default vllm).
    engine: Literal["vllm", "sglang"] | None = None
    #: Memory of one GPU for types svc's GPU table does not know: "80G", or per type "a100:80G, mi50:32G".
    gpu_memory: str | None = None


@dataclass(frozen=True, kw_only=True)
class SlurmProfile:
    name: str
    schema: Literal["slurm"]
    host: str
    user: str
    home: str
    cache: str
    port: int | None = None
    identity_file: str | None = None
    runtime: Literal["bare", "apptainer"] | None = None
    #: Default idle_stop of this profile's services (e.g. "30m").
    idle_stop: str | None = None
    #: Defaults of this profile's jobs when `run()` gives none (profiles.cfg's account, partition, qos).
    account: str | None = None
    partition: str | None = None
    qos: str | None = None
    #: The GPU engine of this profile's text-generation services when `run()` gives none (default vllm).
    engine: Literal["vllm", "sglang"] | None = None
    #: Memory of one GPU for types svc's GPU table does not know: "80G", or per type "a100:80G, mi50:32G".
    gpu_memory: str | None = None


Profile = Union[LocalProfile, SlurmProfile]


class ProfileAttributes(TypedDict, total=False):
    """Attributes of `create_profile` / `update_profile`: those of the profile's schema."""

    home_dir: str
    cache_dir: str
    host: str
    user: str
    home: str
    cache: str
    port: int
    identity_file: str
    runtime: Literal["bare", "apptainer"]
    #: Default idle_stop of the profile's services: no request for this long stops one (e.g. "30m").
    idle_stop: str
    #: slurm: defaults of the profile's jobs; an empty string removes one.
    account: str
    partition: str
    qos: str
    #: The GPU engine of the profile's text-generation services (vllm, sglang); an empty string removes it.
    engine: str
    #: Memory of one GPU where svc's GPU table does not know the type ("80G", "a100:80G, mi50:32G"); "" removes it.
    gpu_memory: str
    #: slurm: the fingerprint (SHA256:…) of the host's key, checked beforehand, for a host not in
    #: known_hosts yet (SvcApiError ssh_host_key_unknown carries it); not stored in the profile.
    host_key_fingerprint: str


@dataclass(frozen=True, kw_only=True)
class HostKeyNotice:
    #: The name the key is recorded under, e.g. `[host]:2222`.
    name: str
    type: str
    fingerprint: str
    #: `added`: the host was new and its key was recorded in known_hosts now.
    status: Literal["known", "added"]
    file: str


@dataclass(frozen=True, kw_only=True)
class ProfileChange:
    """A profile as stored after a create or update, and what the checks did."""

    profile: Profile
    notices: list[str]
    host_key: HostKeyNotice | None = None


@dataclass(frozen=True, kw_only=True)
class GpuPartition:
    """One partition a profile's services can get (contracts/src/cluster-gpus.ts); a local profile has one, `local`."""

    name: str
    default: bool
    nodes: int
    #: GPUs per node (the smallest count among its GPU nodes) and their GRES type (None: untyped, or none).
    gpus_per_node: int
    gpu_type: str | None
    #: Memory of one GPU, and where the figure comes from: the GPU table, the profile's gpu_memory, the device, or unknown.
    gpu_memory_bytes: int | None
    gpu_memory_source: Literal["table", "profile", "device", "unknown"]
    cpus_per_node: int
    memory_bytes_per_node: int
    #: MaxTime as Slurm writes it (None or "UNLIMITED": none).
    time_limit: str | None
    #: Where nodes differ and the smallest figures are shown, or a GPU type's size is assumed.
    note: str | None = None


@dataclass(frozen=True, kw_only=True)
class ClusterGpus:
    """A profile's partitions and GPUs, as last read (`svc profile show`)."""

    profile: str
    source: Literal["slurm", "docker"]
    partitions: list[GpuPartition]
    checked_at: str
