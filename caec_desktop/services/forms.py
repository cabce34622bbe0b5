"""A toolkit-free description of a tool's form, built from its JSON Schema (no Qt here).

The window's tool-form panel makes widgets from these `FormField`s (widget registry keyed by
`FormField.kind`); tests check the description without Qt. The idea is magicgui's `UiField` and
react-jsonschema-form's resolution pass: resolve `anyOf`/nullable and units first, render second.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from caec_desktop.tools.display import UNIT_CHOICES, is_count, kind_of
from caec_desktop.tools.units import pretty_unit, ureg
from caec_desktop.tools.values import ValueReadError, read_value

FieldKind = Literal["quantity", "number", "integer", "boolean", "enum", "string", "list"]

# Units an engineer may type a DEM input in; each field offers those of its own dimension.
_UNIT_CANDIDATES: tuple[str, ...] = (
    "m", "mm", "um", "cm", "km", "inch", "ft",
    "s", "ms", "us", "ns", "min", "h",
    "kg", "g", "mg", "t", "lb",
    "kg/m^3", "g/cm^3", "t/m^3", "lb/ft^3",
    "Pa", "kPa", "MPa", "GPa", "bar", "psi",
    "N", "kN", "mN", "lbf",
    "m/s", "mm/s", "km/h", "ft/s",
    "m/s^2", "N/m", "kN/m", "N/mm", "N*s/m",
    "m^3", "cm^3", "mm^3", "L", "m^2", "cm^2", "mm^2",
    "kg/s", "t/h", "Hz", "rpm", "rad/s", "J", "W", "degree", "rad",
)  # fmt: skip


@dataclass(frozen=True)
class FormField:
    """One input of a tool form, in JSON-Schema vocabulary.

    `unit` is the SI unit the tool expects ("" = dimensionless, None = not physical). Bounds are
    in that unit. `default` is None when the schema gives none (or gives null).
    """

    name: str
    kind: FieldKind
    title: str
    description: str = ""
    unit: str | None = None
    required: bool = False
    nullable: bool = False
    default: Any = None
    example: Any = None
    enum: tuple[Any, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: float | None = None
    exclusive_maximum: float | None = None
    item_kind: str | None = None
    units: tuple[str, ...] = field(default_factory=tuple)
    """Units offered in the unit selector: `unit` first, then others of the same dimension."""

    def range_text(self) -> str:
        """The allowed range for people: "> 0 m", "> -1 and ≤ 0.5", or ""."""
        shown = f" {pretty_unit(self.unit)}" if self.unit else ""
        parts = []
        for word, limit in (
            (">", self.exclusive_minimum),
            ("≥", self.minimum),
            ("<", self.exclusive_maximum),
            ("≤", self.maximum),
        ):
            if limit is not None:
                parts.append(f"{word} {limit:g}{shown}")
        return " and ".join(parts)


_OWN_CHOICES = {kind: UNIT_CHOICES[kind][1:] for kind in ("surface_tension", "surface_energy")}
"""Kinds that share their dimension with a stiffness (N/m = J/m²): their own units, from the
display settings' choices, rather than every unit of the dimension."""


@functools.cache
def compatible_units(unit: str) -> tuple[str, ...]:
    """`unit` followed by the candidate units of the same dimension (pint decides), none of them
    `unit` spelled otherwise (a surface tension's `newton/meter` is N/m: offered once)."""
    if not unit:
        return ("",)
    own = _OWN_CHOICES.get(kind_of(unit) or "")
    if own is not None:  # a surface tension offers dyn/cm, not a stiffness's kN/m
        return (unit, *(u for u in own if pretty_unit(u) != pretty_unit(unit)))
    dim = ureg().parse_units(unit).dimensionality
    shown = pretty_unit(unit)
    return (
        unit,
        *(
            cand
            for cand, d in candidate_dimensions()
            if cand != unit and d == dim and pretty_unit(cand) != shown
        ),
    )


@functools.cache
def candidate_dimensions() -> tuple[tuple[str, object], ...]:
    """Each candidate unit with its dimensionality, read once (a form's units were each compared
    with every candidate, parsing it again: ~5 ms a quantity field; app.py's start-up worker
    reads them ahead of the first form)."""
    reg = ureg()
    return tuple((cand, reg.parse_units(cand).dimensionality) for cand in _UNIT_CANDIDATES)


