"""The compiled agent graph (built once per process and reused: compiling costs milliseconds).

Built from the topology in topology.py (nodes, entry, what follows each node). The routes
(`route_after_intent`, `route_after_tools`, pure functions in routing.py) are conditional edges,
not nodes, given as small `Runnable`s that run inline on the loop, untraced (`_Route`). Only
public LangGraph and LangChain API is used here.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.graph import END, START, StateGraph

from caec_desktop.agent import topology
from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.state import AgentState


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
    for name, node in topology.NODES.items():
        # A node takes `NodeRuntime`, the protocol LangGraph's Runtime[GraphContext] satisfies
        # (LangGraph passes it by the parameter's name); its overloads name their own types.
        graph.add_node(name, node)  # type: ignore[call-overload]
    graph.add_edge(START, topology.ENTRY)
    for name, after in topology.AFTER.items():
        if isinstance(after, topology.Route):
            graph.add_conditional_edges(name, _Route(after.route), list(after.targets))
        else:
            graph.add_edge(name, END if after == topology.END else after)
    return graph.compile(name="caec")


def graph_shape() -> tuple[list[str], list[tuple[str, str, bool]]]:
    """The compiled graph's nodes and (source, target, conditional) edges as plain data (what
    `topology.shape()` gives without LangGraph; a test holds them equal)."""
    drawable = compiled_graph().get_graph()
    edges = [(str(e.source), str(e.target), bool(e.conditional)) for e in drawable.edges]
    return list(drawable.nodes.keys()), edges
