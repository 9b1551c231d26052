"""`Svc`: the svc application's REST API from blocking code (scripts, notebooks)."""

from __future__ import annotations

import time
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, overload

import httpx

from . import _api as api
from ._client_base import ClientBase
from ._http import NEXT_CURSOR_HEADER, SyncHttp
from .contracts import AppInfo, ClusterGpus, DownloadTask, HealthReport, ImageBuild, Model, ModelImage, ModelKind, Profile, ProfileAttributes, ProfileChange
from .contracts import ApiKey, CreatedKey, OutsideEndpoint, QueueReport, UsageGrouping, UsageHourlyWindow, UsageReport
from .contracts import FoundEngineVersion, RefreshReport, RunResponse, RuntimeImage, RuntimeInstall, RuntimeList, RuntimeRemoval, ServiceStatus, Task
from .batch_options import BatchOptions
from .contracts import FINISHED_BATCH_STATUSES, BatchDetails, BatchRecord, BatchRunResponse, BatchStatus, BatchTask
from .run_options import RunOptions
from .service import Service
from .deployment import Deployment

if TYPE_CHECKING:
    from typing_extensions import Unpack  # type checkers only: the annotations are never evaluated

    from .run_options import DeploymentRunOptions
    from .key_options import KeyChanges, KeyPolicy
    from .scaling_options import ScaleOptions


