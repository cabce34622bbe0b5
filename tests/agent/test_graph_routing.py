"""Conditional edges are pure functions of the state."""

from __future__ import annotations

import pytest

from caec_desktop.agent.routing import route_after_intent, route_after_tools
from caec_desktop.agent.state import MAX_ATTEMPTS, AgentState, ErrorEntry
from caec_desktop.agent.usage import add_usage


def error(attempt: int) -> ErrorEntry:
    return ErrorEntry(attempt=attempt, tool="t", args={}, messages=["x: required"])


@pytest.mark.parametrize(
    ("intent", "target"),
    [("calculation", "tools"), ("conversion", "tools"), ("help", "report"), ("other", "report")],
)
def test_route_after_intent(intent: str, target: str) -> None:
    assert route_after_intent({"intent": intent}) == target


def test_route_after_intent_failure_goes_to_report_and_unknown_raises() -> None:
    assert route_after_intent({"intent": "calculation", "status": "model_error"}) == "report"
    with pytest.raises(ValueError, match="unexpected intent 'poetry'"):
        route_after_intent({"intent": "poetry"})


def test_route_after_tools_retries_only_fresh_failures_below_the_limit() -> None:
    llm_call = [{"name": "t", "args": {}, "source": "llm"}]
    failing: AgentState = {"attempts": 1, "errors": [error(1)], "proposed": llm_call}
    assert route_after_tools(failing) == "tools"
    last: AgentState = {"attempts": MAX_ATTEMPTS, "errors": [error(MAX_ATTEMPTS)]}
    assert route_after_tools({**last, "proposed": llm_call}) == "report"
    # attempt 2 produced no new error (e.g. the selector replied instead): stop
    assert route_after_tools({"attempts": 2, "errors": [error(1)], "proposed": []}) == "report"
    form = [{"name": "t", "args": {}, "source": "form"}]
    assert route_after_tools({"attempts": 1, "errors": [error(1)], "proposed": form}) == "report"
    assert route_after_tools({**failing, "status": "model_error"}) == "report"


def test_usage_reducer_sums_numbers_only() -> None:
    total = add_usage({"total_tokens": 10, "cost": 0.5}, {"total_tokens": 5, "note": "x"})  # type: ignore[dict-item]
    assert total == {"total_tokens": 15, "cost": 0.5}
    assert add_usage(None, {"cost": 0.25}) == {"cost": 0.25}
