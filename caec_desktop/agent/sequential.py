"""The sequential runner: the graph's nodes run one after another without LangGraph.

For turns that start while LangGraph is still loading (start-up, ~0.7 s of imports): the same
topology (topology.py), the same node functions and the same stream parts as
`compiled.astream(input, context=..., stream_mode=["tasks", "custom"], version="v2")`, so the
session turns them into the same TraceEvents and the same final state (tests/agent/
test_sequential_parity.py runs the offline corpus through both). No node logic lives here: this
module only walks the topology: start part, the node (its custom events passed on as they are
written), end part with its update, then the route.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from caec_desktop.agent.context import GraphContext
from caec_desktop.agent.state import AgentState, start_state, state_after
from caec_desktop.agent.topology import AFTER, END, ENTRY, NODES, Route

STEP_LIMIT = 25
"""Nodes per run at most: LangGraph's default recursion limit (a run takes at most 5)."""


@dataclass(frozen=True)
class Runtime:
    """What a node reads of its run (`context.NodeRuntime`), as LangGraph's `Runtime` has it."""

    context: GraphContext
    stream_writer: Callable[[Any], None]


def _part(kind: str, data: Any) -> dict[str, Any]:
    return {"type": kind, "ns": (), "data": data}


async def astream(graph_input: AgentState, context: GraphContext) -> AsyncIterator[dict[str, Any]]:
    """Run one turn; yield its `tasks` and `custom` parts in LangGraph's v2 shape.

    A node that raises ends the run as in LangGraph: its end part carries the error, then the
    exception propagates. Closing the stream (or cancelling its consumer) cancels the node.
    """
    state = start_state(graph_input)
    node = ENTRY
    for _ in range(STEP_LIMIT):
        task_id = str(uuid.uuid4())
        yield _part(
            "tasks",
            {"id": task_id, "name": node, "input": state, "triggers": (f"branch:to:{node}",)},
        )
        update = None
        async for part in _run_node(node, state, context):
            if part["type"] == "custom":
                yield part
            else:
                update = part["data"]
        if isinstance(update, BaseException):
            yield _part(
                "tasks",
                {"id": task_id, "name": node, "error": update, "result": {}, "interrupts": []},
            )
            raise update
        result = dict(update or {})
        yield _part(
            "tasks",
            {"id": task_id, "name": node, "error": None, "result": result, "interrupts": []},
        )
        state = state_after(state, result)
        after = AFTER[node]
        node = after.route(state) if isinstance(after, Route) else after
        if node == END:
            return
    raise RuntimeError(f"the agent graph ran more than {STEP_LIMIT} steps without ending")


async def _run_node(
    node: str, state: AgentState, context: GraphContext
) -> AsyncIterator[dict[str, Any]]:
    """The node's custom parts as it writes them, then one `done` part with its update (or the
    exception it raised)."""
    queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
    runtime = Runtime(context, lambda chunk: queue.put_nowait(_part("custom", chunk)))
    task = asyncio.ensure_future(NODES[node](state, runtime))
    task.add_done_callback(lambda _: queue.put_nowait(None))
    try:
        while (part := await queue.get()) is not None:
            yield part
    finally:
        if not task.done():  # the stream was closed or its consumer cancelled
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    if task.cancelled():
        raise asyncio.CancelledError
    error = task.exception()
    yield _part("done", error if error is not None else task.result())
