"""AsyncSvc(): both tiny models started side by side, used with `await`, stopped by `async with`."""

from __future__ import annotations

import asyncio

import pytest
from conftest import SPEECH_MODEL, SPOKEN_WAV, START_TIMEOUT, TEXT_MODEL, App, hide_openai

import svc


async def test_text_and_speech_services_side_by_side(app: App) -> None:
    async with svc.AsyncSvc() as client:
        async with client.run("text-generation", TEXT_MODEL, name="py-async-text") as text, client.run(
            "speech-recognition", SPEECH_MODEL, input_dir=str(app.inputs), name="py-async-speech"
        ) as speech:
            assert isinstance(text, svc.AsyncService)
            await asyncio.gather(text.wait(timeout=START_TIMEOUT), speech.wait(timeout=START_TIMEOUT))
            live = {service.id: service.status for service in await client.services()}
            assert live[text.id] == live[speech.id] == "HEALTHY"

            answer, transcript = await asyncio.gather(text.chat("Hello", max_tokens=6, temperature=0), speech.transcribe(SPOKEN_WAV))
            assert answer.object == "chat.completion"
            assert answer.usage is not None and answer.usage.completion_tokens > 0
            assert transcript.task == "transcribe" and isinstance(transcript.text, str)
            assert "ready on" in await text.logs()
        assert text.status == speech.status == "STOPPED"


async def test_awaited_run_and_failed_reason(client: svc.Svc) -> None:
    async with svc.AsyncSvc() as aclient:
        service = await aclient.run("text-generation", "svc-tiny/broken-llama-gguf", name="py-async-broken")
        with pytest.raises(svc.ServiceFailedError, match="could not load the model"):
            await service.wait(timeout=START_TIMEOUT)
        assert [model.repo for model in await aclient.models(image="speech-recognition")] == [SPEECH_MODEL]
        assert [profile.name for profile in await aclient.profiles()] == ["default"]
        await service.rm()
    assert service.id not in [ended.id for ended in client.services(all=True)]


async def test_an_async_with_block_that_raised_stops_its_service(app: App, client: svc.Svc) -> None:
    async with svc.AsyncSvc() as aclient:
        with pytest.raises(KeyError):
            async with aclient.run("text-generation", TEXT_MODEL, name="py-async-raised") as service:
                raise KeyError("before it even started")
    assert service.status == "STOPPED"
    # `services()` (svc ls) lists it as ended now, after the live ones.
    assert [listed.status for listed in client.services() if listed.id == service.id] == ["STOPPED"]
    assert app.running_containers(service.id) == []


@pytest.mark.usefixtures("stand_in_openai")
async def test_async_openai_client(app: App, text_service: svc.Service, monkeypatch: pytest.MonkeyPatch) -> None:
    async with svc.AsyncSvc() as aclient:
        (found,) = [service for service in await aclient.services() if service.name == text_service.name]
        made = found.openai(api_key="sk-python-test-key")
        assert type(made).__name__ == "AsyncOpenAI"
        assert made.arguments["base_url"] == f"{app.url}/proxy/{found.id}/v1"
        assert made.arguments["default_headers"] == {"X-Svc-Token": app.token}
        hide_openai(monkeypatch)
        with pytest.raises(svc.OpenAINotInstalledError):
            found.openai(api_key="sk-python-test-key")


async def test_async_keys_and_usage(app: App) -> None:
    async with svc.AsyncSvc() as aclient:
        created = await aclient.create_key("py-async-key")
        assert created.key.startswith("svc-k-") and created.models is None
        assert "py-async-key" in [key.name for key in await aclient.keys()]
        report = await aclient.usage(since="1h", by="model")
        assert report.by == "model" and report.retention_days == 90
        assert (await aclient.remove_key(created.id)).name == "py-async-key"
        assert "py-async-key" not in [key.name for key in await aclient.keys()]
