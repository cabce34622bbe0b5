"""Tool calls a model wrote as text instead of structured `tool_calls` (docs/llm-servers.md §6).

Parsed in this order, each only when the previous found nothing:
1. Hermes `<tool_call>{…}</tool_call>` blocks (closing tag may be missing at the end): JSON, then
   JSON with trailing garbage trimmed or missing closing braces added, then a Python literal through
   `ast.literal_eval` (single quotes, True/None) — never `eval`;
2. the line our prompt style asks for: `TOOL_CALL: name {json}`;
3. bare JSON objects `{"name": …, "arguments"|"parameters": …}`, only when `name` is a known tool
   (prose often contains other JSON).

Whatever was parsed is cut out of the visible text. Also splits a leading `<think>…</think>`.
"""

from __future__ import annotations

import ast
import html
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from caec_desktop.tools.jsontext import MAX_JSON_DEPTH, marked_duplicates, too_deep

_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|(?=<tool_call>)|\Z)", re.DOTALL)
_LINE = re.compile(r"^[ \t]*TOOL_CALL:[ \t]*([A-Za-z_][\w.\-]*)[ \t]*(?=\{)", re.MULTILINE)
_THINK = re.compile(r"^\s*<think>(.*?)(?:</think>|\Z)", re.DOTALL)
_EMPTY_FENCE = re.compile(r"```[a-zA-Z]*\s*```")
_DECODER = json.JSONDecoder()


@dataclass
class TextCall:
    """One call recovered from text; `variant` says which form it had (for the trace)."""

    name: str
    args: dict[str, Any]
    variant: str
    notes: list[str] = field(default_factory=list)


def split_think(content: str) -> tuple[str, str]:
    """`(reasoning, visible)`: a leading `<think>…</think>` (or unclosed `<think>`) is reasoning."""
    m = _THINK.match(content)
    if not m:
        return "", content
    return m.group(1).strip(), content[m.end() :].lstrip()


def _decode_object(text: str) -> Any:
    """A JSON object from `text`: strict, then trimmed/brace-completed, then a Python literal."""
    text = text.strip()
    if too_deep(text):
        return None
    try:
        return json.loads(text, object_pairs_hook=marked_duplicates)
    except json.JSONDecodeError:
        pass
    start = text.find("{")
    if start >= 0:
        body = text[start:]
        missing = body.count("{") - body.count("}")
        for candidate in (body, body + "}" * max(missing, 0)):
            try:
                return _DECODER.raw_decode(candidate)[0]
            except json.JSONDecodeError:
                continue
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return None


def coerce_args(raw: Any) -> tuple[dict[str, Any], list[str]]:
    """Arguments as a dict: an object as is, a JSON string decoded (twice if double-encoded),
    `""`/None as `{}`. Anything else becomes `{}` with a note saying what was wrong."""
    if raw is None or raw == "":
        return {}, []
    value = raw
    if isinstance(raw, str) and too_deep(raw):
        return {}, [f"arguments are nested deeper than {MAX_JSON_DEPTH} levels"]
    for _ in range(2):
        if not isinstance(value, str):
            break
        try:
            value = json.loads(value, object_pairs_hook=marked_duplicates)
        except json.JSONDecodeError:
            return {}, [f"arguments are not a JSON object: {raw!r:.200}"]
    if isinstance(value, dict):
        return value, []
    return {}, [f"arguments are not a JSON object: {raw!r:.200}"]


def _call_from_object(obj: Any, variant: str) -> TextCall | None:
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("function"), dict):  # {"type": "function", "function": {...}}
        obj = obj["function"]
    name = obj.get("name")
    if not isinstance(name, str) or not name:
        return None
    raw = obj.get("arguments", obj.get("parameters"))
    args, notes = coerce_args(raw)
    return TextCall(name=name, args=args, variant=variant, notes=notes)


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + text[end:]
    text = _EMPTY_FENCE.sub("", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _blocks(text: str) -> tuple[list[TextCall], list[tuple[int, int]]]:
    calls, spans = [], []
    for m in _BLOCK.finditer(text):
        call = _call_from_object(_decode_object(m.group(1)), "tool_call_block")
        if call is not None:
            calls.append(call)
            spans.append(m.span())
    return calls, spans


def _lines(text: str) -> tuple[list[TextCall], list[tuple[int, int]]]:
    calls, spans = [], []
    for m in _LINE.finditer(text):
        try:
            obj, end = _DECODER.raw_decode(text, m.end())
        except json.JSONDecodeError:
            obj, end = _decode_object(text[m.end() :].split("\n", 1)[0]), text.find("\n", m.end())
            end = len(text) if end < 0 else end
        if isinstance(obj, dict):
            calls.append(TextCall(name=m.group(1), args=obj, variant="tool_call_line"))
            spans.append((m.start(), end))
    return calls, spans


def _bare(text: str, known: Collection[str]) -> tuple[list[TextCall], list[tuple[int, int]]]:
    calls, spans = [], []
    pos = text.find("{")
    while pos >= 0:
        try:
            obj, end = _DECODER.raw_decode(text, pos)
        except json.JSONDecodeError:
            pos = text.find("{", pos + 1)
            continue
        call = _call_from_object(obj, "bare_json")
        has_args = isinstance(obj, dict) and ("arguments" in obj or "parameters" in obj)
        if call is not None and call.name in known and has_args:
            calls.append(call)
            spans.append((pos, end))
            pos = text.find("{", end)
        else:
            pos = text.find("{", pos + 1)
    return calls, spans


_ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|quot|amp|lt|gt|apos);")


def _unescaped(text: str) -> str:
    """`text` with HTML entities decoded (twice: a server that escapes its prompt template writes
    `&#34;`, and an echoed turn escaped again becomes `&amp;#34;`)."""
    for _ in range(2):
        if not _ENTITY.search(text):
            break
        text = html.unescape(text)
    return text


def parse_text_calls(text: str, known: Collection[str]) -> tuple[list[TextCall], str]:
    """Calls written in `text` and the text left for the user once they are cut out.

    Args:
        text: the model's visible content (reasoning already removed).
        known: tool names; bare JSON is only taken as a call when its name is one of them.
    """
    text = _unescaped(text)
    if too_deep(text):  # JSON this deep would exhaust the decoder's recursion: no calls read
        return [], text.strip()
    for finder in (_blocks, _lines):
        calls, spans = finder(text)
        if calls:
            return calls, _cut(text, spans)
    calls, spans = _bare(text, known)
    if calls:
        return calls, _cut(text, spans)
    return [], text.strip()
