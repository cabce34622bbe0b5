"""What the model is told: system prompts, the prompt-style tool format, the `respond` tool."""

from __future__ import annotations

import json
from functools import cache
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

RESPOND = (
    "You help engineers set up DEM (discrete element method) simulations. This message needs "
    "no calculation: answer briefly in plain words, without numbers you worked out yourself. "
    "For a calculation, the user can ask for it with the inputs and their units."
)
"""For a request that runs no tool (conversation): no tools are offered."""

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


@cache
def _result_units(tool: str) -> dict[str, str]:
    """The unit of each result field of `tool` (cached: `result_schema` builds the schema from
    the result model on each call, ~2-3 ms in the step that sends the summary request;
    read-only here)."""
    from caec_desktop.tools import result_schema

    props = result_schema(tool).get("properties", {})
    return {k: p.get("x-unit", "") for k, p in props.items()}


def result_text(entry: dict[str, Any]) -> str:
    """A tool result for the model, every value with its unit ("0.0025 m", not 0.0025)."""
    units = _result_units(str(entry.get("tool")))
    shown = {
        k: f"{v:.6g} {units.get(k, '')}".strip()
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


def constrained_system(tools: list[dict[str, Any]]) -> str:
    """System prompt when the reply is constrained to one call's JSON (`call_schema`): the
    tools in one line each; the grammar carries the argument names and their unit forms."""
    listing = "\n".join(f"- {t['name']}: {t['description'].split('. ')[0]}" for t in tools)
    return (
        f"{SYSTEM}\n\nTools:\n{listing}\n\nReply with one JSON object "
        '{"name": tool_name, "arguments": {...}} using only values from the user\'s messages, '
        'each with its unit ("2 mm"), or a material name the user gave ("steel").'
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


# --- constrained output: JSON Schemas the server compiles into a grammar ---------------------
# llama.cpp compiles these into a GBNF grammar; an invalid grammar (an unknown escape such as
# `\\.` in a pattern) aborted llama-cpp-python 0.3.36's whole server process, so patterns use
# character classes only (tests/llm/test_real_llama_server.py compiles every tool's schema).

_NUMBER = r"-?[0-9]{1,6}([.][0-9]{1,6})?([eE]-?[0-9]{1,2})?"
"""At most 6 digits each side: a tiny model otherwise writes digits until its token limit."""
_UNITS: dict[str, str] = {
    "m": "mm|m|cm|µm|um|in|ft",
    "m/s": "m/s|mm/s|cm/s|km/h",
    "m/s^2": "m/s2",
    "kg/m^3": "kg/m3|g/cm3",
    "Pa": "Pa|kPa|MPa|GPa|psi",
    "s": "s|ms|µs|us|ns|min|h",
    "N": "N|kN|mN",
    "N/m": "N/m|kN/m",
    "newton/meter": "N/m|mN/m|dyn/cm",  # a surface tension (tools.units.SURFACE_TENSION_UNIT)
    "kg": "kg|g|mg",
    "kg/s": "kg/s|g/s",
    "m^3": "m3|cm3|mm3|L",
    "J/m^2": "J/m2|mJ/m2",
    "1/s": "1/s",
    "rad/s": "rad/s",
    "rpm": "rpm",
    "degree": "deg|degree",
}
"""Spellings the grammar offers per argument unit (all read by `tools/values.py`): a model can
write "2 mm" for a radius but not "2 m/s" or "100"."""
_ANY_UNIT = "[A-Za-zµ°%][A-Za-z0-9µ°%/*·.-]{0,11}"


def material_names() -> list[str]:
    """Every spelling of a material preset ("steel", "glass beads"): for the arguments a named
    material fills, the name is mapped to the preset's value (`provenance.py`). An enum, not a
    free word: Gemma 270M wrote `poisson_ratio: "None"` where any word was allowed."""
    from caec_desktop.tools.materials import MATERIALS

    return sorted({a for m in MATERIALS.values() for a in (m.key, *m.aliases)})


_NAMED = frozenset(
    {"density", "solid_density", "youngs_modulus", "wall_youngs_modulus", "poisson_ratio",
     "wall_poisson_ratio"}
)  # fmt: skip


def with_unit(unit: str) -> str:
    """The pattern of a value in `unit`'s dimension: a number, an optional space, a unit."""
    return f"^{_NUMBER} ?({_UNITS.get(unit, _ANY_UNIT)})$"


def _constrained(name: str, prop: dict[str, Any]) -> dict[str, Any]:
    """One argument's schema for the grammar: a physical value only as a number with a unit of
    its dimension (a bare number's unit is guessed by no one), a dimensionless one as a number;
    a material name where a named material fills the argument."""
    types = prop.get("type")
    if types == "string" and name.endswith("_unit"):  # convert_units' from_unit / to_unit
        return {"type": "string", "pattern": f"^{_ANY_UNIT}$"}
    if not (isinstance(types, list) and set(types) == {"number", "string"}):
        return {k: v for k, v in prop.items() if k in ("type", "enum", "items", "minLength")}
    unit = prop.get("x-unit") or ""
    value = {"type": "string", "pattern": with_unit(unit)} if unit else {"type": "number"}
    if name in _NAMED:
        return {"anyOf": [value, {"enum": material_names()}]}
    return value


def constrained_parameters(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's arguments as the grammar allows them: the required ones first, then the optional
    ones without a default value (a box's sides, Young's modulus or shear modulus), and none with
    a default (a flag, a fraction): a small model offered those fills them with values nobody
    gave, where leaving them out keeps the default."""
    required = list(schema.get("required") or [])
    props = schema.get("properties", {})
    optional = [n for n, p in props.items() if n not in required and p.get("default") is None]
    return {
        "type": "object",
        "properties": {n: _constrained(n, props[n]) for n in [*required, *optional]},
        "required": required,
        "additionalProperties": False,
    }


def call_schema(tools: list[dict[str, Any]]) -> dict[str, Any]:
    """JSON Schema of one call of one of `tools` (`tool_list()` entries):
    `{"name": <tool>, "arguments": {...}}`, a `oneOf` over the tools when there are several."""
    shapes = [
        {
            "type": "object",
            "properties": {
                "name": {"const": t["name"]},
                "arguments": constrained_parameters(t["parameters"]),
            },
            "required": ["name", "arguments"],
            "additionalProperties": False,
        }
        for t in tools
    ]
    return shapes[0] if len(shapes) == 1 else {"oneOf": shapes}


INTENT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"intent": {"enum": list(INTENTS)}},
    "required": ["intent"],
    "additionalProperties": False,
}
"""The classify reply as the grammar allows it: `{"intent": ...}`."""
