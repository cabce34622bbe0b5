"""The graph's nodes: `intent`, `tools` (guard → select → validate → execute) and `report`.

Nodes are async, return only their delta, and take the selector and settings from the run-time
context. They report what they do as custom stream events `{"kind", "node", "data"}`, which the
session turns into TraceEvents (seq and time are added there, at one boundary).
"""

from __future__ import annotations

import inspect
import json
import time
from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime

from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.guard import STRESS_TOOL, unsafe_reason
from caec_desktop.agent.inputs import MODEL_SOURCES, borrowed_messages, intent_misfit
from caec_desktop.agent.report import CALL_A_TOOL, NO_TOOL_REPLY, build_report, final_status
from caec_desktop.agent.routing import TOOL_INTENTS
from caec_desktop.agent.safety_net import SAFETY_NET_LABEL, offline_results, path_of, wanted
from caec_desktop.agent.selection.protocol import (
    AttemptError,
    ProposedCall,
    Selection,
    SelectionRequest,
    SelectorError,
    ToolSelector,
)
from caec_desktop.agent.state import (
    MAX_ATTEMPTS,
    NO_CALL,
    AgentState,
    ErrorEntry,
    ToolResultEntry,
    answer_message,
    history,
    request_text,
)
from caec_desktop.tools import execute

Emit = Callable[[str, dict[str, Any]], None]


def _emitter(runtime: Runtime[GraphContext], node: str) -> Emit:
    writer = runtime.stream_writer

    def emit(kind: str, data: dict[str, Any]) -> None:
        writer({"kind": kind, "node": node, "data": data, "t": time.perf_counter()})

    return emit


def _model_error(emit: Emit, exc: SelectorError) -> dict[str, Any]:
    emit("error", {"message": exc.user_message, "kind": exc.kind})
    return {"status": "model_error", "error_message": exc.user_message, "error_kind": exc.kind}


_TAKES_EMIT: dict[type, bool] = {}


def _classify_takes_emit(selector: ToolSelector) -> bool:
    """Whether the selector's classify() takes an optional `emit` (the LLM selector's does: its
    request/response events then join the trace like those of select()). Cached per class."""
    kind = type(selector)
    if kind not in _TAKES_EMIT:
        _TAKES_EMIT[kind] = "emit" in inspect.signature(selector.classify).parameters
    return _TAKES_EMIT[kind]


