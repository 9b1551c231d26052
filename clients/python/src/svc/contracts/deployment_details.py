"""A deployment with its replicas and events (contracts/src/deployment-details.ts)."""

from __future__ import annotations

from dataclasses import dataclass

from .deployments import DeploymentEvent, DeploymentRecord
from .services import ServiceRecord


@dataclass(frozen=True, kw_only=True)
class DeploymentDetails(DeploymentRecord):
    """`svc details DEPLOYMENT`: the record, its replicas (ordinary services) and its scaling events, oldest first."""

    replicas: list[ServiceRecord]
    events: list[DeploymentEvent]
