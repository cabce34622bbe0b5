"""The graph's nodes: `intent`, `tools` (guard → select → validate → execute) and `report`.

Nodes are async, return only their delta, and take the selector and settings from the run-time
context. They report what they do as custom stream events `{"kind", "node", "data"}`, which the
session turns into TraceEvents (seq and time are added there, at one boundary). The `tools` node
is a sequence of small steps, each a function below it.
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from caec_desktop.agent.context import NodeRuntime
from caec_desktop.agent.guard import STRESS_TOOL, unsafe_reason
from caec_desktop.agent.inputs import MODEL_SOURCES, borrowed_messages, intent_misfit
from caec_desktop.agent.report import (
    CALL_A_TOOL,
    NO_TOOL_REPLY,
    SUMMARY_MISSING,
    build_report,
    final_status,
)
from caec_desktop.agent.results import accept_result
from caec_desktop.agent.routing import TOOL_INTENTS
from caec_desktop.agent.safety_net import (
    guarded,
    net_label,
    net_reason,
    offline_results,
    path_of,
    wanted,
)
from caec_desktop.agent.selection.protocol import (
    AttemptError,
    Emit,
    ProposedCall,
    Selection,
    SelectionRequest,
    SelectorError,
    Summary,
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
from caec_desktop.tools import ToolOutcome, execute
from caec_desktop.tools.sweep import SWEEP_TOOL, finish, plan_sweep, sweep_chunks

Update = dict[str, Any]
"""A node's delta to the state."""


def _emitter(runtime: NodeRuntime, node: str) -> Emit:
    writer = runtime.stream_writer

    def emit(kind: str, data: dict[str, Any]) -> None:
        writer({"kind": kind, "node": node, "data": data, "t": time.perf_counter()})

    return emit


def _model_error(emit: Emit, exc: SelectorError) -> Update:
    emit("error", {"message": exc.user_message, "kind": exc.kind})
    return {"status": "model_error", "error_message": exc.user_message, "error_kind": exc.kind}


def _attempt_errors(state: AgentState) -> list[AttemptError]:
    return [
        AttemptError(call=ProposedCall(name=e["tool"], args=e["args"]), messages=e["messages"])
        for e in state.get("errors") or []
    ]


def _request(state: AgentState, emit: Emit, attempt: int) -> SelectionRequest:
    """What a selector may use: the request, history, and this turn so far (from the state)."""
    return SelectionRequest(
        text=request_text(state),
        history=history(state),
        attempt=attempt,
        errors=_attempt_errors(state),
        emit=emit,
        proposed=[ProposedCall(**c) for c in state.get("proposed") or []],
        transcript=list(state.get("transcript") or []),
        intent=state.get("intent"),
    )


async def intent_node(state: AgentState, runtime: NodeRuntime) -> Update:
    """Classify the request (calculation, conversion, help, other) with the selector."""
    emit = _emitter(runtime, "intent")
    request = _request(state, emit, 1)
    try:
        intent = await runtime.context.selector.classify(request)
    except SelectorError as exc:
        return _model_error(emit, exc)
    return {"intent": intent, "usage": request.usage} if request.usage else {"intent": intent}


# --- tools: guard, select, guard again, validate and execute, keep the new results -----------


async def tools_node(state: AgentState, runtime: NodeRuntime) -> Update:
    """One attempt: guard, select, then validate and run each call.

    The guard reads the request before the first selection, and the selected tools after each
    (a `contact_stress_check` call makes it a stress question). A model that answers a
    calculation in prose instead of calling a tool is told once to call one; if it still does
    not, the turn ends `invalid` (a number the model worked out itself is never the answer).
    """
    emit = _emitter(runtime, "tools")
    ctx = runtime.context
    attempt = state.get("attempts", 0) + 1
    guard = ctx.settings.refuse_unsafe_calculations
    if guard and attempt == 1 and (refused := _guard_request(emit, state)):
        return refused
    if attempt > 1:
        emit("retry", {"attempt": attempt})
    try:
        selection = await ctx.selector.select(_request(state, emit, attempt))
    except SelectorError as exc:
        return {"attempts": attempt, **_model_error(emit, exc)}
    spent: Update = {"attempts": attempt, "usage": selection.usage}
    if selection.transcript:
        spent["transcript"] = selection.transcript
    if guard and (refused := _guard_selection(emit, state, selection)):
        return {**spent, **refused}
    if not selection.calls and _answered_in_prose(state, ctx.selector):
        return {**spent, **_no_tool_call(emit, state, attempt)}
    results, errors = await _run_calls(emit, selection.calls, attempt, state)
    return {
        **spent,
        "proposed": [_call_dict(c) for c in selection.calls],
        "tool_results": _new_results(state, results),
        "errors": errors,
        "reply": selection.reply or "",
        "missing": list(selection.missing),
    }


