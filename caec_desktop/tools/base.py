"""Building blocks every tool uses: physical fields with units, calc sheets, the tool spec.

A tool is a pure function `fn(args, sheet) -> Result`: it reads validated SI values from `args`,
records each step on the calc sheet, and returns a Pydantic result model. No I/O, no Qt, no LLM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Annotated, Any, ClassVar, Generic, TypeVar, cast, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    GetJsonSchemaHandler,
    model_validator,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

from caec_desktop.tools.units import SURFACE_TENSION_UNIT, UnitParseError, to_si, ureg
from caec_desktop.tools.values import read_value


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
        if unit in _TURN_UNITS and isinstance(value, str):
            _check_turns(unit, value)
        return to_si(value, unit)
    except UnitParseError as exc:
        raise PydanticCustomError("unit", "{msg}", {"msg": str(exc)}) from None


_TURN_UNITS = {"rpm": ("hertz", "second"), "rad/s": ("hertz",)}
"""Rotation inputs and the per-time units that do not say what turns: a speed `2 Hz` or `2 1/s`
is 2 rev/s to an engineer (n = 120 rpm) but 2 rad/s to pint (19 rpm); an angular velocity
`2 Hz` likewise (SI: the hertz is for frequencies, ω is in rad/s or s⁻¹)."""
_ANGLES = frozenset(
    {"radian", "turn", "degree", "revolutions_per_minute", "revolutions_per_second", "arcminute"}
)


def _check_turns(unit: str, value: str) -> None:
    """Refuse a rotation typed in a unit that does not say whether it counts turns or radians."""
    reading = read_value(value)
    if not reading.unit:
        return
    names = set(ureg().parse_units(reading.unit)._units)
    if names & _ANGLES or not names <= set(_TURN_UNITS[unit]) | {"minute", "hour"}:
        return
    raise UnitParseError(
        f'"{reading.text}" does not say what turns: 1 Hz or 1 1/s is 1 rev/s (60 rpm) to an '
        "engineer but 1 rad/s (9.55 rpm) to a unit library; write rpm, rev/s or rad/s"
    )


@dataclass(frozen=True)
class Unit:
    """Annotated marker: the field is a number in SI `unit`, or a string with a unit pint converts.

    Also writes `x-unit` into the JSON Schema and rejects NaN/inf; `count` writes `x-count`
    (a number of things, shown as a count: `display.count_text`).
    """

    unit: str
    count: bool = False

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        inner = handler(source)
        if inner.get("type") == "float":
            cast(dict[str, Any], inner)["allow_inf_nan"] = False
        return core_schema.no_info_before_validator_function(partial(_coerce, self.unit), inner)

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        out = handler(schema)
        out["x-unit"] = self.unit
        if self.count:
            out["x-count"] = True
        return out


# Physical input/result types: a number in the SI unit named here, or a string with any unit of the
# same dimension ("2 mm", "70 GPa"), converted by pint. Bounds go on the field: `= Q(..., gt=0)`.
Length = Annotated[float, Unit("m")]
Area = Annotated[float, Unit("m^2")]
Volume = Annotated[float, Unit("m^3")]
Mass = Annotated[float, Unit("kg")]
Time = Annotated[float, Unit("s")]
Density = Annotated[float, Unit("kg/m^3")]
Pressure = Annotated[float, Unit("Pa")]
Velocity = Annotated[float, Unit("m/s")]
Force = Annotated[float, Unit("N")]
Stiffness = Annotated[float, Unit("N/m")]
Damping = Annotated[float, Unit("N*s/m")]
Ratio = Annotated[float, Unit("")]
"""Dimensionless (fractions, Poisson ratio, restitution); accepts "60 %" too."""
Count = Annotated[int, Unit("", count=True)]
"""A whole number (cores); "16" or 16.0 is read, 16.5 is refused."""
NumberOf = Annotated[float, Unit("", count=True)]
"""A number of things that a division may leave not whole (particles N = M/m, parcels N/s³,
particle-steps): dimensionless like `Ratio`, shown as a count with every digit (19,531.25)."""
Acceleration = Annotated[float, Unit("m/s^2")]
Angle = Annotated[float, Unit("degree")]
"""In degrees (a bare number is degrees; "0.3 rad" converts)."""
Viscosity = Annotated[float, Unit("Pa*s")]
SurfaceEnergy = Annotated[float, Unit("J/m^2")]
SurfaceTension = Annotated[float, Unit(SURFACE_TENSION_UNIT)]
"""N/m, spelled apart from a stiffness's so that it is shown in its own display unit."""
MassFlow = Annotated[float, Unit("kg/s")]
Rate = Annotated[float, Unit("1/s")]
"""Per second: shear rates, throughputs (particle-steps per core-second)."""
AngularVelocity = Annotated[float, Unit("rad/s")]
RotationSpeed = Annotated[float, Unit("rpm")]
Torque = Annotated[float, Unit("N*m")]
RollingStiffness = Annotated[float, Unit("N*m/rad")]
RollingDamping = Annotated[float, Unit("N*m*s/rad")]
Inertia = Annotated[float, Unit("kg*m^2")]


