"""The compiled agent graph (built once per process and reused: compiling costs milliseconds).

```
START ─► intent ──route_after_intent──► tools ──route_after_tools──► report ─► END
                 └──────────────────────► report      └─(retry)─► tools
```

`route_after_intent` and `route_after_tools` are conditional edges (pure functions in routing.py),
not nodes, given as small `Runnable`s that run inline on the loop, untraced (`_Route`). Only
public LangGraph and LangChain API is used here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.graph import END, START, StateGraph

from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.nodes import intent_node, report_node, tools_node
from caec_desktop.agent.routing import route_after_intent, route_after_tools
from caec_desktop.agent.state import AgentState

NODES = ("intent", "tools", "report")


class _Route(Runnable[AgentState, str]):
    """A pure routing function as an edge that runs inline on the loop, untraced.

    LangGraph runs a plain sync edge function in a worker thread (a thread hop per edge) and
    wraps an async one with callback tracing (~0.06 ms per edge); a `Runnable` (LangChain's
    public interface) is called as it is. Routing is pure and instant: `ainvoke` just calls it.
    """

    def __init__(self, route: Callable[[AgentState], str]) -> None:
        self.route = route
        self.name = route.__name__

    def invoke(self, input: AgentState, config: RunnableConfig | None = None, **kwargs: Any) -> str:
        return self.route(input)

    async def ainvoke(
        self, input: AgentState, config: RunnableConfig | None = None, **kwargs: Any
    ) -> str:
        return self.route(input)


@lru_cache(maxsize=1)
def compiled_graph() -> Any:
    """The agent graph, compiled without a checkpointer (the session keeps the conversation)."""
    graph = StateGraph(AgentState, context_schema=GraphContext)
    graph.add_node("intent", intent_node)
    graph.add_node("tools", tools_node)
    graph.add_node("report", report_node)
    graph.add_edge(START, "intent")
    graph.add_conditional_edges("intent", _Route(route_after_intent), ["tools", "report"])
    graph.add_conditional_edges("tools", _Route(route_after_tools), ["tools", "report"])
    graph.add_edge("report", END)
    return graph.compile(name="caec")


def graph_shape() -> tuple[list[str], list[tuple[str, str, bool]]]:
    """The nodes and (source, target, conditional) edges as plain data, for the graph view."""
    drawable = compiled_graph().get_graph()
    edges = [(str(e.source), str(e.target), bool(e.conditional)) for e in drawable.edges]
    return list(drawable.nodes.keys()), edges
