"""Hertz contact: effective properties, contact duration, and the hertz_contact_time tool.

Sources (docs/references.md §1.3):
- Hertz contact duration t_H = C (m*² / (R* E*² v))^(1/5) with 1/m* = 1/m_i + 1/m_j,
  1/R* = 1/R_i + 1/R_j, 1/E* = (1-ν_i²)/E_i + (1-ν_j²)/E_j, v the relative normal approach speed.
  C follows from integrating the Hertz force law F = (4/3) E* sqrt(R*) δ^(3/2):
  2∫₀¹(1-x^(5/2))^(-1/2) dx = (4/5) B(2/5, 1/2) = 2.943275 multiplies (5m*/(4k))^(2/5) v^(-1/5)
  = δ_max/v, with k = (4/3) E* sqrt(R*) (in the form (m*/k)^(2/5) v^(-1/5) the constant is 3.2181),
  hence C = 2.943275 · (15/16)^(2/5) = 2.868266. EDEM and the LIGGGHTS doc
  round it to 2.87; MFiX writes the (m*/k) form with 3.21 (exact 3.2181); MercuryDPM's
  `tc = 2.214 (ρ/E*)^(2/5) v^(-1/5) d` for identical spheres is the same law (2.8683·(π²/36)^(1/5)).
- Particle–wall contact (MFiX `check_solids_dem.f:261-268, 955-959`): m* = m, R* = R and the
  wall's E and ν in the 1/E* sum; a wall without E is rigid (its term vanishes).
- Reduced mass: textbook/EDEM m* = m/2 for equal spheres. LIGGGHTS' `fix check/timestep/gran`
  uses m* = m (`fix_check_timestep_gran.cpp:340-348`), a 2^(2/5) = 1.32× longer time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
    Length,
    Mass,
    Pressure,
    R,
    Ratio,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Velocity,
)
from caec_desktop.tools.units import fmt

HERTZ_TIME_CONSTANT = 2.868266
"""2.943275 · (15/16)^(2/5), see the module docstring; EDEM and LIGGGHTS use 2.87."""
STEPS_PER_COLLISION = 50
"""MFiX DTSOLID_FACTOR / MercuryDPM collisionTimeOverTimeStep default (docs/references.md §1.3)."""

REF_HERTZ = (
    "Hertz contact time t = 2.87 (m*²/(R* E*² v))^(1/5): EDEM help, Estimate Simulation Time "
    "(help.altair.com/edem/topics/appendix/estimate_simulation_time_c.htm); LIGGGHTS doc "
    "fix_check_timestep_gran.txt; exact constant 2.943275·(15/16)^(2/5) = 2.868266"
)
REF_WALL = (
    "Particle–wall: m* = m_p, R* = R_p, wall E and ν in 1/E* (MFiX check_solids_dem.f:955-959)"
)


# --- shared Hertz helpers ----------------------------------------------------------------------


@dataclass(frozen=True)
class Partner:
    """The other body of a contact: a sphere of the same material (equal by default) or a wall."""

    other_radius: float | None = None
    wall: bool = False
    wall_youngs_modulus: float | None = None
    wall_poisson_ratio: float | None = None

    def check(self) -> None:
        """Reject options that contradict the contact type (ArgError names the field)."""
        if self.wall and self.other_radius is not None:
            raise ArgError("other_radius", "not used for a particle–wall contact (wall=true)")
        if not self.wall:
            for name in ("wall_youngs_modulus", "wall_poisson_ratio"):
                if getattr(self, name) is not None:
                    raise ArgError(name, "only used for a particle–wall contact; set wall=true")


@dataclass(frozen=True)
class HertzPair:
    """Effective properties of a Hertz contact (SI); mass is 0 where only stresses are needed."""

    radius: float
    modulus: float
    mass: float = 0.0


def sphere_mass(sheet: CalcSheet, name: str, radius: float, density: float) -> float:
    """m = (4/3) π R³ ρ recorded on the sheet."""
    return sheet.step(
        name,
        "(4/3) π R³ ρ",
        f"(4/3) π ({fmt(radius, 'm')})³ · {fmt(density, 'kg/m^3')}",
        4.0 / 3.0 * math.pi * radius**3 * density,
        "kg",
    )


def hertz_geometry(
    sheet: CalcSheet, radius: float, youngs_modulus: float, poisson_ratio: float, partner: Partner
) -> HertzPair:
    """R* and E* for a sphere on `partner` (same material; a wall is rigid unless E_w is given)."""
    partner.check()
    compliance = (1.0 - poisson_ratio**2) / youngs_modulus
    nu = f"{poisson_ratio:g}"
    if partner.wall:
        r_eff = sheet.step("R*", "R (wall)", fmt(radius, "m"), radius, "m")
        e_w = partner.wall_youngs_modulus
        if e_w is None:
            e_eff = sheet.step(
                "E*",
                "E / (1 - ν²) (rigid wall)",
                f"{fmt(youngs_modulus, 'Pa')} / (1 - {nu}²)",
                1.0 / compliance,
                "Pa",
            )
        else:
            nu_w = (
                poisson_ratio if partner.wall_poisson_ratio is None else partner.wall_poisson_ratio
            )
            e_eff = sheet.step(
                "E*",
                "1 / ((1 - ν²)/E + (1 - ν_w²)/E_w)",
                f"1 / ((1 - {nu}²)/{fmt(youngs_modulus, 'Pa')} + (1 - {nu_w:g}²)/{fmt(e_w, 'Pa')})",
                1.0 / (compliance + (1.0 - nu_w**2) / e_w),
                "Pa",
            )
        sheet.references.append(REF_WALL)
        return HertzPair(r_eff, e_eff)
    r_j = radius if partner.other_radius is None else partner.other_radius
    r_eff = sheet.step(
        "R*",
        "R R_j / (R + R_j)",
        f"{fmt(radius, 'm')} · {fmt(r_j, 'm')} / ({fmt(radius, 'm')} + {fmt(r_j, 'm')})",
        radius * r_j / (radius + r_j),
        "m",
    )
    e_eff = sheet.step(
        "E*",
        "E / (2 (1 - ν²)) (same material)",
        f"{fmt(youngs_modulus, 'Pa')} / (2 (1 - {nu}²))",
        1.0 / (2.0 * compliance),
        "Pa",
    )
    return HertzPair(r_eff, e_eff)


def hertz_pair(
    sheet: CalcSheet,
    radius: float,
    density: float,
    youngs_modulus: float,
    poisson_ratio: float,
    partner: Partner,
) -> HertzPair:
    """m*, R*, E* of a sphere on `partner`: m* = m m_j/(m + m_j), or m for a wall."""
    geometry = hertz_geometry(sheet, radius, youngs_modulus, poisson_ratio, partner)
    m = sphere_mass(sheet, "m", radius, density)
    if partner.wall:
        m_eff = sheet.step("m*", "m (wall)", fmt(m, "kg"), m, "kg")
    else:
        r_j = partner.other_radius
        m_j = m if r_j is None else sphere_mass(sheet, "m_j", r_j, density)
        m_eff = sheet.step(
            "m*",
            "m m_j / (m + m_j)",
            f"{fmt(m, 'kg')} · {fmt(m_j, 'kg')} / ({fmt(m, 'kg')} + {fmt(m_j, 'kg')})",
            m * m_j / (m + m_j),
            "kg",
        )
    return HertzPair(geometry.radius, geometry.modulus, m_eff)


def hertz_time(sheet: CalcSheet, pair: HertzPair, velocity: float) -> float:
    """t_H = 2.868266 (m*² / (R* E*² v))^(1/5) recorded on the sheet (module docstring)."""
    value: float
    value = HERTZ_TIME_CONSTANT * (pair.mass**2 / (pair.radius * pair.modulus**2 * velocity)) ** 0.2
    sheet.step(
        "t_H",
        "2.868266 (m*² / (R* E*² v))^(1/5)",
        f"2.868266 · (({fmt(pair.mass, 'kg')})² / ({fmt(pair.radius, 'm')}"
        f" · ({fmt(pair.modulus, 'Pa')})² · {fmt(velocity, 'm/s')}))^(1/5)",
        value,
        "s",
    )
    sheet.references.append(REF_HERTZ)
    return value


# --- hertz_contact_time ------------------------------------------------------------------------


class HertzArgs(ToolArgs):
    particle_radius: Length = fields.particle_radius("Particle radius (smallest)")
    density: Density = fields.density("Particle density")
    youngs_modulus: Pressure = fields.youngs_modulus()
    poisson_ratio: Ratio = fields.poisson_ratio()
    impact_velocity: Velocity = fields.impact_velocity()
    other_radius: Length | None = fields.other_radius()
    wall: bool = fields.wall()
    wall_youngs_modulus: Pressure | None = fields.wall_youngs_modulus()
    wall_poisson_ratio: Ratio | None = fields.wall_poisson_ratio()


class HertzResult(ToolResult):
    contact_time: Time = R("Hertz contact duration t_H")
    effective_mass: Mass = R("Effective mass m*")
    effective_radius: Length = R("Effective radius R*")
    effective_modulus: Pressure = R("Effective modulus E*")


def hertz_contact_time(args: HertzArgs, sheet: CalcSheet) -> HertzResult:
    """Duration of an elastic Hertz impact; the largest velocity gives the shortest contact."""
    pair = hertz_pair(
        sheet,
        args.particle_radius,
        args.density,
        args.youngs_modulus,
        args.poisson_ratio,
        Partner(args.other_radius, args.wall, args.wall_youngs_modulus, args.wall_poisson_ratio),
    )
    t_h = hertz_time(sheet, pair, args.impact_velocity)
    sheet.notes.append(
        "t_H ∝ v^(-1/5): use the largest expected relative speed (particle–particle: about "
        "2·v_max, as LIGGGHTS does)."
    )
    sheet.notes.append(
        "Textbook reduced mass (m* = m/2 for equal spheres, as EDEM). LIGGGHTS' time-step check "
        "uses m* = m, which gives a 2^(2/5) = 1.32× longer time."
    )
    sheet.thresholds.append(
        f"Accuracy: dt ≤ t_H/{STEPS_PER_COLLISION} (MFiX, MercuryDPM); EDEM: at least 6, better 10 "
        "steps per contact"
    )
    return HertzResult(
        contact_time=t_h,
        effective_mass=pair.mass,
        effective_radius=pair.radius,
        effective_modulus=pair.modulus,
    )


HERTZ_CONTACT_TIME: ToolSpec[Any, Any] = ToolSpec(
    name="hertz_contact_time",
    description=(
        "Hertz elastic contact duration t_H = 2.868·(m*²/(R*·E*²·v))^(1/5) for two spheres of "
        "one material (equal by default) or a sphere on a wall (wall=true)."
    ),
    args_model=HertzArgs,
    result_model=HertzResult,
    func=hertz_contact_time,
    group="Contact",
    headline="contact_time",
    example={
        "particle_radius": "1 mm",
        "density": 2500,
        "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25,
        "impact_velocity": "1 m/s",
    },
)
