"""Svc() with a tiny text model: run, wait, chat, logs, listing, stop, remove; `s.openai()` with and without `openai`."""

from __future__ import annotations

import httpx
import pytest
from conftest import SPEECH_MODEL, START_TIMEOUT, TEXT_MODEL, App, hide_openai

import svc


def test_run_gives_a_service_that_becomes_healthy_with_a_port(app: App, text_service: svc.Service) -> None:
    assert text_service.status == "HEALTHY"
    assert text_service.port is not None and text_service.port > 0
    assert text_service.url == f"http://127.0.0.1:{text_service.port}"
    assert text_service.proxy_url == f"{app.url}/proxy/{text_service.id}"
    assert text_service.record.api_key_set is True
    assert text_service.record.model == TEXT_MODEL
    assert any("No --revision given" in warning for warning in text_service.warnings)
    assert isinstance(text_service.record, svc.ServiceDetails)
    assert text_service.record.phases.ready is not None


def test_chat_answers_through_the_gateway(text_service: svc.Service) -> None:
    answer = text_service.chat("Hello", system="Answer briefly.", max_tokens=8, temperature=0)
    assert answer.object == "chat.completion"
    assert answer.model  # the runtime names its model file
    assert answer.choices[0].message.role == "assistant"
    assert answer.choices[0].finish_reason in ("length", "stop")
    assert answer.usage is not None and 0 < answer.usage.completion_tokens <= 8
    assert answer.text == answer.choices[0].message.content


def test_chat_with_a_wrong_api_key_raises_the_services_401(text_service: svc.Service) -> None:
    with pytest.raises(svc.SvcApiError) as raised:
        text_service.chat("Hello", api_key="not-the-key", max_tokens=2)
    assert raised.value.status == 401
    assert raised.value.error == "invalid_api_key"
    assert "API key" in raised.value.message


def test_a_service_found_by_id_needs_its_api_key_to_chat(client: svc.Svc, text_service: svc.Service) -> None:
    found = client.service(text_service.id[:13])
    assert found.id == text_service.id
    with pytest.raises(svc.SvcError, match="api_key"):
        found.chat("Hello")
    assert client.service(text_service.name, api_key="sk-python-test-key").chat("Hello", max_tokens=2, temperature=0).usage is not None


def test_logs_show_the_runtime_output(text_service: svc.Service) -> None:
    assert "ready on http://127.0.0.1:" in text_service.logs(tail=50)
    lines = text_service.follow_logs(tail=50)
    try:
        assert next(lines).startswith("text-generation:")
    finally:
        lines.close()


def test_services_models_and_profiles(app: App, client: svc.Svc, text_service: svc.Service) -> None:
    healthy = client.services(status="HEALTHY")
    assert text_service.id in [service.id for service in healthy]
    assert all(service.status == "HEALTHY" for service in healthy)
    repos = {model.repo: model for model in client.models(refresh=True)}
    assert repos[TEXT_MODEL].image == "text-generation"
    assert repos[SPEECH_MODEL].image == "speech-recognition"
    assert len(repos[TEXT_MODEL].revision) == 40
    assert [model.repo for model in client.models(image="speech-recognition")] == [SPEECH_MODEL]
    # The tiny LoRA adapters: listed with their bases, never as models.
    adapters = {model.repo: model for model in client.models(kind="adapter")}
    gguf = adapters["svc-tiny/tiny-llama-lora-gguf"]
    assert (gguf.adapter.kind, gguf.adapter.base, gguf.adapter.rank) == ("gguf", TEXT_MODEL, 8)
    assert gguf.adapter_base.state == "registered"
    assert adapters["svc-tiny/tiny-llama-lora-peft"].adapter.base == "svc-tiny/tiny-llama-safetensors"
    assert all(model.adapter is None for model in client.models(kind="model"))
    (default,) = client.profiles()
    assert isinstance(default, svc.LocalProfile)
    assert (default.name, default.schema, default.home_dir) == ("default", "local", str(app.home / "profile-home"))


def test_dry_run_shows_the_start_up_script_and_starts_nothing(client: svc.Svc) -> None:
    before = {service.id for service in client.services(all=True)}
    preview = client.dry_run("text-generation", TEXT_MODEL, mem=2, engine_args=["--ctx-size", "512"], name="py-dry")
    assert preview.service is None
    assert "docker run" in preview.script and "--memory 2g" in preview.script and "--ctx-size 512" in preview.script
    assert {service.id for service in client.services(all=True)} == before


