"""Which runner runs a turn: LangGraph's compiled graph, or the sequential runner while LangGraph
is still loading in the background.

The desktop app shows its window first and loads LangGraph (~0.7 s of imports) on a worker thread
after what the first offline answer needs (app.py). A turn without a model (offline reader, a
form, a replay) that starts before LangGraph is there runs on the sequential runner
(sequential.py: the same nodes, topology and events); a model's turn waits for LangGraph (its
own client library takes longer to load, and its server longer to answer, than LangGraph takes
to finish). When nothing loads LangGraph in the background (the `caec` command, tests), the first
turn loads it where it runs. If the background load fails, turns without a model go on
sequentially and a model's turn ends with the reason in words.

One per process: which libraries are loaded is the process's, not a session's.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import Future
from typing import Any, Literal

from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.events import STREAM_MODES
from caec_desktop.agent.selection.protocol import SelectorError
from caec_desktop.agent.state import AgentState

Runner = Literal["langgraph", "sequential"]

_graph: Any = None
"""The compiled LangGraph graph, once loaded."""
_loading: Future[Any] | None = None
"""The background load of LangGraph (app.py), while one is registered."""


def load_graph() -> Any:
    """Import LangGraph and compile the agent graph (any thread); later turns run on it."""
    global _graph
    from caec_desktop.agent.build import compiled_graph

    _graph = compiled_graph()
    return _graph


def loading_in_background(future: Future[Any] | None) -> None:
    """`future` loads LangGraph on another thread (it calls `load_graph`): until it is done,
    turns without a model run sequentially. None: no background load (the next turn loads it)."""
    global _loading
    _loading = future


def load_problem() -> str | None:
    """Why the background load of LangGraph failed, in words (None: it did not, or is going)."""
    if _graph is not None or _loading is None or not _loading.done() or _loading.cancelled():
        return None
    exc = _loading.exception()
    if exc is None:
        return None
    return (
        f"The agent engine (LangGraph) could not be loaded ({type(exc).__name__}: {exc}). "
        "Offline questions and the tool forms still work; model modes need it (see the log, and "
        "reinstall CAEC Desktop if this persists)."
    )


def pick(uses_model: bool) -> Runner:
    """The runner for a turn: LangGraph once loaded, or for a model's turn (which waits for it);
    sequential for a turn without a model while LangGraph loads, or after its load failed."""
    if _graph is not None or uses_model or _loading is None:
        return "langgraph"
    if not _loading.done():
        return "sequential"
    failed = not _loading.cancelled() and _loading.exception() is not None
    return "sequential" if failed else "langgraph"  # done without a graph: load it now


async def stream(
    runner: Runner, graph_input: AgentState, context: GraphContext
) -> AsyncIterator[dict[str, Any]]:
    """One turn's `tasks` and `custom` stream parts (LangGraph's v2 shape) from `runner` (a
    model's turn may first wait here for LangGraph to finish loading)."""
    if runner == "sequential":
        from caec_desktop.agent.sequential import astream

        return astream(graph_input, context)
    graph = await _langgraph()
    parts: AsyncIterator[dict[str, Any]] = graph.astream(
        graph_input, context=context, stream_mode=STREAM_MODES, version="v2"
    )
    return parts


async def _langgraph() -> Any:
    """The compiled graph: loaded already, awaited from the background load, or loaded now."""
    if _graph is not None:
        return _graph
    if _loading is not None:
        try:
            await asyncio.wrap_future(_loading)
        except Exception:
            raise SelectorError(
                "unavailable", load_problem() or "LangGraph did not load."
            ) from None
        if _graph is not None:
            return _graph
    return load_graph()
