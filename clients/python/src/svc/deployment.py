"""`Deployment`: replicas of one model that svc's scaler keeps between MIN and MAX (`svc run --replicas`)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from . import _api as api
from ._http import SyncHttp
from ._record_view import STOP_TIMEOUT, WAIT_INTERVAL, RecordView
from ._stop_on_exit import StopOnExit
from .contracts import TERMINAL_STATUSES, DeploymentDetails, DeploymentEvent, DeploymentRecord, DeploymentStatus, RunResponse
from .errors import SvcTimeoutError
from .service import Service

if TYPE_CHECKING:
    from typing_extensions import Unpack  # type checkers only: the annotations are never evaluated

    from .scaling_options import ScaleOptions


class Deployment(StopOnExit, RecordView[DeploymentRecord]):
    """A deployment, as last seen (`refresh()` updates it). Its replicas are ordinary services; /v1 spreads a
    model's requests over them. `with svc.run(…, replicas="0..3") as d:` stops it when the block ends."""

    def __init__(self, http: SyncHttp, record: DeploymentRecord, run: RunResponse | None = None) -> None:
        # `record` is a `DeploymentDetails` (replicas, events) after `refresh()`; `run_response` holds one replica's start-up script.
        super().__init__(record, run)
        self._http = http

    @property
    def status(self) -> DeploymentStatus:
        return self.record.status

    @property
    def model_id(self) -> str:
        """What to pass as `model` to /v1 (the model's repo id): requests go to its replicas."""
        return self.record.model

    def refresh(self) -> Deployment:
        """Reads the deployment again, with its replicas and events."""
        self.record = self._http.call(api.get_deployment(self.id))
        return self

    def details(self) -> DeploymentDetails:
        """The deployment now, with its replicas and scaling events (oldest first)."""
        self.refresh()
        assert isinstance(self.record, DeploymentDetails)
        return self.record

    @property
    def replicas(self) -> list[Service]:
        """Its replicas now (ordinary services: `wait()`, `chat()`, `logs()` as any service)."""
        return [Service(self._http, record) for record in self.details().replicas]

    @property
    def events(self) -> list[DeploymentEvent]:
        """Each scaling decision with its reason, oldest first."""
        return self.details().events

    def wait(self, healthy: int = 1, timeout: float | None = None, interval: float = WAIT_INTERVAL) -> Deployment:
        """Waits until at least `healthy` replicas are HEALTHY (SvcTimeoutError after `timeout` seconds; None: no limit)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.refresh().record.healthy < healthy:
            if deadline is not None and time.monotonic() >= deadline:
                r = self.record
                raise SvcTimeoutError(f"Deployment {r.name} has {r.healthy} HEALTHY replicas (and {r.coming} coming), not {healthy}, after {timeout} s.")
            time.sleep(interval if deadline is None else max(0.0, min(interval, deadline - time.monotonic())))
        return self

    def scale(self, replicas: str | int | None = None, **options: Unpack[ScaleOptions]) -> Deployment:
        """New bounds ("1..4") and/or scaling settings (`target_inflight`, `scale_up_after`, `scale_down_after`,
        `routing`); a stopped deployment becomes ACTIVE again."""
        self.record = self._http.call(api.scale_deployment(self.id, {**options, "replicas": replicas} if replicas is not None else options))
        return self

    def add_adapter(self, adapter: str) -> Deployment:
        """Serves one more LoRA adapter on every replica, and on those to come, without a restart (like `svc adapter add`)."""
        self.record = self._http.call(api.add_deployment_adapter(self.id, adapter))
        return self

    def remove_adapter(self, adapter: str) -> Deployment:
        """Stops serving a LoRA adapter on every replica (like `svc adapter rm`)."""
        self.record = self._http.call(api.remove_deployment_adapter(self.id, adapter))
        return self

    def stop(self, wait: bool = True) -> Deployment:
        """Drains and stops every replica; scaling is off until `scale()` (the records stay).

        Returns once no replica runs any more (SvcTimeoutError after a minute), unless `wait=False`.
        """
        self.record = self._http.call(api.stop_deployment(self.id))
        deadline = time.monotonic() + STOP_TIMEOUT
        while wait and any(replica.status not in TERMINAL_STATUSES for replica in self.details().replicas):
            if time.monotonic() >= deadline:
                raise SvcTimeoutError(f"Deployment {self.name} still has replicas running {STOP_TIMEOUT} s after it was stopped.")
            time.sleep(WAIT_INTERVAL)
        return self

    def rm(self, force: bool = False) -> None:
        """Deletes the deployment and its replicas' records; a live one needs `force=True` (its replicas are stopped first)."""
        self.record = self._http.call(api.remove_deployment(self.id, force))

    def __repr__(self) -> str:
        r = self.record
        return f"Deployment(id={r.id!r}, name={r.name!r}, model={r.model!r}, status={r.status!r}, replicas='{r.min}..{r.max}', healthy={r.healthy}, coming={r.coming})"
