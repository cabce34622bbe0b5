"""Display units and significant figures: how SI values are shown, never how they are stored.

Every value inside CAEC is SI. What people see goes through a `Display`: per quantity kind
(length, time, pressure/modulus, density, mass, force, stiffness, speed) a preferred unit or
"auto" (an SI prefix chosen per value, `units.fmt`), and a number of significant figures.
Presets: `si` (auto everywhere), `si_mm_mpa` (mm and MPa, the rest auto), `us` (US customary:
the unit US engineers quote each quantity in, docs/display_units.md).

The process has one current display (`current()` / `use()`): the window sets it from the settings,
`caec` from `--units`/`--sig`; renderers (report, cards, exports, tables, plots) ask it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from caec_desktop.tools.units import SURFACE_TENSION_UNIT, convert, fmt, pretty_unit, sig

AUTO = "auto"
DEFAULT_SIG = 4
SIG_RANGE = (2, 10)

KINDS: dict[str, str] = {
    "length": "m",
    "time": "s",
    "pressure": "Pa",
    "density": "kg/m^3",
    "mass": "kg",
    "force": "N",
    "stiffness": "N/m",
    "speed": "m/s",
    "area": "m^2",
    "volume": "m^3",
    "acceleration": "m/s^2",
    "volume_flow": "m^3/s",
    "mass_flow": "kg/s",
    "mass_flow_hourly": "kg/h",
    "damping": "N*s/m",
    "viscosity": "Pa*s",
    "surface_energy": "J/m^2",
    "surface_tension": SURFACE_TENSION_UNIT,
    "torque": "N*m",
    "rolling_stiffness": "N*m/rad",
    "rolling_damping": "N*m*s/rad",
    "inertia": "kg*m^2",
}
"""Quantity kind → the unit values of that kind are stored in (SI; `kg/h` for the hourly mass
flow the discharge tools also give). Every unit a tool's inputs or results carry has a kind,
except those the same in both systems (1/s, rad/s, rpm, degree, h) and plain numbers. A liquid's
surface tension is a force per length like a stiffness, but no one reads it in a stiffness's
unit (lbf/in): its fields carry their own spelling of N/m (`units.SURFACE_TENSION_UNIT`)."""
KIND_LABELS = {
    "length": "Length",
    "time": "Time",
    "pressure": "Pressure / modulus",
    "density": "Density",
    "mass": "Mass",
    "force": "Force",
    "stiffness": "Stiffness",
    "speed": "Speed",
    "area": "Area",
    "volume": "Volume",
    "acceleration": "Acceleration",
    "volume_flow": "Volume flow",
    "mass_flow": "Mass flow",
    "mass_flow_hourly": "Mass flow per hour",
    "damping": "Damping coefficient",
    "viscosity": "Viscosity",
    "surface_energy": "Surface energy",
    "surface_tension": "Surface tension",
    "torque": "Torque / moment",
    "rolling_stiffness": "Rolling stiffness",
    "rolling_damping": "Rolling damping",
    "inertia": "Moment of inertia",
}
_KIND_OF_UNIT = {unit: kind for kind, unit in KINDS.items()}

UNIT_CHOICES: dict[str, tuple[str, ...]] = {
    "length": (AUTO, "m", "mm", "um", "cm", "inch", "ft"),
    "time": (AUTO, "s", "ms", "us", "ns"),
    "pressure": (AUTO, "Pa", "kPa", "MPa", "GPa", "psi", "ksi"),
    "density": (AUTO, "kg/m^3", "g/cm^3", "lb/ft^3"),
    "mass": (AUTO, "kg", "g", "mg", "lb"),
    "force": (AUTO, "N", "kN", "mN", "lbf"),
    "stiffness": (AUTO, "N/m", "kN/m", "N/mm", "lbf/inch"),
    "speed": (AUTO, "m/s", "mm/s", "ft/s"),
    "area": (AUTO, "m^2", "mm^2", "inch^2", "ft^2"),
    "volume": (AUTO, "m^3", "L", "mm^3", "inch^3", "ft^3"),
    "acceleration": (AUTO, "m/s^2", "ft/s^2"),
    "volume_flow": (AUTO, "m^3/s", "m^3/h", "L/s", "ft^3/s", "ft^3/min", "gallon/minute"),
    "mass_flow": (AUTO, "kg/s", "kg/min", "lb/s", "lb/min"),
    "mass_flow_hourly": (AUTO, "kg/h", "t/h", "lb/h", "ton/h"),
    "damping": (AUTO, "N*s/m", "lbf*s/inch", "lbf*s/ft"),
    "viscosity": (AUTO, "Pa*s", "mPa*s", "cP", "lbf*s/ft^2"),
    "surface_energy": (AUTO, "J/m^2", "mJ/m^2", "erg/cm^2"),
    "surface_tension": (AUTO, "N/m", "mN/m", "dyn/cm"),
    "torque": (AUTO, "N*m", "N*mm", "lbf*inch", "lbf*ft"),
    "rolling_stiffness": (AUTO, "N*m/rad", "N*mm/rad", "lbf*inch/rad"),
    "rolling_damping": (AUTO, "N*m*s/rad", "lbf*inch*s/rad"),
    "inertia": (AUTO, "kg*m^2", "g*cm^2", "lb*ft^2", "lb*inch^2"),
}
"""Units offered per kind in the settings (any pint unit of the kind is accepted)."""

PRESETS: dict[str, dict[str, str]] = {
    "si": {},
    "si_mm_mpa": {"length": "mm", "pressure": "MPa"},
    "us": {
        "length": "inch",
        "pressure": "psi",
        "density": "lb/ft^3",
        "mass": "lb",
        "force": "lbf",
        "stiffness": "lbf/inch",
        "speed": "ft/s",
        "area": "inch^2",
        "volume": "ft^3",
        "acceleration": "ft/s^2",
        "volume_flow": "ft^3/s",
        "mass_flow": "lb/s",
        "mass_flow_hourly": "lb/h",
        "damping": "lbf*s/inch",
        "viscosity": "cP",
        "surface_energy": "mJ/m^2",
        "surface_tension": "dyn/cm",
        "torque": "lbf*inch",
        "rolling_stiffness": "lbf*inch/rad",
        "rolling_damping": "lbf*inch*s/rad",
        "inertia": "lb*ft^2",
    },
}
"""Preset name → the kinds it fixes (kinds not named stay auto). Time stays auto in every preset:
µs and ns read better than any fixed unit for DEM time steps. US customary fixes every kind that
has a customary unit (viscosity in cP, as US practice quotes it); surface tension and surface
energy in the CGS-derived units US practice quotes them in (dyn/cm, mJ/m²), not in lbf/in or
lbf/ft, which give numbers like 0.0004 no one uses (docs/display_units.md)."""
PRESET_LABELS = {"si": "SI, auto prefix", "si_mm_mpa": "SI with mm and MPa", "us": "US customary"}


class DisplayError(ValueError):
    """A preset, unit or figure count that cannot be used (the message says what is allowed)."""


def grouped(count: int) -> str:
    """A whole number for people, every digit kept and grouped in threes: 1,100,000 (step
    counts, particle counts). Exports keep the plain number (`sweep_csv`, JSON)."""
    return f"{count:,}"


COUNT_BELOW = 1e15
"""Whole numbers below this are exact in a float: shown with every digit."""


def is_count(value: float) -> bool:
    """A number without a unit that is whole (1e7 particles, 1e12 particle-steps): a count,
    shown with every digit grouped (docs/display_units.md), never 1e7."""
    return math.isfinite(value) and value.is_integer() and abs(value) < COUNT_BELOW


COUNT_DECIMALS = 2
"""Decimals a count that is not whole keeps at least (N/s³ = 19,531.25 parcels)."""


def count_text(value: float | int, digits: int = DEFAULT_SIG, group: bool = True) -> str:
    """A count for people (docs/display_units.md, "Counts"): every digit of its whole part,
    grouped in threes unless `group` is False (CSV, a form's box); a fraction (a count computed
    by a division, N/s³ = 19531.25 parcels) to `digits` significant figures but at least
    `COUNT_DECIMALS` decimals, trailing zeros dropped: 19,531.25, never 19,530. A count below 1
    or beyond `COUNT_BELOW` is a plain number (`units.sig`)."""
    if isinstance(value, int) or is_count(value):
        return f"{int(value):,}" if group else str(int(value))
    if not math.isfinite(value) or abs(value) < 1 or abs(value) >= COUNT_BELOW:
        return sig(value, digits)
    whole_digits = len(str(int(abs(value))))
    decimals = max(digits - whole_digits, COUNT_DECIMALS)
    text = f"{value:,.{decimals}f}" if group else f"{value:.{decimals}f}"
    return text.rstrip("0").rstrip(".")


def kind_of(unit: str) -> str | None:
    """The display kind of an SI unit string ("Pa" → "pressure"); None for others."""
    return _KIND_OF_UNIT.get(unit)


@lru_cache(maxsize=256)
def _factor(si_unit: str, unit: str) -> float:
    return convert(1.0, si_unit, unit)


def check_unit(kind: str, unit: str) -> str:
    """`unit` when it is "auto" or a unit of `kind`'s dimension; DisplayError otherwise."""
    if kind not in KINDS:
        raise DisplayError(f"unknown quantity kind {kind!r}; kinds: {', '.join(KINDS)}")
    if unit == AUTO:
        return unit
    try:
        _factor(KINDS[kind], unit)
    except Exception:
        raise DisplayError(
            f"{unit!r} is not a unit of {kind} (e.g. {', '.join(UNIT_CHOICES[kind][1:4])}, "
            f"or {AUTO})"
        ) from None
    return unit


