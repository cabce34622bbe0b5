"""The sequential runner (agent/sequential.py, for turns that start while LangGraph loads) gives
what LangGraph's compiled graph gives: the same turn results and the same trace events, in the
same order, over the offline corpus, follow-ups, forms, a sweep and a node that fails. Only the
events' times and a sweep's measured duration differ; run_start names the runner.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from caec_desktop.agent import engine, topology
from caec_desktop.agent.build import compiled_graph, graph_shape
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings
from tests.agent.corpus import CORPUS
from tests.agent.corpus_new_tools import NEW_TOOL_ROWS
from tests.scripted_selector import ScriptedSelector

GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}
SWEEP = {"tool": "rayleigh_timestep", "parameter": "particle_radius",
         "values": ["0.5 mm", "-1 mm", "2 mm"], "args": GLASS}  # fmt: skip
CONVERSATIONS = [
    ["rayleigh time step for 1 mm glass beads", "and for 2 mm?", "same for steel"],
    [
        "rayleigh time step particle_radius=-1 mm density=2500 kg/m^3 youngs_modulus=70 GPa "
        "poisson_ratio=0.25",  # rejected: the report says why
        "what stress can this steel shaft take",  # refused by the guard
        "help",
        "hello there",
    ],
]


@pytest.fixture
def runners(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Leave the process's engine state (which runner runs) as it was after the test."""
    monkeypatch.setattr(engine, "_graph", engine._graph)
    monkeypatch.setattr(engine, "_loading", engine._loading)
    yield


def _use(runner: str) -> None:
    """Make the next turns run on `runner`: LangGraph loaded, or still loading."""
    if runner == "langgraph":
        engine.loading_in_background(None)
        engine.load_graph()
    else:
        engine._graph = None
        engine.loading_in_background(Future())  # never done: LangGraph is "still loading"


def _comparable(session: Session, runner: str) -> list[dict[str, Any]]:
    """Each turn as data without times; run_start's runner checked and left out."""
    turns = []
    for turn in session.turns:
        data = turn.model_dump(mode="json")
        events = []
        for event in data.pop("events"):
            event.pop("t_ms")
            if event["kind"] == "run_start":
                assert event["data"].pop("runner") == runner
            if event["kind"] == "sweep":
                event["data"].pop("ms")  # the sweep's own duration
            if event["kind"] == "tool_result" and event["data"]["tool"] == "sweep":
                event["data"]["result"].pop("elapsed_ms")
            events.append(event)
        for result in data["tool_results"]:
            if result["tool"] == "sweep":
                result["result"].pop("elapsed_ms")
        turns.append({**data, "events": events})
    return turns


def _conversation(
    runner: str, texts: list[str], selector: Any = None, forms: list[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    _use(runner)
    session = Session(Settings(mode="offline"), selector)

    async def run() -> None:
        for text in texts:
            async for _ in session.ask(text):
                pass
        for form in forms:
            async for _ in session.run_tool(**form):
                pass

    asyncio.run(run())
    return _comparable(session, runner)


def _same_on_both(
    texts: list[str], selector: Any = None, forms: list[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    graph = _conversation("langgraph", texts, selector, forms)
    sequential = _conversation("sequential", texts, selector, forms)
    assert sequential == graph
    return graph


ROWS = [row.text for row in CORPUS] + [row.text for row in NEW_TOOL_ROWS]


@pytest.mark.usefixtures("runners")
@pytest.mark.parametrize("text", ROWS)
def test_every_corpus_question_gives_the_same_turn_and_trace(text: str) -> None:
    (turn,) = _same_on_both([text])
    assert turn["status"] in {"answered", "needs_input"}
    assert [e["kind"] for e in turn["events"]][:3] == ["run_start", "node_start", "node_end"]


@pytest.mark.usefixtures("runners")
@pytest.mark.parametrize("texts", CONVERSATIONS, ids=["follow-ups", "rejected-refused-help"])
def test_conversations_give_the_same_turns(texts: list[str]) -> None:
    turns = _same_on_both(texts)
    assert len(turns) == len(texts)
    statuses = [t["status"] for t in turns]
    if texts is CONVERSATIONS[1]:
        assert statuses[:2] == ["invalid", "refused"]


@pytest.mark.usefixtures("runners")
def test_forms_and_a_sweep_give_the_same_turns() -> None:
    forms = [
        {"name": "rayleigh_timestep", "args": {"particle_radius": "1 mm", **GLASS}},
        {"name": "rayleigh_timestep", "args": {"particle_radius": "-1 mm", **GLASS}},
        {"name": "sweep", "args": SWEEP},
    ]
    turns = _same_on_both([], forms=forms)
    assert [t["status"] for t in turns] == ["answered", "invalid", "answered"]
    assert "sweep" in [e["kind"] for e in turns[2]["events"]]


class _Broken(ScriptedSelector):
    """A selector with a bug: select() raises something no selector should."""

    answers_in_prose = False

    async def select(self, request: Any) -> Any:
        raise RuntimeError("selector bug")


@pytest.mark.usefixtures("runners")
def test_a_node_that_raises_ends_both_the_same_way() -> None:
    (turn,) = _same_on_both(["rayleigh r=1 mm"], selector=_Broken())
    assert turn["status"] == "error"
    ends = [e for e in turn["events"] if e["kind"] == "node_end"]
    assert ends[-1]["node"] == "tools" and ends[-1]["data"]["error"] == "selector bug"


@pytest.mark.usefixtures("runners")
def test_the_retry_loop_runs_the_same_attempts() -> None:
    """A selector whose first two calls are rejected: three attempts on both runners."""
    bad = {"particle_radius": "-1 mm", **GLASS}
    good = {"particle_radius": "1 mm", **GLASS}
    selector = ScriptedSelector([bad, bad, good])
    selector.answers_in_prose = False  # a selector without a model: the runner choice allows it
    (turn,) = _same_on_both(["rayleigh time step"], selector=selector)
    assert turn["attempts"] == 3 and turn["status"] == "answered"
    assert [e["kind"] for e in turn["events"]].count("retry") == 2


def test_the_topology_is_the_compiled_graphs() -> None:
    """The graph view's shape comes from topology.py (no LangGraph); LangGraph's drawing of the
    compiled graph, built from the same topology, is the same."""
    assert topology.shape() == graph_shape()
    assert set(compiled_graph().builder.nodes) == set(topology.NODES)


@pytest.mark.usefixtures("runners")
def test_cancelling_a_sequential_turn_stops_its_node() -> None:
    """Stop while a node waits (a selector blocked in select): the run ends cancelled, the node's
    task is cancelled with it, and nothing is left running."""
    _use("sequential")
    block = asyncio.Event()  # never set: select() waits until cancelled
    selector = ScriptedSelector(block=block)
    selector.answers_in_prose = False
    session = Session(Settings(mode="offline"), selector)

    async def run() -> list[str]:
        kinds: list[str] = []

        async def consume() -> None:
            async for event in session.ask("rayleigh time step"):
                kinds.append(event.kind)

        consumer = asyncio.ensure_future(consume())
        await asyncio.wait_for(selector.started.wait(), 10)
        session.cancel()
        await asyncio.wait_for(consumer, 10)
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        assert not [t for t in others if not t.done()]
        return kinds

    kinds = asyncio.run(run())
    turn = session.last_turn
    assert turn is not None and turn.status == "cancelled"
    assert turn.events[0].data["runner"] == "sequential"
    assert kinds[-1] == "run_end" and "tool_result" not in kinds
