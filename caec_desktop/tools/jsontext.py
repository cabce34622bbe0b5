"""How deep JSON text nests, counted before parsing it.

`json.loads` recurses once per `[` or `{`: 2,000 nested brackets from `--args` or a model's tool
call raise RecursionError, which no caller expects. Every reader of argument JSON (the CLI, the
LLM response normaliser, text tool calls) checks the depth first and refuses deeper text by name.
A key given twice with two values is kept as both (`marked_duplicates`), never the last in silence.
"""

from __future__ import annotations

import json
from typing import Any

MAX_JSON_DEPTH = 16
"""Deepest nesting of argument JSON that is parsed (tool arguments nest 2 levels)."""


def json_depth(text: str) -> int:
    """The deepest nesting of `[`/`{` in `text`, outside JSON strings (linear, no recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            escaped = not escaped and ch == "\\"
            in_string = escaped or ch != '"'
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def too_deep(text: str) -> bool:
    """Whether `text` nests deeper than MAX_JSON_DEPTH."""
    return json_depth(text) > MAX_JSON_DEPTH


GIVEN_TWICE = "given twice; give one value"


def _shown(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def marked_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`object_pairs_hook` for argument JSON: a key given twice with two values (`{"density":
    7850, "density": 2500}`, which `json.loads` reads as 2500 in silence) keeps both, as one
    string the value reader refuses naming the field (`7850 and 2500 (given twice; ...)`)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out and out[key] != value:
            value = f"{_shown(out[key])} and {_shown(value)} ({GIVEN_TWICE})"
        out[key] = value
    return out
