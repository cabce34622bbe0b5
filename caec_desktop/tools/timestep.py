"""Time-step tools: Rayleigh, P-wave, number of steps; the shared elastic helpers and verdicts.

Sources (docs/references.md §1.1, §1.2, §1.4, §1.8):
- Shear modulus G = E / (2(1 + ν)): LIGGGHTS `fix_check_timestep_gran.cpp:261`,
  Yade `Shop_02.cpp:64`, MFiX `check_solids_dem.f:839`.
- Rayleigh step dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766): LIGGGHTS doc
  `fix_check_timestep_gran.txt`, EDEM help "Estimate Simulation Time"; fit to the Rayleigh-wave
  root (Miller & Pursey 1955, via Thornton 2000). Yade writes 0.876605 (5.5e-6 apart); we keep
  0.8766.
- P-wave step dt_p = R sqrt(ρ/E): Yade `Shop_01.cpp:432-448`, `doc/sphinx/formulation.rst:681-687`.
- Number of steps n = ceil(T/dt), guarded against floating-point noise: 1.1/1e-6 is
  1100000.0000000002 in IEEE doubles, yet the answer is 1,100,000 steps.

Poisson ratio policy: -1 < ν ≤ 0.5. MFiX accepts exactly this range (`check_solids_dem.f:832-833`);
ν = -1 makes G divide by zero and ν > 0.5 is not a stable isotropic solid. ν = 0.5 is accepted
because the formulas stay finite there (glass, R = 1 mm: dt_R = 1.0732e-6 s).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import Field, model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
    Length,
    Pressure,
    Q,
    R,
    Ratio,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.units import fmt

RAYLEIGH_A = 0.1631
RAYLEIGH_B = 0.8766
DEFAULT_RAYLEIGH_FRACTION = 0.2
"""EDEM Auto Time Step uses 20 %; COMSOL Granular Flow uses 0.2 (docs/references.md §1.2)."""

REF_RAYLEIGH = (
    "LIGGGHTS fix check/timestep/gran: dt_r = PI*r*sqrt(rho/G)/(0.1631*nu+0.8766) "
    "(doc/fix_check_timestep_gran.txt; src/fix_check_timestep_gran.cpp:262)"
)
REF_EDEM_TIMESTEP = (
    "EDEM help, Estimate Simulation Time / Select a Time Step: 20 % of T_R typical, 10-40 % range "
    "(help.altair.com/edem/topics/edem_simulator/selecting_a_time_step_t.htm)"
)
REF_SHEAR = "G = E/(2(1+ν)): LIGGGHTS fix_check_timestep_gran.cpp:261; MFiX check_solids_dem.f:839"
REF_PWAVE = (
    "Yade Shop::PWaveTimeStep: dt = min(radius/sqrt(young/density)) (pkg/dem/Shop_01.cpp:432-448; "
    "doc/sphinx/formulation.rst:681-687, :759)"
)
REF_STEPS = (
    "n = ceil(T/dt); EDEM Select a Time Step: 5e+05 iterations for 1 s at 2e-06 s "
    "(help.altair.com/edem/topics/edem_simulator/selecting_a_time_step_t.htm)"
)

MODULI_TOLERANCE = 0.01
"""Relative gap between a given G and E/(2(1+ν)) beyond which the two contradict each other."""

Verdict = Literal["ok", "caution", "fail"]
_SEVERITY: dict[str, int] = {"ok": 0, "caution": 1, "fail": 2}


def worst(*verdicts: Verdict) -> Verdict:
    """The most severe of several verdicts (fail > caution > ok)."""
    return max(verdicts, key=_SEVERITY.__getitem__)


def shear_modulus(sheet: CalcSheet, youngs_modulus: float, poisson_ratio: float) -> float:
    """G = E / (2(1 + ν)) recorded on the sheet (see module docstring for sources)."""
    return sheet.step(
        "G",
        "E / (2 (1 + ν))",
        f"{fmt(youngs_modulus, 'Pa')} / (2 (1 + {poisson_ratio:g}))",
        youngs_modulus / (2.0 * (1.0 + poisson_ratio)),
        "Pa",
    )


def rayleigh_step(
    sheet: CalcSheet, radius: float, density: float, shear: float, poisson_ratio: float
) -> float:
    """dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766) recorded on the sheet."""
    denominator = RAYLEIGH_A * poisson_ratio + RAYLEIGH_B
    value = math.pi * radius * math.sqrt(density / shear) / denominator
    sheet.step(
        "dt_R",
        "π R sqrt(ρ / G) / (0.1631 ν + 0.8766)",
        f"π · {fmt(radius, 'm')} · sqrt({fmt(density, 'kg/m^3')} / {fmt(shear, 'Pa')})"
        f" / (0.1631 · {poisson_ratio:g} + 0.8766)",
        value,
        "s",
    )
    sheet.references.append(REF_RAYLEIGH)
    return value


# --- rayleigh_timestep -------------------------------------------------------------------------


class RayleighArgs(ToolArgs):
    particle_radius: Length = fields.particle_radius("Radius of the smallest particle")
    density: Density = fields.density()
    youngs_modulus: Pressure | None = fields.youngs_modulus(
        "Young's modulus E (give this or shear_modulus)", default=None
    )
    shear_modulus: Pressure | None = Q(
        "Shear modulus G (give this or youngs_modulus; both must agree with ν within 1 %)",
        default=None,
        gt=0,
    )
    poisson_ratio: Ratio = fields.poisson_ratio()
    fraction: Ratio = Q(
        "Fraction of dt_R to recommend (EDEM: 0.1-0.4)",
        default=DEFAULT_RAYLEIGH_FRACTION,
        gt=0,
        le=1,
    )

    @model_validator(mode="after")
    def _moduli_agree(self) -> RayleighArgs:
        check_moduli(self.youngs_modulus, self.shear_modulus, self.poisson_ratio)
        return self


def check_moduli(youngs: float | None, shear: float | None, poisson_ratio: float) -> None:
    """ArgError on shear_modulus when both moduli are given and G ≠ E/(2(1+ν)) within 1 %."""
    if youngs is None or shear is None:
        return
    implied = youngs / (2.0 * (1.0 + poisson_ratio))
    if abs(shear - implied) > MODULI_TOLERANCE * implied:
        raise ArgError(
            "shear_modulus",
            f"{fmt(shear, 'Pa')} contradicts youngs_modulus={fmt(youngs, 'Pa')} and "
            f"poisson_ratio={poisson_ratio:g} (G = E/(2(1+ν)) = {fmt(implied, 'Pa')}); "
            "give one of them",
        )


class RayleighResult(ToolResult):
    rayleigh_timestep: Time = R("Rayleigh time step dt_R")
    shear_modulus: Pressure = R("Shear modulus used")
    recommended_timestep: Time = R("fraction × dt_R")


def rayleigh_timestep(args: RayleighArgs, sheet: CalcSheet) -> RayleighResult:
    """Rayleigh time step of the smallest particle and the recommended DEM time step."""
    if args.shear_modulus is not None:
        g = args.shear_modulus
        sheet.notes.append(f"Shear modulus given directly: G = {fmt(g, 'Pa')}")
        if args.youngs_modulus is not None:  # the validator checked that they agree
            implied = args.youngs_modulus / (2.0 * (1.0 + args.poisson_ratio))
            sheet.notes.append(
                f"youngs_modulus={fmt(args.youngs_modulus, 'Pa')} was given too: E/(2(1+ν)) = "
                f"{fmt(implied, 'Pa')} agrees with G within {MODULI_TOLERANCE * 100:g} %; G is used"
            )
    elif args.youngs_modulus is not None:
        g = shear_modulus(sheet, args.youngs_modulus, args.poisson_ratio)
        sheet.references.append(REF_SHEAR)
    else:
        raise ArgError("youngs_modulus", 'required (or give shear_modulus), in Pa, e.g. "70 GPa"')
    dt_r = rayleigh_step(sheet, args.particle_radius, args.density, g, args.poisson_ratio)
    rec = sheet.step(
        "dt",
        "fraction · dt_R",
        f"{args.fraction:g} · {fmt(dt_r, 's')}",
        args.fraction * dt_r,
        "s",
    )
    sheet.thresholds.append(
        f"Recommended dt = {args.fraction:g} × dt_R (EDEM normal range 0.1-0.4; auto time step 0.2)"
    )
    sheet.references.append(REF_EDEM_TIMESTEP)
    return RayleighResult(rayleigh_timestep=dt_r, shear_modulus=g, recommended_timestep=rec)


RAYLEIGH_TIMESTEP: ToolSpec[Any, Any] = ToolSpec(
    name="rayleigh_timestep",
    description=(
        "Rayleigh critical time step dt_R = πR·sqrt(ρ/G)/(0.1631ν+0.8766) for the smallest "
        "particle, and a recommended DEM time step (fraction × dt_R, default 0.2)."
    ),
    args_model=RayleighArgs,
    result_model=RayleighResult,
    func=rayleigh_timestep,
    group="Time step",
    headline="rayleigh_timestep",
    example={
        "particle_radius": "1 mm",
        "density": 2500,
        "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25,
    },
)


# --- pwave_timestep ----------------------------------------------------------------------------


class PWaveArgs(ToolArgs):
    particle_radius: Length = fields.particle_radius("Radius of the smallest particle")
    density: Density = fields.density()
    youngs_modulus: Pressure = fields.youngs_modulus("Young's modulus E")


class PWaveResult(ToolResult):
    pwave_timestep: Time = R("P-wave time step dt_p = R sqrt(ρ/E)")


def pwave_timestep(args: PWaveArgs, sheet: CalcSheet) -> PWaveResult:
    """Yade's P-wave critical time step: the time a compression wave needs to cross one radius.

    Yade uses R rather than 2R because of sphere–facet contacts. It is stricter than Rayleigh:
    for glass dt_p ≈ 0.185·dt_R (docs/references.md §1.4).
    """
    dt_p = sheet.step(
        "dt_p",
        "R sqrt(ρ / E)",
        f"{fmt(args.particle_radius, 'm')} · sqrt({fmt(args.density, 'kg/m^3')}"
        f" / {fmt(args.youngs_modulus, 'Pa')})",
        args.particle_radius * math.sqrt(args.density / args.youngs_modulus),
        "s",
    )
    sheet.thresholds.append(
        "Yade's texts disagree on the fraction to use: 0.3·dt_p for a stable run "
        "(formulation.rst:759), 0.5·dt_p in the tutorials, 1.0·dt_p in the hands-on tutorial"
    )
    sheet.notes.append("Use the smallest particle radius: the minimum over particles governs.")
    sheet.references.append(REF_PWAVE)
    return PWaveResult(pwave_timestep=dt_p)


PWAVE_TIMESTEP: ToolSpec[Any, Any] = ToolSpec(
    name="pwave_timestep",
    description=(
        "P-wave critical time step dt_p = R·sqrt(ρ/E) (Yade PWaveTimeStep) for the smallest "
        "particle; Yade's docs use 0.3-1.0 of it."
    ),
    args_model=PWaveArgs,
    result_model=PWaveResult,
    func=pwave_timestep,
    group="Time step",
    headline="pwave_timestep",
    example={"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa"},
)


# --- timesteps_for_duration --------------------------------------------------------------------

STEP_RATIO_TOLERANCE = 1e-9
"""Relative distance to an integer below which T/dt counts as that integer (float noise)."""
MAX_STEPS = 1e15
"""Beyond ~2^53 doubles no longer hold every integer; far beyond any real DEM run anyway."""


def count_steps(duration: float, timestep: float) -> int:
    """ceil(T/dt), except that T/dt within a relative 1e-9 of an integer is that integer (§1.8)."""
    ratio = duration / timestep
    nearest = round(ratio)
    if nearest >= 1 and abs(ratio - nearest) <= STEP_RATIO_TOLERANCE * ratio:
        return int(nearest)
    return math.ceil(ratio)


class StepsArgs(ToolArgs):
    duration: Time = Q("Simulated time T", gt=0, example="1.1 s")
    timestep: Time = fields.timestep()


class StepsResult(ToolResult):
    steps: int = Field(description="Number of time steps n = ceil(T/dt)")


def timesteps_for_duration(args: StepsArgs, sheet: CalcSheet) -> StepsResult:
    """Number of time steps needed to simulate `duration` at `timestep`."""
    ratio = args.duration / args.timestep
    if ratio > MAX_STEPS:
        raise ArgError(
            "timestep",
            f"too small for this duration: T/dt = {ratio:.3g} exceeds {MAX_STEPS:.0e} steps",
        )
    n = count_steps(args.duration, args.timestep)
    sheet.step(
        "n", "ceil(T / dt)", f"ceil({fmt(args.duration, 's')} / {fmt(args.timestep, 's')})", n
    )
    sheet.notes.append(
        f"T/dt = {ratio!r}; a quotient within a relative {STEP_RATIO_TOLERANCE:g} of an integer "
        "is taken as that integer (floating-point noise: 1.1/1e-6 = 1100000.0000000002)."
    )
    simulated = n * args.timestep
    if simulated > args.duration * (1 + STEP_RATIO_TOLERANCE):
        sheet.notes.append(f"n·dt = {fmt(simulated, 's')}: the last step runs past T.")
    sheet.references.append(REF_STEPS)
    return StepsResult(steps=n)


TIMESTEPS_FOR_DURATION: ToolSpec[Any, Any] = ToolSpec(
    name="timesteps_for_duration",
    description=(
        "Number of DEM time steps n = ceil(T/dt) to simulate a duration T at time step dt "
        "(robust to floating-point noise: 1.1 s at 1 µs is 1,100,000 steps)."
    ),
    args_model=StepsArgs,
    result_model=StepsResult,
    func=timesteps_for_duration,
    group="Run size and cost",
    headline="steps",
    example={"duration": "1.1 s", "timestep": "1 us"},
)
