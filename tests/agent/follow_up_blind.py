"""A blind set of follow-up conversations for the offline reader, written from the tool schemas and
docs/references.md before reading the reader's follow-up code: two- and three-turn conversations
as engineers type them, driven through `Session.ask` (the path a user has).

Kinds: answering the reader's question (a value, a value with its unit, a material, yes/no, a bare
number where the question named the unit), changing one value ("now 5 mm", "what about steel"),
switching tools mid-thread, a sweep then a follow-up, a fresh unrelated question after a pending
one (never merged into it), nonsense replies (asked again or dropped with a word, never computed
with a default), and two-body size lists ("a 3 mm and a 4 mm bead" on a pair tool is R₁/R₂).

Only the last turn of each conversation is judged:

- right: the expected call (tool, the listed arguments) and the expected figure;
- asked: no result, an answer in words (a question, or a refusal naming what is wrong);
- silently wrong: a result where the reader should have asked, or other arguments or figures;
- wrongly refused: no result where the request was complete.

`Either` rows accept asking as well as the right result (a bare number where the unit may or may
not have been named in the question, a truly ambiguous list).

Every expected figure is computed here from docs/references.md (part 1 §1.2-§1.8, part 2 R2.0-
R2.10) and the exact unit definitions (1 in = 25.4 mm, 1 ft = 0.3048 m), independently of the
tools. Run `python -m tests.agent.follow_up_blind` for the score as JSON.

Score of the 152 rows (right / asked / silently wrong / wrongly refused): before any fix 100 / 22 /
21 / 9; after fixing the classes in tests/agent/test_offline_follow_ups.py 131 / 20 / 1 / 0 (the
one left: `glass or steel` answering which material, read as glass with a `Not used: steel` note,
as a single request is; this set expected a question).
"""

from __future__ import annotations

import asyncio
import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PI = math.pi
G0 = 9.80665  # standard gravity (R2.0)
MM = 1e-3
UM = 1e-6
INCH = 0.0254
FT = 0.3048

# Presets (name: ρ kg/m³, E Pa, ν), as docs/references.md R2.0 and tools/materials.py state them
GLASS = (2500.0, 70e9, 0.25)
STEEL = (7850.0, 210e9, 0.30)
SAND = (2650.0, 95e9, 0.08)
ALUMINA = (3900.0, 370e9, 0.22)
NYLON = (1140.0, 2.5e9, 0.39)
WATER = (998.2, 1.002e-3)  # ρ, μ at 20 °C (R2.0)
AIR = (1.205, 1.81e-5)

Mat = tuple[float, float, float]

# -- independent formulas ----------------------------------------------------------------------


def rayleigh(r: float, m: Mat, nu: float | None = None) -> float:
    """dt_R = π R √(ρ/G) / (0.1631 ν + 0.8766), G = E/(2(1 + ν)) (§1.1, §1.2)."""
    rho, e, nu0 = m
    nu = nu0 if nu is None else nu
    g = e / (2 * (1 + nu))
    return PI * r * math.sqrt(rho / g) / (0.1631 * nu + 0.8766)


def pwave(r: float, m: Mat) -> float:
    """dt_p = R √(ρ/E) (§1.4)."""
    return r * math.sqrt(m[0] / m[1])


def sphere_mass(r: float, rho: float) -> float:
    """m = (4/3) π R³ ρ (R2.0)."""
    return 4 / 3 * PI * r**3 * rho


def mass_of_diameter(d: float, rho: float) -> float:
    """m = ρ π d³ / 6 (§1.6)."""
    return rho * PI * d**3 / 6


def _effective(
    r1: float, m1: Mat, r2: float | None, m2: Mat | None, wall: Mat | None
) -> tuple[float, float, float]:
    """R*, m*, E* of a pair or a sphere on a wall (§1.3, R2.0); a wall's density is unused."""
    if wall is not None:
        inv_e = (1 - m1[2] ** 2) / m1[1] + (1 - wall[2] ** 2) / wall[1]
        return r1, sphere_mass(r1, m1[0]), 1 / inv_e
    r2 = r1 if r2 is None else r2
    m2 = m1 if m2 is None else m2
    mass1, mass2 = sphere_mass(r1, m1[0]), sphere_mass(r2, m2[0])
    inv_e = (1 - m1[2] ** 2) / m1[1] + (1 - m2[2] ** 2) / m2[1]
    return r1 * r2 / (r1 + r2), mass1 * mass2 / (mass1 + mass2), 1 / inv_e


# C = (4/5) B(2/5, 1/2) (15/16)^(2/5) (§1.3), from the Beta function
HERTZ_C = 0.8 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9) * (15 / 16) ** 0.4


def hertz_time(
    r1: float,
    m1: Mat,
    v: float,
    r2: float | None = None,
    m2: Mat | None = None,
    wall: Mat | None = None,
) -> float:
    """t_H = C (m*² / (R* E*² v))^(1/5) (§1.3)."""
    rs, ms, es = _effective(r1, m1, r2, m2, wall)
    return HERTZ_C * (ms**2 / (rs * es**2 * v)) ** 0.2