def Q(
    description: str,
    *,
    default: Any = ...,
    gt: float | None = None,
    ge: float | None = None,
    lt: float | None = None,
    le: float | None = None,
    example: str | float | None = None,
) -> Any:
    """The field spec of a physical input: `particle_radius: Length = Q("Radius", gt=0)`.

    The bounds become JSON Schema keywords (so forms and LLMs see them) and produce messages like
    `particle_radius: must be > 0 m, got -0.001 m` (formatted in registry.py). The unit comes from
    the field's type and is appended to the description in the exported schema.
    """
    extra: dict[str, Any] = {"examples": [example]} if example is not None else {}
    return Field(
        default, description=description, gt=gt, ge=ge, lt=lt, le=le, json_schema_extra=extra
    )


def R(description: str, *, default: Any = ...) -> Any:
    """The field spec of a result: `rayleigh_timestep: Time = R("Rayleigh time step")`; an
    optional result (`Time | None`) left out by the tool gets `default=None`."""
    return Field(default, description=description)


class ToolArgs(BaseModel):
    """Base for argument models: unknown parameters are errors, not silently dropped.

    Each model's validator and JSON Schema are built the first time they are used
    (`defer_build`), not when its module is imported: the first answer needs one tool's, and
    building all of them is ~10 % of the CPU on that answer's path (`registry.complete_models`
    builds the rest later, on the app's start-up worker)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    range_hints: ClassVar[dict[str, str]] = {}
    """Why a field's bound is there, added to its out-of-range message (field → reason)."""


class ToolResult(BaseModel):
    """Base for result models (built on first use, as `ToolArgs`)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)
    zero_allowed: ClassVar[frozenset[str]] = frozenset()
    """Results with a unit that may really be 0 (a damping coefficient at e = 1); any other such
    result of exactly 0 is reported as an underflow (see `execution._underflowed`)."""


# Only what turns formulas into formatting: `*` (emphasis even inside a word: PI*r*sqrt) and code
# spans. Underscores inside words (dt_R, check_solids_dem.f) stay as typed: CommonMark does not
# emphasise them, and a terminal shows the Markdown too.
_MD_ESCAPES = str.maketrans({"\\": "\\\\", "*": "\\*", "`": "\\`"})


def md_escape(text: str) -> str:
    """Escape Markdown syntax in formulas and citations ("PI*r*sqrt" must not turn italic)."""
    return text.translate(_MD_ESCAPES)


class CalcStep(BaseModel):
    """One line of a calc sheet: formula → values substituted → result with unit."""

    name: str
    formula: str
    substitution: str
    value: float | int | bool | str
    unit: str = ""
    count: bool = False
    """The value is a number of things (N_p = N/s³ parcels): shown as a count, every digit of
    its whole part (`display.count_text`), even when not whole."""

    def text(self) -> str:
        """The line as people read it. The substitution is written in SI (what the tool
        computed with), so a result the display shows in another unit (psi, inch) follows its
        SI value, `= 28 GPa (4061000 psi)`: the next line's substitution quotes the 28 GPa."""
        from caec_desktop.tools.display import AUTO, current, is_count  # (the app's/`caec`'s)
        from caec_desktop.tools.units import fmt

        value, display = self.value, current()
        counted = isinstance(value, int) and not isinstance(value, bool)  # 1,100,000 steps
        # a count computed as a float (N·n = 1e12 particle-steps): every digit, as its result
        counted |= isinstance(value, float) and not self.unit and (self.count or is_count(value))
        shown = (
            display.show(value, self.unit, self.count)
            if counted
            else display.fmt(value, self.unit)
            if isinstance(value, float)
            else str(value)
        )
        if isinstance(value, float) and display.unit_for(self.unit) != AUTO:
            si = fmt(value, self.unit, display.sig)
            if si.partition(" ")[2] != shown.partition(" ")[2]:
                shown = f"{si} ({shown})"
        return f"{self.name} = {self.formula} = {self.substitution} = {shown}"


_V = TypeVar("_V", bound=str)


COUNT_STEPS: dict[str, frozenset[str]] = {
    "coarse_graining": frozenset({"N", "N_p"}),
    "estimate_particle_count": frozenset({"N"}),
    "simulation_cost": frozenset({"N·n", "Ṅ T"}),
}
"""The steps that are numbers of things, by tool, for sheets saved before a step said so
(`CalcStep.count`): such a sheet showed N_p = 19,531.25 parcels as 19530. The polydisperse
counts N_1, N_2, … are matched by their name's pattern (`_is_count_step`)."""


def _is_count_step(tool: str, name: str) -> bool:
    if tool == "polydisperse_counts":
        return name.startswith("N_") and name[2:].isdigit()
    return name in COUNT_STEPS.get(tool, frozenset())


