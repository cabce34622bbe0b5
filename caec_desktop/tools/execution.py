"""Validate and run a tool: `execute(name, raw_args)` never raises for bad input.

It returns a `ToolOutcome` whose `errors` name the field and the allowed range; a run whose
arithmetic leaves the floating-point range is `ok=False` with the input(s) to blame.
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from caec_desktop.tools import plausibility
from caec_desktop.tools.base import ArgError, CalcSheet, ToolArgs, ToolSpec
from caec_desktop.tools.messages import FieldMessage, field_messages
from caec_desktop.tools.plausibility import FieldWarning
from caec_desktop.tools.registry import get_tool
from caec_desktop.tools.schema import tool_schema
from caec_desktop.tools.units import pretty_unit


class ToolOutcome(BaseModel):
    """What running a tool produced: validated SI args, the result and its calc sheet, or errors."""

    tool: str
    ok: bool
    args: dict[str, Any] = Field(default_factory=dict)
    result: dict[str, Any] | None = None
    errors: list[FieldMessage] = Field(default_factory=list)
    calc_sheet: CalcSheet | None = None
    warnings: list[FieldWarning] = Field(default_factory=list)
    """Inputs that are valid but far outside the usual DEM range (`plausibility.RANGES`): the
    run computed, and every entry point shows these next to the result."""

    def warning_texts(self) -> list[str]:
        return [w.text() for w in self.warnings]

    def error_text(self) -> str:
        return "; ".join(e.text() for e in self.errors)


def validate(name: str, raw: dict[str, Any]) -> tuple[ToolArgs | None, list[FieldMessage]]:
    """Validate raw arguments (numbers in SI or strings with units) into the tool's model."""
    try:
        spec = get_tool(name)
    except KeyError as exc:
        return None, [FieldMessage(field="tool", message=str(exc.args[0]))]
    if not isinstance(raw, dict):
        return None, [FieldMessage(field="", message="arguments must be a JSON object")]
    deep = [
        FieldMessage(
            field=str(key),
            message=f"nested deeper than {MAX_DEPTH} levels; expected a number, a string with a "
            "unit, or a list of them",
        )
        for key, value in raw.items()
        if _too_deep(value)
    ]
    if deep:
        return None, deep
    try:
        return spec.args_model.model_validate(raw), []
    except ValidationError as exc:
        return None, field_messages(exc, spec)


MAX_DEPTH = 4
"""Deepest nesting of lists/objects in one argument (tool arguments are at most a list)."""


def _too_deep(value: Any) -> bool:
    """Whether `value` nests lists or dicts deeper than MAX_DEPTH (walked without recursion, so
    a model's or a file's 2,000-deep list cannot exhaust the stack)."""
    level: list[Any] = [value]
    for _ in range(MAX_DEPTH + 1):
        level = [
            item
            for v in level
            if isinstance(v, list | tuple | dict)
            for item in (v.values() if isinstance(v, dict) else v)
        ]
        if not level:
            return False
    return True


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
    except ValidationError as exc:  # result models reject inf/NaN and subnormals (Unit types)
        bad = [e for e in exc.errors(include_url=False) if e["type"] in ("finite_number", "unit")]
        if len(bad) != len(exc.errors()):
            raise
        raise _OutOfRange(_non_finite_text({str(e["loc"][0]): e["input"] for e in bad})) from None
    dumped = result.model_dump()
    non_finite = {k: v for k, v in dumped.items() if not _all_finite(v)}
    if non_finite:
        raise _OutOfRange(_non_finite_text(non_finite))
    zero = _underflowed(spec, dumped)
    if zero:
        raise _OutOfRange(f"underflow: {_non_finite_text(zero)}")
    values = args.model_dump()
    return ToolOutcome(
        tool=spec.name,
        ok=True,
        args=values,
        result=dumped,
        calc_sheet=sheet,
        warnings=plausibility.check(values),
    )


def _underflowed(spec: ToolSpec[Any, Any], result: dict[str, Any]) -> dict[str, float]:
    """Physical results (with a unit) that came out as exactly 0: from positive inputs, a time,
    mass, size or stiffness of 0 is an underflow, not an answer (unless the result model lists
    the field in `zero_allowed`)."""
    units = spec.result_units()
    allowed = spec.result_model.zero_allowed
    return {
        k: v
        for k, v in result.items()
        if v == 0.0 and isinstance(v, float) and units.get(k) and k not in allowed
    }


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
