"""Units: one pint registry for the whole app, parsing of "2 mm"-style inputs, display formatting.

pint does the conversions (no hand-written tables). The registry is built lazily and cached on disk
(`cache_folder=":auto:"`, ~0.16 s instead of ~0.28 s) so importing the tools stays cheap.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pint

# Human names for pint dimensionalities, used in error messages.
DIMENSION_NAMES: dict[str, str] = {
    "[length]": "length",
    "[mass]": "mass",
    "[time]": "time",
    "[mass] / [length] ** 3": "density",
    "[mass] / [length] / [time] ** 2": "pressure/stress",
    "[length] / [time]": "velocity",
    "[length] * [mass] / [time] ** 2": "force",
    "[mass] / [time] ** 2": "stiffness (force per length)",
    "[mass] / [time]": "damping coefficient (force per velocity)",
    "[length] ** 3": "volume",
    "[length] ** 2": "area",
    "dimensionless": "dimensionless",
    "[temperature]": "temperature",
    "[mass] * [length] ** 2 / [time] ** 2": "energy/torque",
    "[mass] * [length] ** 2 / [time] ** 3": "power",
    "[mass] / [length] / [time]": "dynamic viscosity",
    "1 / [time]": "frequency",
    "[length] ** 3 / [time]": "volume flow rate",
}


@lru_cache(maxsize=1)
def ureg() -> pint.UnitRegistry:
    """The app's single unit registry (lazily created, disk-cached definitions)."""
    reg: pint.UnitRegistry
    try:
        reg = pint.UnitRegistry(cache_folder=":auto:")
    except Exception:  # pragma: no cover - unwritable cache dir: fall back to an uncached registry
        reg = pint.UnitRegistry()
    reg.formatter.default_format = "~P"
    return reg


def dimension_name(unit: str) -> str:
    """A readable name for the dimension of `unit` ("pressure/stress" for "Pa")."""
    dim = str(ureg().parse_units(unit).dimensionality) if unit else "dimensionless"
    return DIMENSION_NAMES.get(dim, dim)


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
    reg = ureg()
    try:
        q = reg.Quantity(text)
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
        got = DIMENSION_NAMES.get(str(q.dimensionality), str(q.dimensionality))
        raise UnitParseError(
            f"expected a {expected} (in {unit or 'no unit'}), got {value!r} which is a {got}"
        ) from None


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
        q = ureg().Quantity(value, unit).to_compact()
        return f"{sig(float(q.magnitude), digits)} {q.units:~P}"
    return f"{sig(value, digits)} {pretty_unit(unit)}"


def pretty_unit(unit: str) -> str:
    """Short display form of a unit string ("kg/m^3" → "kg/m³")."""
    if not unit:
        return ""
    return f"{ureg().parse_units(unit):~P}"


# Units where an SI prefix reads naturally; composite units (kg/m³, N·s/m) stay as they are.
_COMPACTABLE = frozenset({"m", "s", "Pa", "N", "kg", "m/s"})