def max_overlap(
    r1: float,
    m1: Mat,
    v: float,
    r2: float | None = None,
    m2: Mat | None = None,
) -> float:
    """δ_max = (15 m* v² / (16 E* √R*))^(2/5) (R2.1)."""
    rs, ms, es = _effective(r1, m1, r2, m2, None)
    return (15 * ms * v**2 / (16 * es * math.sqrt(rs))) ** 0.4


def effective_radius(r1: float, r2: float) -> float:
    """R* = R₁R₂/(R₁ + R₂) (§1.3)."""
    return r1 * r2 / (r1 + r2)


def effective_modulus(m1: Mat, m2: Mat) -> float:
    """1/E* = (1 − ν₁²)/E₁ + (1 − ν₂²)/E₂ (§1.3)."""
    return 1 / ((1 - m1[2] ** 2) / m1[1] + (1 - m2[2] ** 2) / m2[1])


def damping_ratio(e: float) -> float:
    """ζ = −ln e / √(π² + ln² e) (§1.5)."""
    return -math.log(e) / math.sqrt(PI**2 + math.log(e) ** 2)


def froude(radius: float, rpm: float) -> float:
    """Fr = ω² R / g, ω = 2π n / 60 (R2.8)."""
    return (2 * PI * rpm / 60) ** 2 * radius / G0


def beverloo(d0: float, d: float, rho_b: float, c: float = 0.58, k: float = 1.5) -> float:
    """W = C ρ_b √g (D₀ − k d)^(5/2) (R2.9, defaults C = 0.58, k = 1.5)."""
    return c * rho_b * math.sqrt(G0) * (d0 - k * d) ** 2.5


def stokes_time(d: float, rho_p: float, mu: float) -> float:
    """τ_p = ρ_p d² / (18 μ) (R2.4)."""
    return rho_p * d**2 / (18 * mu)


def rolling_stiffness(kn: float, mu_r: float, r_star: float) -> float:
    """k_r = 2.25 k_n μ_r² R*² (R2.10)."""
    return 2.25 * kn * mu_r**2 * r_star**2


# -- expectations ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Calc:
    """One call of `tool` whose `args` (SI, as validated) and result `key` match."""

    tool: str
    key: str
    value: float
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Sweep:
    """A sweep of `tool` over `parameter` at `values` (SI), `key` at each point = `expected(v)`."""

    tool: str
    parameter: str
    values: tuple[float, ...]
    key: str
    expected: Callable[[float], float]
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Ask:
    """No result: the reader asks (or refuses, naming what is wrong)."""


@dataclass(frozen=True)
class Either:
    """Asking is right, and so is this result."""

    calc: Calc | Sweep


Expect = Calc | Sweep | Ask | Either
ASK = Ask()


@dataclass(frozen=True)
class Conv:
    kind: str
    turns: tuple[str, ...]
    expect: Expect


def _c(kind: str, *turns: str, expect: Expect) -> Conv:
    return Conv(kind, turns, expect)


R = 0.5 * MM  # radii of the diameters typed (a size typed without a key is a diameter, R2.0)

_G = {"density": GLASS[0], "youngs_modulus": GLASS[1], "poisson_ratio": GLASS[2]}
_S = {"density": STEEL[0], "youngs_modulus": STEEL[1], "poisson_ratio": STEEL[2]}


def _ray(r: float, m: Mat, nu: float | None = None) -> Calc:
    nu = m[2] if nu is None else nu
    args = {"particle_radius": r, "density": m[0], "poisson_ratio": nu}
    return Calc("rayleigh_timestep", "rayleigh_timestep", rayleigh(r, m, nu), args)


def _ht(r: float, m: Mat, v: float, **kw: Any) -> Calc:
    args = {"particle_radius": r, "density": m[0], "impact_velocity": v}
    if kw.get("r2") is not None:
        args["other_radius"] = kw["r2"]
    return Calc("hertz_contact_time", "contact_time", hertz_time(r, m, v, **kw), args)


def _ov(r: float, m: Mat, v: float, **kw: Any) -> Calc:
    args = {"particle_radius": r, "density": m[0], "impact_velocity": v}
    if kw.get("r2") is not None:
        args["other_radius"] = kw["r2"]
    return Calc("hertz_max_overlap", "max_overlap", max_overlap(r, m, v, **kw), args)


def _pm(d: float, rho: float) -> Calc:
    args = {"particle_diameter": d, "density": rho}
    return Calc("particle_mass", "particle_mass", mass_of_diameter(d, rho), args)


def _pw(r: float, m: Mat) -> Calc:
    return Calc("pwave_timestep", "pwave_timestep", pwave(r, m), {"particle_radius": r})


def _steps(t: float, dt: float, n: int) -> Calc:
    assert math.isclose(t / dt, n)  # the rows use exact ratios: n = T/dt = ⌈T/dt⌉ (§1.8)
    return Calc("timesteps_for_duration", "steps", n, {"duration": t, "timestep": dt})


