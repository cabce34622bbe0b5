"""A second blind set of engineer queries for the offline reader, over all 25 tools, aimed at one
class of misread: a word of one phrase triggering an inference meant for another ("surface" of
"surface energy" taken for a wall, "parcels" for the primary count, "glass" of "a glass column"
for the particles' material, "2 Hz" for 2 rad/s, a second body's size dropped).

Each row: the query, the tool, the arguments decided by hand (every one that matters, and the
ones that must stay absent pinned to None or their default), and (result name, value) computed
here from the formulas of docs/references.md, never by our code. Rows whose tool is None must be
answered with a question or a refusal containing the given text; `REFUSED_BY_THE_TOOL` rows are
proposed as read and refused by the tool's validation with the given message."""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute, validate

pi = math.pi
G0 = 9.80665  # standard gravity, the tools' default
INCH = 0.0254
FT = 12 * INCH
LB = 0.45359237
LBF = LB * G0
PSI = LBF / INCH**2
LBFT3 = LB / FT**3

GL = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}
ST = {"density": 7850.0, "youngs_modulus": 210e9, "poisson_ratio": 0.30}
SAND = {"density": 2650.0, "youngs_modulus": 95e9, "poisson_ratio": 0.08}
AL = {"density": 3900.0, "youngs_modulus": 370e9, "poisson_ratio": 0.22}
NY = {"density": 1140.0, "youngs_modulus": 2.5e9, "poisson_ratio": 0.39}
PP = {"density": 905.0, "youngs_modulus": 1.5e9, "poisson_ratio": 0.42}
LS = {"density": 2700.0, "youngs_modulus": 50e9, "poisson_ratio": 0.25}
WATER = {"fluid_density": 998.2, "fluid_viscosity": 1.002e-3}
AIR = {"fluid_density": 1.205, "fluid_viscosity": 1.81e-5}
NO_WALL = {"wall": False, "wall_youngs_modulus": None, "wall_poisson_ratio": None}


def ray(r: float, rho: float, e: float, nu: float) -> float:
    """Rayleigh step, docs/references.md §1.2."""
    return pi * r * math.sqrt(rho * 2 * (1 + nu) / e) / (0.1631 * nu + 0.8766)


def m(d: float, rho: float) -> float:
    """Sphere mass ρπd³/6, §1.6."""
    return rho * pi * d**3 / 6


def es(e1: float, n1: float, e2: float = math.inf, n2: float = 0.0) -> float:
    """E* of two bodies, §R2.0 (e2 = inf: a rigid wall)."""
    return 1 / ((1 - n1**2) / e1 + (0 if math.isinf(e2) else (1 - n2**2) / e2))


def rs(r1: float, r2: float = math.inf) -> float:
    """R* of two spheres (r2 = inf: a wall)."""
    return 1 / (1 / r1 + (0 if math.isinf(r2) else 1 / r2))


def ms(m1: float, m2: float = math.inf) -> float:
    """m* of two bodies (m2 = inf: a wall)."""
    return 1 / (1 / m1 + (0 if math.isinf(m2) else 1 / m2))


def th(mstar: float, rstar: float, estar: float, v: float) -> float:
    """Hertz contact time, §1.3."""
    return 2.868 * (mstar**2 / (rstar * estar**2 * v)) ** 0.2


def ov(mstar: float, rstar: float, estar: float, v: float) -> float:
    """Peak Hertz overlap, §R2.1."""
    return (15 * mstar * v**2 / (16 * estar * math.sqrt(rstar))) ** 0.4


def p0(f: float, rstar: float, estar: float) -> float:
    """Peak Hertz pressure (6 F E*² / (π³ R*²))^(1/3), §1.9."""
    return (6 * f * estar**2 / (pi**3 * rstar**2)) ** (1 / 3)


def zeta(e: float) -> float:
    """Damping ratio of a restitution coefficient, §1.5."""
    return -math.log(e) / math.sqrt(pi**2 + math.log(e) ** 2)


def archimedes(d: float, rho_p: float, rho_f: float, mu: float) -> float:
    """Ar = g d³ ρ_f (ρ_p − ρ_f) / μ², §R2.4."""
    return G0 * d**3 * rho_f * (rho_p - rho_f) / mu**2


def froude(omega: float, r: float) -> float:
    """Drum Froude number ω²R/g, §R2.8."""
    return omega**2 * r / G0


def n_crit(r: float) -> float:
    """Drum critical speed (60/2π)√(g/R) in rpm, §R2.8."""
    return 60 / (2 * pi) * math.sqrt(G0 / r)


def beverloo(rho_b: float, d0: float, d: float, c: float = 0.58, k: float = 1.5) -> float:
    """W = C ρ_b √g (D₀ − k d)^(5/2), §R2.9."""
    return c * rho_b * math.sqrt(G0) * (d0 - k * d) ** 2.5


RPM = 2 * pi / 60

