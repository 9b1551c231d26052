"""The keyword arguments `run()` and `run_batch()` share: which revision, profile and name, and the job options."""

from __future__ import annotations

from typing import TypedDict


class JobKeywords(TypedDict, total=False):
    """Job options (Slurm's sbatch; the Docker engine honours mem and gres): the request's `job`."""

    #: Duration: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS.
    time: str
    ntasks_per_node: int
    #: Memory per node in GB.
    mem: int
    #: GPU devices per node.
    gres: int
    #: Nodes of the job: a GPU service across them (slurm profiles).
    nodes: int
    partition: str
    constraint: str
    #: Slurm account, QOS, reservation (default: the profile's account and qos).
    account: str
    qos: str
    reservation: str
    #: Nodes not to run on / to run on (Slurm hostlists such as "node[01-04]").
    exclude: str
    nodelist: str


class WorkloadKeywords(JobKeywords, total=False):
    """What every launch takes besides its task and model."""

    #: Model revision (commit id); default: the most recent local revision.
    revision: str
    #: Profile to use; default: `default`.
    profile: str
    #: Its name; default: a generated one.
    name: str


#: The keywords that go into the request's `job`, in their order.
JOB_KEYS: tuple[str, ...] = tuple(JobKeywords.__annotations__)
#: The text-generation runtime options (the request's `textGeneration`); each launch types them itself.
TEXT_GENERATION_KEYS: tuple[str, ...] = ("disable_custom_kernels", "sharded", "max_input_length", "max_total_tokens")
