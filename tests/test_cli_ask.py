"""`caec ask` / `caec chat`: JSON shape, trace file, exit codes (two through a real subprocess)."""

from __future__ import annotations

import io
import json
import math
import os
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from caec_desktop import cli
from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services import session
from tests.scripted_selector import ScriptedSelector

MASS_QUERY = "mass of a 2 mm particle rho=7800 kg/m3"
MASS_EXPECTED = 7800 * math.pi * 0.002**3 / 6  # m = ρ π d³ / 6 (docs/references.md §1.6)


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No user config, keyring or key: the CLI runs offline unless told otherwise; `caec chat`
    saves its conversation into a private data dir."""
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("CAEC_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def ask_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = cli.main(["ask", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_ask_json_answers_and_writes_the_trace(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    trace = tmp_path / "run.jsonl"
    code, out = ask_json(capsys, MASS_QUERY, "--trace", str(trace))
    assert code == 0
    assert out["status"] == "answered" and out["mode"] == "offline"
    (result,) = out["tool_results"]
    assert result["tool"] == "particle_mass"
    assert result["result"]["particle_mass"] == pytest.approx(MASS_EXPECTED, rel=1e-9)
    assert {"answer", "intent", "errors", "attempts", "refused", "usage", "events"} <= set(out)
    lines = trace.read_text(encoding="utf-8").splitlines()
    events = [TraceEvent.from_json(line) for line in lines]
    assert [e.model_dump() for e in events] == out["events"]
    assert events[0].kind == "run_start" and events[-1].kind == "run_end"


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("contact stress F=10 N r=1 mm steel", "refused"),
        ("rayleigh time step r=-1 mm rho=2500 E=70 GPa nu=0.25", "invalid"),
        ("rayleigh time step for glass", "needs_input"),  # the radius is missing
    ],
)
def test_refused_invalid_and_missing_exit_2(
    capsys: pytest.CaptureFixture[str], query: str, status: str
) -> None:
    code, out = ask_json(capsys, query)
    assert (code, out["status"]) == (2, status)
    assert "What to do next" in out["answer"]


def test_model_failure_exits_3(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(
        sys.modules,
        "caec_desktop.agent.selection.llm",
        types.ModuleType("caec_desktop.agent.selection.llm"),
    )
    code, out = ask_json(
        capsys, MASS_QUERY, "--mode", "local", "--base-url", "http://127.0.0.1:9/v1"
    )
    assert (code, out["status"], out["mode"]) == (3, "model_error", "local")


def test_a_bug_exits_1(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(ScriptedSelector):
        async def select(self, request):  # type: ignore[no-untyped-def]
            raise RuntimeError("selector bug")

    monkeypatch.setattr(session, "default_selector", lambda settings: Broken())
    code, out = ask_json(capsys, MASS_QUERY)
    assert (code, out["status"]) == (1, "error")
    assert "internal error" in out["answer"]  # the exception text goes to the log only
    assert "RuntimeError" not in out["answer"] and "selector bug" not in out["answer"]


def test_plain_output_is_the_markdown_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["ask", MASS_QUERY]) == 0
    out = capsys.readouterr().out
    assert "### `particle_mass`" in out
    assert f"| particle_mass | {MASS_EXPECTED * 1e6:.4g} mg |" in out


def test_chat_prints_events_and_answers_until_quit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{MASS_QUERY}\n\nhelp\nquit\nnever read\n"))
    assert cli.main(["chat"]) == 0
    out = capsys.readouterr().out
    assert out.count("run_start") == 2 and out.count("run_end") == 2
    assert "tool_call        tools   particle_mass" in out
    assert "particle_mass | " in out
    assert "never read" not in out


def test_chat_ends_on_eof(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert cli.main(["chat", "--mode", "offline"]) == 0
    assert "caec chat (offline, regex)" in capsys.readouterr().out


def _caec(*argv: str, config: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CAEC_CONFIG_DIR": str(config), "CAEC_DATA_DIR": str(config / "data")}
    return subprocess.run(
        [sys.executable, "-m", "caec_desktop.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=50,
        check=False,
    )


def test_subprocess_exit_codes(tmp_path: Path) -> None:
    ok = _caec("ask", MASS_QUERY, "--json", config=tmp_path)
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["tool_results"][0]["tool"] == "particle_mass"
    refused = _caec("ask", "contact stress F=10 N r=1 mm steel", config=tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert "Refused" in refused.stdout


@pytest.mark.parametrize(
    ("where", "why"),
    [("missing-dir/run.jsonl", "does not exist"), (".", "it is a folder")],
)
def test_unwritable_trace_file_is_refused_before_the_turn_runs(
    where: str, why: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Found before the turn runs, so no answer is computed and then lost (-v would print the
    turn's events to stderr: none are)."""
    target = tmp_path / where
    assert cli.main(["ask", MASS_QUERY, "--trace", str(target), "-v"]) == 2
    captured = capsys.readouterr()
    assert "--trace: cannot write" in captured.err and why in captured.err
    assert "run_start" not in captured.err and captured.out == ""


