"""The offline safety net: a model's turn that computed nothing gets the offline reader's answer.

When an LLM turn ends without a valid tool result — prose twice, unknown tools, invalid or
borrowed arguments after the last attempt, a server that failed, timed out or could not be
reached, or a calculation
the model classified as chat — the offline reader (the regex selector) reads the user's text. If
it builds a call that validates and runs, that result is the answer, labelled as the offline
reader's; the model's attempts stay in the turn's errors and trace. A model's own numbers are
never shown as a result. `Settings.safety_net` turns it off.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from caec_desktop.agent.context import OfflineReader
from caec_desktop.agent.results import accept_result
from caec_desktop.agent.routing import TOOL_INTENTS
from caec_desktop.agent.state import AgentState, ToolResultEntry, history, request_text
from caec_desktop.tools import execute

NO_VALID_CALL = "the model did not produce a valid tool call"
WORDS_NOT_CALL = "the model answered in words, not with a tool call"
TURN_TIME_LIMIT = "the model did not finish within the turn's time limit"
_SERVER_FAULTS = {
    "timeout": "the model's server did not answer in time",
    "connection": "the model's server could not be reached",
}
"""Why the net answered, for each server failure it answers (both the same way)."""


def net_reason(state: AgentState, status: str) -> str:
    """Why the safety net answers a turn that ended with `status`, in words: the model's
    server failed (and how), no valid tool call, or words instead of a call. Recorded with the
    turn (`safety_net_reason`), the answer's heading and calculation packages say it."""
    if status == "model_error":
        kind = str(state.get("error_kind") or "")
        return _SERVER_FAULTS.get(kind, f"the model's server failed ({kind or 'an error'})")
    if status == "invalid":
        return NO_VALID_CALL
    return WORDS_NOT_CALL


def net_label(reason: str) -> str:
    """The heading of an answer the safety net computed."""
    return (
        f"**{reason[:1].upper()}{reason[1:]}; the offline reader computed this from your text — "
        "check the inputs.**"
    )


PATHS = ("model", "safety_net", "offline", "form", "none")
"""How a turn's results were reached (`AgentState.path`, `caec ask --json`, history, reports):
the model's own call, the safety net, the offline reader as the chosen mode, a form, none."""
MODEL_FAULTS = frozenset({
    "timeout", "connection", "deadline", "tools_unsupported", "invalid_reply", "upstream",
    "context_length", "bad_request", "stream_unsupported",
})  # fmt: skip
"""Model errors the safety net answers. A server that does not answer in time and one that
cannot be reached are answered alike (docs/llm-servers.md), the heading naming which. Not the
account set-up ones (key refused, no credits, rate limit, unknown model): they need the user."""
_PATH_OF_SOURCE = {"llm": "model", "llm_text": "model", "regex": "offline"}


def path_of(state: AgentState) -> str:
    """The path of a finished turn that did not use the safety net."""
    results = state.get("tool_results") or []
    if not results:
        return "none"
    return _PATH_OF_SOURCE.get(results[0]["source"], "form")


def wanted(state: AgentState, status: str, model_turn: bool, reader: OfflineReader) -> bool:
    """Whether the safety net should try this turn (its status as it would end without it)."""
    if not model_turn or state.get("tool_results") or status in ("refused", "cancelled"):
        return False
    if status == "invalid":
        return True
    if status == "model_error":
        return state.get("error_kind") in MODEL_FAULTS
    # answered without a call: only when the model took a calculation for chat (its prose
    # may hold numbers of its own)
    text = request_text(state)
    return state.get("attempts", 0) == 0 and reader.classify(text, history(state)) in TOOL_INTENTS


def offline_results(
    state: AgentState, reader: OfflineReader, emit: Callable[[str, dict[str, Any]], None]
) -> tuple[list[ToolResultEntry], str]:
    """The offline reader's valid results for the turn's request, and its reading notes.

    Empty when it finds no calculation, misses inputs, or its call does not validate (then the
    turn ends as it would have: the model's rejected calls and the inputs to give)."""
    selection = reader.select(request_text(state), history(state))
    results: list[ToolResultEntry] = []
    for call in selection.calls:
        emit("tool_call", {
            "name": call.name, "args": call.args, "source": call.source,
            "arg_sources": call.arg_sources, "safety_net": True,
        })  # fmt: skip
        outcome = execute(call.name, call.args)
        if not outcome.ok:
            emit("error", {
                "kind": "safety_net", "message": "the offline reader's call was not valid",
                "messages": [e.text() for e in outcome.errors],
            })  # fmt: skip
            return [], ""
        results.append(accept_result(call, outcome, emit, safety_net=True))
    return results, selection.reply or ""


def guarded(text: str, history_: list[dict[str, Any]], reader: OfflineReader) -> str:
    """Why the stress guard refuses `text` for the net (its tool included; "" when it may go
    on): a model's turn whose classify failed never met the request guard."""
    from caec_desktop.agent.guard import unsafe_reason

    tool = reader.tool(text)
    return unsafe_reason(text, (tool,) if tool else ()) or ""


def after_deadline(
    text: str,
    history_: list[dict[str, Any]],
    reader: OfflineReader,
    refuse_unsafe: bool,
    failure: str,
    emit: Callable[[str, dict[str, Any]], None],
) -> dict[str, Any] | None:
    """The safety net for a turn stopped at its time limit (outside the graph): the final state
    with the offline reader's results and the labelled answer, or None when it computes nothing
    (or the guard refuses the question: the deadline's own message stands)."""
    from caec_desktop.agent.report import build_report
    from caec_desktop.agent.state import turn_input

    state: AgentState = {**turn_input(text, history_)}
    if refuse_unsafe and guarded(text, history_, reader):
        return None
    results, notes = offline_results(state, reader, emit)
    if not results:
        return None
    done: AgentState = {**state, "tool_results": results, "reply": notes}
    answer = build_report(done, "answered")
    answer = f"{net_label(TURN_TIME_LIMIT)}\n\n(The model failed: {failure})\n\n{answer}"
    return {
        "tool_results": results, "answer": answer, "path": "safety_net", "reply": notes,
        "safety_net_reason": TURN_TIME_LIMIT,
    }  # fmt: skip
