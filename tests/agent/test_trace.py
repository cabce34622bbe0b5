"""TraceEvent round-trips as JSONL; redact() removes API keys wherever they hide."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from caec_desktop.agent.trace import EVENT_KINDS, TraceEvent, redact
from tests.keys import fake_key

KEY = fake_key("0123456789abcdef0123456789abcdef")


def test_event_round_trips_through_jsonl() -> None:
    ev = TraceEvent(seq=1, t_ms=0.5, kind="tool_call", node="tools", data={"name": "x", "a": [1]})
    line = ev.to_json()
    assert json.loads(line)["kind"] == "tool_call"
    assert TraceEvent.from_json(line) == ev


def test_kinds_match_design() -> None:
    assert set(EVENT_KINDS) == {
        "run_start", "node_start", "node_end", "llm_request", "llm_response", "tool_call",
        "validation_error", "retry", "refusal", "tool_result", "sweep", "warning", "error",
        "run_end",
    }  # fmt: skip


@pytest.mark.parametrize("bad", [{"seq": 0}, {"kind": "nope"}, {"t_ms": -1.0}])
def test_invalid_events_are_rejected(bad: dict[str, object]) -> None:
    fields: dict[str, object] = {"seq": 1, "t_ms": 0.0, "kind": "run_start", **bad}
    with pytest.raises(ValidationError):
        TraceEvent.model_validate(fields)


def test_redact_removes_keys_everywhere() -> None:
    data = {
        "message": f"401 for key {KEY}",
        "headers": {"Authorization": f"Bearer {KEY}"},
        "api_key": KEY,
        "nested": [f"x {KEY} y", {"other": "sk-proj-abcdefghijklmnop"}],
        "custom": "my-own-secret-value",
    }
    out = redact(data, secrets=("my-own-secret-value",))
    text = json.dumps(out)
    assert KEY not in text
    assert "sk-proj-abcdefghijklmnop" not in text
    assert "my-own-secret-value" not in text
    assert out["message"] == "401 for key ***"
    assert out["api_key"] == "***"


def test_redact_leaves_ordinary_data_alone() -> None:
    data = {"tool": "rayleigh_timestep", "args": {"particle_radius": 0.001}, "n": 3}
    assert redact(data) == data
