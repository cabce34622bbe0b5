"""The one boundary where LangGraph stream parts become TraceEvents.

`graph.astream(..., stream_mode=["tasks", "custom"], version="v2")` yields typed parts: `tasks`
parts mark a node's start (with `input`) and end (with `result`, the node's update, or `error`),
`custom` parts are the nodes' own `{"kind", "node", "data"}` events. Seq, time and redaction are
applied here and nowhere else. The final state is the input with every node's update applied in
order (`node_update` + `state.state_after`); a `values` stream would build the whole state after
every step only for the session to keep the last one (~0.04 ms per offline query).
"""

from __future__ import annotations

import time
from typing import Any, cast

from caec_desktop.agent.trace import EVENT_KINDS, EventKind, TraceEvent
from caec_desktop.settings.redact import SECRET_FIELDS, redact_text

STREAM_MODES = ["tasks", "custom"]

_SUMMARY_KEYS = ("intent", "attempts", "status", "refused")
"""Scalar fields of a node's update shown in its node_end event."""


class TraceRecorder:
    """Numbers events from 1, times them from the run start, redacts keys, keeps the list."""

    def __init__(self, secrets: tuple[str, ...] = ()) -> None:
        self._secrets = tuple(s for s in secrets if s)
        self._t0 = time.perf_counter()
        self.events: list[TraceEvent] = []

    def make(
        self,
        kind: str,
        node: str | None = None,
        data: dict[str, Any] | None = None,
        at: float | None = None,
    ) -> TraceEvent:
        """A new event of `kind` (data made JSON-safe and redacted), appended to `events`.

        `at` is the `perf_counter()` time the event happened (default: now); times never go
        backwards, so an event delivered late keeps its place in the sequence.
        """
        if kind not in EVENT_KINDS:
            raise ValueError(f"unknown trace event kind {kind!r}")
        t_ms = ((at if at is not None else time.perf_counter()) - self._t0) * 1000.0
        if self.events:
            t_ms = max(t_ms, self.events[-1].t_ms)
        # Fields are checked above and built here, so skip pydantic's validation pass.
        event = TraceEvent.model_construct(
            seq=len(self.events) + 1,
            t_ms=max(t_ms, 0.0),
            kind=cast(EventKind, kind),
            node=node,
            data=safe_data(data, self._secrets) if data else {},
        )
        self.events.append(event)
        return event

    def from_part(self, part: dict[str, Any]) -> TraceEvent | None:
        """The TraceEvent for one `tasks` or `custom` stream part (None for other parts)."""
        kind = part.get("type")
        payload = part.get("data")
        if kind == "custom" and isinstance(payload, dict):
            return self.make(
                str(payload.get("kind")), payload.get("node"), payload.get("data"), payload.get("t")
            )
        if kind == "tasks" and isinstance(payload, dict):
            name = payload.get("name")
            if "input" in payload:
                return self.make("node_start", name)
            result = payload.get("result")
            update: dict[str, Any] = result if isinstance(result, dict) else {}
            data = {k: update[k] for k in _SUMMARY_KEYS if k in update}
            if payload.get("error"):
                data["error"] = str(payload["error"])
            return self.make("node_end", name, data)
        return None


def node_update(part: dict[str, Any]) -> dict[str, Any] | None:
    """The update a node returned, from its `tasks` end part (None for any other part)."""
    payload = part.get("data")
    if part.get("type") != "tasks" or not isinstance(payload, dict):
        return None
    result = payload.get("result")
    return result if isinstance(result, dict) and "input" not in payload else None


def safe_data(value: Any, secrets: tuple[str, ...] = ()) -> Any:
    """`value` made JSON-safe (tuples to lists, keys and unknown objects to str) and redacted as
    `trace.redact` does, in one walk: events carry whole calc sheets, and a walk for each
    concern cost ~0.03 ms per query."""
    if isinstance(value, str):
        return redact_text(value, secrets)
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            name, clean = str(key), safe_data(item, secrets)
            out[name] = "***" if clean and name.lower() in SECRET_FIELDS else clean
        return out
    if isinstance(value, list | tuple):
        return [safe_data(v, secrets) for v in value]
    if value is None or isinstance(value, int | float | bool):
        return value
    return redact_text(str(value), secrets)