def test_openai_without_the_package_says_to_install_it(text_service: svc.Service, monkeypatch: pytest.MonkeyPatch) -> None:
    hide_openai(monkeypatch)
    with pytest.raises(svc.OpenAINotInstalledError, match="pip install openai") as raised:
        text_service.openai()
    assert isinstance(raised.value, ImportError)


@pytest.mark.usefixtures("stand_in_openai")
def test_openai_client_uses_the_one_endpoint_with_the_repo_id(app: App, text_service: svc.Service) -> None:
    made = text_service.openai()
    arguments = made.arguments
    assert arguments["base_url"] == f"{app.url}/v1"
    assert arguments["api_key"] == app.token
    assert text_service.model_id == TEXT_MODEL
    body = {"model": text_service.model_id, "messages": [{"role": "user", "content": "Hello"}], "max_completion_tokens": 4, "temperature": 0}
    answer = httpx.post(f"{arguments['base_url']}/chat/completions", headers={"Authorization": f"Bearer {arguments['api_key']}"}, json=body, timeout=60)
    assert answer.status_code == 200, answer.text
    assert answer.json()["usage"]["completion_tokens"] > 0


def test_keys_and_usage(app: App, client: svc.Svc, text_service: svc.Service) -> None:
    created = client.create_key("py-alice", models=[TEXT_MODEL], expires="1d")
    assert created.key.startswith("svc-k-") and created.models == [TEXT_MODEL] and created.expires_at is not None
    assert "py-alice" in [key.name for key in client.keys()]
    body = {"model": TEXT_MODEL, "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 3}
    answer = httpx.post(f"{app.url}/v1/chat/completions", headers={"Authorization": f"Bearer {created.key}"}, json=body, timeout=60)
    assert answer.status_code == 200, answer.text
    report = client.usage(since="1h", by="key")
    (alice,) = [group for group in report.groups if group.group == "py-alice"]
    assert (alice.requests, alice.prompt_tokens, alice.completion_tokens) == (1, answer.json()["usage"]["prompt_tokens"], answer.json()["usage"]["completion_tokens"])
    (allowance,) = [key for key in report.keys if key.name == "py-alice"]
    assert (allowance.kind, allowance.refused_429, allowance.limits.daily_tokens) == ("key", 0, None)
    week = client.usage(since="1h", hours="week")
    assert week.hourly.window == "week" and sum(hour.tokens for hour in week.hourly.hours if hour.key == "py-alice") == answer.json()["usage"]["total_tokens"]
    assert any(service.id == text_service.id for service in report.services)
    assert client.remove_key("py-alice").name == "py-alice"
    refused = httpx.post(f"{app.url}/v1/chat/completions", headers={"Authorization": f"Bearer {created.key}"}, json=body, timeout=60)
    assert refused.status_code == 401


@pytest.mark.usefixtures("stand_in_openai")
def test_openai_client_with_the_service_key_points_at_the_service_through_the_gateway(app: App, text_service: svc.Service) -> None:
    made = text_service.openai(api_key="sk-python-test-key")
    assert type(made).__name__ == "OpenAI"
    arguments = made.arguments
    assert arguments["base_url"] == f"{app.url}/proxy/{text_service.id}/v1"
    assert arguments["api_key"] == "sk-python-test-key"
    assert arguments["default_headers"] == {"X-Svc-Token": app.token}
    # Those are all a chat-completion client needs: chat for real with them.
    headers = {**arguments["default_headers"], "Authorization": f"Bearer {arguments['api_key']}"}
    body = {"model": TEXT_MODEL, "messages": [{"role": "user", "content": "Hello"}], "max_completion_tokens": 4, "temperature": 0}
    answer = httpx.post(f"{arguments['base_url']}/chat/completions", headers=headers, json=body, timeout=60)
    assert answer.status_code == 200, answer.text
    assert answer.json()["usage"]["completion_tokens"] > 0
    # Without the gateway token the same request is refused by the gateway.
    refused = httpx.post(f"{arguments['base_url']}/chat/completions", headers={"Authorization": headers["Authorization"]}, json=body, timeout=60)
    assert refused.status_code == 401


def test_stop_then_rm(client: svc.Svc) -> None:
    service = client.run("text-generation", TEXT_MODEL, name="py-stop-rm").wait(timeout=START_TIMEOUT)
    with pytest.raises(svc.SvcApiError) as refused:
        service.rm()
    assert (refused.value.status, refused.value.error) == (409, "conflict")
    assert service.stop().status == "STOPPED"
    assert [listed.status for listed in client.services() if listed.id == service.id] == ["STOPPED"]
    assert service.id in [ended.id for ended in client.services(status="STOPPED")]
    service.rm()
    with pytest.raises(svc.SvcApiError) as gone:
        service.refresh()
    assert gone.value.status == 404