async def intent_node(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Classify the request (calculation, conversion, help, other) with the selector."""
    emit = _emitter(runtime, "intent")
    selector = runtime.context.selector
    extra = {"emit": emit} if _classify_takes_emit(selector) else {}
    try:
        intent = await selector.classify(request_text(state), history(state), **extra)
    except SelectorError as exc:
        return _model_error(emit, exc)
    return {"intent": intent}


def _attempt_errors(state: AgentState) -> list[AttemptError]:
    return [
        AttemptError(call=ProposedCall(name=e["tool"], args=e["args"]), messages=e["messages"])
        for e in state.get("errors") or []
    ]


def _call_dict(call: ProposedCall) -> dict[str, Any]:
    """`call` as plain data for the state (one level copied: `dataclasses.asdict` deep-copies
    every argument value, ~0.05 ms per turn for nothing, as nodes never modify them)."""
    return {**vars(call), "args": dict(call.args), "arg_sources": dict(call.arg_sources)}


def _key(tool: str, args: dict[str, Any]) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


def _refusal(emit: Emit, reason: str) -> dict[str, Any]:
    emit("refusal", {"reason": reason})
    return {"refused": True, "refusal_reason": reason, "status": "refused"}


def _answered_in_prose(state: AgentState, selector: ToolSelector) -> bool:
    """Whether a selection without calls is a model's reply to a calculation that no call has
    been tried for yet (the offline selector's replies, help and missing inputs, are not)."""
    if state.get("intent") not in TOOL_INTENTS or not getattr(selector, "answers_in_prose", True):
        return False
    return all(e["tool"] == NO_CALL for e in state.get("errors") or [])


def _no_tool_call(emit: Emit, state: AgentState, attempt: int) -> dict[str, Any]:
    """Feed 'call a tool' back once (a rejected attempt, so the route retries); then end invalid."""
    if not state.get("errors") and attempt < MAX_ATTEMPTS:
        emit("validation_error", {"tool": NO_CALL, "messages": [CALL_A_TOOL], "attempt": attempt})
        error = ErrorEntry(attempt=attempt, tool=NO_CALL, args={}, messages=[CALL_A_TOOL])
        return {"proposed": [], "errors": [error], "reply": ""}
    emit("error", {"kind": "no_tool_call", "message": NO_TOOL_REPLY})
    return {"proposed": [], "reply": NO_TOOL_REPLY, "status": "invalid"}


def _model_call_problems(call: ProposedCall, state: AgentState) -> list[str]:
    """Why a model's valid call must not run: a physical input in no message (it asks the user
    instead of computing with it), or a tool that does not answer this kind of request."""
    if call.source not in MODEL_SOURCES:
        return []
    misfit = intent_misfit(call.name, state.get("intent"))
    return [misfit] if misfit else borrowed_messages(call.args, call.arg_sources)


async def tools_node(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """One attempt: guard, select, then validate and run each call.

    The guard reads the request before the first selection, and the selected tools after each
    (a `contact_stress_check` call makes it a stress question). A model that answers a
    calculation in prose instead of calling a tool is told once to call one; if it still does
    not, the turn ends `invalid` (a number the model worked out itself is never the answer).
    """
    emit = _emitter(runtime, "tools")
    ctx = runtime.context
    text = request_text(state)
    attempt = state.get("attempts", 0) + 1
    guard = ctx.settings.refuse_unsafe_calculations
    if attempt == 1 and guard and (reason := unsafe_reason(text)):
        return _refusal(emit, reason)
    if attempt > 1:
        emit("retry", {"attempt": attempt})
    request = SelectionRequest(
        text=text,
        history=history(state),
        attempt=attempt,
        errors=_attempt_errors(state),
        emit=emit,
    )
    try:
        selection: Selection = await ctx.selector.select(request)
    except SelectorError as exc:
        return {"attempts": attempt, **_model_error(emit, exc)}
    tools = tuple(c.name for c in selection.calls)
    if guard and STRESS_TOOL in tools and (reason := unsafe_reason(text, tools)):
        return {"attempts": attempt, "usage": selection.usage, **_refusal(emit, reason)}
    if not selection.calls and _answered_in_prose(state, ctx.selector):
        ended = _no_tool_call(emit, state, attempt)
        return {"attempts": attempt, "usage": selection.usage, **ended}
    results: list[ToolResultEntry] = []
    errors: list[ErrorEntry] = []
    done = {_key(r["tool"], r["args"]) for r in state.get("tool_results") or []}
    for call in selection.calls:
        emit("tool_call", {
            "name": call.name, "args": call.args, "source": call.source,
            **({"arg_sources": call.arg_sources} if call.arg_sources else {}),
        })  # fmt: skip
        outcome = execute(call.name, call.args)
        messages = [e.text() for e in outcome.errors] + _model_call_problems(call, state)
        if messages:
            emit(
                "validation_error",
                {"tool": call.name, "messages": messages, "attempt": attempt},
            )
            errors.append(
                ErrorEntry(attempt=attempt, tool=call.name, args=call.args, messages=messages)
            )
            continue
        entry = ToolResultEntry(
            tool=outcome.tool,
            args=outcome.args,
            result=outcome.result or {},
            calc_sheet=outcome.calc_sheet.model_dump() if outcome.calc_sheet else None,
            source=call.source,
            arg_sources=dict(call.arg_sources),
        )
        emit("tool_result", dict(entry))
        key = _key(entry["tool"], entry["args"])
        if key not in done:  # a retry may repeat a good call
            done.add(key)
            results.append(entry)
    return {
        "attempts": attempt,
        "proposed": [_call_dict(c) for c in selection.calls],
        "tool_results": results,
        "errors": errors,
        "reply": selection.reply or "",
        "missing": list(selection.missing),
        "usage": selection.usage,
    }


async def report_node(state: AgentState, runtime: Runtime[GraphContext]) -> dict[str, Any]:
    """Write the answer: the selector's reply for non-calculations, else results and next steps."""
    emit = _emitter(runtime, "report")
    selector = runtime.context.selector
    update: dict[str, Any] = {}
    request = SelectionRequest(
        text=request_text(state),
        history=history(state),
        attempt=max(state.get("attempts", 0), 1),
        errors=_attempt_errors(state),
        emit=emit,
    )
    prose: str | None = None
    if not state.get("status") and state.get("attempts", 0) == 0:
        # Not a calculation: the selector's own reply (help text, or the model's words).
        try:
            selection = await selector.select(request)
        except SelectorError as exc:
            update.update(_model_error(emit, exc))
        else:
            update["reply"] = selection.reply or ""
            update["usage"] = selection.usage
    elif state.get("tool_results") and not state.get("status"):
        try:
            prose = await selector.summarize(request, [dict(r) for r in state["tool_results"]])
        except SelectorError as exc:
            # The numbers stand without the model's wording: report them, note the failure.
            emit("error", {"message": exc.user_message, "kind": exc.kind})
        update["usage"] = request.usage
    merged: AgentState = {**state, **update}  # type: ignore[typeddict-item]
    status = final_status(merged)
    net = _safety_net(merged, status, runtime, emit)
    if net:
        update.update(net)
        merged = {**merged, **net, "tool_results": net["tool_results"]}  # type: ignore[typeddict-item]
        status = "answered"
    answer = build_report(merged, status, prose)
    if net:
        error = state.get("error_message")
        failed = f"\n\n(The model failed: {error})" if error else ""
        answer = f"{SAFETY_NET_LABEL}{failed}\n\n{answer}"
    path = "safety_net" if net else path_of(merged)
    return {
        **update,
        "status": status,
        "path": path,
        "answer": answer,
        "messages": [answer_message(answer)],
    }


def _safety_net(
    state: AgentState, status: str, runtime: Runtime[GraphContext], emit: Emit
) -> dict[str, Any]:
    """The offline reader's results when a model's turn computed nothing (see safety_net.py);
    {} when it does not apply or computes nothing either."""
    ctx = runtime.context
    model_turn = getattr(ctx.selector, "answers_in_prose", True)
    if not ctx.settings.safety_net or not wanted(state, status, model_turn):
        return {}
    results, notes = offline_results(state, emit)
    if not results:
        return {}
    return {"tool_results": results, "reply": notes, "missing": [], "error_message": ""}
