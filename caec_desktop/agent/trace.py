"""TraceEvent: the one event schema shared by the graph, the CLI, the window and exports.

Each event: `seq` (from 1), `t_ms` (since the run started), `kind`, `node` (or None), `data`
(a JSON-serialisable dict). API keys never appear in `data`: `redact` (the one redactor, in
`settings/redact.py`, re-exported here for the ui) is applied where events are made.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, Field

from caec_desktop.settings.redact import redact

__all__ = ["EVENT_KINDS", "EventKind", "TraceEvent", "redact"]

EventKind = Literal[
    "run_start",
    "node_start",
    "node_end",
    "llm_request",
    "llm_response",
    "tool_call",
    "validation_error",
    "retry",
    "refusal",
    "tool_result",
    "sweep",
    "warning",
    "error",
    "run_end",
]
EVENT_KINDS: tuple[str, ...] = EventKind.__args__  # type: ignore[attr-defined]


class TraceEvent(BaseModel):
    """One step of a run, as plain data (consumers never see LangGraph objects)."""

    seq: int = Field(ge=1)
    t_ms: float = Field(ge=0)
    kind: EventKind
    node: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)

    def to_json(self) -> str:
        """One JSONL line."""
        return json.dumps(self.model_dump(), ensure_ascii=False, default=str)

    @classmethod
    def from_json(cls, line: str) -> TraceEvent:
        return cls.model_validate_json(line)
