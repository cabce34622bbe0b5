"""Units: one pint registry for the whole app, parsing of "2 mm"-style inputs, display formatting.

pint does the conversions (no hand-written tables). The registry is built lazily and cached on disk
(`cache_folder=":auto:"`, ~0.16 s instead of ~0.28 s) so importing the tools stays cheap.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

import pint

# Human names for dimensions, keyed by a unit of that dimension (pint computes the dimensionality,
# so the key never depends on how pint orders "[mass] * [length]").
_DIMENSION_UNITS: dict[str, str] = {
    "m": "length",
    "kg": "mass",
    "s": "time",
    "kg/m^3": "density",
    "Pa": "pressure/stress",
    "m/s": "velocity",
    "N": "force",
    "N/m": "stiffness (force per length)",
    "N*s/m": "damping coefficient (force per velocity)",
    "m^3": "volume",
    "m^2": "area",
    "K": "temperature",
    "J": "energy/torque",
    "W": "power",
    "Pa*s": "dynamic viscosity",
    "1/s": "frequency",
    "m^3/s": "volume flow rate",
}


@lru_cache(maxsize=1)
def _dimension_names() -> dict[str, str]:
    names = {str(ureg().parse_units(u).dimensionality): n for u, n in _DIMENSION_UNITS.items()}
    names["dimensionless"] = "dimensionless"
    return names


def dimensionality_name(dimensionality: object) -> str:
    """A readable name for a pint dimensionality ("length" for {[length]: 1}); unnamed ones as
    pint writes them ("[length] ** 2.5")."""
    return _dimension_names().get(str(dimensionality), str(dimensionality))


@lru_cache(maxsize=1)
def ureg() -> pint.UnitRegistry[Any]:
    """The app's single unit registry (lazily created, disk-cached definitions)."""
    reg: pint.UnitRegistry[Any]
    try:
        reg = pint.UnitRegistry(cache_folder=":auto:")
    except Exception:  # pragma: no cover - unwritable cache dir: fall back to an uncached registry
        reg = pint.UnitRegistry()
    reg.formatter.default_format = "~P"
    return reg


def dimension_name(unit: str) -> str:
    """A readable name for the dimension of `unit` ("pressure/stress" for "Pa")."""
    dim = str(ureg().parse_units(unit).dimensionality) if unit else "dimensionless"
    return dimensionality_name(dim)


class UnitParseError(ValueError):
    """A value could not be read as a quantity of the expected dimension."""


def to_si(value: Any, unit: str) -> float:
    """Convert a number (already in `unit`) or a string with a unit ("2 mm") to a float in `unit`.

    Raises:
        UnitParseError: with a message that names the expected dimension and unit.
    """
    if isinstance(value, bool):
        raise UnitParseError(f"expected a number in {unit or 'no unit'}, got {value!r}")
    if isinstance(value, int | float):
        return float(value)
    if not isinstance(value, str):
        raise UnitParseError(
            f"expected a number in {unit or 'no unit'} or a string with a unit, "
            f"got {type(value).__name__}"
        )
    text = value.strip().replace("µ", "u").replace("μ", "u")
    if not text:
        raise UnitParseError(f"expected a value in {unit or 'no unit'}, got an empty string")
    simple = _NUMBER_UNIT.fullmatch(text)
    if simple is not None:
        factor = _scale(simple.group(2), unit)
        if factor is not None:
            return float(simple.group(1)) * factor
    reg = ureg()
    try:
        q: Any = reg.Quantity(text)  # typed by pint only when numpy is installed
    except Exception as exc:
        raise UnitParseError(f"could not read {value!r} as a quantity ({exc})") from None
    if not isinstance(q, pint.Quantity):  # a bare number parsed as a plain float
        return float(q)
    if q.dimensionless and not unit:
        return float(q.to("dimensionless").magnitude)
    if q.unitless:
        return float(q.magnitude)
    try:
        return float(q.to(unit or "dimensionless").magnitude)
    except pint.DimensionalityError:
        expected = dimension_name(unit)
        got = dimensionality_name(q.dimensionality)
        raise UnitParseError(
            f"expected a {expected} (in {unit or 'no unit'}), got {value!r} which is a {got}"
        ) from None


