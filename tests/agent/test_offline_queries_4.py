"""A fourth blind query set for the offline reader, written before reading the earlier sets:
text copied from spec sheets and e-mails, several numbers of one dimension (min/max, from/to,
inner/outer), units written out (millimetres, kilopascals), thousands separators (commas and
spaces), scientific shorthand (5E-6 s, 2.5e+9 Pa, 7×10¹⁰ Pa), tool abbreviations (dt, tc, CG
factor, Fr), micro signs (µm, μm, um, micron) and Unicode (×, ·, ², ³, −, ⁻³).

Each row was decided by hand: the tool, every argument that matters (SI; `None` where it must be
absent), and one result computed here from the formula of docs/references.md, independently of
the tools. A row whose text cannot be read exactly must be refused or asked about (`REFUSED`).
Material presets are the handbook values of docs/materials written out here.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute, validate

PI = math.pi
GLASS = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}
STEEL = {"density": 7850.0, "youngs_modulus": 210e9, "poisson_ratio": 0.30}
SAND = {"density": 2650.0, "youngs_modulus": 95e9}


def rayleigh(r: float, rho: float, e: float, nu: float) -> float:
    """dt_R = π R √(ρ/G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν)) (docs/references.md §1)."""
    return PI * r * math.sqrt(rho / (e / (2 * (1 + nu)))) / (0.1631 * nu + 0.8766)


def pwave(r: float, rho: float, e: float) -> float:
    """dt_p = R √(ρ/E) (Yade PWaveTimeStep)."""
    return r * math.sqrt(rho / e)


def sphere_mass(d: float, rho: float) -> float:
    return rho * PI * d**3 / 6


def hertz_time(r: float, rho: float, e: float, nu: float, v: float) -> float:
    """t_H = 2 δ_max/v ∫₀¹ dx/√(1 − x^(5/2)) with δ_max = (15 m* v²/(16 E* √R*))^(2/5): the
    integral is (2/5) B(2/5, 1/2), which makes t_H ≈ 2.868 (m*²/(R* E*² v))^(1/5)."""
    integral = 0.4 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    constant = 2 * integral * (15 / 16) ** 0.4
    m_star = sphere_mass(2 * r, rho) / 2
    e_star = e / (2 * (1 - nu**2))
    return float(constant * (m_star**2 / (r / 2 * e_star**2 * v)) ** 0.2)


def damping(e: float) -> float:
    """ζ = −ln e / √(π² + ln² e)."""
    return -math.log(e) / math.sqrt(PI**2 + math.log(e) ** 2)


def liggghts_bin(r_max: float, skin: float = 0.001) -> float:
    """LIGGGHTS bin = ½ (2 r_max + skin)."""
    return 0.5 * (2 * r_max + skin)


Row = tuple[str, str, dict[str, Any], tuple[str, float] | None]

ROWS: list[Row] = [
    # units written out
    (
        "rayleigh dt for radius 2 millimetres, density 2500 kg/m3, E = 70 GPa, nu 0.22",
        "rayleigh_timestep",
        {"particle_radius": 2e-3, "density": 2500.0, "youngs_modulus": 70e9},
        ("rayleigh_timestep", rayleigh(2e-3, 2500, 70e9, 0.22)),
    ),
    (
        "rayleigh dt for radius 2 millimeters, density 2500 kg/m3, E = 70 GPa, nu 0.22",
        "rayleigh_timestep",
        {"particle_radius": 2e-3, "poisson_ratio": 0.22},
        ("rayleigh_timestep", rayleigh(2e-3, 2500, 70e9, 0.22)),
    ),
    (
        "particle mass of diameter 2 millimetres, density 2500 kg/m3",
        "particle_mass",
        {"particle_diameter": 2e-3, "density": 2500.0},
        ("particle_mass", sphere_mass(2e-3, 2500)),
    ),
    (
        "pwave timestep radius 1 mm density 2500 kg/m3 E 5 kilopascals",
        "pwave_timestep",
        {"particle_radius": 1e-3, "youngs_modulus": 5e3},
        ("pwave_timestep", pwave(1e-3, 2500, 5e3)),
    ),
    (
        "flow regime: shear rate 100 per second, particle diameter 1 mm, pressure 2 kilopascals,"
        " density 2500 kg/m3",
        "flow_regime",
        {"shear_rate": 100.0, "pressure": 2e3, "particle_diameter": 1e-3, "density": 2500.0},
        ("inertial_number", 100 * 1e-3 / math.sqrt(2e3 / 2500)),
    ),
    (
        "silo discharge rate, outlet 10 centimetres, d 3 mm, bulk density 800 kg/m³,"
        " silo diameter 1 m",
        "beverloo_discharge",
        {"orifice_diameter": 0.1, "particle_diameter": 3e-3, "bulk_density": 800.0},
        ("mass_flow_rate", 0.58 * 800 * math.sqrt(9.80665) * (0.1 - 1.5 * 3e-3) ** 2.5),
    ),
    (
        "particle mass: diameter 200 micrometres, density 8 g/cm3",
        "particle_mass",
        {"particle_diameter": 200e-6, "density": 8000.0},
        ("particle_mass", sphere_mass(200e-6, 8000)),
    ),
    # scientific shorthand and Unicode
    (
        "check my dt = 5E-6 s for radius 1 mm, density 2500 kg/m3, E 10 MPa, poisson 0.3",
        "check_timestep_heuristic",
        {"timestep": 5e-6, "youngs_modulus": 10e6, "impact_velocity": None},
        ("rayleigh_fraction", 5e-6 / rayleigh(1e-3, 2500, 10e6, 0.3)),
    ),
    (
        "pwave dt: r=0.1 mm, rho = 2650 kg·m⁻³, E = 1×10⁷ Pa",
        "pwave_timestep",
        {"particle_radius": 1e-4, "density": 2650.0, "youngs_modulus": 1e7},
        ("pwave_timestep", pwave(1e-4, 2650, 1e7)),
    ),
    (
        "rayleigh: R = 50 μm, ρ = 2.5 g·cm⁻³, E = 7×10¹⁰ Pa, ν = 0.25",
        "rayleigh_timestep",
        {"particle_radius": 50e-6, "density": 2500.0, "youngs_modulus": 7e10},
        ("rayleigh_timestep", rayleigh(50e-6, 2500, 7e10, 0.25)),
    ),
    (
        "Rayleigh time step: R = 500 µm, ρ = 2500 kg/m3, E = 2.5e+9 Pa, nu 0.3",
        "rayleigh_timestep",
        {"particle_radius": 500e-6, "youngs_modulus": 2.5e9, "fraction": None},
        ("rayleigh_timestep", rayleigh(500e-6, 2500, 2.5e9, 0.3)),
    ),
    (
        "steps for 0.5 s at dt = 2.5E−6 s",
        "timesteps_for_duration",
        {"duration": 0.5, "timestep": 2.5e-6},
        ("steps", 200000),
    ),
    (
        "how many steps to simulate 10 s at dt 1E-6 s",
        "timesteps_for_duration",
        {"duration": 10.0, "timestep": 1e-6},
        ("steps", 10_000_000),
    ),
    (
        "linear contact: k = 2×10⁴ N·m⁻¹, e = 0.7, m_eff = 1.5e-4 kg",
        "linear_spring_contact",
        {"stiffness": 2e4, "restitution": 0.7, "effective_mass": 1.5e-4, "collision_time": None},
        ("damping_ratio", damping(0.7)),
    ),
    (
        "linear spring dashpot with collision time 1E-5 s, restitution 0.9, m* = 3 mg",
        "linear_spring_contact",
        {"collision_time": 1e-5, "effective_mass": 3e-6, "stiffness": None},
        ("damping_ratio", damping(0.9)),
    ),
    (
        "rolling resistance: coefficient of rolling friction 0.02, normal stiffness 2 × 10^5 N/m,"
        " particle radius 1.5 mm",
        "rolling_resistance",
        {"rolling_friction": 0.02, "normal_stiffness": 2e5, "particle_radius": 1.5e-3},
        ("rolling_stiffness", 2.25 * 2e5 * 0.02**2 * (1.5e-3 / 2) ** 2),
    ),
    (
        "inertial number for shear rate 50 s⁻¹, d 0.5 mm, confining pressure 10 kPa, density 2650",
        "flow_regime",
        {"shear_rate": 50.0, "pressure": 1e4, "particle_diameter": 5e-4},
        ("inertial_number", 50 * 5e-4 / math.sqrt(1e4 / 2650)),
    ),
    # abbreviations of the calculation
    (
        "tc for 2 mm radius glass beads, rho 2500, E 63 GPa, nu 0.23, impact velocity 1.5 m/s",
        "hertz_contact_time",
        {"particle_radius": 2e-3, "youngs_modulus": 63e9, "poisson_ratio": 0.23},
        ("contact_time", hertz_time(2e-3, 2500, 63e9, 0.23, 1.5)),
    ),
    (
        "Fr for a drum of diameter 0.5 m at 20 rpm",
        "flow_regime",
        {"drum_radius": 0.25, "rotation_speed": 20.0},
        ("froude_number", (20 * 2 * PI / 60) ** 2 * 0.25 / 9.80665),
    ),
    (
        "drum of radius 250 mm, 15 rev/min, filling 30 %",
        "flow_regime",
        {"drum_radius": 0.25, "filling_degree": 0.3},
        ("froude_number", (15 * 2 * PI / 60) ** 2 * 0.25 / 9.80665),
    ),
    (
        "CG factor 4 for 1 mm particles, density 2500 kg/m3, 1e7 particles",
        "coarse_graining",
        {"scale_factor": 4.0, "particle_diameter": 1e-3, "n_particles": 1e7},
        ("parcel_diameter", 4e-3),
    ),
    (
        "coarse graining: CG factor 5, parcels, 1e7 particles of 0.2 mm, density 2650 kg/m3",
        "coarse_graining",
        {"scale_factor": 5.0, "n_particles": 1e7, "particle_diameter": 2e-4},
        ("parcel_diameter", 1e-3),
    ),
    # micro signs
    (
        "P-wave time step for a particle of radius 150 um, density 7800 kg/m³, E 210 GPa",
        "pwave_timestep",
        {"particle_radius": 150e-6, "density": 7800.0},
        ("pwave_timestep", pwave(150e-6, 7800, 210e9)),
    ),
    (
        "bond number for 20 micron radius particles, density 1500 kg/m3, surface energy 50 mJ/m²",
        "cohesion_numbers",
        {"particle_radius": 20e-6, "surface_energy": 0.05, "other_radius": None},
        ("pull_off_force_jkr", 1.5 * PI * 0.05 * 10e-6),
    ),
    (
        "JKR pull-off force for R 10 µm, surface energy 0.05 J/m², density 2500 kg/m3",
        "cohesion_numbers",
        {"particle_radius": 10e-6, "surface_energy": 0.05},
        ("pull_off_force_jkr", 1.5 * PI * 0.05 * 5e-6),
    ),
    (
        "convert 100 μm to inches",
        "convert_units",
        {"value": 100.0},
        ("value", 100e-6 / 0.0254),
    ),
    (
        "convert 100 micron to mm",
        "convert_units",
        {"value": 100.0},
        ("value", 0.1),
    ),
    (
        "convert 30 µm to metres",
        "convert_units",
        {"value": 30.0},
        ("value", 30e-6),
    ),
    (
        "convert 5E-6 s to microseconds",
        "convert_units",
        {"value": 5e-6},
        ("value", 5.0),
    ),
    (
        "convert 2.5 g/cm³ to kg/m³",
        "convert_units",
        {"value": 2.5},
        ("value", 2500.0),
    ),
    # several numbers of one dimension
    (
        "neighbour cell size: particle radii from 0.5 mm to 1.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3},
        ("cell_size", liggghts_bin(1.5e-3)),
    ),
    (
        "neighbour cell size: particle radius from 0.5 mm to 1.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3},
        ("cell_size", liggghts_bin(1.5e-3)),
    ),
    (
        "neighbour cell size: radii 0.5 mm to 1.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3},
        ("cell_size", liggghts_bin(1.5e-3)),
    ),
    (
        "neighbour cell size: particle diameters from 1 mm to 3 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3},
        ("cell_size", liggghts_bin(1.5e-3)),
    ),
    (
        "bin size r_max 1.5 mm skin 0.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 1.5e-3, "skin": 5e-4},
        ("cell_size", liggghts_bin(1.5e-3, 5e-4)),
    ),
    (
        "neighbor list bin size: largest radius 3 mm, skin 1 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 3e-3, "skin": 1e-3},
        ("cell_size", liggghts_bin(3e-3, 1e-3)),
    ),
    (
        "Rayleigh time step: min radius 0.5 mm, max radius 2 mm, density 2500 kg/m3, E 1 GPa,"
        " nu 0.3",
        "rayleigh_timestep",
        {"particle_radius": 5e-4},
        ("rayleigh_timestep", rayleigh(5e-4, 2500, 1e9, 0.3)),
    ),
    (
        "time step for particles between 1 mm and 3 mm diameter, glass",
        "rayleigh_timestep",
        {"particle_radius": 5e-4, **GLASS},
        ("rayleigh_timestep", rayleigh(5e-4, 2500, 70e9, 0.25)),
    ),
    (
        "wall effect: tube ID 25 mm OD 30 mm, particle diameter 3 mm",
        "wall_effect_porosity",
        {"container_diameter": 25e-3, "particle_diameter": 3e-3},
        None,
    ),
    (  # the second radius was halved as if a diameter: other_radius 1 mm
        "hertz contact time: steel, radius 1 mm and 2 mm, impact 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "other_radius": 2e-3, **STEEL},
        None,
    ),
    (
        "hertz contact time: radii 1 mm and 2 mm, steel, impact 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "other_radius": 2e-3, "impact_velocity": 1.0},
        None,
    ),
    (
        "max overlap, glass, radius 1 mm and 3 mm, v 2 m/s",
        "hertz_max_overlap",
        {"particle_radius": 1e-3, "other_radius": 3e-3, "impact_velocity": 2.0},
        None,
    ),
    (
        "cohesion: radius 10 µm and 20 µm, surface energy 0.1 J/m²",
        "cohesion_numbers",
        {"particle_radius": 10e-6, "other_radius": 20e-6, "surface_energy": 0.1},
        ("pull_off_force_jkr", 1.5 * PI * 0.1 * (10e-6 * 20e-6 / 30e-6)),
    ),
    (  # `2 mm after` was halved into a second body of radius 1 mm; now left over, and said so
        "hertz contact time: radius 1 mm before, 2 mm after, steel, impact 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "other_radius": None},
        None,
    ),
    (  # the outer diameter was read as the particle diameter (0.25 m) and 3 mm as the bore
        "estimate particle count: cylinder inner diameter 0.2 m, outer diameter 0.25 m,"
        " height 0.5 m, particle 3 mm",
        "estimate_particle_count",
        {"diameter": 0.2, "height": 0.5, "particle_diameter": 3e-3},
        None,
    ),
    (
        "beverloo: silo outer diameter 1.2 m, orifice 100 mm, particle 3 mm,"
        " bulk density 800 kg/m3",
        "beverloo_discharge",
        {"orifice_diameter": 0.1, "particle_diameter": 3e-3, "silo_diameter": None},
        ("mass_flow_rate", 0.58 * 800 * math.sqrt(9.80665) * (0.1 - 1.5 * 3e-3) ** 2.5),
    ),
    (
        "hertz contact duration: inner particle radius 1 mm, other radius 2 mm,"
        " density 2500 kg/m3, E 1 GPa, nu 0.3, v 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "other_radius": 2e-3, "impact_velocity": 1.0},
        None,
    ),
    # spec-sheet and e-mail text
    (
        "peak overlap of a 2 mm radius sphere hitting a wall at 10 m/s, density 2500 kg/m3,"
        " E 70 GPa, poisson 0.22, dt = 1e-7 s",
        "hertz_max_overlap",
        {"particle_radius": 2e-3, "wall": True, "impact_velocity": 10.0, "timestep": 1e-7},
        None,
    ),
    (
        "contact stress: force 10 N, radius 5 mm, E = 210 GPa, nu 0.3, yield stress 250 MPa,"
        " safety factor 1.5",
        "contact_stress_check",
        {"normal_force": 10.0, "yield_stress": 250e6, "safety_factor": 1.5, "wall": None},
        None,
    ),
    (
        "contact stress check: 50 N between a 10 mm radius steel ball and a wall,"
        " yield 1.2 GPa, safety 2",
        "contact_stress_check",
        {"normal_force": 50.0, "particle_radius": 0.01, "wall": True, "youngs_modulus": 210e9},
        None,
    ),
    (
        "restitution of 70 % -> damping",
        "restitution_to_damping",
        {"restitution": 0.7},
        ("damping_ratio", damping(0.7)),
    ),
    (
        "damping ratio for e = 0.85 (restitution)",
        "restitution_to_damping",
        {"restitution": 0.85},
        ("damping_ratio", damping(0.85)),
    ),
    (
        "particle count for a box 1 m × 0.5 m × 0.2 m with 5 mm particles, packing 0.6",
        "estimate_particle_count",
        {"length": 1.0, "width": 0.5, "height": 0.2, "particle_diameter": 5e-3},
        ("particle_count", math.floor(0.6 * 0.1 / (PI * 5e-3**3 / 6))),
    ),
    (
        "number of 1 mm spheres in 2 litres, packing fraction 0.62",
        "estimate_particle_count",
        {"container_volume": 2e-3, "particle_diameter": 1e-3, "packing_fraction": 0.62},
        None,
    ),
    (
        "how many 2 mm particles fit in a cylinder of diameter 100 mm and height 200 mm",
        "estimate_particle_count",
        {"diameter": 0.1, "height": 0.2, "particle_diameter": 2e-3},
        None,
    ),
    (
        "bulk props: porosity 38 %, solid density 2650 kg/m3",
        "bulk_properties",
        {"porosity": 0.38, "solid_density": 2650.0},
        ("bulk_density", 0.62 * 2650),
    ),
    (
        "porosity 0.4, solid density 2.65 g/cm3, volume 2 m³ bulk mass",
        "bulk_properties",
        {"porosity": 0.4, "solid_density": 2650.0, "volume": 2.0},
        ("bulk_density", 0.6 * 2650),
    ),
    (
        "polydisperse: diameters 1 mm, 2 mm and 3 mm, number fractions 0.5, 0.3, 0.2",
        "polydisperse_counts",
        {"diameters": [1e-3, 2e-3, 3e-3], "number_fractions": [0.5, 0.3, 0.2]},
        None,
    ),
    (
        "polydisperse rayleigh: d = 1, 2 and 3 mm, glass",
        "polydisperse_rayleigh",
        {"diameters": [1e-3, 2e-3, 3e-3], **GLASS},
        None,
    ),
    (
        "Rayleigh time step for a normal distribution mean 2 mm std 0.2 mm,"
        " density 2500 kg/m3, E 10 MPa, poisson 0.3",
        "polydisperse_rayleigh",
        {"mean_diameter": 2e-3, "std_dev": 2e-4, "diameters": None},
        None,
    ),
    (
        "pwave dt for R = 0.25 mm sand",
        "pwave_timestep",
        {"particle_radius": 2.5e-4, **SAND},
        ("pwave_timestep", pwave(2.5e-4, 2650, 95e9)),
    ),
    (
        "mass per particle: 3 mm steel balls",
        "particle_mass",
        {"particle_diameter": 3e-3, "density": STEEL["density"]},
        ("particle_mass", sphere_mass(3e-3, 7850)),
    ),
    (
        "particle mass, d = 4 mm, ρ = 1.05 g/cc",
        "particle_mass",
        {"particle_diameter": 4e-3, "density": 1050.0},
        ("particle_mass", sphere_mass(4e-3, 1050)),
    ),
    (
        "wall effect porosity: cylinder diameter 50 mm, particle 5 mm",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 5e-3},
        None,
    ),
    (
        "coarse graining: scale factor 3, particle diameter 0.5 mm, stiffness 1000 N/m",
        "coarse_graining",
        {"scale_factor": 3.0, "particle_diameter": 5e-4, "stiffness": 1000.0},
        ("parcel_diameter", 1.5e-3),
    ),
]

REFUSED: list[str] = [
    # digits grouped by a space: `2 500` was read as 2 (and `500 kg/m3` left over)
    "Rayleigh time step: R = 500 µm, ρ = 2 500 kg/m3, E = 2.5e+9 Pa, nu 0.3",
    "max overlap at impact 5 m/s, R = 3 millimetres, ρ = 1 200 kg/m³, E = 5 MPa, ν = 0.4",
    "bulk density from packing fraction 0.6 and solid density 2 500 kg/m³",
    "cost of 2 500 000 particles for 5 s at 2 µs, 5E+5 particle-steps/core/s on 32 cores",
    "particle mass: diameter 2 mm, density 7\u00a0850 kg/m3",
    "particle mass: diameter 2 mm, density 7\u202f850 kg/m3",
    # only a wall's outside size: not the bore, not the particle
    "estimate particle count: cylinder outer diameter 0.25 m, height 0.5 m, particle 3 mm",
    "wall effect porosity: pipe outside diameter 60 mm, particle 5 mm",
    # digits grouped by a comma
    "rayleigh timestep radius 0.5 mm density 2,500 kg/m3 youngs modulus 5E+7 Pa poisson 0.25",
    "simulation cost: 1,000,000 particles, 10 s, dt 1e-6 s, throughput 1e6, 16 cores",
    "mass of a 3 mm particle with density 1,100 kg/m3",
    "e = 0,7 damping ratio",
]


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    if isinstance(want, (bool, str)):
        return bool(got == want)
    return math.isclose(float(got), float(want), rel_tol=1e-6, abs_tol=1e-300)


@pytest.mark.parametrize(("text", "tool", "args", "key"), ROWS, ids=[r[0] for r in ROWS])
def test_query(text: str, tool: str, args: dict[str, Any], key: tuple[str, float] | None) -> None:
    selection = select_text(text)
    assert selection.calls, f"no call for {text!r}: {selection.reply}"
    call = selection.calls[0]
    assert call.name == tool, f"{text!r}: {call.name} {call.args}"
    model, errors = validate(call.name, call.args)
    assert model is not None, f"{text!r}: {errors}"
    for name, want in args.items():
        if want is None:
            assert name not in call.args, f"{text!r}: {name}={call.args.get(name)} must be absent"
        else:
            assert name in call.args, f"{text!r}: {name} not read"
            assert _same(getattr(model, name), want), f"{text!r}: {name} {getattr(model, name)}"
    if key is not None:
        outcome = execute(call.name, call.args)
        assert outcome.ok and outcome.result is not None, outcome.error_text()
        assert _same(outcome.result[key[0]], key[1]), f"{text!r}: {outcome.result[key[0]]}"


@pytest.mark.parametrize("text", REFUSED)
def test_refused(text: str) -> None:
    selection = select_text(text)
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply
