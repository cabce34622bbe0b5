"""Polydisperse particle counts: size classes, mass or number fractions, counts per class.

Source (docs/references.md §1.10; computed, not taken from a solver):
- N_i = M w_i / (ρ_s π d_i³ / 6) for total solid mass M, density ρ_s, mass fractions w_i
  (Σ w_i = 1);
- from number fractions n_i (single density): w_i = n_i d_i³ / Σ_j n_j d_j³, and back
  n_i = (w_i / d_i³) / Σ_j (w_j / d_j³).
Counts are rounded to the nearest integer (the total mass then differs from M by less than half a
particle per class). The time step is governed by the smallest diameter (LIGGGHTS takes the min over
particles; EDEM uses the smallest size).
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import Field, model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
    Length,
    Mass,
    Q,
    Ratio,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.units import fmt, sig

SUM_TOLERANCE = 1e-6
REF_COUNTS = (
    "N_i = M w_i / (ρ_s π d_i³/6); w_i = n_i d_i³ / Σ n_j d_j³ (docs/references.md §1.10; "
    "single density)"
)
REF_SMALLEST = (
    "Time step from the smallest diameter: LIGGGHTS fix check/timestep/gran takes the min over "
    "particles; EDEM uses the smallest size (docs/references.md §1.2, §1.10)"
)

Diameter = Annotated[Length, Field(gt=0)]
Fraction = Annotated[Ratio, Field(ge=0, le=1)]


class PolydisperseArgs(ToolArgs):
    diameters: list[Diameter] = Field(
        min_length=1,
        description="Diameter of each size class",
        json_schema_extra={"x-unit": "m", "examples": [["1 mm", "2 mm"]]},
    )
    mass_fractions: list[Fraction] | None = Field(
        default=None,
        description="Mass fraction of each class, each in [0, 1], summing to 1",
        json_schema_extra={"x-unit": ""},
    )
    number_fractions: list[Fraction] | None = Field(
        default=None,
        description="Number fraction of each class, each in [0, 1], summing to 1",
        json_schema_extra={"x-unit": ""},
    )
    total_mass: Mass | None = Q(
        "Total solid mass M (with density, gives counts)", default=None, gt=0
    )
    density: Density | None = fields.density(
        "Solid density ρ_s (with total_mass, gives counts)", default=None, example=None
    )

    @model_validator(mode="after")
    def _consistent(self) -> PolydisperseArgs:
        given = [n for n in ("mass_fractions", "number_fractions") if getattr(self, n) is not None]
        if len(given) != 1:
            field = "number_fractions" if given else "mass_fractions"
            raise ArgError(field, "give exactly one of mass_fractions or number_fractions")
        name = given[0]
        fractions: list[float] = getattr(self, name)
        if len(fractions) != len(self.diameters):
            raise ArgError(
                name,
                f"needs one value per diameter: {len(self.diameters)} diameters, "
                f"{len(fractions)} fractions",
            )
        total = math.fsum(fractions)
        if abs(total - 1.0) > SUM_TOLERANCE:
            raise ArgError(
                name, f"must sum to 1 (within {SUM_TOLERANCE:g}), got a sum of {total:.9g}"
            )
        if (self.total_mass is None) != (self.density is None):
            missing = "density" if self.density is None else "total_mass"
            raise ArgError(missing, "counts need both total_mass (kg) and density (kg/m^3)")
        return self


class PolydisperseResult(ToolResult):
    mass_fractions: list[float] = Field(description="Mass fraction of each class [dimensionless]")
    number_fractions: list[float] = Field(
        description="Number fraction of each class [dimensionless]"
    )
    counts: list[int] | None = Field(
        description="Particles per class (null without total_mass and density)"
    )
    total_count: int | None = Field(description="Sum of counts (null without total_mass)")


def _mass_fractions(sheet: CalcSheet, n: list[float], d: list[float]) -> list[float]:
    """w_i = n_i d_i³ / Σ n_j d_j³ on the sheet."""
    total = sheet.step(
        "S",
        "Σ n_j d_j³",
        " + ".join(f"{sig(nj)} · ({fmt(dj, 'm')})³" for nj, dj in zip(n, d, strict=True)),
        math.fsum(nj * dj**3 for nj, dj in zip(n, d, strict=True)),
        "m^3",
    )
    return [
        sheet.step(
            f"w_{i}",
            "n_i d_i³ / S",
            f"{sig(ni)} · ({fmt(di, 'm')})³ / {fmt(total, 'm^3')}",
            ni * di**3 / total,
        )
        for i, (ni, di) in enumerate(zip(n, d, strict=True), 1)
    ]


def _number_fractions(sheet: CalcSheet, w: list[float], d: list[float]) -> list[float]:
    """n_i = (w_i / d_i³) / Σ w_j / d_j³ on the sheet."""
    total = sheet.step(
        "S",
        "Σ w_j / d_j³",
        " + ".join(f"{sig(wj)} / ({fmt(dj, 'm')})³" for wj, dj in zip(w, d, strict=True)),
        math.fsum(wj / dj**3 for wj, dj in zip(w, d, strict=True)),
        "1/m^3",
    )
    return [
        sheet.step(
            f"n_{i}",
            "(w_i / d_i³) / S",
            f"{sig(wi)} / ({fmt(di, 'm')})³ / {fmt(total, '1/m^3')}",
            wi / di**3 / total,
        )
        for i, (wi, di) in enumerate(zip(w, d, strict=True), 1)
    ]


def polydisperse_counts(args: PolydisperseArgs, sheet: CalcSheet) -> PolydisperseResult:
    """Mass and number fractions of size classes and, with mass and density, counts per class."""
    d = list(args.diameters)
    if args.mass_fractions is not None:
        w = list(args.mass_fractions)
        n = _number_fractions(sheet, w, d)
    else:
        n = list(args.number_fractions or [])
        w = _mass_fractions(sheet, n, d)
    counts: list[int] | None = None
    total_count: int | None = None
    if args.total_mass is not None and args.density is not None:
        m, rho = args.total_mass, args.density
        counts = []
        for i, (wi, di) in enumerate(zip(w, d, strict=True), 1):
            exact = m * wi / (rho * math.pi * di**3 / 6.0)
            sheet.step(
                f"N_{i}",
                "M w_i / (ρ_s π d_i³ / 6)",
                f"{fmt(m, 'kg')} · {sig(wi)} / ({fmt(rho, 'kg/m^3')} · π · ({fmt(di, 'm')})³ / 6)",
                exact,
                count=True,  # every digit: 229,183.1, not 229200 (the note rounds it)
            )
            counts.append(round(exact))
        total_count = sum(counts)
        sheet.notes.append(f"Counts rounded to the nearest integer: {counts} (total {total_count})")
    sheet.notes.append(
        f"Smallest diameter {fmt(min(d), 'm')} governs the time step (Rayleigh, Hertz)"
    )
    sheet.references += [REF_COUNTS, REF_SMALLEST]
    return PolydisperseResult(
        mass_fractions=w, number_fractions=n, counts=counts, total_count=total_count
    )


POLYDISPERSE_COUNTS: ToolSpec[Any, Any] = ToolSpec(
    name="polydisperse_counts",
    description=(
        "Size classes of a particle mixture: converts number fractions to mass fractions "
        "(w_i = n_i d_i³/Σ n_j d_j³) and back, and with total_mass and density gives the "
        "number of particles per class N_i = M w_i/(ρ π d_i³/6)."
    ),
    args_model=PolydisperseArgs,
    result_model=PolydisperseResult,
    func=polydisperse_counts,
    group="Particles, packing and bulk",
    headline="total_count",
    example={
        "diameters": ["1 mm", "2 mm"],
        "mass_fractions": [0.3, 0.7],
        "total_mass": "1 kg",
        "density": "2500 kg/m^3",
    },
)
