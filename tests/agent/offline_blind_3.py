"""A third blind set for the offline reader, written by an outside reviewer from the tool schemas,
docs/values.md, docs/sweeps.md and docs/references.md, before reading the reader's code: how DEM
engineers type values (prefixes, spaces, unicode `µ`/`μ`, `²`, `·`, `×10^`), decimal commas and
thousands separators of several locales, numbers with no unit, two values for one input, unknown
or misspelt units, negative / zero / huge values, typos in tool names, ranges and follow-ups that
change one input. Driven through `Session.ask` (the path of the window, `caec ask`, `caec chat`)
and judged by tests/agent/offline_blind_2.py's `judge` (right / asked / silently wrong / wrongly
refused / crashed).

Every expected figure is computed here from docs/references.md (the formulas in
tests/agent/follow_up_blind.py and offline_blind_2.py) and exact unit definitions (1 in =
25.4 mm, 1 lb = 0.45359237 kg, 1 lbf = 4.4482216152605 N, 1 psi = 6894.757293168 Pa),
independently of the tools. `python -m tests.agent.offline_blind_3` prints the score as JSON.

Score of the rows (right / asked / silently wrong / wrongly refused / crashed): see
tests/agent/test_offline_blind_3.py's docstring.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tests.agent.follow_up_blind import (
    AIR,
    ALUMINA,
    GLASS,
    MM,
    PI,
    SAND,
    STEEL,
    UM,
    WATER,
    Sweep,
    mass_of_diameter,
    run_conversation,
)
from tests.agent.offline_blind_2 import (
    FT,
    GW,
    INCH,
    LB,
    NOT_USED,
    PCF,
    PSI,
    R1,
    WARN,
    Either,
    Expect,
    Note,
    bev,
    box,
    bulk,
    cell,
    cfd_ar,
    cfd_tau,
    cg_diameter,
    cg_parcels,
    check,
    coh,
    conv,
    cost_hours,
    cyl,
    fr,
    geo,
    ht,
    inert,
    lin,
    ov,
    pair_e,
    pm,
    poly_ray,
    pw,
    ray,
    roll,
    spring_k,
    spring_tc,
    steps,
    stress,
    sw_ht,
    sw_pm,
    sw_ray,
    sw_zeta,
    tally,
    wall_eps,
    zeta,
)
from tests.agent.offline_blind_2 import ask as _ask

LBF = 4.4482216152605  # N (NIST SP 811, B.8)
BARE = ("without a unit", "no unit")
COMMA = ("comma", "1,5", "decimal", "thousand")


@dataclass(frozen=True)
class Row:
    """`turns` typed in one conversation; the last turn is judged by `expect`."""

    kind: str
    turns: tuple[str, ...]
    expect: Expect

    @property
    def text(self) -> str:
        return " | ".join(self.turns)


def r(kind: str, *turns: str, expect: Expect) -> Row:
    return Row(kind, turns, expect)


def ask(*words: str) -> Any:
    return _ask(*words)


def pm_sweep_density(d: float, rhos: tuple[float, ...]) -> Sweep:
    return Sweep(
        "particle_mass",
        "density",
        rhos,
        "particle_mass",
        lambda rho: mass_of_diameter(d, rho),
        {"particle_diameter": d},
    )


# -- units as typed: prefixes, spaces, unicode --------------------------------------------------

UNITS = [
    r(
        "units",
        "rayleigh time step for glass beads of diameter 500 μm",
        expect=ray(250 * UM, GLASS),
    ),
    r("units", "rayleigh time step, glass, d = 500µm", expect=ray(250 * UM, GLASS)),
    r("units", "rayleigh dt for glass spheres, radius 0.25 mm", expect=ray(0.25 * MM, GLASS)),
    r("units", "rayleigh time step: r = 2.5×10^-4 m, glass", expect=ray(2.5e-4, GLASS)),
    r("units", "rayleigh time step: r = 2.5·10⁻⁴ m, glass", expect=ray(2.5e-4, GLASS)),
    r("units", "rayleigh time step for glass, r = 1 x 10^-3 m", expect=ray(R1, GLASS)),
    r("units", "rayleigh time step for glass, r = 1e−3 m", expect=ray(R1, GLASS)),
    r("units", "rayleigh time step for glass, r = 1E-03 m", expect=ray(R1, GLASS)),
    r("units", "rayleigh time step for glass, r = 1. mm", expect=ray(R1, GLASS)),
    r("units", "rayleigh time step for glass, r = 1 mm, ν = .25", expect=ray(R1, GLASS)),
    r("units", "rayleigh time step for 2 mm glass beads, E=7e+10Pa", expect=ray(R1, GLASS)),
    r("units", "rayleigh step, glass, r=1 mm, E=70 Gpa", expect=ray(R1, GLASS)),
    r(
        "units",
        "rayleigh step, glass, r=1 mm, E = 70 GN/m²",
        expect=Either(ray(R1, GLASS), ("GN", "E", "modulus")),
    ),
    r(
        "units",
        "rayleigh time step for steel shot, r=0.5 mm, E=2.1×10^11 Pa",
        expect=ray(0.5 * MM, STEEL),
    ),
    r("units", "particle mass, d = 3 mm, ρ = 7.85 g/cm³", expect=pm(3 * MM, 7850.0)),
    r(
        "units",
        "particle mass of a 3 mm sphere with density 7850 kg·m⁻³",
        expect=pm(3 * MM, 7850.0),
    ),
    r(
        "units",
        "particle mass, d 3 mm, density 0.284 lb/in³",
        expect=pm(3 * MM, 0.284 * LB / INCH**3),
    ),
    r("units", "mass of one 0.1 in steel ball", expect=pm(0.1 * INCH, STEEL[0])),
    r("units", "particle mass of a 3mm steel ball, density 7850kg/m3", expect=pm(3 * MM, 7850.0)),
    r(
        "units",
        "hertz contact time, 2 mm glass beads, impact speed 100 cm/s",
        expect=ht(R1, GLASS, 1.0),
    ),
    r("units", "hertz contact time, 2 mm glass beads, v = 1000 mm/s", expect=ht(R1, GLASS, 1.0)),
    r("units", "hertz contact time for 2 mm glass at 3.28 ft/s", expect=ht(R1, GLASS, 3.28 * FT)),
    r("units", "max overlap of 2 mm glass beads at 1 m s-1", expect=ov(R1, GLASS, 1.0)),
    r("units", "max overlap of 2 mm glass beads at 1 m·s⁻¹", expect=ov(R1, GLASS, 1.0)),
    r(
        "units",
        "contact stress check: F = 0.5 kN, 10 mm steel balls, yield 1.5 GPa, SF 1.2",
        expect=stress(500.0, 5 * MM, STEEL, 1.5e9, 1.2),
    ),
    r(
        "units",
        "contact stress check, force 2 N, radius 1 mm, glass, σ_y 50 MPa, safety factor 2",
        expect=stress(2.0, R1, GLASS, 50e6, 2.0),
    ),
    r(
        "units",
        "contact stress check: 20 lbf on 0.25 in steel balls, yield 200 ksi, SF 1.5",
        expect=stress(20 * LBF, 0.125 * INCH, STEEL, 200e3 * PSI, 1.5),
    ),
    r(
        "units",
        "linear spring: m_eff = 5 mg, e = 0.9, k = 100 kN/m",
        expect=spring_tc(5e-6, 1e5, 0.9),
    ),
    r(
        "units",
        "linear spring contact, effective mass 0.002 kg, restitution 0.8, contact time 10 μs",
        expect=spring_k(2e-3, 10e-6, 0.8),
    ),
    r(
        "units",
        "rolling resistance: k_n = 1×10^5 N/m, μ_r = 0.1, 2 mm glass",
        expect=roll(1e5, 0.1, R1),
    ),
    r(
        "units",
        "rolling stiffness, kn 100 N/mm, mu_r 0.1, radius 1 mm",
        expect=roll(1e5, 0.1, R1),
    ),
    r(
        "units",
        "JKR pull-off for 20 μm glass, surface energy 50 mJ/m²",
        expect=coh(10 * UM, 0.05),
    ),
    r(
        "units",
        "cohesion numbers, radius 10 µm, work of adhesion 0.05 N/m",
        expect=coh(10 * UM, 0.05),
    ),
    r(
        "units",
        "stokes relaxation time of 0.5 mm glass beads in water",
        expect=cfd_tau(0.5 * MM, GLASS[0], WATER),
    ),
    r(
        "units",
        "archimedes number for 2 mm sand in water, viscosity 1 mPa·s",
        expect=cfd_ar(2 * MM, SAND[0], (WATER[0], 1e-3)),
    ),
    r(
        "units",
        "cfd dem numbers for 100 µm particles, density 2.5 g/cc, in air",
        expect=cfd_tau(100 * UM, 2500.0, AIR),
    ),
    r(
        "units",
        "particle count for a box 0.1 m × 0.1 m × 0.2 m filled with 2 mm beads",
        expect=box(0.1, 0.1, 0.2, 2 * MM, whole=True),
    ),
    r(
        "units",
        "how many 1 mm beads in a 100×50×50 mm box",
        expect=box(0.1, 0.05, 0.05, MM, whole=True),
    ),
    r(
        "units",
        "particle count: cylinder D = 150 mm, H = 300 mm, 2 mm spheres, φ = 0.58",
        expect=cyl(0.15, 0.3, 2 * MM, 0.58),
    ),
    r("units", "bulk density for 2650 kg/m3 sand at 40 % porosity", expect=bulk(0.6, 2650.0)),
    r(
        "units",
        "bulk density, solid density 2.65 g/cm3, solids fraction 0.6",
        expect=bulk(0.6, 2650.0),
    ),
    r(
        "units",
        "wall effect porosity: 3 mm spheres in a 2 in pipe",
        expect=wall_eps(2 * INCH, 3 * MM),
    ),
    r(
        "units",
        "near-wall porosity for d = 0.5 mm in a D = 25 mm column",
        expect=wall_eps(0.025, 0.5 * MM),
    ),
    r(
        "units",
        "inertial number: shear rate 20 s⁻¹, d 2 mm, P 5 kPa, ρ 2500 kg/m³",
        expect=inert(20.0, 2 * MM, 5000.0, 2500.0),
    ),
    r("units", "froude number, drum diameter 600 mm, 30 rpm", expect=fr(0.3, 30)),
    r("units", "flow regime of a drum of radius 0.5 m at 0.5 rev/s", expect=fr(0.5, 30)),
    r(
        "units",
        "beverloo: 3 in outlet, 2 mm beads, bulk density 1500 kg/m³",
        expect=bev(3 * INCH, 2 * MM, 1500.0),
    ),
    r(
        "units",
        "discharge rate from a silo with a 100 mm orifice, 5 mm pellets, bulk density 700 kg/m3",
        expect=bev(0.1, 5 * MM, 700.0),
    ),
    r("units", "time steps for 5 s of simulated time at Δt = 2 µs", expect=steps(5.0, 2e-6)),
    r("units", "how many steps for 0.5 s at dt 5e-7 s", expect=steps(0.5, 5e-7)),
    r("units", "number of timesteps: duration 2 min, dt 1 ms", expect=steps(120.0, 1e-3)),
    r(
        "units",
        "simulation cost: 2 s at dt 1 µs, 1e6 particles, throughput 2e6 1/s, 8 cores",
        expect=cost_hours(2.0, 1e-6, 1e6, 2e6, 8),
    ),
    r(
        "units",
        "coarse graining: scale factor 3, 1 mm particles, 2.7e7 particles",
        expect=cg_parcels(3.0, MM, 2.7e7),
    ),
    r(
        "units",
        "coarse-grain 200 µm beads with s = 5, parcel diameter?",
        expect=cg_diameter(5.0, 200 * UM),
    ),
    r("units", "neighbour cell size for r_max = 1.5 mm", expect=cell(1.5 * MM)),
    r("units", "convert 2.5 g/cm³ to kg/m³", expect=conv(2.5, 2500.0)),
    r("units", "convert 30 psi to kPa", expect=conv(30.0, 30 * PSI / 1000)),
    r("units", "convert 1 mil to µm", expect=conv(1.0, 25.4)),
    r("units", "convert 0.5 in to mm", expect=conv(0.5, 12.7)),
    r("units", "convert 100 rpm to rad/s", expect=conv(100.0, 100 * 2 * PI / 60)),
    r("units", "convert 7850 kg/m3 to lb/ft3", expect=conv(7850.0, 7850.0 / PCF)),
    r("units", "convert 1 N/mm² to MPa", expect=conv(1.0, 1.0)),
    r(
        "units",
        "polydisperse rayleigh, glass, mean diameter 1 mm, std dev 0.1 mm",
        expect=poly_ray(MM, 0.1 * MM, GLASS),
    ),
    r("units", "pwave time step for 3 mm alumina", expect=pw(1.5 * MM, ALUMINA)),
    r("units", "p wave dt: r = 1 mm, ρ = 2.5 g/cm³, E = 70 GPa", expect=pw(R1, GW)),
    r("units", "check dt = 2e-7 s for 1 mm radius glass", expect=check(R1, GLASS, 2e-7)),
    r(
        "units",
        "is a 5 µs time step fine for 4 mm steel balls?",
        expect=check(2 * MM, STEEL, 5e-6),
    ),
    # no material: E* and m* need one, so the pair's inputs are asked for
    r("units", "contact pair for a 1 mm and a 3 mm bead", expect=ask("density", "youngs")),
    r("units", "effective modulus of alumina on glass", expect=ask("radius")),
    r(
        "units",
        "effective modulus of alumina on glass, 1 mm radius",
        expect=pair_e(ALUMINA, GLASS),
    ),
    r("units", "restitution 0.6 → damping ratio", expect=zeta(0.6)),
    r("units", "damping ratio for e = 0.95", expect=zeta(0.95)),
]

# -- decimal commas and thousands separators of other locales ------------------------------------

LOCALE = [
    r("locale", "rayleigh time step for glass beads, d = 0,5 mm", expect=ask(*COMMA, "0,5")),
    r("locale", "particle mass, d 3 mm, density 7 850 kg/m3", expect=ask("density", "7 850")),
    # German thousands dot: 7.850 is read as 7.85 kg/m³, far below any solid: warned in words
    r(
        "locale",
        "particle mass, d 3 mm, density 7.850 kg/m3",
        expect=Either(Note(pm(3 * MM, 7.85), WARN), ("density",)),
    ),
    r("locale", "particle mass, d 3 mm, density 7'850 kg/m3", expect=ask("density", "7'850")),
    r("locale", "particle mass, d 3 mm, density 7,850.0 kg/m3", expect=ask(*COMMA, "density")),
    r("locale", "particle mass, d 3 mm, density 7 850,0 kg/m3", expect=ask(*COMMA, "density")),
    r(
        "locale",
        "particle mass of 3 mm glass, density 2.500,0 kg/m3",
        expect=ask(*COMMA, "density"),
    ),
    r("locale", "hertz contact time, 2 mm glass, 1,5 m/s", expect=ask(*COMMA)),
    r("locale", "convert 1,000 mm to m", expect=ask(*COMMA, "1,000")),
    r("locale", "convert 1 000 mm to m", expect=ask("1 000", "two numbers", "value")),
    r("locale", "time steps for 2 s at dt 1,0e-6 s", expect=ask(*COMMA, "dt", "timestep")),
    r("locale", "steps for 10,5 s at dt 1e-6 s", expect=ask(*COMMA, "duration")),
    r("locale", "froude number for a drum of radius 0,25 m at 10 rpm", expect=ask(*COMMA)),
    r(
        "locale",
        "particle count in a 1,000 x 500 x 500 mm box of 5 mm beads",
        expect=ask(*COMMA, "1,000", "length"),
    ),
    r("locale", "rayleigh time step for glass, r = 1 mm; E = 70,000 MPa", expect=ask(*COMMA, "E")),
    r("locale", "particle mass of a 3 mm ball, density 7850 kg/m^3, d=3,0 mm", expect=ask(*COMMA)),
    r(
        "locale",
        "contact stress, 10 N, 2 mm glass, yield 250 N/mm², SF 1,5",
        expect=ask(*COMMA, "safety"),
    ),
    r("locale", "damping ratio for e = 0,5 to 0,9", expect=ask(*COMMA, "0,5")),
    r("locale", "Rayleigh-Zeitschritt für Glas, d = 2,0 mm", expect=ask(*COMMA, "2,0")),
]

# -- numbers without a unit, ambiguous numbers ---------------------------------------------------

BARE_ROWS = [
    r("bare", "rayleigh time step for glass, radius 1", expect=ask("radius", "unit")),
    r("bare", "particle mass of a steel ball of diameter 3", expect=ask("diameter", "unit")),
    r("bare", "particle mass, d = 3 mm, density 7.85", expect=ask("density", "unit")),
    r("bare", "particle mass, d = 3 mm, density 7850", expect=Note(pm(3 * MM, 7850.0), BARE)),
    r(
        "bare",
        "hertz contact time for 2 mm glass at 2",
        expect=ask("impact", "velocity", "speed", "unit"),
    ),
    r("bare", "time steps for 3 s at dt 0.000001", expect=Note(steps(3.0, 1e-6), BARE)),
    r("bare", "rayleigh time step for glass, r = 1 mm, E = 70", expect=ask("E", "unit", "modulus")),
    r(
        "bare",
        "rayleigh time step for glass, r = 1 mm, E = 7e10",
        expect=Note(ray(R1, GLASS), BARE),
    ),
    r(
        "bare",
        "rayleigh time step, r=1mm, rho=2500, E=70GPa, nu=0.25",
        expect=Note(ray(R1, GW), BARE),
    ),
    r(
        "bare",
        "froude number, drum radius 0.5 m, speed 20",
        expect=Either(fr(0.5, 20), ("rpm", "speed", "rotation")),
    ),
]

# -- two values for one input --------------------------------------------------------------------

TWO = [
    r(
        "two values",
        "rayleigh time step for 2 mm glass beads, diameter 3 mm",
        expect=Either(Note(ray(1.5 * MM, GLASS), NOT_USED), ("diameter",)),
    ),
    r(
        "two values",
        "particle mass of 3 mm steel, ρ = 7850 kg/m3 (7.9 g/cm3)",
        expect=Either(Note(pm(3 * MM, 7850.0), NOT_USED), ("density", "7.9")),
    ),
    r(
        "two values",
        "rayleigh time step for glass, r = 1 mm (0.04 in)",
        expect=Either(Note(ray(R1, GLASS), (*NOT_USED, "radius")), ("radius", "0.04")),
    ),
    r(
        "two values",
        "hertz contact time for 2 mm glass at 1 m/s at 2 m/s",
        expect=Either(Note(ht(R1, GLASS, 1.0), NOT_USED), ("impact", "velocity", "speed")),
    ),
    r(
        "two values",
        "froude number for a drum of radius 0.5 m and diameter 1.2 m at 10 rpm",
        # the 1.2 m is read as a particle's diameter, with a warning naming it
        expect=Either(Note(fr(0.5, 10), (*NOT_USED, "1.2 m")), ("radius", "diameter")),
    ),
    r(
        "two values",
        "particle mass of a 3 mm bead, density 2500 kg/m3 2600 kg/m3",
        expect=ask("density"),
    ),
    r("two values", "convert 5 mm 6 mm to in", expect=ask("value", "5 mm", "6 mm", "two")),
    r(
        "two values",
        "hertz contact time for 2 mm glass at 1 m/s (2 m/s)",
        expect=Either(Note(ht(R1, GLASS, 1.0), NOT_USED), ("impact", "velocity", "speed")),
    ),
    r(
        "two values",
        "particle mass, d = 3 mm, density 7850 kg/m3, ρ = 7850 kg/m3",
        expect=Either(pm(3 * MM, 7850.0), ("density",)),
    ),
    r(
        "two values",
        "particle mass of a 3 mm steel ball, d = 3 mm",
        expect=Either(pm(3 * MM, STEEL[0]), ("diameter",)),
    ),
    r(
        "two values",
        "particle mass of a 3 mm steel ball, density = 7850 kg/m3 ± 50",
        expect=ask("±", "density", "50"),
    ),
    r("two values", "particle mass of a 3 ± 0.1 mm steel ball", expect=ask("±", "diameter", "0.1")),
]

# -- unknown units, misspelt units and tool names -----------------------------------------------

TYPOS = [
    r("unknown unit", "rayleigh time step for 2 mn glass beads", expect=ask("mn", "unit")),
    r(
        "unknown unit",
        "particle mass of a 3 mm steel ball, density 7850 kg/m4",
        expect=ask("density", "kg/m4"),
    ),
    r(
        "unknown unit",
        "particle mass of a 3 mm steel ball, density 7850 kg/mm3",
        expect=Either(Note(pm(3 * MM, 7850e9), WARN), ("density",)),
    ),
    r(
        "unknown unit",
        "rayleigh time step for 2 milimeter glass beads",
        expect=ask("milimeter", "unit"),
    ),
    # pint's `mps` is the metre per second
    r("unknown unit", "hertz contact time 2 mm glass at 1 mps", expect=ht(R1, GLASS, 1.0)),
    r(
        "unknown unit",
        "particle mass of a 3 mm steel ball, density 7850 kgm3",
        expect=ask("kgm3", "density"),
    ),
    r(
        "unknown unit",
        "particle mass of a 3 mm steel ball, density 7850 kg/m³³",
        expect=ask("density", "m³³"),
    ),
    r(
        "unknown unit",
        "particle mass of a 3 mm steel ball, density 7850 kg/m^3.5",
        expect=ask("density", "3.5"),
    ),
    r(
        "unknown unit",
        "particle mass of a 3 mm steel ball, density 7850 kg/m^-3",
        expect=ask("density"),
    ),
    r(
        "typo",
        "particle mass of a 3 mm steal ball",
        expect=Either(pm(3 * MM, STEEL[0]), ("steal", "density", "material")),
    ),
    r("typo", "raylegh time step 2mm glass", expect=ray(R1, GLASS)),
    r("typo", "hertz contact tiem, 2 mm glass, 1 m/s", expect=ht(R1, GLASS, 1.0)),
    r("typo", "particel mass, 3 mm steel", expect=pm(3 * MM, STEEL[0])),
    r("typo", "froud number drum r 0.5 m 10 rpm", expect=fr(0.5, 10)),
    r(
        "typo",
        "beverlo discharge orifice 50 mm, 2 mm beads, bulk density 1500 kg/m3",
        expect=bev(0.05, 2 * MM, 1500.0),
    ),
]

# -- negative, zero, huge and tiny values --------------------------------------------------------

EXTREME = [
    r(
        "extreme",
        "rayleigh time step for glass, r = −1 mm",
        expect=ask("radius", "positive", "> 0"),
    ),
    r(
        "extreme",
        "particle mass of a 3 mm ball with density -7850 kg/m3",
        expect=ask("density", "positive", "> 0"),
    ),
    r(
        "extreme",
        "hertz contact time for 2 mm glass at 0 m/s",
        expect=ask("impact", "velocity", "positive", "> 0"),
    ),
    r(
        "extreme",
        "hertz contact time for 2 mm glass at -1 m/s",
        expect=ask("impact", "velocity", "positive", "> 0"),
    ),
    r(
        "extreme",
        "time steps for 0 s at dt 1e-6 s",
        expect=Either(steps(0.0, 1e-6), ("duration", "positive", "> 0")),
    ),
    r("extreme", "time steps for 1 s at dt 0 s", expect=ask("timestep", "dt", "positive", "> 0")),
    r(
        "extreme",
        "particle mass of a 1e30 m ball, density 2500 kg/m3",
        expect=Either(Note(pm(1e30, 2500.0), WARN), ("diameter", "large", "range")),
    ),
    r(
        "extreme",
        "particle mass of a 1e-200 m ball, density 2500 kg/m3",
        expect=ask("diameter", "small", "underflow", "zero"),
    ),
    r(
        "extreme",
        "time steps for 1e300 s at dt 1e-300 s",
        expect=ask("range", "large", "overflow", "steps", "duration", "timestep"),
    ),
    r("extreme", "convert 1e-320 m to mm", expect=ask("1e-320", "small")),
    r(
        "extreme",
        "froude number drum radius 0.5 m at 1e6 rpm",
        expect=Either(Note(fr(0.5, 1e6), WARN), ("rpm", "speed")),
    ),
    r("extreme", "damping ratio for restitution 1", expect=Either(zeta(1.0), ("restitution",))),
    r(
        "extreme",
        "particle count in a 0 mm cube box of 2 mm beads",
        expect=ask("length", "width", "height", "positive", "> 0", "box"),
    ),
    r(
        "extreme",
        "rayleigh time step for glass beads of radius 0.0 mm",
        expect=ask("radius", "positive", "> 0"),
    ),
    r(
        "extreme",
        "particle mass of a 3 mm ball, density 1e5 kg/m3",
        expect=Note(pm(3 * MM, 1e5), WARN),
    ),
    r(
        "extreme",
        "rayleigh time step for glass, r = 1 mm, poisson 0.5",
        expect=Either(ray(R1, GLASS, 0.5), ("poisson",)),
    ),
    r(
        "extreme",
        "hertz contact time for 2 mm glass at 1e-9 m/s",
        expect=Either(Note(ht(R1, GLASS, 1e-9), WARN), ("velocity", "impact")),
    ),
]

# -- ranges and lists (sweeps) -------------------------------------------------------------------

RANGES = [
    r(
        "range",
        "rayleigh time step for glass, r from 0.5 to 2 mm in 4 points",
        expect=sw_ray(lin(0.5 * MM, 2 * MM, 4), GLASS),
    ),
    r(
        "range",
        "particle mass of steel balls d = 1 … 4 mm, 4 points",
        expect=Either(sw_pm(lin(MM, 4 * MM, 4), STEEL[0]), ("…", "range", "diameter")),
    ),
    r(
        "range",
        "particle mass of steel balls 1–4 mm in 4 points",
        expect=sw_pm(lin(MM, 4 * MM, 4), STEEL[0]),
    ),
    r(
        "range",
        "hertz contact time of 2 mm glass at 0.5, 1, 2 m/s",
        expect=sw_ht((0.5, 1.0, 2.0), R1, GLASS),
    ),
    r(
        "range",
        "damping ratio for restitution 0.5 to 0.9, 5 points",
        expect=sw_zeta(lin(0.5, 0.9, 5)),
    ),
    r(
        "range",
        "rayleigh time step for glass radii 0.1 to 10 mm, log, 3 points",
        expect=sw_ray(geo(0.1 * MM, 10 * MM, 3), GLASS),
    ),
    r(
        "range",
        "hertz contact time for 2 mm glass at 1-3 m/s, 3 points",
        expect=sw_ht(lin(1.0, 3.0, 3), R1, GLASS),
    ),
    r(
        "range",
        "particle mass of 2 mm beads, density 1000 to 8000 kg/m3 in 8 points",
        expect=pm_sweep_density(2 * MM, lin(1000.0, 8000.0, 8)),
    ),
    r(
        "range",
        "rayleigh time step for glass, r = 1 to 2 mm in 2000 points",
        expect=ask("1000", "points"),
    ),
    r(
        "range",
        "particle mass of steel, d = 1 to 3 mm in steps of 0.7 mm",
        expect=ask("step", "0.7"),
    ),
    r(
        "range",
        "rayleigh time step for glass, r = 0,5 to 2 mm",
        expect=ask(*COMMA, "0,5"),
    ),
    r(
        "range",
        "rayleigh time step for glass, r = 0.5 mm to 2 in, 3 points",
        expect=Either(sw_ray(lin(0.5 * MM, 2 * INCH, 3), GLASS), ("radius", "unit", "in")),
    ),
]

# -- follow-ups that change one input -------------------------------------------------------------

_RAY = "rayleigh time step for 2 mm glass beads"
_HT = "hertz contact time for 2 mm glass at 1 m/s"
_PMS = "particle mass of a 3 mm steel ball"

FOLLOW = [
    r("follow-up", _RAY, "and for 3 mm?", expect=ray(1.5 * MM, GLASS)),
    r("follow-up", _RAY, "same with steel", expect=ray(R1, STEEL)),
    r("follow-up", _RAY, "make it 500 µm", expect=ray(250 * UM, GLASS)),
    r("follow-up", _RAY, "with E = 10 MPa", expect=ray(R1, (2500.0, 1e7, 0.25))),
    r("follow-up", _RAY, "radius 1.5", expect=ask("radius", "unit")),
    r("follow-up", _RAY, "and for 0,5 mm?", expect=ask(*COMMA, "0,5")),
    r("follow-up", _RAY, "and for 2 zorks?", expect=ask("zorks", "unit")),
    r("follow-up", _PMS, "density 2,5 g/cm3 instead", expect=ask(*COMMA, "2,5")),
    r("follow-up", _PMS, "and in glass", expect=pm(3 * MM, GLASS[0])),
    r("follow-up", _PMS, "and for 3", expect=ask("3", "unit", "which")),
    r("follow-up", _PMS, "and for −3 mm", expect=ask("diameter", "positive", "> 0")),
    r("follow-up", _HT, "now at 5 m/s", expect=ht(R1, GLASS, 5.0)),
    r("follow-up", _HT, "what about 2 m/s and 3 m/s?", expect=sw_ht((2.0, 3.0), R1, GLASS)),
    r(
        "follow-up",
        "froude number for a drum of radius 0.25 m at 10 rpm",
        "at 20 rpm?",
        expect=fr(0.25, 20),
    ),
    r("follow-up", "time steps for 2 s at dt 1e-6 s", "and 5 s?", expect=steps(5.0, 1e-6)),
    r(
        "follow-up",
        "beverloo discharge, orifice 50 mm, 2 mm particles, bulk density 1500 kg/m3",
        "orifice 80 mm",
        expect=bev(0.08, 2 * MM, 1500.0),
    ),
    r("follow-up", "convert 1 inch to mm", "and 2 ft?", expect=conv(2.0, 609.6)),
]

# -- hostile and odd writings ----------------------------------------------------------------------

HOSTILE = [
    r(
        "hostile",
        "particle mass of a 3 mm steel ball, density 7850 kg/m3 + 10%",
        expect=ask("density", "+", "arithmetic", "10%"),
    ),
    r(
        "hostile",
        "rayleigh time step for 2 mm glass beads, E = 70e9 Pa / 2",
        expect=ask("E", "arithmetic", "/", "modulus"),
    ),
    r(
        "hostile",
        "particle mass of a 0x10 mm steel ball",
        expect=ask("0x10", "diameter", "could not"),
    ),
    r(
        "hostile",
        "particle mass of a 1_000 um steel ball",
        expect=Either(pm(MM, STEEL[0]), ("1_000", "diameter", "could not")),
    ),
    r("hostile", "particle mass of a ³ mm steel ball", expect=ask("diameter", "³")),
    r(
        "hostile",
        "particle mass of ½ in steel ball",
        expect=Either(pm(0.5 * INCH, STEEL[0]), ("½", "diameter")),
    ),
    r(
        "hostile",
        "rayleigh time step for glass, r = 1×10-3 m",
        expect=Either(ray(R1, GLASS), ("radius", "10-3", "power")),
    ),
    r(
        "hostile",
        "rayleigh time step for glass, r = 10^-3 m",
        expect=ask("10^-3", "power", "1e-3", "radius"),
    ),
    r(
        "hostile",
        "rayleigh time step for glass, r = 1 mm, E = 1e1000 Pa",
        expect=ask("E", "range", "1e1000"),
    ),
    r(
        "hostile",
        "particle mass of a 3 mm steel ball, density 7850 kg/m3\u200b",
        expect=Either(pm(3 * MM, STEEL[0]), ("density", "character")),
    ),
    r(
        "hostile",
        "particle mass of a 3\u00a0mm steel ball",
        expect=pm(3 * MM, STEEL[0]),
    ),
    r(
        "hostile",
        "particle mass of a 3\u2009mm steel ball",
        expect=Either(pm(3 * MM, STEEL[0]), ("diameter",)),
    ),
    r(
        "hostile",
        "particle mass of a 3 mm steel ball, density 7850 ㎏/m³",
        expect=Either(pm(3 * MM, STEEL[0]), ("density", "㎏")),
    ),
    r(
        "hostile",
        "particle mass of a 3 ㎜ steel ball",
        expect=Either(pm(3 * MM, STEEL[0]), ("diameter", "㎜")),
    ),
    r(
        "hostile",
        "rayleigh time step for glass, r = 1 mm, E = 70 GPa GPa",
        expect=ask("E", "GPa", "twice", "modulus"),
    ),
    r(
        "hostile",
        "particle mass of a 3 mm steel ball, density 7850 kg/m3/m3",
        expect=ask("density"),
    ),
    r(
        "hostile",
        "hertz contact time for 2 mm glass at 1 m/s/s",
        expect=ask("impact", "velocity", "speed"),
    ),
    r(
        "hostile",
        "particle mass of a 3 mm steel ball, density 7850 kg/m3 " + "9" * 400,
        expect=ask("long", "number", "range", "too", "could not", "9999"),
    ),
]

ROWS: list[Row] = UNITS + LOCALE + BARE_ROWS + TWO + TYPOS + EXTREME + RANGES + FOLLOW + HOSTILE


async def run_row(row: Row) -> dict[str, Any] | None:
    """The last turn as a TurnResult dict, or None when `Session.ask` raised."""
    try:
        return (await run_conversation(row.turns))[-1]
    except Exception:  # a crash is a verdict here
        return None


def score(rows: list[Row] | None = None) -> dict[str, Any]:
    return tally(rows or ROWS, run_row)


def revise(blind: list[Row], revised: dict[str, tuple[Any, str]]) -> list[Row]:
    """`blind` with the expectations `revised` replaced (text -> (expectation, why)): the rows
    the later blind sets score."""
    return [
        Row(row.kind, row.turns, revised[row.text][0]) if row.text in revised else row
        for row in blind
    ]


def blind_scorer(blind_rows: list[Row], rows: list[Row]) -> Any:
    """A set's `score(rows=None, blind=False)`: verdict counts over `rows` (default all of the
    set's; `blind`: with the expectations as first written, `blind_rows`)."""

    def score(chosen: list[Row] | None = None, blind: bool = False) -> dict[str, Any]:
        return tally(chosen or (blind_rows if blind else rows), run_row)

    return score


def print_score(score: Any) -> None:
    """`python -m tests.agent.offline_blind_N [--blind]`: the set's score as JSON."""
    import sys

    print(json.dumps(score(blind="--blind" in sys.argv), indent=1, ensure_ascii=False))


if __name__ == "__main__":
    result = score()
    print(json.dumps(result, indent=1, ensure_ascii=False))
