"""Units: one pint registry for the whole app, values in SI (`to_si`), display formatting.

pint does the conversions (no hand-written tables). The registry is built lazily and cached on disk
(`cache_folder=":auto:"`, ~0.16 s instead of ~0.28 s) so importing the tools stays cheap.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import pint

from caec_desktop.tools.values import TINY, ValueReadError, read_unit, read_value

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
def _dimension_names() -> dict[object, str]:
    """Names by pint dimensionality (compared as pint compares them: lbf and N are both forces,
    though pint writes their dimensions in different orders), and by the text of each."""
    names: dict[object, str] = {}
    for unit, name in _DIMENSION_UNITS.items():
        dimensionality = ureg().parse_units(unit).dimensionality
        names[dimensionality] = names[str(dimensionality)] = name
    names["dimensionless"] = "dimensionless"
    return names


def dimensionality_name(dimensionality: object) -> str:
    """A readable name for a pint dimensionality ("length" for {[length]: 1}); unnamed ones as
    pint writes them ("[length] ** 4")."""
    names = _dimension_names()
    try:
        return names.get(dimensionality, None) or names.get(
            str(dimensionality), str(dimensionality)
        )
    except TypeError:  # not hashable
        return str(dimensionality)


# Spellings engineers type that pint lacks, defined once here (each with its source); the value
# reader (values.py) reads every unit through this registry, so chat, forms, CLI and models share
# them. Quote marks for inch and foot are read in values.py (pint's tokenizer cannot take them).
_DEFINITIONS = (
    # 1 mil = 1 thou = 0.001 in (NIST Handbook 44, Appendix C, "mil"); pint's own `mil` is the
    # angular mil, which no DEM input is given in.
    "mil = 0.001 * inch = _ = mils",
    # pound per cubic foot, the US customary density unit (NIST SP 811, Table B.8, "pound per cubic
    # foot (lb/ft3)"); "pcf" in US geotechnical reports.
    "pcf = pound / foot ** 3",
    # Pascal multiples as typed without the case pint requires (SI brochure: MPa, GPa, kPa).
    # Only whole names: a lower-case "pa" is not defined, so "mpa" can never read as millipascal.
    "Mpa = megapascal = _ = mpa = MPA",
    "Gpa = gigapascal = _ = gpa = GPA",
    "Kpa = kilopascal = _ = kpa = KPa = KPA",
    # revolution, as engineers abbreviate it (`0.5 rev/s`, `30 rev/min`); pint has `revolution`
    # and `turn` (2π rad) but not `rev`.
    "rev = turn = _ = revs",
    # revolutions per minute in capitals, as on drives' name plates (`30 RPM`), or in any other
    # case (`20 Rpm`): no other unit is spelt r-p-m, so no case of it is ambiguous; pint has `rpm`.
    "@alias revolutions_per_minute = RPM = Rpm = RPm = RpM = rPM = rPm = rpM",
)


class _Registry(pint.UnitRegistry[Any]):
    """pint's registry, its in-memory cache of each unit's root units and dimensionality filled
    on use only, after the app's definitions (`ureg`).

    pint (0.24-0.25) builds that cache once its definition files are read (`_build_cache`):
    with its disk cache cold (the first launch after installing) it computes it for every unit
    (~70 ms), saves it, and keeps it: `define` does not drop the entries it made, so `mil`
    stayed the angular mil (dimensionless) for that launch; with its disk cache warm it reads
    the saved copy (~4 ms) and drops it, leaving the cache empty. Here it starts empty both
    times, with nothing computed, read or saved."""

    def _build_cache(self, loaded_files: Any = None) -> None:
        self._cache = type(self._cache)()
        contexts = getattr(self, "_caches", None)
        if isinstance(contexts, dict):  # the context facet's copy of the default cache
            contexts[()] = self._cache


@lru_cache(maxsize=1)
def ureg() -> pint.UnitRegistry[Any]:
    """The app's single unit registry (lazily created, disk-cached definitions, plus the
    spellings of `_DEFINITIONS`)."""
    reg: pint.UnitRegistry[Any]
    try:
        reg = _Registry(cache_folder=":auto:", on_redefinition="ignore")
    except Exception:  # pragma: no cover - unwritable cache dir: fall back to an uncached registry
        reg = _Registry(on_redefinition="ignore")
    for definition in _DEFINITIONS:
        reg.define(definition)
    reg.formatter.default_format = "~P"
    return reg


def dimension_name(unit: str) -> str:
    """A readable name for the dimension of `unit` ("pressure/stress" for "Pa"); the unit is
    read by the value reader (it may be text a user or model typed).

    Raises:
        ValueReadError: `unit` is not a unit."""
    dim = str(ureg().parse_units(read_unit(unit)).dimensionality) if unit else "dimensionless"
    return dimensionality_name(dim)


UnitParseError = ValueReadError
"""A value could not be read as a quantity of the expected dimension (the value reader's error)."""

PintError = pint.PintError
"""pint's own errors, for modules outside tools/: they import pint only through this package
(`scalar_pint.py`)."""


def to_si(value: Any, unit: str) -> float:
    """A number (already in `unit`) or a value text ("2 mm", read by `values.read_value`) as a
    float in `unit` ("" for dimensionless).

    Raises:
        UnitParseError: quoting the value and naming the expected dimension and unit; also for
            numbers outside the float range and values too small to compute with (subnormal).
    """
    if isinstance(value, bool):
        raise UnitParseError(f"expected a number in {unit or 'no unit'}, got {value!r}")
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            digits = int(value.bit_length() * math.log10(2)) + 1
            raise UnitParseError(
                f"a whole number of about {digits} digits is outside the range of numbers that "
                "can be computed with (about ±1.8e308)"
            ) from None
    if isinstance(value, float):
        if 0.0 < abs(value) < TINY:
            raise UnitParseError(f"{value!r} is too small to compute with (below {TINY:.1e})")
        return value  # inf and NaN: the field's finite check names them
    if not isinstance(value, str):
        raise UnitParseError(
            f"expected a number in {unit or 'no unit'} or a string with a unit, "
            f"got {type(value).__name__}"
        )
    reading = read_value(value)
    if not reading.unit:
        return reading.number
    try:
        factor = _scale(reading.unit, unit)
    except _Mismatch as exc:
        raise UnitParseError(
            f"expected a {dimension_name(unit)} (in {pretty_unit(unit) or 'no unit'}), "
            f'got "{reading.text}" which is a {exc.got}'
        ) from None
    if factor is None:  # an offset scale (degC to K): pint converts the value itself
        result = float(ureg().Quantity(reading.number, reading.unit).to(unit).magnitude)
    else:
        result = reading.number * factor
    if not math.isfinite(result):
        raise UnitParseError(
            f'"{reading.text}" is outside the range of numbers that can be computed with '
            f"once converted to {unit or 'a plain number'}"
        )
    if 0.0 < abs(result) < TINY:
        raise UnitParseError(f'"{reading.text}" is too small to compute with in {unit}')
    return result


class _Mismatch(Exception):
    """A unit of another dimension than the one wanted; `got` names its dimension."""

    def __init__(self, got: str) -> None:
        super().__init__(got)
        self.got = got


@lru_cache(maxsize=512)
def _scale(unit_text: str, unit: str) -> float | None:
    """How many `unit` one `unit_text` is (the reader's pint syntax), cached per spelling;
    None for offset scales, which pint converts value by value.

    Raises:
        _Mismatch: the two are of different dimensions.
    """
    reg = ureg()
    source = reg.parse_units(unit_text)
    target = reg.parse_units(unit) if unit else reg.dimensionless
    if source.dimensionality != target.dimensionality:
        raise _Mismatch(dimensionality_name(source.dimensionality))
    try:
        one = float(reg.Quantity(1.0, source).to(target).magnitude)
        two = float(reg.Quantity(2.0, source).to(target).magnitude)
        zero = float(reg.Quantity(0.0, source).to(target).magnitude)
    except pint.errors.OffsetUnitCalculusError:
        return None
    return one if zero == 0.0 and two == 2.0 * one else None


def convert(value: float, from_unit: str, to_unit: str) -> float:
    """Convert `value` between two units of one dimension (pint does the work)."""
    reg = ureg()
    return float(reg.Quantity(value, from_unit).to(to_unit).magnitude)


PLAIN_FROM, PLAIN_BELOW = 1e-4, 1e6
"""The one rule for writing a number (docs/display_units.md): plain digits from 1e-4 up to below
1e6 (0.0001234, 70000 MPa, 999900), exponent form outside (4.061e6 psi, 2.5e-5), whatever the
unit, the significant figures or the place (cards, tables, sheets, exports, `caec`)."""


def sig(value: float, digits: int = 4) -> str:
    """Format a number to `digits` significant figures, without float noise (2499.9999 → 2500),
    in plain digits or exponent form by `PLAIN_FROM`/`PLAIN_BELOW` (decided on the rounded
    value: 999999.7 at 4 figures is 1e6)."""
    if value == 0 or not math.isfinite(value):
        return str(value)
    exponent_form = f"{value:.{digits - 1}e}"  # rounded to `digits` figures (1.798e+308 too)
    rounded = float(exponent_form)
    if PLAIN_FROM <= abs(rounded) < PLAIN_BELOW:
        places = digits - 1 - math.floor(math.log10(abs(rounded)))
        text = f"{rounded:.{max(places, 0)}f}"
        return text.rstrip("0").rstrip(".") if "." in text else text
    mant, exp = exponent_form.split("e")
    mant = mant.rstrip("0").rstrip(".") if "." in mant else mant
    return f"{mant}e{int(exp)}"


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
    prefixed = prefixed_unit(value, unit) if compact else None
    if prefixed is not None:
        factor, shown = prefixed
        return f"{sig(value * factor, digits)} {shown}"
    return f"{sig(value, digits)} {pretty_unit(unit)}"


def prefixed_unit(value: float, unit: str) -> tuple[float, str] | None:
    """The factor from `unit` and the unit shown for `value` with an automatic SI prefix
    (`fmt`, and a column's one unit: `display.Display.axis`); None: `unit` as it is."""
    if not math.isfinite(value) or value == 0:
        return None
    decade = math.floor(math.log10(abs(value)))
    if unit in _AREA_VOLUME:
        return _area_volume_unit(unit, decade)
    if unit == "s" and abs(value) >= 60:
        return _long_time_unit(abs(value))
    # Masses of 1 kg and up stay in kg: engineers read "1500 kg", not "1.5 Mg".
    if unit not in _COMPACTABLE or (unit == "kg" and abs(value) >= 1):
        return None
    return _compact_unit(unit, decade)


LONG_TIMES = ((86400.0, "days"), (3600.0, "h"), (60.0, "min"))
"""Times of a minute and more read in min, h or days, never ks or Ms: a wall-clock time of 5e6 s
is 57.87 days, not "5 Ms" (docs/display_units.md)."""


def _long_time_unit(seconds: float) -> tuple[float, str]:
    """For a time of 60 s or more, the factor from s and the unit it reads in (min, h, days)."""
    size, name = next((size, name) for size, name in LONG_TIMES if seconds >= size)
    return 1.0 / size, name


@lru_cache(maxsize=512)
def _compact_unit(unit: str, decade: int) -> tuple[float, str]:
    """The prefixed unit pint's `to_compact` picks for values of `unit` in one decade, and the
    factor to it. Cached: `to_compact` costs ~60 µs a call and reports format dozens of values."""
    reg = ureg()
    target = reg.Quantity(10.0**decade, unit).to_compact().units
    return float(reg.Quantity(1.0, unit).to(target).magnitude), f"{target:~P}"


@lru_cache(maxsize=256)
def _area_volume_unit(unit: str, decade: int) -> tuple[float, str]:
    """For an area or volume unit (`_AREA_VOLUME`), the unit in which values of one decade read
    best, and the factor to it: the first of its candidates where the number lies in
    [0.1, 1000), else the one where it is nearest to that range (in decades). The prefix is the
    length's, cubed or squared (1 mm³ = 1e-9 m³): pint's `to_compact` steps such units by
    1000³, so 0.5 m³ read "5e8 mm³" and 4.189e-9 m³ kept its exponent."""
    reg = ureg()
    best: tuple[float, float, str] | None = None
    for candidate in _AREA_VOLUME[unit]:
        factor = float(reg.Quantity(1.0, unit).to(candidate).magnitude)
        low = decade + round(math.log10(factor))  # the number's decade in `candidate`
        off = max(-1 - low, low - 2, 0)
        if best is None or off < best[0]:
            best = (off, factor, pretty_unit(candidate))
    assert best is not None
    return best[1], best[2]


def show_value(value: Any, unit: str) -> str:
    """A result or input value for people (chat, reports): ~4 significant figures with its unit;
    booleans as yes/no, lists item by item."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return fmt(value, unit)
    if isinstance(value, list):
        return ", ".join(show_value(v, unit) for v in value)
    if isinstance(value, int):  # a count (every digit, grouped), or a quantity typed as 2500
        return fmt(float(value), unit) if unit else f"{value:,}"
    return str(value)


_WRITTEN = {
    "N*m": "N·m",
    "N*mm": "N·mm",
    "N*m/rad": "N·m/rad",
    "N*mm/rad": "N·mm/rad",
    "N*m*s/rad": "N·m·s/rad",
    "lb*ft^2": "lb·ft²",
    "lb*inch^2": "lb·in²",
    "g*cm^2": "g·cm²",
    "lbf*ft": "lbf·ft",
    "L": "L",
    "L/s": "L/s",
}
"""Units pint writes sorted by name (`m·N`, read as a millinewton; `ft²·lb`) or in lower case
(`l`), as engineers write them."""


@lru_cache(maxsize=256)
def pretty_unit(unit: str) -> str:
    """Short display form of a unit string ("kg/m^3" → "kg/m³", "N*m" → "N·m")."""
    if not unit:
        return ""
    return _WRITTEN.get(unit) or f"{ureg().parse_units(unit):~P}"


SURFACE_TENSION_UNIT = "newton/meter"
"""The SI unit of a liquid's surface tension, N/m, spelled apart from a stiffness's "N/m": display
units go by the unit string (`display.KINDS`), and a surface tension shown in a stiffness's US
unit (0.072 N/m as 0.000411 lbf/in) is a number no one reads. pint reads and writes it as N/m."""


# Units where an SI prefix reads naturally; composite units (kg/m³, N·s/m) stay as they are.
_COMPACTABLE = frozenset({"m", "s", "Pa", "N", "kg", "m/s"})
_AREA_VOLUME = {
    "m^2": ("m^2", "mm^2", "um^2", "cm^2"),
    "m^3": ("m^3", "mm^3", "um^3", "cm^3"),
    "m^3/s": ("m^3/s", "mm^3/s", "cm^3/s"),
}
"""Areas, volumes and volume flows with an automatic prefix: the units they may be shown in,
preferred first (m, then mm and µm; cm where those leave a number of 1000 or more, or below
0.1: 2000 cm³ rather than 2e6 mm³ or 0.002 m³)."""
