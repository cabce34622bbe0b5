"""Graph layout (plain Python) and the live graph view over the real compiled graph."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from caec_desktop.ui.graph_layout import Edge, graph_shape, layers, positions
from caec_desktop.ui.graph_view import ACTIVE, IDLE, VISITED, GraphView
from tests.ui.helpers import events

AGENT = (
    ["__start__", "intent", "tools", "report", "__end__"],
    [
        ("__start__", "intent"),
        ("intent", "tools", True),
        ("intent", "report", True),
        ("tools", "tools", True),
        ("tools", "report", True),
        ("report", "__end__"),
    ],
)


def test_layers_follow_the_longest_path_and_ignore_cycles() -> None:
    nodes, edges = graph_shape(AGENT)
    assert layers(nodes, edges) == {
        "__start__": 0,
        "intent": 1,
        "tools": 2,
        "report": 3,
        "__end__": 4,
    }
    # A back edge (report → intent) must not push nodes down for ever.
    looped = [*edges, Edge("report", "intent")]
    assert layers(nodes, looped)["__end__"] == 4
    pos = positions(nodes, edges)
    assert pos["intent"][1] < pos["tools"][1] < pos["report"][1]


def test_shape_of_the_real_compiled_graph() -> None:
    from caec_desktop.agent.build import compiled_graph

    nodes, edges = graph_shape(compiled_graph())
    assert {"intent", "tools", "report"} <= set(nodes)
    assert ("tools", "tools") in {(e.source, e.target) for e in edges}  # the retry loop


def test_view_lights_the_running_node_and_counts_edges(qtbot: QtBot) -> None:
    view = GraphView()
    qtbot.addWidget(view)
    view.set_graph(AGENT)
    run = events(
        ("run_start", None, {}),
        ("node_start", "intent", {}),
        ("node_end", "intent", {}),
        ("node_start", "tools", {}),
    )
    for ev in run:
        view.on_event(ev)
    assert view.active == "tools" and view.colour_of("tools") == ACTIVE
    assert view.colour_of("intent") == VISITED and view.colour_of("report") == IDLE
    for ev in events(
        ("node_end", "tools", {}),
        ("node_start", "tools", {}),
        ("node_end", "tools", {}),
        ("node_start", "report", {}),
        ("node_end", "report", {}),
        ("run_end", None, {}),
    ):
        view.on_event(ev)
    assert view.active is None
    assert view.edge_counts == {
        ("__start__", "intent"): 1,
        ("intent", "tools"): 1,
        ("intent", "report"): 0,
        ("tools", "tools"): 1,
        ("tools", "report"): 1,
        ("report", "__end__"): 1,
    }
    assert view._labels[("tools", "tools")].text() == "1"
    view.on_event(events(("run_start", None, {}))[0])  # a new run clears the lights, not counts
    assert view.colour_of("report") == IDLE and view.edge_counts[("tools", "report")] == 1


def test_replayed_runs_count_as_the_live_ones_and_older_runs_add(qtbot: QtBot) -> None:
    run = events(
        ("run_start", None, {}),
        ("node_start", "intent", {}),
        ("node_end", "intent", {}),
        ("node_start", "tools", {}),
        ("node_end", "tools", {}),
        ("node_start", "tools", {}),
        ("node_end", "tools", {}),
        ("node_start", "report", {}),
        ("node_end", "report", {}),
        ("run_end", None, {}),
    )
    live, reopened, older = GraphView(), GraphView(), GraphView()
    for view in (live, reopened, older):
        qtbot.addWidget(view)
        view.set_graph(AGENT)
    for ev in [*run, *run]:
        live.on_event(ev)
    reopened.replay([*run, *run])
    assert live.edge_counts[("tools", "tools")] == 2
    assert reopened.edge_counts == live.edge_counts
    assert [reopened.colour_of(n) for n in AGENT[0]] == [live.colour_of(n) for n in AGENT[0]]
    older.replay(run)  # the newest run first, then the one before it read later
    older.add_older(run)
    assert older.edge_counts == live.edge_counts