class CalcSheet(BaseModel):
    """What a reviewer needs to sign a number off: steps, thresholds, references, notes."""

    @model_validator(mode="before")
    @classmethod
    def _saved_counts(cls, data: Any) -> Any:
        """A sheet saved before steps carried `count`: its count steps (`COUNT_STEPS`) say so,
        so they show every digit (19,531.25) instead of 4 figures (19530)."""
        if not isinstance(data, dict) or not isinstance(data.get("steps"), list):
            return data
        tool = str(data.get("tool", ""))
        steps = [
            {**step, "count": _is_count_step(tool, str(step.get("name", "")))}
            if isinstance(step, dict) and "count" not in step
            else step
            for step in data["steps"]
        ]
        return {**data, "steps": steps}

    tool: str
    steps: list[CalcStep] = Field(default_factory=list)
    thresholds: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    fired: list[str] = Field(default_factory=list)
    """The conditions that made the verdict caution or fail, each with the number compared
    (`dt/dt_R = 0.35 > 0.2, the ok limit → caution`); empty in sheets saved before it existed."""
    not_computed: list[str] = Field(default_factory=list)
    """Results the question asked for that were left out for want of an input, each saying
    which input and how to give it (the wall time without a throughput). Shown at the top of
    the answer and on the card's warning line, not only among the notes; empty in sheets saved
    before it existed."""

    def flag(self, verdict: _V, condition: str) -> _V:
        """Record `condition` (which rule, with the number compared) when `verdict` is caution
        or fail; returns `verdict`, so tools can write `v = sheet.flag(v, ...)`."""
        if verdict in ("caution", "fail"):
            self.fired.append(f"{condition} → {verdict}")
        return verdict

    def step(
        self,
        name: str,
        formula: str,
        substitution: str,
        value: float,
        unit: str = "",
        *,
        count: bool = False,
    ) -> float:
        """Record a step and return `value`, so tools can write `g = sheet.step(...)`; `count`:
        the value is a number of things (`CalcStep.count`)."""
        self.steps.append(
            CalcStep(
                name=name,
                formula=formula,
                substitution=substitution,
                value=value,
                unit=unit,
                count=count,
            )
        )
        return value

    def verdict_reasons(self, verdict: str) -> list[str]:
        """Why a result is `caution` or `fail`: the conditions that fired, with the numbers
        compared (`fired`). A sheet saved without them gives its own threshold lines: those whose
        stated outcome (after their last "→") is caution or fail; when no line states one, the
        lines that state none (the rules). Nothing for an ok verdict."""
        if verdict.lower() not in ("caution", "fail"):
            return []
        if self.fired:
            return list(self.fired)

        def outcome(line: str) -> str:
            words = line.rsplit("→", 1)[1].split()
            return words[0].strip(".,;:").lower() if words else ""

        stated = [t for t in self.thresholds if "→" in t]
        bad = [t for t in stated if outcome(t) in ("caution", "fail")]
        return bad or [t for t in self.thresholds if "→" not in t]

    def markdown(self) -> str:
        """The sheet as Markdown (chat pane, exports)."""
        lines = [f"**Calc sheet — `{self.tool}`**", ""]
        lines += [f"{i}. {md_escape(s.text())}" for i, s in enumerate(self.steps, 1)]
        for title, items in (
            ("Thresholds", self.thresholds),
            ("Notes", self.notes),
            ("References", self.references),
        ):
            if items:
                lines += ["", f"*{title}:*"] + [f"- {md_escape(x)}" for x in items]
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


GROUPS: tuple[str, ...] = (
    "Time step",
    "Contact",
    "Cohesion",
    "CFD-DEM",
    "Particles, packing and bulk",
    "Flow and discharge",
    "Run size and cost",
    "Units",
)
"""The tool groups, in display order: what a tool computes."""

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
    group: str
    """What the tool computes, one of `GROUPS` (help, `caec tools` and the forms group by it)."""
    example: dict[str, Any] = field(default_factory=dict)
    """A valid argument set (used in help text, schema round-trip tests, and the form's sample)."""
    headline: str = ""
    """The result the tool is for (a numeric result field): a sweep's first result column, what
    it plots and draws a threshold against (`tools.sweep.result_columns`)."""

    def result_units(self) -> dict[str, str]:
        """The unit of each result field ("" for plain numbers), from the `Unit` markers."""
        return _result_units(self.result_model)


@cache
def _result_units(model: type[ToolResult]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, info in model.model_fields.items():
        # `Time` keeps its marker in `metadata`; `Time | None` inside the Union's Annotated arm
        arms = (info.annotation, *get_args(info.annotation))
        markers = [*info.metadata, *(m for a in arms for m in getattr(a, "__metadata__", ()))]
        marker = next((m for m in markers if isinstance(m, Unit)), None)
        out[name] = marker.unit if marker is not None else ""
    return out