def _zeta(e: float) -> Calc:
    return Calc("restitution_to_damping", "damping_ratio", damping_ratio(e), {"restitution": e})


def _fr(radius: float, rpm: float) -> Calc:
    return Calc("flow_regime", "froude_number", froude(radius, rpm), {"drum_radius": radius})


def _bev(d0: float, d: float, rho_b: float) -> Calc:
    args = {"orifice_diameter": d0, "particle_diameter": d, "bulk_density": rho_b}
    return Calc("beverloo_discharge", "mass_flow_rate", beverloo(d0, d, rho_b), args)


def _tau(d: float, rho_p: float, fluid: tuple[float, float]) -> Calc:
    args = {"particle_diameter": d, "fluid_viscosity": fluid[1]}
    return Calc("cfd_dem_numbers", "relaxation_time_stokes", stokes_time(d, rho_p, fluid[1]), args)


def _pair_r(r1: float, r2: float) -> Calc:
    args = {"particle_radius": r1, "other_radius": r2}
    return Calc("contact_pair", "effective_radius", effective_radius(r1, r2), args)


def _kr(kn: float, mu_r: float, r_star: float) -> Calc:
    args = {"normal_stiffness": kn, "rolling_friction": mu_r}
    return Calc(
        "rolling_resistance", "rolling_stiffness", rolling_stiffness(kn, mu_r, r_star), args
    )


def _bulk(phi: float, rho_s: float) -> Calc:
    return Calc("bulk_properties", "bulk_density", phi * rho_s, {"packing_fraction": phi})


def _sw_ray(radii: tuple[float, ...], m: Mat) -> Sweep:
    return Sweep(
        "rayleigh_timestep",
        "particle_radius",
        radii,
        "rayleigh_timestep",
        lambda r: rayleigh(r, m),
        {"density": m[0]},
    )


_RAY2 = "rayleigh time step for 2 mm beads"
_RAYG = "rayleigh time step for 2 mm glass beads"
_HT = "hertz contact time for 2 mm glass beads"
_HT1 = "hertz contact time for 2 mm glass beads at 1 m/s"
_OV = "max overlap for 2 mm glass at 1 m/s"
_PM = "particle mass of a 3 mm bead"
_PMS = "particle mass of a 3 mm steel ball"
_FR = "froude number for a drum of radius 0.25 m at 10 rpm"
_BEV = "beverloo discharge, orifice 50 mm, 2 mm particles, bulk density 1500 kg/m3"
_ZETA = "restitution 0.9 to damping ratio"
_STEPS = "how many time steps for 2 s at dt 1e-6 s"
_KR = "rolling stiffness kn 1e5 N/m, 2 mm glass, mu_r 0.1"
_CFD = "cfd dem numbers for 0.5 mm glass particles in water"

