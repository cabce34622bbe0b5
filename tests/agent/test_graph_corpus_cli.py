"""End to end over the offline phrasing corpus: `caec ask --json` answers every calculation row
with the expected tool, the expected validated inputs and exit code 0; rows with missing inputs
exit 2 naming each one; help requests answer with exit 0, chat with no calculation in it exits 2
(needs_input: which calculation?)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from caec_desktop import cli
from caec_desktop.tools import execute
from tests.agent.corpus import CORPUS, Row

CALCULATIONS = [r for r in CORPUS if r.tool is not None]
MISSING = [r for r in CORPUS if r.tool is None and r.missing]
CONVERSATION = [r for r in CORPUS if r.tool is None and r.intent in ("help", "other")]


def ask(capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["ask", text, "--json", "--mode", "offline"])
    return code, json.loads(capsys.readouterr().out)


def test_corpus_is_large_enough() -> None:
    assert len(CALCULATIONS) >= 60 and len(MISSING) >= 10 and len(CONVERSATION) >= 3


@pytest.mark.parametrize("row", CALCULATIONS, ids=[r.text for r in CALCULATIONS])
def test_calculation_rows_answer_with_the_expected_tool(
    capsys: pytest.CaptureFixture[str], row: Row
) -> None:
    code, out = ask(capsys, row.text)
    assert (code, out["status"]) == (0, "answered"), out["answer"]
    assert [r["tool"] for r in out["tool_results"]] == [row.tool]
    result = out["tool_results"][0]
    for key, value in row.args.items():
        if isinstance(value, float | int) and not isinstance(value, bool):
            assert result["args"][key] == pytest.approx(value, rel=1e-9), key
        else:
            assert result["args"][key] == value, key
    # the answer is the tool's own result for those inputs (nothing altered on the way)
    again = execute(row.tool or "", result["args"])
    assert again.ok and again.result == result["result"]
    assert f"### `{row.tool}`" in out["answer"]


@pytest.mark.parametrize("row", MISSING, ids=[r.text for r in MISSING])
def test_rows_with_missing_inputs_exit_2_and_name_them(
    capsys: pytest.CaptureFixture[str], row: Row
) -> None:
    code, out = ask(capsys, row.text)
    assert (code, out["status"]) == (2, "needs_input")
    assert out["tool_results"] == []
    for name in row.missing:
        assert name in out["answer"]


@pytest.mark.parametrize("row", CONVERSATION, ids=[r.text for r in CONVERSATION])
def test_help_answers_and_chat_needs_input_without_tools(
    capsys: pytest.CaptureFixture[str], row: Row
) -> None:
    code, out = ask(capsys, row.text)
    # Help is answered; a question with no calculation in it computed nothing: the user must
    # say which calculation (needs_input, exit 2), never "answered".
    want = (0, "answered") if row.intent == "help" else (2, "needs_input")
    assert (code, out["status"], out["intent"]) == (*want, row.intent)
    assert out["attempts"] == 0 and out["answer"]
    kinds = [e["kind"] for e in out["events"]]
    assert "tool_call" not in kinds and "node_start" in kinds
