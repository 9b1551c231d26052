"""`AsyncSvc`: the methods of `Svc`, awaited, for asyncio programs."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal

import httpx

from . import _api as api
from ._client_base import ClientBase
from ._http import NEXT_CURSOR_HEADER, AsyncHttp
from .async_service import AsyncService
from .contracts import AppInfo, ClusterGpus, DownloadTask, HealthReport, ImageBuild, Model, ModelImage, ModelKind, Profile, ProfileAttributes, ProfileChange
from .contracts import ApiKey, CreatedKey, OutsideEndpoint, QueueReport, UsageGrouping, UsageHourlyWindow, UsageReport
from .contracts import FoundEngineVersion, RefreshReport, RunResponse, RuntimeImage, RuntimeInstall, RuntimeList, RuntimeRemoval, ServiceStatus, Task
from .batch_options import BatchOptions
from .contracts import FINISHED_BATCH_STATUSES, BatchDetails, BatchRecord, BatchRunResponse, BatchStatus, BatchTask
from .run_options import RunOptions
from .contracts import DeploymentDetails, DeploymentRecord

if TYPE_CHECKING:
    from typing_extensions import Unpack  # type checkers only: the annotations are never evaluated

    from .key_options import KeyChanges, KeyPolicy
    from .scaling_options import ScaleOptions


class Launch:
    """What `AsyncSvc.run()` returns: `await` it for the service, or `async with` it to stop the service at the end."""

    def __init__(self, starting: Coroutine[Any, Any, AsyncService]) -> None:
        self._starting = starting
        self._service: AsyncService | None = None

    def __await__(self) -> Generator[Any, None, AsyncService]:
        return self._starting.__await__()

    async def __aenter__(self) -> AsyncService:
        self._service = await self._starting
        return self._service

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        assert self._service is not None
        await self._service.__aexit__(kind, error, traceback)


class AsyncSvc(ClientBase[AsyncHttp]):
    """The svc application from asyncio: `AsyncSvc()` finds it like `Svc()`; every method is awaited.

    `s = await svc.run(…)` or `async with svc.run(…) as s:`; `async with AsyncSvc() as svc:` closes its connections.
    """

    def _connect(self, timeout: httpx.Timeout | float | None) -> AsyncHttp:
        return AsyncHttp(self.url, self.token, timeout)

    def run(self, task: Task, model: str, **options: Unpack[RunOptions]) -> Launch:
        """See `Svc.run`; one service (a deployment is started with `Svc.run(…, replicas=…)`)."""
        if "replicas" in options:
            raise TypeError("AsyncSvc.run starts one service: start a deployment with Svc.run(..., replicas='MIN..MAX'); AsyncSvc.deployment(ref) then reads it.")
        return Launch(self._run(task, model, options))

    async def _run(self, task: Task, model: str, options: RunOptions) -> AsyncService:
        result = await self._http.call(api.run_service(task, model, options))
        assert result.service is not None
        return AsyncService(self._http, result.service, options.get("api_key"), result)

    async def dry_run(self, task: Task, model: str, **options: Unpack[RunOptions]) -> RunResponse:
        return await self._http.call(api.run_service(task, model, options, dry_run=True))

    async def service(self, ref: str, api_key: str | None = None) -> AsyncService:
        return AsyncService(self._http, await self._http.call(api.get_service(ref)), api_key)

    async def services(
        self, status: ServiceStatus | None = None, *, all: bool = False, id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> list[AsyncService]:
        return (await self.services_page(status, all=all, id=id, limit=limit, cursor=cursor))[0]

    async def services_page(
        self, status: ServiceStatus | None = None, *, all: bool = False, id: str | None = None, limit: int | None = None, cursor: str | None = None
    ) -> tuple[list[AsyncService], str | None]:
        """One page of `services()` and the `cursor` of the next page (None on the last one)."""
        records, headers = await self._http.call_with_headers(api.list_services(status, id, all, limit, cursor))
        return [AsyncService(self._http, record) for record in records], headers.get(NEXT_CURSOR_HEADER)

    async def deployments(self, *, all: bool = False) -> list[DeploymentRecord]:
        """See `Svc.deployments` (the records)."""
        return await self._http.call(api.list_deployments(all))

    async def deployment(self, ref: str) -> DeploymentDetails:
        """A deployment with its replicas and events."""
        return await self._http.call(api.get_deployment(ref))

    async def scale(self, ref: str, replicas: str | int | None = None, **options: Unpack[ScaleOptions]) -> DeploymentRecord:
        """See `Svc.scale`."""
        return await self._http.call(api.scale_deployment(ref, {**options, "replicas": replicas} if replicas is not None else options))

    async def stop_deployment(self, ref: str) -> DeploymentRecord:
        """Drains and stops every replica; scaling is off until `scale()`."""
        return await self._http.call(api.stop_deployment(ref))

    async def remove_deployment(self, ref: str, force: bool = False) -> DeploymentRecord:
        """Deletes the deployment and its replicas' records; a live one needs `force=True`."""
        return await self._http.call(api.remove_deployment(ref, force))

    async def models(
        self, refresh: bool = False, *, profile: str | None = None, image: ModelImage | None = None, repo: str | None = None, kind: ModelKind | None = None
    ) -> list[Model]:
        if refresh:
            await self.refresh_models(profile)
        return await self._http.call(api.list_models(profile, image, repo, kind))

    async def refresh_models(self, profile: str | None = None) -> RefreshReport:
        return await self._http.call(api.refresh_models(profile))

    async def download_model(
        self, repo: str, *, revision: str | None = None, profile: str | None = None, include: list[str] | None = None, exclude: list[str] | None = None
    ) -> DownloadTask:
        return await self._http.call(api.start_download(repo, revision, profile, include, exclude))

    async def download(self, id: str) -> DownloadTask:
        return await self._http.call(api.get_download(id))

    async def downloads(self) -> list[DownloadTask]:
        return await self._http.call(api.list_downloads())

    async def profiles(self) -> list[Profile]:
        return await self._http.call(api.list_profiles())

    async def profile(self, name: str = "default") -> Profile:
        return await self._http.call(api.get_profile(name))

    async def create_profile(self, name: str, schema: str, **attributes: Unpack[ProfileAttributes]) -> ProfileChange:
        return await self._http.call(api.create_profile(name, schema, attributes))

    async def update_profile(self, name: str = "default", **attributes: Unpack[ProfileAttributes]) -> ProfileChange:
        return await self._http.call(api.update_profile(name, attributes))

    async def remove_profile(self, name: str) -> None:
        await self._http.call(api.remove_profile(name))

    async def profile_gpus(self, name: str = "default", refresh: bool = False) -> ClusterGpus:
        return await self._http.call(api.profile_gpus(name, refresh))

    # Batch jobs (as in Svc)

    async def run_batch(self, task: BatchTask, model: str, **options: Unpack[BatchOptions]) -> BatchRecord:
        result = await self._http.call(api.run_batch(task, model, options))
        assert result.batch is not None
        return result.batch

    async def dry_run_batch(self, task: BatchTask, model: str, **options: Unpack[BatchOptions]) -> BatchRunResponse:
        return await self._http.call(api.run_batch(task, model, options, dry_run=True))

    async def batches(self, status: BatchStatus | None = None, *, all: bool = False) -> list[BatchRecord]:
        return await self._http.call(api.list_batches(status, all))

    async def batch(self, ref: str) -> BatchDetails:
        return await self._http.call(api.get_batch(ref))

    async def batch_results(self, ref: str) -> str:
        """An openai job's results file as it is now (JSONL in OpenAI's batch output format)."""
        return await self._http.call(api.batch_results(ref))

    async def stop_batch(self, ref: str) -> BatchRecord:
        return await self._http.call(api.stop_batch(ref))

    async def resume_batch(self, ref: str, retry_failed: bool = False) -> BatchRecord:
        return await self._http.call(api.resume_batch(ref, retry_failed))

    async def remove_batch(self, ref: str, force: bool = False) -> BatchRecord:
        return await self._http.call(api.remove_batch(ref, force))

    async def wait_batch(self, ref: str, timeout: float | None = None, poll: float = 1.0) -> BatchDetails:
        """Waits until the job is STOPPED, COMPLETED or FAILED (TimeoutError after `timeout` seconds)."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while True:
            details = await self.batch(ref)
            if details.status in FINISHED_BATCH_STATUSES:
                return details
            if deadline is not None and loop.time() > deadline:
                raise TimeoutError(f"batch job {details.id} is still {details.status} after {timeout} s")
            await asyncio.sleep(poll)

    async def runtimes(self, profile: str | None = None) -> RuntimeList:
        return await self._http.call(api.list_runtimes(profile))

    async def engine_versions(self, profile: str | None = None) -> list[FoundEngineVersion]:
        """The vLLM and SGLang versions found where the profile runs them (`svc profile show`), read when missing or older than an hour."""
        return await self._http.call(api.list_engine_versions(profile))

    async def install_runtime(self, profile: str | None = None) -> RuntimeInstall:
        return await self._http.call(api.install_runtime(profile))

    async def runtime_install(self, id: str) -> RuntimeInstall:
        return await self._http.call(api.get_runtime_install(id))

    async def runtime_installs(self, profile: str | None = None, state: Literal["running", "done", "failed"] | None = None) -> list[RuntimeInstall]:
        return await self._http.call(api.list_runtime_installs(profile, state))

    async def remove_runtimes(self, profile: str | None = None, version: str | None = None) -> RuntimeRemoval:
        return await self._http.call(api.remove_runtimes(profile, version))

    # API keys for the OpenAI endpoint /v1, and what it served

    async def keys(self) -> list[ApiKey]:
        return await self._http.call(api.list_keys())

    async def create_key(self, name: str, models: list[str] | None = None, expires: str | None = None, **policy: Unpack[KeyPolicy]) -> CreatedKey:
        """See `Svc.create_key`."""
        return await self._http.call(api.create_key(name, models, expires, policy))

    async def update_key(self, ref: str, **changes: Unpack[KeyChanges]) -> ApiKey:
        """See `Svc.update_key`."""
        return await self._http.call(api.update_key(ref, changes))

    async def remove_key(self, ref: str) -> ApiKey:
        return await self._http.call(api.remove_key(ref))

    async def endpoints(self) -> list[OutsideEndpoint]:
        """Outside OpenAI-compatible servers served through /v1, with their health (`svc endpoint ls`); never their keys."""
        return await self._http.call(api.list_endpoints())

    async def add_endpoint(self, name: str, url: str, api_key: str | None = None, models: list[str] | None = None) -> OutsideEndpoint:
        """Serves an outside server's models through /v1 (`svc endpoint add`): svc stores `api_key` and sends it there; `models` default to the server's list."""
        return await self._http.call(api.add_endpoint(name, url, api_key, models))

    async def remove_endpoint(self, name: str) -> OutsideEndpoint:
        """Removes an outside endpoint and its stored key (`svc endpoint rm`)."""
        return await self._http.call(api.remove_endpoint(name))

    async def usage(self, since: str | None = None, by: UsageGrouping | None = None, hours: UsageHourlyWindow | None = None) -> UsageReport:
        """See `Svc.usage`."""
        return await self._http.call(api.usage(since, by, hours))

    async def queues(self, model: str | None = None) -> QueueReport:
        """See `Svc.queues`."""
        return await self._http.call(api.queues(model))

    async def images(self) -> list[RuntimeImage]:
        return await self._http.call(api.list_images())

    async def build_images(self, task: Task | None = None) -> list[RuntimeImage]:
        return await self._http.call(api.build_images(task))

    async def image_builds(self) -> list[ImageBuild]:
        return await self._http.call(api.list_image_builds())

    async def info(self) -> AppInfo:
        return await self._http.call(api.info())

    async def health(self) -> HealthReport:
        return await self._http.call(api.health())

    async def openapi_document(self) -> dict[str, Any]:
        """The OpenAPI 3.1 document of the REST API, as the application serves it."""
        return await self._http.call(api.openapi_document())

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncSvc:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None) -> None:
        await self.aclose()
