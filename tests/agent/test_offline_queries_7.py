"""A blind query set for the ten newer tools (docs/references.md part 2), written before reading the
reader's phrasings and aliases, as engineers type: word orders, units written many ways (mm,
millimetres, µm, um, micron, in, ", ft, kg/m3, kg/m^3, g/cc, g/cm³, GPa, MPa, psi, rpm, rad/s, deg,
°, cP, mN/m, t/h, lb/ft3), scientific notation (2e9, 2×10^9, 2·10⁹), ranges and lists (sweeps),
materials and fluids, follow-ups, and inputs that must be refused or asked back.

Decisions this set encodes:

- A number with one comma and three digits after it (`2,500`, `200,000`) is ambiguous: a thousands
  separator (2500) or a decimal comma (2.5). It is asked back, never read either way. A decimal
  comma with fewer digits (`2,5 mm`) is refused too. Grouping written with spaces (`2 500`) or with
  several commas (`1,000,000`) may be read whole or asked, never read as a part.
- A fraction (`1/8"`), a spread (`2 ± 0.1 mm`), a misspelt unit (`rmp`, `m/ss`) or a misspelt
  fluid is asked back or refused; a value the tool refuses (a contact angle of 100°) is refused by
  the tool naming the field.
- A size with no key is a diameter; `between 2 and 4 mm` for a size distribution is its bounds
  (the time step is the smallest's); a list or a `from ... to` range of one input is a sweep.

Every expected number is computed here from the formulas of docs/references.md (part 1 §1.2 and
§1.3, part 2 R2.0-R2.10), independently of the tools.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute, validate
from caec_desktop.tools.sweep import plan_sweep

PI = math.pi
G0 = 9.80665  # standard gravity (R2.0)
MM = 1e-3
UM = 1e-6
INCH = 0.0254
FT = 0.3048
PSI = 6894.757293168361  # lbf/in² in Pa (NIST SP 811 B.8)
LB_FT3 = 16.01846337396014  # lb/ft³ in kg/m³ (NIST SP 811 B.8)

# Material presets (R2 §13 conventions: tools/materials.py values, docs/references.md part 2)
GLASS = (2500.0, 70e9, 0.25)
STEEL = (7850.0, 210e9, 0.30)
SAND = (2650.0, 95e9, 0.08)
PP = (905.0, 1.5e9, 0.42)
NYLON = (1140.0, 2.5e9, 0.39)
ALUMINA = (3900.0, 370e9, 0.22)
LIMESTONE = (2700.0, 50e9, 0.25)
WATER = (998.2, 1.002e-3, 0.0728)  # ρ, μ, γ (R2.0)
AIR = (1.205, 1.81e-5)


def _mat(m: tuple[float, float, float], prefix: str = "") -> dict[str, float]:
    return {
        f"{prefix}density": m[0],
        f"{prefix}youngs_modulus": m[1],
        f"{prefix}poisson_ratio": m[2],
    }


# -- independent formulas ----------------------------------------------------------------------


def sphere_mass(r: float, rho: float) -> float:
    """m = (4/3) π R³ ρ (R2.0)."""
    return 4 / 3 * PI * r**3 * rho


def pair(
    r1: float,
    m1: tuple[float, float, float],
    r2: float | None = None,
    m2: tuple[float, float, float] | None = None,
    wall: bool = False,
    wall_e: float | None = None,
    wall_nu: float | None = None,
) -> tuple[float, float, float, float]:
    """R*, m*, E*, G* (part 1 §1.3, R2.0): 1/X* = sum over both bodies; a wall: R* = R₁,
    m* = m₁, a rigid wall contributes 0; body 2 defaults to body 1."""
    rho1, e1, nu1 = m1
    g1 = e1 / (2 * (1 + nu1))
    mass1 = sphere_mass(r1, rho1)
    if wall:
        inv_e = (1 - nu1**2) / e1
        inv_g = (2 - nu1) / g1
        if wall_e is not None:
            nuw = nu1 if wall_nu is None else wall_nu
            inv_e += (1 - nuw**2) / wall_e
            inv_g += (2 - nuw) / (wall_e / (2 * (1 + nuw)))
        return r1, mass1, 1 / inv_e, 1 / inv_g
    r2 = r1 if r2 is None else r2
    rho2, e2, nu2 = m1 if m2 is None else m2
    g2 = e2 / (2 * (1 + nu2))
    mass2 = sphere_mass(r2, rho2)
    return (
        1 / (1 / r1 + 1 / r2),
        1 / (1 / mass1 + 1 / mass2),
        1 / ((1 - nu1**2) / e1 + (1 - nu2**2) / e2),
        1 / ((2 - nu1) / g1 + (2 - nu2) / g2),
    )


def max_overlap(v: float, *body: Any, **kw: Any) -> float:
    """δ_max = (15 m* v² / (16 E* √R*))^(2/5) (R2.1)."""
    r_star, m_star, e_star, _ = pair(*body, **kw)
    return float((15 * m_star * v**2 / (16 * e_star * math.sqrt(r_star))) ** 0.4)


def hertz_time_from_overlap(delta: float, v: float) -> float:
    """t_H = 2 ∫₀^δ dδ/δ̇ = (2δ/v) ∫₀¹ (1 − x^(5/2))^(−1/2) dx = (2δ/v)·(2/5) B(2/5, 1/2) (R2.1)."""
    beta = math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    return 2 * delta / v * 0.4 * beta


def rayleigh(d: float, m: tuple[float, float, float]) -> float:
    """dt_R = π (d/2) √(ρ/G) / (0.1631 ν + 0.8766), G = E / (2(1 + ν)) (part 1 §1.2, R2.7)."""
    rho, e, nu = m
    return PI * d / 2 * math.sqrt(rho / (e / (2 * (1 + nu)))) / (0.1631 * nu + 0.8766)


def c_d(re: float, dallavalle: bool = False) -> float:
    """Schiller-Naumann max(0.44, 24/Re (1 + 0.15 Re^0.687)) or Dallavalle (0.63 + 4.8/√Re)²."""
    if dallavalle:
        return (0.63 + 4.8 / math.sqrt(re)) ** 2
    return max(0.44, 24 / re * (1 + 0.15 * re**0.687))


def archimedes(d: float, rho_p: float, rho_f: float, mu: float) -> float:
    """Ar = ρ_f (ρ_p − ρ_f) g d³ / μ² (R2.4)."""
    return rho_f * (rho_p - rho_f) * G0 * d**3 / mu**2


def terminal_velocity(
    d: float, rho_p: float, rho_f: float, mu: float, dallavalle: bool = False
) -> float:
    """C_D(Re) Re² = (4/3) Ar solved for Re by bisection in log Re, then v = Re μ / (ρ_f d)."""
    target = 4 / 3 * abs(archimedes(d, rho_p, rho_f, mu))
    lo, hi = math.log(1e-12), math.log(1e8)
    for _ in range(200):
        mid = (lo + hi) / 2
        re = math.exp(mid)
        if c_d(re, dallavalle) * re**2 < target:
            lo = mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2) * mu / (rho_f * d)


def rolling_inertia_pair(r1: float, rho1: float, r2: float, rho2: float) -> float:
    """I_r = 1.4 (m_iR_i²)(m_jR_j²)/(m_iR_i² + m_jR_j²) (R2.10)."""
    a = sphere_mass(r1, rho1) * r1**2
    b = sphere_mass(r2, rho2) * r2**2
    return 1.4 * a * b / (a + b)


def froude(radius: float, rpm: float) -> float:
    """Fr = ω² R / g, ω = 2πn/60 (R2.8)."""
    return (2 * PI * rpm / 60) ** 2 * radius / G0


def inertial(rate: float, d: float, p: float, rho: float) -> float:
    """I = γ̇ d / √(P/ρ_s) (R2.8)."""
    return rate * d / math.sqrt(p / rho)


def beverloo(d0: float, d: float, rho_b: float, c: float = 0.58, k: float = 1.5) -> float:
    """W = C ρ_b √g (D₀ − k d)^(5/2) (R2.9)."""
    return c * rho_b * math.sqrt(G0) * (d0 - k * d) ** 2.5


# -- expected values of the set -----------------------------------------------------------------

# hertz_max_overlap: R2.1
_D125 = 0.125 * INCH
_HG = dict(wall=True, wall_e=210e9, wall_nu=0.30)
_H10_DELTA = max_overlap(3.0, 1 * MM, (2500.0, 1e8, 0.25))

# contact_pair: R2.2. S_n = 2E*√(R*δ), S_t = 8G*√(R*δ), k_δ = m*v²/δ_max²
_C1 = pair(2 * MM, STEEL, 1 * MM, GLASS)
_C2 = pair(0.5 * MM, GLASS)
_C4 = pair(1 * MM, GLASS)
_C5 = pair(3 * MM, NYLON)
_C6 = pair(1.5 * MM, GLASS)
_C7 = pair(5 * MM, STEEL, wall=True, wall_e=70e9, wall_nu=0.25)
_C8 = pair(1 * MM, (2500.0, 70e9, 0.25), 2 * MM, (2500.0, 210e9, 0.3))
_C9 = pair(1 * MM, GLASS, 1.5 * MM, GLASS)
_C10 = pair(0.1 * INCH, PP, wall=True)
_C11 = pair(0.5 * MM, (2500.0, 2e9, 0.25))


def _k_delta(p: tuple[float, float, float, float], v: float) -> float:
    r_star, m_star, e_star, _ = p
    delta = (15 * m_star * v**2 / (16 * e_star * math.sqrt(r_star))) ** 0.4
    return float(m_star * v**2 / delta**2)


# cohesion_numbers: R2.3
def _jkr(gamma: float, r_star: float) -> float:
    return 1.5 * PI * gamma * r_star


def _weight(r: float, rho: float) -> float:
    return sphere_mass(r, rho) * G0


def _tabor(r_star: float, gamma: float, e_star: float, z0: float = 4e-10) -> float:
    return float((r_star * gamma**2 / (e_star**2 * z0**3)) ** (1 / 3))


# cfd_dem_numbers: R2.4
def _rep(d: float, rho_f: float, mu: float, u: float, eps: float = 1.0) -> float:
    return eps * rho_f * d * u / mu


def _chi(rep: float) -> float:
    return 3.7 - 0.65 * math.exp(-((1.5 - math.log10(rep)) ** 2) / 2)


# simulation_cost: R2.6
def _steps(t: float, dt: float) -> float:
    n = t / dt
    return float(round(n)) if abs(n - round(n)) < 1e-9 * n else float(math.ceil(n))


def _wall_hours(n: float, t: float, dt: float, p: float, cores: float, eff: float = 1.0) -> float:
    return n * _steps(t, dt) / (p * cores * eff) / 3600


def _insertion(mdot: float, ds: list[float], ws: list[float], rho: float) -> float:
    return mdot * sum(w / (rho * PI * d**3 / 6) for d, w in zip(ds, ws, strict=True))


# rolling_resistance: R2.10. k_r = 2.25 k_n μ_r² R*², M = μ_r R* F_n, I_r, Δt_r = 2/ω_r
def _kr(kn: float, mu_r: float, r_star: float) -> float:
    return 2.25 * kn * mu_r**2 * r_star**2


def _hertz_kn(p: tuple[float, float, float, float], delta: float) -> float:
    """Secant k_n = (4/3) E* √(R* δ) (R2.10, as LIGGGHTS)."""
    return 4 / 3 * p[2] * math.sqrt(p[0] * delta)


_L2 = pair(1 * MM, STEEL, wall=True, wall_e=210e9, wall_nu=0.30)
_L7 = pair(2 * MM, (905.0, 1.5e9, 0.42))
_L4_KR = _kr(1e4, 0.3, 0.25 * MM)
_L4_IR = rolling_inertia_pair(0.5 * MM, 2500.0, 0.5 * MM, 2500.0)
_L5_KR = _kr(5e4, 0.15, 0.5 * MM)
_L5_IR = rolling_inertia_pair(1 * MM, 2650.0, 1 * MM, 2650.0)

Row = tuple[str, str, dict[str, Any], tuple[str, Any] | None]

HERTZ: list[Row] = [
    (
        "max overlap for 3 mm glass beads hitting each other at 2 m/s",
        "hertz_max_overlap",
        {"particle_radius": 1.5 * MM, **_mat(GLASS), "impact_velocity": 2.0},
        ("max_overlap", max_overlap(2.0, 1.5 * MM, GLASS)),
    ),
    (
        "peak overlap of 0.5 millimetre steel shot at 10 m/s",
        "hertz_max_overlap",
        {"particle_radius": 0.25 * MM, **_mat(STEEL), "impact_velocity": 10.0},
        ("max_overlap", max_overlap(10.0, 0.25 * MM, STEEL)),
    ),
    (
        'How much do 0.125" steel balls overlap at 3 m/s?',
        "hertz_max_overlap",
        {"particle_radius": _D125 / 2, **_mat(STEEL), "impact_velocity": 3.0},
        ("max_overlap", max_overlap(3.0, _D125 / 2, STEEL)),
    ),
    (
        "hertz overlap: R = 2 mm, rho = 2.5 g/cm³, E = 50 MPa, nu = 0.3, v = 1.5 m/s",
        "hertz_max_overlap",
        {"particle_radius": 2 * MM, "density": 2500.0, "youngs_modulus": 5e7},
        ("max_overlap", max_overlap(1.5, 2 * MM, (2500.0, 5e7, 0.3))),
    ),
    (
        "max overlap r=1mm ρ=2500 kg/m^3 E=2×10^9 Pa ν=0.25 v=0.5 m/s",
        "hertz_max_overlap",
        {"particle_radius": 1 * MM, "youngs_modulus": 2e9, "impact_velocity": 0.5},
        ("max_overlap", max_overlap(0.5, 1 * MM, (2500.0, 2e9, 0.25))),
    ),
    (
        "overlap fraction for 2 mm PP pellets at 4 m/s against a steel wall",
        "hertz_max_overlap",
        {"particle_radius": 1 * MM, **_mat(PP), "wall": True, "wall_youngs_modulus": 210e9},
        ("overlap_fraction", max_overlap(4.0, 1 * MM, PP, **_HG) / (1 * MM)),
    ),
    (
        "is the overlap ok for sand grains of 400 microns at 1 m/s with E reduced to 10 MPa",
        "hertz_max_overlap",
        {"particle_radius": 0.2 * MM, "density": 2650.0, "youngs_modulus": 1e7},
        ("max_overlap", max_overlap(1.0, 0.2 * MM, (2650.0, 1e7, 0.08))),
    ),
    (
        "max overlap of glass beads, diameter 0.08 in, impact speed 5 ft/s",
        "hertz_max_overlap",
        {"particle_radius": 0.04 * INCH, "impact_velocity": 5 * FT},
        ("max_overlap", max_overlap(5 * FT, 0.04 * INCH, GLASS)),
    ),
    (
        "peak overlap for a 1 mm steel ball hitting a 2 mm glass bead at 1 m/s",
        "hertz_max_overlap",
        {
            "particle_radius": 0.5 * MM,
            **_mat(STEEL),
            "other_radius": 1 * MM,
            **_mat(GLASS, "other_"),
        },
        ("max_overlap", max_overlap(1.0, 0.5 * MM, STEEL, 1 * MM, GLASS)),
    ),
    (
        "maximum overlap glass 2mm, E = 1e8 Pa, at 3 m/s, dt = 2e-6 s",
        "hertz_max_overlap",
        {"particle_radius": 1 * MM, "youngs_modulus": 1e8, "timestep": 2e-6},
        ("steps_per_contact", hertz_time_from_overlap(_H10_DELTA, 3.0) / 2e-6),
    ),
    (
        "max overlap, 5 mm alumina balls, 0.5 m/s, E = 3.7E11 Pa",
        "hertz_max_overlap",
        {"particle_radius": 2.5 * MM, **_mat(ALUMINA), "impact_velocity": 0.5},
        ("max_overlap", max_overlap(0.5, 2.5 * MM, ALUMINA)),
    ),
]

CONTACT: list[Row] = [
    (
        "effective properties of a 4 mm steel ball and a 2 mm glass bead",
        "contact_pair",
        {"particle_radius": 2 * MM, **_mat(STEEL), "other_radius": 1 * MM},
        ("effective_modulus", _C1[2]),
    ),
    (
        "E* and G* for glass on glass, 1 mm beads",
        "contact_pair",
        {"particle_radius": 0.5 * MM, **_mat(GLASS)},
        ("effective_shear_modulus", _C2[3]),
    ),
    (
        "kt/kn ratio for 1 mm sand grains",
        "contact_pair",
        {"particle_radius": 0.5 * MM, **_mat(SAND)},
        ("stiffness_ratio", 2 * (1 - 0.08) / (2 - 0.08)),
    ),
    (
        "Mindlin tangential stiffness, 2 mm glass beads, overlap 1 um",
        "contact_pair",
        {"particle_radius": 1 * MM, "overlap": 1 * UM},
        ("tangential_stiffness", 8 * _C4[3] * math.sqrt(_C4[0] * 1 * UM)),
    ),
    (
        "hertz normal stiffness of 6 mm nylon pellets at an overlap of 0.002 mm",
        "contact_pair",
        {"particle_radius": 3 * MM, **_mat(NYLON), "overlap": 2 * UM},
        ("normal_stiffness_tangent", 2 * _C5[2] * math.sqrt(_C5[0] * 2 * UM)),
    ),
    (
        "equivalent linear spring for 3 mm glass beads at 2 m/s",
        "contact_pair",
        {"particle_radius": 1.5 * MM, "impact_velocity": 2.0},
        ("linear_stiffness_equal_overlap", _k_delta(_C6, 2.0)),
    ),
    (
        "equivalent linear stiffness of a 10 mm steel ball on a glass plate at 0.5 m/s",
        "contact_pair",
        {"particle_radius": 5 * MM, **_mat(STEEL), "wall": True, "wall_youngs_modulus": 70e9},
        ("linear_stiffness_equal_overlap", _k_delta(_C7, 0.5)),
    ),
    (
        "effective modulus: E1 = 70 GPa, nu1 = 0.25, E2 = 210 GPa, nu2 = 0.3, R1 = 1 mm, "
        "R2 = 2 mm, density 2500",
        "contact_pair",
        {"particle_radius": 1 * MM, "other_radius": 2 * MM, "other_youngs_modulus": 210e9},
        ("effective_modulus", _C8[2]),
    ),
    (
        "effective radius and mass of 2 mm and 3 mm glass beads in contact",
        "contact_pair",
        {"particle_radius": 1 * MM, "other_radius": 1.5 * MM},
        ("effective_mass", _C9[1]),
    ),
    (
        "G* for PP particles r = 0.1 in against a rigid wall",
        "contact_pair",
        {"particle_radius": 0.1 * INCH, **_mat(PP), "wall": True, "wall_youngs_modulus": None},
        ("effective_shear_modulus", _C10[3]),
    ),
    (
        "E* for 1 mm glass beads softened to E = 2·10⁹ Pa",
        "contact_pair",
        {"particle_radius": 0.5 * MM, "youngs_modulus": 2e9},
        ("effective_modulus", _C11[2]),
    ),
]

COHESION: list[Row] = [
    (
        "JKR pull-off force for 10 um glass particles, surface energy 0.1 J/m2",
        "cohesion_numbers",
        {"particle_radius": 5 * UM, "surface_energy": 0.1},
        ("pull_off_force_jkr", _jkr(0.1, 2.5 * UM)),
    ),
    (
        "bond number of 50 µm limestone powder with a work of adhesion of 40 mJ/m²",
        "cohesion_numbers",
        {"particle_radius": 25 * UM, "density": 2700.0, "surface_energy": 0.04},
        ("bond_number_jkr", _jkr(0.04, 12.5 * UM) / _weight(25 * UM, 2700.0)),
    ),
    (
        "DMT pull-off of a 20 micron particle on a wall, Δγ = 0.03 J/m^2, density 1.2 g/cc",
        "cohesion_numbers",
        {"particle_radius": 10 * UM, "wall": True, "surface_energy": 0.03, "density": 1200.0},
        ("pull_off_force_dmt", 2 * PI * 0.03 * 10 * UM),
    ),
    (
        "what surface energy gives Bo = 1 for 0.2 mm sand",
        "cohesion_numbers",
        {"particle_radius": 0.1 * MM, "density": 2650.0, "target_bond_number": 1.0},
        (
            "surface_energy_for_target_jkr",
            _weight(0.1 * MM, 2650.0) / (1.5 * PI * 0.05 * MM),
        ),
    ),
    (
        "liquid bridge force between 2 mm glass beads in water, contact angle 30°",
        "cohesion_numbers",
        {"particle_radius": 1 * MM, "liquid_surface_tension": 0.0728, "contact_angle": 30.0},
        ("liquid_bridge_force", 4 * PI * 0.5 * MM * 0.0728 * math.cos(math.radians(30))),
    ),
    (
        "capillary force of a 1 mm bead on a plate, surface tension 72 mN/m, theta = 0 deg",
        "cohesion_numbers",
        {"particle_radius": 0.5 * MM, "wall": True, "liquid_surface_tension": 0.072},
        ("liquid_bridge_force", 4 * PI * 0.5 * MM * 0.072),
    ),
    (
        "cohesion of 5 um alumina particles, surface energy per surface 0.05 J/m2",
        "cohesion_numbers",
        {"particle_radius": 2.5 * UM, "density": 3900.0},
        ("pull_off_force_jkr", _jkr(0.1, 1.25 * UM)),
    ),
    (
        "Tabor parameter for 10 um glass beads, Δγ 0.05 J/m², E 70 GPa, ν 0.25",
        "cohesion_numbers",
        {"particle_radius": 5 * UM, "surface_energy": 0.05, "youngs_modulus": 70e9},
        ("tabor_parameter", _tabor(2.5 * UM, 0.05, 70e9 / (2 * (1 - 0.25**2)))),
    ),
    (
        "bond number on a wall for surface energy 0.02 J/m2, particle radius 25 micrometres, "
        "density 1500 kg/m3",
        "cohesion_numbers",
        {"particle_radius": 25 * UM, "wall": True, "density": 1500.0},
        ("bond_number_jkr", _jkr(0.02, 25 * UM) / _weight(25 * UM, 1500.0)),
    ),
]

CFD: list[Row] = [
    (
        "terminal velocity of a 2 mm glass bead in water",
        "cfd_dem_numbers",
        {"particle_diameter": 2 * MM, "particle_density": 2500.0, "fluid_density": 998.2},
        ("terminal_velocity", terminal_velocity(2 * MM, 2500.0, 998.2, 1.002e-3)),
    ),
    (
        "settling velocity of 100 micron sand in air",
        "cfd_dem_numbers",
        {"particle_diameter": 0.1 * MM, "particle_density": 2650.0, "fluid_viscosity": 1.81e-5},
        ("terminal_velocity", terminal_velocity(0.1 * MM, 2650.0, *AIR)),
    ),
    (
        "Archimedes number for 0.5mm steel shot in water",
        "cfd_dem_numbers",
        {"particle_diameter": 0.5 * MM, "particle_density": 7850.0},
        ("archimedes_number", archimedes(0.5 * MM, 7850.0, 998.2, 1.002e-3)),
    ),
    (
        "particle Reynolds number of 1 mm glass beads in water at a slip velocity of 0.05 m/s",
        "cfd_dem_numbers",
        {"particle_diameter": 1 * MM, "slip_velocity": 0.05},
        ("particle_reynolds", _rep(1 * MM, 998.2, 1.002e-3, 0.05)),
    ),
    (
        "Stokes number of 50 um particles, density 1500 kg/m3, in air, L = 20 mm and U = 5 m/s",
        "cfd_dem_numbers",
        {"particle_diameter": 50 * UM, "characteristic_length": 0.02, "flow_velocity": 5.0},
        ("stokes_number", 1500.0 * (50 * UM) ** 2 / (18 * 1.81e-5) * 5.0 / 0.02),
    ),
    (
        "is a 5 mm cell ok for 2 mm PP pellets in water?",
        "cfd_dem_numbers",
        {"particle_diameter": 2 * MM, "particle_density": 905.0, "cfd_cell_size": 5 * MM},
        ("cell_to_diameter", 2.5),
    ),
    (
        "terminal velocity of a 3 mm particle, rho_p = 1100 kg/m³, in a liquid with density "
        "1000 kg/m3 and viscosity 5 cP",
        "cfd_dem_numbers",
        {"particle_density": 1100.0, "fluid_density": 1000.0, "fluid_viscosity": 5e-3},
        ("terminal_velocity", terminal_velocity(3 * MM, 1100.0, 1000.0, 5e-3)),
    ),
    (
        "terminal settling velocity, d = 0.2 mm, particle density 2.65 g/cm3, water, "
        "Dallavalle drag",
        "cfd_dem_numbers",
        {"particle_diameter": 0.2 * MM, "particle_density": 2650.0},
        ("terminal_velocity", terminal_velocity(0.2 * MM, 2650.0, 998.2, 1.002e-3, True)),
    ),
    (
        "di felice exponent for 0.3 mm glass in water, slip 0.02 m/s, voidage 0.45",
        "cfd_dem_numbers",
        {"particle_diameter": 0.3 * MM, "slip_velocity": 0.02, "voidage": 0.45},
        ("difelice_exponent", _chi(_rep(0.3 * MM, 998.2, 1.002e-3, 0.02, 0.45))),
    ),
    (
        "terminal velocity of 1 mm glass beads in a fluid of viscosity 1 mPa·s and density "
        "1000 kg/m^3",
        "cfd_dem_numbers",
        {"fluid_viscosity": 1e-3, "fluid_density": 1000.0},
        ("terminal_velocity", terminal_velocity(1 * MM, 2500.0, 1000.0, 1e-3)),
    ),
    (
        "reynolds number of a 0.04 in steel bead in air at 2 ft/s slip",
        "cfd_dem_numbers",
        {"particle_diameter": 0.04 * INCH, "particle_density": 7850.0, "slip_velocity": 2 * FT},
        ("particle_reynolds", _rep(0.04 * INCH, 1.205, 1.81e-5, 2 * FT)),
    ),
]

_G7_N = 5.0 / (2500.0 * PI * (0.1 * MM) ** 3 / 6)

COARSE: list[Row] = [
    (
        "coarse grain 0.2 mm particles by a factor of 5, 5e7 particles",
        "coarse_graining",
        {"particle_diameter": 0.2 * MM, "scale_factor": 5.0, "n_particles": 5e7},
        ("parcel_count", 5e7 / 125),
    ),
    (
        "parcel count for 2×10^8 particles with scale factor 4",
        "coarse_graining",
        {"scale_factor": 4.0, "n_particles": 2e8},
        ("parcel_count", 2e8 / 64),
    ),
    (
        "how should stiffness 2000 N/m and dt 5e-7 s scale when coarse graining by 3",
        "coarse_graining",
        {"scale_factor": 3.0, "stiffness": 2000.0, "timestep": 5e-7},
        ("stiffness_parcel", 6000.0),
    ),
    (
        "coarse graining factor 8, surface energy 20 mJ/m2, keep the Bond number",
        "coarse_graining",
        {"scale_factor": 8.0, "surface_energy": 0.02},
        ("surface_energy_parcel", 64 * 0.02),
    ),
    (
        "coarse graining s = 2 with damping coefficient 0.01 N s/m",
        "coarse_graining",
        {"scale_factor": 2.0, "damping_coefficient": 0.01},
        ("damping_parcel", 0.04),
    ),
    (
        "scale factor to go from 1e9 particles to 1e6 parcels",
        "coarse_graining",
        {"n_particles": 1e9, "n_parcels": 1e6},
        ("scale_factor", 10.0),
    ),
    (
        "coarse grain 100 µm powder with s=10, total mass 5 kg, density 2500 kg/m3",
        "coarse_graining",
        {"particle_diameter": 0.1 * MM, "scale_factor": 10.0, "total_mass": 5.0},
        ("parcel_count", _G7_N / 1000),
    ),
    (
        "coarse graining s=6, time step 1 µs",
        "coarse_graining",
        {"scale_factor": 6.0, "timestep": 1e-6},
        ("timestep_parcel", 6e-6),
    ),
    (
        "particle-step saving for coarse graining by 2.5",
        "coarse_graining",
        {"scale_factor": 2.5},
        ("particle_step_reduction", 2.5**4),
    ),
    (
        "upscale 1 mm glass beads with a coarse graining factor of 4, smallest feature 20 mm",
        "coarse_graining",
        {"scale_factor": 4.0, "particle_diameter": 1 * MM, "smallest_feature": 0.02},
        ("feature_to_parcel", 0.02 / (4 * MM)),
    ),
]

COST: list[Row] = [
    (
        "how long will 5 s at dt=1e-6 s take with 200000 particles, 2e6 particle-steps per "
        "core-second, 32 cores",
        "simulation_cost",
        {"duration": 5.0, "timestep": 1e-6, "n_particles": 2e5, "n_cores": 32},
        ("wall_time_hours", _wall_hours(2e5, 5.0, 1e-6, 2e6, 32)),
    ),
    (
        "number of time steps for 2.5 s with a 5 µs step",
        "simulation_cost",
        {"duration": 2.5, "timestep": 5e-6},
        ("time_steps", 5e5),
    ),
    (
        "core hours for 1 million particles, 3 s simulated, dt 2e-6, throughput 5e5, 48 cores, "
        "80% parallel efficiency",
        "simulation_cost",
        {"n_particles": 1e6, "n_cores": 48, "parallel_efficiency": 0.8},
        ("core_hours", _wall_hours(1e6, 3.0, 2e-6, 5e5, 48, 0.8) * 48),
    ),
    (
        "insertion rate for 10 t/h of 4 mm limestone",
        "simulation_cost",
        {"mass_flow_rate": 10000 / 3600, "particle_diameter": 4 * MM, "density": 2700.0},
        ("insertion_rate", _insertion(10000 / 3600, [4 * MM], [1.0], 2700.0)),
    ),
    (
        "particles per second for 0.5 kg/s of 2 mm glass beads",
        "simulation_cost",
        {"mass_flow_rate": 0.5, "particle_diameter": 2 * MM},
        ("insertion_rate", _insertion(0.5, [2 * MM], [1.0], 2500.0)),
    ),
    (
        "how many particles per second to feed 3 kg/s of sand with sizes 1, 2, 3 mm at mass "
        "fractions 0.2, 0.5, 0.3",
        "simulation_cost",
        {"mass_flow_rate": 3.0, "density": 2650.0},
        ("insertion_rate", _insertion(3.0, [1 * MM, 2 * MM, 3 * MM], [0.2, 0.5, 0.3], 2650.0)),
    ),
    (
        "wall clock for 1e5 particles, 2 s at dt = 1 us, 1e6 particle steps per second per "
        "core, 8 cores",
        "simulation_cost",
        {"n_particles": 1e5, "timestep": 1e-6, "n_cores": 8},
        ("wall_time", _wall_hours(1e5, 2.0, 1e-6, 1e6, 8) * 3600),
    ),
    (  # the step count alone is the part-1 tool (docs/values.md: no particles, cores, throughput)
        "how many time steps is 0.5 s at a 2.5e-6 s timestep",
        "timesteps_for_duration",
        {"duration": 0.5, "timestep": 2.5e-6},
        ("steps", 2e5),
    ),
    (
        "insertion rate for 100 kg/h of 500 micron PP granules",
        "simulation_cost",
        {"mass_flow_rate": 100 / 3600, "particle_diameter": 0.5 * MM, "density": 905.0},
        ("insertion_rate", _insertion(100 / 3600, [0.5 * MM], [1.0], 905.0)),
    ),
    (
        "500k particles, 2 s, dt 1e-6 s, throughput 1e6, 16 cores: wall time?",
        "simulation_cost",
        {"n_particles": 5e5, "n_cores": 16},
        ("wall_time_hours", _wall_hours(5e5, 2.0, 1e-6, 1e6, 16)),
    ),
    (
        "core-hours for 1,000,000 particles over 1 s at dt 1e-6 s, throughput 1e6, 10 cores",
        "simulation_cost",
        {"n_particles": 1e6, "n_cores": 10},
        ("core_hours", _wall_hours(1e6, 1.0, 1e-6, 1e6, 10) * 10),
    ),
]

POLY: list[Row] = [
    (
        "rayleigh time step for glass beads with mean 3 mm and sd 0.3 mm",
        "polydisperse_rayleigh",
        {"mean_diameter": 3 * MM, "std_dev": 0.3 * MM, **_mat(GLASS)},
        ("rayleigh_timestep", rayleigh(2.1 * MM, GLASS)),
    ),
    (
        "time step for a PSD of 0.5, 1 and 2 mm steel shot",
        "polydisperse_rayleigh",
        {**_mat(STEEL)},
        ("rayleigh_timestep", rayleigh(0.5 * MM, STEEL)),
    ),
    (
        "polydisperse rayleigh: sand, d50 = 1 mm, standard deviation 0.2 mm",
        "polydisperse_rayleigh",
        {"mean_diameter": 1 * MM, "std_dev": 0.2 * MM, **_mat(SAND)},
        ("rayleigh_timestep", rayleigh(0.4 * MM, SAND)),
    ),
    (
        "rayleigh step for PP pellets between 2 and 4 mm",
        "polydisperse_rayleigh",
        {**_mat(PP)},
        ("rayleigh_timestep", rayleigh(2 * MM, PP)),
    ),
    (
        "time step for a size distribution whose smallest particle is 150 µm, glass",
        "polydisperse_rayleigh",
        {"min_diameter": 0.15 * MM},
        ("rayleigh_timestep", rayleigh(0.15 * MM, GLASS)),
    ),
    (
        "rayleigh time step for a distribution of 1, 1.5, 2 mm, E = 50 MPa, ν = 0.3, "
        "ρ = 1500 kg/m3",
        "polydisperse_rayleigh",
        {"youngs_modulus": 5e7, "poisson_ratio": 0.3, "density": 1500.0},
        ("recommended_timestep", 0.2 * rayleigh(1 * MM, (1500.0, 5e7, 0.3))),
    ),
    (
        "polydisperse time step: mean 1 mm, sd 0.4 mm, capped at 0.6 mm, alumina",
        "polydisperse_rayleigh",
        {"min_diameter": 0.6 * MM, **_mat(ALUMINA)},
        ("rayleigh_timestep", rayleigh(0.6 * MM, ALUMINA)),
    ),
    (
        "rayleigh time step for a lognormal PSD of glass, geometric mean 1 mm, geometric sd 1.2",
        "polydisperse_rayleigh",
        {"mean_diameter": 1 * MM, "std_dev": 1.2},
        ("rayleigh_timestep", rayleigh(1 * MM / 1.2**3, GLASS)),
    ),
    (
        "rayleigh dt for a PSD with mean 2 mm and σ 0.5 mm, steel, E = 200 GPa",
        "polydisperse_rayleigh",
        {"youngs_modulus": 200e9, "density": 7850.0},
        ("rayleigh_timestep", rayleigh(0.5 * MM, (7850.0, 200e9, 0.3))),
    ),
    (
        "time step for mixed sizes 2 mm and 0.8 mm glass beads",
        "polydisperse_rayleigh",
        {**_mat(GLASS)},
        ("rayleigh_timestep", rayleigh(0.8 * MM, GLASS)),
    ),
]

FLOW: list[Row] = [
    (
        "froude number of a 0.6 m diameter drum at 20 rpm",
        "flow_regime",
        {"drum_radius": 0.3, "rotation_speed": 20.0},
        ("froude_number", froude(0.3, 20.0)),
    ),
    (
        "flow regime of a drum with radius 150 mm rotating at 2 rad/s",
        "flow_regime",
        {"drum_radius": 0.15},  # 2 rad/s in rotation_speed or angular_velocity: the same ω
        ("froude_number", 4 * 0.15 / G0),
    ),
    (
        "critical speed of a 2 ft diameter mill running at 30 rpm",
        "flow_regime",
        {"drum_radius": FT, "rotation_speed": 30.0},
        ("critical_speed", 60 / (2 * PI) * math.sqrt(G0 / FT)),
    ),
    (
        "inertial number: shear rate 50 1/s, 0.5 mm glass, pressure 2 kPa",
        "flow_regime",
        {"shear_rate": 50.0, "particle_diameter": 0.5 * MM, "pressure": 2000.0},
        ("inertial_number", inertial(50.0, 0.5 * MM, 2000.0, 2500.0)),
    ),
    (
        "is my flow quasi-static? d=3 mm, γ̇ = 0.1 s^-1, P = 10 kPa, ρ_s = 2650 kg/m3",
        "flow_regime",
        {"shear_rate": 0.1, "particle_diameter": 3 * MM, "density": 2650.0},
        ("inertial_number", inertial(0.1, 3 * MM, 1e4, 2650.0)),
    ),
    (
        "inertial number for 1 mm sand, shear rate 20 /s, confining pressure 500 Pa",
        "flow_regime",
        {"shear_rate": 20.0, "pressure": 500.0, "density": 2650.0},
        ("inertial_number", inertial(20.0, 1 * MM, 500.0, 2650.0)),
    ),
    (
        "froude number of a kiln, 4 m diameter, 1.5 rpm, filling 12 %",
        "flow_regime",
        {"drum_radius": 2.0, "rotation_speed": 1.5, "filling_degree": 0.12},
        ("froude_number", froude(2.0, 1.5)),
    ),
    (
        "drum regime: R = 0.1 m, 30 RPM",
        "flow_regime",
        {"drum_radius": 0.1, "rotation_speed": 30.0},
        ("froude_number", froude(0.1, 30.0)),
    ),
    (
        "rotating drum 500 mm across at 0.5 rev/s",
        "flow_regime",
        {"drum_radius": 0.25},
        ("froude_number", froude(0.25, 30.0)),
    ),
    (
        "inertial number with shear rate 100 1/s, d 2 mm, P 0.5 psi, density 2500",
        "flow_regime",
        {"pressure": 0.5 * PSI},
        ("inertial_number", inertial(100.0, 2 * MM, 0.5 * PSI, 2500.0)),
    ),
]

BEVERLOO: list[Row] = [
    (
        "beverloo discharge rate through a 60 mm orifice for 3 mm particles, bulk density "
        "1550 kg/m3",
        "beverloo_discharge",
        {"orifice_diameter": 0.06, "particle_diameter": 3 * MM, "bulk_density": 1550.0},
        ("mass_flow_rate", beverloo(0.06, 3 * MM, 1550.0)),
    ),
    (
        "silo outflow, outlet 4 in, 5 mm pellets, bulk density 600 kg/m³",
        "beverloo_discharge",
        {"orifice_diameter": 4 * INCH, "bulk_density": 600.0},
        ("mass_flow_rate", beverloo(4 * INCH, 5 * MM, 600.0)),
    ),
    (
        "how fast does 500 kg of 2 mm glass beads empty through a 50 mm hole, bulk density "
        "1.5 g/cc",
        "beverloo_discharge",
        {"fill_mass": 500.0, "bulk_density": 1500.0},
        ("discharge_time", 500.0 / beverloo(0.05, 2 * MM, 1500.0)),
    ),
    (
        "mass flow through a 25 mm orifice, d = 1 mm, ρ_b = 1600 kg/m^3, k = 1.4",
        "beverloo_discharge",
        {"orifice_diameter": 0.025, "shape_coefficient": 1.4},
        ("mass_flow_rate", beverloo(0.025, 1 * MM, 1600.0, k=1.4)),
    ),
    (
        "hopper discharge for wheat, d 4 mm, bulk density 780 kg/m3, outlet 100 mm, C 0.6",
        "beverloo_discharge",
        {"orifice_diameter": 0.1, "discharge_coefficient": 0.6},
        ("mass_flow_rate", beverloo(0.1, 4 * MM, 780.0, c=0.6)),
    ),
    (
        "beverloo: D0 = 2 in, d = 0.1 in, bulk 95 lb/ft3",
        "beverloo_discharge",
        {"orifice_diameter": 2 * INCH, "particle_diameter": 0.1 * INCH},
        ("mass_flow_rate", beverloo(2 * INCH, 0.1 * INCH, 95 * LB_FT3)),
    ),
    (
        "discharge rate of a silo with a 30 mm outlet and 1 mm sand, bulk density 1450, "
        "silo diameter 0.3 m",
        "beverloo_discharge",
        {"orifice_diameter": 0.03, "silo_diameter": 0.3, "bulk_density": 1450.0},
        ("mass_flow_rate", beverloo(0.03, 1 * MM, 1450.0)),
    ),
    (
        "beverloo flow in kg/h for D0 80 mm, d 2.5 mm, rho_b 1700 kg/m3",
        "beverloo_discharge",
        {"orifice_diameter": 0.08, "particle_diameter": 2.5 * MM},
        ("mass_flow_rate_per_hour", beverloo(0.08, 2.5 * MM, 1700.0) * 3600),
    ),
    (
        "outflow from a hopper: orifice diameter 0.05 m, particles 3 mm, bulk density "
        "1500 kg/m3, angular grains, k=2.9",
        "beverloo_discharge",
        {"shape_coefficient": 2.9, "particle_diameter": 3 * MM},
        ("mass_flow_rate", beverloo(0.05, 3 * MM, 1500.0, k=2.9)),
    ),
    (
        "beverloo discharge, orifice 50 mm, 2 mm particles, bulk density 2 500 kg/m3",
        "beverloo_discharge",
        {"bulk_density": 2500.0},
        ("mass_flow_rate", beverloo(0.05, 2 * MM, 2500.0)),
    ),
]

ROLLING: list[Row] = [
    (
        "rolling stiffness for kn = 2e5 N/m, mu_r = 0.05, 3 mm glass beads",
        "rolling_resistance",
        {"normal_stiffness": 2e5, "rolling_friction": 0.05, "particle_radius": 1.5 * MM},
        ("rolling_stiffness", _kr(2e5, 0.05, 0.75 * MM)),
    ),
    (
        "EPSD rolling resistance, rolling friction 0.2, steel R = 1 mm on a steel wall, "
        "overlap 1 µm",
        "rolling_resistance",
        {"rolling_friction": 0.2, "particle_radius": 1 * MM, "wall": True, "overlap": 1 * UM},
        ("rolling_stiffness", _kr(_hertz_kn(_L2, 1 * UM), 0.2, 1 * MM)),
    ),
    (
        "max rolling torque: mu_r 0.1, radius 2 mm, normal force 5 N, kn 1e5",
        "rolling_resistance",
        {"rolling_friction": 0.1, "particle_radius": 2 * MM, "normal_force": 5.0},
        ("max_rolling_torque", 0.1 * 1 * MM * 5.0),
    ),
    (
        "does rolling friction 0.3 limit my time step? kn=1e4 N/m, 1 mm glass beads, dt 1e-5 s",
        "rolling_resistance",
        {"rolling_friction": 0.3, "particle_radius": 0.5 * MM, "timestep": 1e-5},
        ("timestep_limit_rolling", 2 / math.sqrt(_L4_KR / _L4_IR)),
    ),
    (
        "rolling damping with μr = 0.15, η_r = 0.2, kn = 5e4 N/m, 2 mm sand",
        "rolling_resistance",
        {"rolling_friction": 0.15, "rolling_damping": 0.2, "density": 2650.0},
        ("rolling_damping_coefficient", 0.2 * 2 * math.sqrt(_L5_IR * _L5_KR)),
    ),
    (
        "type C rolling model: mu_r=0.1, R=0.5 mm, k_n=3×10^4 N/m, Fn = 0.2 N",
        "rolling_resistance",
        {"normal_stiffness": 3e4, "particle_radius": 0.5 * MM, "normal_force": 0.2},
        ("max_rolling_torque", 0.1 * 0.25 * MM * 0.2),
    ),
    (
        "rolling resistance coefficient 0.25 for 4 mm PP balls with E = 1.5 GPa, nu 0.42, "
        "overlap 5 um",
        "rolling_resistance",
        {"rolling_friction": 0.25, "particle_radius": 2 * MM, "overlap": 5 * UM},
        ("rolling_stiffness", _kr(_hertz_kn(_L7, 5 * UM), 0.25, 1 * MM)),
    ),
    (
        "rolling stiffness, μ_r 0.08, kn 8e4 N/m, radius 0.75 mm",
        "rolling_resistance",
        {"rolling_friction": 0.08, "normal_stiffness": 8e4, "particle_radius": 0.75 * MM},
        ("rolling_stiffness", _kr(8e4, 0.08, 0.375 * MM)),
    ),
    (
        "rolling friction 0.1 for 1 mm glass beads against a wall, kn 2e4 N/m",
        "rolling_resistance",
        {"rolling_friction": 0.1, "particle_radius": 0.5 * MM, "wall": True},
        ("rolling_stiffness", _kr(2e4, 0.1, 0.5 * MM)),
    ),
]

ALL_ROUNDS: list[Row] = HERTZ + CONTACT + COHESION + CFD + COARSE + COST + POLY + FLOW
ALL_ROUNDS += BEVERLOO + ROLLING

# -- round two: harder spellings (still written before reading the reader) -----------------------

_R6 = pair(1 * MM, GLASS, 2 * MM, GLASS)
_R26_IR = rolling_inertia_pair(1 * MM, 2500.0, 1 * MM, 2500.0)
_R26_KR = _kr(1e5, 0.12, 0.5 * MM)
_STEPS = "timesteps_for_duration|simulation_cost"  # both count the steps (R2.6, part 1 §1.8)

ROUND_TWO: list[Row] = [
    (
        "max overlap of 2 mm glass beads at 3.6 km/h",
        "hertz_max_overlap",
        {"impact_velocity": 1.0},
        ("max_overlap", max_overlap(1.0, 1 * MM, GLASS)),
    ),
    (
        "hertz overlap for 1 mm steel balls, v_rel = 2 m/s, E = 2.1e+11 Pa",
        "hertz_max_overlap",
        {"particle_radius": 0.5 * MM, "youngs_modulus": 2.1e11, "impact_velocity": 2.0},
        ("max_overlap", max_overlap(2.0, 0.5 * MM, STEEL)),
    ),
    (
        "max overlap: glass beads .5 mm dia at 1 m/s",
        "hertz_max_overlap",
        {"particle_radius": 0.25 * MM},
        ("max_overlap", max_overlap(1.0, 0.25 * MM, GLASS)),
    ),
    (
        "peak overlap, d=2mm, rho=2500kg/m3, E=7 × 10¹⁰ Pa, Poisson's ratio 0.25, impact "
        "velocity 1m/s",
        "hertz_max_overlap",
        {"particle_radius": 1 * MM, "youngs_modulus": 7e10, "poisson_ratio": 0.25},
        ("max_overlap", max_overlap(1.0, 1 * MM, GLASS)),
    ),
    (
        "max overlap of 2 mm glass beads at 1 m/s, E = 70000 MPa, nu = 0.22",
        "hertz_max_overlap",
        {"youngs_modulus": 7e10, "poisson_ratio": 0.22},
        ("max_overlap", max_overlap(1.0, 1 * MM, (2500.0, 70e9, 0.22))),
    ),
    (
        "contact pair: a 2 mm glass bead hitting a 4 mm one, overlap 500 nm",
        "contact_pair",
        {"particle_radius": 1 * MM, "other_radius": 2 * MM, "overlap": 5e-7},
        ("normal_force", 4 / 3 * _R6[2] * math.sqrt(_R6[0]) * (5e-7) ** 1.5),
    ),
    (
        "effective mass of a 2 mm steel ball and a 2 mm glass bead",
        "contact_pair",
        {"particle_radius": 1 * MM, **_mat(STEEL), "other_radius": 1 * MM},
        ("effective_mass", pair(1 * MM, STEEL, 1 * MM, GLASS)[1]),
    ),
    (
        "JKR pull-off for 30 µm glass, surface energy 0.05 N/m",
        "cohesion_numbers",
        {"particle_radius": 15 * UM, "surface_energy": 0.05},
        ("pull_off_force_jkr", _jkr(0.05, 7.5 * UM)),
    ),
    (
        "liquid bridge between 1 mm glass beads, water, contact angle 0.35 rad",
        "cohesion_numbers",
        {"contact_angle": math.degrees(0.35)},
        ("liquid_bridge_force", 4 * PI * 0.25 * MM * 0.0728 * math.cos(0.35)),
    ),
    (
        "bond number for 100 um PP particles with surface energy 0.02 J/m^2 and a target bond "
        "number of 5",
        "cohesion_numbers",
        {"target_bond_number": 5.0, "density": 905.0},
        ("bond_number_jkr", _jkr(0.02, 25 * UM) / _weight(50 * UM, 905.0)),
    ),
    (
        "terminal velocity of a 2 mm sand grain in a fluid with density 1.2 kg/m3 and viscosity "
        "1.8e-5 Pa s",
        "cfd_dem_numbers",
        {"particle_density": 2650.0, "fluid_density": 1.2, "fluid_viscosity": 1.8e-5},
        ("terminal_velocity", terminal_velocity(2 * MM, 2650.0, 1.2, 1.8e-5)),
    ),
    (
        "terminal velocity of 0.5 mm glass beads in water, CFD mesh 2 mm",
        "cfd_dem_numbers",
        {"cfd_cell_size": 2 * MM},
        ("cell_to_diameter", 4.0),
    ),
    (
        "Stokes number of 1 mm glass beads in air flowing at 5 m/s around a 10 mm cylinder",
        "cfd_dem_numbers",
        {"characteristic_length": 0.01, "flow_velocity": 5.0},
        ("stokes_number", 2500.0 * (1 * MM) ** 2 / (18 * 1.81e-5) * 5.0 / 0.01),
    ),
    (
        "CG factor 4 for 3e7 particles",
        "coarse_graining",
        {"scale_factor": 4.0, "n_particles": 3e7},
        ("parcel_count", 3e7 / 64),
    ),
    (
        "coarse graining with cg = 5, k = 10 kN/m",
        "coarse_graining",
        {"scale_factor": 5.0, "stiffness": 1e4},
        ("stiffness_parcel", 5e4),
    ),
    (
        "coarse graining with kn = 100 N/mm and scale factor 2",
        "coarse_graining",
        {"scale_factor": 2.0, "stiffness": 1e5},
        ("stiffness_parcel", 2e5),
    ),
    (
        "simulate 2 minutes with dt = 5 µs, 1e5 particles, 1e6 particle-steps per core-second, "
        "4 cores: how long?",
        "simulation_cost",
        {"duration": 120.0, "timestep": 5e-6},
        ("wall_time_hours", _wall_hours(1e5, 120.0, 5e-6, 1e6, 4)),
    ),
    (
        "time steps for 30 seconds at a step of 1 microsecond",
        _STEPS,
        {"duration": 30.0, "timestep": 1e-6},
        ("steps|time_steps", 3e7),
    ),
    (
        "insertion rate for 1.5 t/h of 3 mm steel shot",
        "simulation_cost",
        {"mass_flow_rate": 1500 / 3600, "density": 7850.0},
        ("insertion_rate", _insertion(1500 / 3600, [3 * MM], [1.0], 7850.0)),
    ),
    (
        "polydisperse time step for glass beads whose smallest size is 0.2 mm, mean 1 mm",
        "polydisperse_rayleigh",
        {"min_diameter": 0.2 * MM},
        ("rayleigh_timestep", rayleigh(0.2 * MM, GLASS)),
    ),
    (
        "froude number, drum 1.2 m diameter, 0.1 rev/s",
        "flow_regime",
        {"drum_radius": 0.6},
        ("froude_number", froude(0.6, 6.0)),
    ),
    (
        "inertial number, shear rate 5 s-1, d = 1 mm glass, P = 1 bar",
        "flow_regime",
        {"shear_rate": 5.0, "pressure": 1e5},
        ("inertial_number", inertial(5.0, 1 * MM, 1e5, 2500.0)),
    ),
    (
        "inertial number: γ̇=2 1/s, d50=0.8 mm, normal stress 0.1 MPa, ρ = 2600 kg/m³",
        "flow_regime",
        {"particle_diameter": 0.8 * MM, "pressure": 1e5, "density": 2600.0},
        ("inertial_number", inertial(2.0, 0.8 * MM, 1e5, 2600.0)),
    ),
    (
        "drum filled 30 percent, radius 0.4 m, 12 rpm",
        "flow_regime",
        {"filling_degree": 0.3, "drum_radius": 0.4},
        ("froude_number", froude(0.4, 12.0)),
    ),
    (
        "beverloo discharge, orifice Ø 50 mm, 2 mm beads, bulk density 1.5 t/m3",
        "beverloo_discharge",
        {"orifice_diameter": 0.05, "bulk_density": 1500.0},
        ("mass_flow_rate", beverloo(0.05, 2 * MM, 1500.0)),
    ),
    (
        "discharge through a 5 cm opening in a silo, 1.5 mm particles, bulk density 1600 kg/m3",
        "beverloo_discharge",
        {"orifice_diameter": 0.05},
        ("mass_flow_rate", beverloo(0.05, 1.5 * MM, 1600.0)),
    ),
    (
        "rolling resistance, mu_r = 0.1, kn = 100 N/mm, r = 1 mm",
        "rolling_resistance",
        {"normal_stiffness": 1e5},
        ("rolling_stiffness", _kr(1e5, 0.1, 0.5 * MM)),
    ),
    (
        "rolling friction coefficient of 0.12 and rolling damping 0.3, k_n=1e5N/m, d=2mm, glass",
        "rolling_resistance",
        {"rolling_friction": 0.12, "rolling_damping": 0.3, "particle_radius": 1 * MM},
        ("rolling_damping_coefficient", 0.3 * 2 * math.sqrt(_R26_IR * _R26_KR)),
    ),
]

ALL_ROUNDS += ROUND_TWO

# -- sweeps: (text, tool, parameter, SI values or (start, stop, points) , key, key per point) ------

SweepRow = tuple[str, str, str, Any, str, Callable[[float], float]]

SWEEPS: list[SweepRow] = [
    (
        "max overlap of 2 mm glass beads at 1, 2 and 5 m/s",
        "hertz_max_overlap",
        "impact_velocity",
        [1.0, 2.0, 5.0],
        "max_overlap",
        lambda v: max_overlap(v, 1 * MM, GLASS),
    ),
    (
        "max overlap for 2 mm glass beads at 1 m/s with E from 10 MPa to 1 GPa in 5 log steps",
        "hertz_max_overlap",
        "youngs_modulus",
        [1e7, 1e7 * 10**0.5, 1e8, 1e8 * 10**0.5, 1e9],
        "max_overlap",
        lambda e: max_overlap(1.0, 1 * MM, (2500.0, e, 0.25)),
    ),
    (
        "terminal velocity of glass beads in water for 0.1, 0.5 and 1 mm",
        "cfd_dem_numbers",
        "particle_diameter",
        [0.1 * MM, 0.5 * MM, 1 * MM],
        "terminal_velocity",
        lambda d: terminal_velocity(d, 2500.0, 998.2, 1.002e-3),
    ),
    (
        "froude number of a 1 m diameter drum at 5, 10, 20 and 40 rpm",
        "flow_regime",
        "rotation_speed",
        [5.0, 10.0, 20.0, 40.0],
        "froude_number",
        lambda n: froude(0.5, n),
    ),
    (
        "beverloo discharge for orifices from 20 to 100 mm in 5 steps, 2 mm sand, bulk density "
        "1500 kg/m3",
        "beverloo_discharge",
        "orifice_diameter",
        [0.02, 0.04, 0.06, 0.08, 0.1],
        "mass_flow_rate",
        lambda d0: beverloo(d0, 2 * MM, 1500.0),
    ),
    (
        "rolling stiffness for mu_r 0.05, 0.1 and 0.2, kn 1e5 N/m, 2 mm glass",
        "rolling_resistance",
        "rolling_friction",
        [0.05, 0.1, 0.2],
        "rolling_stiffness",
        lambda m: _kr(1e5, m, 0.5 * MM),
    ),
    (
        "bond number of 20 um glass particles for surface energy 0.01-0.1 J/m2 in 4 points",
        "cohesion_numbers",
        "surface_energy",
        [0.01, 0.04, 0.07, 0.1],
        "bond_number_jkr",
        lambda g: _jkr(g, 5 * UM) / _weight(10 * UM, 2500.0),
    ),
    (
        "coarse grain 1e8 particles with scale factors 2, 4 and 8",
        "coarse_graining",
        "scale_factor",
        [2.0, 4.0, 8.0],
        "parcel_count",
        lambda s: 1e8 / s**3,
    ),
    (
        "max overlap for 2 mm glass beads at 0.5–3 m/s in 6 points",
        "hertz_max_overlap",
        "impact_velocity",
        [0.5, 1.0, 1.5, 2.0, 2.5, 3.0],
        "max_overlap",
        lambda v: max_overlap(v, 1 * MM, GLASS),
    ),
    (
        "froude number of a 0.5 m radius drum from 10 to 40 rpm in 4 steps",
        "flow_regime",
        "rotation_speed",
        [10.0, 20.0, 30.0, 40.0],
        "froude_number",
        lambda n: froude(0.5, n),
    ),
    (
        "beverloo discharge, orifice 50 mm, bulk density 1500 kg/m3, particles of 1 mm, 2 mm "
        "and 3 mm",
        "beverloo_discharge",
        "particle_diameter",
        [1 * MM, 2 * MM, 3 * MM],
        "mass_flow_rate",
        lambda d: beverloo(0.05, d, 1500.0),
    ),
    (
        "rolling stiffness for kn 1e5 N/m, 2 mm glass, mu_r from 0.05 to 0.3 in 6 steps",
        "rolling_resistance",
        "rolling_friction",
        [0.05, 0.1, 0.15, 0.2, 0.25, 0.3],
        "rolling_stiffness",
        lambda m: _kr(1e5, m, 0.5 * MM),
    ),
    (
        "coarse graining by 2 to 10 in 5 steps, 1e9 particles",
        "coarse_graining",
        "scale_factor",
        [2.0, 4.0, 6.0, 8.0, 10.0],
        "parcel_count",
        lambda s: 1e9 / s**3,
    ),
    (
        "hertz overlap of 2 mm glass beads at 1 m/s for E = 1e7, 1e8 and 1e9 Pa",
        "hertz_max_overlap",
        "youngs_modulus",
        [1e7, 1e8, 1e9],
        "max_overlap",
        lambda e: max_overlap(1.0, 1 * MM, (2500.0, e, 0.25)),
    ),
    (  # a range of sizes for the one-size step is a sweep (docs/sweeps.md), not a distribution
        "time step for limestone grains of 0.25 to 1 mm at 10% of rayleigh",
        "rayleigh_timestep",
        "particle_radius",
        [0.125 * MM + i * (0.375 * MM) / 9 for i in range(10)],
        "rayleigh_timestep",
        lambda r: rayleigh(2 * r, LIMESTONE),
    ),
]

# -- follow-ups ---------------------------------------------------------------------------------

FollowUp = tuple[list[str], str, str, dict[str, Any], tuple[str, Any] | None]

_OVL = "max overlap for 2 mm glass beads at 1 m/s"
_DRUM = "froude number of a 1 m diameter drum at 10 rpm"
_SETTLE = "terminal velocity of a 1 mm glass bead in water"

FOLLOW_UPS: list[FollowUp] = [
    (
        [_OVL],
        "now with 3 mm",
        "hertz_max_overlap",
        {"particle_radius": 1.5 * MM},
        ("max_overlap", max_overlap(1.0, 1.5 * MM, GLASS)),
    ),
    (
        [_OVL],
        "same but steel",
        "hertz_max_overlap",
        {"particle_radius": 1 * MM, **_mat(STEEL)},
        ("max_overlap", max_overlap(1.0, 1 * MM, STEEL)),
    ),
    (
        [_OVL],
        "and at 5 m/s?",
        "hertz_max_overlap",
        {"impact_velocity": 5.0},
        ("max_overlap", max_overlap(5.0, 1 * MM, GLASS)),
    ),
    (
        [_OVL],
        "now at 300 mm/s",
        "hertz_max_overlap",
        {"impact_velocity": 0.3},
        ("max_overlap", max_overlap(0.3, 1 * MM, GLASS)),
    ),
    (
        [_DRUM],
        "what about 25 rpm?",
        "flow_regime",
        {"drum_radius": 0.5, "rotation_speed": 25.0},
        ("froude_number", froude(0.5, 25.0)),
    ),
    (
        [_DRUM],
        "and a 2 m drum?",
        "flow_regime",
        {"drum_radius": 1.0, "rotation_speed": 10.0},
        ("froude_number", froude(1.0, 10.0)),
    ),
    (
        ["beverloo discharge, 50 mm orifice, 2 mm particles, bulk density 1500"],
        "and for a 100 mm orifice",
        "beverloo_discharge",
        {"orifice_diameter": 0.1},
        ("mass_flow_rate", beverloo(0.1, 2 * MM, 1500.0)),
    ),
    (
        [_SETTLE],
        "and in air?",
        "cfd_dem_numbers",
        {"fluid_density": 1.205},
        ("terminal_velocity", terminal_velocity(1 * MM, 2500.0, *AIR)),
    ),
    (
        [_SETTLE],
        "same for steel",
        "cfd_dem_numbers",
        {"particle_density": 7850.0},
        ("terminal_velocity", terminal_velocity(1 * MM, 7850.0, 998.2, 1.002e-3)),
    ),
    (
        ["rolling stiffness for kn=1e5 N/m, rolling friction 0.1, 2 mm glass beads"],
        "try mu_r = 0.3",
        "rolling_resistance",
        {"rolling_friction": 0.3},
        ("rolling_stiffness", _kr(1e5, 0.3, 0.5 * MM)),
    ),
    (
        ["coarse grain 0.5 mm particles by a factor of 4, 1e8 particles"],
        "and with s = 8?",
        "coarse_graining",
        {"scale_factor": 8.0},
        ("parcel_count", 1e8 / 512),
    ),
    (
        ["bond number r=10 um rho=2500 gamma=0.05 J/m^2"],
        "now with r = 50 um",
        "cohesion_numbers",
        {"particle_radius": 50 * UM},
        ("bond_number_jkr", _jkr(0.05, 25 * UM) / _weight(50 * UM, 2500.0)),
    ),
    (
        ["rayleigh time step for glass beads, mean 2 mm, sd 0.2 mm"],
        "same with sd 0.5 mm",
        "polydisperse_rayleigh",
        {"std_dev": 0.5 * MM},
        ("rayleigh_timestep", rayleigh(0.5 * MM, GLASS)),
    ),
    (
        ["insertion rate for 2 kg/s of 2 mm sand"],
        "and 5 kg/s?",
        "simulation_cost",
        {"mass_flow_rate": 5.0},
        ("insertion_rate", _insertion(5.0, [2 * MM], [1.0], 2650.0)),
    ),
    (
        ["hertz overlap r=1 mm E=10 MPa nu=0.25 rho=2500 v=2 m/s"],
        "same against a wall",
        "hertz_max_overlap",
        {"wall": True},
        ("max_overlap", max_overlap(2.0, 1 * MM, (2500.0, 1e7, 0.25), wall=True)),
    ),
    (
        ["effective properties for a 4 mm steel ball on a 2 mm glass bead"],
        "and for the steel ball on a steel wall instead",
        "contact_pair",
        {"wall": True, "particle_radius": 2 * MM, **_mat(STEEL)},
        ("effective_modulus", pair(2 * MM, STEEL, wall=True, wall_e=210e9, wall_nu=0.3)[2]),
    ),
    (
        [_OVL],
        "what if it's sand",
        "hertz_max_overlap",
        {**_mat(SAND)},
        ("max_overlap", max_overlap(1.0, 1 * MM, SAND)),
    ),
    (
        [_DRUM],
        "make it 20 rpm",
        "flow_regime",
        {"rotation_speed": 20.0},
        ("froude_number", froude(0.5, 20.0)),
    ),
    (
        [_OVL],
        "and E = 1 GPa?",
        "hertz_max_overlap",
        {"youngs_modulus": 1e9, "density": 2500.0},
        ("max_overlap", max_overlap(1.0, 1 * MM, (2500.0, 1e9, 0.25))),
    ),
    (
        ["beverloo discharge, 50 mm orifice, 2 mm particles, bulk density 1500"],
        "and with a 40 mm orifice and 3 mm particles",
        "beverloo_discharge",
        {"orifice_diameter": 0.04, "particle_diameter": 3 * MM},
        ("mass_flow_rate", beverloo(0.04, 3 * MM, 1500.0)),
    ),
    (
        [_SETTLE],
        "same in air",
        "cfd_dem_numbers",
        {"fluid_density": 1.205, "fluid_viscosity": 1.81e-5},
        ("terminal_velocity", terminal_velocity(1 * MM, 2500.0, *AIR)),
    ),
    (
        ["rolling stiffness for kn=1e5 N/m, rolling friction 0.1, 2 mm glass beads"],
        "with dt = 1e-6 s",
        "rolling_resistance",
        {"timestep": 1e-6, "rolling_friction": 0.1},
        ("rolling_stiffness", _kr(1e5, 0.1, 0.5 * MM)),
    ),
    (
        [_DRUM],
        "and at 2 rad/s",
        "flow_regime",
        {"drum_radius": 0.5},
        ("froude_number", 4 * 0.5 / G0),
    ),
    (
        [
            "how long will 10 s at dt=2e-6 take with 500k particles, 1e6 particle-steps per "
            "core-second, 16 cores"
        ],
        "and on 64 cores?",
        "simulation_cost",
        {"n_cores": 64},
        ("wall_time_hours", _wall_hours(5e5, 10.0, 2e-6, 1e6, 64)),
    ),
]

REFUSED_FOLLOW_UPS: list[tuple[list[str], str]] = [
    ([_OVL], "double the speed"),
    ([_OVL], "halve the radius"),
    ([_DRUM], "and at 1/3 of the critical speed"),
]

# -- refused or asked back ----------------------------------------------------------------------

REFUSED: list[str] = [
    'max overlap of 1/8" steel balls at 3 m/s',
    "terminal velocity of 2,5 mm glass beads in water",
    "beverloo discharge, orifice 50 mm, 2 mm particles, bulk density 1,500 kg/m3",
    "how long for 200,000 particles, 5 s, dt 1e-6 s, 1e6 particle-steps per core-second, 8 cores",
    "max overlap for 2 mm glass beads at 1,500 mm/s",
    "froude number of a 1 m drum at 10 rmp",
    "max overlap for 2 mm glass beads at 1 m/ss",
    "terminal velocity of a 1 mm glass bead in watr",
    "rayleigh time step for steal shot, mean 2 mm, sd 0.2 mm",
    "froude number of a drum of radius 0.5 m at 2 Hz",
    "beverloo discharge, orifice 5 + 1 mm, 2 mm particles, bulk density 1500",
    "max overlap for 2 mm ± 0.1 mm glass beads at 1 m/s",
    "coarse grain 0.5 mm particles by a factor of 0.5",
    "liquid bridge force between 1 mm glass beads, water, contact angle 100°",
    "cfd cell check: 3 mm cell, 1 mm glass in water, voidage 1.2",
    "rolling stiffness for kn = 1e5 N/m, mu_r = -0.1, r = 1 mm",
    "max overlap for 2mm glass at 1 m/s, E = 2^9 Pa",
    "terminal velocity of 1 mm glass beads in oil",
    "beverloo discharge for 2 mm particles, bulk density 1500 kg/m3, orifice 3 mm",
    "polydisperse rayleigh, glass, mean 1 mm, sd 0.5 mm",
    "froude number of the drum at 10 rpm",
    "max overlap for 2 mm glass beads at 1 to 5",
    "terminal velocity of 1e-3 glass beads in water",
    "max overlap of 2 mm glass beads at 1 m/s against a rubber wall",
    "coarse graining s = 4 of 2e8 particles with k = 1000 N/m, s = 5",
    "flow regime of a drum, radius 0.5 m, speed 10 rpn",
    "rayleigh time step for a PSD, d10 = 0.5 mm, d50 = 1 mm, d90 = 2 mm, glass",
    "how long will 10 s at dt 1e-6 s take for 1e6 particles, 1e6 particle-steps per core-second, "
    "on 2 nodes with 64 cores each",
    "beverloo discharge, orifice 50 mm, 2 mm glass beads",
    "beverloo discharge through a 50 mm orifice, 2 mm particles, density 2500 kg/m3",
    "terminal velocity of 1 mm glass beads in a liquid of density 1000 kg/m3 and kinematic "
    "viscosity 1e-6 m2/s",
    "max overlap of glas beads 2 mm at 1 m/s",
    "froude number of a drum, radius 0.5 m², 10 rpm",
    "max overlap of 2 mm glass beads at 1 m/s, E = -70 GPa",
    "coarse graining of 0,5 mm particles by 4, 1e8 particles",
    "flow regime, drum radius 0.5 m, 10 1/min",
    "froude number of a 1,200 mm drum at 10 rpm",
    "insertion rate for half a tonne per hour of 2 mm sand",
]


# Not yet read as expected (asked back, or misread: the report of this set says which); listed so
# the set stays green and each fix shows up as an unexpected pass (strict xfail).
STILL_ASKED: set[str] = {
    "core-hours for 1,000,000 particles over 1 s at dt 1e-6 s, throughput 1e6, 10 cores",
    "rayleigh step for PP pellets between 2 and 4 mm",
    "beverloo discharge, orifice 50 mm, 2 mm particles, bulk density 2 500 kg/m3",
    "polydisperse time step for glass beads whose smallest size is 0.2 mm, mean 1 mm",
    "coarse graining by 2 to 10 in 5 steps, 1e9 particles",
}


def _rows(rows: list[Any], text_at: int, whole: bool = False) -> list[Any]:
    """pytest params of `rows` (each row one param when `whole`), strict xfail if still asked."""
    out = []
    for row in rows:
        text = row[text_at]
        values = (row,) if whole else row
        marks = (
            [pytest.mark.xfail(strict=True, reason="not yet read as expected")]
            if text in STILL_ASKED
            else []
        )
        out.append(pytest.param(*values, id=text, marks=marks))
    return out


# -- checks -------------------------------------------------------------------------------------


def _same(got: Any, want: Any) -> bool:
    return math.isclose(float(got), float(want), rel_tol=1e-6)


def _check(
    text: str,
    history: list[dict[str, Any]],
    tool: str,
    args: dict[str, Any],
    key: tuple[str, Any] | None,
) -> None:
    selection = select_text(text, history)
    assert selection.calls, f"no call for {text!r}: {selection.reply}"
    call = selection.calls[0]
    tools = tool.split("|")  # a row may accept either of two tools that compute the same figure
    assert call.name in tools, f"{text!r}: {call.name} {call.args}"
    model, errors = validate(call.name, call.args)
    assert model is not None, f"{text!r}: {errors}"
    for name, want in args.items():
        if want is None:
            assert name not in call.args, f"{text!r}: {name}={call.args.get(name)} must be absent"
        elif isinstance(want, bool):
            assert getattr(model, name) is want, f"{text!r}: {name}"
        else:
            assert name in call.args, f"{text!r}: {name} not read ({call.args})"
            assert _same(getattr(model, name), want), f"{text!r}: {name} {getattr(model, name)}"
    if key is not None:
        outcome = execute(call.name, call.args)
        assert outcome.ok and outcome.result is not None, outcome.error_text()
        name = key[0].split("|")[tools.index(call.name)] if "|" in key[0] else key[0]
        got = outcome.result[name]
        assert _same(got, key[1]), f"{text!r}: {name} {got} != {key[1]}"


def _check_sweep(row: SweepRow) -> None:
    text, tool, parameter, values, key, expected = row
    selection = select_text(text)
    assert selection.calls, f"no call for {text!r}: {selection.reply}"
    call = selection.calls[0]
    assert call.name == "sweep", f"{text!r}: {call.name} {call.args}"
    plan, errors = plan_sweep(call.args)
    assert plan is not None, f"{text!r}: {errors}"
    assert (plan.tool, plan.parameter) == (tool, parameter), f"{text!r}: {plan}"
    assert len(plan.values) == len(values), f"{text!r}: {plan.values}"
    for got, want in zip(plan.values, values, strict=True):
        assert _same(got, want), f"{text!r}: {plan.values}"
        outcome = execute(plan.tool, {**plan.args, plan.parameter: got})
        assert outcome.ok and outcome.result is not None, outcome.error_text()
        assert _same(outcome.result[key], expected(want)), f"{text!r} at {want}"


@pytest.mark.parametrize(("text", "tool", "args", "key"), _rows(ALL_ROUNDS, 0))
def test_query(text: str, tool: str, args: dict[str, Any], key: tuple[str, Any] | None) -> None:
    _check(text, [], tool, args, key)


@pytest.mark.parametrize("row", _rows(SWEEPS, 0, whole=True))
def test_sweep(row: SweepRow) -> None:
    _check_sweep(row)


@pytest.mark.parametrize(("before", "text", "tool", "args", "key"), _rows(FOLLOW_UPS, 1))
def test_follow_up(
    before: list[str], text: str, tool: str, args: dict[str, Any], key: tuple[str, Any] | None
) -> None:
    history = [{"role": "user", "content": b} for b in before]
    _check(text, history, tool, args, key)


@pytest.mark.parametrize("text", _rows([(t,) for t in REFUSED], 0))
def test_refused(text: str) -> None:
    """Asked back or refused by the reader, or refused by the tool naming the field."""
    selection = select_text(text)
    if selection.calls:
        call = selection.calls[0]
        if call.name == "sweep":
            plan, errors = plan_sweep(call.args)
            assert plan is None and errors, f"{text!r} swept: {call.args}"
            return
        outcome = execute(call.name, call.args)
        assert not outcome.ok, f"{text!r} computed: {call.name} {call.args}"
        assert outcome.error_text()
    else:
        assert selection.reply


def _refused_reply(text: str, history: list[dict[str, Any]]) -> None:
    selection = select_text(text, history)
    if selection.calls:
        call = selection.calls[0]
        outcome = execute(call.name, call.args)
        assert not outcome.ok, f"{text!r} computed: {call.name} {call.args}"
    else:
        assert selection.reply


@pytest.mark.parametrize(
    ("before", "text"), REFUSED_FOLLOW_UPS, ids=[r[1] for r in REFUSED_FOLLOW_UPS]
)
def test_refused_follow_up(before: list[str], text: str) -> None:
    _refused_reply(text, [{"role": "user", "content": b} for b in before])


# -- classes fixed after the blind run (written after reading the reader; variants of each class) --

_RAYLEIGH_GLASS = "rayleigh time step for glass"


@pytest.mark.parametrize(
    ("text", "points", "scale"),
    [
        ("max overlap for 2 mm glass at 1 m/s, E from 10 MPa to 1 GPa in 5 log steps", 5, "log"),
        (f"{_RAYLEIGH_GLASS}, 0.5 to 5 mm in 6 evenly spaced points", 6, "lin"),
        (f"{_RAYLEIGH_GLASS}, 0.5 to 5 mm, 4 log-spaced points", 4, "log"),
        (f"{_RAYLEIGH_GLASS} from 1 to 5 mm in steps of 1 mm", 5, "lin"),
        (f"{_RAYLEIGH_GLASS}, 1 to 5 mm every 0.5 mm", 9, "lin"),
        (f"{_RAYLEIGH_GLASS}, 1 to 5 mm in 0.5 mm steps", 9, "lin"),
        ("max overlap of 2 mm glass from 1 to 5 m/s in 0.5 m/s increments", 9, "lin"),
        ("rolling stiffness kn 1e5 N/m, 2 mm glass, mu_r from 0.1 to 0.5 in 0.1 steps", 5, "lin"),
        (
            "rolling stiffness kn 1e5 N/m, 2 mm glass, mu_r from 0.1 to 0.5 in steps of 0.1",
            5,
            "lin",
        ),
    ],
)
def test_a_sweeps_count_or_step_is_read(text: str, points: int, scale: str) -> None:
    """The number of points, with a word between (`5 log steps`), or a step size (`in steps of 1
    mm`: (5 − 1)/1 + 1 = 5 points) is read, never dropped for the default 10 with the step left
    over as an unused value."""
    (call,) = select_text(text).calls
    plan, errors = plan_sweep(call.args)
    assert plan is not None, errors
    assert (len(plan.values), plan.scale) == (points, scale)
    steps = [b - a for a, b in zip(plan.values, plan.values[1:], strict=False)]
    if scale == "lin":
        assert all(_same(d, steps[0]) for d in steps)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (f"{_RAYLEIGH_GLASS}, 1 to 5 mm, step 0.3 mm", "does not divide"),
        (f"{_RAYLEIGH_GLASS}, 1 to 5 mm in 4 points, step 1 mm", "disagree"),
        ("max overlap 2 mm glass 1 m/s E from 1e7 to 1e9 Pa log, every 1e7 Pa", "log"),
    ],
)
def test_a_step_that_does_not_fit_is_refused(text: str, said: str) -> None:
    selection = select_text(text)
    assert not selection.calls and selection.reply and said in selection.reply


_ROLLING = "rolling stiffness for kn=1e5 N/m, rolling friction 0.1, 2 mm glass beads"


@pytest.mark.parametrize(
    ("before", "text", "tool", "name", "want"),
    [
        ([_ROLLING], "with dt = 1e-6 s", "rolling_resistance", "timestep", 1e-6),
        ([_ROLLING], "and with a time step of 2e-6 s", "rolling_resistance", "timestep", 2e-6),
        ([_OVL], "with dt = 1e-6 s", "hertz_max_overlap", "timestep", 1e-6),
        ([_OVL], "and is dt = 1e-6 s ok?", "check_timestep_heuristic", "timestep", 1e-6),
        ([_OVL, "with dt = 1e-6 s"], "and 3 m/s?", "hertz_max_overlap", "impact_velocity", 3.0),
        ([_ROLLING], "try mu_r = 0.3", "rolling_resistance", "rolling_friction", 0.3),
        ([_OVL], "let's try 3 m/s", "hertz_max_overlap", "impact_velocity", 3.0),
        ([_DRUM], "and at 2 rad/s", "flow_regime", "rotation_speed", 2 * 60 / (2 * PI)),
        ([_DRUM], "what about 0.5 rev/s", "flow_regime", "rotation_speed", 30.0),
    ],
)
def test_a_follow_on_keeps_its_calculation(
    before: list[str], text: str, tool: str, name: str, want: float
) -> None:
    """A follow-on whose values are all inputs of the latest calculation stays with it when its
    only keyword names such an input (`dt`); a word that names another calculation (`is ... ok`)
    moves it; `try`, `let's try` start a follow-on; a speed in rad/s or rev/s turns the drum."""
    (call,) = select_text(text, [{"role": "user", "content": b} for b in before]).calls
    assert call.name == tool, call.args
    model, errors = validate(call.name, call.args)
    assert model is not None, errors
    assert _same(getattr(model, name), want)


@pytest.mark.parametrize(
    ("before", "text"),
    [
        (["effective properties for a 4 mm steel ball on a 2 mm glass bead"], "and on a wall"),
        (["peak overlap steel r=2 mm hitting glass r=1 mm at 1 m/s"], "same against a wall"),
    ],
)
def test_a_wall_follow_up_replaces_the_second_body(before: list[str], text: str) -> None:
    """The wall takes the second body's place: its values typed earlier are left out, and said
    so (before, they went along and the tool refused the call)."""
    selection = select_text(text, [{"role": "user", "content": b} for b in before])
    (call,) = selection.calls
    assert call.args["wall"] is True and not any(k.startswith("other_") for k in call.args)
    assert selection.reply and "other_radius = 1 mm" in selection.reply
    assert _same(validate(call.name, call.args)[0].particle_radius, 2 * MM)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text",
    [
        "how long will 10 s at dt 1e-6 s take for 1e6 particles, 1e6 particle-steps per "
        "core-second, on 2 nodes with 64 cores each",
        "cost of 10 s at dt 1e-6 s for 1e6 particles, throughput 1e6, 64 cores per node, 2 nodes",
        "core hours: 10 s, dt 1e-6 s, 1e6 particles, throughput 1e6, 4 nodes x 32 cores",
        "how long will 10 s at dt 1e-6 s take for 1e6 particles, 1e6 particle-steps per "
        "core-second on 2 nodes",
    ],
)
def test_cores_per_node_are_refused(text: str) -> None:
    """The total number of cores is a product of nodes and cores per node, never one factor
    (before: 64 cores computed, `2` merely noted as not used)."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and "total number of cores" in selection.reply