def test_chat_and_ask_json_show_the_conversations_token_usage(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each selection of the scripted model spends 120 tokens: the chat shows the turn's 120
    and the conversation's running total."""
    monkeypatch.setattr(session, "default_selector", lambda settings: ScriptedSelector())
    monkeypatch.setattr(sys, "stdin", io.StringIO("rayleigh\nrayleigh again\nquit\n"))
    assert cli.main(["chat"]) == 0
    out = capsys.readouterr().out
    assert "(120 tokens this turn, 120 tokens in this conversation)" in out
    assert "(120 tokens this turn, 240 tokens in this conversation)" in out
    assert cli.main(["ask", "--json", "rayleigh"]) == 0
    turn = json.loads(capsys.readouterr().out)
    assert turn["usage"]["total_tokens"] == 120
    assert turn["conversation_usage"]["total_tokens"] == 120


UNSEEN_ARGS = {
    "particle_diameter": "3 mm\x1b]0;title\x07",  # an escape sequence retitling the terminal
    "density": "7850\x1b[2J\x9b2J\u202e kg/m^3",  # clear screen (7-bit and 8-bit), bidi override
}


def _model_quoting_unseen_characters() -> Any:
    from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

    server = FakeOpenAI()
    intent = tool_call("respond", {"intent": "calculation"}, "call_intent")
    call = tool_call("particle_mass", UNSEEN_ARGS)
    server.add(
        Reply(message={"role": "assistant", "content": None, "tool_calls": [intent]}),
        *[Reply(message={"role": "assistant", "content": "", "tool_calls": [call]})] * 6,
    )
    return server


@pytest.mark.parametrize("as_json", [False, True])
def test_what_a_model_sends_cannot_drive_the_terminal(
    as_json: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    # a refusal quotes the model's argument: its control and bidi characters are printed as
    # escapes, never raw; JSON output reads back as the very text the model sent
    with _model_quoting_unseen_characters() as server:
        argv = ["ask", "--mode", "local", "--base-url", server.base_url, "--model", "m"]
        code = cli.main([*argv, "particle mass of a 3 mm ball", *(["--json"] if as_json else [])])
    out = capsys.readouterr().out
    assert code == 2
    assert not any(c in out for c in "\x1b\x07\x9b\u202e\r")
    if as_json:
        texts: list[str] = []
        json.loads(
            out,
            object_hook=lambda d: texts.extend(v for v in d.values() if isinstance(v, str)) or d,
        )
        assert any(UNSEEN_ARGS["density"] in text for text in texts)
    else:
        assert "\\x1b[2J\\x9b2J\\u202e kg/m^3" in out
        assert "\\x1b]0;title\\x07" in out


def test_a_run_time_without_throughput_says_so_at_the_top_and_how_to_give_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A run time asked ("how long will my run take") without a throughput: the answer showed
    the steps and said "No wall time: give throughput" only among the calc sheet's notes. Its
    first lines now say the wall time was not computed, what it needs and how to give it, the
    steps still computed; asked again as it says, the wall time comes."""
    question = "how long will my run take with 1e6 particles, 10 s simulated and dt = 1e-6 s"
    code, out = ask_json(capsys, question)
    assert code == 0 and out["status"] == "answered"
    top = out["answer"].split("| Result |")[0]
    assert "**Not computed:** wall time" in top and "throughput" in top
    (result,) = out["tool_results"]
    assert result["result"]["time_steps"] == math.ceil(10 / 1e-6)
    assert "| time_steps | 10,000,000 |" in out["answer"]
    assert result["result"]["wall_time"] is None
    advice = top.split('e.g. "')[1].split('"')[0]  # the phrase it suggests
    code, out = ask_json(capsys, f"{question}, {advice}")
    assert code == 0 and "Not computed" not in out["answer"]
    (result,) = out["tool_results"]
    throughput, cores = result["args"]["throughput"], result["args"]["n_cores"]
    assert (throughput, cores) == (1e6, 16)  # read from the suggested phrase
    # t_wall = N·n / (P · n_c · η), η = 1 (docs/references.md §R2.6)
    assert result["result"]["wall_time"] == pytest.approx(1e6 * 1e7 / (1e6 * 16), rel=1e-12)


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_an_empty_question_exits_2_with_words(
    query: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["ask", query, "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""  # no turn ran: nothing to print as the answer
    assert "the question is empty" in captured.err and "caec ask" in captured.err
