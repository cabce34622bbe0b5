"""TraceEvent: the one event schema shared by the graph, the CLI, the window and exports.

Each event: `seq` (from 1), `t_ms` (since the run started), `kind`, `node` (or None), `data`
(a JSON-serialisable dict). API keys never appear in `data` (see `redact`).
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal

from pydantic import BaseModel, Field

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


# Things that look like API keys: OpenRouter and OpenAI keys (`sk-…`), bearer tokens.
_KEY_PATTERN = re.compile(r"(sk-[A-Za-z0-9_\-]{8,}|Bearer\s+[A-Za-z0-9_\-\.]{8,})")
_SECRET_FIELDS = {"api_key", "apikey", "authorization", "openai_api_key", "llm_api_key", "key"}


def redact(value: Any, secrets: tuple[str, ...] = ()) -> Any:
    """Return `value` with API keys (known `secrets` and key-shaped strings) replaced by `***`."""
    if isinstance(value, str):
        for s in secrets:
            if s:
                value = value.replace(s, "***")
        return _KEY_PATTERN.sub("***", value)
    if isinstance(value, dict):
        return {
            k: ("***" if str(k).lower() in _SECRET_FIELDS and v else redact(v, secrets))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact(v, secrets) for v in value]
    return value
