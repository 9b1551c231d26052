"""Deployments from Python against the running app (issue 31): run(..., replicas=…) returns a Deployment,
deployments() and deployment() find it, scale() raises MIN so a replica starts and answers, and leaving
the `with` block stops it."""

from __future__ import annotations

import pytest
from conftest import START_TIMEOUT, TEXT_MODEL

import svc


def test_a_deployment_from_python(client: svc.Svc) -> None:
    with client.run("text-generation", TEXT_MODEL, name="py-deploy", replicas="0..2", routing="prefix", scale_down_after="10m") as deployment:
        assert isinstance(deployment, svc.Deployment)
        record = deployment.record
        assert (record.name, record.min, record.max, record.routing, record.scale_down_after_seconds, record.status) == ("py-deploy", 0, 2, "prefix", 600, "ACTIVE")
        assert deployment.run_response is not None and deployment.run_response.deployment == record
        assert "py-deploy" in [found.name for found in client.deployments()]
        details = client.deployment("py-deploy").details()
        assert [(replica.name, replica.status, replica.deployment) for replica in details.replicas] == [("py-deploy-1", "STOPPED", record.id)]
        assert details.events[0].message == "created with 0..2 replicas: none runs until the first request"

        scaled = client.scale("py-deploy", "1..2", target_inflight=4)
        assert (scaled.record.min, scaled.record.max, scaled.record.target_inflight) == (1, 2, 4)
        deployment.wait(healthy=1, timeout=START_TIMEOUT)
        (replica,) = [service for service in deployment.replicas if service.status == "HEALTHY"]
        assert replica.chat("Say hello", max_tokens=4).text
        assert "scaled by its creator: replicas 1..2, target 4 in flight per replica" in [event.message for event in deployment.events]
    # Leaving the block stopped it and waited for its replica.
    stopped = client.deployment("py-deploy").record
    assert isinstance(stopped, svc.DeploymentDetails)
    assert (stopped.status, [replica.status for replica in stopped.replicas]) == ("STOPPED", ["STOPPED"])
    client.deployment("py-deploy").rm(force=True)
    with pytest.raises(svc.SvcApiError) as missing:
        client.deployment("py-deploy")
    assert missing.value.status == 404


async def test_the_async_client_reads_and_scales_deployments(client: svc.Svc) -> None:
    created = client.run("text-generation", TEXT_MODEL, name="py-async-deploy", replicas="0..1")
    async with svc.AsyncSvc() as asynchronous:
        assert "py-async-deploy" in [record.name for record in await asynchronous.deployments()]
        assert (await asynchronous.scale("py-async-deploy", "0..3", routing="prefix")).max == 3
        assert (await asynchronous.deployment(created.id)).routing == "prefix"
        assert (await asynchronous.stop_deployment("py-async-deploy")).status == "STOPPED"
        assert (await asynchronous.remove_deployment("py-async-deploy")).id == created.id