def test_rpm_in_capitals_is_read() -> None:
    (call,) = select_text("drum regime: R = 0.1 m, 30 RPM").calls
    assert _same(validate(call.name, call.args)[0].rotation_speed, 30.0)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "tool", "args"),
    [
        (
            "effective modulus: E1 = 70 GPa, nu1 = 0.25, E2 = 210 GPa, nu2 = 0.3, R1 = 1 mm, "
            "R2 = 2 mm, density 2500",
            "contact_pair",
            {"youngs_modulus": 70e9, "other_youngs_modulus": 210e9, "other_poisson_ratio": 0.3},
        ),
        (
            "max overlap r1=1 mm r2=2 mm rho1=2500 kg/m3 rho2=7850 kg/m3 E1=70 GPa E2=210 GPa "
            "nu1=0.25 nu2=0.3 v=1 m/s",
            "hertz_max_overlap",
            {"other_density": 7850.0, "density": 2500.0, "poisson_ratio": 0.25},
        ),
        (  # was refused (test_offline_queries_3.py) while E1/E2 were not read
            "hertz overlap, E1=70 GPa, E2=210 GPa, nu1=0.25, nu2=0.3, R=1mm, rho 2500, 1 m/s",
            "hertz_max_overlap",
            {"youngs_modulus": 70e9, "other_youngs_modulus": 210e9, "other_poisson_ratio": 0.3},
        ),
        (
            "terminal velocity of 1 mm glass beads in a fluid of viscosity 1 mPa·s and density "
            "1000 kg/m^3",
            "cfd_dem_numbers",
            {"fluid_density": 1000.0, "particle_density": 2500.0},
        ),
        (
            "settling velocity of 2 mm sand in a liquid with viscosity 3 cP, density 1100 kg/m3",
            "cfd_dem_numbers",
            {"fluid_density": 1100.0, "fluid_viscosity": 3e-3, "particle_density": 2650.0},
        ),
        (
            "beverloo: outlet ⌀50 mm, particles Ø 3 mm, bulk density 1500 kg/m3",
            "beverloo_discharge",
            {"orifice_diameter": 0.05, "particle_diameter": 3 * MM},
        ),
        (
            "polydisperse rayleigh, glass, mean 1 mm, GSD 1.5",
            "polydisperse_rayleigh",
            {"std_dev": 1.5, "distribution": "lognormal"},
        ),
        (
            "rayleigh time step for a log-normal glass PSD, d50 1 mm, geometric standard "
            "deviation 1.3",
            "polydisperse_rayleigh",
            {"std_dev": 1.3, "mean_diameter": 1 * MM, "distribution": "lognormal"},
        ),
    ],
)
def test_numbered_fluid_and_lognormal_keys(text: str, tool: str, args: dict[str, Any]) -> None:
    """Numbered keys of a pair (E1, nu2, rho2), a fluid's properties listed after its first key
    (`a fluid of viscosity ... and density ...`: both the fluid's, the particle keeps its
    material), the diameter sign Ø, and a log-normal spread σ_g (a plain factor)."""
    (call,) = select_text(text).calls
    assert call.name == tool, call.args
    model, errors = validate(call.name, call.args)
    assert model is not None, errors
    for name, want in args.items():
        got = getattr(model, name)
        assert got == want if isinstance(want, str) else _same(got, want), (name, got)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            "rayleigh time step for glass beads, log-normal distribution, mean 2 mm, sd 0.2 mm",
            "σ_g",
        ),
        ("rayleigh time step for a Rosin-Rammler PSD of glass, mean 1 mm, sd 0.2 mm", "Rosin"),
        (
            "rayleigh time step for a uniform size distribution of glass, mean 2 mm, sd 0.3 mm",
            "uni",
        ),
        ("rayleigh time step, Weibull distribution, glass, mean 2 mm, sd 0.2 mm", "Weibull"),
        ("rayleigh time step for a bimodal glass PSD, mean 2 mm, sd 0.2 mm", "bimodal"),
        ("rayleigh time step for glass, volume-weighted mean 2 mm, sd 0.2 mm", "volume-weighted"),
        ("rayleigh time step, glass PSD by mass: mean 2 mm, sd 0.2 mm", "mass-weighted"),
    ],
)
def test_a_distribution_the_tool_does_not_model_is_refused(text: str, said: str) -> None:
    """Before, each was computed as a number-weighted normal distribution, the word dropped."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and said in selection.reply


def test_a_distribution_with_its_smallest_size_needs_no_shape() -> None:
    """The capped minimum governs whatever the shape (R2.7): a bimodal PSD with `min` computes."""
    text = "rayleigh time step for a bimodal glass PSD, mean 2 mm, sd 0.2 mm, min 0.5 mm"
    (call,) = select_text(text).calls
    outcome = execute(call.name, call.args)
    assert outcome.ok and outcome.result is not None
    assert _same(outcome.result["rayleigh_timestep"], rayleigh(0.5 * MM, GLASS))


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("terminal velocity of 1 mm glass beads in water at 80 °C", "20 °C, not 80 °C"),
        ("liquid bridge force between 1 mm glass beads, water at 60 °C, contact angle 20°", "60"),
        ("stokes number of 50 um glass in air at 200 degC, flow velocity 10 m/s", "200"),
        ("rolling stiffness, mu_r 0.1, kn 1e5 N/m, r = 1 mm, EPSD2", "EPSD2"),
        ("rolling friction 0.1 type A, kn 1e5 N/m, r = 1 mm", "type A"),
        ("froude number of a 1 m drum at 10 rpm and 0.5 rad/s", "two speeds"),
        ("froude number of a 1 m drum, n = 10 rpm, omega = 2 rad/s", "two speeds"),
    ],
)
def test_a_condition_the_tool_does_not_compute_is_refused(text: str, said: str) -> None:
    """A fluid preset (20 °C) at another temperature, another rolling model than EPSD (type C),
    two speeds for one drum: before, each computed with the preset, the EPSD model or the first
    speed, the rest only noted as not used."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and said in selection.reply