@dataclass(frozen=True)
class Display:
    """Preferred unit per kind (missing = auto) and significant figures."""

    units: dict[str, str] = field(default_factory=dict)
    sig: int = DEFAULT_SIG

    def unit_for(self, si_unit: str) -> str:
        """The fixed display unit for values in `si_unit`, or AUTO."""
        kind = kind_of(si_unit)
        return self.units.get(kind, AUTO) if kind else AUTO

    def number(self, value: float) -> str:
        """`value` to `sig` significant figures, plain or in exponent form by the one rule of
        `units.sig` (docs/display_units.md): 28000 and 70000 MPa, but 4.061e6 psi."""
        return sig(value, self.sig)

    def fmt(self, value: float, si_unit: str = "") -> str:
        """`value` (SI, in `si_unit`) for people: in the preferred unit, or an SI prefix."""
        unit = self.unit_for(si_unit)
        if unit == AUTO or not math.isfinite(value):
            return fmt(value, si_unit, self.sig)
        return f"{self.number(value * _factor(si_unit, unit))} {pretty_unit(unit)}"

    def show(self, value: Any, si_unit: str, count: bool = False) -> str:
        """A result or input for people: numbers as `fmt`, booleans yes/no, lists item by item.
        `count`: the field is a number of things (`x-count` in its schema), shown by
        `count_text` even when not whole (19,531.25 parcels)."""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, float):
            if not si_unit and (count or is_count(value)):
                return count_text(value, self.sig)  # a count computed as a float (N = 1e7)
            return self.fmt(value, si_unit)
        if isinstance(value, list):
            return ", ".join(self.show(v, si_unit, count) for v in value)
        if isinstance(value, int):  # a count (1,100,000 steps), or a quantity typed as 2500
            return self.fmt(float(value), si_unit) if si_unit else grouped(value)
        return str(value)

    def axis(self, si_unit: str, values: list[float]) -> tuple[str, float]:
        """One unit for a whole column or axis: (unit shown, factor from SI). Auto picks the
        prefix of the largest magnitude, so a column reads in one unit."""
        unit = self.unit_for(si_unit)
        if not si_unit:
            return "", 1.0
        if unit != AUTO:
            return pretty_unit(unit), _factor(si_unit, unit)
        finite = [abs(v) for v in values if math.isfinite(v) and v != 0]
        if not finite:
            return pretty_unit(si_unit), 1.0
        shown = fmt(max(finite), si_unit, self.sig).split(" ", 1)
        unit_text = shown[1] if len(shown) == 2 else pretty_unit(si_unit)
        return unit_text, _prefix_factor(si_unit, max(finite))