ANSWERS = [
    _c("answer", _RAY2, "glass", expect=_ray(R * 2, GLASS)),
    _c("answer", _RAY2, "steel", expect=_ray(R * 2, STEEL)),
    _c("answer", _RAY2, "they are glass beads", expect=_ray(R * 2, GLASS)),
    _c("answer", _RAY2, "Glass.", expect=_ray(R * 2, GLASS)),
    _c("answer", "rayleigh time step for glass beads", "2 mm", expect=_ray(1 * MM, GLASS)),
    _c(
        "answer",
        "rayleigh time step for glass beads",
        "radius 1.5 mm",
        expect=_ray(1.5 * MM, GLASS),
    ),
    _c(
        "answer",
        "rayleigh time step for glass beads",
        "0.5 mm radius",
        expect=_ray(0.5 * MM, GLASS),
    ),
    _c("answer", "rayleigh timestep for glass", "d = 3 mm", expect=_ray(1.5 * MM, GLASS)),
    _c("answer", _HT, "1.5 m/s", expect=_ht(MM, GLASS, 1.5)),
    _c("answer", _HT, "at 3 m/s", expect=_ht(MM, GLASS, 3.0)),
    _c("answer", _HT, "2", expect=Either(_ht(MM, GLASS, 2.0))),
    _c("answer", _HT, "impact velocity 0.5 m/s", expect=_ht(MM, GLASS, 0.5)),
    _c("answer", "hertz max overlap at 1 m/s for 2 mm beads", "sand", expect=_ov(MM, SAND, 1.0)),
    _c("answer", "max overlap for 1 mm steel beads", "2 m/s", expect=_ov(R, STEEL, 2.0)),
    _c("answer", _PM, "steel", expect=_pm(3 * MM, STEEL[0])),
    _c("answer", _PM, "alumina", expect=_pm(3 * MM, ALUMINA[0])),
    _c("answer", "particle mass of glass beads", "5 mm", expect=_pm(5 * MM, GLASS[0])),
    _c("answer", _PM, "density 1200 kg/m3", expect=_pm(3 * MM, 1200.0)),
    _c("answer", _PM, "1200 kg/m³", expect=_pm(3 * MM, 1200.0)),
    _c("answer", _PM, "2500", expect=Either(_pm(3 * MM, 2500.0))),
    _c("answer", "p-wave time step for 1 mm beads", "nylon", expect=_pw(R, NYLON)),
    _c("answer", "p-wave time step for nylon", "4 mm", expect=_pw(2 * MM, NYLON)),
    _c("answer", "how many time steps for 2 s", "dt 1e-6 s", expect=_steps(2.0, 1e-6, 2_000_000)),
    _c("answer", "how many time steps for 2 s", "5e-6", expect=Either(_steps(2.0, 5e-6, 400_000))),
    _c(
        "answer",
        "number of steps for a time step of 2e-6 s",
        "3 s",
        expect=_steps(3.0, 2e-6, 1_500_000),
    ),
    _c("answer", "damping ratio for a restitution coefficient", "0.8", expect=_zeta(0.8)),
    _c("answer", "convert restitution to damping ratio", "e = 0.5", expect=_zeta(0.5)),
    _c("answer", "froude number of a drum at 20 rpm", "radius 0.3 m", expect=_fr(0.3, 20)),
    _c("answer", "froude number of a drum with radius 0.5 m", "15 rpm", expect=_fr(0.5, 15)),
    _c("answer", "froude number of a drum with radius 0.5 m", "15", expect=Either(_fr(0.5, 15))),
    _c(
        "answer",
        "beverloo discharge through a 60 mm orifice, 2 mm particles",
        "bulk density 1500 kg/m3",
        expect=_bev(0.06, 2 * MM, 1500.0),
    ),
    _c(
        "answer",
        "beverloo discharge for 2 mm particles, bulk density 1500 kg/m3",
        "orifice 80 mm",
        expect=_bev(0.08, 2 * MM, 1500.0),
    ),
    _c(
        "answer",
        "cfd-dem numbers for 0.5 mm glass particles",
        "water",
        expect=_tau(0.5 * MM, GLASS[0], WATER),
    ),
    _c(
        "answer",
        "bulk density for packing fraction 0.6",
        "solid density 2500 kg/m3",
        expect=_bulk(0.6, 2500.0),
    ),
    _c("answer", "hertz contact time for 2 mm beads", "glass", "2 m/s", expect=_ht(MM, GLASS, 2.0)),
    _c("answer", _PM, "banana", "steel", expect=_pm(3 * MM, STEEL[0])),
    _c(
        "answer",
        "froude number of a drum with radius 0.5 m",
        "15 rpm",
        "and 30 rpm?",
        expect=_fr(0.5, 30),
    ),
]

CHANGES = [
    _c("change", _RAYG, "now 5 mm", expect=_ray(2.5 * MM, GLASS)),
    _c("change", _RAYG, "what about steel", expect=_ray(MM, STEEL)),
    _c("change", _RAYG, "same but 3 mm", expect=_ray(1.5 * MM, GLASS)),
    _c("change", _RAYG, "and for sand?", expect=_ray(MM, SAND)),
    _c("change", _RAYG, "try 1 mm instead", expect=_ray(R, GLASS)),
    _c("change", _RAYG, "what about poisson ratio 0.3", expect=_ray(MM, GLASS, nu=0.3)),
    _c("change", _RAYG, "now 5", expect=Either(_ray(2.5 * MM, GLASS))),
    _c("change", _HT1, "and at 4 m/s?", expect=_ht(MM, GLASS, 4.0)),
    _c("change", _HT1, "now steel", expect=_ht(MM, STEEL, 1.0)),
    _c("change", _HT1, "same for 6 mm", expect=_ht(3 * MM, GLASS, 1.0)),
    _c("change", _OV, "what about 3 m/s", expect=_ov(MM, GLASS, 3.0)),
    _c("change", _OV, "with E = 1 GPa", expect=_ov(MM, (GLASS[0], 1e9, GLASS[2]), 1.0)),
    _c("change", _PMS, "now 5 mm", expect=_pm(5 * MM, STEEL[0])),
    _c("change", _PMS, "what about glass", expect=_pm(3 * MM, GLASS[0])),
    _c("change", _FR, "and at 30 rpm?", expect=_fr(0.25, 30)),
    _c("change", _FR, "now radius 0.5 m", expect=_fr(0.5, 10)),
    _c("change", _ZETA, "try 0.3 instead", expect=_zeta(0.3)),
    _c("change", _ZETA, "and e = 0.5?", expect=_zeta(0.5)),
    _c("change", _BEV, "now a 100 mm orifice", expect=_bev(0.1, 2 * MM, 1500.0)),
    _c("change", _BEV, "and with 3 mm particles?", expect=_bev(0.05, 3 * MM, 1500.0)),
    _c(
        "change",
        "p-wave time step for 2 mm steel beads",
        "and for alumina?",
        expect=_pw(MM, ALUMINA),
    ),
    _c("change", _STEPS, "and for 5 s?", expect=_steps(5.0, 1e-6, 5_000_000)),
    _c("change", _STEPS, "now dt = 2e-6 s", expect=_steps(2.0, 2e-6, 1_000_000)),
    _c(
        "change",
        "bulk density at packing fraction 0.6 of glass",
        "now 0.64",
        expect=_bulk(0.64, GLASS[0]),
    ),
    _c("change", _CFD, "what about in air?", expect=_tau(0.5 * MM, GLASS[0], AIR)),
    _c("change", _CFD, "now 1 mm", expect=_tau(MM, GLASS[0], WATER)),
    _c(
        "change",
        "hertz contact time for 2 mm glass on a steel wall at 1 m/s",
        "and at 2 m/s",
        expect=_ht(MM, GLASS, 2.0, wall=STEEL),
    ),
    _c("change", _KR, "now mu_r 0.2", expect=_kr(1e5, 0.2, R)),
    _c("change", _KR, "and with kn 2e5 N/m", expect=_kr(2e5, 0.1, R)),
    _c("change", _HT1, "now 4 mm", "and at 3 m/s", expect=_ht(2 * MM, GLASS, 3.0)),
    _c("change", _RAYG, "what about steel", "and sand?", expect=_ray(MM, SAND)),
    _c("change", _RAY2, "glass", "now steel", expect=_ray(MM, STEEL)),
]

