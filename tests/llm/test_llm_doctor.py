"""`caec doctor` and `probe()` against the loopback server."""

from __future__ import annotations

import json
from typing import Any

import pytest

from caec_desktop.agent.selection.llm.doctor import probe
from caec_desktop.cli import main
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

ARGS = {
    "particle_radius": "1 mm",
    "density": "2500 kg/m^3",
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
USAGE = {"prompt_tokens": 50, "completion_tokens": 5, "total_tokens": 55}
NATIVE = Reply(
    message={"role": "assistant", "content": None, "reasoning": "call the tool",
             "tool_calls": [tool_call("rayleigh_timestep", ARGS, "c1")]},
    usage=USAGE,
)  # fmt: skip
TEXT = Reply(
    message={"role": "assistant", "content": f"TOOL_CALL: rayleigh_timestep {json.dumps(ARGS)}"}
)


def checks(report: Any) -> dict[str, bool]:
    return {c.name: c.ok for c in report.checks}


@pytest.mark.asyncio
async def test_everything_works(fake_llm: FakeOpenAI, make_settings: Any) -> None:
    fake_llm.add(NATIVE, TEXT)
    report = await probe(make_settings())
    assert checks(report) == {
        "reachable": True, "model listed": True, "native tool calls": True,
        "text-parsed tool calls": True, "reasoning fields": True, "usage reported": True,
    }  # fmt: skip
    assert (report.recommended_mode, report.recommended_style) == ("local", "native")
    assert "Recommended: mode=local, tool_call_style=native" in report.summary
    native, text = fake_llm.chat_requests
    assert "tools" in native and "tools" not in text


@pytest.mark.asyncio
async def test_server_without_tools_gets_prompt_style(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    fake_llm.add(
        Reply(status=400, body={"error": {"message": "model does not support tools"}}), TEXT
    )
    report = await probe(make_settings(model=""))
    assert report.model == "fake-model"  # the first listed model when none is set
    result = checks(report)
    assert result["native tool calls"] is False and result["text-parsed tool calls"] is True
    assert result["usage reported"] is False and result["reasoning fields"] is False
    assert (report.recommended_mode, report.recommended_style) == ("local", "prompt")


@pytest.mark.asyncio
async def test_unknown_model_and_no_calls_recommends_offline(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    plain = Reply(message={"role": "assistant", "content": "I cannot use tools."})
    fake_llm.add(plain, plain)
    report = await probe(make_settings(model="missing-model"))
    assert checks(report)["model listed"] is False
    assert not report.ok and report.recommended_mode == "offline"
    assert "offline" in report.text()


def test_cli_doctor_unreachable_exits_3(capsys: Any) -> None:
    code = main(
        ["doctor", "--mode", "local", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"]
    )
    out = capsys.readouterr().out
    assert code == 3
    assert "[--] reachable" in out and "offline mode" in out


def test_cli_doctor_json(fake_llm: FakeOpenAI, capsys: Any) -> None:
    fake_llm.add(NATIVE, TEXT)
    code = main(
        [
            "doctor",
            "--mode",
            "local",
            "--base-url",
            fake_llm.base_url,
            "--model",
            "fake-model",
            "--json",
        ]
    )
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["ok"] is True and data["recommended_style"] == "native"


def test_cli_doctor_needs_an_llm_mode(capsys: Any) -> None:
    assert main(["doctor"]) == 2
    assert "--mode" in capsys.readouterr().err


@pytest.mark.asyncio
async def test_a_call_to_another_tool_is_named_not_called_no_call(
    fake_llm: FakeOpenAI, make_settings: Any
) -> None:
    """A model that answers the probe with a well-formed call to another tool can call tools:
    the report names the tool it called instead (it said "made no valid tool call")."""
    mass = {"particle_diameter": "1 mm", "density": "2500 kg/m^3"}
    other = Reply(message={"role": "assistant", "content": None,
                           "tool_calls": [tool_call("particle_mass", mass, "c1")]})  # fmt: skip
    unknown = Reply(message={"role": "assistant",
                             "content": 'TOOL_CALL: launch_rockets {"count": 3}'})  # fmt: skip
    fake_llm.add(other, unknown)
    report = await probe(make_settings())
    text = report.text()
    assert "no valid tool call" not in text and "made no tool call" not in text
    assert (
        "the model called particle_mass, launch_rockets (no such tool) when asked to call "
        "rayleigh_timestep" in text
    )
    details = {c.name: c.detail for c in report.checks}
    assert details["native tool calls"].startswith("called particle_mass {")
    assert "not rayleigh_timestep" in details["native tool calls"]
    assert report.recommended_mode == "offline" and report.ok  # the net answers meanwhile


@pytest.mark.asyncio
async def test_no_call_at_all_is_still_said_so(fake_llm: FakeOpenAI, make_settings: Any) -> None:
    plain = Reply(message={"role": "assistant", "content": "I cannot use tools."})
    fake_llm.add(plain, plain)
    text = (await probe(make_settings())).text()
    assert "the model made no tool call when asked to call one" in text
