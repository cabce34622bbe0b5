"""Tool calls a model wrote as text instead of structured `tool_calls` (docs/llm-servers.md §6).

Parsed in this order, each only when the previous found nothing:
1. Hermes `<tool_call>{…}</tool_call>` blocks (closing tag may be missing at the end): JSON, then
   JSON with trailing garbage trimmed or missing closing braces added, then a Python literal through
   `ast.literal_eval` (single quotes, True/None) — never `eval`;
2. the line our prompt style asks for: `TOOL_CALL: name {json}`;
3. `<function=name>` blocks: Qwen3's `<parameter=key>value</parameter>` or a JSON object (Llama
   3.1); FunctionGemma's `<start_function_call>call:name{key:<escape>value<escape>}`;
4. bare JSON objects `{"name": …, "arguments"|"parameters": …}`, only when `name` is a known tool
   (prose often contains other JSON);
5. calls written as Python, `name(key=value, …)` (Llama 3.2's `[…]`, Gemma's ```tool_code
   `print(…)`), only of known tools, read with `ast.parse` and `ast.literal_eval` (never run).

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
_EMPTY_FENCE = re.compile(r"```[\w-]*\s*```")
_FUNCTION_TAG = re.compile(
    r"<function=([A-Za-z_][\w.\-]*)>\s*(.*?)\s*(?:</function>|\Z)", re.DOTALL
)
_PARAMETER = re.compile(
    r"<parameter=([A-Za-z_]\w*)>\s*(.*?)\s*(?:</parameter>|(?=<parameter=)|\Z)", re.DOTALL
)
_GEMMA_CALL = re.compile(
    r"<start_function_call>\s*call:([A-Za-z_][\w.\-]*)\{(.*?)\}\s*(?:<end_function_call>|\Z)",
    re.DOTALL,
)
_GEMMA_ARG = re.compile(r"([A-Za-z_]\w*):(?:<escape>(.*?)<escape>|([^,}]*))", re.DOTALL)
_LEFTOVERS = re.compile(
    r"<\|(?:python_tag|eom_id|eot_id|end)\|>|\[TOOL_CALLS\]\s*(?:\[\s*\])?|"
    r"<tool_call>\s*</tool_call>|\bprint\(\s*\)|^\s*\[\s*\]\s*$",
    re.MULTILINE,
)
"""What a model's call syntax leaves once the call is cut out: Llama's special tokens,
Mistral's `[TOOL_CALLS] []`, an empty `<tool_call>` around a Qwen3 call, Gemma's `print()`."""
MAX_PYTHONIC_TRIES = 40
"""Closing parentheses tried per `name(` when reading a call written as Python."""
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
    text = _EMPTY_FENCE.sub("", _LEFTOVERS.sub("", text))
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


def _scalar(text: str) -> Any:
    """A parameter written as text: a JSON number, boolean or object as such, else the text."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, int | float | bool | dict | list) else text


def _function_tags(text: str) -> tuple[list[TextCall], list[tuple[int, int]]]:
    """`<function=name>…</function>`: Qwen3's `<parameter=key>value</parameter>` inside, or a
    JSON object (Llama 3.1's custom format)."""
    calls, spans = [], []
    for m in _FUNCTION_TAG.finditer(text):
        body = m.group(2)
        if body.startswith("{"):
            obj = _decode_object(body)
            args, notes = coerce_args(obj if isinstance(obj, dict) else body)
        else:
            args = {k: _scalar(v) for k, v in _PARAMETER.findall(body)}
            notes = []
        calls.append(TextCall(name=m.group(1), args=args, variant="function_tag", notes=notes))
        spans.append(m.span())
    return calls, spans


def _gemma_calls(text: str) -> tuple[list[TextCall], list[tuple[int, int]]]:
    """FunctionGemma: `<start_function_call>call:name{key:<escape>text<escape>,key:1}…`."""
    calls, spans = [], []
    for m in _GEMMA_CALL.finditer(text):
        args = {
            k: quoted if quoted else _scalar(bare.strip())
            for k, quoted, bare in _GEMMA_ARG.findall(m.group(2))
        }
        calls.append(TextCall(name=m.group(1), args=args, variant="gemma_call"))
        spans.append(m.span())
    return calls, spans


def _python_call(source: str) -> dict[str, Any] | None:
    """The keyword arguments of `source` when it is one call `name(key=literal, …)`; None
    otherwise. Read with `ast.parse` and each value with `ast.literal_eval`: never run."""
    try:
        node = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(node, ast.Call) or node.args:
        return None
    args: dict[str, Any] = {}
    for kw in node.keywords:
        if kw.arg is None:
            return None
        try:
            args[kw.arg] = ast.literal_eval(kw.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
    return args


def _pythonic(text: str, known: Collection[str]) -> tuple[list[TextCall], list[tuple[int, int]]]:
    """Calls written as Python (Llama 3.2's `[name(key=value)]`, Gemma's ```tool_code
    `print(name(…))`), only of known tools and only with literal keyword arguments."""
    calls: list[TextCall] = []
    spans: list[tuple[int, int]] = []
    names = "|".join(re.escape(n) for n in sorted(known, key=len, reverse=True))
    if not names:
        return calls, spans
    pos = 0
    for m in re.finditer(rf"(?<![\w.])({names})\s*\(", text):
        if m.start() < pos:
            continue
        end = m.end()
        for _ in range(MAX_PYTHONIC_TRIES):
            end = text.find(")", end)
            if end < 0:
                break
            end += 1
            args = _python_call(text[m.start() : end])
            if args is not None:
                calls.append(TextCall(name=m.group(1), args=args, variant="python_call"))
                spans.append((m.start(), end))
                pos = end
                break
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
    for finder in (_blocks, _lines, _function_tags, _gemma_calls):
        calls, spans = finder(text)
        if calls:
            return calls, _cut(text, spans)
    for known_finder in (_bare, _pythonic):
        calls, spans = known_finder(text, known)
        if calls:
            return calls, _cut(text, spans)
    return [], text.strip()