def _refusal(emit: Emit, reason: str) -> Update:
    emit("refusal", {"reason": reason})
    return {"refused": True, "refusal_reason": reason, "status": "refused"}


def _guard_request(emit: Emit, state: AgentState) -> Update | None:
    """Refuse an unsafe request before anything is selected (None: it may go on)."""
    reason = unsafe_reason(request_text(state))
    return _refusal(emit, reason) if reason else None


def _guard_selection(emit: Emit, state: AgentState, selection: Selection) -> Update | None:
    """Refuse when the selected tools make the request an unsafe stress question."""
    tools = tuple(c.name for c in selection.calls)
    if STRESS_TOOL not in tools:
        return None
    reason = unsafe_reason(request_text(state), tools)
    return _refusal(emit, reason) if reason else None


def _answered_in_prose(state: AgentState, selector: ToolSelector) -> bool:
    """Whether a selection without calls is a model's reply to a calculation that no call has
    been tried for yet (the offline selector's replies, help and missing inputs, are not)."""
    if state.get("intent") not in TOOL_INTENTS or not selector.answers_in_prose:
        return False
    return all(e["tool"] == NO_CALL for e in state.get("errors") or [])


def _no_tool_call(emit: Emit, state: AgentState, attempt: int) -> Update:
    """Feed 'call a tool' back once (a rejected attempt, so the route retries); then end invalid."""
    if not state.get("errors") and attempt < MAX_ATTEMPTS:
        emit("validation_error", {"tool": NO_CALL, "messages": [CALL_A_TOOL], "attempt": attempt})
        error = ErrorEntry(attempt=attempt, tool=NO_CALL, args={}, messages=[CALL_A_TOOL])
        return {"proposed": [], "errors": [error], "reply": ""}
    emit("error", {"kind": "no_tool_call", "message": NO_TOOL_REPLY})
    return {"proposed": [], "reply": NO_TOOL_REPLY, "status": "invalid"}


def _model_call_problems(call: ProposedCall, state: AgentState) -> list[str]:
    """Why a model's call must not run: a physical input in no message (the user is asked for
    it instead), or a tool that does not answer this kind of request (inputs.py)."""
    if call.source not in MODEL_SOURCES:
        return []
    misfit = intent_misfit(call.name, state.get("intent"))
    return [misfit] if misfit else borrowed_messages(call.args, call.arg_sources)


async def _run_calls(
    emit: Emit, calls: list[ProposedCall], attempt: int, state: AgentState
) -> tuple[list[ToolResultEntry], list[ErrorEntry]]:
    """Validate and run each call: its result, or its field messages (and, for a model's call,
    its borrowed inputs or misfit tool) as a rejected call."""
    results: list[ToolResultEntry] = []
    errors: list[ErrorEntry] = []
    for call in calls:
        # Each call on a loop turn of its own, after the selection's (the loop also runs the
        # GUI): a model's reply read, its arguments' sources read and the tool run made one
        # ~2-3 ms turn of the GUI thread (bench/bench_streaming.py).
        await asyncio.sleep(0)
        emit("tool_call", {
            "name": call.name, "args": call.args, "source": call.source,
            **({"arg_sources": call.arg_sources} if call.arg_sources else {}),
        })  # fmt: skip
        if call.problems:  # unreadable as written: nothing to validate
            messages = list(call.problems)
        elif call.name == SWEEP_TOOL:
            outcome = await _sweep(emit, call.args)
        else:
            outcome = execute(call.name, call.args)
        if not call.problems:
            messages = [e.text() for e in outcome.errors] + _model_call_problems(call, state)
        if messages:
            emit("validation_error", {"tool": call.name, "messages": messages, "attempt": attempt})
            errors.append(
                ErrorEntry(attempt=attempt, tool=call.name, args=call.args, messages=messages)
            )
            continue
        results.append(accept_result(call, outcome, emit))
    return results, errors


def _key(tool: str, args: dict[str, Any]) -> str:
    return tool + json.dumps(args, sort_keys=True, default=str)


def _new_results(state: AgentState, results: list[ToolResultEntry]) -> list[ToolResultEntry]:
    """`results` without those already in the state (a retry may repeat a good call) or
    repeated among themselves."""
    done = {_key(r["tool"], r["args"]) for r in state.get("tool_results") or []}
    new = []
    for entry in results:
        key = _key(entry["tool"], entry["args"])
        if key not in done:
            done.add(key)
            new.append(entry)
    return new


