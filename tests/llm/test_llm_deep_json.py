"""A model's tool-call arguments nested 2,000 deep are refused by name, never a RecursionError."""

from __future__ import annotations

import json

from caec_desktop.agent.selection.llm.normalize import normalize_message
from caec_desktop.agent.selection.llm.textcalls import coerce_args, parse_text_calls
from caec_desktop.tools.jsontext import MAX_JSON_DEPTH, json_depth

DEEP = '{"particle_radius": ' + "[" * 2000 + "]" * 2000 + "}"


def test_depth_is_counted_outside_strings() -> None:
    assert json_depth('{"a": [1, {"b": "[[[["}]}') == 3
    assert json_depth(DEEP) == 2001


def test_normalised_arguments_of_a_deep_call_are_shallow() -> None:
    message = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "1",
                "type": "function",
                "function": {"name": "particle_mass", "arguments": DEEP},
            }
        ],
    }
    (call,) = normalize_message(message)["tool_calls"]
    args = json.loads(call["function"]["arguments"])
    assert args == {"particle_radius": f"nested deeper than {MAX_JSON_DEPTH} levels"}


def test_text_tool_calls_refuse_deep_arguments() -> None:
    args, notes = coerce_args(DEEP)
    assert args == {} and notes == [f"arguments are nested deeper than {MAX_JSON_DEPTH} levels"]
    text = f'<tool_call>{{"name": "particle_mass", "arguments": {DEEP}}}</tool_call>'
    calls, rest = parse_text_calls(text, {"particle_mass"})
    assert calls == [] and rest == text  # shown as text, not run
