"""What the model is told: system prompts, the prompt-style tool format, the `respond` tool."""

from __future__ import annotations

import json
from typing import Any

from caec_desktop.agent.selection.protocol import Intent

INTENTS: tuple[Intent, ...] = ("calculation", "conversion", "help", "other")

SYSTEM = (
    "You help engineers set up DEM (discrete element method) simulations. For any calculation or "
    "unit conversion, call one of the tools; never compute numbers yourself. Give values with "
    'their units as strings (e.g. "2 mm", "70 GPa") or as SI numbers. If a required input is '
    "missing, ask for it instead of guessing. After tool results arrive, answer briefly using "
    "the results' numbers and units."
)

CLASSIFY = (
    "Classify the user's last message for a DEM calculation assistant. Call the `respond` tool "
    "with intent = calculation (wants a number computed), conversion (wants a unit converted), "
    "help (asks what you can do or how to use it), or other. If you cannot call tools, reply "
    'with only the JSON object {"intent": "..."}.'
)

RESPOND_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "respond",
        "description": "Report the intent of the user's message.",
        "parameters": {
            "type": "object",
            "properties": {"intent": {"type": "string", "enum": list(INTENTS)}},
            "required": ["intent"],
            "additionalProperties": False,
        },
    },
}


_KEPT = ("type", "description", "enum", "default", "items", "minLength")


def compact_parameters(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's JSON Schema as the model gets it: types, descriptions (they carry the unit),
    enums and defaults. No examples: a small model copies an example's value (one material's
    Young's modulus) into its call as if the user had given it."""
    props = {
        name: {k: v for k, v in prop.items() if k in _KEPT}
        for name, prop in schema.get("properties", {}).items()
    }
    out: dict[str, Any] = {"type": "object", "properties": props}
    if schema.get("required"):
        out["required"] = schema["required"]
    return out


def openai_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`tool_list()` entries as OpenAI `tools`, with compact schemas (`compact_parameters`)."""
    return [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t["description"],
                "parameters": compact_parameters(t["parameters"]),
            },
        }
        for t in tools
    ]


def forced(name: str) -> dict[str, Any]:
    """`tool_choice` forcing the tool `name`."""
    return {"type": "function", "function": {"name": name}}


def result_text(entry: dict[str, Any]) -> str:
    """A tool result for the model, every value with its unit ("0.0025 m", not 0.0025)."""
    from caec_desktop.tools import result_schema

    props = result_schema(str(entry.get("tool"))).get("properties", {})
    shown = {
        k: f"{v:.6g} {props.get(k, {}).get('x-unit', '')}".strip()
        if isinstance(v, int | float) and not isinstance(v, bool)
        else v
        for k, v in (entry.get("result") or {}).items()
        if v is not None
    }
    return json.dumps(shown, ensure_ascii=False, default=str)


def prompt_style_system(tools: list[dict[str, Any]]) -> str:
    """System prompt for servers without native tool calls: the tools and the TOOL_CALL format."""
    listing = "\n".join(
        f"- {t['name']}: {t['description']}\n  parameters (JSON Schema): "
        f"{json.dumps(compact_parameters(t['parameters']), ensure_ascii=False)}"
        for t in tools
    )
    return (
        f"{SYSTEM}\n\nTools you can call:\n{listing}\n\n"
        "To call a tool, write one line per call and nothing else on it:\n"
        'TOOL_CALL: tool_name {"argument": value, ...}\n'
        "The arguments must be one JSON object on that line. Tool results will come back in "
        "the next message; then answer in plain text without TOOL_CALL lines."
    )


def feedback_text(
    errors: list[tuple[str, dict[str, Any], list[str]]], style: str = "prompt"
) -> str:
    """Validation errors for the model when its calls came as text (no tool_call ids to answer),
    worded for the style in use: only prompt style is told to write TOOL_CALL lines."""
    lines = [
        f"- {name} {json.dumps(args, ensure_ascii=False)}: " + "; ".join(msgs)
        for name, args, msgs in errors
    ]
    how = "(TOOL_CALL lines)" if style == "prompt" else "(a tool call)"
    return (
        "These tool calls were invalid:\n" + "\n".join(lines) + "\nCorrect the arguments and "
        f"call again {how} using only values the user gave, or ask the user for the missing "
        "values."
    )


INVALID_CALL_NOTE = (
    "Error: invalid arguments: {errors}. Correct them and call the tool again, or ask the user "
    "for the missing values."
)
RAN_NOTE = "This call was valid and has run; its result is kept. Do not repeat it."
NOT_RUN_NOTE = "Not run (no result)."
