"""The compiled graph: its drawn edges, and the state after a node's update (what its routes
read, and how the session builds the final state)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from caec_desktop.agent.build import compiled_graph
from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.events import node_update
from caec_desktop.agent.selection.offline import RegexSelector
from caec_desktop.agent.state import (
    AgentState,
    ErrorEntry,
    request_text,
    start_state,
    state_after,
    turn_input,
)
from caec_desktop.settings.model import Settings
from tests.agent.corpus import CORPUS


def test_edges_are_the_designed_ones() -> None:
    """docs/architecture.md's graph: both routes conditional, the retry loop on `tools`."""
    drawn = {(e.source, e.target, e.conditional) for e in compiled_graph().get_graph().edges}
    assert drawn == {
        ("__start__", "intent", False),
        ("intent", "tools", True),
        ("intent", "report", True),
        ("tools", "tools", True),
        ("tools", "report", True),
        ("report", "__end__", False),
    }


def test_routers_are_conditional_edges_not_nodes() -> None:
    """`route_after_intent` / `route_after_tools` are LangGraph branches, never graph nodes."""
    graph = compiled_graph()
    branches = graph.builder.branches
    assert set(branches["intent"]) == {"route_after_intent"}
    assert set(branches["tools"]) == {"route_after_tools"}
    assert set(graph.builder.nodes) == {"intent", "tools", "report"}


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


async def _fold_and_values(text: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(the session's fold of the node updates, LangGraph's own final `values`) for one run."""
    context = GraphContext(selector=RegexSelector(), settings=Settings(mode="offline"))
    graph_input = turn_input(text, HISTORY)
    folded, final = start_state(graph_input), {}
    async for part in compiled_graph().astream(
        graph_input,
        context=context,
        stream_mode=["tasks", "values"],
        version="v2",
    ):
        if part["type"] == "values":
            final = part["data"]
        elif (update := node_update(part)) is not None:
            folded = state_after(folded, update)
    return dict(folded), final


HISTORY = [
    {"role": "user", "content": "rayleigh time step for 1 mm glass beads"},
    {"role": "assistant", "content": "..."},
]
EXTRA = [
    "rayleigh time step particle_radius=-1 mm density=2500 kg/m^3 youngs_modulus=70 GPa "
    "poisson_ratio=0.25",  # rejected, retried
    "what stress can this steel shaft take",  # refused by the guard
    "help",
    "and for 2 mm?",  # a follow-up
]


@pytest.mark.parametrize("text", [row.text for row in CORPUS] + EXTRA)
def test_folded_updates_equal_langgraphs_final_state(text: str) -> None:
    """The session builds the final state from the nodes' updates (no `values` stream)."""
    folded, final = asyncio.run(_fold_and_values(text))
    assert final.get("status") and final.get("answer")
    assert folded == final


def test_messages_carry_the_request_and_the_answer() -> None:
    """The state contract: `messages` holds this turn's request and the report's answer as
    `{"role", "content"}` dicts (plain data: no LangChain messages, so a turn can run before
    LangChain loads); the nodes read the request from it."""
    import operator

    from caec_desktop.agent.state import _REDUCERS

    assert _REDUCERS["messages"] is operator.add
    text = "rayleigh time step for 1 mm glass beads"
    folded, final = asyncio.run(_fold_and_values(text))
    human, ai = final["messages"]
    assert human == {"role": "user", "content": text}
    assert ai == {"role": "assistant", "content": final["answer"]}
    assert "| rayleigh_timestep |" in ai["content"]  # the computed report, not an echo
    assert request_text(final) == text
    assert folded["messages"] == final["messages"]
