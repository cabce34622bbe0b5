"""A validated tool run accepted into the turn: its result entry, its warnings and its
`tool_result` event (the graph's own calls and the safety net's alike)."""

from __future__ import annotations

from typing import Any

from caec_desktop.agent.selection.protocol import Emit, ProposedCall
from caec_desktop.agent.state import ToolResultEntry
from caec_desktop.tools import ToolOutcome


def accept_result(
    call: ProposedCall, outcome: ToolOutcome, emit: Emit, **event_extra: Any
) -> ToolResultEntry:
    """The entry for a valid `outcome` of `call`; emits one `warning` event per plausibility
    warning, then the `tool_result` event (with `event_extra`, e.g. `safety_net=True`). The
    entry (so the event and the stored turn) also carries the call's arguments as given
    (`given_args`: "0.5 m" where `args` has the SI value), so a result card can show a typed
    value as it was typed, live or reopened."""
    entry = ToolResultEntry(
        tool=outcome.tool,
        args=outcome.args,
        result=outcome.result or {},
        calc_sheet=outcome.calc_sheet.model_dump() if outcome.calc_sheet else None,
        source=call.source,
        arg_sources=dict(call.arg_sources),
        given_args=dict(call.args),
        warnings=outcome.warning_texts(),
    )
    for warning in outcome.warnings:
        emit("warning", {"tool": call.name, **warning.model_dump(), "message": warning.text()})
    emit("tool_result", {**entry, **event_extra})
    return entry
