"""How a finished turn looks in the chat, live or reopened from the history.

A live run shows each tool result card as its event arrives and the answer when the run ends; a
reopened conversation shows the same cards and answers from the stored turns, so both paths share
`answer_bubble` and look alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from caec_desktop.ui.result_card import sheet_of

if TYPE_CHECKING:
    from caec_desktop.services.history import StoredTurn
    from caec_desktop.ui.chat_pane import ChatPane

FORM_PREFIX = "[form] "


def answer_bubble(
    answer: str, status: str, tool_results: Iterable[Mapping[str, Any]]
) -> tuple[str, str]:
    """The role and Markdown of a turn's answer bubble.

    Each calc sheet is already on its result card above the answer, so the answer names the card
    instead of repeating the sheet.
    """
    from caec_desktop.tools.sweep import SWEEP_TOOL, summary_line, sweep_markdown

    role = "error" if status in ("model_error", "error") else "answer"
    text = answer or f"(no answer; status {status})"
    for res in tool_results:
        if res.get("tool") == SWEEP_TOOL and isinstance(res.get("result"), dict):
            table = sweep_markdown(res["result"])
            text = text.replace(table, f"*Sweep: {summary_line(res['result'])}; plot and table "
                                "on the card above.*")  # fmt: skip
        sheet = sheet_of(res.get("calc_sheet"))
        if sheet is not None:
            text = text.replace(sheet.markdown(), "*Calc sheet: on the card above.*")
    return role, text


def source_of(turn: StoredTurn) -> str:
    """Where the turn's request came from ("ask", "form", …), from its run_start event."""
    for ev in turn.events:
        if ev.kind == "run_start":
            return str(ev.data.get("source", "ask"))
    return "ask"


def replay_turn(chat: ChatPane, turn: StoredTurn) -> None:
    """Show a stored turn as the live run showed it: request, result cards, answer."""
    shown = FORM_PREFIX + turn.user_text if source_of(turn) == "form" else turn.user_text
    chat.add_message("user", shown)
    results = list(turn.result.get("tool_results") or [])
    for res in results:
        chat.add_result(dict(res))
    role, text = answer_bubble(
        str(turn.result.get("answer", "")), str(turn.result.get("status", "?")), results
    )
    chat.add_message(role, text)
