"""Issue 20's run options from Python: Slurm's scheduling options, mount=[...], grace_period and image,
shown as given by a dry run, stored with the service; and services() paging through the history."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import START_TIMEOUT, TEXT_MODEL, App

import svc


def test_run_options_reach_the_dry_run_and_the_service(app: App, client: svc.Svc) -> None:
    corpus = app.home / "profile-home" / "py-corpus"
    corpus.mkdir(exist_ok=True)
    dry = client.dry_run("text-generation", TEXT_MODEL, account="proj-1", qos="high", mount=[corpus], grace_period=90, nodelist="node[1-2]")
    assert f"--mount type=bind,source={corpus},target={corpus},readonly" in dry.script
    assert "--label svc.grace-period=90" in dry.script
    assert any(warning.startswith("--account, --qos and --nodelist do nothing on local profile default") for warning in dry.warnings)

    with client.run("text-generation", TEXT_MODEL, name="py-options", account="proj-1", mount=[str(corpus)], grace_period=600) as service:
        service.wait(timeout=START_TIMEOUT)
        details = client.service(service.id).record
        assert details.job.account == "proj-1"
        assert details.mounts == [str(corpus)]
        assert details.grace_period == 600


def test_a_gpu_dry_run_shows_its_placement(client: svc.Svc) -> None:
    dry = client.dry_run("text-generation", TEXT_MODEL, gres=2, engine="sglang")
    assert dry.placement is not None
    assert (dry.placement.source, dry.placement.gpus_per_node, dry.placement.nodes, dry.placement.tensor_parallel) == ("user", 2, 1, 2)
    assert "--tp-size" in dry.script
    assert client.dry_run("text-generation", TEXT_MODEL).placement is None


def test_hostile_option_values_are_refused(client: svc.Svc) -> None:
    for options in ({"account": "a;id"}, {"mount": ["/etc"]}, {"image": "x y"}, {"exclude": "$(id)"}):
        with pytest.raises(svc.SvcApiError) as refused:
            client.dry_run("text-generation", TEXT_MODEL, **options)  # type: ignore[arg-type]
        assert refused.value.status == 400
    with pytest.raises(TypeError, match="mount must be a list of folders"):
        client.dry_run("text-generation", TEXT_MODEL, mount=Path("/data"))  # type: ignore[arg-type]


def test_services_pages_through_the_history(client: svc.Svc) -> None:
    # Two services of its own, stopped at once: pages of one whether or not other tests ran before.
    for name in ("py-page-1", "py-page-2"):
        with client.run("text-generation", TEXT_MODEL, name=name):
            pass
    everything = [service.id for service in client.services(all=True)]
    assert len(everything) >= 2
    seen: list[str] = []
    page, cursor = client.services_page(all=True, limit=1)
    seen += [service.id for service in page]
    while cursor:
        page, cursor = client.services_page(all=True, limit=1, cursor=cursor)
        seen += [service.id for service in page]
    assert seen == everything


def test_app_info_names_the_images(client: svc.Svc) -> None:
    images = {(choice.task, choice.engine): choice for choice in client.info().images}
    assert images[("text-generation", "vllm")].image == "vllm/vllm-openai:v0.28.0"
    assert images[("text-generation", "sglang")].image == "lmsysorg/sglang:v0.5.18"
    assert images[("text-generation", "vllm")].set_by is None
    assert {image.task for image in client.images()} == {"text-generation", "speech-recognition"}


def test_adapters_are_a_list_of_repo_ids_in_the_request_body() -> None:
    from svc.run_options import run_request

    body = run_request("text-generation", "svc-tiny/tiny-llama-gguf", {"adapter": ["svc-tiny/tiny-llama-lora-gguf"]})
    assert body["adapters"] == ["svc-tiny/tiny-llama-lora-gguf"]
    with pytest.raises(TypeError, match="adapter must be a list"):
        run_request("text-generation", "svc-tiny/tiny-llama-gguf", {"adapter": "svc-tiny/tiny-llama-lora-gguf"})
