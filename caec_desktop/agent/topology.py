"""The agent graph's topology as plain data: its nodes, where a run starts, what follows each node.

```
START ─► intent ──route_after_intent──► tools ──route_after_tools──► report ─► END
                 └──────────────────────► report      └─(retry)─► tools
```

Written once, read by both runners: `build.py` makes LangGraph's StateGraph from it, and
`sequential.py` runs the same node functions in the same order while LangGraph is still loading.
Nothing here imports LangGraph (the drawn graph comes from here too, before LangGraph loads).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from caec_desktop.agent.context import NodeRuntime
from caec_desktop.agent.nodes import intent_node, report_node, tools_node
from caec_desktop.agent.routing import route_after_intent, route_after_tools
from caec_desktop.agent.state import AgentState

START = "__start__"
END = "__end__"
"""LangGraph's names for the start and the end (`langgraph.constants.START` / `END`)."""

Node = Callable[[AgentState, NodeRuntime], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class Route:
    """A conditional edge: a pure function of the state naming the next node, one of `targets`."""

    route: Callable[[AgentState], str]
    targets: tuple[str, ...]


NODES: dict[str, Node] = {"intent": intent_node, "tools": tools_node, "report": report_node}
ENTRY = "intent"
"""The node a run starts with."""
AFTER: dict[str, Route | str] = {
    "intent": Route(route_after_intent, ("tools", "report")),
    "tools": Route(route_after_tools, ("tools", "report")),
    "report": END,
}
"""What follows each node: a route, or the one next node (END ends the run)."""


def shape() -> tuple[list[str], list[tuple[str, str, bool]]]:
    """The nodes and (source, target, conditional) edges, as LangGraph draws the compiled graph
    (`compiled.get_graph()`): for the graph view, without importing LangGraph."""
    edges = [(START, ENTRY, False)]
    for name, after in AFTER.items():
        if isinstance(after, Route):
            edges += [(name, target, True) for target in sorted(after.targets)]
        else:
            edges.append((name, after, False))
    return [START, *NODES, END], edges
