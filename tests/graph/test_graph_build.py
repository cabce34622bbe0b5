"""The compiled graph: its drawn edges, and the state its routes read after a node's update."""

from __future__ import annotations

from caec_desktop.graph.build import compiled_graph, state_after
from caec_desktop.graph.state import AgentState, ErrorEntry


def test_edges_are_the_designed_ones() -> None:
    """DESIGN.md's graph: both routes conditional, the retry loop on `tools`."""
    drawn = {(e.source, e.target, e.conditional) for e in compiled_graph().get_graph().edges}
    assert drawn == {
        ("__start__", "intent", False),
        ("intent", "tools", True),
        ("intent", "report", True),
        ("tools", "tools", True),
        ("tools", "report", True),
        ("report", "__end__", False),
    }


def _error(attempt: int) -> ErrorEntry:
    return ErrorEntry(attempt=attempt, tool="t", args={}, messages=[f"x: bad {attempt}"])


def test_state_after_applies_reducers_like_langgraph() -> None:
    """Lists grow, usage adds key by key, everything else is replaced; the input is unchanged."""
    state: AgentState = {
        "attempts": 1,
        "errors": [_error(1)],
        "usage": {"total_tokens": 3},
        "intent": "calculation",
    }
    update = {
        "attempts": 2,
        "errors": [_error(2)],
        "usage": {"total_tokens": 4, "cost": 0.5},
        "tool_results": [],
        "status": "invalid",
    }
    after = state_after(state, update)
    assert after == {
        "attempts": 2,
        "errors": [_error(1), _error(2)],
        "usage": {"total_tokens": 7, "cost": 0.5},
        "tool_results": [],
        "intent": "calculation",
        "status": "invalid",
    }
    assert state["errors"] == [_error(1)] and state["attempts"] == 1