class Svc(ClientBase[SyncHttp]):
    """The svc application: profiles, models and inference services.

    `Svc()` finds the application and its token like the `svc` CLI (SVC_HOST, SVC_PORT,
    SVC_HOME_DIR, SVC_AUTH_TOKEN, the token file); `Svc("http://host:8000", token=…)` names them.
    Use it as a context manager, or call `close()`, to release its connections.
    """

    def _connect(self, timeout: httpx.Timeout | float | None) -> SyncHttp:
        return SyncHttp(self.url, self.token, timeout)

    # Services

    @overload
    def run(self, task: Task, model: str, **options: Unpack[DeploymentRunOptions]) -> Deployment: ...
    @overload
    def run(self, task: Task, model: str, **options: Unpack[RunOptions]) -> Service: ...

    def run(self, task: Task, model: str, **options: Any) -> Service | Deployment:
        """Starts a service (`svc run`), e.g. `run("text-generation", "owner/name", time="01:00:00", gres=1)`.

        Returns at once, usually before the service is HEALTHY: `wait()` on the result. With `replicas="MIN..MAX"`
        (and `target_inflight`, `scale_up_after`, `scale_down_after`, `routing`) it starts a deployment of
        replicas that grows and shrinks with the load, and returns the `Deployment`.
        """
        result = self._http.call(api.run_service(task, model, options))  # type: ignore[arg-type]
        if result.deployment is not None:
            return Deployment(self._http, result.deployment, result)
        assert result.service is not None
        return Service(self._http, result.service, options.get("api_key"), result)

    def dry_run(self, task: Task, model: str, **options: Unpack[RunOptions]) -> RunResponse:
        """What `run()` would do: the revision, warnings and the start-up script (`.script`), starting nothing."""
        return self._http.call(api.run_service(task, model, options, dry_run=True))

    def service(self, ref: str, api_key: str | None = None) -> Service:
        """One service, by id, unique id prefix or name (its API key, when it has one, for chat and openai())."""
        return Service(self._http, self._http.call(api.get_service(ref)), api_key)

    def services(
        self, status: ServiceStatus | None = None, *, all: bool = False, id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> list[Service]:
        """`svc ls`: live services, then those that ended in the last 24 hours; those with `status`, or every
        one ever run with `all=True`; `id`: ids starting with it. One page of `limit` (default 100): see `services_page`."""
        return self.services_page(status, all=all, id=id, limit=limit, cursor=cursor)[0]

    def services_page(
        self, status: ServiceStatus | None = None, *, all: bool = False, id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> tuple[list[Service], str | None]:
        """One page of `services()` and the `cursor` of the next page (None on the last one)."""
        records, headers = self._http.call_with_headers(api.list_services(status, id, all, limit, cursor))
        return [Service(self._http, record) for record in records], headers.get(NEXT_CURSOR_HEADER)

    # Deployments (replicas that scale with the load)

    def deployments(self, *, all: bool = False) -> list[Deployment]:
        """Active deployments and those stopped in the last 24 hours; every one with `all=True`."""
        return [Deployment(self._http, record) for record in self._http.call(api.list_deployments(all))]

    def deployment(self, ref: str) -> Deployment:
        """One deployment, by id, unique id prefix or name, with its replicas and events (`.record`)."""
        return Deployment(self._http, self._http.call(api.get_deployment(ref)))

    def scale(self, ref: str, replicas: str | int | None = None, **options: Unpack[ScaleOptions]) -> Deployment:
        """`svc scale`: new bounds, e.g. `scale("chat", "1..4", routing="prefix")`; a stopped deployment becomes ACTIVE again."""
        return Deployment(self._http, self._http.call(api.scale_deployment(ref, {**options, "replicas": replicas} if replicas is not None else options)))

    # Models

    def models(
        self, refresh: bool = False, *, profile: str | None = None, image: ModelImage | None = None, repo: str | None = None, kind: ModelKind | None = None
    ) -> list[Model]:
        """The model registry (`svc model ls`); `refresh=True` rescans the model folders first. `kind="adapter"`: only LoRA adapters, each with its base."""
        if refresh:
            self.refresh_models(profile)
        return self._http.call(api.list_models(profile, image, repo, kind))

    def refresh_models(self, profile: str | None = None) -> RefreshReport:
        """Rescans the model folders of `profile` (default: all) and reports what was found and not registered."""
        return self._http.call(api.refresh_models(profile))

    def download_model(
        self, repo: str, *, revision: str | None = None, profile: str | None = None, include: list[str] | None = None, exclude: list[str] | None = None
    ) -> DownloadTask:
        """Starts downloading a model (`svc model add`), only the files `include`/`exclude` select
        (huggingface-cli's glob patterns); `download(task.id)` tells its progress."""
        return self._http.call(api.start_download(repo, revision, profile, include, exclude))

    def download(self, id: str) -> DownloadTask:
        return self._http.call(api.get_download(id))

    def downloads(self) -> list[DownloadTask]:
        return self._http.call(api.list_downloads())

    # Profiles

    def profiles(self) -> list[Profile]:
        """Every profile in profiles.cfg (`svc profile ls`)."""
        return self._http.call(api.list_profiles())

    def profile(self, name: str = "default") -> Profile:
        return self._http.call(api.get_profile(name))

    def create_profile(self, name: str, schema: str, **attributes: Unpack[ProfileAttributes]) -> ProfileChange:
        """Checks and stores a profile, e.g. `create_profile("default", "local", home_dir=…, cache_dir=…)`."""
        return self._http.call(api.create_profile(name, schema, attributes))

    def update_profile(self, name: str = "default", **attributes: Unpack[ProfileAttributes]) -> ProfileChange:
        """Changes the given attributes; the others, the name and the schema stay."""
        return self._http.call(api.update_profile(name, attributes))

    def remove_profile(self, name: str) -> None:
        self._http.call(api.remove_profile(name))

    def profile_gpus(self, name: str = "default", refresh: bool = False) -> ClusterGpus:
        """The profile's partitions and GPUs as its last check read them (`svc profile show`); `refresh` reads them again."""
        return self._http.call(api.profile_gpus(name, refresh))

    # Batch jobs

    def run_batch(self, task: BatchTask, model: str, **options: Unpack[BatchOptions]) -> BatchRecord:
        """Starts a batch job (`svc batch run`), e.g. `run_batch("transcribe", "openai/whisper-tiny", input_dir=…, output_dir=…)`.

        Returns at once; `wait_batch(record.id)` waits until it ends.
        """
        result = self._http.call(api.run_batch(task, model, options))
        assert result.batch is not None
        return result.batch

    def dry_run_batch(self, task: BatchTask, model: str, **options: Unpack[BatchOptions]) -> BatchRunResponse:
        """What `run_batch()` would do: the revision, warnings and the job's start-up script, starting nothing."""
        return self._http.call(api.run_batch(task, model, options, dry_run=True))

    def batches(self, status: BatchStatus | None = None, *, all: bool = False) -> list[BatchRecord]:
        """Batch jobs with their progress (`svc batch ls`): live ones and those that ended in the last 24 hours; every one ever run with `all=True`."""
        return self._http.call(api.list_batches(status, all))

    def batch(self, ref: str) -> BatchDetails:
        """A batch job by id, unique id prefix or name, with each input's status and its failures."""
        return self._http.call(api.get_batch(ref))

    def batch_results(self, ref: str) -> str:
        """An openai job's results file as it is now (JSONL in OpenAI's batch output format)."""
        return self._http.call(api.batch_results(ref))

    def stop_batch(self, ref: str) -> BatchRecord:
        return self._http.call(api.stop_batch(ref))

    def resume_batch(self, ref: str, retry_failed: bool = False) -> BatchRecord:
        """Starts a stopped, failed or completed job again: inputs with an output are skipped; `retry_failed` runs failed ones again."""
        return self._http.call(api.resume_batch(ref, retry_failed))

    def remove_batch(self, ref: str, force: bool = False) -> BatchRecord:
        """Deletes the job's record (its outputs stay); `force` stops a live job first."""
        return self._http.call(api.remove_batch(ref, force))

    def wait_batch(self, ref: str, timeout: float | None = None, poll: float = 1.0) -> BatchDetails:
        """Waits until the job is STOPPED, COMPLETED or FAILED (TimeoutError after `timeout` seconds)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            details = self.batch(ref)
            if details.status in FINISHED_BATCH_STATUSES:
                return details
            if deadline is not None and time.monotonic() > deadline:
                raise TimeoutError(f"batch job {details.id} is still {details.status} after {timeout} s")
            time.sleep(poll)

    # The svc runtime on slurm profiles' clusters

    def runtimes(self, profile: str | None = None) -> RuntimeList:
        """The svc runtime versions on a slurm profile's cluster, and the one svc uses (`svc runtime ls`)."""
        return self._http.call(api.list_runtimes(profile))

    def engine_versions(self, profile: str | None = None) -> list[FoundEngineVersion]:
        """The vLLM and SGLang versions found where the profile runs them (`svc profile show`), read when missing or older than an hour."""
        return self._http.call(api.list_engine_versions(profile))

    def install_runtime(self, profile: str | None = None) -> RuntimeInstall:
        """Starts installing the svc runtime on the cluster (`svc runtime install`); `runtime_install(task.id)` tells its progress."""
        return self._http.call(api.install_runtime(profile))

    def runtime_install(self, id: str) -> RuntimeInstall:
        return self._http.call(api.get_runtime_install(id))

    def runtime_installs(self, profile: str | None = None, state: Literal["running", "done", "failed"] | None = None) -> list[RuntimeInstall]:
        return self._http.call(api.list_runtime_installs(profile, state))

    def remove_runtimes(self, profile: str | None = None, version: str | None = None) -> RuntimeRemoval:
        """Removes `version`, or every version but the current one (`svc runtime rm`)."""
        return self._http.call(api.remove_runtimes(profile, version))

    # API keys for the OpenAI endpoint /v1, and what it served

    def keys(self) -> list[ApiKey]:
        """The API keys (`svc key ls`); never the keys themselves."""
        return self._http.call(api.list_keys())

    def create_key(self, name: str, models: list[str] | None = None, expires: str | None = None, **policy: Unpack[KeyPolicy]) -> CreatedKey:
        """A new key for /v1 (`svc key create`): `.key` holds it, this once; `models` limits it to repo ids, `expires` is `30d`, `12h`… or a date;
        `requests_per_minute`, `tokens_per_minute`, `max_parallel`, `daily_tokens`, `monthly_tokens`, `tier` and `weight` as `svc key create`'s options."""
        return self._http.call(api.create_key(name, models, expires, policy))

    def update_key(self, ref: str, **changes: Unpack[KeyChanges]) -> ApiKey:
        """`svc key update`: changes what is given, e.g. `update_key("alice", tokens_per_minute=20000, monthly_tokens=None)` (None removes a limit); the key itself stays the same."""
        return self._http.call(api.update_key(ref, changes))

    def remove_key(self, ref: str) -> ApiKey:
        """Removes a key by name or id (`svc key rm`); it is refused from the next request on."""
        return self._http.call(api.remove_key(ref))

    def endpoints(self) -> list[OutsideEndpoint]:
        """Outside OpenAI-compatible servers served through /v1, with their health (`svc endpoint ls`); never their keys."""
        return self._http.call(api.list_endpoints())

    def add_endpoint(self, name: str, url: str, api_key: str | None = None, models: list[str] | None = None) -> OutsideEndpoint:
        """Serves an outside server's models through /v1 (`svc endpoint add`): svc stores `api_key` and sends it there; `models` default to the server's list."""
        return self._http.call(api.add_endpoint(name, url, api_key, models))

    def remove_endpoint(self, name: str) -> OutsideEndpoint:
        """Removes an outside endpoint and its stored key (`svc endpoint rm`)."""
        return self._http.call(api.remove_endpoint(name))

    def usage(self, since: str | None = None, by: UsageGrouping | None = None, hours: UsageHourlyWindow | None = None) -> UsageReport:
        """Requests and tokens through /v1 per key, model or service, per day; each key against its limits; tokens per hour over the last `day` or `week` (`svc usage`); `since` like `7d`."""
        return self._http.call(api.usage(since, by, hours))

    def queues(self, model: str | None = None) -> QueueReport:
        """Requests waiting in the gateway for saturated models, per key and tier (fair share); `model`: only that one."""
        return self._http.call(api.queues(model))

    # The application

    def images(self) -> list[RuntimeImage]:
        """The runtime images and whether each is present (`svc image ls`)."""
        return self._http.call(api.list_images())

    def build_images(self, task: Task | None = None) -> list[RuntimeImage]:
        return self._http.call(api.build_images(task))

    def image_builds(self) -> list[ImageBuild]:
        """Recent image builds with their output, newest first (to follow one's progress)."""
        return self._http.call(api.list_image_builds())

    def info(self) -> AppInfo:
        return self._http.call(api.info())

    def health(self) -> HealthReport:
        return self._http.call(api.health())

    def openapi_document(self) -> dict[str, Any]:
        """The OpenAPI 3.1 document of the REST API, as the application serves it."""
        return self._http.call(api.openapi_document())

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Svc:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        self.close()