SWITCHES = [
    _c("switch", _RAYG, "and the hertz contact time at 1 m/s?", expect=_ht(MM, GLASS, 1.0)),
    _c("switch", _RAYG, "what is the particle mass?", expect=_pm(2 * MM, GLASS[0])),
    _c("switch", _PMS, "and its rayleigh time step?", expect=_ray(1.5 * MM, STEEL)),
    _c("switch", _HT1, "and the max overlap?", expect=_ov(MM, GLASS, 1.0)),
    _c("switch", _OV, "and the contact time?", expect=_ht(MM, GLASS, 1.0)),
    _c("switch", _RAYG, "p-wave time step for the same", expect=_pw(MM, GLASS)),
    _c("switch", _FR, "particle mass of a 1 mm sand grain", expect=_pm(MM, SAND[0])),
    _c("switch", _RAYG, "convert 1 inch to mm", expect=Calc("convert_units", "value", INCH / MM)),
    _c(
        "switch", _PMS, "how many time steps for 1 s at 1e-6 s", expect=_steps(1.0, 1e-6, 1_000_000)
    ),
    _c("switch", _ZETA, "rayleigh time step for 1 mm glass", expect=_ray(R, GLASS)),
    _c("switch", _BEV, "froude number of a 0.4 m radius drum at 12 rpm", expect=_fr(0.4, 12)),
    _c("switch", _PMS, "and its rayleigh time step?", "now 5 mm", expect=_ray(2.5 * MM, STEEL)),
    _c("switch", _STEPS, "damping ratio for restitution 0.7", expect=_zeta(0.7)),
]

_SW3 = "rayleigh time step for glass beads of 1, 2 and 4 mm"
_FR3 = "froude number for a 0.25 m radius drum at 10, 20 and 30 rpm"

