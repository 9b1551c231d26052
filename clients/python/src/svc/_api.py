"""Each route of the REST API as a `Call`: what to send and what type the answer decodes to.

Sans I/O: `Svc` and `AsyncSvc` send the same calls, one with a blocking client, one with asyncio.
`CALLS` lists every builder; a test checks each against the served OpenAPI document.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypedDict, TypeVar
from urllib.parse import quote

from .contracts import AppInfo, ClusterGpus, DownloadTask, HealthReport, ImageBuild, Model, ModelImage, ModelKind, Profile, ProfileAttributes, ProfileChange
from .contracts import FoundEngineVersion, RefreshReport, RunResponse, RuntimeImage, RuntimeInstall, RuntimeList, RuntimeRemoval, ServiceDetails, ServiceRecord, ServiceStatus, Task
from .batch_options import BatchOptions, batch_request
from .contracts.batches import BatchDetails, BatchRecord, BatchRunResponse, BatchStatus, BatchTask
from .contracts import ApiKey, CreatedKey, OutsideEndpoint, QueueReport, UsageGrouping, UsageHourlyWindow, UsageReport
from .run_options import DeploymentRunOptions, RunOptions, run_request
from .contracts import DeploymentDetails, DeploymentRecord
from .scaling_options import ScaleOptions, scale_request
from .key_options import CHANGE_KEYS, POLICY_KEYS, KeyChanges, KeyPolicy, key_fields

T = TypeVar("T", covariant=True)


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    #: The path as the OpenAPI document writes it, e.g. `/api/services/{ref}`.
    route: str
    #: The type the JSON answer decodes to; None for no content, `str` for a text answer.
    returns: Any
    params: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, str] = field(default_factory=dict)
    body: Any = None
    #: Error statuses whose body is still the expected answer.
    also_ok: tuple[int, ...] = ()

    @property
    def path(self) -> str:
        return self.route.format(**{key: quote(value, safe="") for key, value in self.params.items()})


def _query(**values: str | bool | int | None) -> dict[str, str]:
    return {key: ("true" if value else "false") if isinstance(value, bool) else str(value) for key, value in values.items() if value is not None}


def info() -> Call[AppInfo]:
    return Call("GET", "/api/info", AppInfo)


def health() -> Call[HealthReport]:
    # A component that is down makes the report `degraded`, answered with 503.
    return Call("GET", "/api/health", HealthReport, also_ok=(503,))


def openapi_document() -> Call[dict[str, Any]]:
    return Call("GET", "/api/openapi.json", dict[str, Any])


def list_profiles() -> Call[list[Profile]]:
    return Call("GET", "/api/profiles", list[Profile])


def get_profile(name: str) -> Call[Profile]:
    return Call("GET", "/api/profiles/{name}", Profile, {"name": name})


def create_profile(name: str, schema: str, attributes: ProfileAttributes) -> Call[ProfileChange]:
    return Call("POST", "/api/profiles", ProfileChange, body={"name": name, "schema": schema, **attributes})


def update_profile(name: str, attributes: ProfileAttributes) -> Call[ProfileChange]:
    return Call("PUT", "/api/profiles/{name}", ProfileChange, {"name": name}, body=dict(attributes))


def remove_profile(name: str) -> Call[None]:
    return Call("DELETE", "/api/profiles/{name}", None, {"name": name})


def profile_gpus(name: str, refresh: bool = False) -> Call[ClusterGpus]:
    return Call("GET", "/api/profiles/{name}/gpus", ClusterGpus, {"name": name}, query=_query(refresh=refresh or None))


def list_models(profile: str | None = None, image: ModelImage | None = None, repo: str | None = None, kind: ModelKind | None = None) -> Call[list[Model]]:
    return Call("GET", "/api/models", list[Model], query=_query(profile=profile, image=image, repo=repo, kind=kind))


def refresh_models(profile: str | None = None) -> Call[RefreshReport]:
    return Call("POST", "/api/models/refresh", RefreshReport, body={"profile": profile} if profile else {})


def start_download(
    repo: str, revision: str | None = None, profile: str | None = None, include: list[str] | None = None, exclude: list[str] | None = None
) -> Call[DownloadTask]:
    fields = {"repo": repo, "revision": revision, "profile": profile, "include": include, "exclude": exclude}
    return Call("POST", "/api/models/downloads", DownloadTask, body={key: value for key, value in fields.items() if value is not None})


def get_download(id: str) -> Call[DownloadTask]:
    return Call("GET", "/api/models/downloads/{id}", DownloadTask, {"id": id})


def list_downloads() -> Call[list[DownloadTask]]:
    return Call("GET", "/api/models/downloads", list[DownloadTask])


def run_service(task: Task, model: str, options: DeploymentRunOptions | RunOptions, dry_run: bool = False) -> Call[RunResponse]:
    return Call("POST", "/api/services", RunResponse, body=run_request(task, model, options, dry_run))


def list_services(
    status: ServiceStatus | None = None, id: str | None = None, all: bool = False, limit: int | None = None, cursor: str | None = None
) -> Call[list[ServiceRecord]]:
    """One page (`limit`, default 100) of the services; the answer's X-Next-Cursor header is the next page's `cursor`."""
    return Call("GET", "/api/services", list[ServiceRecord], query=_query(status=status, id=id, all=all or None, limit=limit, cursor=cursor))


def get_service(ref: str) -> Call[ServiceDetails]:
    return Call("GET", "/api/services/{ref}", ServiceDetails, {"ref": ref})


def stop_service(ref: str) -> Call[ServiceRecord]:
    return Call("POST", "/api/services/{ref}/stop", ServiceRecord, {"ref": ref})


def restart_service(ref: str, on_demand: bool = False) -> Call[ServiceRecord]:
    """With on_demand (what the gateway does for a request to an on-demand service), a live service is left as it is."""
    return Call("POST", "/api/services/{ref}/restart", ServiceRecord, {"ref": ref}, _query(onDemand=on_demand or None))


def add_service_adapter(ref: str, adapter: str) -> Call[ServiceRecord]:
    """Serves one more LoRA adapter (a repo id of the registry) on a running service, without a restart."""
    return Call("POST", "/api/services/{ref}/adapters", ServiceRecord, {"ref": ref}, body={"adapter": adapter})


def remove_service_adapter(ref: str, adapter: str) -> Call[ServiceRecord]:
    """Stops serving a LoRA adapter (at once while the service runs)."""
    return Call("DELETE", "/api/services/{ref}/adapters", ServiceRecord, {"ref": ref}, _query(adapter=adapter))


#: One entry of an activity report: a service id and when a request last went to it (ISO 8601).
ServiceActivity = TypedDict("ServiceActivity", {"id": str, "lastRequestAt": str})


@dataclass(frozen=True, kw_only=True)
class ActivityAnswer:
    recorded: int


#: Requests in flight on a service now (what the scaler of a deployment reads).
ServiceInFlight = TypedDict("ServiceInFlight", {"id": str, "count": int})


#: Requests waiting in the gateway's fair-share queue for a deployment's model (load for its scaler too).
DeploymentWaiting = TypedDict("DeploymentWaiting", {"deployment": str, "count": int})


def report_service_activity(
    services: list[ServiceActivity], in_flight: list[ServiceInFlight] | None = None, waiting: list[DeploymentWaiting] | None = None
) -> Call[ActivityAnswer]:
    """The gateway's report of the last request to each service (the idle clocks of idle_stop) and, when given,
    the requests in flight on each (a service left out of `in_flight` holds none) and those waiting per deployment."""
    body: dict[str, Any] = {"services": list(services)}
    if in_flight is not None:
        body["inFlight"] = list(in_flight)
    if waiting is not None:
        body["waiting"] = list(waiting)
    return Call("POST", "/api/services/activity", ActivityAnswer, body=body)


def remove_service(ref: str, force: bool = False) -> Call[ServiceRecord]:
    return Call("DELETE", "/api/services/{ref}", ServiceRecord, {"ref": ref}, _query(force=force or None))


def service_logs(ref: str, follow: bool = False, tail: int | None = None) -> Call[str]:
    return Call("GET", "/api/services/{ref}/logs", str, {"ref": ref}, _query(follow=follow or None, tail=tail))


def list_deployments(all: bool = False) -> Call[list[DeploymentRecord]]:
    """Active deployments and those stopped in the last 24 hours; every one with `all`."""
    return Call("GET", "/api/deployments", list[DeploymentRecord], query=_query(all=all or None))


def get_deployment(ref: str) -> Call[DeploymentDetails]:
    return Call("GET", "/api/deployments/{ref}", DeploymentDetails, {"ref": ref})


def scale_deployment(ref: str, options: ScaleOptions) -> Call[DeploymentRecord]:
    return Call("PATCH", "/api/deployments/{ref}", DeploymentRecord, {"ref": ref}, body=scale_request(options))


def add_deployment_adapter(ref: str, adapter: str) -> Call[DeploymentRecord]:
    """Serves one more LoRA adapter on every replica of a deployment, and on those to come."""
    return Call("POST", "/api/deployments/{ref}/adapters", DeploymentRecord, {"ref": ref}, body={"adapter": adapter})


def remove_deployment_adapter(ref: str, adapter: str) -> Call[DeploymentRecord]:
    """Stops serving a LoRA adapter on every replica of a deployment."""
    return Call("DELETE", "/api/deployments/{ref}/adapters", DeploymentRecord, {"ref": ref}, _query(adapter=adapter))


def stop_deployment(ref: str) -> Call[DeploymentRecord]:
    return Call("POST", "/api/deployments/{ref}/stop", DeploymentRecord, {"ref": ref})


def remove_deployment(ref: str, force: bool = False) -> Call[DeploymentRecord]:
    return Call("DELETE", "/api/deployments/{ref}", DeploymentRecord, {"ref": ref}, _query(force=force or None))


def run_batch(task: BatchTask, model: str, options: BatchOptions, dry_run: bool = False) -> Call[BatchRunResponse]:
    return Call("POST", "/api/batches", BatchRunResponse, body=batch_request(task, model, options, dry_run))


def list_batches(status: BatchStatus | None = None, all: bool = False) -> Call[list[BatchRecord]]:
    return Call("GET", "/api/batches", list[BatchRecord], query=_query(status=status, all=all or None))


def get_batch(ref: str) -> Call[BatchDetails]:
    return Call("GET", "/api/batches/{ref}", BatchDetails, {"ref": ref})


def batch_results(ref: str) -> Call[str]:
    return Call("GET", "/api/batches/{ref}/results", str, {"ref": ref})


def stop_batch(ref: str) -> Call[BatchRecord]:
    return Call("POST", "/api/batches/{ref}/stop", BatchRecord, {"ref": ref})


def resume_batch(ref: str, retry_failed: bool = False) -> Call[BatchRecord]:
    return Call("POST", "/api/batches/{ref}/resume", BatchRecord, {"ref": ref}, body={"retryFailed": True} if retry_failed else {})


def remove_batch(ref: str, force: bool = False) -> Call[BatchRecord]:
    return Call("DELETE", "/api/batches/{ref}", BatchRecord, {"ref": ref}, _query(force=force or None))


def list_images() -> Call[list[RuntimeImage]]:
    return Call("GET", "/api/images", list[RuntimeImage])


def build_images(task: Task | None = None) -> Call[list[RuntimeImage]]:
    return Call("POST", "/api/images/build", list[RuntimeImage], body={"task": task} if task else {})


def list_image_builds() -> Call[list[ImageBuild]]:
    return Call("GET", "/api/images/builds", list[ImageBuild])


def list_runtimes(profile: str | None = None) -> Call[RuntimeList]:
    return Call("GET", "/api/runtimes", RuntimeList, query=_query(profile=profile))


def list_engine_versions(profile: str | None = None) -> Call[list[FoundEngineVersion]]:
    return Call("GET", "/api/runtimes/engines", list[FoundEngineVersion], query=_query(profile=profile))


def install_runtime(profile: str | None = None) -> Call[RuntimeInstall]:
    return Call("POST", "/api/runtimes/installs", RuntimeInstall, body={"profile": profile} if profile else {})


def get_runtime_install(id: str) -> Call[RuntimeInstall]:
    return Call("GET", "/api/runtimes/installs/{id}", RuntimeInstall, {"id": id})


def list_runtime_installs(profile: str | None = None, state: Literal["running", "done", "failed"] | None = None) -> Call[list[RuntimeInstall]]:
    return Call("GET", "/api/runtimes/installs", list[RuntimeInstall], query=_query(profile=profile, state=state))


def remove_runtimes(profile: str | None = None, version: str | None = None) -> Call[RuntimeRemoval]:
    return Call("DELETE", "/api/runtimes", RuntimeRemoval, query=_query(profile=profile, version=version))


def list_keys() -> Call[list[ApiKey]]:
    return Call("GET", "/api/keys", list[ApiKey])


def create_key(name: str, models: list[str] | None = None, expires: str | None = None, policy: KeyPolicy | None = None) -> Call[CreatedKey]:
    body: dict[str, Any] = {"name": name}
    if models is not None:
        body["models"] = models
    if expires is not None:
        body["expires"] = expires
    body.update(key_fields(policy or {}, POLICY_KEYS, removing=False))
    return Call("POST", "/api/keys", CreatedKey, body=body)


def update_key(ref: str, changes: KeyChanges) -> Call[ApiKey]:
    body = key_fields(changes, CHANGE_KEYS, removing=True)
    if not body:
        raise TypeError(f"update_key() needs at least one of {', '.join(CHANGE_KEYS)}.")
    return Call("PATCH", "/api/keys/{ref}", ApiKey, {"ref": ref}, body=body)


def remove_key(ref: str) -> Call[ApiKey]:
    return Call("DELETE", "/api/keys/{ref}", ApiKey, {"ref": ref})


def list_endpoints() -> Call[list[OutsideEndpoint]]:
    return Call("GET", "/api/endpoints", list[OutsideEndpoint])


def add_endpoint(name: str, url: str, api_key: str | None = None, models: list[str] | None = None) -> Call[OutsideEndpoint]:
    body: dict[str, Any] = {"name": name, "url": url}
    if api_key is not None:
        body["apiKey"] = api_key
    if models is not None:
        body["models"] = models
    return Call("POST", "/api/endpoints", OutsideEndpoint, body=body)


def remove_endpoint(name: str) -> Call[OutsideEndpoint]:
    return Call("DELETE", "/api/endpoints/{name}", OutsideEndpoint, {"name": name})


def usage(since: str | None = None, by: UsageGrouping | None = None, hours: UsageHourlyWindow | None = None) -> Call[UsageReport]:
    return Call("GET", "/api/usage", UsageReport, query=_query(since=since, by=by, hours=hours))


def queues(model: str | None = None) -> Call[QueueReport]:
    return Call("GET", "/api/queues", QueueReport, query=_query(model=model))


CALLS: tuple[Callable[..., Call[Any]], ...] = (
    info, health, openapi_document,
    list_profiles, get_profile, create_profile, update_profile, remove_profile, profile_gpus,
    list_models, refresh_models, start_download, get_download, list_downloads,
    run_service, list_services, get_service, stop_service, restart_service, remove_service, service_logs, report_service_activity,
    add_service_adapter, remove_service_adapter,
    list_deployments, get_deployment, scale_deployment, stop_deployment, remove_deployment, add_deployment_adapter, remove_deployment_adapter,
    run_batch, list_batches, get_batch, batch_results, stop_batch, resume_batch, remove_batch,
    list_images, build_images, list_image_builds,
    list_runtimes, list_engine_versions, install_runtime, get_runtime_install, list_runtime_installs, remove_runtimes,
    list_keys, create_key, update_key, remove_key, usage, queues,
    list_endpoints, add_endpoint, remove_endpoint,
)  # fmt: skip