def _prefix_factor(si_unit: str, value: float) -> float:
    """The factor `units.fmt` rescales `value` by (1 when it keeps the SI unit)."""
    from caec_desktop.tools.units import prefixed_unit

    prefixed = prefixed_unit(value, si_unit)
    return 1.0 if prefixed is None else prefixed[0]


def make_display(
    preset: str = "si", overrides: dict[str, str] | None = None, sig: int = DEFAULT_SIG
) -> Display:
    """A Display from a preset, per-kind overrides ("auto" allowed) and significant figures."""
    if preset not in PRESETS:
        raise DisplayError(f"unknown units preset {preset!r}; presets: {', '.join(PRESETS)}")
    if not SIG_RANGE[0] <= sig <= SIG_RANGE[1]:
        raise DisplayError(
            f"significant figures must be {SIG_RANGE[0]} to {SIG_RANGE[1]}, got {sig}"
        )
    units = dict(PRESETS[preset])
    for kind, unit in (overrides or {}).items():
        units[kind] = check_unit(kind, unit)
    return Display(units={k: u for k, u in units.items() if u != AUTO}, sig=sig)


def parse_units_option(text: str) -> dict[str, Any]:
    """`--units` words: a preset ("si_mm_mpa"), and/or kind=unit pairs ("length=mm,time=us").
    Returns {"preset", "overrides"}; DisplayError names what is allowed."""
    preset = "si"
    overrides: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if "=" in part:
            kind, _, unit = part.partition("=")
            overrides[kind.strip()] = check_unit(kind.strip(), unit.strip())
        elif part in PRESETS:
            preset = part
        else:
            raise DisplayError(
                f"--units: {part!r} is neither a preset ({', '.join(PRESETS)}) nor kind=unit "
                f"(kinds: {', '.join(KINDS)})"
            )
    return {"preset": preset, "overrides": overrides}