# "0.5 mm", "2.5 g/cm^3", "70GPa": a plain number and a unit expression (no arithmetic).
_NUMBER_UNIT = re.compile(
    r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z][A-Za-z0-9/^*. ]*?)"
)


@lru_cache(maxsize=512)
def _scale(unit_text: str, unit: str) -> float | None:
    """How many `unit` one `unit_text` is, when that is a plain scale of the same dimension.

    Parsing "0.5 mm" with pint costs ~0.15 ms; the scale per unit spelling is cached and the
    number multiplied by it, which is what pint's conversion does. None (offsets such as degC,
    dimensionless targets, unknown or mismatched units) sends the value down the full path,
    which gives the detailed error messages.
    """
    if not unit:
        return None
    reg = ureg()
    try:
        one = float(reg.Quantity(1.0, unit_text).to(unit).magnitude)
        two = float(reg.Quantity(2.0, unit_text).to(unit).magnitude)
        zero = float(reg.Quantity(0.0, unit_text).to(unit).magnitude)
    except Exception:
        return None
    return one if zero == 0.0 and two == 2.0 * one else None


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert `value` between two units of one dimension (pint does the work)."""
    reg = ureg()
    return float(reg.Quantity(value, from_unit).to(to_unit).magnitude)


def sig(value: float, digits: int = 4) -> str:
    """Format a number to `digits` significant figures, without float noise (2499.9999 → 2500)."""
    if value == 0 or not math.isfinite(value):
        return str(value)
    text = f"{value:.{digits}g}"
    if "e" in text:
        mant, exp = text.split("e")
        return f"{mant}e{int(exp)}"
    return text


def fmt(value: float, unit: str = "", digits: int = 4, compact: bool = True) -> str:
    """A value with its unit for people: `fmt(1.0232e-6, "s")` → "1.023 µs".

    Args:
        value: magnitude in `unit`.
        unit: a pint unit string; "" for dimensionless.
        digits: significant figures.
        compact: rescale to an SI prefix (µs, GPa) when the unit allows it.
    """
    if not unit:
        return sig(value, digits)
    # Masses of 1 kg and up stay in kg: engineers read "1500 kg", not "1.5 Mg".
    big_mass = unit == "kg" and abs(value) >= 1
    if compact and math.isfinite(value) and value != 0 and unit in _COMPACTABLE and not big_mass:
        factor, shown = _compact_unit(unit, math.floor(math.log10(abs(value))))
        return f"{sig(value * factor, digits)} {shown}"
    return f"{sig(value, digits)} {pretty_unit(unit)}"


@lru_cache(maxsize=512)
def _compact_unit(unit: str, decade: int) -> tuple[float, str]:
    """The prefixed unit pint's `to_compact` picks for values of `unit` in one decade, and the
    factor to it. Cached: `to_compact` costs ~60 µs a call and reports format dozens of values."""
    reg = ureg()
    target = reg.Quantity(10.0**decade, unit).to_compact().units
    return float(reg.Quantity(1.0, unit).to(target).magnitude), f"{target:~P}"


def show_value(value: Any, unit: str) -> str:
    """A result or input value for people (chat, reports): ~4 significant figures with its unit;
    booleans as yes/no, lists item by item."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return fmt(value, unit)
    if isinstance(value, list):
        return ", ".join(show_value(v, unit) for v in value)
    if isinstance(value, int) and unit:
        return f"{value} {pretty_unit(unit)}"
    return str(value)


@lru_cache(maxsize=256)
def pretty_unit(unit: str) -> str:
    """Short display form of a unit string ("kg/m^3" → "kg/m³")."""
    if not unit:
        return ""
    return f"{ureg().parse_units(unit):~P}"


# Units where an SI prefix reads naturally; composite units (kg/m³, N·s/m) stay as they are.
_COMPACTABLE = frozenset({"m", "s", "Pa", "N", "kg", "m/s"})
