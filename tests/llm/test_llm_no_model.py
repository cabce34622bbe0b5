"""Local mode with no model set: `caec ask` uses the server's first listed model (as `caec doctor`
does) and says so in the trace, or fails naming the setting when the server lists none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.cli import main
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

QUERY = "Rayleigh time step for 1 mm radius glass beads, 2500 kg/m3, E 70 GPa, nu 0.25"
ARGS = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}


@pytest.fixture(autouse=True)
def no_model_configured(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    for name in ("CAEC_MODEL", "CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE"):
        monkeypatch.delenv(name, raising=False)


def ask(fake_llm: FakeOpenAI, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["ask", QUERY, "--mode", "local", "--base-url", fake_llm.base_url, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_ask_uses_the_first_listed_model_and_notes_it(
    fake_llm: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.models = ["qwen3-8b", "llama-3.2-3b"]
    intent = tool_call("respond", {"intent": "calculation"}, "call_i")
    fake_llm.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [intent]}),
        Reply(
            message={
                "role": "assistant",
                "content": "",
                "tool_calls": [tool_call("rayleigh_timestep", ARGS)],
            },
            finish_reason="tool_calls",
        ),
        Reply(message={"role": "assistant", "content": "Done."}),
    )
    code, out = ask(fake_llm, capsys)
    assert code == 0 and out["status"] == "answered"
    assert [r["model"] for r in fake_llm.chat_requests] == ["qwen3-8b"] * 3
    listed = [e for e in out["events"] if e["data"].get("purpose") == "list_models"]
    assert len(listed) == 1 and listed[0]["data"]["model"] == "qwen3-8b"
    note = listed[0]["data"]["content"]
    assert "CAEC_MODEL" in note and "qwen3-8b" in note and "llama-3.2-3b" in note
    assert sum(1 for r in fake_llm.requests if r.path.endswith("/models")) == 1


def test_ask_names_the_setting_when_the_server_lists_no_model(
    fake_llm: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.models = []
    code, out = ask(fake_llm, capsys)
    assert code == 3 and out["status"] == "model_error"
    assert "CAEC_MODEL" in out["answer"] and "--model" in out["answer"]
    assert "lists no model" in out["answer"]
    assert fake_llm.chat_requests == []  # no request naming no model was sent


def test_an_unreachable_server_is_a_clear_model_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeOpenAI() as gone:
        base_url = gone.base_url
    monkeypatch.setenv("CAEC_SAFETY_NET", "false")  # with it, the offline reader answers too
    code = main(["ask", QUERY, "--mode", "local", "--base-url", base_url, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 3 and out["status"] == "model_error"
    assert "could not be reached" in out["answer"] and "CAEC_MODEL" in out["answer"]
    monkeypatch.setenv("CAEC_SAFETY_NET", "true")  # as a timeout (docs/llm-servers.md, 3)
    code = main(["ask", QUERY, "--mode", "local", "--base-url", base_url, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["status"], out["path"]) == (0, "answered", "safety_net")
    assert out["safety_net_reason"] == "the model's server could not be reached"
    assert "could not be reached" in out["answer"] and "CAEC_MODEL" in out["answer"]
