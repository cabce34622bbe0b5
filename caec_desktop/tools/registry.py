"""The tool registry: JSON Schemas for forms and LLMs, field-level validation, execution.

`execute(name, raw_args)` never raises for bad input: it returns a `ToolOutcome` whose `errors` name
the field and the allowed range (`particle_radius: must be > 0 m, got -0.001 m`).
"""

from __future__ import annotations

import contextlib
import copy
import math
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from caec_desktop.tools.base import ArgError, CalcSheet, ToolArgs, ToolSpec
from caec_desktop.tools.units import UnitParseError, pretty_unit, to_si

_TOOLS: dict[str, ToolSpec[Any, Any]] = {}


def register(spec: ToolSpec[Any, Any]) -> ToolSpec[Any, Any]:
    """Add a tool to the registry (each tool module calls this at import)."""
    if spec.name in _TOOLS:
        raise ValueError(f"tool {spec.name!r} registered twice")
    _TOOLS[spec.name] = spec
    return spec


def _load() -> dict[str, ToolSpec[Any, Any]]:
    # Always import the catalog: a tool module imported on its own registers only its tools.
    from caec_desktop.tools import catalog  # noqa: F401 - registers every tool

    return _TOOLS


def tool_names() -> list[str]:
    """Names of all tools, in registration order."""
    return list(_load())


def get_tool(name: str) -> ToolSpec[Any, Any]:
    """The spec of tool `name`; KeyError with the known names if there is none."""
    tools = _load()
    if name not in tools:
        raise KeyError(f"unknown tool {name!r}; known tools: {', '.join(tools)}")
    return tools[name]


class FieldMessage(BaseModel):
    """A validation problem tied to one field ("" when it concerns the whole call)."""

    field: str
    message: str

    def text(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class ToolOutcome(BaseModel):
    """What running a tool produced: validated SI args, the result and its calc sheet, or errors."""

    tool: str
    ok: bool
    args: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] | None = None
    errors: list[FieldMessage] = Field(default_factory=list)
    calc_sheet: CalcSheet | None = None

    def error_text(self) -> str:
        return "; ".join(e.text() for e in self.errors)


# --- JSON Schema -------------------------------------------------------------------------------


# pydantic leaves constraints of optional fields as gt/ge/lt/le inside anyOf.
_BOUND_KEYWORDS = {
    "gt": "exclusiveMinimum",
    "ge": "minimum",
    "lt": "exclusiveMaximum",
    "le": "maximum",
}
_BOUND_WORDS = {
    "greater_than": "gt",
    "greater_than_equal": "ge",
    "less_than": "lt",
    "less_than_equal": "le",
}
_SYMBOL = {"gt": ">", "ge": ">=", "lt": "<", "le": "<="}


def _simplify(prop: dict[str, Any], keep_null: bool = False) -> dict[str, Any]:
    """Flatten pydantic's output into the plain subset local models and strict servers accept.

    Optional arguments lose their `null` branch (absent means default); optional results keep it
    (`keep_null`), since a result may really be null (e.g. a mass when no volume was given).
    """
    prop = dict(prop)
    prop.pop("title", None)
    any_of = prop.pop("anyOf", None)
    if any_of is not None:
        non_null = [s for s in any_of if s.get("type") != "null"]
        if len(non_null) != 1:
            raise ValueError(f"schema too complex for tools: {any_of}")
        prop = {**_simplify(non_null[0]), **prop}
        if keep_null and len(non_null) < len(any_of) and "type" in prop:
            types = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
            prop["type"] = [*types, "null"]
    for short, keyword in _BOUND_KEYWORDS.items():
        if short in prop:
            prop[keyword] = prop.pop(short)
    if "x-unit" in prop:
        if prop.get("type") == "number":
            prop["type"] = ["number", "string"]
        unit = prop["x-unit"]
        shown = f"[{pretty_unit(unit)}]" if unit else "[dimensionless]"
        if shown not in prop.get("description", ""):
            prop["description"] = f"{prop.get('description', '')} {shown}".strip()
    if "items" in prop:
        prop["items"] = _simplify(prop["items"])
    return prop