QUERIES: list[tuple[str, str | None, dict[str, Any], Any]] = [
    # --- time steps -------------------------------------------------------------------------
    (
        "what's the rayleigh time step for 3mm diameter steel shot",
        "rayleigh_timestep",
        dict(particle_radius=1.5e-3, **ST),
        ("rayleigh_timestep", ray(1.5e-3, 7850, 210e9, 0.3)),
    ),
    (
        "rayleigh time step for 2 mm sand grains in a 100 mm column",
        "rayleigh_timestep",
        dict(particle_radius=1e-3, **SAND),
        ("rayleigh_timestep", ray(1e-3, 2650, 95e9, 0.08)),
    ),
    (
        "critical timestep for 0.04 in glass beads",
        "rayleigh_timestep",
        dict(particle_radius=0.02 * INCH, **GL),
        ("rayleigh_timestep", ray(0.02 * INCH, 2500, 70e9, 0.25)),
    ),
    (
        "rayleigh step, particle diameter 6 mm, E 1e7 Pa, nu 0.3, density 1100 kg/m3",
        "rayleigh_timestep",
        dict(particle_radius=3e-3, density=1100, youngs_modulus=1e7, poisson_ratio=0.3),
        ("rayleigh_timestep", ray(3e-3, 1100, 1e7, 0.3)),
    ),
    (
        "rayleigh time step for 1 mm alumina media in a ball mill",
        "rayleigh_timestep",
        dict(particle_radius=5e-4, **AL),
        ("rayleigh_timestep", ray(5e-4, 3900, 370e9, 0.22)),
    ),
    (
        "rayleigh dt for r = 0.5mm limestone with shear modulus 20 GPa",
        "rayleigh_timestep",
        dict(particle_radius=5e-4, shear_modulus=20e9, density=2700, poisson_ratio=0.25),
        ("rayleigh_timestep", pi * 5e-4 * math.sqrt(2700 / 20e9) / (0.1631 * 0.25 + 0.8766)),
    ),
    (
        "rayleigh time step for glass beads 500 micron, target dt fraction 0.1",
        "rayleigh_timestep",
        dict(particle_radius=2.5e-4, fraction=0.1, **GL),
        ("recommended_timestep", 0.1 * ray(2.5e-4, 2500, 70e9, 0.25)),
    ),
    (
        "Rayleigh time-step: nylon pellets, 4 mm, softened E of 50 MPa",
        "rayleigh_timestep",
        dict(particle_radius=2e-3, youngs_modulus=5e7, density=1140, poisson_ratio=0.39),
        ("rayleigh_timestep", ray(2e-3, 1140, 5e7, 0.39)),
    ),
    (
        "rayleigh time step of 2 mm particles with density 1500 kg/m3, E 1 GPa, nu 0.3, bouncing "
        "on a steel plate",
        "rayleigh_timestep",
        dict(particle_radius=1e-3, density=1500, youngs_modulus=1e9, poisson_ratio=0.3),
        ("rayleigh_timestep", ray(1e-3, 1500, 1e9, 0.3)),
    ),
    (
        "critical time step of 0.1 mm limestone powder",
        "rayleigh_timestep",
        dict(particle_radius=5e-5, **LS),
        ("rayleigh_timestep", ray(5e-5, 2700, 50e9, 0.25)),
    ),
    (
        "p-wave time step for 1 mm steel balls",
        "pwave_timestep",
        dict(particle_radius=5e-4, density=7850, youngs_modulus=210e9),
        ("pwave_timestep", 5e-4 * math.sqrt(7850 / 210e9)),
    ),
    (
        "p-wave timestep r 2mm rho 2700 kg/m^3 E 50 GPa",
        "pwave_timestep",
        dict(particle_radius=2e-3, density=2700, youngs_modulus=50e9),
        ("pwave_timestep", 2e-3 * math.sqrt(2700 / 50e9)),
    ),
    (
        "is a time step of 1e-5 s ok for 1 mm sand?",
        "check_timestep_heuristic",
        dict(particle_radius=5e-4, timestep=1e-5, impact_velocity=None, **SAND),
        ("rayleigh_fraction", 1e-5 / ray(5e-4, 2650, 95e9, 0.08)),
    ),
    (
        "is dt 2 us stable for 0.5 mm radius glass spheres hitting a steel wall at 5 m/s",
        "check_timestep_heuristic",
        dict(particle_radius=5e-4, timestep=2e-6, impact_velocity=5.0, **GL),
        ("rayleigh_fraction", 2e-6 / ray(5e-4, 2500, 70e9, 0.25)),
    ),
    (
        "check my timestep: 1e-6 s, 3 mm polypropylene pellets, E = 100 MPa",
        "check_timestep_heuristic",
        dict(particle_radius=1.5e-3, timestep=1e-6, youngs_modulus=1e8, density=905),
        ("rayleigh_fraction", 1e-6 / ray(1.5e-3, 905, 1e8, 0.42)),
    ),
    (
        "is 5e-7 s too big for 200 micron glass powder at an impact speed of 10 m/s?",
        "check_timestep_heuristic",
        dict(particle_radius=1e-4, timestep=5e-7, impact_velocity=10.0, **GL),
        ("rayleigh_fraction", 5e-7 / ray(1e-4, 2500, 70e9, 0.25)),
    ),
    (
        "time step for glass beads d = 1.5 mm",
        "rayleigh_timestep",
        dict(particle_radius=7.5e-4, **GL),
        ("rayleigh_timestep", ray(7.5e-4, 2500, 70e9, 0.25)),
    ),
    # --- contacts: walls, second bodies, materials ---------------------------------------------
    (
        "hertz contact time of a 10 mm steel ball dropped on a steel plate at 2 m/s",
        "hertz_contact_time",
        dict(
            particle_radius=5e-3,
            impact_velocity=2.0,
            wall=True,
            wall_youngs_modulus=210e9,
            wall_poisson_ratio=0.3,
            **ST,
        ),
        ("contact_time", th(m(1e-2, 7850), 5e-3, es(210e9, 0.3, 210e9, 0.3), 2.0)),
    ),
    (
        "contact time between a 2 mm glass bead and a 4 mm glass bead at 1 m/s",
        "hertz_contact_time",
        dict(particle_radius=1e-3, other_radius=2e-3, impact_velocity=1.0, **NO_WALL, **GL),
        (
            "contact_time",
            th(ms(m(2e-3, 2500), m(4e-3, 2500)), rs(1e-3, 2e-3), es(70e9, 0.25, 70e9, 0.25), 1.0),
        ),
    ),
    (
        "contact time of a 1 mm glass bead hitting a 10 mm glass ball at 2 m/s",
        "hertz_contact_time",
        dict(particle_radius=5e-4, other_radius=5e-3, impact_velocity=2.0, **NO_WALL, **GL),
        (
            "contact_time",
            th(ms(m(1e-3, 2500), m(1e-2, 2500)), rs(5e-4, 5e-3), es(70e9, 0.25, 70e9, 0.25), 2.0),
        ),
    ),
    (
        "how long does a 3 mm sand grain touch the wall when it hits at 4 m/s",
        "hertz_contact_time",
        dict(particle_radius=1.5e-3, impact_velocity=4.0, wall=True, wall_youngs_modulus=None),
        ("contact_time", th(m(3e-3, 2650), 1.5e-3, es(95e9, 0.08), 4.0)),
    ),
    (
        "hertz contact duration for 1 mm diameter alumina beads, impact speed 0.5 m/s",
        "hertz_contact_time",
        dict(particle_radius=5e-4, impact_velocity=0.5, other_radius=None, **NO_WALL, **AL),
        ("contact_time", th(m(1e-3, 3900) / 2, 2.5e-4, es(370e9, 0.22, 370e9, 0.22), 0.5)),
    ),
    (
        "collision duration of two 0.25 in steel balls at 10 ft/s",
        "hertz_contact_time",
        dict(particle_radius=0.125 * INCH, impact_velocity=10 * FT, other_radius=None, **ST),
        (
            "contact_time",
            th(m(0.25 * INCH, 7850) / 2, 0.0625 * INCH, es(210e9, 0.3, 210e9, 0.3), 10 * FT),
        ),
    ),
    (
        "contact time, 5 mm nylon pellets, E softened to 20 MPa, v = 1 m/s, against a glass "
        "surface",
        "hertz_contact_time",
        dict(
            particle_radius=2.5e-3,
            youngs_modulus=2e7,
            density=1140,
            poisson_ratio=0.39,
            impact_velocity=1.0,
            wall=True,
            wall_youngs_modulus=70e9,
            wall_poisson_ratio=0.25,
        ),
        ("contact_time", th(m(5e-3, 1140), 2.5e-3, es(2e7, 0.39, 70e9, 0.25), 1.0)),
    ),
    (
        "hertz contact time of a 5 mm steel ball on a 10 mm thick steel plate at 1 m/s",
        "hertz_contact_time",
        dict(particle_radius=2.5e-3, other_radius=None, wall=True, wall_youngs_modulus=210e9, **ST),
        ("contact_time", th(m(5e-3, 7850), 2.5e-3, es(210e9, 0.3, 210e9, 0.3), 1.0)),
    ),
    (
        "hertz contact time for 20 mm steel grinding media at 3 m/s",
        "hertz_contact_time",
        dict(particle_radius=1e-2, impact_velocity=3.0, **NO_WALL, **ST),
        ("contact_time", th(m(2e-2, 7850) / 2, 5e-3, es(210e9, 0.3, 210e9, 0.3), 3.0)),
    ),
    (
        "peak overlap of 1 mm steel shot hitting a steel target at 50 m/s",
        "hertz_max_overlap",
        dict(
            particle_radius=5e-4,
            impact_velocity=50.0,
            wall=True,
            wall_youngs_modulus=210e9,
            wall_poisson_ratio=0.3,
            **ST,
        ),
        ("max_overlap", ov(m(1e-3, 7850), 5e-4, es(210e9, 0.3, 210e9, 0.3), 50.0)),
    ),
    (
        "max overlap for 2 mm sand at 2 m/s with E = 10 MPa",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, youngs_modulus=1e7, density=2650, poisson_ratio=0.08),
        ("max_overlap", ov(m(2e-3, 2650) / 2, 5e-4, es(1e7, 0.08, 1e7, 0.08), 2.0)),
    ),
    (
        "maximum overlap of a 3 mm glass bead hitting a 6 mm steel ball at 1 m/s",
        "hertz_max_overlap",
        dict(
            particle_radius=1.5e-3,
            other_radius=3e-3,
            other_density=7850,
            other_youngs_modulus=210e9,
            other_poisson_ratio=0.3,
            **NO_WALL,
            **GL,
        ),
        (
            "max_overlap",
            ov(ms(m(3e-3, 2500), m(6e-3, 7850)), rs(1.5e-3, 3e-3), es(70e9, 0.25, 210e9, 0.3), 1.0),
        ),
    ),
    (
        "how much overlap for 4 mm polypropylene on an alumina liner at 3 m/s",
        "hertz_max_overlap",
        dict(
            particle_radius=2e-3,
            wall=True,
            wall_youngs_modulus=370e9,
            wall_poisson_ratio=0.22,
            other_density=None,
            **PP,
        ),
        ("max_overlap", ov(m(4e-3, 905), 2e-3, es(1.5e9, 0.42, 370e9, 0.22), 3.0)),
    ),
    (
        "overlap check: 0.5 mm radius glass spheres, 2 m/s, dt 1e-6 s",
        "hertz_max_overlap",
        dict(particle_radius=5e-4, timestep=1e-6, impact_velocity=2.0, **NO_WALL, **GL),
        ("max_overlap", ov(m(1e-3, 2500) / 2, 2.5e-4, es(70e9, 0.25, 70e9, 0.25), 2.0)),
    ),
    (
        "max overlap of a 2 mm glass bead on a flat steel floor at 1 m/s",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, wall=True, wall_youngs_modulus=210e9, **GL),
        ("max_overlap", ov(m(2e-3, 2500), 1e-3, es(70e9, 0.25, 210e9, 0.3), 1.0)),
    ),
    (
        "peak overlap of 2 mm glass beads hitting the wall of a steel drum at 3 m/s",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, wall=True, wall_youngs_modulus=210e9, **GL),
        ("max_overlap", ov(m(2e-3, 2500), 1e-3, es(70e9, 0.25, 210e9, 0.3), 3.0)),
    ),
    (
        "max overlap of 2 mm beads at 1 m/s in a 100 mm glass drum, E = 50 MPa, density 1200, "
        "nu 0.4",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, other_radius=None, youngs_modulus=5e7, **NO_WALL),
        ("max_overlap", ov(m(2e-3, 1200) / 2, 5e-4, es(5e7, 0.4, 5e7, 0.4), 1.0)),
    ),
    (
        "what is the peak overlap of a 50 micron steel particle at 0.5 m/s on a rigid wall",
        "hertz_max_overlap",
        dict(particle_radius=2.5e-5, wall=True, wall_youngs_modulus=None, **ST),
        ("max_overlap", ov(m(5e-5, 7850), 2.5e-5, es(210e9, 0.3), 0.5)),
    ),
    (
        "effective modulus of a 2 mm glass bead against a steel wall",
        "contact_pair",
        dict(particle_radius=1e-3, wall=True, wall_youngs_modulus=210e9, **GL),
        ("effective_modulus", es(70e9, 0.25, 210e9, 0.3)),
    ),
    (
        "effective radius for a 1 mm and a 3 mm glass bead",
        "contact_pair",
        dict(particle_radius=5e-4, other_radius=1.5e-3, **NO_WALL, **GL),
        ("effective_radius", rs(5e-4, 1.5e-3)),
    ),
    (
        "effective mass of a 2 mm steel ball and a 2 mm glass bead",
        "contact_pair",
        dict(particle_radius=1e-3, other_radius=1e-3, other_density=2500, **ST),
        ("effective_mass", ms(m(2e-3, 7850), m(2e-3, 2500))),
    ),
    (
        "contact stiffness of two 5 mm steel balls at an overlap of 2 um",
        "contact_pair",
        dict(particle_radius=2.5e-3, overlap=2e-6, other_radius=None, **NO_WALL, **ST),
        (
            "normal_stiffness_tangent",
            2 * es(210e9, 0.3, 210e9, 0.3) * math.sqrt(1.25e-3 * 2e-6),
        ),
    ),
    (
        "E* for glass on alumina, 1 mm beads",
        "contact_pair",
        dict(particle_radius=5e-4, other_youngs_modulus=370e9, other_poisson_ratio=0.22, **GL),
        ("effective_modulus", es(70e9, 0.25, 370e9, 0.22)),
    ),
    (
        "effective properties of a 1 mm sand grain on a polypropylene plate",
        "contact_pair",
        dict(particle_radius=5e-4, wall=True, wall_youngs_modulus=1.5e9, **SAND),
        ("effective_modulus", es(95e9, 0.08, 1.5e9, 0.42)),
    ),
    (
        "contact stress for a 1 kN load on 20 mm steel balls, yield 1.5 GPa, SF 2",
        "contact_stress_check",
        dict(
            normal_force=1e3,
            particle_radius=1e-2,
            yield_stress=1.5e9,
            safety_factor=2.0,
            other_radius=None,
            wall=False,
        ),
        ("max_contact_pressure", p0(1e3, 5e-3, es(210e9, 0.3, 210e9, 0.3))),
    ),
    (
        "will 5 mm glass beads crack under a 50 N force on a steel plate? yield stress 500 MPa, "
        "safety factor 1.2",
        "contact_stress_check",
        dict(
            normal_force=50.0,
            particle_radius=2.5e-3,
            yield_stress=5e8,
            safety_factor=1.2,
            wall=True,
            wall_youngs_modulus=210e9,
            youngs_modulus=70e9,
        ),
        ("max_contact_pressure", p0(50.0, 2.5e-3, es(70e9, 0.25, 210e9, 0.3))),
    ),
    (
        "contact stress 100 lbf on a 0.5 in diameter steel ball against a steel surface, "
        "yield 60 ksi, safety factor 1.5",
        "contact_stress_check",
        dict(
            normal_force=100 * LBF,
            particle_radius=0.25 * INCH,
            yield_stress=60e3 * PSI,
            wall=True,
            wall_youngs_modulus=210e9,
        ),
        ("max_contact_pressure", p0(100 * LBF, 0.25 * INCH, es(210e9, 0.3, 210e9, 0.3))),
    ),
    (
        "contact stress between a 10 mm steel ball and a 20 mm steel ball under 100 N, "
        "yield 1 GPa, SF 1.5",
        "contact_stress_check",
        dict(normal_force=100.0, particle_radius=5e-3, other_radius=1e-2, wall=False),
        ("max_contact_pressure", p0(100.0, rs(5e-3, 1e-2), es(210e9, 0.3, 210e9, 0.3))),
    ),
    # --- damping and springs --------------------------------------------------------------------
    (
        "damping ratio for a restitution coefficient of 0.5",
        "restitution_to_damping",
        dict(restitution=0.5),
        ("damping_ratio", zeta(0.5)),
    ),
    (
        "what damping do I need for COR 0.85",
        "restitution_to_damping",
        dict(restitution=0.85),
        ("damping_ratio", zeta(0.85)),
    ),
    (
        "restitution 0.95 to damping ratio",
        "restitution_to_damping",
        dict(restitution=0.95),
        ("damping_ratio", zeta(0.95)),
    ),
    (
        "linear spring stiffness for a contact time of 1e-4 s, mass 2 g, e = 0.7",
        "linear_spring_contact",
        dict(effective_mass=2e-3, collision_time=1e-4, restitution=0.7, stiffness=None),
        ("stiffness", 2e-3 * (pi**2 + math.log(0.7) ** 2) / 1e-8),
    ),
    (
        "spring constant k 5e4 N/m, effective mass 0.5 g, restitution 0.9: contact time?",
        "linear_spring_contact",
        dict(stiffness=5e4, effective_mass=5e-4, restitution=0.9, collision_time=None),
        ("collision_time", math.sqrt(5e-4 * (pi**2 + math.log(0.9) ** 2) / 5e4)),
    ),
    (
        "linear spring: effective mass 1e-5 kg, collision time 50 us, restitution 0.6",
        "linear_spring_contact",
        dict(effective_mass=1e-5, collision_time=5e-5, restitution=0.6),
        ("stiffness", 1e-5 * (pi**2 + math.log(0.6) ** 2) / 25e-10),
    ),
    # --- masses, counts, bulk -------------------------------------------------------------------
    (
        "mass of a 0.375 inch steel ball",
        "particle_mass",
        dict(particle_diameter=0.375 * INCH, density=7850),
        ("particle_mass", m(0.375 * INCH, 7850)),
    ),
    (
        "what does one 3 mm glass bead weigh",
        "particle_mass",
        dict(particle_diameter=3e-3, density=2500),
        ("particle_mass", m(3e-3, 2500)),
    ),
    (
        "weight of a single 5 mm sand grain",
        "particle_mass",
        dict(particle_diameter=5e-3, density=2650),
        ("particle_mass", m(5e-3, 2650)),
    ),
    (
        "mass of one 2 mm particle with density 1.5 g/cm3",
        "particle_mass",
        dict(particle_diameter=2e-3, density=1500),
        ("particle_mass", m(2e-3, 1500)),
    ),
    (
        "particle mass of a 10 mm alumina grinding ball",
        "particle_mass",
        dict(particle_diameter=1e-2, density=3900),
        ("particle_mass", m(1e-2, 3900)),
    ),
    ("mass of a 3 mm particle in a glass column", None, {}, "glass (named for the column"),
    ("particle mass of a 2 mm bead in a steel drum", None, {}, "steel (named for the drum"),
    (
        "how many 3 mm glass beads fit in a 2 liter beaker",
        "estimate_particle_count",
        dict(container_shape="volume", container_volume=2e-3, particle_diameter=3e-3),
        ("particle_count", 0.6 * 2e-3 / (pi * 27e-9 / 6)),
    ),
    (
        "how many 1 mm sand grains in a 50 mm diameter column 300 mm tall",
        "estimate_particle_count",
        dict(container_shape="cylinder", diameter=0.05, height=0.3, particle_diameter=1e-3),
        ("particle_count", 0.6 * pi * 0.025**2 * 0.3 / (pi * 1e-9 / 6)),
    ),
    (
        "how many 2 mm beads fill a drum 0.5 m in diameter and 1 m long",
        "estimate_particle_count",
        dict(container_shape="cylinder", diameter=0.5, height=1.0, particle_diameter=2e-3),
        ("particle_count", 0.6 * pi * 0.25**2 / (pi * 8e-9 / 6)),
    ),
    (
        "particle count for a 4 in diameter, 12 in tall cylinder of 0.125 in steel shot",
        "estimate_particle_count",
        dict(
            container_shape="cylinder",
            diameter=4 * INCH,
            height=12 * INCH,
            particle_diameter=0.125 * INCH,
        ),
        ("particle_count", 0.6 * pi * (2 * INCH) ** 2 * 12 * INCH / (pi * (0.125 * INCH) ** 3 / 6)),
    ),
    (
        "how many 2 mm particles in a 200 mm drum 500 mm long",
        "estimate_particle_count",
        dict(container_shape="cylinder", diameter=0.2, height=0.5, particle_diameter=2e-3),
        ("particle_count", 0.6 * pi * 0.1**2 * 0.5 / (pi * 8e-9 / 6)),
    ),
    (
        "number of 0.8 mm beads in a 1 x 0.5 x 0.3 m hopper",
        "estimate_particle_count",
        dict(container_shape="box", length=1.0, width=0.5, height=0.3, particle_diameter=8e-4),
        ("particle_count", 0.6 * 0.15 / (pi * 8e-4**3 / 6)),
    ),
    (
        "how many 3 mm particles fit in 5 gallons",
        "estimate_particle_count",
        dict(container_volume=5 * 3.785411784e-3, particle_diameter=3e-3),
        ("particle_count", 0.6 * 5 * 3.785411784e-3 / (pi * 27e-9 / 6)),
    ),
    (
        "bulk density of glass beads at a packing fraction of 0.63",
        "bulk_properties",
        dict(packing_fraction=0.63, solid_density=2500),
        ("bulk_density", 0.63 * 2500),
    ),
    (
        "porosity of a bed with bulk density 1500 kg/m3 and particle density 2650 kg/m3",
        "bulk_properties",
        dict(bulk_density=1500, solid_density=2650),
        ("porosity", 1 - 1500 / 2650),
    ),
    (
        "what is the mass of 0.5 m3 of sand with porosity 0.38",
        "bulk_properties",
        dict(porosity=0.38, volume=0.5, solid_density=2650),
        ("mass", 0.62 * 2650 * 0.5),
    ),
    (
        "weight of 10 ft3 of steel shot at a packing of 0.6",
        "bulk_properties",
        dict(packing_fraction=0.6, volume=10 * FT**3, solid_density=7850),
        ("mass", 0.6 * 7850 * 10 * FT**3),
    ),
    (
        "bulk mass of 2 m3 at bulk density 1.6 t/m3",
        "bulk_properties",
        dict(bulk_density=1600, volume=2.0),
        ("mass", 3200.0),
    ),
    (
        "bulk density of steel shot at 60% packing",
        "bulk_properties",
        dict(packing_fraction=0.6, solid_density=7850),
        ("bulk_density", 0.6 * 7850),
    ),
    (
        "porosity for bulk density 1.7 g/cm3 of quartz sand",
        "bulk_properties",
        dict(bulk_density=1700, solid_density=2650),
        ("porosity", 1 - 1700 / 2650),
    ),
    (
        "mass fractions for sizes 1 mm, 2 mm and 3 mm with number fractions 0.5, 0.3 and 0.2",
        "polydisperse_counts",
        dict(diameters=[1e-3, 2e-3, 3e-3], number_fractions=[0.5, 0.3, 0.2], density=None),
        (
            "mass_fractions",
            [w / (0.5 + 0.3 * 8 + 0.2 * 27) for w in (0.5, 0.3 * 8, 0.2 * 27)],
        ),
    ),
    (
        "number fractions for 2 mm and 4 mm glass beads, mass fractions 0.5 and 0.5",
        "polydisperse_counts",
        dict(diameters=[2e-3, 4e-3], mass_fractions=[0.5, 0.5], density=None, total_mass=None),
        ("number_fractions", [(0.5 / 8) / (0.5 / 8 + 0.5 / 64), (0.5 / 64) / (0.5 / 8 + 0.5 / 64)]),
    ),
    (
        "psd 0.5 mm 30%, 1 mm 50%, 2 mm 20% by mass, total 5 kg of glass: how many particles "
        "per class",
        "polydisperse_counts",
        dict(
            diameters=[5e-4, 1e-3, 2e-3],
            mass_fractions=[0.3, 0.5, 0.2],
            total_mass=5.0,
            density=2500,
        ),
        (
            "total_count",
            sum(5 * w / m(d, 2500) for w, d in ((0.3, 5e-4), (0.5, 1e-3), (0.2, 2e-3))),
        ),
    ),
    (
        "porosity of 8 mm spheres in a 40 mm diameter tube",
        "wall_effect_porosity",
        dict(container_diameter=0.04, particle_diameter=8e-3),
        ("diameter_ratio", 5.0),
    ),
    (
        "wall effect for a 0.1 m column packed with 5 mm glass beads",
        "wall_effect_porosity",
        dict(container_diameter=0.1, particle_diameter=5e-3),
        ("diameter_ratio", 20.0),
    ),
    (
        "porosity near the wall: bed diameter 2 in, particle size 4 mm, sphericity 0.8",
        "wall_effect_porosity",
        dict(container_diameter=2 * INCH, particle_diameter=4e-3, sphericity=0.8),
        ("diameter_ratio", 2 * INCH / 4e-3),
    ),
    (
        "porosity of a packed bed of 3 mm beads in a 30 mm column",
        "wall_effect_porosity",
        dict(container_diameter=0.03, particle_diameter=3e-3),
        ("diameter_ratio", 10.0),
    ),
    # --- run size and cost ----------------------------------------------------------------------
    (
        "how many time steps for 30 s of simulated time at dt = 5e-6 s",
        "timesteps_for_duration",
        dict(duration=30.0, timestep=5e-6),
        ("steps", 6_000_000),
    ),
    (
        "steps needed for 2 minutes at 1e-5 s",
        "timesteps_for_duration",
        dict(duration=120.0, timestep=1e-5),
        ("steps", 12_000_000),
    ),
    (
        "how many steps does a 0.2 s run at 1e-7 s take",
        "timesteps_for_duration",
        dict(duration=0.2, timestep=1e-7),
        ("steps", 2_000_000),
    ),
    (
        "how long will a 10 s run with 1 million particles at dt 1e-6 s take on 32 cores at 2e6 "
        "particle-steps per core-second",
        "simulation_cost",
        dict(duration=10.0, timestep=1e-6, n_particles=1e6, throughput=2e6, n_cores=32),
        ("wall_time", 1e6 * 1e7 / (2e6 * 32)),
    ),
    (
        "core hours for 5e5 particles, 20 s, timestep 2e-6 s, throughput 1e6 particle steps per "
        "core second, 8 cores",
        "simulation_cost",
        dict(duration=20.0, timestep=2e-6, n_particles=5e5, throughput=1e6, n_cores=8),
        ("core_hours", 5e5 * 1e7 / (1e6 * 8) * 8 / 3600),
    ),
    (
        "insertion rate for a feed rate of 10 t/h of 2 mm sand",
        "simulation_cost",
        dict(mass_flow_rate=10e3 / 3600, particle_diameter=2e-3, density=2650),
        ("insertion_rate", 10e3 / 3600 / m(2e-3, 2650)),
    ),
    (
        "insertion rate for 5 kg/s of glass beads with sizes 1 mm and 2 mm, mass fractions 0.5 "
        "and 0.5",
        "simulation_cost",
        dict(
            mass_flow_rate=5.0,
            diameters=[1e-3, 2e-3],
            mass_fractions=[0.5, 0.5],
            particle_diameter=None,
            density=2500,
        ),
        ("insertion_rate", 5.0 * (0.5 / m(1e-3, 2500) + 0.5 / m(2e-3, 2500))),
    ),
    (
        "neighbor bin size for 3 mm diameter particles, skin 0.5 mm",
        "neighbor_cell_size",
        dict(max_particle_radius=1.5e-3, skin=5e-4),
        ("cell_size", 0.5 * (3e-3 + 5e-4)),
    ),
    (
        "cell size in mfix for a max particle diameter of 2 mm",
        "neighbor_cell_size",
        dict(max_particle_radius=1e-3, convention="mfix"),
        ("cell_size", 3 * 2e-3),
    ),
    (
        "neighbour list skin 1 mm for r max 1.5 mm in liggghts",
        "neighbor_cell_size",
        dict(max_particle_radius=1.5e-3, skin=1e-3, convention="liggghts"),
        ("cell_size", 0.5 * (3e-3 + 1e-3)),
    ),
    (
        "coarse graining factor 5 for 0.2 mm sand with 1e9 particles",
        "coarse_graining",
        dict(scale_factor=5.0, particle_diameter=2e-4, n_particles=1e9, n_parcels=None),
        ("parcel_count", 1e9 / 125),
    ),
    (
        "coarse grain 1 mm glass beads by a factor of 3: stiffness 1e4 N/m, damping 0.1, dt 2e-6 s",
        "coarse_graining",
        dict(scale_factor=3.0, stiffness=1e4, damping_coefficient=0.1, timestep=2e-6),
        ("damping_parcel", 9 * 0.1),
    ),
    (
        "parcel size for a scale factor of 4 and 0.3 mm particles, smallest gap 10 mm",
        "coarse_graining",
        dict(scale_factor=4.0, particle_diameter=3e-4, smallest_feature=1e-2),
        ("feature_to_parcel", 1e-2 / 1.2e-3),
    ),
    (
        "coarse grain 100 kg of 0.5 mm glass beads, scale factor 8",
        "coarse_graining",
        dict(scale_factor=8.0, total_mass=100.0, particle_diameter=5e-4, density=2500),
        ("parcel_count", 100 / m(5e-4, 2500) / 512),
    ),
    (
        "coarse graining factor 2, surface energy 0.05 J/m2, keep the bond number",
        "coarse_graining",
        dict(scale_factor=2.0, surface_energy=0.05, cohesion_scaling="bond"),
        ("surface_energy_parcel", 4 * 0.05),
    ),
    (
        "what coarse-graining factor gives 1 million parcels for 5e8 particles of 1 mm",
        "coarse_graining",
        dict(scale_factor=None, n_parcels=1e6, n_particles=5e8, particle_diameter=1e-3),
        ("scale_factor", (5e8 / 1e6) ** (1 / 3)),
    ),
    (
        "what scale factor do I need to get from 2e9 particles down to 5e6 parcels",
        "coarse_graining",
        dict(n_parcels=5e6, n_particles=2e9),
        ("scale_factor", (2e9 / 5e6) ** (1 / 3)),
    ),
    (
        "coarse grain 100 kg of 0.5 mm glass beads into 2e5 parcels",
        "coarse_graining",
        dict(n_parcels=2e5, total_mass=100.0, particle_diameter=5e-4, density=2500),
        ("scale_factor", (100 / m(5e-4, 2500) / 2e5) ** (1 / 3)),
    ),
    (
        "coarse-graining: scale 3, primary particles 2e7, diameter 0.2 mm, density 2650",
        "coarse_graining",
        dict(scale_factor=3.0, n_particles=2e7, particle_diameter=2e-4, density=2650),
        ("parcel_mass", 27 * m(2e-4, 2650)),
    ),
    # --- cohesion -------------------------------------------------------------------------------
    (
        "jkr pull-off force of a 20 micron glass particle on a glass plate, surface energy "
        "0.1 J/m2",
        "cohesion_numbers",
        dict(particle_radius=1e-5, surface_energy=0.1, wall=True, surface_energy_per_surface=False),
        ("pull_off_force_jkr", 1.5 * pi * 0.1 * 1e-5),
    ),
    (
        "bond number of 30 um limestone particles, work of adhesion 0.04 J/m2",
        "cohesion_numbers",
        dict(particle_radius=1.5e-5, surface_energy=0.04, density=2700, wall=False),
        ("bond_number_jkr", 1.5 * pi * 0.04 * 7.5e-6 / (m(3e-5, 2700) * G0)),
    ),
    (
        "liquid bridge force between two 100 um glass beads in water",
        "cohesion_numbers",
        dict(particle_radius=5e-5, liquid_surface_tension=0.0728, wall=False),
        ("liquid_bridge_force", 4 * pi * 2.5e-5 * 0.0728),
    ),
    (
        "capillary force of a 1 mm sand grain on a wall, surface tension 0.072 N/m, contact "
        "angle 20 deg",
        "cohesion_numbers",
        dict(particle_radius=5e-4, liquid_surface_tension=0.072, contact_angle=20.0, wall=True),
        ("liquid_bridge_force", 4 * pi * 5e-4 * 0.072 * math.cos(math.radians(20))),
    ),
    (
        "what surface energy gives a bond number of 10 for 50 micron glass beads",
        "cohesion_numbers",
        dict(particle_radius=2.5e-5, target_bond_number=10.0, density=2500, wall=False),
        ("surface_energy_for_target_jkr", 10 * m(5e-5, 2500) * G0 / (1.5 * pi * 1.25e-5)),
    ),
    (
        "target bond number 5 for 20 um particles, density 2500 kg/m3",
        "cohesion_numbers",
        dict(particle_radius=1e-5, target_bond_number=5.0, density=2500, wall=False),
        ("surface_energy_for_target_jkr", 5 * m(2e-5, 2500) * G0 / (1.5 * pi * 5e-6)),
    ),
    (
        "dmt pull-off force for 2 um silica particles, surface energy per surface 0.03 J/m2",
        "cohesion_numbers",
        dict(
            particle_radius=1e-6,
            surface_energy=0.03,
            surface_energy_per_surface=True,
            wall=False,
            density=None,
        ),
        ("pull_off_force_dmt", 2 * pi * (2 * 0.03) * 5e-7),
    ),
    (
        "jkr for 10 um particles, gamma 0.025 J/m2 per surface",
        "cohesion_numbers",
        dict(particle_radius=5e-6, surface_energy=0.025, surface_energy_per_surface=True),
        ("pull_off_force_jkr", 1.5 * pi * 0.05 * 2.5e-6),
    ),
    (
        "pull-off force between a 10 um and a 40 um particle, surface energy 0.05 J/m2",
        "cohesion_numbers",
        dict(particle_radius=5e-6, other_radius=2e-5, surface_energy=0.05, wall=False),
        ("pull_off_force_jkr", 1.5 * pi * 0.05 * rs(5e-6, 2e-5)),
    ),
    (
        "cohesion for 40 um particles with surface energy 0.1 J/m2 and density 1.5 g/cc",
        "cohesion_numbers",
        dict(particle_radius=2e-5, surface_energy=0.1, density=1500, wall=False),
        ("bond_number_dmt", 2 * pi * 0.1 * 1e-5 / (m(4e-5, 1500) * G0)),
    ),
    (
        "liquid bridge of 0.5 mm glass beads in water on a steel surface",
        "cohesion_numbers",
        dict(particle_radius=2.5e-4, liquid_surface_tension=0.0728, wall=True),
        ("liquid_bridge_force", 4 * pi * 2.5e-4 * 0.0728),
    ),
    # --- CFD-DEM --------------------------------------------------------------------------------
    (
        "terminal velocity of a 2 mm glass bead in air",
        "cfd_dem_numbers",
        dict(particle_diameter=2e-3, particle_density=2500, **AIR),
        ("archimedes_number", archimedes(2e-3, 2500, 1.205, 1.81e-5)),
    ),
    (
        "terminal settling velocity of 100 micron sand in water",
        "cfd_dem_numbers",
        dict(particle_diameter=1e-4, particle_density=2650, **WATER),
        ("archimedes_number", archimedes(1e-4, 2650, 998.2, 1.002e-3)),
    ),
    (
        "particle reynolds number of a 3 mm polypropylene pellet in water at a slip of 0.1 m/s",
        "cfd_dem_numbers",
        dict(particle_diameter=3e-3, particle_density=905, slip_velocity=0.1, **WATER),
        ("particle_reynolds", 998.2 * 0.1 * 3e-3 / 1.002e-3),
    ),
    (
        "stokes number of 50 um glass in air, flow velocity 10 m/s, characteristic length 0.05 m",
        "cfd_dem_numbers",
        dict(particle_diameter=5e-5, flow_velocity=10.0, characteristic_length=0.05, **AIR),
        ("stokes_number", 2500 * 5e-5**2 / (18 * 1.81e-5) * 10 / 0.05),
    ),
    (
        "terminal velocity of 0.5 mm particles of density 1200 kg/m3 in a fluid of density "
        "1000 kg/m3 and viscosity 1e-3 Pa s",
        "cfd_dem_numbers",
        dict(
            particle_diameter=5e-4, particle_density=1200, fluid_density=1000, fluid_viscosity=1e-3
        ),
        ("archimedes_number", archimedes(5e-4, 1200, 1000, 1e-3)),
    ),
    (
        "terminal velocity of 1 mm particles, rho_p 2500, in a liquid with density 1100 kg/m3 and "
        "viscosity 5 mPa s",
        "cfd_dem_numbers",
        dict(
            particle_diameter=1e-3, particle_density=2500, fluid_density=1100, fluid_viscosity=5e-3
        ),
        ("archimedes_number", archimedes(1e-3, 2500, 1100, 5e-3)),
    ),
    (
        "settling velocity of 0.3 mm glass in a fluid with rho_f = 1000 kg/m3, mu = 0.001 Pa.s",
        "cfd_dem_numbers",
        dict(
            particle_diameter=3e-4, particle_density=2500, fluid_density=1000, fluid_viscosity=1e-3
        ),
        ("archimedes_number", archimedes(3e-4, 2500, 1000, 1e-3)),
    ),
    (
        "CFD cell size for 2 mm glass beads in air with a 6 mm mesh",
        "cfd_dem_numbers",
        dict(particle_diameter=2e-3, cfd_cell_size=6e-3, **AIR),
        None,
    ),
    # --- polydisperse time step ---------------------------------------------------------------
    (
        "rayleigh time step for a psd of glass with mean 1 mm and std 0.1 mm",
        "polydisperse_rayleigh",
        dict(mean_diameter=1e-3, std_dev=1e-4, **GL),
        ("rayleigh_timestep", ray((1e-3 - 3e-4) / 2, 2500, 70e9, 0.25)),
    ),
    (
        "time step for sand with sizes 0.5, 1 and 2 mm",
        "polydisperse_rayleigh",
        dict(diameters=[5e-4, 1e-3, 2e-3], **SAND),
        ("rayleigh_timestep", ray(2.5e-4, 2650, 95e9, 0.08)),
    ),
    (
        "polydisperse rayleigh for steel with smallest particle 0.2 mm",
        "polydisperse_rayleigh",
        dict(min_diameter=2e-4, **ST),
        ("rayleigh_timestep", ray(1e-4, 7850, 210e9, 0.3)),
    ),
    # --- flow and discharge ---------------------------------------------------------------------
    (
        "froude number of a 1 m diameter drum rotating at 15 rpm",
        "flow_regime",
        dict(drum_radius=0.5, rotation_speed=15.0, particle_diameter=None),
        ("froude_number", froude(15 * RPM, 0.5)),
    ),
    (
        "inertial number for 1 mm sand sheared at 50 1/s under a confining pressure of 5 kPa",
        "flow_regime",
        dict(shear_rate=50.0, particle_diameter=1e-3, pressure=5e3, density=2650, drum_radius=None),
        ("inertial_number", 50 * 1e-3 / math.sqrt(5e3 / 2650)),
    ),
    (
        "critical speed of a ball mill with a 3 m diameter",
        "flow_regime",
        dict(drum_radius=1.5),
        ("critical_speed", n_crit(1.5)),
    ),
    (
        "flow regime of a rotary kiln radius 1.5 m at 2 rpm, filling 0.15",
        "flow_regime",
        dict(drum_radius=1.5, rotation_speed=2.0, filling_degree=0.15, particle_diameter=None),
        ("froude_number", froude(2 * RPM, 1.5)),
    ),
    (
        "froude number of a drum, radius 0.3 m, angular velocity 2 rad/s",
        "flow_regime",
        dict(drum_radius=0.3, angular_velocity=2.0, particle_diameter=None),
        ("froude_number", froude(2.0, 0.3)),
    ),
    (
        "drum radius 0.5 m, angular velocity 3 1/s, froude number",
        "flow_regime",
        dict(drum_radius=0.5, angular_velocity=3.0),
        ("froude_number", froude(3.0, 0.5)),
    ),
    (
        "froude number of a 0.8 m drum at 0.5 rev/s",
        "flow_regime",
        dict(drum_radius=0.4, rotation_speed=30.0),
        ("froude_number", froude(pi, 0.4)),
    ),
    (
        "what fraction of critical speed is 30 rpm for a 1.2 m drum",
        "flow_regime",
        dict(drum_radius=0.6, rotation_speed=30.0, particle_diameter=None),
        ("fraction_of_critical_speed", 30 / n_crit(0.6)),
    ),
    (
        "froude number for a 2 ft diameter drum at 25 rpm",
        "flow_regime",
        dict(drum_radius=FT, rotation_speed=25.0),
        ("froude_number", froude(25 * RPM, FT)),
    ),
    (
        "mill of 1 m radius at 40 rpm: froude number",
        "flow_regime",
        dict(drum_radius=1.0, rotation_speed=40.0, particle_diameter=None),
        ("froude_number", froude(40 * RPM, 1.0)),
    ),
    (
        "critical rotation speed of a 500 mm diameter drum",
        "flow_regime",
        dict(drum_radius=0.25),
        ("critical_speed", n_crit(0.25)),
    ),
    (
        "inertial number: shear rate 100 1/s, 0.5 mm glass beads, normal stress 2 kPa",
        "flow_regime",
        dict(shear_rate=100.0, particle_diameter=5e-4, pressure=2e3, density=2500),
        ("inertial_number", 100 * 5e-4 / math.sqrt(2e3 / 2500)),
    ),
    (
        "flow regime for a shear rate of 20 s^-1, 2 mm glass, pressure 500 Pa",
        "flow_regime",
        dict(shear_rate=20.0, particle_diameter=2e-3, pressure=500.0, density=2500),
        ("inertial_number", 20 * 2e-3 / math.sqrt(500 / 2500)),
    ),
    (
        "beverloo discharge rate of 3 mm glass beads through a 60 mm orifice with bulk density "
        "1550",
        "beverloo_discharge",
        dict(orifice_diameter=0.06, particle_diameter=3e-3, bulk_density=1550),
        ("mass_flow_rate", beverloo(1550, 0.06, 3e-3)),
    ),
    (
        "mass flow from a silo with a 4 inch outlet, 2 mm sand, bulk density 100 lb/ft3",
        "beverloo_discharge",
        dict(orifice_diameter=4 * INCH, particle_diameter=2e-3, bulk_density=100 * LBFT3),
        ("mass_flow_rate", beverloo(100 * LBFT3, 4 * INCH, 2e-3)),
    ),
    (
        "how fast does a hopper empty: 10 mm pellets, 150 mm orifice, bulk density 600 kg/m3, "
        "500 kg fill",
        "beverloo_discharge",
        dict(orifice_diameter=0.15, particle_diameter=1e-2, bulk_density=600, fill_mass=500),
        ("discharge_time", 500 / beverloo(600, 0.15, 1e-2)),
    ),
    (
        "beverloo discharge: orifice 50 mm, 2 mm particles, bulk density 1.5 g/cc, k 1.4, C 0.6",
        "beverloo_discharge",
        dict(
            orifice_diameter=0.05,
            particle_diameter=2e-3,
            bulk_density=1500,
            shape_coefficient=1.4,
            discharge_coefficient=0.6,
        ),
        ("mass_flow_rate", beverloo(1500, 0.05, 2e-3, c=0.6, k=1.4)),
    ),
    # --- rolling --------------------------------------------------------------------------------
    (
        "rolling resistance mu_r 0.05 for 3 mm glass beads with normal stiffness 1e5 N/m",
        "rolling_resistance",
        dict(rolling_friction=0.05, normal_stiffness=1e5, particle_radius=1.5e-3, wall=False),
        ("rolling_stiffness", 2.25 * 1e5 * 0.05**2 * 7.5e-4**2),
    ),
    (
        "rolling friction 0.1, 2 mm sand on a steel wall, overlap 1 um",
        "rolling_resistance",
        dict(
            rolling_friction=0.1,
            overlap=1e-6,
            particle_radius=1e-3,
            wall=True,
            wall_youngs_modulus=210e9,
            youngs_modulus=95e9,
        ),
        ("normal_stiffness", 4 / 3 * es(95e9, 0.08, 210e9, 0.3) * math.sqrt(1e-3 * 1e-6)),
    ),
    (
        "rolling stiffness for 5 mm steel balls, mu_r 0.02, kn 2e5 N/m, dt 1e-6 s",
        "rolling_resistance",
        dict(rolling_friction=0.02, normal_stiffness=2e5, particle_radius=2.5e-3, timestep=1e-6),
        ("rolling_stiffness", 2.25 * 2e5 * 0.02**2 * 1.25e-3**2),
    ),
    (
        "rolling friction for 4 mm glass beads on a glass plate, mu_r 0.05, overlap 2 microns",
        "rolling_resistance",
        dict(rolling_friction=0.05, overlap=2e-6, particle_radius=2e-3, wall=True),
        ("normal_stiffness", 4 / 3 * es(70e9, 0.25, 70e9, 0.25) * math.sqrt(2e-3 * 2e-6)),
    ),
    # --- conversions ----------------------------------------------------------------------------
    ("convert 14.7 psi to kPa", "convert_units", dict(value=14.7), ("value", 14.7 * PSI / 1e3)),
    ("what is 60 rpm in rad/s", "convert_units", dict(value=60.0), ("value", 2 * pi)),
    ("0.125 in to mm", "convert_units", dict(value=0.125), ("value", 3.175)),
    ("convert 1.2 g/cm3 to lb/ft3", "convert_units", dict(value=1.2), ("value", 1200 / LBFT3)),
    ("how many psi is 1 MPa", "convert_units", dict(value=1.0), ("value", 1e6 / PSI)),
    # --- asked or refused: nothing to compute yet, or a value that cannot be read --------------
    ("beverloo with a 2 in orifice, 1/8 in particles", None, {}, "fractions are not read"),
    ("contact stress, force 10 lb on 5 mm steel balls, yield 1 GPa, SF 2", None, {}, "10 lb"),
    ("how many 1 mm glass beads in 10 kg", None, {}, "container_shape"),
    ("is 1e-6 ok for 2 mm glass", None, {}, 'could not read "1e-6 ok"'),
]

