"""Conditional edges: pure functions of the state returning the next node's name."""

from __future__ import annotations

from typing import Literal

from caec_desktop.graph.state import MAX_ATTEMPTS, AgentState

TOOL_INTENTS = frozenset({"calculation", "conversion"})
"""Intents that run tools; everything else goes straight to the report."""


def route_after_intent(state: AgentState) -> Literal["tools", "report"]:
    """Calculation and conversion requests go to `tools`; help, chat and failures to `report`."""
    if state.get("status"):
        return "report"
    intent = state.get("intent")
    if intent in TOOL_INTENTS:
        return "tools"
    if intent in ("help", "other"):
        return "report"
    raise ValueError(f"unexpected intent {intent!r}")


def route_after_tools(state: AgentState) -> Literal["tools", "report"]:
    """Retry while the latest attempt had rejected calls and attempts remain."""
    if state.get("status"):
        return "report"
    attempt = state.get("attempts", 0)
    failed_now = any(e["attempt"] == attempt for e in state.get("errors") or [])
    if failed_now and attempt < MAX_ATTEMPTS:
        return "tools"
    return "report"