def _object_schema(
    model: type[BaseModel], description: str = "", keep_null: bool = False
) -> dict[str, Any]:
    raw = model.model_json_schema()
    if "$defs" in raw:
        raise ValueError(f"{model.__name__}: nested models are not allowed in tool schemas")
    props = {k: _simplify(v, keep_null) for k, v in raw.get("properties", {}).items()}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": props,
        "required": [k for k in raw.get("required", []) if k in props],
        "additionalProperties": False,
    }
    if description:
        schema["description"] = description
    return schema


_SCHEMAS: dict[str, dict[str, Any]] = {}


def tool_schema(name: str) -> dict[str, Any]:
    """JSON Schema of a tool's arguments (no `$ref`, units in `x-unit` and descriptions)."""
    if name not in _SCHEMAS:
        spec = get_tool(name)
        _SCHEMAS[name] = _object_schema(spec.args_model, spec.description)
    return copy.deepcopy(_SCHEMAS[name])


def result_schema(name: str) -> dict[str, Any]:
    """JSON Schema of a tool's result."""
    return _object_schema(get_tool(name).result_model, keep_null=True)


def tool_list() -> list[dict[str, Any]]:
    """`[{"name", "description", "parameters"}]` for every tool (`caec tools --json`)."""
    return [
        {"name": n, "description": get_tool(n).description, "parameters": tool_schema(n)}
        for n in tool_names()
    ]


# --- validation and execution ------------------------------------------------------------------


def _messages(exc: ValidationError, spec: ToolSpec[Any, Any]) -> list[FieldMessage]:
    out: list[FieldMessage] = []
    props = tool_schema(spec.name)["properties"]
    for err in exc.errors(include_url=False):
        loc = ".".join(str(p) for p in err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, ArgError):
            out.append(FieldMessage(field=cause.field, message=cause.message))
            continue
        kind = err["type"]
        if kind == "missing":
            prop = props.get(loc, {})
            unit = prop.get("x-unit")
            where = f"in {unit}" if unit else "dimensionless"
            if prop.get("examples"):
                hint = f' ({where}), e.g. {loc}="{prop["examples"][0]}"'
            elif unit is not None and prop.get("type") == "array":
                hint = f" ({where}; a list of numbers, or of strings with a unit)"
            elif unit is not None:
                hint = f" ({where}; a number, or a string with a unit)"
            else:
                hint = ""
            msg = f"required{hint}"
        elif kind == "extra_forbidden":
            msg = f"unknown parameter; allowed: {', '.join(props)}"
        elif kind in _BOUND_WORDS or kind == "finite_number":
            msg = _range_message(kind, err, props.get(str(err["loc"][0]), {}))
            if kind in _BOUND_WORDS and loc in spec.args_model.range_hints:
                msg += f"; {spec.args_model.range_hints[loc]}"
        elif kind == "literal_error":
            msg = f"must be one of {err['ctx']['expected']}, got {err['input']!r}"
        else:
            msg = err["msg"].removeprefix("Value error, ")
        out.append(FieldMessage(field=loc, message=msg))
    return out


def _range_message(kind: str, err: Any, prop: dict[str, Any]) -> str:
    unit = prop.get("x-unit") or (prop.get("items") or {}).get("x-unit") or ""
    shown = f" {pretty_unit(unit)}" if unit else ""
    value = err["input"]
    if isinstance(value, str):  # optional fields report the raw input; show it in SI
        with contextlib.suppress(UnitParseError):
            value = to_si(value, unit)
    if kind == "finite_number" or (isinstance(value, float) and math.isnan(value)):
        return f"must be a finite number, got {value}"
    key = _BOUND_WORDS[kind]
    limit = err["ctx"][key]
    got = f"{value:g}" if isinstance(value, int | float) else repr(value)
    return f"must be {_SYMBOL[key]} {limit:g}{shown}, got {got}{shown}"


def validate(name: str, raw: dict[str, Any]) -> tuple[ToolArgs | None, list[FieldMessage]]:
    """Validate raw arguments (numbers in SI or strings with units) into the tool's model."""
    try:
        spec = get_tool(name)
    except KeyError as exc:
        return None, [FieldMessage(field="tool", message=str(exc.args[0]))]
    if not isinstance(raw, dict):
        return None, [FieldMessage(field="", message="arguments must be a JSON object")]
    try:
        return spec.args_model.model_validate(raw), []
    except ValidationError as exc:
        return None, _messages(exc, spec)


