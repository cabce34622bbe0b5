"""Conditional edges: pure functions of the state returning the next node's name."""

from __future__ import annotations

from typing import Literal

from caec_desktop.agent.state import MAX_ATTEMPTS, AgentState

TOOL_INTENTS = frozenset({"calculation", "conversion"})
"""Intents that run tools; everything else goes straight to the report."""

MANUAL_SOURCES = frozenset({"form", "replay"})
"""Calls the user made by hand: a rejected one is reported, not selected again."""


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
    """Retry while the latest attempt had rejected calls and attempts remain.

    Hand-made calls (form, replay) are not retried: no selector could improve them.
    """
    if state.get("status"):
        return "report"
    attempt = state.get("attempts", 0)
    failed_now = any(e["attempt"] == attempt for e in state.get("errors") or [])
    proposed = state.get("proposed") or []
    manual = bool(proposed) and all(c.get("source") in MANUAL_SOURCES for c in proposed)
    if failed_now and attempt < MAX_ATTEMPTS and not manual:
        return "tools"
    return "report"