def _resolve(prop: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """Merge a nullable `anyOf: [X, null]` into X; return (schema, nullable)."""
    prop = dict(prop)
    nullable = False
    options = prop.pop("anyOf", None) or prop.pop("oneOf", None)
    if options:
        non_null = [o for o in options if o.get("type") != "null"]
        nullable = len(non_null) < len(options)
        if len(non_null) != 1:
            raise ValueError(f"cannot build a form field from {len(non_null)} alternatives")
        merged = dict(non_null[0])
        merged.update(prop)
        prop = merged
    types = prop.get("type")
    if isinstance(types, list):
        nullable = nullable or "null" in types
        types = [t for t in types if t != "null"]
        # ["number", "string"] is a physical value that may carry its unit as text.
        prop["type"] = "number" if "number" in types else types[0]
    return prop, nullable


def _kind(prop: dict[str, Any]) -> FieldKind:
    if "enum" in prop or "const" in prop:
        return "enum"
    t = prop.get("type", "string")
    if t == "number":
        return "quantity" if prop.get("x-unit") else "number"
    if t == "integer":
        return "integer"
    if t == "boolean":
        return "boolean"
    if t == "array":
        return "list"
    return "string"


def form_fields(schema: dict[str, Any]) -> list[FormField]:
    """The form of an object schema (a tool's `tool_schema(name)`), fields in schema order."""
    required = set(schema.get("required", []))
    out: list[FormField] = []
    for name, raw in schema.get("properties", {}).items():
        prop, nullable = _resolve(raw)
        kind = _kind(prop)
        default = prop.get("default")
        unit = prop.get("x-unit")
        examples = prop.get("examples") or []
        item = prop.get("items", {})
        out.append(
            FormField(
                name=name,
                kind=kind,
                title=prop.get("title") or name.replace("_", " ").capitalize(),
                description=prop.get("description", ""),
                unit=unit,
                required=name in required,
                nullable=nullable or ("default" in prop and default is None),
                default=default,
                example=examples[0] if examples else None,
                enum=tuple(prop["enum"]) if "enum" in prop else tuple(prop.get("const", ())),
                minimum=prop.get("minimum"),
                maximum=prop.get("maximum"),
                exclusive_minimum=prop.get("exclusiveMinimum"),
                exclusive_maximum=prop.get("exclusiveMaximum"),
                item_kind=item.get("type") if isinstance(item, dict) else None,
                units=compatible_units(unit) if unit is not None else (),
            )
        )
    return out


def split_value(value: Any, unit: str) -> tuple[str, str]:
    """Split an argument value into (number text, unit) for a quantity field.

    `"70 GPa"` → ("70", "GPa"); `2500` → ("2500", unit); a number `%g` would round (tan 20.9° =
    0.3818628…) keeps all its digits. Text that is not "number unit" stays
    whole in the number box (the tool's validation will name the problem).
    """
    if isinstance(value, int | float) and not isinstance(value, bool):
        if not unit and is_count(float(value)):
            # a count (n_particles 1e8): every digit, as it is shown elsewhere, ungrouped so the
            # box reads back the same number (docs/display_units.md)
            return str(int(value)), unit
        short = f"{value:g}"
        return (short if float(short) == value else repr(value)), unit
    text = str(value).strip()
    number, _, rest = text.partition(" ")
    try:  # the value reader: "70 GPa" splits, "1.2.5 mm" or "2 zorks" stays whole
        read_value(text)
        if read_value(number).unit:
            return text, unit
    except ValueReadError:
        return text, unit
    return number, rest.strip() or unit


def join_value(text: str, unit: str, si_unit: str = "") -> str | float | None:
    """The argument for a quantity field from its number box and chosen `unit`.

    Empty → None (omitted). A plain number in the tool's own `si_unit` stays a number; anything
    else is sent as "<text> <unit>" (or as typed, when the user typed a unit) for the tool to
    convert.
    """
    text = text.strip()
    if not text:
        return None
    number = plain_number(text)
    if number is None:
        return text  # a unit typed, or text the value reader refuses: validation names it
    return f"{text} {unit}" if unit and unit != si_unit else number


def plain_number(text: str) -> float | None:
    """`text` as a number when the value reader reads it as one number with no unit, else None
    (`"1_000"`, `"inf"` and `"0.20.7"` are not numbers here, though Python's float() takes the
    first two and pint once read the last as 0.14)."""
    try:
        reading = read_value(text)
    except ValueReadError:
        return None
    return None if reading.unit else reading.number


# --- sweeps from the form: one numeric field varied (tools/sweep.py runs it) ------------------


def sweepable(f: FormField) -> bool:
    """Whether a sweep can vary field `f` (a number, with or without a unit)."""
    return f.kind in ("quantity", "number")


@dataclass(frozen=True)
class SweepEntry:
    """What the sweep row of a field holds, as typed: ends, points, scale (lin, log, or list:
    then `values` holds the values, "1, 2, 5"), threshold."""

    start: str
    stop: str
    unit: str
    points: int
    scale: str
    threshold: str = ""
    values: str = ""


LIST = "list"
"""The sweep row's scale when it sweeps a list of values rather than a range."""
_VALUE_SEPARATOR = re.compile(r",(?=\s)|;")


def split_values(text: str) -> list[str]:
    """The values of a list sweep as typed: separated by a comma and a space, or by ";"
    ("1, 2, 5" or "1;2;5"). A comma between digits ("1,5") is not a separator: it stays in its
    value, which the value reader then refuses (it never becomes 1 and 5)."""
    return [item.strip() for item in _VALUE_SEPARATOR.split(text)] if text.strip() else []


def list_items(text: str) -> list[str]:
    """The items of a list field as typed: separated like a list sweep's values (`split_values`),
    or by bare commas when the list cannot be one number (`0.5,1,2`). `1,5` and `2,500` stay
    whole, so the value reader refuses them naming the field: never 1 and 5, nor 2 and 500."""
    from caec_desktop.tools.sweep import ambiguous_commas

    items: list[str] = []
    for item in split_values(text):
        if "," in item and ambiguous_commas(item) is None:
            items += [part.strip() for part in item.split(",")]
        else:
            items.append(item)
    return items


def sweep_call(
    tool: str, f: FormField, entry: SweepEntry, others: dict[str, Any]
) -> dict[str, Any]:
    """The arguments of the `sweep` call for field `f` swept as `entry`, the other fields'
    arguments as given. Ends (or listed values) typed without a unit take the unit chosen beside
    the field, like a single value; an empty end is sent as missing (the sweep's validation
    names it)."""
    call: dict[str, Any] = {"tool": tool, "parameter": f.name}
    if entry.scale == LIST:  # an empty value is sent as typed: the sweep's validation names it
        joined = [(t, join_value(t, entry.unit, f.unit or "")) for t in split_values(entry.values)]
        call["values"] = [t if value is None else value for t, value in joined]
    else:
        for key, text in (("start", entry.start), ("stop", entry.stop)):
            value = join_value(text, entry.unit, f.unit or "")
            if value is not None:
                call[key] = value
        call["points"] = entry.points
        call["scale"] = entry.scale
    call["args"] = {k: v for k, v in others.items() if k != f.name}
    if entry.threshold.strip():
        call["threshold"] = entry.threshold.strip()
    return call


def call_text(name: str, args: dict[str, Any]) -> str:
    """A form's call in the user's terms, one line: `beverloo_discharge: orifice_diameter = 5 mm,
    gravity = 9.80665 m/s², wall = no`; a sweep says what it varies: `sweep of
    rayleigh_timestep: particle_radius = 0.1 mm to 3 mm (60 points, log), density = 2500 kg/m³`.
    A bare number gets its field's unit (the form sends it in that unit); nothing is rounded."""
    from caec_desktop.tools.sweep import SWEEP_TOOL

    if name == SWEEP_TOOL and isinstance(args.get("args"), dict):
        tool, parameter = str(args.get("tool")), str(args.get("parameter"))
        units = _arg_units(tool)
        unit = units.get(parameter, "")
        if args.get("values") is not None:
            swept = ", ".join(_shown(v, unit) for v in args["values"])
        else:
            ends = [_shown(args.get(k), unit) if args.get(k) is not None else "?"
                    for k in ("start", "stop")]  # fmt: skip
            swept = f"{ends[0]} to {ends[1]} ({args.get('points')} points, {args.get('scale')})"
        parts = [f"{parameter} = {swept}"]
        parts += [f"{k} = {_shown(v, units.get(k, ''))}" for k, v in args["args"].items()]
        if args.get("threshold") is not None:
            parts.append(f"threshold = {_shown(args['threshold'], '')}")
        return f"{SWEEP_TOOL} of {tool}: " + ", ".join(parts)
    units = _arg_units(name)
    parts = [f"{k} = {_shown(v, units.get(k, ''))}" for k, v in args.items() if v is not None]
    return f"{name}: " + ", ".join(parts) if parts else name


def _arg_units(tool: str) -> dict[str, str]:
    from caec_desktop.tools import tool_schema

    try:
        props = tool_schema(tool).get("properties", {})
    except KeyError:
        return {}
    return {k: str(p.get("x-unit") or "") for k, p in props.items()}


def _shown(value: Any, unit: str) -> str:
    """A value as the user reads it: yes/no, a number exactly (no `2500.0`) with `unit`."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        number = f"{value:.15g}"
        return f"{number} {pretty_unit(unit)}" if unit else number
    if isinstance(value, list):
        return ", ".join(_shown(v, unit) for v in value)
    return str(value)
