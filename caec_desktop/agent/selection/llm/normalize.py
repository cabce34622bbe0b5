"""Server dialects made uniform before langchain-openai reads them (docs/llm-servers.md §1, §2, §5).

Pure dict → dict functions, applied to each non-streamed `message` and each streamed `delta`:
- tool calls: `arguments` as object / `""` / missing / double-encoded → one JSON string; entries
  without a function name dropped (and logged); numeric ids made strings; a missing `function`
  wrapper (llama.cpp docs) added; a missing `index` in a delta set from its position;
- reasoning: `reasoning`, `reasoning_content`, `reasoning_details` pulled out so they can travel in
  `additional_kwargs` (the base class drops them).
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

from caec_desktop.tools.jsontext import MAX_JSON_DEPTH, marked_duplicates, too_deep

log = logging.getLogger(__name__)

REASONING_KEYS = ("reasoning", "reasoning_content", "reasoning_details")


_FIRST_KEY = re.compile(r'\s*\{\s*"([A-Za-z_][A-Za-z0-9_]{0,63})"\s*:')


def _arguments(raw: Any) -> str:
    if raw is None or raw == "":
        return "{}"
    if not isinstance(raw, str):
        return json.dumps(raw)
    if too_deep(raw):  # json.loads here (and in langchain) would exhaust the recursion limit
        first = _FIRST_KEY.match(raw)  # named, so validation blames that field
        key = first.group(1) if first else "arguments"
        return json.dumps({key: f"nested deeper than {MAX_JSON_DEPTH} levels"})
    try:
        inner = json.loads(raw, object_pairs_hook=marked_duplicates)
    except json.JSONDecodeError:
        return raw  # kept as is: becomes an invalid tool call the model is told about
    if isinstance(inner, dict) and inner != json.loads(raw):  # a key given twice: both kept
        return json.dumps(inner)
    if isinstance(inner, str):  # double-encoded
        try:
            if isinstance(json.loads(inner), dict):
                return inner
        except json.JSONDecodeError:
            pass
    return raw


def _tool_calls(raw_calls: Any, *, delta: bool) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for pos, tc in enumerate(raw_calls if isinstance(raw_calls, list) else []):
        if not isinstance(tc, dict):
            continue
        fn = tc.get("function")
        if not isinstance(fn, dict):
            fn = {k: tc[k] for k in ("name", "arguments") if k in tc}
        name = fn.get("name")
        fixed: dict[str, Any] = {"type": "function"}
        if tc.get("id") not in (None, ""):
            fixed["id"] = str(tc["id"])
        if delta:
            fixed["index"] = tc["index"] if isinstance(tc.get("index"), int) else pos
            args = fn.get("arguments")
            fixed["function"] = {
                "name": name or None,
                "arguments": json.dumps(args) if isinstance(args, dict | list) else args,
            }
        else:
            if not isinstance(name, str) or not name:
                log.warning("dropped a tool call without a function name: %.200r", tc)
                continue
            fixed.setdefault("id", "")
            fixed["function"] = {"name": name, "arguments": _arguments(fn.get("arguments"))}
        out.append(fixed)
    return out


def pop_reasoning(msg: dict[str, Any]) -> dict[str, Any]:
    """Remove and return the reasoning fields present (non-empty) in `msg`."""
    found = {k: msg.pop(k) for k in REASONING_KEYS if k in msg}
    return {k: v for k, v in found.items() if v not in (None, "", [])}


def normalize_message(msg: dict[str, Any]) -> dict[str, Any]:
    """A non-streamed assistant `message`, fixed in place and returned."""
    if msg.get("content") is None:
        msg["content"] = ""
    calls = _tool_calls(msg.get("tool_calls"), delta=False)
    if calls:
        msg["tool_calls"] = calls
    else:
        msg.pop("tool_calls", None)
    msg.setdefault("role", "assistant")
    return msg


def normalize_delta(delta: dict[str, Any]) -> dict[str, Any]:
    """A streamed `delta`, fixed in place and returned."""
    calls = _tool_calls(delta.get("tool_calls"), delta=True)
    if calls:
        delta["tool_calls"] = calls
    else:
        delta.pop("tool_calls", None)
    return delta


def usage_cost(usage: Any) -> float | None:
    """OpenRouter's `usage.cost` (credits) when present."""
    if isinstance(usage, dict) and isinstance(usage.get("cost"), int | float):
        return float(usage["cost"])
    return None
