"""Time-step tools: Rayleigh, P-wave, time-step check, number of steps.

Sources (DEM_REFERENCE.md §1.1, §1.2, §1.4, §1.8):
- Shear modulus G = E / (2(1 + ν)): LIGGGHTS `fix_check_timestep_gran.cpp:261`,
  Yade `Shop_02.cpp:64`, MFiX `check_solids_dem.f:839`.
- Rayleigh step dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766): LIGGGHTS doc
  `fix_check_timestep_gran.txt`, EDEM help "Estimate Simulation Time"; fit to the Rayleigh-wave
  root (Miller & Pursey 1955, via Thornton 2000).
"""

from __future__ import annotations

import math

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
from caec_desktop.tools.registry import register
from caec_desktop.tools.units import fmt

RAYLEIGH_A = 0.1631
RAYLEIGH_B = 0.8766
DEFAULT_RAYLEIGH_FRACTION = 0.2
"""EDEM Auto Time Step uses 20 %; COMSOL Granular Flow uses 0.2 (DEM_REFERENCE.md §1.2)."""

REF_RAYLEIGH = (
    "LIGGGHTS fix check/timestep/gran: dt_r = PI*r*sqrt(rho/G)/(0.1631*nu+0.8766) "
    "(doc/fix_check_timestep_gran.txt; src/fix_check_timestep_gran.cpp:262)"
)
REF_EDEM_TIMESTEP = (
    "EDEM help, Estimate Simulation Time / Select a Time Step: 20 % of T_R typical, 10-40 % range "
    "(help.altair.com/edem/topics/edem_simulator/selecting_a_time_step_t.htm)"
)
REF_SHEAR = "G = E/(2(1+ν)): LIGGGHTS fix_check_timestep_gran.cpp:261; MFiX check_solids_dem.f:839"

# Poisson ratio policy: -1 < ν <= 0.5 (MFiX accepts 0.5; the Rayleigh formula is finite there).
POISSON: dict[str, float] = {"gt": -1.0, "le": 0.5}


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


class RayleighArgs(ToolArgs):
    particle_radius: Length = Q("Radius of the smallest particle", gt=0, example="1 mm")
    density: Density = Q("Particle (solid) density", gt=0, example="2500 kg/m^3")
    youngs_modulus: Pressure | None = Q(
        "Young's modulus E (give this or shear_modulus)", default=None, gt=0, example="70 GPa"
    )
    shear_modulus: Pressure | None = Q(
        "Shear modulus G (overrides E when given)", default=None, gt=0
    )
    poisson_ratio: Ratio = Q("Poisson ratio ν (-1 < ν ≤ 0.5)", **POISSON, example=0.25)
    fraction: Ratio = Q(
        "Fraction of dt_R to recommend (EDEM: 0.1-0.4)",
        default=DEFAULT_RAYLEIGH_FRACTION,
        gt=0,
        le=1,
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


register(
    ToolSpec(
        name="rayleigh_timestep",
        description=(
            "Rayleigh critical time step dt_R = πR·sqrt(ρ/G)/(0.1631ν+0.8766) for the smallest "
            "particle, and a recommended DEM time step (fraction × dt_R, default 0.2)."
        ),
        args_model=RayleighArgs,
        result_model=RayleighResult,
        func=rayleigh_timestep,
        example={
            "particle_radius": "1 mm",
            "density": 2500,
            "youngs_modulus": "70 GPa",
            "poisson_ratio": 0.25,
        },
    )
)
