"""The compiled agent graph (built once per process and reused: compiling costs milliseconds).

```
START ─► intent ──route_after_intent──► tools ──route_after_tools──► report ─► END
                 └──────────────────────► report      └─(retry)─► tools
```
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from langgraph.graph import END, START, StateGraph

from caec_desktop.graph.context import GraphContext
from caec_desktop.graph.nodes import intent_node, report_node, tools_node
from caec_desktop.graph.routing import route_after_intent, route_after_tools
from caec_desktop.graph.state import AgentState

NODES = ("intent", "tools", "report")


@lru_cache(maxsize=1)
def compiled_graph() -> Any:
    """The agent graph, compiled without a checkpointer (the session keeps the conversation)."""
    graph = StateGraph(AgentState, context_schema=GraphContext)
    graph.add_node("intent", intent_node)
    graph.add_node("tools", tools_node)
    graph.add_node("report", report_node)
    graph.add_edge(START, "intent")
    graph.add_conditional_edges("intent", route_after_intent, ["tools", "report"])
    graph.add_conditional_edges("tools", route_after_tools, ["tools", "report"])
    graph.add_edge("report", END)
    return graph.compile(name="caec")
