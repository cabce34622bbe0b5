"""The compiled agent graph (built once per process and reused: compiling costs milliseconds).

```
START ─► intent ──route_after_intent──► tools ──route_after_tools──► report ─► END
                 └──────────────────────► report      └─(retry)─► tools
```

`route_after_intent` and `route_after_tools` are conditional edges (pure functions in routing.py),
not nodes. LangGraph runs a plain sync edge function in a worker thread with callback tracing;
routing is pure and instant, so each edge is an untraced async callable that runs on the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any

from langgraph.graph import END, START, StateGraph

from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.nodes import intent_node, report_node, tools_node
from caec_desktop.agent.routing import route_after_intent, route_after_tools
from caec_desktop.agent.state import AgentState

NODES = ("intent", "tools", "report")


def _on_loop(route: Callable[[AgentState], str]) -> Any:
    """A pure routing function as an edge LangGraph runs inline on the loop, untraced.

    Given a plain sync function, `astream` runs it in a worker thread with callback tracing: a
    thread hop per edge. `RunnableCallable(..., trace=False)` is LangGraph's own wrapper for its
    nodes (internal: if a release moves it, the plain async wrapper keeps the behaviour for
    ~0.06 ms more per edge; the test suite runs either way).
    """

    @wraps(route)
    async def run(state: AgentState) -> str:
        return route(state)

    try:
        from langgraph._internal._runnable import RunnableCallable
    except ImportError:  # pragma: no cover - depends on the LangGraph release
        return run
    return RunnableCallable(route, run, name=route.__name__, trace=False)


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
