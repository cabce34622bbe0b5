"""Building blocks every tool uses: physical fields with units, calc sheets, the tool spec.

A tool is a pure function `fn(args, sheet) -> Result`: it reads validated SI values from `args`,
records each step on the calc sheet, and returns a Pydantic result model. No I/O, no Qt, no LLM.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Any, Generic, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from caec_desktop.tools.units import UnitParseError, fmt, pretty_unit, to_si


class ArgError(ValueError):
    """A cross-field problem (e.g. particle larger than container) that belongs to one field."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


def _coerce(unit: str, value: Any) -> Any:
    if value is None:
        return None
    try:
        return to_si(value, unit)
    except UnitParseError as exc:
        raise PydanticCustomError("unit", "{msg}", {"msg": str(exc)}) from None


def _check(
    unit: str,
    bounds: tuple[float | None, float | None, float | None, float | None],
    value: float,
) -> float:
    gt, ge, lt, le = bounds
    shown = f" {pretty_unit(unit)}" if unit else ""
    if not math.isfinite(value):
        raise PydanticCustomError("finite", "must be a finite number, got {got}", {"got": value})
    for limit, ok, word in (
        (gt, lambda lim: value > lim, ">"),
        (ge, lambda lim: value >= lim, ">="),
        (lt, lambda lim: value < lim, "<"),
        (le, lambda lim: value <= lim, "<="),
    ):
        if limit is not None and not ok(limit):
            raise PydanticCustomError(
                "range",
                "must be {word} {limit}{unit}, got {got}{unit}",
                {"word": word, "limit": f"{limit:g}", "unit": shown, "got": f"{value:g}"},
            )
    return value


def Q(  # noqa: N802 - reads like a type in model definitions
    unit: str,
    description: str,
    *,
    gt: float | None = None,
    ge: float | None = None,
    lt: float | None = None,
    le: float | None = None,
    example: str | None = None,
) -> Any:
    """A physical input in SI `unit`: accepts a number in that unit or a string with any unit.

    The JSON Schema states the unit (`x-unit` and the description) and the allowed range, so the
    form, the LLM and the error messages all say the same thing.
    """
    extra: dict[str, Any] = {"x-unit": unit}
    if example:
        extra["examples"] = [example]
    for key, val in (
        ("exclusiveMinimum", gt),
        ("minimum", ge),
        ("exclusiveMaximum", lt),
        ("maximum", le),
    ):
        if val is not None:
            extra[key] = val
    unit_text = f" [{pretty_unit(unit)}]" if unit else " [dimensionless]"
    return Annotated[
        float,
        BeforeValidator(partial(_coerce, unit)),
        AfterValidator(partial(_check, unit, (gt, ge, lt, le))),
        Field(description=description + unit_text, json_schema_extra=extra),
    ]


def R(unit: str, description: str) -> Any:  # noqa: N802
    """A result field in SI `unit` (stated in the schema)."""
    unit_text = f" [{pretty_unit(unit)}]" if unit else ""
    return Annotated[
        float, Field(description=description + unit_text, json_schema_extra={"x-unit": unit})
    ]


class ToolArgs(BaseModel):
    """Base for argument models: unknown parameters are errors, not silently dropped."""

    model_config = ConfigDict(extra="forbid")


class ToolResult(BaseModel):
    """Base for result models."""

    model_config = ConfigDict(extra="forbid")


class CalcStep(BaseModel):
    """One line of a calc sheet: formula → values substituted → result with unit."""

    name: str
    formula: str
    substitution: str
    value: float | int | bool | str
    unit: str = ""

    def text(self) -> str:
        shown = fmt(self.value, self.unit) if isinstance(self.value, float) else str(self.value)
        return f"{self.name} = {self.formula} = {self.substitution} = {shown}"


class CalcSheet(BaseModel):
    """What a reviewer needs to sign a number off: steps, thresholds, references, notes."""

    tool: str
    steps: list[CalcStep] = Field(default_factory=list)
    thresholds: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)

    def step(
        self, name: str, formula: str, substitution: str, value: float, unit: str = ""
    ) -> float:
        """Record a step and return `value`, so tools can write `g = sheet.step(...)`."""
        self.steps.append(
            CalcStep(name=name, formula=formula, substitution=substitution, value=value, unit=unit)
        )
        return value

    def markdown(self) -> str:
        """The sheet as Markdown (chat pane, exports)."""
        lines = [f"**Calc sheet — `{self.tool}`**", ""]
        lines += [f"{i}. {s.text()}" for i, s in enumerate(self.steps, 1)]
        if self.thresholds:
            lines += ["", "*Thresholds:*"] + [f"- {t}" for t in self.thresholds]
        if self.notes:
            lines += ["", "*Notes:*"] + [f"- {n}" for n in self.notes]
        if self.references:
            lines += ["", "*References:*"] + [f"- {r}" for r in self.references]
        return "\n".join(lines)

    def text(self) -> str:
        """The sheet as plain text (terminal)."""
        lines = [f"Calc sheet: {self.tool}"]
        lines += [f"  {i}. {s.text()}" for i, s in enumerate(self.steps, 1)]
        for title, items in (
            ("Thresholds", self.thresholds),
            ("Notes", self.notes),
            ("References", self.references),
        ):
            if items:
                lines.append(f"  {title}:")
                lines += [f"    - {x}" for x in items]
        return "\n".join(lines)


A = TypeVar("A", bound=ToolArgs)
Res = TypeVar("Res", bound=ToolResult)


@dataclass(frozen=True)
class ToolSpec(Generic[A, Res]):
    """A registered tool: name, description (for engineers and LLMs), models and function."""

    name: str
    description: str
    args_model: type[A]
    result_model: type[Res]
    func: Callable[[A, CalcSheet], Res]
    example: dict[str, Any] = field(default_factory=dict)
    """A valid argument set (used in help text, schema round-trip tests, and the form's sample)."""
