"""Where each input of a reported call came from, in the calculation report's words.

Its own small module: the chat's result card shows it for the first answer, which must not wait
for the report package (markdown-it and the rest) to load.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

CALL_SOURCE_AS_PROVENANCE = {"regex": "typed", "llm": "model", "llm_text": "model"}
"""Where an input came from when the call gives no per-argument source (see ProposedCall)."""


def provenance(entry: Mapping[str, Any], name: str, value: Any, prop: Mapping[str, Any]) -> str:
    """Where input `name` came from: its recorded source, else default/the call's source."""
    sources = entry.get("arg_sources") or {}
    if name in sources:
        return str(sources[name])
    if "default" in prop and prop["default"] == value:
        return "default"
    call_source = str(entry.get("source") or "unknown")
    return CALL_SOURCE_AS_PROVENANCE.get(call_source, call_source)