@pytest.mark.parametrize(
    "text",
    [
        "terminal velocity of 1 mm glass beads in water at 20 °C",
        "terminal velocity of 1 mm glass beads in water at 80 °C, fluid density 971.8 kg/m3, "
        "viscosity 0.355 mPa s",
    ],
)
def test_a_fluid_at_its_presets_temperature_or_typed_computes(text: str) -> None:
    (call,) = select_text(text).calls
    model, errors = validate(call.name, call.args)
    assert model is not None, errors


@pytest.mark.parametrize(
    "text",
    [
        "stokes number of 50 um glass in air, flow velocity 10 m/s, pipe diameter 50 mm",
        "stokes number of 50 um glass beads in air flowing at 10 m/s through a 50 mm pipe",
    ],
)
def test_a_pipe_is_the_stokes_numbers_flow_length(text: str) -> None:
    """St = τ_p U / L with L the pipe's diameter (R2.4), not the default L = d with the pipe
    noted as not used (1000 times larger here)."""
    (call,) = select_text(text).calls
    outcome = execute(call.name, call.args)
    assert outcome.ok and outcome.result is not None
    tau = 2500.0 * (50 * UM) ** 2 / (18 * 1.81e-5)
    assert _same(outcome.result["stokes_number"], tau * 10.0 / 0.05)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("max overlap of 2 mm glass beads at >1 m/s", "lower bound"),
        ("max overlap of 2 mm glass beads at more than 1 m/s", "lower bound"),
        (
            "how long will 10 s at dt 1e-6 s take for at least 1e6 particles, 1e6 particle-steps "
            "per core-second, 16 cores",
            "lower bound",
        ),
        ("max overlap of 2 mm glass beads at 1 m/s with 10% of the real E", "arithmetic"),
        ("max overlap of 2 mm glass beads at 1 m/s with E reduced by a factor 100", "arithmetic"),
        ("max overlap of 2 mm glass beads at 1 m/s, 100 times softer than glass", "arithmetic"),
    ],
)
def test_a_bound_or_a_change_of_a_value_is_refused(text: str, said: str) -> None:
    """Before: `> 1 m/s` computed at 1 m/s; `10% of the real E` and `reduced by a factor 100`
    computed with the preset's E, the number merely noted as not used."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and said in selection.reply


@pytest.mark.parametrize(
    ("text", "name", "want"),
    [
        ("max overlap of 2mm glass beads at 1 m.s-1", "impact_velocity", 1.0),
        ("max overlap of 2 mm glass beads at 1 m s-1", "impact_velocity", 1.0),
        ("max overlap of 2 mm glass beads at 1 m/s, rho 2500 kg.m-3, E 1e7 Pa", "density", 2500.0),
        (
            "max overlap of 2 mm glass beads at 1 m/s, overlap limit 0.5% of the radius",
            "overlap_limit",
            0.005,
        ),
    ],
)
def test_si_dotted_units_and_ratios_of_the_radius_are_read(
    text: str, name: str, want: float
) -> None:
    """`1 m.s-1` was read as 1 m (a second body of 1 m radius) with the speed asked for."""
    (call,) = select_text(text).calls
    model, errors = validate(call.name, call.args)
    assert model is not None, errors
    assert _same(getattr(model, name), want)
    assert "other_radius" not in call.args


@pytest.mark.parametrize(
    "text",
    [
        "terminal velocity 1 mm glass beads, fluid density 1 g/cm3, viscosity 0.01 P",
        "terminal velocity 1 mm glass beads, fluid density 1 g/cm3, viscosity 0.01 P and slip "
        "0.1 m/s",
    ],
)
def test_a_one_letter_unit_that_ends_a_value_is_refused(text: str) -> None:
    """`0.01 P` (poise: 0.001 Pa·s) was read as a bare 0.01, in Pa·s: ten times the viscosity."""
    selection = select_text(text)
    assert not selection.calls and selection.reply and '"0.01 P"' in selection.reply


def test_poise_written_out_is_read() -> None:
    text = "terminal velocity 1 mm glass beads, fluid density 1 g/cm3, viscosity 0.01 poise"
    (call,) = select_text(text).calls
    assert _same(validate(call.name, call.args)[0].fluid_viscosity, 1e-3)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("before", "text", "tool", "values"),
    [
        (
            [],
            "max overlap of 3 mm or 4 mm glass beads at 1 m/s",
            "hertz_max_overlap",
            [1.5e-3, 2e-3],
        ),
        ([_OVL], "what about 3 mm or 4 mm", "hertz_max_overlap", [1.5e-3, 2e-3]),
        (
            [],
            "rolling stiffness kn 1e5 N/m, mu_r 0.1 for 2 or 4 mm glass beads",
            "rolling_resistance",
            [1e-3, 2e-3],
        ),
        (
            ["max overlap of 3 and 4 mm glass beads at 1 m/s"],
            "each size",
            "hertz_max_overlap",
            [1.5e-3, 2e-3],
        ),
        (
            [],
            "max overlap of 3 and 4 mm glass beads, each size, at 1 m/s",
            "hertz_max_overlap",
            [1.5e-3, 2e-3],
        ),
    ],
)
def test_a_list_of_two_sizes_is_swept_not_two_bodies(
    before: list[str], text: str, tool: str, values: list[float]
) -> None:
    """A list joined by `or`, or said to be each size on its own (`each size`, also as the answer
    to the question below), is a sweep over both sizes, never two bodies in contact."""
    (call,) = select_text(text, [{"role": "user", "content": b} for b in before]).calls
    plan, errors = plan_sweep(call.args)
    assert plan is not None, errors
    assert (plan.tool, plan.parameter) == (tool, "particle_radius")
    assert all(_same(a, b) for a, b in zip(plan.values, values, strict=True))
    assert "other_radius" not in plan.args


@pytest.mark.parametrize(
    ("before", "text"),
    [
        ([], "max overlap of 3 and 4 mm glass beads at 1 m/s"),
        ([_OVL], "and for 3 and 4 mm?"),
    ],
)
def test_two_sizes_and_ed_for_a_tool_of_two_bodies_are_asked_about(
    before: list[str], text: str
) -> None:
    """`3 and 4 mm` for a tool that takes two bodies is one pair (R₁, R₂) or a sweep of equal
    pairs: with no word saying which, one short question, never either guessed. (This test
    used to require the sweep; docs/offline_reading.md.)"""
    selection = select_text(text, [{"role": "user", "content": b} for b in before])
    assert not selection.calls
    assert selection.reply and "one pair" in selection.reply and "each size" in selection.reply


@pytest.mark.parametrize(
    "text",
    [
        "effective radius and mass of 2 mm and 3 mm glass beads in contact",
        "max overlap of a 3 mm and a 4 mm glass bead at 1 m/s",
        "max overlap of a 1 mm bead hitting a 4 mm glass ball at 1 m/s",
    ],
)
def test_two_bodies_said_as_such_stay_two_bodies(text: str) -> None:
    (call,) = select_text(text).calls
    assert call.name != "sweep" and "other_radius" in call.args


def test_a_bare_size_after_a_drum_is_asked_about() -> None:
    """`now 2 m` after a drum's Froude number was read as a particle diameter, which the Froude
    number does not use: the same drum was computed again. Now it asks which size is meant."""
    selection = select_text("now 2 m", [{"role": "user", "content": _DRUM}])
    assert not selection.calls and selection.reply and "drum radius 2 m" in selection.reply
    (call,) = select_text(
        "and for 3 mm?",
        [
            {
                "role": "user",
                "content": "inertial number, shear rate 10 1/s, d=1 mm, P=1 kPa, rho=2500",
            }
        ],
    ).calls
    assert _same(validate(call.name, call.args)[0].particle_diameter, 3 * MM)  # type: ignore[union-attr]
