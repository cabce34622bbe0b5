"""Plausibility: values far outside what DEM set-ups use still compute, with a warning in words.

A value can be valid (inside the tool's bounds) and still almost surely not what was meant: a
particle radius of 1.2 m is a bare "1.2" read in metres where millimetres were meant. Such a value
is not refused (an engineer may mean it), but every entry point shows the warning next to the
result: `particle_radius = 1.2 m is unusually large for a DEM particle — did you mean 1.2 mm?`.

All ranges are in `RANGES`, one row per quantity, with the reason for each limit (see
docs/values.md for the figures behind them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict

from caec_desktop.tools.units import convert, fmt, pretty_unit, sig


@dataclass(frozen=True)
class Range:
    """The usual range of one quantity in DEM set-ups, with why each limit is where it is."""

    fields: tuple[str, ...]
    """Tool parameters (any tool) that hold this quantity."""
    unit: str
    """SI unit of `low` and `high`."""
    low: float | None
    why_low: str
    """What a value below `low` is, then its reason in brackets: "is unusually … (below …)"."""
    high: float | None
    why_high: str
    slips: tuple[str, ...] = ()
    """Units a bare number was probably meant in: the typed number in one of them, if that falls
    inside the range, is offered as "did you mean …?"."""
    signed: bool = False
    """`low` bounds the signed value (a Poisson ratio below 0), not its size."""


RANGES: tuple[Range, ...] = (
    Range(
        ("particle_radius", "max_particle_radius", "other_radius"),
        "m",
        1e-6,
        "is unusually small for a DEM particle (below 1 µm, van der Waals and Brownian forces "
        "outweigh the contact forces DEM models)",
        0.1,
        "is unusually large for a DEM particle (above 0.1 m, boulders rather than grains)",
        ("mm", "µm"),
    ),
    Range(
        ("particle_diameter", "diameters"),
        "m",
        2e-6,
        "is unusually small for a DEM particle (below 2 µm, van der Waals and Brownian forces "
        "outweigh the contact forces DEM models)",
        0.2,
        "is unusually large for a DEM particle (above 0.2 m, boulders rather than grains)",
        ("mm", "µm"),
    ),
    Range(
        ("youngs_modulus", "wall_youngs_modulus"),
        "Pa",
        1e6,
        "is unusually low for a Young's modulus (below 1 MPa; even the reduced 'soft' moduli "
        "used to speed DEM runs up are 10-100 MPa)",
        1e12,
        "is unusually high for a Young's modulus (above 1 TPa; diamond, the stiffest material, "
        "is about 1.05 TPa)",
        ("GPa", "MPa"),
    ),
    Range(
        ("density", "solid_density", "bulk_density"),
        "kg/m^3",
        100.0,
        "is unusually low for a particle density (below 100 kg/m³, lighter than most foams)",
        25_000.0,
        "is unusually high for a density (above 25,000 kg/m³; osmium, the densest element, is "
        "22,590 kg/m³)",
        ("g/cm^3",),
    ),
    Range(
        ("timestep",),
        "s",
        None,
        "",
        0.01,
        "is unusually long for a DEM time step (above 10 ms; the Rayleigh step of a 0.1 m glass "
        "sphere is ~0.1 ms, and ~9 ms even with a soft 10 MPa modulus)",
        ("ms", "µs"),
    ),
    Range(
        ("impact_velocity",),
        "m/s",
        None,
        "",
        100.0,
        "is unusually fast for a DEM contact (above 100 m/s, impacts are plastic or shatter "
        "particles, outside the elastic contact laws used here)",
        ("mm/s",),
    ),
    Range(
        ("yield_stress",),
        "Pa",
        1e6,
        "is unusually low for a yield stress (below 1 MPa, weaker than soft polymers)",
        1e10,
        "is unusually high for a yield stress (above 10 GPa, stronger than any bulk engineering "
        "material)",
        ("MPa", "GPa"),
    ),
    Range(
        ("poisson_ratio", "other_poisson_ratio", "wall_poisson_ratio"),
        "",
        0.0,
        "is unusually low for a Poisson ratio: a negative one is an auxetic material (engineering "
        "solids and the DEM presets have 0.08-0.45; check the sign)",
        None,
        "",
        signed=True,
    ),
)
"""The usual range of each quantity (first match per field)."""

_BY_FIELD = {name: r for r in RANGES for name in r.fields}


def slips(field: str) -> tuple[str, ...]:
    """Units a bare number for `field` was probably meant in (`("g/cm^3",)` for a density)."""
    rng = _BY_FIELD.get(field)
    return rng.slips if rng else ()


class FieldWarning(BaseModel):
    """A valid but unusual input: which field, its value (in `unit`) and why it is unusual."""

    model_config = ConfigDict(defer_build=True)  # its validator made on a first warning

    field: str
    value: float
    unit: str
    why: str

    def text(self) -> str:
        return f"{self.field} = {fmt(self.value, self.unit)} {self.why}"


def _suggestion(value: float, rng: Range) -> str:
    """`; did you mean 1.2 mm?` when the number, read in a slip unit, is in range."""
    for slip in rng.slips:
        meant = convert(value, slip, rng.unit)
        if (rng.low is None or meant >= rng.low) and (rng.high is None or meant <= rng.high):
            return f" — did you mean {sig(value)} {pretty_unit(slip)}?"
    return ""


def check(args: dict[str, Any]) -> list[FieldWarning]:
    """Warnings for the validated SI arguments `args` of any tool (empty when all are usual)."""
    out: list[FieldWarning] = []
    for name, value in args.items():
        rng = _BY_FIELD.get(name)
        if rng is None or value is None or isinstance(value, bool):
            continue
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, int | float):
                continue
            if rng.low is not None and (item < rng.low if rng.signed else 0 < abs(item) < rng.low):
                why = rng.why_low
            elif rng.high is not None and abs(item) > rng.high:
                why = rng.why_high
            else:
                continue
            what, _, reason = why.partition(" (")
            why = f"{what}{_suggestion(item, rng)}" + (f" ({reason}" if reason else "")
            out.append(FieldWarning(field=name, value=float(item), unit=rng.unit, why=why))
            break  # one warning per field
    return out
