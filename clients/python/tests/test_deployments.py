"""Deployments from Python without the application: the keywords of `run(..., replicas=…)` and `scale()`
become the API's request bodies (a mistake is a TypeError before anything is sent), and its answers decode."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

import svc
from svc import _api as api
from svc._decode import decode
from svc.run_options import run_request

RECORD = {
    "id": "d0000000-1111-4222-8333-444444444444",
    "name": "chat",
    "task": "text-generation",
    "model": "acme/tiny",
    "revision": "abc123",
    "profile": "default",
    "engine": "docker",
    "status": "ACTIVE",
    "min": 0,
    "max": 3,
    "targetInflight": 4,
    "scaleUpAfterSeconds": 30,
    "scaleDownAfterSeconds": 300,
    "routing": "prefix",
    "healthy": 2,
    "coming": 1,
    "inFlight": 9,
    "createdBy": "ada",
    "createdAt": "2026-11-27T10:00:00Z",
    "updatedAt": "2026-11-27T10:05:00Z",
}


def test_run_with_replicas_sends_scaling() -> None:
    body = run_request("text-generation", "acme/tiny", {"name": "chat", "replicas": "0..3", "routing": "prefix", "target_inflight": 8, "scale_up_after": "45s", "scale_down_after": "10m"})
    assert body == {
        "task": "text-generation",
        "model": "acme/tiny",
        "name": "chat",
        "scaling": {"replicas": "0..3", "routing": "prefix", "targetInflight": 8, "scaleUpAfter": "45s", "scaleDownAfter": "10m"},
    }
    assert run_request("text-generation", "acme/tiny", {"replicas": 2})["scaling"] == {"replicas": "2"}
    assert "scaling" not in run_request("text-generation", "acme/tiny", {"name": "one"})


def test_scaling_keywords_without_replicas_or_of_the_wrong_type_are_refused() -> None:
    with pytest.raises(TypeError, match=r"target_inflight, routing belong to a deployment: add replicas='MIN..MAX'"):
        run_request("text-generation", "acme/tiny", {"routing": "prefix", "target_inflight": 2})
    with pytest.raises(TypeError, match=r"replicas must be 'MIN..MAX' \(e.g. '0..3'\) or a count, not \[1, 3\]"):
        run_request("text-generation", "acme/tiny", {"replicas": [1, 3]})  # type: ignore[typeddict-item]


def test_scale_sends_only_what_is_given() -> None:
    call = api.scale_deployment("chat", {"replicas": "1..4", "routing": "least-busy", "scale_down_after": None})  # type: ignore[typeddict-item]
    assert (call.method, call.path, call.body) == ("PATCH", "/api/deployments/chat", {"replicas": "1..4", "routing": "least-busy"})
    assert api.scale_deployment("a b", {"target_inflight": 16}).path == "/api/deployments/a%20b"
    with pytest.raises(TypeError, match=r"scale\(\) needs the new replicas"):
        api.scale_deployment("chat", {})
    with pytest.raises(TypeError, match="Unknown scaling option replica;"):
        api.scale_deployment("chat", {"replica": "1..2"})  # type: ignore[typeddict-unknown-key]
    assert api.remove_deployment("chat", force=True).query == {"force": "true"}
    assert api.list_deployments(all=True).query == {"all": "true"}


def test_a_deployment_and_its_details_decode() -> None:
    replica = {
        "id": "b2222222-0000-4000-8000-000000000000", "name": "chat-1", "image": "text_generation", "task": "text-generation",
        "model": "acme/tiny", "revision": "abc123", "profile": "default", "status": "HEALTHY", "reason": None, "host": "127.0.0.1",
        "port": 8000, "url": "http://127.0.0.1:8000", "engine": "docker", "runtime": "docker", "handle": "c1", "apiKeySet": False,
        "job": {}, "engineArgs": [], "createdBy": "ada", "createdAt": "2026-11-27T10:00:00Z", "updatedAt": "2026-11-27T10:00:00Z",
        "deployment": RECORD["id"],
        "policies": {"idleStop": None, "idleStopSeconds": None, "onDemand": True, "startTimeout": "15m", "startTimeoutSeconds": 900, "renew": False, "renewBefore": None, "renewBeforeSeconds": None},
        "lastRequestAt": None, "endsAt": None, "successor": None,
    }  # fmt: skip
    event = {"at": "2026-11-27T10:01:00Z", "from": 1, "to": 3, "message": "scaled up to 3: 9.5 in flight per replica for 30 s"}
    details = decode(svc.DeploymentDetails, {**RECORD, "replicas": [replica], "events": [event]})
    assert (details.min, details.max, details.routing, details.target_inflight, details.in_flight) == (0, 3, "prefix", 4, 9)
    assert details.replicas[0].deployment == RECORD["id"]
    assert details.events == [svc.DeploymentEvent(at=datetime(2026, 11, 27, 10, 1, tzinfo=timezone.utc), from_=1, to=3, message=event["message"])]
    answer = decode(svc.RunResponse, {"matched": 1, "revision": "abc123", "warnings": [], "script": "", "service": None, "deployment": RECORD})
    assert answer.deployment is not None and answer.deployment.scale_down_after_seconds == 300


def test_async_run_leaves_deployments_to_the_blocking_client() -> None:
    client = svc.AsyncSvc("http://127.0.0.1:9", token="x" * 32)
    with pytest.raises(TypeError, match=r"start a deployment with Svc.run\(..., replicas='MIN..MAX'\)"):
        client.run("text-generation", "acme/tiny", replicas="0..2")  # type: ignore[call-arg]