SWEEPS = [
    _c("sweep", _SW3, "now steel", expect=_sw_ray((R, MM, 2 * MM), STEEL)),
    _c(
        "sweep",
        "rayleigh time step for 1 and 2 mm glass beads",
        "what about sand",
        expect=_sw_ray((R, MM), SAND),
    ),
    _c(
        "sweep",
        "hertz contact time for 2 mm glass beads at 1, 2 and 5 m/s",
        "now 4 mm",
        expect=Sweep(
            "hertz_contact_time",
            "impact_velocity",
            (1.0, 2.0, 5.0),
            "contact_time",
            lambda v: hertz_time(2 * MM, GLASS, v),
            {"particle_radius": 2 * MM},
        ),
    ),
    _c(
        "sweep",
        "particle mass of glass beads from 1 to 5 mm in 5 steps",
        "what about steel?",
        expect=Sweep(
            "particle_mass",
            "particle_diameter",
            (MM, 2 * MM, 3 * MM, 4 * MM, 5 * MM),
            "particle_mass",
            lambda d: mass_of_diameter(d, STEEL[0]),
        ),
    ),
    _c(
        "sweep",
        _FR3,
        "and radius 0.5 m?",
        expect=Sweep(
            "flow_regime",
            "rotation_speed",
            (10.0, 20.0, 30.0),
            "froude_number",
            lambda n: froude(0.5, n),
            {"drum_radius": 0.5},
        ),
    ),
    _c("sweep", "rayleigh time step for 1 and 2 mm beads", "glass", expect=_sw_ray((R, MM), GLASS)),
    _c(
        "sweep",
        "rayleigh time step for 3 and 4 mm beads",
        "steel",
        expect=_sw_ray((1.5 * MM, 2 * MM), STEEL),
    ),
    _c(
        "sweep",
        "particle mass of 3 and 4 mm beads",
        "glass",
        expect=Sweep(
            "particle_mass",
            "particle_diameter",
            (3 * MM, 4 * MM),
            "particle_mass",
            lambda d: mass_of_diameter(d, GLASS[0]),
        ),
    ),
    _c(
        "sweep",
        "p-wave time step for 1, 2 and 3 mm beads",
        "alumina",
        expect=Sweep(
            "pwave_timestep",
            "particle_radius",
            (R, MM, 1.5 * MM),
            "pwave_timestep",
            lambda r: pwave(r, ALUMINA),
        ),
    ),
    _c(
        "sweep",
        "hertz contact time of 2 mm glass beads at 1 and 2 m/s",
        "now steel",
        expect=Sweep(
            "hertz_contact_time",
            "impact_velocity",
            (1.0, 2.0),
            "contact_time",
            lambda v: hertz_time(MM, STEEL, v),
        ),
    ),
    _c(
        "sweep",
        "max overlap of 2 mm beads at 1, 2 and 3 m/s",
        "glass",
        expect=Sweep(
            "hertz_max_overlap",
            "impact_velocity",
            (1.0, 2.0, 3.0),
            "max_overlap",
            lambda v: max_overlap(MM, GLASS, v),
        ),
    ),
    _c(
        "sweep",
        _SW3,
        "and the particle mass?",
        expect=Either(
            Sweep(
                "particle_mass",
                "particle_diameter",
                (MM, 2 * MM, 4 * MM),
                "particle_mass",
                lambda d: mass_of_diameter(d, GLASS[0]),
            )
        ),
    ),
    _c(
        "sweep",
        "rayleigh time step for 1 and 2 mm glass beads",
        "now only 3 mm",
        expect=_ray(1.5 * MM, GLASS),
    ),
    _c(
        "sweep",
        "froude number for a drum of radius 0.25 m at 10 and 20 rpm",
        "radius 0.4 m",
        expect=Sweep(
            "flow_regime",
            "rotation_speed",
            (10.0, 20.0),
            "froude_number",
            lambda n: froude(0.4, n),
            {"drum_radius": 0.4},
        ),
    ),
    _c(
        "sweep",
        "rayleigh time step for 1 and 2 mm beads",
        "glass",
        "now steel",
        expect=_sw_ray((R, MM), STEEL),
    ),
    _c(
        "sweep",
        "restitution 0.5, 0.7 and 0.9 to damping ratio",
        "and 0.95?",
        expect=Either(_zeta(0.95)),
    ),
]

FRESH = [
    _c("fresh", _RAY2, "particle mass of a 3 mm steel ball", expect=_pm(3 * MM, STEEL[0])),
    _c("fresh", _HT, "rayleigh time step for 1 mm steel", expect=_ray(R, STEEL)),
    _c("fresh", _HT, "convert 3 ft to m", expect=Calc("convert_units", "value", 3 * FT)),
    _c("fresh", _PM, "froude number of a 0.3 m radius drum at 20 rpm", expect=_fr(0.3, 20)),
    _c("fresh", "rayleigh time step for glass beads", _STEPS, expect=_steps(2.0, 1e-6, 2_000_000)),
    _c(
        "fresh",
        "beverloo discharge through a 60 mm orifice",
        "damping ratio for restitution 0.7",
        expect=_zeta(0.7),
    ),
    _c("fresh", _HT, "particle mass of a 4 mm alumina bead", expect=_pm(4 * MM, ALUMINA[0])),
    _c("fresh", _RAY2, "p-wave time step for 1 mm steel balls", expect=_pw(R, STEEL)),
    _c(
        "fresh",
        "max overlap for 1 mm steel beads",
        "rayleigh time step for 3 mm glass beads",
        expect=_ray(1.5 * MM, GLASS),
    ),
    _c(
        "fresh",
        "froude number of a drum at 20 rpm",
        "bulk density for packing fraction 0.6 and solid density 2650 kg/m3",
        expect=_bulk(0.6, 2650.0),
    ),
    _c(
        "fresh",
        "cfd-dem numbers for 0.5 mm glass particles",
        "particle mass of a 2 mm nylon bead",
        expect=_pm(2 * MM, NYLON[0]),
    ),
    _c("fresh", _RAY2, "what is 2 inches in mm", expect=Calc("convert_units", "value", 50.8)),
    _c(
        "fresh",
        _RAY2,
        "hertz contact time for 1 mm steel beads at 2 m/s",
        expect=_ht(R, STEEL, 2.0),
    ),
    _c("fresh", _RAY2, _PMS, "glass", expect=Either(_pm(3 * MM, GLASS[0]))),
]