async def _sweep(emit: Emit, args: dict[str, Any]) -> ToolOutcome:
    """Run a sweep call in chunks of a few milliseconds, letting the event loop run between them
    (the window stays responsive during a 1,000-point sweep); one `sweep` event sums it up."""
    plan, errors = plan_sweep(args)
    if plan is None:
        return ToolOutcome(tool=SWEEP_TOOL, ok=False, errors=errors)
    began = time.perf_counter()
    rows: list[dict[str, Any]] = []
    for chunk in sweep_chunks(plan):
        rows += chunk
        await asyncio.sleep(0)
    elapsed = (time.perf_counter() - began) * 1000
    done = finish(plan, rows, elapsed)
    emit(
        "sweep",
        {
            "tool": plan.tool,
            "parameter": plan.parameter,
            "count": len(rows),
            "failed": sum(1 for r in rows if not r["ok"]),
            "scale": plan.scale,
            "ms": round(elapsed, 3),
        },
    )
    if not done.ok:
        return ToolOutcome(tool=SWEEP_TOOL, ok=False, args=plan.request, errors=done.errors)
    return ToolOutcome(tool=SWEEP_TOOL, ok=True, args=plan.request, result=done.table)


def _call_dict(call: ProposedCall) -> dict[str, Any]:
    """`call` as plain data for the state (one level copied: `dataclasses.asdict` deep-copies
    every argument value, ~0.05 ms per turn for nothing, as nodes never modify them)."""
    return {**vars(call), "args": dict(call.args), "arg_sources": dict(call.arg_sources)}


# --- report --------------------------------------------------------------------------------


async def report_node(state: AgentState, runtime: NodeRuntime) -> Update:
    """Write the answer: the selector's reply for non-calculations, else results and next steps."""
    emit = _emitter(runtime, "report")
    selector = runtime.context.selector
    request = _request(state, emit, max(state.get("attempts", 0), 1))
    update: Update = {}
    summary: Summary | None = None
    summary_failed = ""
    if not state.get("status") and state.get("attempts", 0) == 0:
        # Not a calculation: the selector's own reply (help text, or the model's words).
        try:
            selection = await selector.respond(request)
        except SelectorError as exc:
            update.update(_model_error(emit, exc))
        else:
            update["reply"] = selection.reply or ""
            update["usage"] = selection.usage
            if selection.missing:  # no calculation found: the user must say which (needs_input)
                update["missing"] = list(selection.missing)
    elif state.get("tool_results") and not state.get("status"):
        try:
            summary = await selector.summarize(request, [dict(r) for r in state["tool_results"]])
        except SelectorError as exc:
            # The numbers stand without the model's wording: report them, note the failure
            # (the user may have watched the summary stream in before the server went away).
            emit("error", {"message": exc.user_message, "kind": exc.kind})
            summary_failed = exc.user_message
        update["usage"] = request.usage
        if summary is not None:
            # The summary was read in this turn of the event loop (which also runs the GUI);
            # its values are checked against the results (pint) and the report written in the
            # next (~2-3 ms each).
            await asyncio.sleep(0)
    merged: AgentState = {**state, **update}  # type: ignore[typeddict-item]
    status = final_status(merged)
    reason = net_reason(merged, status)  # before the net clears the error
    net = _safety_net(merged, status, runtime)
    if net.get("refused"):
        update.update(net)
        merged = {**merged, **net}  # type: ignore[typeddict-item]
        status = "refused"
        net = {}
    elif net:
        update.update(net)
        merged = {**merged, **net}  # type: ignore[typeddict-item]
        status = "answered"
    answer = build_report(merged, status, summary)
    if summary_failed:
        answer = f"{answer}\n\n{SUMMARY_MISSING} {summary_failed}"
    if net:
        error = state.get("error_message")
        failed = f"\n\n(The model failed: {error})" if error else ""
        answer = f"{net_label(reason)}{failed}\n\n{answer}"
        update["safety_net_reason"] = reason
    return {
        **update,
        "status": status,
        "path": "safety_net" if net else path_of(merged),
        "answer": answer,
        "messages": [answer_message(answer)],
    }


def _safety_net(state: AgentState, status: str, runtime: NodeRuntime) -> Update:
    """The offline reader's results when a model's turn computed nothing (safety_net.py); {}
    when the net is off, does not apply, or computes nothing either; a refusal when the stress
    guard refuses the question (a failed classify skipped the request guard)."""
    ctx = runtime.context
    reader = ctx.reader
    if reader is None or not ctx.settings.safety_net:
        return {}
    if not wanted(state, status, ctx.selector.answers_in_prose, reader):
        return {}
    emit = _emitter(runtime, "report")
    text = request_text(state)
    if ctx.settings.refuse_unsafe_calculations and (
        reason := guarded(text, history(state), reader)
    ):
        return _refusal(emit, reason)
    results, notes = offline_results(state, reader, emit)
    if not results:
        return {}
    return {"tool_results": results, "reply": notes, "missing": [], "error_message": ""}
