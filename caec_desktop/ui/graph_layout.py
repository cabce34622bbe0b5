"""Graph shape and layered layout for the graph view. Plain Python, no Qt.

`graph_shape` reads what LangGraph's `compiled.get_graph()` returns (nodes dict, edges with
`source`/`target`/`conditional`), or plain lists, so the view does not depend on LangGraph.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    conditional: bool = False


def graph_shape(graph: Any) -> tuple[list[str], list[Edge]]:
    """(node ids, edges) from a LangGraph drawable graph, a compiled graph, or (nodes, edges)."""
    if isinstance(graph, tuple):
        nodes, raw_edges = graph
    else:
        if hasattr(graph, "get_graph"):
            graph = graph.get_graph()
        nodes, raw_edges = graph.nodes, graph.edges
    ids = list(nodes.keys()) if isinstance(nodes, dict) else [str(n) for n in nodes]
    edges = []
    for e in raw_edges:
        if isinstance(e, tuple | list):
            edges.append(Edge(str(e[0]), str(e[1]), bool(e[2]) if len(e) > 2 else False))
        else:
            edges.append(Edge(str(e.source), str(e.target), bool(getattr(e, "conditional", False))))
    return ids, edges


def layers(nodes: list[str], edges: list[Edge]) -> dict[str, int]:
    """Layer of each node: the longest path from a source, after dropping back-edges (cycles)."""
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for e in edges:
        if e.source in succ and e.target in succ and e.source != e.target:
            succ[e.source].append(e.target)
    # Depth-first search from sources (in node order) marks the edges that close a cycle.
    back: set[tuple[str, str]] = set()
    state: dict[str, int] = {}

    def visit(n: str) -> None:
        state[n] = 1
        for m in succ[n]:
            if state.get(m) == 1:
                back.add((n, m))
            elif m not in state:
                visit(m)
        state[n] = 2

    has_pred = {e.target for e in edges if e.source != e.target}
    for n in [n for n in nodes if n not in has_pred] + nodes:
        if n not in state:
            visit(n)
    layer = dict.fromkeys(nodes, 0)
    for _ in nodes:  # relax: DAG longest path, at most len(nodes) rounds
        changed = False
        for n in nodes:
            for m in succ[n]:
                if (n, m) not in back and layer[m] < layer[n] + 1:
                    layer[m] = layer[n] + 1
                    changed = True
        if not changed:
            break
    return layer


def positions(
    nodes: list[str], edges: list[Edge], dx: float = 170.0, dy: float = 90.0
) -> dict[str, tuple[float, float]]:
    """Top-to-bottom coordinates: one row per layer, nodes of a layer side by side, centred."""
    layer = layers(nodes, edges)
    rows: dict[int, list[str]] = {}
    for n in nodes:
        rows.setdefault(layer[n], []).append(n)
    out: dict[str, tuple[float, float]] = {}
    for depth, members in rows.items():
        width = (len(members) - 1) * dx
        for i, n in enumerate(members):
            out[n] = (i * dx - width / 2, depth * dy)
    return out