def execute(name: str, raw: dict[str, Any]) -> ToolOutcome:
    """Validate and run a tool. Bad input gives `ok=False` with field messages, never a raise.

    Finite inputs can still drive a formula out of floating-point range (d = 1e300 m cubed
    overflows, F = 1e-320 N makes a contact radius of 0 that is then divided by): such a run is
    `ok=False` too, with a message naming the input(s) to blame (see `_out_of_range`).
    """
    args, errors = validate(name, raw)
    if args is None:
        return ToolOutcome(tool=name, ok=False, errors=errors)
    spec = get_tool(name)
    sheet = CalcSheet(tool=name)
    try:
        outcome = _run(spec, args, sheet)
    except _OutOfRange as exc:
        return ToolOutcome(
            tool=name, ok=False, args=args.model_dump(), errors=_out_of_range(name, raw, exc.reason)
        )
    return outcome


class _OutOfRange(Exception):
    """A run whose arithmetic left the floating-point range; `reason` says where."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _run(spec: ToolSpec[Any, Any], args: ToolArgs, sheet: CalcSheet) -> ToolOutcome:
    """Run a validated call; `_OutOfRange` when its arithmetic overflowed or divided by zero."""
    try:
        result = spec.func(args, sheet)
    except ArgError as exc:
        return ToolOutcome(
            tool=spec.name,
            ok=False,
            args=args.model_dump(),
            errors=[FieldMessage(field=exc.field, message=exc.message)],
        )
    except ArithmeticError as exc:  # ZeroDivisionError, OverflowError
        kind = "division by zero" if isinstance(exc, ZeroDivisionError) else "overflow"
        after = f" after step {sheet.steps[-1].name}" if sheet.steps else ""
        raise _OutOfRange(f"{kind}{after}") from None
    except ValidationError as exc:  # result models reject inf/NaN (Unit types)
        bad = [e for e in exc.errors(include_url=False) if e["type"] == "finite_number"]
        if len(bad) != len(exc.errors()):
            raise
        raise _OutOfRange(_non_finite_text({str(e["loc"][0]): e["input"] for e in bad})) from None
    dumped = result.model_dump()
    non_finite = {k: v for k, v in dumped.items() if not _all_finite(v)}
    if non_finite:
        raise _OutOfRange(_non_finite_text(non_finite))
    return ToolOutcome(
        tool=spec.name, ok=True, args=args.model_dump(), result=dumped, calc_sheet=sheet
    )


def _all_finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list | tuple):
        return all(_all_finite(v) for v in value)
    return True


def _non_finite_text(values: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {v}" for k, v in values.items())


def _out_of_range(name: str, raw: dict[str, Any], reason: str) -> list[FieldMessage]:
    """Messages for a run that left the floating-point range, naming the culprit inputs.

    An input is to blame when putting back the tool's example value for it alone (everything
    else as given) gives a result in range; when no single input does, the message concerns the
    whole call ("").
    """
    spec = get_tool(name)
    culprits: list[str] = []
    for field, value in spec.example.items():
        if field not in raw or raw[field] == value:
            continue
        args, _ = validate(name, {**raw, field: value})
        if args is None:
            continue
        try:
            if _run(spec, args, CalcSheet(tool=name)).ok:
                culprits.append(field)
        except _OutOfRange:
            continue
    if not culprits:
        return [
            FieldMessage(
                field="",
                message=f"the inputs give a result outside floating-point range ({reason}); "
                "check the values and their units",
            )
        ]
    props = tool_schema(name)["properties"]
    return [
        FieldMessage(
            field=field,
            message=f"{_shown(raw[field], props.get(field, {}))} drives the result outside "
            f"floating-point range ({reason}); check the value and its unit",
        )
        for field in culprits
    ]


def _shown(value: Any, prop: dict[str, Any]) -> str:
    """A raw input as the user gave it, with the schema's unit when it is a bare number."""
    unit = prop.get("x-unit") or ""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g} {pretty_unit(unit)}".strip()
    return str(value)