NONSENSE = [
    _c("nonsense", _RAY2, "banana", expect=ASK),
    _c("nonsense", _RAY2, "whatever you think", expect=ASK),
    _c("nonsense", _RAY2, "no", expect=ASK),
    _c("nonsense", _RAY2, "yes", expect=ASK),
    _c("nonsense", _RAY2, "???", expect=ASK),
    _c("nonsense", _RAY2, "glass or steel", expect=ASK),
    _c("nonsense", _HT, "fast", expect=ASK),
    _c("nonsense", _HT, "idk", expect=ASK),
    _c("nonsense", _HT, "-1 m/s", expect=ASK),
    _c("nonsense", _HT, "5 kg", expect=ASK),
    _c("nonsense", _HT, "1,5 m/s", expect=ASK),
    _c("nonsense", _HT, "yes", expect=ASK),
    _c("nonsense", _PM, "unobtainium", expect=ASK),
    _c("nonsense", "particle mass of glass beads", "big ones", expect=ASK),
    _c("nonsense", "froude number of a drum with radius 0.5 m", "quickly", expect=ASK),
    _c("nonsense", "how many time steps for 2 s", "small", expect=ASK),
    _c("nonsense", "how many time steps for 2 s", "no", expect=ASK),
    _c("nonsense", _PM, "banana", "no idea", expect=ASK),
]

_PAIR34 = _pair_r(1.5 * MM, 2 * MM)
_HT34 = _ht(1.5 * MM, GLASS, 1.0, r2=2 * MM)

TWO_BODY = [
    _c("two-body", "contact pair of 3 and 4 mm glass beads", expect=_PAIR34),
    _c("two-body", "contact pair of a 3 mm and a 4 mm glass bead", expect=_PAIR34),
    _c("two-body", "contact pair of 3 and 4 mm glass beads at 1 m/s", expect=_PAIR34),
    _c("two-body", "contact pair: 3 mm glass bead on a 4 mm glass bead", expect=_PAIR34),
    _c(
        "two-body",
        "contact pair between a 3 mm steel ball and a 4 mm glass bead",
        expect=Calc(
            "contact_pair",
            "effective_modulus",
            effective_modulus(STEEL, GLASS),
            {"particle_radius": 1.5 * MM, "other_radius": 2 * MM},
        ),
    ),
    _c(
        "two-body",
        "hertz contact time between a 3 mm bead and a 4 mm bead, glass, 1 m/s",
        expect=_HT34,
    ),
    _c(
        "two-body", "hertz contact time of 3 and 4 mm glass beads in contact at 1 m/s", expect=_HT34
    ),
    _c("two-body", "hertz contact time, glass beads, d1 = 3 mm, d2 = 4 mm, 1 m/s", expect=_HT34),
    _c(
        "two-body",
        "hertz contact time for glass beads of 3 and 4 mm colliding with each other at 1 m/s",
        expect=_HT34,
    ),
    _c("two-body", "hertz contact time for 3 and 4 mm glass beads at 1 m/s", expect=Either(_HT34)),
    _c(
        "two-body",
        "max overlap of a 3 mm glass bead against a 4 mm glass bead at 2 m/s",
        expect=_ov(1.5 * MM, GLASS, 2.0, r2=2 * MM),
    ),
    _c(
        "two-body",
        "max overlap for 3 mm against 4 mm glass beads at 2 m/s",
        expect=_ov(1.5 * MM, GLASS, 2.0, r2=2 * MM),
    ),
    _c(
        "two-body",
        "max overlap between a 4 mm steel ball and a 2 mm glass bead at 1 m/s",
        expect=_ov(2 * MM, STEEL, 1.0, r2=MM, m2=GLASS),
    ),
    _c(
        "two-body",
        "hertz contact time for 3, 4 and 5 mm glass beads at 1 m/s",
        expect=Sweep(
            "hertz_contact_time",
            "particle_radius",
            (1.5 * MM, 2 * MM, 2.5 * MM),
            "contact_time",
            lambda r: hertz_time(r, GLASS, 1.0),
        ),
    ),
    _c(
        "two-body",
        "hertz contact time for 3 and 4 mm glass beads on a steel wall at 1 m/s",
        expect=Sweep(
            "hertz_contact_time",
            "particle_radius",
            (1.5 * MM, 2 * MM),
            "contact_time",
            lambda r: hertz_time(r, GLASS, 1.0, wall=STEEL),
        ),
    ),
    _c(
        "two-body",
        "rayleigh time step for 3 and 4 mm glass beads",
        expect=_sw_ray((1.5 * MM, 2 * MM), GLASS),
    ),
    _c(
        "two-body",
        "rolling stiffness for kn 1e5 N/m, mu_r 0.1, between a 2 mm and a 4 mm glass bead",
        expect=_kr(1e5, 0.1, effective_radius(MM, 2 * MM)),
    ),
    _c("two-body", "contact pair of 3 and 4 mm beads", "glass", expect=_PAIR34),
    _c(
        "two-body", "hertz contact time between a 3 mm and a 4 mm glass bead", "1 m/s", expect=_HT34
    ),
    _c(
        "two-body",
        "contact pair of 3 and 4 mm glass beads",
        "now steel",
        expect=Calc(
            "contact_pair",
            "effective_modulus",
            effective_modulus(STEEL, STEEL),
            {"particle_radius": 1.5 * MM, "other_radius": 2 * MM},
        ),
    ),
    _c(
        "two-body",
        "contact pair of 3 and 4 mm beads",
        "glass",
        "now steel",
        expect=Calc(
            "contact_pair",
            "effective_modulus",
            effective_modulus(STEEL, STEEL),
            {"particle_radius": 1.5 * MM, "other_radius": 2 * MM},
        ),
    ),
    _c(
        "two-body",
        "max overlap between a 3 mm and a 4 mm bead at 1 m/s",
        "glass",
        expect=_ov(1.5 * MM, GLASS, 1.0, r2=2 * MM),
    ),
]

