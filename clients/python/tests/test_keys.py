"""API keys from Python: limits, tier and weight at create_key(), changed by update_key() with the same
key (None removes a limit), and its refusals: a bad value (400 naming the field), an unknown key (404)."""

from __future__ import annotations

import pytest

import svc


def test_limits_tier_and_weight_set_and_changed(client: svc.Svc) -> None:
    created = client.create_key("py-limits", requests_per_minute=60, daily_tokens=2_000_000, tier="flex", weight=2)
    assert created.limits == svc.KeyLimits(requests_per_minute=60, tokens_per_minute=None, max_parallel=None, daily_tokens=2_000_000, monthly_tokens=None)
    assert (created.tier, created.weight) == ("flex", 2)
    try:
        updated = client.update_key("py-limits", tokens_per_minute=20_000, daily_tokens=None, tier="default")
        assert updated.id == created.id
        assert updated.limits.requests_per_minute == 60
        assert updated.limits.tokens_per_minute == 20_000
        assert updated.limits.daily_tokens is None
        assert (updated.tier, updated.weight) == ("default", 2)
        assert [key.limits for key in client.keys() if key.name == "py-limits"] == [updated.limits]
    finally:
        client.remove_key("py-limits")


def test_refusals_name_what_to_fix(client: svc.Svc) -> None:
    client.create_key("py-refusals", max_parallel=4)
    try:
        with pytest.raises(svc.SvcApiError) as bad:
            client.update_key("py-refusals", max_parallel=-1)
        assert bad.value.status == 400
        assert bad.value.details == {"field": "maxParallel"}
        with pytest.raises(svc.SvcApiError) as unknown:
            client.update_key("py-nobody", max_parallel=2)
        assert unknown.value.status == 404
        with pytest.raises(TypeError, match="Unknown key option rpm"):
            client.update_key("py-refusals", rpm=3)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="tier cannot be removed"):
            client.update_key("py-refusals", tier=None)  # type: ignore[typeddict-item]
        assert [key.limits.max_parallel for key in client.keys() if key.name == "py-refusals"] == [4]
    finally:
        client.remove_key("py-refusals")