ROUND_TWO: list[tuple[str, str | None, dict[str, Any], Any]] = [
    # written after the first fixes, to look for more of the same class
    (
        "rayleigh time step for 2 mm glass beads in a 50 mm steel pipe",
        "rayleigh_timestep",
        dict(particle_radius=1e-3, **GL),
        ("rayleigh_timestep", ray(1e-3, 2500, 70e9, 0.25)),
    ),
    (
        "time step for 1 mm steel balls in a glass tube of 20 mm diameter",
        "rayleigh_timestep",
        dict(particle_radius=5e-4, **ST),
        ("rayleigh_timestep", ray(5e-4, 7850, 210e9, 0.3)),
    ),
    (
        "hertz contact time of 3 mm glass beads in a steel drum at 2 m/s",
        "hertz_contact_time",
        dict(particle_radius=1.5e-3, impact_velocity=2.0, other_radius=None, **NO_WALL, **GL),
        ("contact_time", th(m(3e-3, 2500) / 2, 7.5e-4, es(70e9, 0.25, 70e9, 0.25), 2.0)),
    ),
    (
        "mass of a 4 mm steel ball in a glass jar",
        "particle_mass",
        dict(particle_diameter=4e-3, density=7850),
        ("particle_mass", m(4e-3, 7850)),
    ),
    (
        "how heavy is a 1 in steel ball",
        "particle_mass",
        dict(particle_diameter=INCH, density=7850),
        ("particle_mass", m(INCH, 7850)),
    ),
    (
        "particle mass for a 2 mm bead, rho 1.2 g/cc, in a steel box",
        "particle_mass",
        dict(particle_diameter=2e-3, density=1200),
        ("particle_mass", m(2e-3, 1200)),
    ),
    (
        "contact time for a steel ball of 10 mm radius on a glass plate at 0.5 m/s",
        "hertz_contact_time",
        dict(particle_radius=1e-2, wall=True, wall_youngs_modulus=70e9, **ST),
        ("contact_time", th(m(2e-2, 7850), 1e-2, es(210e9, 0.3, 70e9, 0.25), 0.5)),
    ),
    (
        "rayleigh step of glass beads radius 0.25 mm, E of the wall 200 GPa",
        "rayleigh_timestep",
        dict(particle_radius=2.5e-4, **GL),
        ("rayleigh_timestep", ray(2.5e-4, 2500, 70e9, 0.25)),
    ),
    (
        "effective E for 2 mm glass hitting a rubber plate E 10 MPa nu 0.45",
        "contact_pair",
        dict(
            particle_radius=1e-3,
            wall=True,
            wall_youngs_modulus=1e7,
            wall_poisson_ratio=0.45,
            **GL,
        ),
        ("effective_modulus", es(70e9, 0.25, 1e7, 0.45)),
    ),
    (
        "max overlap of 2 mm glass at 3 m/s against a 4 mm steel ball",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, other_radius=2e-3, other_youngs_modulus=210e9, **GL),
        (
            "max_overlap",
            ov(ms(m(2e-3, 2500), m(4e-3, 7850)), rs(1e-3, 2e-3), es(70e9, 0.25, 210e9, 0.3), 3.0),
        ),
    ),
    (
        "how many 5 mm pellets in a cylinder of radius 100 mm and height 300 mm",
        "estimate_particle_count",
        dict(container_shape="cylinder", diameter=0.2, height=0.3, particle_diameter=5e-3),
        ("particle_count", 0.6 * pi * 0.1**2 * 0.3 / (pi * 125e-9 / 6)),
    ),
    (
        "how many particles of 1 mm in a 10 cm cube",
        "estimate_particle_count",
        dict(container_shape="box", length=0.1, width=0.1, height=0.1, particle_diameter=1e-3),
        ("particle_count", 0.6 * 1e-3 / (pi * 1e-9 / 6)),
    ),
    (
        "number of 3 mm beads in a 500 mL beaker at 0.64 packing",
        "estimate_particle_count",
        dict(container_volume=5e-4, packing_fraction=0.64, particle_diameter=3e-3),
        ("particle_count", 0.64 * 5e-4 / (pi * 27e-9 / 6)),
    ),
    (
        "how many 5 mm balls in a pipe 50 mm diameter 1 m long",
        "estimate_particle_count",
        dict(container_shape="cylinder", diameter=0.05, height=1.0, particle_diameter=5e-3),
        ("particle_count", 0.6 * pi * 0.025**2 / (pi * 125e-9 / 6)),
    ),
    (
        "mass of 3 L of glass beads with bulk density 1.5 kg/L",
        "bulk_properties",
        dict(bulk_density=1500, volume=3e-3),
        ("mass", 4.5),
    ),
    (
        "solid fraction for a bulk density of 1400 kg/m3 glass beads",
        "bulk_properties",
        dict(bulk_density=1400, solid_density=2500),
        ("packing_fraction", 1400 / 2500),
    ),
    (
        "bond number of 100 um glass beads with surface tension of water 0.072 N/m",
        "cohesion_numbers",
        dict(particle_radius=5e-5, liquid_surface_tension=0.072, surface_energy=None, wall=False),
        ("bond_number_liquid_bridge", 4 * pi * 2.5e-5 * 0.072 / (m(1e-4, 2500) * G0)),
    ),
    (
        "jkr force for a 10 um particle and a flat surface with work of adhesion 0.1 J/m2",
        "cohesion_numbers",
        dict(particle_radius=5e-6, surface_energy=0.1, wall=True),
        ("pull_off_force_jkr", 1.5 * pi * 0.1 * 5e-6),
    ),
    (
        "cohesion number for 20 micron particles, surface energy 50 mJ/m2",
        "cohesion_numbers",
        dict(particle_radius=1e-5, surface_energy=0.05, wall=False, density=None),
        ("pull_off_force_jkr", 1.5 * pi * 0.05 * 5e-6),
    ),
    (
        "froude number of a 600 mm drum at 30 rpm with 2 mm glass beads",
        "flow_regime",
        dict(drum_radius=0.3, rotation_speed=30.0, shear_rate=None),
        ("froude_number", froude(30 * RPM, 0.3)),
    ),
    (
        "rotating drum 0.4 m radius 10 rpm 3 mm particles filling 30%",
        "flow_regime",
        dict(drum_radius=0.4, rotation_speed=10.0, filling_degree=0.3),
        ("froude_number", froude(10 * RPM, 0.4)),
    ),
    (
        "shear rate 50 s-1, d 1 mm, pressure 2 kPa, rho 2650: inertial number",
        "flow_regime",
        dict(shear_rate=50.0, particle_diameter=1e-3, pressure=2e3, density=2650),
        ("inertial_number", 50 * 1e-3 / math.sqrt(2e3 / 2650)),
    ),
    (
        "how long to empty 1 t of pellets (5 mm, bulk density 650) through a 200 mm orifice",
        "beverloo_discharge",
        dict(orifice_diameter=0.2, particle_diameter=5e-3, bulk_density=650, fill_mass=1000),
        ("discharge_time", 1000 / beverloo(650, 0.2, 5e-3)),
    ),
    (
        "discharge rate of 2 mm glass beads from a hopper with a 2 in opening, bulk density 1500",
        "beverloo_discharge",
        dict(orifice_diameter=2 * INCH, particle_diameter=2e-3, bulk_density=1500),
        ("mass_flow_rate", beverloo(1500, 2 * INCH, 2e-3)),
    ),
    (
        "size classes 0.5 mm and 1 mm by number 0.7 and 0.3: mass fractions",
        "polydisperse_counts",
        dict(diameters=[5e-4, 1e-3], number_fractions=[0.7, 0.3], mass_fractions=None),
        ("mass_fractions", [0.7 * 0.125 / (0.7 * 0.125 + 0.3), 0.3 / (0.7 * 0.125 + 0.3)]),
    ),
    (
        "polydisperse counts for 1, 2 and 4 mm glass beads, 20%, 30% and 50% by mass, total 3 kg",
        "polydisperse_counts",
        dict(diameters=[1e-3, 2e-3, 4e-3], mass_fractions=[0.2, 0.3, 0.5], total_mass=3.0),
        (
            "total_count",
            sum(3 * w / m(d, 2500) for w, d in ((0.2, 1e-3), (0.3, 2e-3), (0.5, 4e-3))),
        ),
    ),
    (
        "rolling resistance of 2 mm glass beads, mu_r 0.1, E 70 GPa, overlap 1 um, on a steel "
        "floor",
        "rolling_resistance",
        dict(rolling_friction=0.1, overlap=1e-6, wall=True, wall_youngs_modulus=210e9),
        ("normal_stiffness", 4 / 3 * es(70e9, 0.25, 210e9, 0.3) * math.sqrt(1e-3 * 1e-6)),
    ),
    (
        "how long will 5 s take at dt 1e-6 with 1e5 particles on 4 cores, throughput 2e6 "
        "particle-steps per core-second, efficiency 0.8",
        "simulation_cost",
        dict(duration=5.0, timestep=1e-6, n_particles=1e5, n_cores=4, parallel_efficiency=0.8),
        ("wall_time", 1e5 * 5e6 / (2e6 * 4 * 0.8)),
    ),
    (
        "linear spring for two 2 mm glass beads, stiffness 1e4 N/m, restitution 0.8",
        None,
        {},
        "effective_mass",
    ),
    (
        "max overlap 2 mm sand at 1 m/s, the wall is steel",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, wall=True, wall_youngs_modulus=210e9, overlap_limit=0.01),
        ("max_overlap", ov(m(2e-3, 2650), 1e-3, es(95e9, 0.08, 210e9, 0.3), 1.0)),
    ),
    (
        "overlap of 2 mm glass beads at 2 m/s, wall E 210 GPa nu 0.3",
        "hertz_max_overlap",
        dict(particle_radius=1e-3, wall=True, wall_youngs_modulus=210e9, wall_poisson_ratio=0.3),
        ("max_overlap", ov(m(2e-3, 2500), 1e-3, es(70e9, 0.25, 210e9, 0.3), 2.0)),
    ),
    (
        "terminal velocity of 500 um glass in water flowing at 0.2 m/s",
        "cfd_dem_numbers",
        dict(particle_diameter=5e-4, flow_velocity=0.2, slip_velocity=None, **WATER),
        ("archimedes_number", archimedes(5e-4, 2500, 998.2, 1.002e-3)),
    ),
    (
        "cfd-dem cell size for 0.5 mm glass beads in a 5 mm mesh, water",
        "cfd_dem_numbers",
        dict(particle_diameter=5e-4, cfd_cell_size=5e-3, particle_density=2500, **WATER),
        None,
    ),
    (
        "terminal velocity of a 3 mm water droplet in air",
        None,
        {},
        "fluid_density = 1.205",
    ),
    (
        "coarse grain 1 mm glass by 4, flow rate 2 kg/s",
        "coarse_graining",
        dict(scale_factor=4.0, particle_diameter=1e-3, damping_coefficient=None),
        ("parcel_diameter", 4e-3),
    ),
    (
        "neighbor cell size for a max radius of 2 mm and a skin of 10% of the diameter",
        "neighbor_cell_size",
        dict(max_particle_radius=2e-3, skin=1e-3),  # 10 % is no length: the default skin
        ("cell_size", 0.5 * (4e-3 + 1e-3)),
    ),
    ("rolling resistance 0.05, 3 mm glass, overlap 0.5% of radius", None, {}, "overlap"),
    (
        "liquid bridge force for 2 mm glass beads in water with contact angle 0 and 50 um gap",
        "cohesion_numbers",
        dict(particle_radius=1e-3, contact_angle=0.0, other_radius=None, wall=False),
        ("liquid_bridge_force", 4 * pi * 5e-4 * 0.0728),
    ),
    (
        "pull-off force of a 10 um glass bead on a glass plate with gamma = 0.04 J/m^2 each "
        "surface",
        "cohesion_numbers",
        dict(particle_radius=5e-6, surface_energy=0.04, surface_energy_per_surface=True, wall=True),
        ("pull_off_force_jkr", 1.5 * pi * 0.08 * 5e-6),
    ),
    (
        "inertial number for 1 mm glass in a drum, shear rate 10 1/s, pressure 1 kPa",
        "flow_regime",
        dict(shear_rate=10.0, pressure=1e3, particle_diameter=1e-3, drum_radius=None),
        ("inertial_number", 10 * 1e-3 / math.sqrt(1e3 / 2500)),
    ),
    (
        "simulation cost for 1 hour at dt 1e-5 s with 1e4 particles, 1e6 particle-steps per "
        "core-second, 2 cores",
        "simulation_cost",
        dict(duration=3600.0, timestep=1e-5, n_particles=1e4, throughput=1e6, n_cores=2),
        ("wall_time", 1e4 * 3.6e8 / (1e6 * 2)),
    ),
    (
        "drum rotating at 2 rad/s, diameter 1 m: froude number",
        "flow_regime",
        dict(drum_radius=0.5, rotation_speed=2 / RPM, particle_diameter=None),
        ("froude_number", froude(2.0, 0.5)),
    ),
]