ROWS: list[Conv] = ANSWERS + CHANGES + SWITCHES + SWEEPS + FRESH + NONSENSE + TWO_BODY

# -- driving and judging -----------------------------------------------------------------------


def _same(got: Any, want: float) -> bool:
    try:
        return math.isclose(float(got), float(want), rel_tol=1e-6)
    except (TypeError, ValueError):
        return False


_UNIT = {"": 1.0, "mm": MM, "m": 1.0, "um": UM, "µm": UM, "m/s": 1.0, "rpm": 1.0, "s": 1.0}
"""SI factors of the units a sweep's other inputs are passed with (`"2 mm"`, not validated yet)."""


def _si(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    number, _, unit = value.partition(" ")
    return float(number) * _UNIT[unit] if unit in _UNIT else value


def _args_match(got: dict[str, Any], want: dict[str, Any]) -> str:
    for name, value in want.items():
        if name not in got or not _same(_si(got[name]), value):
            return f"{name}={got.get(name)} (want {value})"
    return ""


def _judge_calc(result: dict[str, Any], want: Calc) -> str:
    """'' when `result` is the expected call, else what differs."""
    if result.get("tool") != want.tool:
        return f"tool {result.get('tool')} (want {want.tool})"
    wrong = _args_match(result.get("args") or {}, want.args)
    if wrong:
        return wrong
    got = (result.get("result") or {}).get(want.key)
    return "" if _same(got, want.value) else f"{want.key}={got} (want {want.value})"


def _judge_sweep(result: dict[str, Any], want: Sweep) -> str:
    if result.get("tool") != "sweep":
        return f"tool {result.get('tool')} (want a sweep of {want.tool})"
    args = result.get("args") or {}
    if (args.get("tool"), args.get("parameter")) != (want.tool, want.parameter):
        return f"sweep of {args.get('tool')}.{args.get('parameter')}"
    wrong = _args_match(args.get("args") or {}, want.args)
    if wrong:
        return wrong
    points = (result.get("result") or {}).get("points") or []
    if len(points) != len(want.values):
        return f"{len(points)} points (want {len(want.values)})"
    for point, value in zip(points, want.values, strict=True):
        if not _same(point.get("value"), value):
            return f"point {point.get('value')} (want {value})"
        got = (point.get("result") or {}).get(want.key)
        if not _same(got, want.expected(value)):
            return f"{want.key}={got} at {value} (want {want.expected(value)})"
    return ""


def judge(turn: dict[str, Any], expect: Expect) -> tuple[str, str]:
    """(verdict, detail): verdict right | asked | silently_wrong | wrongly_refused."""
    results = turn.get("tool_results") or []
    answer = str(turn.get("answer") or "")
    if isinstance(expect, Ask):
        if results:
            return "silently_wrong", f"computed {results[0].get('tool')} {results[0].get('args')}"
        return ("asked", "") if answer.strip() else ("silently_wrong", "no answer at all")
    want = expect.calc if isinstance(expect, Either) else expect
    if not results:
        if isinstance(expect, Either) and answer.strip():
            return "asked", ""
        return "wrongly_refused", answer[:200]
    wrong = (
        _judge_calc(results[0], want) if isinstance(want, Calc) else _judge_sweep(results[0], want)
    )
    return ("silently_wrong", wrong) if wrong else ("right", "")


async def run_conversation(turns: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each turn through a fresh offline `Session` (the user's path), as TurnResult dicts."""
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings

    session = Session(Settings(mode="offline"))
    out = []
    for text in turns:
        async for _ in session.ask(text):
            pass
        assert session.last_turn is not None
        out.append(session.last_turn.model_dump(exclude={"events"}))
    await session.aclose()
    return out


def score(rows: list[Conv] | None = None) -> dict[str, Any]:
    """Verdict counts over `rows` (default all) and each row's verdict."""
    counts = {"right": 0, "asked": 0, "silently_wrong": 0, "wrongly_refused": 0}
    detail = []
    for row in rows or ROWS:
        turns = asyncio.run(run_conversation(row.turns))
        verdict, why = judge(turns[-1], row.expect)
        counts[verdict] += 1
        detail.append(
            {
                "kind": row.kind,
                "turns": list(row.turns),
                "verdict": verdict,
                "why": why,
                "answer": str(turns[-1].get("answer", ""))[:300],
            }
        )
    return {"rows": len(rows or ROWS), "counts": counts, "detail": detail}


if __name__ == "__main__":
    print(json.dumps(score(), indent=1, ensure_ascii=False))


async def one_turn(text: str) -> dict[str, Any]:
    """One question through a fresh offline `Session`, as a TurnResult dict."""
    return (await run_conversation((text,)))[-1]