_current = Display()


def current() -> Display:
    """The display in force (SI auto, 4 figures until the app or `caec` sets one)."""
    return _current


def use(display: Display) -> Display:
    """Make `display` current; returns the one it replaces (to restore it)."""
    global _current
    before, _current = _current, display
    return before


def with_sig(display: Display, digits: int) -> Display:
    return replace(display, sig=digits)


SCALED_SOURCES = {
    "typed (d/2)": ("diameter", 2.0, "÷ 2", "half the diameter typed"),
    "typed (2r)": ("radius", 0.5, "× 2", "twice the radius typed"),
}
"""Sources of a value typed as the other size (a diameter halved for a radius, a radius doubled
for a diameter): what was typed, the factor back to it, the operation in words, and the words
when the value as given is not known."""
_LEADING_NUMBER = re.compile(
    r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)(?:\s+([^\d\s.,+-][^\d,]*?))?\s*$"
)
"""A number and its unit, the whole text: `0.5 mm`, `2.5e-3 m`; not `1,250 mm` or `1 250 mm` (a
number in pieces is never scaled in part: the words without the number are used)."""


def source_note(source: str, typed: str = "") -> str:
    """An input's recorded source in words, for the note after its value: `typed: 0.5 m` (typed
    in other units than shown), `typed as diameter 1 mm ÷ 2` (`typed (d/2)` with the halved
    value as given, `0.5 mm`), `preset:glass`. Only the words: the recorded source (trace,
    history) is unchanged. `typed` is display text; its number is only scaled by 2 or ½, which
    is exact, never evaluated."""
    if source in SCALED_SOURCES:
        size, back, operation, unknown = SCALED_SOURCES[source]
        found = _LEADING_NUMBER.match(typed)
        if not found:
            return unknown
        value = float(found.group(1)) * back
        short = f"{value:g}"
        number = short if float(short) == value else repr(value)
        unit = found.group(2) or ""
        return f"typed as {size} {f'{number} {unit}'.strip()} {operation}"
    return f"{source}: {typed}" if typed else source
