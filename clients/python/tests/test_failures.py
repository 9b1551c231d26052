"""What goes wrong is raised: a service that fails for real, a `with` block that raises, the API's refusals."""

from __future__ import annotations

import pytest
from conftest import BROKEN_MODEL, START_TIMEOUT, TEXT_MODEL, App, free_port

import svc


def test_wait_raises_the_failed_reason(client: svc.Svc) -> None:
    service = client.run("text-generation", BROKEN_MODEL, name="py-broken")
    with pytest.raises(svc.ServiceFailedError) as failed:
        service.wait(timeout=START_TIMEOUT)
    assert failed.value.service_id == service.id
    assert failed.value.status == "FAILED"
    assert failed.value.reason is not None
    assert "exited with code" in failed.value.reason
    assert "could not load the model" in failed.value.reason
    assert failed.value.reason in str(failed.value)
    assert service.status == "FAILED"


def test_a_with_block_that_raised_leaves_no_service_running(app: App, client: svc.Svc) -> None:
    class Boom(Exception):
        pass

    with pytest.raises(Boom):
        with client.run("text-generation", TEXT_MODEL, name="py-raised") as service:
            service.wait(timeout=START_TIMEOUT)
            assert app.running_containers(service.id)
            raise Boom()
    assert (service.status, service.reason) == ("STOPPED", "stopped by its creator")
    # `services()` (svc ls) lists it as ended now, after the live ones.
    assert [listed.status for listed in client.services() if listed.id == service.id] == ["STOPPED"]
    assert app.running_containers(service.id) == []


def test_wait_gives_up_after_its_timeout(text_service: svc.Service) -> None:
    with pytest.raises(svc.SvcTimeoutError) as late:
        text_service.wait("STOPPED", timeout=0.5)
    assert isinstance(late.value, TimeoutError)
    assert late.value.status == "HEALTHY"
    assert "did not become STOPPED within 0.5 s; it is HEALTHY" in str(late.value)


def test_api_errors_carry_status_code_and_message(client: svc.Svc) -> None:
    with pytest.raises(svc.SvcApiError) as unknown:
        client.service("no-such-service")
    assert (unknown.value.status, unknown.value.error) == (404, "not_found")
    assert "no-such-service" in unknown.value.message

    with pytest.raises(svc.SvcApiError) as unregistered:
        client.run("text-generation", "nobody/no-such-model")
    assert 400 <= unregistered.value.status < 500
    assert "nobody/no-such-model" in unregistered.value.message

    with pytest.raises(svc.SvcApiError) as invalid:
        client.run("text-generation", TEXT_MODEL, gres=-1)
    assert (invalid.value.status, invalid.value.error) == (400, "invalid_request")

    with pytest.raises(TypeError, match="Unknown run option"):
        client.run("text-generation", TEXT_MODEL, gpus=1)  # type: ignore[call-arg]


def test_a_wrong_token_is_refused(app: App) -> None:
    with svc.Svc(app.url, token="x" * 32) as wrong, pytest.raises(svc.SvcApiError) as refused:
        wrong.services()
    assert (refused.value.status, refused.value.error) == (401, "unauthorized")


def test_an_application_that_does_not_answer(app: App) -> None:
    port = free_port()  # nothing listens there
    env = {"SVC_HOST": "127.0.0.1", "SVC_PORT": str(port), "SVC_HOME_DIR": str(app.home)}
    with svc.Svc(env=env) as nowhere, pytest.raises(svc.SvcUnreachableError) as unreachable:
        nowhere.info()
    assert unreachable.value.url == f"http://127.0.0.1:{port}"
    assert "svc start" in str(unreachable.value) and "SVC_PORT" in str(unreachable.value)
    assert isinstance(unreachable.value, ConnectionError)