REFUSED_BY_THE_TOOL: list[tuple[str, str, str]] = [
    # read as typed; the tool refuses a unit that does not say what turns
    (
        "froude number of a drum rotating at 2 Hz with radius 0.4 m",
        "flow_regime",
        'rotation_speed: "2 Hz" does not say what turns',
    ),
    (
        "froude number of a 0.8 m diameter drum at 2 Hz",
        "flow_regime",
        'rotation_speed: "2 Hz" does not say what turns',
    ),
    (
        "critical speed fraction of a drum of radius 0.5 m turning at 0.5 1/s",
        "flow_regime",
        'rotation_speed: "0.5 1/s" does not say what turns',
    ),
    (
        "contact stiffness for 2 mm glass at an overlap of 1 percent",
        "contact_pair",
        "overlap: expected a length",
    ),
]

FOLLOW_UPS: list[tuple[list[str], str, str, dict[str, Any], Any]] = [
    # (earlier requests, follow-up, tool, args, (result, value))
    (
        ["rayleigh time step for 1 mm glass beads"],
        "and for steel?",
        "rayleigh_timestep",
        dict(particle_radius=5e-4, **ST),
        ("rayleigh_timestep", ray(5e-4, 7850, 210e9, 0.3)),
    ),
    (
        ["rayleigh time step for 1 mm glass beads", "and for steel?"],
        "what about 3 mm?",
        "rayleigh_timestep",
        dict(particle_radius=1.5e-3, **ST),
        ("rayleigh_timestep", ray(1.5e-3, 7850, 210e9, 0.3)),
    ),
    (
        ["hertz contact time of 2 mm glass beads on a steel plate at 1 m/s"],
        "and at 5 m/s?",
        "hertz_contact_time",
        dict(particle_radius=1e-3, impact_velocity=5.0, wall=True, wall_youngs_modulus=210e9),
        ("contact_time", th(m(2e-3, 2500), 1e-3, es(70e9, 0.25, 210e9, 0.3), 5.0)),
    ),
    (
        ["froude number of a 1 m diameter drum at 15 rpm"],
        "and at 25 rpm?",
        "flow_regime",
        dict(drum_radius=0.5, rotation_speed=25.0),
        ("froude_number", froude(25 * RPM, 0.5)),
    ),
    (
        ["jkr pull-off force for 20 um glass particles, surface energy 0.05 J/m2"],
        "and with 0.1 J/m2?",
        "cohesion_numbers",
        dict(particle_radius=1e-5, surface_energy=0.1, wall=False),
        ("pull_off_force_jkr", 1.5 * pi * 0.1 * 5e-6),
    ),
    (
        ["terminal velocity of 1 mm glass in water"],
        "and in air?",
        "cfd_dem_numbers",
        dict(particle_diameter=1e-3, particle_density=2500, **AIR),
        ("archimedes_number", archimedes(1e-3, 2500, 1.205, 1.81e-5)),
    ),
    (
        ["hertz contact time for 2 mm glass beads at 1 m/s"],
        "and on a steel wall?",
        "hertz_contact_time",
        dict(particle_radius=1e-3, wall=True, wall_youngs_modulus=210e9, **GL),
        ("contact_time", th(m(2e-3, 2500), 1e-3, es(70e9, 0.25, 210e9, 0.3), 1.0)),
    ),
    (
        ["mass of a 2 mm glass bead"],
        "and 5 mm?",
        "particle_mass",
        dict(particle_diameter=5e-3, density=2500),
        ("particle_mass", m(5e-3, 2500)),
    ),
]


