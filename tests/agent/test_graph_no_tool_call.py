"""A model that answers a calculation in its own words (no tool call), against the loopback
OpenAI-compatible server: told once to call a tool, then the turn is invalid; a call after the
reminder is run as usual. Rayleigh numbers: docs/references.md §1.2 (G = E/(2(1+ν)),
dt_R = π R sqrt(ρ/G)/(0.1631 ν + 0.8766))."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest

from caec_desktop.services.session import Session, TurnResult
from caec_desktop.settings.model import Settings
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

QUERY = "Rayleigh time step for 1 mm radius glass beads, 2500 kg/m3, E 70 GPa, nu 0.25"
PROSE = "The Rayleigh time step is 5 s."
ARGS = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}


@pytest.fixture
def server() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as fake:
        yield fake


def _settings(server: FakeOpenAI, safety_net: bool = True) -> Settings:
    return Settings(
        safety_net=safety_net,
        mode="local",
        base_url=server.base_url,
        model="fake-model",
        llm_api_key="sk-test-no-tool-call",
        retry_base_delay_s=0.001,
        max_retries=0,
        request_timeout_s=5.0,
    )


def _intent() -> Reply:
    call = tool_call("respond", {"intent": "calculation"}, "call_intent")
    return Reply(message={"role": "assistant", "content": None, "tool_calls": [call]})


def _prose(text: str = PROSE) -> Reply:
    return Reply(message={"role": "assistant", "content": text})


async def _ask(server: FakeOpenAI, safety_net: bool = True) -> TurnResult:
    session = Session(_settings(server, safety_net))
    try:
        async for _ in session.ask(QUERY):
            pass
    finally:
        await session.aclose()
    assert session.last_turn is not None
    return session.last_turn


def _texts(request: dict[str, Any]) -> str:
    return "\n".join(str(m.get("content") or "") for m in request["messages"])


@pytest.mark.asyncio
async def test_prose_twice_ends_invalid_without_the_models_number(server: FakeOpenAI) -> None:
    server.add(_intent(), _prose(), _prose("It is 5 s, trust me."))
    turn = await _ask(server, safety_net=False)
    assert turn.status == "invalid" and not turn.tool_results and turn.attempts == 2
    _classify, first, second = server.chat_requests
    assert "Call a tool; do not compute numbers yourself" not in _texts(first)
    assert "Call a tool; do not compute numbers yourself" in _texts(second)
    assert "5 s" not in turn.answer
    assert "offline mode" in turn.answer and "form" in turn.answer
    assert turn.answer.count("**What to do next:**") == 1
    assert [e.kind for e in turn.events].count("llm_request") == 3  # no summary was asked for


@pytest.mark.asyncio
async def test_a_call_after_the_reminder_is_validated_and_run(server: FakeOpenAI) -> None:
    call = tool_call("rayleigh_timestep", ARGS, "call_r1")
    server.add(
        _intent(),
        _prose(),
        Reply(message={"role": "assistant", "content": "", "tool_calls": [call]}),
        _prose("About 1.02 µs."),
    )
    turn = await _ask(server)
    assert turn.status == "answered" and turn.attempts == 2
    (result,) = turn.tool_results
    r, rho, e, nu = 1e-3, 2500.0, 70e9, 0.25
    expected = math.pi * r * math.sqrt(rho / (e / (2 * (1 + nu)))) / (0.1631 * nu + 0.8766)
    assert result["result"]["rayleigh_timestep"] == pytest.approx(expected, rel=1e-9)
    assert "Rejected inputs" not in turn.answer and "⚠" not in turn.answer


@pytest.mark.asyncio
async def test_prose_twice_is_answered_by_the_offline_reader_labelled(server: FakeOpenAI) -> None:
    """The safety net: the offline reader computes from the user's text; the model's number is
    not shown, the label says who computed, and the path is recorded."""
    server.add(_intent(), _prose(), _prose("It is 5 s, trust me."))
    turn = await _ask(server)
    assert turn.status == "answered" and turn.path == "safety_net" and turn.attempts == 2
    (result,) = turn.tool_results
    assert result["tool"] == "rayleigh_timestep" and result["source"] == "regex"
    g = 70e9 / (2 * (1 + 0.25))  # Rayleigh step, docs/references.md §1.2
    expected = math.pi * 1e-3 * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)
    assert result["result"]["rayleigh_timestep"] == pytest.approx(expected, rel=1e-9)
    assert turn.answer.startswith("**The model did not produce a valid tool call; the offline")
    assert "5 s" not in turn.answer
    assert [e["tool"] for e in turn.errors] == ["(no tool call)"]  # the model's attempt stays
    assert any(e.kind == "tool_result" and e.data.get("safety_net") for e in turn.events)
