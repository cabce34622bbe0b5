"""A third blind query set for the offline reader: engineers' queries over all 25 tools, written
as different people type them (terse, chatty, spreadsheet-like, US customary, British spellings,
decimal commas, abbreviations, negations, two bodies, containers, follow-ups).

Each row was decided by hand before running the reader: the tool, every argument that matters
(in SI, `None` where the argument must be absent), and one result computed here from the formula
of docs/references.md, independently of the tools. A row whose text cannot be read exactly must
be refused or asked about (`REFUSED`), never computed with a wrong value.

Material and fluid values are the handbook values of docs/materials (tools/materials.py,
tools/fluids.py) written out here, so a changed preset shows up as a failing row.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute, validate

PI, G0 = math.pi, 9.80665
GLASS = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}
STEEL = {"density": 7850.0, "youngs_modulus": 210e9, "poisson_ratio": 0.30}
SAND = {"density": 2650.0, "youngs_modulus": 95e9, "poisson_ratio": 0.08}
ALUMINA = {"density": 3900.0, "youngs_modulus": 370e9, "poisson_ratio": 0.22}
NYLON = {"density": 1140.0, "youngs_modulus": 2.5e9, "poisson_ratio": 0.39}
LIMESTONE = {"density": 2700.0, "youngs_modulus": 50e9, "poisson_ratio": 0.25}
WATER = {"fluid_density": 998.2, "fluid_viscosity": 1.002e-3}
WATER_TENSION = 0.0728
AIR = {"fluid_density": 1.205, "fluid_viscosity": 1.81e-5}
INCH, FOOT, LBF, PSI = 0.0254, 0.3048, 4.4482216152605, 6894.757293168
POUND = 0.45359237


def shear(e: float, nu: float) -> float:
    return e / (2 * (1 + nu))


def rayleigh(r: float, rho: float, e: float, nu: float) -> float:
    """dt_R = π R √(ρ/G) / (0.1631 ν + 0.8766) (docs/references.md §1)."""
    return PI * r * math.sqrt(rho / shear(e, nu)) / (0.1631 * nu + 0.8766)


def rayleigh_m(r: float, m: dict[str, float]) -> float:
    return rayleigh(r, m["density"], m["youngs_modulus"], m["poisson_ratio"])


def pwave(r: float, rho: float, e: float) -> float:
    """dt_p = R √(ρ/E) (Yade PWaveTimeStep)."""
    return r * math.sqrt(rho / e)


def sphere_mass(d: float, rho: float) -> float:
    return rho * PI * d**3 / 6


def e_star(e1: float, n1: float, e2: float, n2: float) -> float:
    return 1 / ((1 - n1**2) / e1 + (1 - n2**2) / e2)


def hertz_time(m_eff: float, r_eff: float, es: float, v: float) -> float:
    """t_H = 2.868 (m*² / (R* E*² v))^(1/5)."""
    return 2.868 * (m_eff**2 / (r_eff * es**2 * v)) ** 0.2


def hertz_overlap(m_eff: float, r_eff: float, es: float, v: float) -> float:
    """δ_max = (15 m* v² / (16 E* √R*))^(2/5)."""
    return (15 * m_eff * v**2 / (16 * es * math.sqrt(r_eff))) ** 0.4


def pair(r1: float, m1: dict[str, float], r2: float, m2: dict[str, float]) -> tuple[float, ...]:
    """R*, m*, E* of two spheres."""
    ma, mb = sphere_mass(2 * r1, m1["density"]), sphere_mass(2 * r2, m2["density"])
    es = e_star(
        m1["youngs_modulus"], m1["poisson_ratio"], m2["youngs_modulus"], m2["poisson_ratio"]
    )
    return r1 * r2 / (r1 + r2), ma * mb / (ma + mb), es


def wall_pair(r: float, m: dict[str, float], wall: dict[str, float]) -> tuple[float, ...]:
    es = e_star(
        m["youngs_modulus"], m["poisson_ratio"], wall["youngs_modulus"], wall["poisson_ratio"]
    )
    return r, sphere_mass(2 * r, m["density"]), es


def zeta(e: float) -> float:
    """ζ = −ln e / √(π² + ln² e)."""
    return -math.log(e) / math.sqrt(PI**2 + math.log(e) ** 2)


def spring_time(k: float, m: float, e: float) -> float:
    """t_c = √(m/k) √(π² + ln² e)."""
    return math.sqrt(m / k) * math.sqrt(PI**2 + math.log(e) ** 2)


def spring_k(tc: float, m: float, e: float) -> float:
    """k = m (π² + ln² e) / t_c² (the inverse of `spring_time`)."""
    return m * (PI**2 + math.log(e) ** 2) / tc**2


def hertz_p0(force: float, r_eff: float, es: float) -> float:
    """p0 = 3F/(2πa²), a = (3 F R* / (4 E*))^(1/3)."""
    a = (3 * force * r_eff / (4 * es)) ** (1 / 3)
    return 3 * force / (2 * PI * a**2)


def archimedes(d: float, rho_p: float, rho_f: float, mu: float) -> float:
    return rho_f * (rho_p - rho_f) * G0 * d**3 / mu**2


def beverloo(d0: float, d: float, rho_b: float, c: float = 0.58, k: float = 1.5) -> float:
    """W = C ρ_b √g (D0 − k d)^(5/2)."""
    return c * rho_b * math.sqrt(G0) * (d0 - k * d) ** 2.5


def count(volume: float, d: float, phi: float = 0.6) -> float:
    return phi * volume / (PI * d**3 / 6)


G_ = GLASS
R_GLASS_STEEL_WALL = wall_pair(1e-3, GLASS, STEEL)

Row = tuple[str, str, dict[str, Any], tuple[str, float] | None]

QUERIES: list[Row] = [
    # --- rayleigh_timestep
    (
        "dt rayleigh 2mm glass",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "Rayleigh time step for steel shot, d = 0.8 mm",
        "rayleigh_timestep",
        {"particle_radius": 0.4e-3, **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.4e-3, STEEL)),
    ),
    (
        "rayleigh dt: E=2e11, nu=.3, rho 7.8 g/cm3, d=3mm",
        "rayleigh_timestep",
        {
            "particle_radius": 1.5e-3,
            "density": 7800.0,
            "youngs_modulus": 2e11,
            "poisson_ratio": 0.3,
        },
        ("rayleigh_timestep", rayleigh(1.5e-3, 7800, 2e11, 0.3)),
    ),
    (
        "rayleigh time step for 0.1 mm particles, Ymod 5e7 Pa, PR 0.3, density 2650",
        "rayleigh_timestep",
        {
            "particle_radius": 0.05e-3,
            "density": 2650.0,
            "youngs_modulus": 5e7,
            "poisson_ratio": 0.3,
        },
        ("rayleigh_timestep", rayleigh(0.05e-3, 2650, 5e7, 0.3)),
    ),
    (
        "rayleigh for sand, r = 150 micron, E = 70 GPa",
        "rayleigh_timestep",
        {
            "particle_radius": 150e-6,
            "density": 2650.0,
            "youngs_modulus": 70e9,
            "poisson_ratio": 0.08,
        },
        ("rayleigh_timestep", rayleigh(150e-6, 2650, 70e9, 0.08)),
    ),
    (
        "rayleigh time step for 1 mm steel balls in a glass column",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.5e-3, STEEL)),
    ),
    (
        "Rayleigh time step: particles 2 mm, density 2500 kg/m3, G = 28 GPa, nu 0.25",
        "rayleigh_timestep",
        {
            "particle_radius": 1e-3,
            "density": 2500.0,
            "shear_modulus": 28e9,
            "youngs_modulus": None,
            "poisson_ratio": 0.25,
        },
        ("rayleigh_timestep", PI * 1e-3 * math.sqrt(2500 / 28e9) / (0.1631 * 0.25 + 0.8766)),
    ),
    (
        "rayleigh time step, 2 mm glass beads, use 10% of it",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, "fraction": 0.1, **GLASS},
        ("recommended_timestep", 0.1 * rayleigh_m(1e-3, GLASS)),
    ),
    (
        "rayleigh dt, 1 mm glass, density 150 lb/ft3",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, "density": 150 * POUND / FOOT**3},
        ("rayleigh_timestep", rayleigh(0.5e-3, 150 * POUND / FOOT**3, 70e9, 0.25)),
    ),
    (
        "critical time step for glass, not steel, 1 mm diameter",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(0.5e-3, GLASS)),
    ),
    (
        "rayleigh | r 1mm | rho 2500 | E 70e9 | nu .25",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "dt rayleigh for particles of at least 0.5 mm, glass",
        "rayleigh_timestep",
        {"particle_radius": 0.25e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(0.25e-3, GLASS)),
    ),
    (
        "I need the Rayleigh step for my 3 mm alumina grinding media",
        "rayleigh_timestep",
        {"particle_radius": 1.5e-3, **ALUMINA},
        ("rayleigh_timestep", rayleigh_m(1.5e-3, ALUMINA)),
    ),
    (
        "Rayleigh time step for 2 mm glass beads on a steel plate",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    # --- pwave_timestep
    (
        "p-wave dt for radius 0.5 mm steel",
        "pwave_timestep",
        {"particle_radius": 0.5e-3, "density": 7850.0, "youngs_modulus": 210e9},
        ("pwave_timestep", pwave(0.5e-3, 7850, 210e9)),
    ),
    (
        "Yade PWaveTimeStep, 3 mm dia limestone",
        "pwave_timestep",
        {"particle_radius": 1.5e-3, "density": 2700.0, "youngs_modulus": 50e9},
        ("pwave_timestep", pwave(1.5e-3, 2700, 50e9)),
    ),
    (
        "pwave timestep, radius 20 um, E 1 GPa, rho 1.2 t/m3",
        "pwave_timestep",
        {"particle_radius": 20e-6, "density": 1200.0, "youngs_modulus": 1e9},
        ("pwave_timestep", pwave(20e-6, 1200, 1e9)),
    ),
    (
        "pwave time step, 0.1 in steel shot",
        "pwave_timestep",
        {"particle_radius": 0.05 * INCH, "density": 7850.0, "youngs_modulus": 210e9},
        ("pwave_timestep", pwave(0.05 * INCH, 7850, 210e9)),
    ),
    # --- check_timestep_heuristic
    (
        "Is a 5 us step too big for 0.5 mm sand?",
        "check_timestep_heuristic",
        {"particle_radius": 0.25e-3, "timestep": 5e-6, **SAND},
        ("rayleigh_fraction", 5e-6 / rayleigh_m(0.25e-3, SAND)),
    ),
    (
        "check dt=1e-6 s for 2 mm glass hitting at 3 m/s",
        "check_timestep_heuristic",
        {"particle_radius": 1e-3, "timestep": 1e-6, "impact_velocity": 3.0, **GLASS},
        ("rayleigh_fraction", 1e-6 / rayleigh_m(1e-3, GLASS)),
    ),
    (
        "Is dt=1 us ok for 3 mm alumina balls dropped onto a steel plate at 2 m/s?",
        "check_timestep_heuristic",
        {"particle_radius": 1.5e-3, "timestep": 1e-6, "impact_velocity": 2.0, **ALUMINA},
        ("rayleigh_fraction", 1e-6 / rayleigh_m(1.5e-3, ALUMINA)),
    ),
    (
        "my dt is 2e-7 s with 1mm steel balls, is that stable?",
        "check_timestep_heuristic",
        {"particle_radius": 0.5e-3, "timestep": 2e-7, **STEEL},
        ("rayleigh_fraction", 2e-7 / rayleigh_m(0.5e-3, STEEL)),
    ),
    # --- hertz_contact_time
    (
        "How long does a collision last between two 5 mm steel balls at 0.5 m/s?",
        "hertz_contact_time",
        {"particle_radius": 2.5e-3, "impact_velocity": 0.5, "other_radius": None, **STEEL},
        (
            "contact_time",
            hertz_time(
                pair(2.5e-3, STEEL, 2.5e-3, STEEL)[1],
                1.25e-3,
                pair(2.5e-3, STEEL, 2.5e-3, STEEL)[2],
                0.5,
            ),
        ),
    ),
    (
        "contact duration of a 2 mm glass bead hitting a steel wall at 1 m/s",
        "hertz_contact_time",
        {
            "particle_radius": 1e-3,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "wall_poisson_ratio": 0.3,
            **GLASS,
        },
        ("contact_time", hertz_time(R_GLASS_STEEL_WALL[1], 1e-3, R_GLASS_STEEL_WALL[2], 1.0)),
    ),
    (
        "hertz time: 1 mm bead hitting a 10 mm ball, both glass, 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.5e-3, "other_radius": 5e-3, "impact_velocity": 1.0, **GLASS},
        (
            "contact_time",
            hertz_time(
                pair(0.5e-3, G_, 5e-3, G_)[1],
                pair(0.5e-3, G_, 5e-3, G_)[0],
                pair(0.5e-3, G_, 5e-3, G_)[2],
                1.0,
            ),
        ),
    ),
    (
        "Hertz contact time for 2 mm nylon pellets impacting at 5 ft/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "impact_velocity": 5 * FOOT, **NYLON},
        (
            "contact_time",
            hertz_time(
                pair(1e-3, NYLON, 1e-3, NYLON)[1],
                0.5e-3,
                pair(1e-3, NYLON, 1e-3, NYLON)[2],
                5 * FOOT,
            ),
        ),
    ),
    (
        "hertz contact time, sphere r=2mm, density 2500, E=70 GPa, nu=0.25 on a flat steel plate, "
        "1 m/s",
        "hertz_contact_time",
        {"particle_radius": 2e-3, "wall": True, "wall_youngs_modulus": 210e9, **GLASS},
        (
            "contact_time",
            hertz_time(
                wall_pair(2e-3, GLASS, STEEL)[1], 2e-3, wall_pair(2e-3, GLASS, STEEL)[2], 1.0
            ),
        ),
    ),
    (
        "hertz contact time for 2 mm glass beads in a 100 mm glass drum at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "other_radius": None, "wall": None, **GLASS},
        (
            "contact_time",
            hertz_time(pair(1e-3, G_, 1e-3, G_)[1], 0.5e-3, pair(1e-3, G_, 1e-3, G_)[2], 1.0),
        ),
    ),
    # --- hertz_max_overlap
    (
        "peak overlap, 4 mm steel ball on a glass plate, 3 m/s",
        "hertz_max_overlap",
        {"particle_radius": 2e-3, "wall": True, "wall_youngs_modulus": 70e9, **STEEL},
        (
            "max_overlap",
            hertz_overlap(sphere_mass(4e-3, 7850), 2e-3, e_star(210e9, 0.3, 70e9, 0.25), 3.0),
        ),
    ),
    (
        "how much overlap do 1 mm sand grains get at 10 m/s with E reduced to 10 MPa",
        "hertz_max_overlap",
        {
            "particle_radius": 0.5e-3,
            "youngs_modulus": 1e7,
            "density": 2650.0,
            "impact_velocity": 10.0,
        },
        (
            "max_overlap",
            hertz_overlap(sphere_mass(1e-3, 2650) / 2, 0.25e-3, 1e7 / (2 * (1 - 0.08**2)), 10.0),
        ),
    ),
    (
        "max overlap: steel r=2 mm hitting glass r=1 mm at 1 m/s",
        "hertz_max_overlap",
        {
            "particle_radius": 2e-3,
            "other_radius": 1e-3,
            "other_density": 2500.0,
            "other_youngs_modulus": 70e9,
            **STEEL,
        },
        (
            "max_overlap",
            hertz_overlap(
                pair(2e-3, STEEL, 1e-3, G_)[1],
                pair(2e-3, STEEL, 1e-3, G_)[0],
                pair(2e-3, STEEL, 1e-3, G_)[2],
                1.0,
            ),
        ),
    ),
    (
        "overlap ok? 2mm glass, 1 m/s, dt 1e-6 s",
        "hertz_max_overlap",
        {"particle_radius": 1e-3, "impact_velocity": 1.0, "timestep": 1e-6, **GLASS},
        (
            "max_overlap",
            hertz_overlap(pair(1e-3, G_, 1e-3, G_)[1], 0.5e-3, pair(1e-3, G_, 1e-3, G_)[2], 1.0),
        ),
    ),
    # --- contact_pair
    (
        "effective radius and E* of 3 mm alumina and 1 mm glass spheres",
        "contact_pair",
        {"particle_radius": 1.5e-3, "other_radius": 0.5e-3, **ALUMINA, "other_density": 2500.0},
        ("effective_modulus", e_star(370e9, 0.22, 70e9, 0.25)),
    ),
    (
        "Hertz normal stiffness at 1 um overlap for two 2 mm glass beads",
        "contact_pair",
        {"particle_radius": 1e-3, "overlap": 1e-6, "other_radius": None, **GLASS},
        ("normal_stiffness_tangent", 2 * (70e9 / (2 * (1 - 0.25**2))) * math.sqrt(0.5e-3 * 1e-6)),
    ),
    (
        "kt/kn for steel on steel, r = 1 mm",
        "contact_pair",
        {"particle_radius": 1e-3, **STEEL},
        ("stiffness_ratio", 2 * (1 - 0.3) / (2 - 0.3)),
    ),
    (
        "effective mass of a 2 mm steel ball and a 2 mm glass bead",
        "contact_pair",
        {"particle_radius": 1e-3, "other_radius": 1e-3, **STEEL, "other_density": 2500.0},
        ("effective_mass", pair(1e-3, STEEL, 1e-3, G_)[1]),
    ),
    # --- contact_stress_check
    (
        "will 2 mm alumina balls crack under a 50 N load? yield 2 GPa, safety factor 2",
        "contact_stress_check",
        {
            "normal_force": 50.0,
            "particle_radius": 1e-3,
            "yield_stress": 2e9,
            "safety_factor": 2.0,
            "youngs_modulus": 370e9,
            "poisson_ratio": 0.22,
        },
        ("max_contact_pressure", hertz_p0(50, 0.5e-3, 370e9 / (2 * (1 - 0.22**2)))),
    ),
    (
        "contact stress of a 10 mm steel ball pressed onto a glass plate with 100 N, "
        "sigma_y 1.5 GPa, FoS 1.2",
        "contact_stress_check",
        {
            "normal_force": 100.0,
            "particle_radius": 5e-3,
            "wall": True,
            "wall_youngs_modulus": 70e9,
            "youngs_modulus": 210e9,
            "yield_stress": 1.5e9,
            "safety_factor": 1.2,
        },
        ("max_contact_pressure", hertz_p0(100, 5e-3, e_star(210e9, 0.3, 70e9, 0.25))),
    ),
    (
        "peak Hertz pressure: 1 lbf on 0.25 in diameter steel balls, yield 200 ksi, SF 1.5",
        "contact_stress_check",
        {
            "normal_force": LBF,
            "particle_radius": 0.125 * INCH,
            "yield_stress": 200e3 * PSI,
            "safety_factor": 1.5,
            "youngs_modulus": 210e9,
        },
        ("max_contact_pressure", hertz_p0(LBF, 0.0625 * INCH, 210e9 / (2 * (1 - 0.09)))),
    ),
    # --- restitution_to_damping
    (
        "damping ratio for CoR 0.6",
        "restitution_to_damping",
        {"restitution": 0.6},
        ("damping_ratio", zeta(0.6)),
    ),
    (
        "damping for e=0.5",
        "restitution_to_damping",
        {"restitution": 0.5},
        ("damping_ratio", zeta(0.5)),
    ),
    (
        "COR = 85% -> damping ratio?",
        "restitution_to_damping",
        {"restitution": 0.85},
        ("damping_ratio", zeta(0.85)),
    ),
    (
        "restitution 5e-1, damping ratio please",
        "restitution_to_damping",
        {"restitution": 0.5},
        ("damping_ratio", zeta(0.5)),
    ),
    # --- linear_spring_contact
    (
        "Hooke contact: stiffness 5e4 N/m, effective mass 2 mg, COR 0.9",
        "linear_spring_contact",
        {"stiffness": 5e4, "effective_mass": 2e-6, "restitution": 0.9, "collision_time": None},
        ("collision_time", spring_time(5e4, 2e-6, 0.9)),
    ),
    (
        "spring-dashpot, collision time 10 us, m_eff = 1e-5 kg, e=0.5, what k?",
        "linear_spring_contact",
        {"collision_time": 1e-5, "effective_mass": 1e-5, "restitution": 0.5, "stiffness": None},
        ("stiffness", spring_k(1e-5, 1e-5, 0.5)),
    ),
    (
        "linear spring: kn 1 kN/mm, meff 0.5 g, en 0.7",
        "linear_spring_contact",
        {"stiffness": 1e6, "effective_mass": 0.5e-3, "restitution": 0.7},
        ("collision_time", spring_time(1e6, 0.5e-3, 0.7)),
    ),
    # --- rolling_resistance
    (
        "EPSD rolling resistance, mu_r 0.05, kn 2e5 N/m, particle radius 3 mm",
        "rolling_resistance",
        {"rolling_friction": 0.05, "normal_stiffness": 2e5, "particle_radius": 3e-3},
        ("rolling_stiffness", 2.25 * 2e5 * 0.05**2 * 1.5e-3**2),
    ),
    (
        "rolling friction 0.2 for 1 mm steel balls on a steel wall, kn 1e5 N/m",
        "rolling_resistance",
        {"rolling_friction": 0.2, "particle_radius": 0.5e-3, "wall": True, "normal_stiffness": 1e5},
        ("rolling_stiffness", 2.25 * 1e5 * 0.2**2 * 0.5e-3**2),
    ),
    # --- cohesion_numbers
    (
        "pull-off force of 10 micron alumina particles, work of adhesion 0.1 J/m^2",
        "cohesion_numbers",
        {
            "particle_radius": 5e-6,
            "surface_energy": 0.1,
            "surface_energy_per_surface": None,
            "wall": None,
        },
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * 2.5e-6),
    ),
    (
        "DMT force, 5 um particles on a wall, gamma_s = 0.04 J/m2 per surface",
        "cohesion_numbers",
        {
            "particle_radius": 2.5e-6,
            "wall": True,
            "surface_energy": 0.04,
            "surface_energy_per_surface": True,
        },
        ("pull_off_force_dmt", 2 * PI * 0.08 * 2.5e-6),
    ),
    (
        "surface energy 25 mJ/m2, 50 um glass, Bond number?",
        "cohesion_numbers",
        {"particle_radius": 25e-6, "surface_energy": 0.025, "wall": None, "density": 2500.0},
        ("pull_off_force_jkr", 1.5 * PI * 0.025 * 12.5e-6),
    ),
    (
        "liquid bridge force between two 1 mm glass beads in water, contact angle 20 deg",
        "cohesion_numbers",
        {
            "particle_radius": 0.5e-3,
            "liquid_surface_tension": WATER_TENSION,
            "contact_angle": 20.0,
            "wall": None,
        },
        ("liquid_bridge_force", 4 * PI * 0.25e-3 * WATER_TENSION * math.cos(math.radians(20))),
    ),
    (
        "cohesion: 100 um particle and a 1 mm particle, surface energy 0.1 J/m2",
        "cohesion_numbers",
        {"particle_radius": 50e-6, "other_radius": 0.5e-3, "surface_energy": 0.1},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * (50e-6 * 0.5e-3 / (50e-6 + 0.5e-3))),
    ),
    (
        "what surface energy gives a Bond number of 10 for 30 um limestone",
        "cohesion_numbers",
        {"particle_radius": 15e-6, "target_bond_number": 10.0, "density": 2700.0},
        ("surface_energy_for_target_jkr", 10 * sphere_mass(30e-6, 2700) * G0 / (1.5 * PI * 7.5e-6)),
    ),
    (
        "cohesion numbers for 20 um glass particles in a 50 mm glass column, surface energy "
        "0.05 J/m2",
        "cohesion_numbers",
        {"particle_radius": 10e-6, "other_radius": None, "wall": None, "surface_energy": 0.05},
        ("pull_off_force_jkr", 1.5 * PI * 0.05 * 5e-6),
    ),
    # --- cfd_dem_numbers
    (
        "settling velocity, 0.5 mm sand in water",
        "cfd_dem_numbers",
        {"particle_diameter": 0.5e-3, "particle_density": 2650.0, **WATER},
        ("archimedes_number", archimedes(0.5e-3, 2650, 998.2, 1.002e-3)),
    ),
    (
        "Stokes number for 50 um alumina in air, flow at 10 m/s, L = 5 cm",
        "cfd_dem_numbers",
        {
            "particle_diameter": 50e-6,
            "particle_density": 3900.0,
            "flow_velocity": 10.0,
            "characteristic_length": 0.05,
            **AIR,
        },
        ("archimedes_number", archimedes(50e-6, 3900, 1.205, 1.81e-5)),
    ),
    (
        "CFD cell size 2 mm ok for 0.5 mm glass particles in air?",
        "cfd_dem_numbers",
        {"particle_diameter": 0.5e-3, "cfd_cell_size": 2e-3, **AIR},
        ("cell_to_diameter", 4.0),
    ),
    (
        "Archimedes number: particle 3 mm, density 1100 kg/m3, fluid density 1000 kg/m3, "
        "viscosity 1 cP",
        "cfd_dem_numbers",
        {
            "particle_diameter": 3e-3,
            "particle_density": 1100.0,
            "fluid_density": 1000.0,
            "fluid_viscosity": 1e-3,
        },
        ("archimedes_number", archimedes(3e-3, 1100, 1000, 1e-3)),
    ),
    (
        "particle reynolds number of 2 mm steel balls in water, slip velocity 0.1 m/s",
        "cfd_dem_numbers",
        {"particle_diameter": 2e-3, "slip_velocity": 0.1, "particle_density": 7850.0, **WATER},
        ("particle_reynolds", 998.2 * 0.1 * 2e-3 / 1.002e-3),
    ),
    # --- particle_mass
    (
        "how heavy is one 0.375 in steel ball?",
        "particle_mass",
        {"particle_diameter": 0.375 * INCH, "density": 7850.0},
        ("particle_mass", sphere_mass(0.375 * INCH, 7850)),
    ),
    (
        "weight of a single 5 mm glass marble",
        "particle_mass",
        {"particle_diameter": 5e-3, "density": 2500.0},
        ("particle_mass", sphere_mass(5e-3, 2500)),
    ),
    (
        "particle mass: d=1 mm, rho 1.2 g/cm3",
        "particle_mass",
        {"particle_diameter": 1e-3, "density": 1200.0},
        ("particle_mass", sphere_mass(1e-3, 1200)),
    ),
    (
        "mass of each bead: 4 mm, 2500 kg/m³",
        "particle_mass",
        {"particle_diameter": 4e-3, "density": 2500.0},
        ("particle_mass", sphere_mass(4e-3, 2500)),
    ),
    (
        "mass of a 2 mm steel ball in a glass tube",
        "particle_mass",
        {"particle_diameter": 2e-3, "density": 7850.0},
        ("particle_mass", sphere_mass(2e-3, 7850)),
    ),
    (
        "mass of a 1 mm radius sand grain",
        "particle_mass",
        {"particle_diameter": 2e-3, "density": 2650.0},
        ("particle_mass", sphere_mass(2e-3, 2650)),
    ),
    # --- estimate_particle_count
    (
        "how many 3 mm beads fit in a 0.5 x 0.3 x 0.2 m box at 62 % packing",
        "estimate_particle_count",
        {
            "container_shape": "box",
            "length": 0.5,
            "width": 0.3,
            "height": 0.2,
            "particle_diameter": 3e-3,
            "packing_fraction": 0.62,
        },
        ("particle_count", math.floor(count(0.03, 3e-3, 0.62))),
    ),
    (
        "number of 1 mm glass beads in a 50 mm diameter tube, 300 mm long",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.05, "height": 0.3, "particle_diameter": 1e-3},
        ("particle_count", math.floor(count(PI / 4 * 0.05**2 * 0.3, 1e-3))),
    ),
    (
        "How many 6 mm pellets in 2 L?",
        "estimate_particle_count",
        {"container_shape": "volume", "container_volume": 2e-3, "particle_diameter": 6e-3},
        ("particle_count", math.floor(count(2e-3, 6e-3))),
    ),
    (
        "particle count for 5 mm pellets in a 2 metre tall, 1 metre diameter cylinder",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 1.0, "height": 2.0, "particle_diameter": 5e-3},
        ("particle_count", math.floor(count(PI / 4 * 2, 5e-3))),
    ),
    (
        "how many 10 mm balls fit in a drum 1 m in diameter and 2 m long, phi=0.58",
        "estimate_particle_count",
        {
            "container_shape": "cylinder",
            "diameter": 1.0,
            "height": 2.0,
            "particle_diameter": 10e-3,
            "packing_fraction": 0.58,
        },
        ("particle_count", math.floor(count(PI / 4 * 2, 10e-3, 0.58))),
    ),
    # --- bulk_properties
    (
        "porosity 0.4, glass beads, what's the bulk density",
        "bulk_properties",
        {"porosity": 0.4, "solid_density": 2500.0, "packing_fraction": None},
        ("bulk_density", 1500.0),
    ),
    (
        "mass of 2 m3 of sand at packing fraction 0.6",
        "bulk_properties",
        {"volume": 2.0, "packing_fraction": 0.6, "solid_density": 2650.0},
        ("mass", 2 * 0.6 * 2650),
    ),
    (
        "void ratio for bulk density 1.6 t/m3, solid density 2.65 g/cm3",
        "bulk_properties",
        {"bulk_density": 1600.0, "solid_density": 2650.0},
        ("void_ratio", (1 - 1600 / 2650) / (1600 / 2650)),
    ),
    # --- polydisperse_counts
    (
        "size classes 0.5, 1 and 2 mm with number fractions 0.5, 0.3, 0.2 - mass fractions?",
        "polydisperse_counts",
        {
            "diameters": [0.5e-3, 1e-3, 2e-3],
            "number_fractions": [0.5, 0.3, 0.2],
            "mass_fractions": None,
        },
        None,
    ),
    (
        "PSD: 1 mm 30%, 2 mm 70% by mass, total 5 kg of steel, how many particles of each?",
        "polydisperse_counts",
        {
            "diameters": [1e-3, 2e-3],
            "mass_fractions": [0.3, 0.7],
            "total_mass": 5.0,
            "density": 7850.0,
        },
        None,
    ),
    # --- wall_effect_porosity
    (
        "porosity in a 2 in column packed with 3 mm glass beads",
        "wall_effect_porosity",
        {"container_diameter": 2 * INCH, "particle_diameter": 3e-3},
        ("diameter_ratio", 2 * INCH / 3e-3),
    ),
    (
        "mean porosity of 10 mm pellets in a 100 mm ID tube, sphericity 0.9",
        "wall_effect_porosity",
        {"container_diameter": 0.1, "particle_diameter": 0.01, "sphericity": 0.9},
        ("diameter_ratio", 10.0),
    ),
    # --- flow_regime
    (
        "inertial number for shear rate 50 1/s, d = 1 mm, pressure 1 kPa, glass",
        "flow_regime",
        {"shear_rate": 50.0, "particle_diameter": 1e-3, "pressure": 1e3, "density": 2500.0},
        ("inertial_number", 50 * 1e-3 / math.sqrt(1e3 / 2500)),
    ),
    (
        "Froude number: 1.2 m diameter drum at 15 rpm",
        "flow_regime",
        {"drum_radius": 0.6, "particle_diameter": None},
        ("froude_number", (15 * 2 * PI / 60) ** 2 * 0.6 / G0),
    ),
    (
        "critical speed of a kiln with 2 m ID",
        "flow_regime",
        {"drum_radius": 1.0},
        ("critical_speed", 60 / (2 * PI) * math.sqrt(G0 / 1.0)),
    ),
    (
        "rotating drum 300 mm diameter, 3 mm glass beads, 30 rpm - regime?",
        "flow_regime",
        {"drum_radius": 0.15},
        ("froude_number", (30 * 2 * PI / 60) ** 2 * 0.15 / G0),
    ),
    # --- beverloo_discharge
    (
        "Silo discharge through a 100 mm outlet, 5 mm pellets, bulk 700 kg/m3, silo diameter 1 m",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.1,
            "particle_diameter": 5e-3,
            "bulk_density": 700.0,
            "silo_diameter": 1.0,
        },
        ("mass_flow_rate", beverloo(0.1, 5e-3, 700)),
    ),
    (
        "mass flow out of a hopper: orifice 4 in, particles 3 mm, rho_b 1.5 g/cm3",
        "beverloo_discharge",
        {"orifice_diameter": 4 * INCH, "particle_diameter": 3e-3, "bulk_density": 1500.0},
        ("mass_flow_rate", beverloo(4 * INCH, 3e-3, 1500)),
    ),
    (
        "beverloo: D0=80 mm, d=2 mm, bulk density 1600 kg/m3, C=0.6, k=1.4",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.08,
            "particle_diameter": 2e-3,
            "bulk_density": 1600.0,
            "discharge_coefficient": 0.6,
            "shape_coefficient": 1.4,
        },
        ("mass_flow_rate", beverloo(0.08, 2e-3, 1600, 0.6, 1.4)),
    ),
    (
        "how long to empty a silo holding 2 t of 1 mm sand, outlet 60 mm, bulk density 1550 kg/m3",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.06,
            "particle_diameter": 1e-3,
            "bulk_density": 1550.0,
            "fill_mass": 2000.0,
        },
        ("discharge_time", 2000 / beverloo(0.06, 1e-3, 1550)),
    ),
    # --- timesteps_for_duration
    # both tools count steps as ceil(T/dt); the cost tool is the one this phrasing picks
    (
        "number of time steps to simulate 2 minutes at dt = 5 us",
        "simulation_cost",
        {"duration": 120.0, "timestep": 5e-6},
        ("time_steps", 24_000_000),
    ),
    (
        "iterations needed: 0.5 s simulated with a 1e-6 s step",
        "timesteps_for_duration",
        {"duration": 0.5, "timestep": 1e-6},
        ("steps", 500_000),
    ),
    # --- simulation_cost
    (
        "cost of a run: 2e5 particles, 3 s, dt 1e-6 s, throughput 2e6 particle-steps per "
        "core-second on 8 cores",
        "simulation_cost",
        {"n_particles": 2e5, "duration": 3.0, "timestep": 1e-6, "throughput": 2e6, "n_cores": 8},
        ("core_hours", 2e5 * 3e6 / 2e6 / 3600),
    ),
    (
        "insertion rate for 2 kg/s of 1 mm glass beads",
        "simulation_cost",
        {"mass_flow_rate": 2.0, "particle_diameter": 1e-3, "density": 2500.0},
        ("insertion_rate", 2.0 / sphere_mass(1e-3, 2500)),
    ),
    (
        "insertion rate, 5 t/h of 3 mm sand",
        "simulation_cost",
        {"mass_flow_rate": 5000 / 3600, "particle_diameter": 3e-3, "density": 2650.0},
        ("insertion_rate", 5000 / 3600 / sphere_mass(3e-3, 2650)),
    ),
    # --- coarse_graining
    (
        "coarse graining: 1e9 particles of 0.2 mm into 1e6 parcels",
        "coarse_graining",
        {"n_particles": 1e9, "n_parcels": 1e6, "particle_diameter": 0.2e-3},
        ("scale_factor", 10.0),
    ),
    (
        "CG factor 3 for 1 mm glass beads, k = 1e4 N/m",
        "coarse_graining",
        {"scale_factor": 3.0, "particle_diameter": 1e-3, "stiffness": 1e4},
        ("stiffness_parcel", 3e4),
    ),
    # --- neighbor_cell_size
    (
        "LIGGGHTS bin size, largest radius 1.5 mm, skin 0.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3, "skin": 0.5e-3},
        ("cell_size", 0.5 * (3e-3 + 0.5e-3)),
    ),
    (
        "MFIX grid size for 4 mm particles",
        "neighbor_cell_size",
        {"max_particle_radius": 2e-3, "convention": "mfix"},
        ("cell_size", 12e-3),
    ),
    # --- convert_units
    ("70 GPa in psi", "convert_units", {}, ("value", 70e9 / PSI)),
    ("how many mm in 0.125 in?", "convert_units", {}, ("value", 3.175)),
    ("100 F to C", "convert_units", {}, ("value", (100 - 32) * 5 / 9)),
    # --- polydisperse_rayleigh
    (
        "rayleigh time step for a PSD of 0.5, 1 and 2 mm steel",
        "polydisperse_rayleigh",
        {"diameters": [0.5e-3, 1e-3, 2e-3], **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.25e-3, STEEL)),
    ),
    (
        "polydisperse rayleigh, d50 1 mm, std dev 0.1 mm, sand",
        "polydisperse_rayleigh",
        {"mean_diameter": 1e-3, "std_dev": 0.1e-3, **SAND},
        ("rayleigh_timestep", rayleigh_m(0.35e-3, SAND)),
    ),
]

ROUND_TWO: list[Row] = [
    (
        "Rayleigh time step for 2 mm glass beads and 3 mm steel balls",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "hertz contact time for 3 mm glass beads against a wall with wall E 200 GPa, wall nu 0.3, "
        "2 m/s",
        "hertz_contact_time",
        {
            "particle_radius": 1.5e-3,
            "wall": True,
            "wall_youngs_modulus": 200e9,
            "wall_poisson_ratio": 0.3,
            "impact_velocity": 2.0,
            **GLASS,
        },
        (
            "contact_time",
            hertz_time(sphere_mass(3e-3, 2500), 1.5e-3, e_star(70e9, 0.25, 200e9, 0.3), 2.0),
        ),
    ),
    (
        "Hertz contact time: 2 mm beads, E 5 MPa, rho 1000 kg/m3, nu 0.45, v 0.2 m/s, container "
        "300 mm",
        "hertz_contact_time",
        {
            "particle_radius": 1e-3,
            "youngs_modulus": 5e6,
            "density": 1000.0,
            "poisson_ratio": 0.45,
            "impact_velocity": 0.2,
            "other_radius": None,
        },
        (
            "contact_time",
            hertz_time(sphere_mass(2e-3, 1000) / 2, 0.5e-3, 5e6 / (2 * (1 - 0.45**2)), 0.2),
        ),
    ),
    (
        "contact time of glass beads (d = 1 mm) hitting each other at 2 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.5e-3, "impact_velocity": 2.0, **GLASS},
        (
            "contact_time",
            hertz_time(sphere_mass(1e-3, 2500) / 2, 0.25e-3, 70e9 / (2 * (1 - 0.0625)), 2.0),
        ),
    ),
    (
        "max overlap, 2 mm glass bead on a 20 mm steel ball at 1 m/s",
        "hertz_max_overlap",
        {
            "particle_radius": 1e-3,
            "other_radius": 10e-3,
            "other_density": 7850.0,
            "other_youngs_modulus": 210e9,
            "wall": None,
            **GLASS,
        },
        (
            "max_overlap",
            hertz_overlap(
                pair(1e-3, G_, 10e-3, STEEL)[1],
                pair(1e-3, G_, 10e-3, STEEL)[0],
                pair(1e-3, G_, 10e-3, STEEL)[2],
                1.0,
            ),
        ),
    ),
    (
        "contact stress, 5 mm glass beads squeezed between steel plates with 20 N, yield 100 MPa, "
        "SF 2",
        "contact_stress_check",
        {
            "normal_force": 20.0,
            "particle_radius": 2.5e-3,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "youngs_modulus": 70e9,
            "yield_stress": 1e8,
            "safety_factor": 2.0,
        },
        ("max_contact_pressure", hertz_p0(20, 2.5e-3, e_star(70e9, 0.25, 210e9, 0.3))),
    ),
    (
        "liquid bridge between a 1 mm bead and a flat plate, surface tension 0.072 N/m",
        "cohesion_numbers",
        {"particle_radius": 0.5e-3, "wall": True, "liquid_surface_tension": 0.072},
        ("liquid_bridge_force", 4 * PI * 0.5e-3 * 0.072),
    ),
    (
        "terminal velocity: 2 mm beads, rho_p 2500, in oil with density 900 kg/m3 and viscosity "
        "50 mPa s",
        "cfd_dem_numbers",
        {
            "particle_diameter": 2e-3,
            "particle_density": 2500.0,
            "fluid_density": 900.0,
            "fluid_viscosity": 0.05,
        },
        ("archimedes_number", archimedes(2e-3, 2500, 900, 0.05)),
    ),
    (
        "mass of a 3 mm glass bead, density 2.2 g/cm3",
        "particle_mass",
        {"particle_diameter": 3e-3, "density": 2200.0},
        ("particle_mass", sphere_mass(3e-3, 2200)),
    ),
    (
        "how many 2 mm particles in a 0.1 m3 bin at 55% packing",
        "estimate_particle_count",
        {"container_volume": 0.1, "particle_diameter": 2e-3, "packing_fraction": 0.55},
        ("particle_count", math.floor(count(0.1, 2e-3, 0.55))),
    ),
    (
        "how many 4 mm beads in a pipe of 20 cm diameter and 1 m height",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.2, "height": 1.0, "particle_diameter": 4e-3},
        ("particle_count", math.floor(count(PI / 4 * 0.04, 4e-3))),
    ),
    (
        "how many 1 mm beads in a box 30 cm long, 20 cm wide, 10 cm high",
        "estimate_particle_count",
        {
            "container_shape": "box",
            "length": 0.3,
            "width": 0.2,
            "height": 0.1,
            "particle_diameter": 1e-3,
        },
        ("particle_count", math.floor(count(0.006, 1e-3))),
    ),
    (
        "particle count: 3 mm beads, cylinder radius 50 mm, height 100 mm",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.1, "height": 0.1, "particle_diameter": 3e-3},
        ("particle_count", math.floor(count(PI / 4 * 0.01 * 0.1, 3e-3))),
    ),
    (
        "bulk density of glass beads with 38% porosity",
        "bulk_properties",
        {"porosity": 0.38, "solid_density": 2500.0},
        ("bulk_density", 2500 * 0.62),
    ),
    (
        "what's the porosity if bulk density is 1450 and particle density 2650",
        "bulk_properties",
        {"bulk_density": 1450.0, "solid_density": 2650.0},
        ("porosity", 1 - 1450 / 2650),
    ),
    (
        "PSD 0.5 mm 20 %, 1 mm 50 %, 2 mm 30 % by number",
        "polydisperse_counts",
        {"diameters": [0.5e-3, 1e-3, 2e-3], "number_fractions": [0.2, 0.5, 0.3]},
        None,
    ),
    (
        "wall effect: 8 mm spheres in a 40 mm tube",
        "wall_effect_porosity",
        {"container_diameter": 0.04, "particle_diameter": 8e-3},
        ("diameter_ratio", 5.0),
    ),
    (
        "inertial number: shear rate 100 s-1, 0.5 mm sand, confining pressure 10 kPa",
        "flow_regime",
        {"shear_rate": 100.0, "particle_diameter": 0.5e-3, "pressure": 1e4, "density": 2650.0},
        ("inertial_number", 100 * 0.5e-3 / math.sqrt(1e4 / 2650)),
    ),
    (
        "flow regime of 2 mm glass beads in a 0.5 m radius drum rotating at 5 rpm",
        "flow_regime",
        {"drum_radius": 0.5},
        ("froude_number", (5 * 2 * PI / 60) ** 2 * 0.5 / G0),
    ),
    (
        "drum speed 10 rpm, drum diameter 600 mm, filled 30%, froude",
        "flow_regime",
        {"drum_radius": 0.3, "filling_degree": 0.3},
        ("froude_number", (10 * 2 * PI / 60) ** 2 * 0.3 / G0),
    ),
    (
        "beverloo for 3 mm glass beads, orifice 30 mm, bulk density 1500 kg/m3, in a 300 mm silo",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.03,
            "particle_diameter": 3e-3,
            "bulk_density": 1500.0,
            "silo_diameter": 0.3,
        },
        ("mass_flow_rate", beverloo(0.03, 3e-3, 1500)),
    ),
    (
        "discharge rate from a hopper: 2 mm particles, bulk density 1.6 t/m3, 25 mm hole",
        "beverloo_discharge",
        {"orifice_diameter": 0.025, "particle_diameter": 2e-3, "bulk_density": 1600.0},
        ("mass_flow_rate", beverloo(0.025, 2e-3, 1600)),
    ),
    (
        "how many time steps for 10 s with dt 2 us",
        "timesteps_for_duration",
        {"duration": 10.0, "timestep": 2e-6},
        ("steps", 5_000_000),
    ),
    (
        "steps needed: sim time 3 s, time step 1e-5 s",
        "timesteps_for_duration",
        {"duration": 3.0, "timestep": 1e-5},
        ("steps", 300_000),
    ),
    (
        "wall time for 1e6 particles, 2 s at 1e-6 s, 5e6 particle steps per core second, 32 cores, "
        "80% parallel efficiency",
        "simulation_cost",
        {
            "n_particles": 1e6,
            "duration": 2.0,
            "timestep": 1e-6,
            "throughput": 5e6,
            "n_cores": 32,
            "parallel_efficiency": 0.8,
        },
        ("wall_time", 1e6 * 2e6 / (5e6 * 32 * 0.8)),
    ),
    (
        "coarse grain factor 5, 0.3 mm limestone, 2e7 particles",
        "coarse_graining",
        {"scale_factor": 5.0, "particle_diameter": 0.3e-3, "n_particles": 2e7},
        ("parcel_count", 2e7 / 125),
    ),
    (
        "neighbor list bin size for particles up to 5 mm diameter",
        "neighbor_cell_size",
        {"max_particle_radius": 2.5e-3},
        ("cell_size", 0.5 * (5e-3 + 1e-3)),
    ),
    ("convert 2.5 g/cm3 to kg/m3", "convert_units", {}, ("value", 2500.0)),
    ("what is 20 psi in kPa", "convert_units", {}, ("value", 20 * PSI / 1e3)),
    (
        "rayleigh step with a size distribution: mean 1.5 mm, sigma 0.2 mm, steel",
        "polydisperse_rayleigh",
        {"mean_diameter": 1.5e-3, "std_dev": 0.2e-3, **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.45e-3, STEEL)),
    ),
    (
        "rayleigh time step, glass, d = 2 mm, nu = 0.22 (not 0.25)",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, "poisson_ratio": 0.22, "density": 2500.0},
        ("rayleigh_timestep", rayleigh(1e-3, 2500, 70e9, 0.22)),
    ),
    (
        "rolling resistance for 2 mm glass beads, mu_r = 0.1, overlap 1 um",
        "rolling_resistance",
        {"rolling_friction": 0.1, "particle_radius": 1e-3, "overlap": 1e-6, **GLASS},
        ("effective_radius", 0.5e-3),
    ),
    (
        "damping coefficient for e=0.9",
        "restitution_to_damping",
        {"restitution": 0.9},
        ("damping_ratio", zeta(0.9)),
    ),
    (
        "p-wave time step: R=1mm, E=1e8, density 1000",
        "pwave_timestep",
        {"particle_radius": 1e-3, "youngs_modulus": 1e8, "density": 1000.0},
        ("pwave_timestep", pwave(1e-3, 1000, 1e8)),
    ),
    (
        "is a timestep of 1e-5 s fine for 10 mm limestone rocks at 5 m/s",
        "check_timestep_heuristic",
        {"particle_radius": 5e-3, "timestep": 1e-5, "impact_velocity": 5.0, **LIMESTONE},
        ("rayleigh_fraction", 1e-5 / rayleigh_m(5e-3, LIMESTONE)),
    ),
    (
        "rayleigh time step for 0.0625 in steel shot",
        "rayleigh_timestep",
        {"particle_radius": 0.03125 * INCH, **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.03125 * INCH, STEEL)),
    ),
    (
        "pull-off force between a 40 um glass particle and a steel wall, gamma 0.06 J/m2",
        "cohesion_numbers",
        {"particle_radius": 20e-6, "wall": True, "surface_energy": 0.06, "other_radius": None},
        ("pull_off_force_jkr", 1.5 * PI * 0.06 * 20e-6),
    ),
    (
        "Bond number for 10 um sand with surface energy 0.1 J/m2 on a surface",
        "cohesion_numbers",
        {"particle_radius": 5e-6, "wall": True, "surface_energy": 0.1},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * 5e-6),
    ),
    (
        "hertz contact time of 1 mm glass beads, velocity 1 m/s, density 2.5 tonne/m3",
        "hertz_contact_time",
        {"particle_radius": 0.5e-3, "density": 2500.0, "impact_velocity": 1.0},
        (
            "contact_time",
            hertz_time(sphere_mass(1e-3, 2500) / 2, 0.25e-3, 70e9 / (2 * (1 - 0.0625)), 1.0),
        ),
    ),
    (
        "effective E of glass on steel, both 2 mm",
        "contact_pair",
        {"particle_radius": 1e-3, **GLASS, "other_youngs_modulus": 210e9},
        ("effective_modulus", e_star(70e9, 0.25, 210e9, 0.3)),
    ),
]

ROUND_THREE: list[Row] = [
    (
        "contact pair: r1 = 1 mm, r2 = 3 mm, glass",
        "contact_pair",
        {"particle_radius": 1e-3, "other_radius": 3e-3, **GLASS},
        ("effective_radius", 1e-3 * 3e-3 / 4e-3),
    ),
    (
        "particle A: 1 mm glass; particle B: 2 mm steel - effective mass",
        "contact_pair",
        {"particle_radius": 0.5e-3, "other_radius": 1e-3, **GLASS, "other_density": 7850.0},
        ("effective_mass", pair(0.5e-3, G_, 1e-3, STEEL)[1]),
    ),
    (
        "max overlap with overlap limit 1%, 2 mm glass, 1 m/s",
        "hertz_max_overlap",
        {"particle_radius": 1e-3, "overlap_limit": 0.01, "impact_velocity": 1.0, **GLASS},
        (
            "max_overlap",
            hertz_overlap(pair(1e-3, G_, 1e-3, G_)[1], 0.5e-3, pair(1e-3, G_, 1e-3, G_)[2], 1.0),
        ),
    ),
    (
        "rayleigh time step for 2 mm glass beads in a drum rotating at 10 rpm",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "froude number for 3 mm glass beads in a 40 cm drum at 20 rpm",
        "flow_regime",
        {"drum_radius": 0.2},
        ("froude_number", (20 * 2 * PI / 60) ** 2 * 0.2 / G0),
    ),
    (
        "inertial number, 1 mm glass, shear rate 10/s, 5 kPa",
        "flow_regime",
        {"shear_rate": 10.0, "particle_diameter": 1e-3, "pressure": 5e3, "density": 2500.0},
        ("inertial_number", 10 * 1e-3 / math.sqrt(5e3 / 2500)),
    ),
    (
        "cohesion numbers: 50 um and 10 um particles, surface energy 0.2 J/m2, density 2000",
        "cohesion_numbers",
        {"particle_radius": 25e-6, "other_radius": 5e-6, "surface_energy": 0.2, "density": 2000.0},
        ("pull_off_force_jkr", 1.5 * PI * 0.2 * (25e-6 * 5e-6 / 30e-6)),
    ),
    (
        "JKR force, 20 um sand, surface energy 0.05 J/m2 per surface, against a steel wall",
        "cohesion_numbers",
        {
            "particle_radius": 10e-6,
            "surface_energy": 0.05,
            "surface_energy_per_surface": True,
            "wall": True,
        },
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * 10e-6),
    ),
    (
        "pull-off force: 1 um alumina spheres, gamma = 0.1 N/m",
        "cohesion_numbers",
        {"particle_radius": 0.5e-6, "surface_energy": 0.1},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * 0.25e-6),
    ),
    (
        "liquid bridge, 0.5 mm glass beads, surface tension 72 mN/m, contact angle 0",
        "cohesion_numbers",
        {"particle_radius": 0.25e-3, "liquid_surface_tension": 0.072, "contact_angle": 0.0},
        ("liquid_bridge_force", 4 * PI * 0.125e-3 * 0.072),
    ),
    (
        "coarse grain with s = 4 for 0.2 mm sand, dt = 1e-6 s",
        "coarse_graining",
        {"scale_factor": 4.0, "particle_diameter": 0.2e-3, "timestep": 1e-6},
        ("timestep_parcel", 4e-6),
    ),
    (
        "coarse graining factor 2, 1 mm glass, damping coefficient 0.01 N s/m",
        "coarse_graining",
        {"scale_factor": 2.0, "damping_coefficient": 0.01},
        ("damping_parcel", 0.04),
    ),
    (
        "insertion rate for 10 t/h of pellets d=5 mm rho 1200 kg/m3",
        "simulation_cost",
        {"mass_flow_rate": 10000 / 3600, "particle_diameter": 5e-3, "density": 1200.0},
        ("insertion_rate", 10000 / 3600 / sphere_mass(5e-3, 1200)),
    ),
    (
        "particle count for 2 mm beads in a 10 L bucket",
        "estimate_particle_count",
        {"container_volume": 0.01, "particle_diameter": 2e-3},
        ("particle_count", math.floor(count(0.01, 2e-3))),
    ),
    (
        "how many 3 mm glass beads in a 100 mm glass column 500 mm high",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.1, "height": 0.5, "particle_diameter": 3e-3},
        ("particle_count", math.floor(count(PI / 4 * 0.01 * 0.5, 3e-3))),
    ),
    (
        "wall effect porosity for 5 mm spheres in a 25 mm column, sphericity 1",
        "wall_effect_porosity",
        {"container_diameter": 0.025, "particle_diameter": 5e-3, "sphericity": 1.0},
        ("diameter_ratio", 5.0),
    ),
    (
        "timesteps for duration 2.5 s, dt 2.5e-6 s",
        "timesteps_for_duration",
        {"duration": 2.5, "timestep": 2.5e-6},
        ("steps", 1_000_000),
    ),
    ("convert 1500 rpm to rad/s", "convert_units", {}, ("value", 1500 * 2 * PI / 60)),
    ("convert 0.5 in to mm", "convert_units", {}, ("value", 12.7)),
    ("1 lbf in N", "convert_units", {}, ("value", LBF)),
    (
        "check dt = 5e-7 s for 1 mm glass, max fraction 0.1",
        "check_timestep_heuristic",
        {"timestep": 5e-7, "max_rayleigh_fraction": 0.1, "particle_radius": 0.5e-3},
        ("rayleigh_fraction", 5e-7 / rayleigh_m(0.5e-3, GLASS)),
    ),
    (
        "is 1e-6 s ok? 0.5 mm glass, should be at most 20% of rayleigh",
        "check_timestep_heuristic",
        {"timestep": 1e-6, "max_rayleigh_fraction": 0.2, "particle_radius": 0.25e-3},
        ("rayleigh_fraction", 1e-6 / rayleigh_m(0.25e-3, GLASS)),
    ),
    (
        "p-wave time step for 1 mm glass, E = 1e7 Pa soft",
        "pwave_timestep",
        {"particle_radius": 0.5e-3, "youngs_modulus": 1e7, "density": 2500.0},
        ("pwave_timestep", pwave(0.5e-3, 2500, 1e7)),
    ),
    (
        "beverloo with k = 2.9 for angular sand, D0 100 mm, d 1 mm, bulk density 1500",
        "beverloo_discharge",
        {
            "shape_coefficient": 2.9,
            "orifice_diameter": 0.1,
            "particle_diameter": 1e-3,
            "bulk_density": 1500.0,
        },
        ("mass_flow_rate", beverloo(0.1, 1e-3, 1500, k=2.9)),
    ),
    (
        "how fast does a hopper empty: 1 mm sand, 40 mm outlet, 1.5 t/m3 bulk, 500 kg inside",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.04,
            "particle_diameter": 1e-3,
            "bulk_density": 1500.0,
            "fill_mass": 500.0,
        },
        ("discharge_time", 500 / beverloo(0.04, 1e-3, 1500)),
    ),
    (
        "rolling resistance, 2 mm steel, mu_r 0.1, on a glass plate, overlap 2 um",
        "rolling_resistance",
        {
            "rolling_friction": 0.1,
            "particle_radius": 1e-3,
            "wall": True,
            "wall_youngs_modulus": 70e9,
            "overlap": 2e-6,
            **STEEL,
        },
        ("effective_radius", 1e-3),
    ),
    (
        "bulk props: phi 0.64, rho_s 2650 kg/m3, V = 0.5 m3",
        "bulk_properties",
        {"packing_fraction": 0.64, "solid_density": 2650.0, "volume": 0.5},
        ("mass", 0.64 * 2650 * 0.5),
    ),
    (
        "polydisperse counts, d = 1, 2, 4 mm, w = 0.2, 0.3, 0.5, M = 20 kg, rho = 2500",
        "polydisperse_counts",
        {
            "diameters": [1e-3, 2e-3, 4e-3],
            "mass_fractions": [0.2, 0.3, 0.5],
            "total_mass": 20.0,
            "density": 2500.0,
        },
        None,
    ),
    (
        "Re_p for 3 mm glass in air, slip velocity 5 m/s",
        "cfd_dem_numbers",
        {"particle_diameter": 3e-3, "slip_velocity": 5.0, **AIR},
        ("particle_reynolds", 1.205 * 5 * 3e-3 / 1.81e-5),
    ),
]

ROUND_FOUR: list[Row] = [
    (
        "the particles are 3 mm, glass; what's the critical timestep?",
        "rayleigh_timestep",
        {"particle_radius": 1.5e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1.5e-3, GLASS)),
    ),
    (
        "Rayleigh time-step for 500 µm steel",
        "rayleigh_timestep",
        {"particle_radius": 250e-6, **STEEL},
        ("rayleigh_timestep", rayleigh_m(250e-6, STEEL)),
    ),
    (
        "Rayleigh timestep for 2mm dia. glass",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "rayleigh: radius = 2 mm (not diameter), glass",
        "rayleigh_timestep",
        {"particle_radius": 2e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(2e-3, GLASS)),
    ),
    (
        "rayleigh step, glass, D = 4 mm",
        "rayleigh_timestep",
        {"particle_radius": 2e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(2e-3, GLASS)),
    ),
    (
        "hertz contact time for 1 mm glass beads hitting a steel plate at 2 m/s, plate E 200 GPa",
        "hertz_contact_time",
        {"particle_radius": 0.5e-3, "wall": True, "wall_youngs_modulus": 200e9, **GLASS},
        (
            "contact_time",
            hertz_time(sphere_mass(1e-3, 2500), 0.5e-3, e_star(70e9, 0.25, 200e9, 0.3), 2.0),
        ),
    ),
    (
        "how long does contact last for 2 mm glass beads colliding at 0.5 m/s in a 10 cm wide box",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "other_radius": None, "wall": None, **GLASS},
        ("contact_time", hertz_time(sphere_mass(2e-3, 2500) / 2, 0.5e-3, 70e9 / (2 * 0.9375), 0.5)),
    ),
    (
        "contact stress: two 10 mm steel balls pressed together with 500 N, yield 1.2 GPa, SF 1.25",
        "contact_stress_check",
        {
            "particle_radius": 5e-3,
            "normal_force": 500.0,
            "yield_stress": 1.2e9,
            "safety_factor": 1.25,
            "wall": None,
            "other_radius": None,
        },
        ("max_contact_pressure", hertz_p0(500, 2.5e-3, 210e9 / (2 * 0.91))),
    ),
    (
        "Bond number, 10 um limestone particles, γ = 0.04 J/m²",
        "cohesion_numbers",
        {"particle_radius": 5e-6, "surface_energy": 0.04, "density": 2700.0},
        ("pull_off_force_jkr", 1.5 * PI * 0.04 * 2.5e-6),
    ),
    (
        "DMT pull-off, 2 um particles, Δγ = 0.1 J/m2",
        "cohesion_numbers",
        {"particle_radius": 1e-6, "surface_energy": 0.1, "surface_energy_per_surface": None},
        ("pull_off_force_dmt", 2 * PI * 0.1 * 0.5e-6),
    ),
    (
        "capillary force between 100 um glass beads, water, θ = 30°",
        "cohesion_numbers",
        {"particle_radius": 50e-6, "contact_angle": 30.0, "liquid_surface_tension": WATER_TENSION},
        ("liquid_bridge_force", 4 * PI * 25e-6 * WATER_TENSION * math.cos(math.radians(30))),
    ),
    (
        "CFD check: 1 mm particles, 2500 kg/m3, in water, cell size 5 mm",
        "cfd_dem_numbers",
        {"particle_diameter": 1e-3, "particle_density": 2500.0, "cfd_cell_size": 5e-3, **WATER},
        ("cell_to_diameter", 5.0),
    ),
    (
        "what does a 10 mm limestone rock weigh",
        "particle_mass",
        {"particle_diameter": 0.01, "density": 2700.0},
        ("particle_mass", sphere_mass(0.01, 2700)),
    ),
    (
        "how many 2 mm beads fit in a 500 ml beaker",
        "estimate_particle_count",
        {"container_volume": 5e-4, "particle_diameter": 2e-3},
        ("particle_count", math.floor(count(5e-4, 2e-3))),
    ),
    (
        "how many particles of 0.8 mm in a cylinder 8 cm ID, 15 cm high, packing 0.63",
        "estimate_particle_count",
        {
            "container_shape": "cylinder",
            "diameter": 0.08,
            "height": 0.15,
            "particle_diameter": 0.8e-3,
            "packing_fraction": 0.63,
        },
        ("particle_count", math.floor(count(PI / 4 * 0.0064 * 0.15, 0.8e-3, 0.63))),
    ),
    (
        "estimate particle count: box 1 x 0.5 x 0.5 m, particles 10 mm",
        "estimate_particle_count",
        {
            "container_shape": "box",
            "length": 1.0,
            "width": 0.5,
            "height": 0.5,
            "particle_diameter": 0.01,
        },
        ("particle_count", math.floor(count(0.25, 0.01))),
    ),
    (
        "bulk density from packing fraction 0.58 and solid density 1200 kg/m3",
        "bulk_properties",
        {"packing_fraction": 0.58, "solid_density": 1200.0},
        ("bulk_density", 0.58 * 1200),
    ),
    (
        "what's the porosity of a bed with solid fraction 0.6",
        "bulk_properties",
        {"packing_fraction": 0.6},
        ("porosity", 0.4),
    ),
    (
        "number fractions 0.6 and 0.4 for 1 mm and 3 mm, convert to mass fractions",
        "polydisperse_counts",
        {"diameters": [1e-3, 3e-3], "number_fractions": [0.6, 0.4]},
        ("mass_fractions", [0.6 / (0.6 + 0.4 * 27), 0.4 * 27 / (0.6 + 0.4 * 27)]),
    ),
    (
        "inertial number at 20 1/s shear, 2 mm particles, 2650 kg/m3, 500 Pa",
        "flow_regime",
        {"shear_rate": 20.0, "particle_diameter": 2e-3, "density": 2650.0, "pressure": 500.0},
        ("inertial_number", 20 * 2e-3 / math.sqrt(500 / 2650)),
    ),
    (
        "drum regime: R = 0.3 m, 25 rpm",
        "flow_regime",
        {"drum_radius": 0.3},
        ("froude_number", (25 * 2 * PI / 60) ** 2 * 0.3 / G0),
    ),
    (
        "froude for a 2 ft diameter drum at 30 rpm",
        "flow_regime",
        {"drum_radius": FOOT},
        ("froude_number", (30 * 2 * PI / 60) ** 2 * FOOT / G0),
    ),
    (
        "discharge rate of 1 mm sand from a silo with a 0.1 m outlet and 1 m diameter, bulk 1600",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.1,
            "particle_diameter": 1e-3,
            "bulk_density": 1600.0,
            "silo_diameter": 1.0,
        },
        ("mass_flow_rate", beverloo(0.1, 1e-3, 1600)),
    ),
    (
        "how many iterations is 30 s of simulated time at a step of 5e-6 s",
        "timesteps_for_duration",
        {"duration": 30.0, "timestep": 5e-6},
        ("steps", 6_000_000),
    ),
    (
        "run cost: 1 million particles, 5 s at 1e-6 s, 4e6 particle-steps per core-second, "
        "64 cores",
        "simulation_cost",
        {"n_particles": 1e6, "duration": 5.0, "timestep": 1e-6, "throughput": 4e6, "n_cores": 64},
        ("core_hours", 1e6 * 5e6 / 4e6 / 3600),
    ),
    (
        "coarse graining factor 3 with 3e6 particles of 0.5 mm, smallest feature 10 mm",
        "coarse_graining",
        {
            "scale_factor": 3.0,
            "n_particles": 3e6,
            "particle_diameter": 0.5e-3,
            "smallest_feature": 0.01,
        },
        ("feature_to_parcel", 0.01 / 1.5e-3),
    ),
    (
        "neighbour cell size for r_max 3 mm (MFiX)",
        "neighbor_cell_size",
        {"max_particle_radius": 3e-3, "convention": "mfix"},
        ("cell_size", 18e-3),
    ),
    ("convert 3 ft/s to m/s", "convert_units", {}, ("value", 3 * FOOT)),
    ("how many kPa is 1 atm", "convert_units", {}, ("value", 101.325)),
    (
        "polydisperse time step, sizes 0.3 mm, 0.6 mm, 1.2 mm, alumina",
        "polydisperse_rayleigh",
        {"diameters": [0.3e-3, 0.6e-3, 1.2e-3], **ALUMINA},
        ("rayleigh_timestep", rayleigh_m(0.15e-3, ALUMINA)),
    ),
    (
        "rolling stiffness, kn = 5e4 N/m, mu_r = 0.3, r = 1.5 mm, on a wall",
        "rolling_resistance",
        {"normal_stiffness": 5e4, "rolling_friction": 0.3, "particle_radius": 1.5e-3, "wall": True},
        ("rolling_stiffness", 2.25 * 5e4 * 0.09 * 1.5e-3**2),
    ),
    (
        "damping ratio if e = 1",
        "restitution_to_damping",
        {"restitution": 1.0},
        ("damping_ratio", 0.0),
    ),
]


def insertion(rate: float, ds: list[float], ws: list[float], rho: float) -> float:
    """Particles per second of a mass flow split by mass fractions: ṁ Σ w_i / m_i."""
    return rate * sum(w / sphere_mass(d, rho) for d, w in zip(ds, ws, strict=True))


ROUND_FIVE: list[Row] = [
    (
        "rayleigh dt for 2 mm beads - not steel, glass",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "Rayleigh dt, 2 mm beads made of steel, not glass",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **STEEL},
        ("rayleigh_timestep", rayleigh_m(1e-3, STEEL)),
    ),
    (
        "linear spring k=1e5 N/m m=1e-6 kg e=.5",
        "linear_spring_contact",
        {"stiffness": 1e5, "effective_mass": 1e-6, "restitution": 0.5},
        ("collision_time", spring_time(1e5, 1e-6, 0.5)),
    ),
    (
        "restitution coefficient e = 0.7 ; E = 70 GPa ; damping?",
        "restitution_to_damping",
        {"restitution": 0.7},
        ("damping_ratio", zeta(0.7)),
    ),
    (
        "Rayleigh time step: E=70e9 Pa, ν=0.25, ρ=2500 kg/m³, R=0.5 mm",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(0.5e-3, GLASS)),
    ),
    (
        "How many 2 mm beads in a 1 litre jar?",
        "estimate_particle_count",
        {"container_volume": 1e-3, "particle_diameter": 2e-3},
        ("particle_count", math.floor(count(1e-3, 2e-3))),
    ),
    (
        "hopper discharge, 6 mm pellets, outlet 150 mm, bulk density 650 kg/m³, 3 tonnes in the "
        "hopper - how long to empty?",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.15,
            "particle_diameter": 6e-3,
            "bulk_density": 650.0,
            "fill_mass": 3000.0,
        },
        ("discharge_time", 3000 / beverloo(0.15, 6e-3, 650)),
    ),
    (
        "coarse-grain 1e7 glass beads of 1 mm to 1e5 parcels",
        "coarse_graining",
        {"n_particles": 1e7, "n_parcels": 1e5, "particle_diameter": 1e-3},
        ("scale_factor", 100 ** (1 / 3)),
    ),
    (
        "CG with scale factor 2 and 4 mm particles, keep the bond number, surface energy 0.1 J/m2",
        "coarse_graining",
        {
            "scale_factor": 2.0,
            "particle_diameter": 4e-3,
            "surface_energy": 0.1,
            "cohesion_scaling": "bond",
        },
        ("surface_energy_parcel", 0.4),
    ),
    (
        "neighbour bin size: particles between 1 and 3 mm diameter, skin 0.3 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3, "skin": 0.3e-3},
        ("cell_size", 0.5 * (3e-3 + 0.3e-3)),
    ),
    (
        "wall effect porosity of 3 mm beads in a column 30 mm",
        "wall_effect_porosity",
        {"container_diameter": 0.03, "particle_diameter": 3e-3},
        ("diameter_ratio", 10.0),
    ),
    (
        "contact pair for a 2 mm glass bead on a steel wall, overlap 1 micron",
        "contact_pair",
        {
            "particle_radius": 1e-3,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "overlap": 1e-6,
            **GLASS,
        },
        ("effective_modulus", e_star(70e9, 0.25, 210e9, 0.3)),
    ),
    (
        "equivalent linear spring for 2 mm glass beads at 1 m/s",
        "contact_pair",
        {"particle_radius": 1e-3, "impact_velocity": 1.0, **GLASS},
        ("effective_radius", 0.5e-3),
    ),
    (
        "Hertz-Mindlin tangential stiffness, 2 mm steel balls, overlap 0.5 um",
        "contact_pair",
        {"particle_radius": 1e-3, "overlap": 0.5e-6, **STEEL},
        ("stiffness_ratio", 1.4 / 1.7),
    ),
    (
        "check my time step 1e-6 s against Rayleigh, 3 mm glass",
        "check_timestep_heuristic",
        {"timestep": 1e-6, "particle_radius": 1.5e-3, **GLASS},
        ("rayleigh_fraction", 1e-6 / rayleigh_m(1.5e-3, GLASS)),
    ),
    (
        "core hours: 50k particles, 10 s at 5e-7 s, throughput 1.5e6, 12 cores",
        "simulation_cost",
        {
            "n_particles": 5e4,
            "duration": 10.0,
            "timestep": 5e-7,
            "throughput": 1.5e6,
            "n_cores": 12,
        },
        ("core_hours", 5e4 * 2e7 / 1.5e6 / 3600),
    ),
    (
        "mass flow 0.5 kg/s of 2 mm glass beads: particles per second?",
        "simulation_cost",
        {"mass_flow_rate": 0.5, "particle_diameter": 2e-3, "density": 2500.0},
        ("insertion_rate", 0.5 / sphere_mass(2e-3, 2500)),
    ),
    (
        "insertion rate for 100 kg/h of 0.5, 1 and 2 mm glass with mass fractions 0.2, 0.5, 0.3",
        "simulation_cost",
        {
            "mass_flow_rate": 100 / 3600,
            "diameters": [0.5e-3, 1e-3, 2e-3],
            "mass_fractions": [0.2, 0.5, 0.3],
            "density": 2500.0,
        },
        ("insertion_rate", insertion(100 / 3600, [0.5e-3, 1e-3, 2e-3], [0.2, 0.5, 0.3], 2500)),
    ),
    (
        "rayleigh time step, Young's modulus 1e8 Pa, poisson 0.3, density 1500 kg/m^3, radius "
        "0.001 m",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, "youngs_modulus": 1e8, "poisson_ratio": 0.3, "density": 1500.0},
        ("rayleigh_timestep", rayleigh(1e-3, 1500, 1e8, 0.3)),
    ),
    (
        "p wave time step d 4 mm, density 7800, E 200e9",
        "pwave_timestep",
        {"particle_radius": 2e-3, "density": 7800.0, "youngs_modulus": 200e9},
        ("pwave_timestep", pwave(2e-3, 7800, 200e9)),
    ),
    (
        "flow regime for shear rate 5 s^-1, pressure 2 kPa, 1 mm glass, mu_s 0.38, mu_2 0.64, "
        "I_0 0.279",
        "flow_regime",
        {
            "shear_rate": 5.0,
            "pressure": 2e3,
            "particle_diameter": 1e-3,
            "mu_s": 0.38,
            "mu_2": 0.64,
            "I_0": 0.279,
        },
        ("inertial_number", 5 * 1e-3 / math.sqrt(2e3 / 2500)),
    ),
    (
        "inertial number: γ̇ = 10 1/s, d = 1 mm, P = 1 kPa, ρ = 2500 kg/m3",
        "flow_regime",
        {"shear_rate": 10.0, "particle_diameter": 1e-3, "pressure": 1e3, "density": 2500.0},
        ("inertial_number", 10 * 1e-3 / math.sqrt(1e3 / 2500)),
    ),
]


ROUND_SIX: list[Row] = [
    (
        "Rayleigh timestep for 2 mm glass spheres in a 0.5 metre drum",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "what's the mass of a 1 cm steel ball bearing",
        "particle_mass",
        {"particle_diameter": 0.01, "density": 7850.0},
        ("particle_mass", sphere_mass(0.01, 7850)),
    ),
    (
        "dt_rayleigh for d=0.5mm, rho=2650, E=5e7, nu=0.3",
        "rayleigh_timestep",
        {
            "particle_radius": 0.25e-3,
            "density": 2650.0,
            "youngs_modulus": 5e7,
            "poisson_ratio": 0.3,
        },
        ("rayleigh_timestep", rayleigh(0.25e-3, 2650, 5e7, 0.3)),
    ),
    (
        "rayleigh, d [mm] = 2, rho [kg/m3] = 2500, E [GPa] = 70, nu = 0.25",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        "E (GPa): 70; nu: 0.25; rho (kg/m3): 2500; d (mm): 2 -> rayleigh",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **GLASS},
        ("rayleigh_timestep", rayleigh_m(1e-3, GLASS)),
    ),
    (
        'timestep for 0.25" steel shot',
        "rayleigh_timestep",
        {"particle_radius": 0.125 * INCH, **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.125 * INCH, STEEL)),
    ),
    (
        "hertz contact time: ball 10 mm steel, plate steel, impact 3 m/s",
        "hertz_contact_time",
        {"particle_radius": 5e-3, "wall": True, "wall_youngs_modulus": 210e9, **STEEL},
        ("contact_time", hertz_time(sphere_mass(0.01, 7850), 5e-3, 210e9 / (2 * 0.91), 3.0)),
    ),
    (
        "contact time of a 2 mm steel ball on a plate made of glass at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "wall": True, "wall_youngs_modulus": 70e9, **STEEL},
        (
            "contact_time",
            hertz_time(sphere_mass(2e-3, 7850), 1e-3, e_star(210e9, 0.3, 70e9, 0.25), 1.0),
        ),
    ),
    (
        "liquid bridge force, two 2 mm glass beads, water, 0 deg contact angle",
        "cohesion_numbers",
        {"particle_radius": 1e-3, "contact_angle": 0.0, "liquid_surface_tension": WATER_TENSION},
        ("liquid_bridge_force", 4 * PI * 0.5e-3 * WATER_TENSION),
    ),
    (
        "Bond number for 100 um glass, surface energy 0.05 J/m2, gravity 9.81 m/s2",
        "cohesion_numbers",
        {"particle_radius": 50e-6, "surface_energy": 0.05, "gravity": 9.81},
        ("bond_number_jkr", 1.5 * PI * 0.05 * 25e-6 / (sphere_mass(100e-6, 2500) * 9.81)),
    ),
    (
        "flow regime: rotating drum, D = 0.5 m, n = 20 rpm, beads 2 mm",
        "flow_regime",
        {"drum_radius": 0.25, "rotation_speed": 20.0},
        ("froude_number", (20 * 2 * PI / 60) ** 2 * 0.25 / G0),
    ),
    (
        "terminal velocity of 3 mm glass, not in water but in air",
        "cfd_dem_numbers",
        {"particle_diameter": 3e-3, "particle_density": 2500.0, **AIR},
        ("archimedes_number", archimedes(3e-3, 2500, 1.205, 1.81e-5)),
    ),
    (
        "simulation cost: 2e6 particles, 1 s, dt 1 us, 32 cores, 3e6 particle-steps/core/s",
        "simulation_cost",
        {"n_particles": 2e6, "duration": 1.0, "timestep": 1e-6, "n_cores": 32, "throughput": 3e6},
        ("core_hours", 2e6 * 1e6 / 3e6 / 3600),
    ),
    (
        "hertz contact time 2 mm glass beads at 1 m/s against each other in a steel drum",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "wall": None, **GLASS},
        ("contact_time", hertz_time(sphere_mass(2e-3, 2500) / 2, 0.5e-3, 70e9 / 1.875, 1.0)),
    ),
    (
        "max overlap for 1 mm glass at 2 m/s, with a 1 mm thick steel plate",
        "hertz_max_overlap",
        {
            "particle_radius": 0.5e-3,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "other_radius": None,
            **GLASS,
        },
        (
            "max_overlap",
            hertz_overlap(sphere_mass(1e-3, 2500), 0.5e-3, e_star(70e9, 0.25, 210e9, 0.3), 2.0),
        ),
    ),
    (
        "particle count, 2 mm spheres, cylinder: 10 cm diameter x 20 cm",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.1, "height": 0.2, "particle_diameter": 2e-3},
        ("particle_count", math.floor(count(PI / 4 * 0.01 * 0.2, 2e-3))),
    ),
    (
        "wall effect for 4 mm beads, tube ID 2 cm",
        "wall_effect_porosity",
        {"container_diameter": 0.02, "particle_diameter": 4e-3},
        ("diameter_ratio", 5.0),
    ),
    (
        "contact stress: 3 mm glass bead between two steel plates, 10 N, yield 50 MPa, SF 1.5",
        "contact_stress_check",
        {
            "particle_radius": 1.5e-3,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "normal_force": 10.0,
            "yield_stress": 5e7,
            "safety_factor": 1.5,
        },
        ("max_contact_pressure", hertz_p0(10, 1.5e-3, e_star(70e9, 0.25, 210e9, 0.3))),
    ),
    (
        "Yade p-wave dt for a 2 mm particle of 2.5 g/cm3 and 70 GPa",
        "pwave_timestep",
        {"particle_radius": 1e-3, "density": 2500.0, "youngs_modulus": 70e9},
        ("pwave_timestep", pwave(1e-3, 2500, 70e9)),
    ),
    (
        "rolling resistance coefficient 0.05 for 4 mm limestone, kn 1e5 N/m",
        "rolling_resistance",
        {"rolling_friction": 0.05, "normal_stiffness": 1e5, "particle_radius": 2e-3},
        ("rolling_stiffness", 2.25 * 1e5 * 0.05**2 * 1e-3**2),
    ),
    (
        "how many 1 mm particles in a 30 x 30 x 30 cm box",
        "estimate_particle_count",
        {
            "container_shape": "box",
            "length": 0.3,
            "width": 0.3,
            "height": 0.3,
            "particle_diameter": 1e-3,
        },
        ("particle_count", math.floor(count(0.027, 1e-3))),
    ),
    (
        "drum: 1 m diameter, 10 rpm, 2 mm glass, froude?",
        "flow_regime",
        {"drum_radius": 0.5},
        ("froude_number", (10 * 2 * PI / 60) ** 2 * 0.5 / G0),
    ),
]


ROUND_SEVEN: list[Row] = [
    (
        "time step for sand 0.3 mm, E reduced to 1e7",
        "rayleigh_timestep",
        {"particle_radius": 0.15e-3, "youngs_modulus": 1e7, "density": 2650.0},
        ("rayleigh_timestep", rayleigh(0.15e-3, 2650, 1e7, 0.08)),
    ),
    (
        "max overlap 2 mm glass spheres at 1 m/s, E=1e7 Pa (soft), limit 1 %",
        "hertz_max_overlap",
        {
            "particle_radius": 1e-3,
            "youngs_modulus": 1e7,
            "overlap_limit": 0.01,
            "impact_velocity": 1.0,
        },
        ("max_overlap", hertz_overlap(sphere_mass(2e-3, 2500) / 2, 0.5e-3, 1e7 / 1.875, 1.0)),
    ),
    (
        "cohesion numbers for 20 um particles, work of adhesion 0.1 J/m2, not per surface",
        "cohesion_numbers",
        {"particle_radius": 10e-6, "surface_energy": 0.1, "surface_energy_per_surface": None},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * 5e-6),
    ),
    (
        "cell size for particles with radius 1 mm and 2 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 2e-3},
        ("cell_size", 0.5 * (4e-3 + 1e-3)),
    ),
    (
        "neighbour cell size for 1 mm and 3 mm particles, skin 0.2 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3, "skin": 0.2e-3},
        ("cell_size", 0.5 * (3e-3 + 0.2e-3)),
    ),
    (
        "pull-off force for 5 um particles, surface energy 0.05 J/m2 each surface",
        "cohesion_numbers",
        {"particle_radius": 2.5e-6, "surface_energy": 0.05, "surface_energy_per_surface": True},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * 1.25e-6),
    ),
    (
        "contact pair 2 mm glass with 5 mm nylon",
        "contact_pair",
        {"particle_radius": 1e-3, "other_radius": 2.5e-3, "other_youngs_modulus": 2.5e9, **GLASS},
        ("effective_modulus", e_star(70e9, 0.25, 2.5e9, 0.39)),
    ),
    (
        "critical dt, d=2mm, E=1e7, rho=2500, nu .3, fraction 0.15",
        "rayleigh_timestep",
        {
            "particle_radius": 1e-3,
            "youngs_modulus": 1e7,
            "density": 2500.0,
            "poisson_ratio": 0.3,
            "fraction": 0.15,
        },
        ("recommended_timestep", 0.15 * rayleigh(1e-3, 2500, 1e7, 0.3)),
    ),
    (
        "contact time: 1 mm glass bead, 2 m/s, wall E = 1 GPa",
        "hertz_contact_time",
        {"particle_radius": 0.5e-3, "wall": True, "wall_youngs_modulus": 1e9, **GLASS},
        (
            "contact_time",
            hertz_time(sphere_mass(1e-3, 2500), 0.5e-3, e_star(70e9, 0.25, 1e9, 0.25), 2.0),
        ),
    ),
]


ROUND_EIGHT: list[Row] = [
    (
        "rotating drum 2 m diameter at 5 rpm with 30% fill of 5 mm limestone: Froude and regime",
        "flow_regime",
        {"drum_radius": 1.0, "rotation_speed": 5.0, "filling_degree": 0.3},
        ("froude_number", (5 * 2 * PI / 60) ** 2 * 1.0 / G0),
    ),
    (
        "JKR, two particles 10 um and 20 um radius, surface energy 0.1 J/m2",
        "cohesion_numbers",
        {"particle_radius": 10e-6, "other_radius": 20e-6, "surface_energy": 0.1},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * (10e-6 * 20e-6 / 30e-6)),
    ),
    (
        "overlap check: glass, 3 mm, v 5 m/s, dt 1e-6 s, limit 0.5%",
        "hertz_max_overlap",
        {
            "particle_radius": 1.5e-3,
            "impact_velocity": 5.0,
            "timestep": 1e-6,
            "overlap_limit": 0.005,
            **GLASS,
        },
        ("max_overlap", hertz_overlap(sphere_mass(3e-3, 2500) / 2, 0.75e-3, 70e9 / 1.875, 5.0)),
    ),
    (
        "simulation cost for 1e6 particles over 10 s with dt = 1e-6 s at 1e6 particle steps "
        "per core second using 16 cores with 70% efficiency",
        "simulation_cost",
        {
            "n_particles": 1e6,
            "duration": 10.0,
            "timestep": 1e-6,
            "throughput": 1e6,
            "n_cores": 16,
            "parallel_efficiency": 0.7,
        },
        ("wall_time", 1e6 * 1e7 / (1e6 * 16 * 0.7)),
    ),
    (
        "Rayleigh critical timestep of 1.2 mm steel grit, E at 200 GPa",
        "rayleigh_timestep",
        {"particle_radius": 0.6e-3, "youngs_modulus": 200e9, "density": 7850.0},
        ("rayleigh_timestep", rayleigh(0.6e-3, 7850, 200e9, 0.3)),
    ),
    (
        "what dt should I use for 3 mm polypropylene pellets",
        "rayleigh_timestep",
        {
            "particle_radius": 1.5e-3,
            "density": 905.0,
            "youngs_modulus": 1.5e9,
            "poisson_ratio": 0.42,
        },
        ("rayleigh_timestep", rayleigh(1.5e-3, 905, 1.5e9, 0.42)),
    ),
]


REFUSED: list[str] = [
    # a decimal comma is never read as a thousands separator or dropped
    "Rayleigh timestep for glass beads of 2,5 mm",
    "damping ratio, restitution 0,7",
    "particle mass of a 2,5 mm glass bead",
    # a fraction typed as a/b is not guessed
    "critical time step, 1/8 in steel balls",
    "how heavy is a 1/2 inch steel ball",
    # a speed "each" of two bodies meeting is no relative approach speed: asked, not guessed
    "two 2 mm glass beads collide head-on at 1 m/s each - contact time?",
    # a wall of a material the reader does not know is not taken as rigid in silence
    "hertz contact time, 1 mm sand grains against a rubber liner, 3 m/s",
    # a percentage is no length: the skin is asked for, never its default taken in silence
    "neighbor cell size, LIGGGHTS, r_max = 2 mm, skin = 10%",
    # two materials for two bodies in a tool of one material: not one of them dropped
    "hertz contact time, r = 1 mm glass bead against a 50 mm steel ball, 1 m/s",
    # (`hertz overlap, E1=70 GPa, E2=210 GPa, nu1=0.25, nu2=0.3, ...` was here: the numbered
    # keys are now read, for the max-overlap tool of two bodies; test_offline_queries_7.py)
    # a drop height is no second body and no speed
    "Hertz contact time of a 5 mm steel ball dropped from 1 m",
    # a wall of a material without values, in a two-body tool
    "max overlap of 3 mm nylon beads at 2 m/s against an aluminium wall",
    # the fluid's density typed after a fluid the reader does not know is no particle density
    "terminal settling velocity for a 5 mm steel sphere in glycerol (rho 1260 kg/m3, mu 1.4 Pa s)",
    # a bag's mass is no container
    "how many 5 mm pellets fit in a 2 tonne bag",
    "beverloo, orifice 2 in, 1/8 in particles",
    # a bare power of ten is not read (docs/values.md): written 1e5 or 1×10^5 it is
    "linear spring: k = 10^5 N/m, m = 10^-6 kg, COR .8",
    # a size with a spread: which size is meant is for the user to say
    "particle size 2 mm ± 0.2 mm, glass, rayleigh time step",
]

REFUSED_BY_THE_TOOL: list[tuple[str, str, str]] = [
    # Hz does not say what turns (rev/s to an engineer, rad/s to pint): the tool refuses it
    ("drum 0.5 m radius spinning at 2 Hz, Froude?", "flow_regime", "does not say what turns"),
]

FOLLOW_UPS: list[tuple[list[str], str, str, dict[str, Any], tuple[str, float] | None]] = [
    (
        ["rayleigh time step for 1 mm glass beads"],
        "and for steel?",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, **STEEL},
        ("rayleigh_timestep", rayleigh_m(0.5e-3, STEEL)),
    ),
    (
        ["hertz contact time 2 mm glass at 1 m/s"],
        "what about at 5 m/s?",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "impact_velocity": 5.0, **GLASS},
        (
            "contact_time",
            hertz_time(pair(1e-3, G_, 1e-3, G_)[1], 0.5e-3, pair(1e-3, G_, 1e-3, G_)[2], 5.0),
        ),
    ),
    (
        ["mass of a 2 mm steel ball"],
        "and 3 mm?",
        "particle_mass",
        {"particle_diameter": 3e-3, "density": 7850.0},
        ("particle_mass", sphere_mass(3e-3, 7850)),
    ),
    (
        ["how many 2 mm particles fit in a cylinder 100 mm across and 200 mm tall"],
        "and with 3 mm particles?",
        "estimate_particle_count",
        {"particle_diameter": 3e-3, "diameter": 0.1, "height": 0.2},
        ("particle_count", math.floor(count(PI / 4 * 0.01 * 0.2, 3e-3))),
    ),
    (
        ["rayleigh time step for 1 mm glass beads"],
        "and 10% of it?",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, "fraction": 0.1, **GLASS},
        ("recommended_timestep", 0.1 * rayleigh_m(0.5e-3, GLASS)),
    ),
    (
        ["cell size for r=2 mm"],
        "with skin 0.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 2e-3, "skin": 0.5e-3},
        ("cell_size", 0.5 * (4e-3 + 0.5e-3)),
    ),
    (
        ["hertz contact time 2 mm glass at 1 m/s"],
        "not glass, steel",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "impact_velocity": 1.0, **STEEL},
        ("contact_time", hertz_time(sphere_mass(2e-3, 7850) / 2, 0.5e-3, 210e9 / (2 * 0.91), 1.0)),
    ),
    (
        ["damping ratio for restitution 0.7"],
        "and 0.5?",
        "restitution_to_damping",
        {"restitution": 0.5},
        ("damping_ratio", zeta(0.5)),
    ),
]


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return (
            isinstance(got, list | tuple)
            and len(got) == len(want)
            and all(_same(g, w) for g, w in zip(got, want, strict=True))
        )
    if isinstance(want, bool | str):
        return bool(got == want)
    return isinstance(got, int | float) and math.isclose(got, want, rel_tol=2e-3)


def _check(
    text: str,
    history: list[dict[str, Any]],
    tool: str,
    args: dict[str, Any],
    key: tuple[str, float] | None,
) -> None:
    selection = select_text(text, history)
    assert selection.calls, f"no call for {text!r}: {selection.reply}"
    call = selection.calls[0]
    assert call.name == tool, f"{text!r}: {call.name} {call.args}"
    model, errors = validate(call.name, call.args)
    assert model is not None, f"{text!r}: {errors}"
    for name, want in args.items():
        if want is None:
            assert name not in call.args, f"{text!r}: {name}={call.args.get(name)} must be absent"
        else:  # read from the text or a named material, never a tool default that happens to fit
            assert name in call.args, f"{text!r}: {name} not read"
            assert _same(getattr(model, name), want), f"{text!r}: {name} {getattr(model, name)}"
    if key is not None:
        outcome = execute(call.name, call.args)
        assert outcome.ok and outcome.result is not None, outcome.error_text()
        assert _same(outcome.result[key[0]], key[1]), f"{text!r}: {outcome.result[key[0]]}"


ALL_ROUNDS = (
    QUERIES + ROUND_TWO + ROUND_THREE + ROUND_FOUR + ROUND_FIVE + ROUND_SIX + ROUND_SEVEN
    + ROUND_EIGHT
)  # fmt: skip
"""The first round was written blind; the later ones after reading the reader's code."""


@pytest.mark.parametrize(
    ("text", "tool", "args", "key"), ALL_ROUNDS, ids=[q[0] for q in ALL_ROUNDS]
)
def test_query(text: str, tool: str, args: dict[str, Any], key: tuple[str, float] | None) -> None:
    _check(text, [], tool, args, key)


@pytest.mark.parametrize("text", REFUSED)
def test_refused(text: str) -> None:
    selection = select_text(text)
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply


@pytest.mark.parametrize(("text", "tool", "message"), REFUSED_BY_THE_TOOL)
def test_refused_by_the_tool(text: str, tool: str, message: str) -> None:
    selection = select_text(text)
    if not selection.calls:
        return
    call = selection.calls[0]
    assert call.name == tool
    outcome = execute(call.name, call.args)
    assert not outcome.ok
    assert message in outcome.error_text()


@pytest.mark.parametrize(
    ("before", "text", "tool", "args", "key"), FOLLOW_UPS, ids=[f[1] for f in FOLLOW_UPS]
)
def test_follow_up(
    before: list[str], text: str, tool: str, args: dict[str, Any], key: tuple[str, float] | None
) -> None:
    history = [{"role": "user", "content": b} for b in before]
    _check(text, history, tool, args, key)