def _same(expected: Any, got: Any) -> bool:
    if expected is None:
        return got is None
    if isinstance(expected, bool | str):
        return bool(got == expected)
    if isinstance(expected, list):
        return isinstance(got, list) and got == pytest.approx(expected, rel=1e-9)
    return bool(got == pytest.approx(expected, rel=1e-9))


def _check(
    text: str, history: list[dict[str, Any]], tool: str | None, args: dict[str, Any], key: Any
) -> None:
    selection = select_text(text, history)
    if tool is None:
        assert selection.calls == [] and selection.reply
        assert key in selection.reply, selection.reply
        return
    assert [c.name for c in selection.calls] == [tool], selection.reply
    call = selection.calls[0]
    model, errors = validate(tool, call.args)
    assert model is not None, errors
    values = model.model_dump()
    wrong = {k: (v, values.get(k)) for k, v in args.items() if not _same(v, values.get(k))}
    assert not wrong, (wrong, call.arg_sources)
    assert set(call.arg_sources or {}) == set(call.args)  # every argument says where it came from
    outcome = execute(tool, call.args)
    assert outcome.ok, outcome.error_text()
    if key is not None:
        name, expected = key
        assert outcome.result is not None
        got = outcome.result[name]
        if isinstance(expected, list):
            assert got == pytest.approx(expected, rel=1e-3), (name, got, expected)
        else:
            assert got == pytest.approx(expected, rel=1e-3), (name, got, expected)


