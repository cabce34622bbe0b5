"""How a finished turn looks in the chat, live or reopened from the history.

A live run shows each tool result card as its event arrives and the answer when the run ends; a
reopened conversation shows the same cards and answers from the stored turns, so both paths share
`answer_bubble` and look alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from caec_desktop.ui.result_card import sheet_of

if TYPE_CHECKING:
    from caec_desktop.services.history import StoredTurn
    from caec_desktop.ui.chat_pane import ChatPane

FORM_PREFIX = "[form] "
CLI_TO_GUI = {
    "(`--mode offline`)": "(Settings → Mode: offline, or “Switch to offline” in the banner)",
    " (`caec run TOOL key=value …`)": " (the Tool form tab on the right)",
}
"""The command-line advice in reports, as the window's own controls (GUI, not CLI flags)."""


def answer_bubble(
    answer: str, status: str, tool_results: Iterable[Mapping[str, Any]]
) -> tuple[str, str]:
    """The role and Markdown of a turn's answer bubble ("" when the cards say it all).

    Each result is already on its card above the answer (verdict, table, inputs, calc sheet), so
    the answer drops that result's section and keeps the rest: a model's summary, preset notes,
    warnings, rejected or missing inputs.
    """
    from caec_desktop.tools.sweep import SWEEP_TOOL

    role = "error" if status in ("model_error", "error") else "answer"
    text = answer or f"(no answer; status {status})"
    for cli, gui in CLI_TO_GUI.items():
        text = text.replace(cli, gui)
    results = list(tool_results)
    for res in results:
        if res.get("tool") == SWEEP_TOOL and isinstance(res.get("result"), dict):
            text = _without_sweep(text, res["result"])  # the sweep card shows it
            continue
        text = _without_section(text, res)
    if results and answer and not text.strip():
        return role, ""
    return role, text.strip() if results else text


def _without_section(text: str, res: Mapping[str, Any]) -> str:
    """`text` without the report's section of result `res`: from its `### `tool`` heading to the
    end of its calc sheet (or of its inputs line when it has no sheet)."""
    tool = str(res.get("tool") or res.get("name") or "")
    start = text.find(f"### `{tool}`")
    if start < 0:
        return text
    sheet = sheet_of(res.get("calc_sheet"))
    end = text.find(sheet.markdown(), start) if sheet is not None else -1
    if end >= 0 and sheet is not None:
        end += len(sheet.markdown())
    elif (heading := text.find(f"**Calc sheet — `{tool}`**", start)) >= 0:
        end = _sheet_end(text, heading)  # written in the display units of its time
    else:
        inputs = text.find("\nInputs: ", start)
        next_section = text.find("\n\n", inputs + 1 if inputs >= 0 else start)
        end = len(text) if next_section < 0 else next_section
    return text[:start] + text[end:].lstrip("\n")


def _without_sweep(text: str, table: Mapping[str, Any]) -> str:
    """`text` without the report's section of sweep `table` (`tools.sweep.sweep_markdown`): its
    heading, its table and its "Other inputs" line. A stored answer's table is in the display
    units and figures of its time, so the section is found by its heading and shape, not
    verbatim."""
    from caec_desktop.tools.sweep import summary_line

    start = text.find(f"### Sweep: {summary_line(dict(table))}")
    if start < 0:
        return text
    lines = text[start:].split("\n")
    end = 1
    if end < len(lines) and not lines[end]:
        end += 1
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    if end + 1 < len(lines) and not lines[end] and lines[end + 1].startswith("Other inputs: "):
        end += 2
    return text[:start] + "\n".join(lines[end:]).lstrip("\n")


_SHEET_TITLES = ("*Thresholds:*", "*Notes:*", "*References:*")
"""The titled lists a calc sheet may end with (`CalcSheet.markdown`, tools/base.py)."""


def _sheet_end(text: str, heading: int) -> int:
    """Where the calc sheet whose heading starts at `heading` ends, read from its shape: its
    numbered steps, then its titled lists (`CalcSheet.markdown`). A stored answer's sheet was
    written in the display units and figures of its time, so it need not equal the sheet made
    now from the same result."""
    end = text.find("\n", heading)
    if end < 0:
        return len(text)
    in_list = False
    while end < len(text):
        nxt = text.find("\n", end + 1)
        line = text[end + 1 : nxt if nxt >= 0 else len(text)]
        if line in _SHEET_TITLES:
            in_list = True
        elif line and not (_is_step(line) or (in_list and line.startswith("- "))):
            return end
        if nxt < 0:
            return len(text)
        end = nxt
    return end


def _is_step(line: str) -> bool:
    number, dot, _ = line.partition(". ")
    return bool(dot) and number.isdigit()


def source_of(turn: StoredTurn) -> str:
    """Where the turn's request came from ("ask", "form", …), from its run_start event."""
    for ev in turn.events:
        if ev.kind == "run_start":
            return str(ev.data.get("source", "ask"))
    return "ask"


def turn_steps(chat: ChatPane, turn: StoredTurn) -> list[Callable[[], object]]:
    """A stored turn as the live run showed it (request, result cards, answer), in steps, each
    adding one widget, so it can be shown over several loop turns (ChatPane.add_newest,
    ChatPane.add_older)."""
    shown = FORM_PREFIX + turn.user_text if source_of(turn) == "form" else turn.user_text
    results = list(turn.result.get("tool_results") or [])
    steps: list[Callable[[], object]] = [partial(chat.add_message, "user", shown)]
    steps += [partial(chat.add_result, dict(res)) for res in results]
    role, text = answer_bubble(
        str(turn.result.get("answer", "")), str(turn.result.get("status", "?")), results
    )
    if text:
        steps.append(partial(chat.add_message, role, text))
    return steps
