"""The compiled agent graph (built once per process and reused: compiling costs milliseconds).

```
START ─► intent ──route_after_intent──► tools ──route_after_tools──► report ─► END
                 └──────────────────────► report      └─(retry)─► tools
```

`route_after_intent` and `route_after_tools` are conditional edges (pure functions in routing.py),
not nodes. LangGraph runs a plain sync edge function in a worker thread; routing is pure and
instant, so each edge is given as an async function, which runs on the loop. Only LangGraph's
public API is used here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import lru_cache, wraps
from typing import Any

from langgraph.graph import END, START, StateGraph

from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.nodes import intent_node, report_node, tools_node
from caec_desktop.agent.routing import route_after_intent, route_after_tools
from caec_desktop.agent.state import AgentState

NODES = ("intent", "tools", "report")


def _on_loop(route: Callable[[AgentState], str]) -> Callable[[AgentState], Awaitable[str]]:
    """A pure routing function as an async edge, so LangGraph runs it on the loop (a plain sync
    function would run in a worker thread: a thread hop per edge)."""

    @wraps(route)
    async def run(state: AgentState) -> str:
        return route(state)

    return run


@lru_cache(maxsize=1)
def compiled_graph() -> Any:
    """The agent graph, compiled without a checkpointer (the session keeps the conversation)."""
    graph = StateGraph(AgentState, context_schema=GraphContext)
    graph.add_node("intent", intent_node)
    graph.add_node("tools", tools_node)
    graph.add_node("report", report_node)
    graph.add_edge(START, "intent")
    graph.add_conditional_edges("intent", _on_loop(route_after_intent), ["tools", "report"])
    graph.add_conditional_edges("tools", _on_loop(route_after_tools), ["tools", "report"])
    graph.add_edge("report", END)
    return graph.compile(name="caec")


def graph_shape() -> tuple[list[str], list[tuple[str, str, bool]]]:
    """The nodes and (source, target, conditional) edges as plain data, for the graph view."""
    drawable = compiled_graph().get_graph()
    edges = [(str(e.source), str(e.target), bool(e.conditional)) for e in drawable.edges]
    return list(drawable.nodes.keys()), edges