def test_at_least_a_hundred_queries_over_every_tool() -> None:
    from caec_desktop.tools import tool_names

    assert len(QUERIES) + len(REFUSED_BY_THE_TOOL) + len(FOLLOW_UPS) >= 100
    used = {q[1] for q in QUERIES + ROUND_TWO} | {q[1] for q in REFUSED_BY_THE_TOOL}
    used |= {f[2] for f in FOLLOW_UPS}
    assert set(tool_names()) <= used


@pytest.mark.parametrize(
    ("text", "tool", "args", "key"), QUERIES + ROUND_TWO, ids=[q[0] for q in QUERIES + ROUND_TWO]
)
def test_query(text: str, tool: str | None, args: dict[str, Any], key: Any) -> None:
    _check(text, [], tool, args, key)


@pytest.mark.parametrize(
    ("text", "tool", "message"), REFUSED_BY_THE_TOOL, ids=[q[0] for q in REFUSED_BY_THE_TOOL]
)
def test_refused_by_the_tool(text: str, tool: str, message: str) -> None:
    selection = select_text(text)
    assert [c.name for c in selection.calls] == [tool], selection.reply
    model, errors = validate(tool, selection.calls[0].args)
    assert model is None
    assert any(message in f"{e.field}: {e.message}" for e in errors), errors


@pytest.mark.parametrize(
    ("before", "text", "tool", "args", "key"), FOLLOW_UPS, ids=[f[1] for f in FOLLOW_UPS]
)
def test_follow_up(before: list[str], text: str, tool: str, args: dict[str, Any], key: Any) -> None:
    history = [{"role": "user", "content": b} for b in before]
    _check(text, history, tool, args, key)
