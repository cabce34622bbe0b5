"""Corpus rows for issue 10: unit spellings (many US customary), the inch/preposition `in`, bulk
masses, contact durations, conversions, container vs particle sizes, and values that cannot be
read. Appended to `tests.agent.corpus.CORPUS` (as `Row(**fields)`).

Every SI value is written here from the unit's definition (constants below, with their sources),
independently of the app's unit code.
"""

from __future__ import annotations

import math
from typing import Any

GLASS = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}  # glass preset
STEEL = {"density": 7850.0, "youngs_modulus": 210e9, "poisson_ratio": 0.30}  # steel preset


def row(
    text: str, tool: str | None, args: dict[str, Any] | None = None, **more: Any
) -> dict[str, Any]:
    """The fields of a `tests.agent.corpus.Row` (which builds the rows from these)."""
    return {"text": text, "tool": tool, "args": args or {}, **more}


INCH = 0.0254  # m, exact (international yard and pound agreement, 1959)
FOOT = 12 * INCH
YARD = 3 * FOOT
POUND = 0.45359237  # kg, exact (same agreement)
G0 = 9.80665  # m/s², standard gravity (3rd CGPM, 1901): defines kgf and lbf
LBF = POUND * G0  # N
PSI = LBF / INCH**2  # Pa
KSI = 1000 * PSI
PCF = POUND / FOOT**3  # kg/m³ (lb/ft³)
LITRE = 1e-3  # m³ (12th CGPM, 1964)
SAND = 2650.0  # quartz sand preset, kg/m³
ALUMINA = {"density": 3900.0, "youngs_modulus": 370e9}
STEEL_WALL = {"wall": True, "wall_youngs_modulus": 210e9, "wall_poisson_ratio": 0.30}

READER_ROWS: list[dict[str, Any]] = [
    # --- inches, feet and other US customary units (and the inch `in`)
    row(
        "rayleigh time step for r = 0.25 in glass",
        "rayleigh_timestep",
        {"particle_radius": 0.25 * INCH, **GLASS},
    ),
    row(
        "rayleigh time step r=0.25in glass beads",
        "rayleigh_timestep",
        {"particle_radius": 0.25 * INCH, **GLASS},
    ),
    row(
        'rayleigh time step for 0.5" glass beads',
        "rayleigh_timestep",
        {"particle_radius": 0.25 * INCH, **GLASS},
    ),
    row(
        "mass of a 0.5 in steel ball",
        "particle_mass",
        {"particle_diameter": 0.5 * INCH, **{"density": 7850.0}},
    ),
    row(
        "mass of a 1 inch steel ball",
        "particle_mass",
        {"particle_diameter": INCH, "density": 7850.0},
    ),
    row(
        "particle mass d=0.125 in rho=490 lb/ft3",
        "particle_mass",
        {"particle_diameter": 0.125 * INCH, "density": 490 * PCF},
    ),
    row(
        "particle mass d=2 mm density 156 pcf",
        "particle_mass",
        {"particle_diameter": 0.002, "density": 156 * PCF},
    ),
    row(
        "mass of a 6 mm bead, density 0.28 lb/in3",
        "particle_mass",
        {"particle_diameter": 0.006, "density": 0.28 * POUND / INCH**3},
    ),
    row(
        "hertz contact time 0.25 in steel ball at 10 ft/s",
        "hertz_contact_time",
        {"particle_radius": 0.125 * INCH, "impact_velocity": 10 * FOOT, **STEEL},
    ),
    row(
        "contact time of a 1 in steel ball hitting a steel plate at 3 ft/s",
        "hertz_contact_time",
        {"particle_radius": 0.5 * INCH, "impact_velocity": 3 * FOOT, **STEEL, **STEEL_WALL},
    ),
    row(
        "contact stress F=10 lbf r=0.25 in steel yield 36 ksi SF 1.5",
        "contact_stress_check",
        {
            "normal_force": 10 * LBF,
            "particle_radius": 0.25 * INCH,
            "yield_stress": 36 * KSI,
            "safety_factor": 1.5,
            "youngs_modulus": 210e9,
        },
    ),
    row(
        "contact stress F=5 kgf d=10 mm steel yield 250 N/mm2 SF 2",
        "contact_stress_check",
        {"normal_force": 5 * G0, "particle_radius": 0.005, "yield_stress": 250e6},
    ),
    row(
        "contact stress F=100 N r=5 mm E=30e6 psi nu=0.3 yield 50 ksi SF 1.5",
        "contact_stress_check",
        {"youngs_modulus": 30e6 * PSI, "yield_stress": 50 * KSI, "poisson_ratio": 0.3},
    ),
    row(
        "contact stress F=2 lbf d=0.25 in glass yield 7000 psi SF 2",
        "contact_stress_check",
        {"normal_force": 2 * LBF, "particle_radius": 0.125 * INCH, "yield_stress": 7000 * PSI},
    ),
    row(
        "how many 0.25 in balls fit in a 4 in diameter cylinder 12 in tall",
        "estimate_particle_count",
        {
            "container_shape": "cylinder",
            "particle_diameter": 0.25 * INCH,
            "diameter": 4 * INCH,
            "height": 12 * INCH,
        },
    ),
    row(
        "how many 1 in balls fit in a 12 in diameter cylinder 24 in tall",
        "estimate_particle_count",
        {"particle_diameter": INCH, "diameter": 12 * INCH, "height": 24 * INCH},
    ),
    row(
        "how many 2 mm beads fit in a container volume 1 ft3",
        "estimate_particle_count",
        {"container_volume": FOOT**3, "particle_diameter": 0.002},
    ),
    row(
        "wall effect 2 in pipe 0.25 in spheres",
        "wall_effect_porosity",
        {"container_diameter": 2 * INCH, "particle_diameter": 0.25 * INCH},
    ),
    row(
        "is dt = 2 µs OK for 0.04 in glass beads",
        "check_timestep_heuristic",
        {"timestep": 2e-6, "particle_radius": 0.02 * INCH, **GLASS},
    ),
    row(
        "is dt=2 us ok for 1 mm glass beads",
        "check_timestep_heuristic",
        {"timestep": 2e-6, "particle_radius": 0.0005},
    ),
    row(
        "p-wave time step for r = 0.02 in steel",
        "pwave_timestep",
        {"particle_radius": 0.02 * INCH, "density": 7850.0, "youngs_modulus": 210e9},
    ),
    row(
        "neighbor cell size for r = 0.1 in",
        "neighbor_cell_size",
        {"max_particle_radius": 0.1 * INCH},
    ),
    row(
        "cell size for r=2 mm skin 0.02 in",
        "neighbor_cell_size",
        {"max_particle_radius": 0.002, "skin": 0.02 * INCH},
    ),
    row(
        "linear spring k=500 lbf/in m=1e-6 kg e=0.8",
        "linear_spring_contact",
        {"stiffness": 500 * LBF / INCH, "effective_mass": 1e-6, "restitution": 0.8},
    ),
    row(
        "bulk density 100 pcf solid density 165 pcf",
        "bulk_properties",
        {"bulk_density": 100 * PCF, "solid_density": 165 * PCF},
    ),
    row(
        "bulk properties porosity 0.38 solid density 2.65 g/cc volume 1 ft3",
        "bulk_properties",
        {"porosity": 0.38, "solid_density": 2650.0, "volume": FOOT**3},
    ),
    row(
        "how many steps for 2 min at 500 ns",
        "timesteps_for_duration",
        {"duration": 120.0, "timestep": 500e-9},
    ),
    # --- other spellings: microns, millimetres, cc, Gpa, N/mm², %, litre, rpm
    row(
        "mass of a 500 micron glass bead",
        "particle_mass",
        {"particle_diameter": 500e-6, "density": 2500.0},
    ),
    row("mass of a 500 microns glass bead", "particle_mass", {"particle_diameter": 500e-6}),
    row("mass of a 500 µm glass bead", "particle_mass", {"particle_diameter": 500e-6}),
    row("mass of a 0.5 millimetre steel ball", "particle_mass", {"particle_diameter": 0.0005}),
    row("mass of a 2 millimeter glass bead", "particle_mass", {"particle_diameter": 0.002}),
    row("mass of a 0.2 cm steel ball", "particle_mass", {"particle_diameter": 0.002}),
    row(
        "mass of a 3 mm bead with density 2.5 g/cc",
        "particle_mass",
        {"particle_diameter": 0.003, "density": 2500.0},
    ),
    row(
        "rayleigh time step r=1 mm rho=2500 kg/m3 E=70 Gpa nu=0.25",
        "rayleigh_timestep",
        {"particle_radius": 0.001, **GLASS},
    ),
    row(
        "rayleigh time step r=1 mm rho=2500 kg/m3 E=70 gpa nu=0.25",
        "rayleigh_timestep",
        {"particle_radius": 0.001, **GLASS},
    ),
    row(
        "rayleigh time step r=1 mm rho=2500 kg/m3 E=70000 N/mm² nu=0.25",
        "rayleigh_timestep",
        {"particle_radius": 0.001, **GLASS},
    ),
    row(
        "rayleigh time step r=1 mm rho=2.5×10^3 kg/m3 E=7·10¹⁰ Pa nu=0.25",
        "rayleigh_timestep",
        {"particle_radius": 0.001, **GLASS},
    ),
    row(
        "linear spring k=1e5 N/m m=1e-6 kg e=80%",
        "linear_spring_contact",
        {"stiffness": 1e5, "effective_mass": 1e-6, "restitution": 0.8},
    ),
    row("damping ratio for restitution 70 %", "restitution_to_damping", {"restitution": 0.7}),
    row(
        "bulk properties porosity 40% solid density 2650 kg/m3 volume 2 litre",
        "bulk_properties",
        {"porosity": 0.4, "solid_density": 2650.0, "volume": 2 * LITRE},
    ),
    row(
        "psd 1 mm 2 mm 3 mm mass fractions 20% 50% 30% total 10 kg glass",
        "polydisperse_counts",
        {"diameters": [0.001, 0.002, 0.003], "mass_fractions": [0.2, 0.5, 0.3], "total_mass": 10.0},
    ),
    # --- conversions: "into", "as", "in", US units
    row(
        "convert 500 g into kg", "convert_units", {"value": 500, "from_unit": "g", "to_unit": "kg"}
    ),
    row("convert 500 g as kg", "convert_units", {"value": 500, "from_unit": "g", "to_unit": "kg"}),
    row("convert 500 g in kg", "convert_units", {"value": 500, "from_unit": "g", "to_unit": "kg"}),
    row("what is 500 g as kg", "convert_units", {"value": 500, "from_unit": "g", "to_unit": "kg"}),
    row(
        "convert 30 psi to kPa",
        "convert_units",
        {"value": 30, "from_unit": "psi", "to_unit": "kPa"},
    ),
    row(
        "convert 36 ksi to MPa",
        "convert_units",
        {"value": 36, "from_unit": "ksi", "to_unit": "MPa"},
    ),
    row("convert 2 ft to mm", "convert_units", {"value": 2, "from_unit": "ft", "to_unit": "mm"}),
    row(
        "convert 0.25 in to mm",
        "convert_units",
        {"value": 0.25, "from_unit": "in", "to_unit": "mm"},
    ),
    row(
        "convert 150 pcf to kg/m3",
        "convert_units",
        {"value": 150, "from_unit": "pcf", "to_unit": "kg/m^3"},
    ),
    row(
        "convert 1200 rpm to rad/s",
        "convert_units",
        {"value": 1200, "from_unit": "rpm", "to_unit": "rad/s"},
    ),
    row(
        "convert 10 thou to mm",
        "convert_units",
        {"value": 10, "from_unit": "thou", "to_unit": "mm"},
    ),
    row(
        "convert 62.4 lb/ft3 to kg/m3",
        "convert_units",
        {"value": 62.4, "from_unit": "lb/ft^3", "to_unit": "kg/m^3"},
    ),
    # --- the mass or weight of a packed volume
    row(
        "how heavy is 2 m3 of sand at packing fraction 0.6",
        "bulk_properties",
        {"packing_fraction": 0.6, "volume": 2.0, "solid_density": SAND},
    ),
    row(
        "weight of 10 L of glass beads, phi 0.62",
        "bulk_properties",
        {"packing_fraction": 0.62, "volume": 10 * LITRE, "solid_density": 2500.0},
    ),
    row(
        "mass of 1.5 m³ of sand with porosity 0.4 and solid density 2650 kg/m3",
        "bulk_properties",
        {"porosity": 0.4, "volume": 1.5, "solid_density": 2650.0},
    ),
    row(
        "what does 3 m3 of fill weigh with bulk density 1600 kg/m3",
        "bulk_properties",
        {"bulk_density": 1600.0, "volume": 3.0},
    ),
    row(
        "bulk mass of 2 m3 with bulk density 1500 kg/m3",
        "bulk_properties",
        {"bulk_density": 1500.0, "volume": 2.0},
    ),
    row(
        "mass of 5 ft3 of sand at 40% porosity",
        "bulk_properties",
        {"porosity": 0.4, "volume": 5 * FOOT**3, "solid_density": SAND},
    ),
    row(
        "weight of 1 yd3 of gravel with bulk density 100 pcf",
        "bulk_properties",
        {"bulk_density": 100 * PCF, "volume": YARD**3},
    ),
    row(
        "how heavy are 20 litres of glass beads with packing fraction 0.6",
        "bulk_properties",
        {"packing_fraction": 0.6, "volume": 20 * LITRE, "solid_density": 2500.0},
    ),
    row("mass of 2 m3 of sand", None, missing=("packing_fraction",)),
    # --- how long a contact lasts
    row(
        "how long does a contact last for 1 mm glass beads at 2 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "impact_velocity": 2.0, **GLASS},
    ),
    row(
        "how long is a collision between 1 mm glass beads at 0.5 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "impact_velocity": 0.5},
    ),
    row(
        "duration of contact for 3 mm steel at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0015, "impact_velocity": 1.0, **STEEL},
    ),
    row(
        "how long does a 2 mm steel ball stay in contact with a steel plate at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.001, "impact_velocity": 1.0, **STEEL_WALL},
    ),
    row(
        "collision duration of a 5 mm glass bead dropped on a steel floor at 3 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0025, "impact_velocity": 3.0, **GLASS, **STEEL_WALL},
    ),
    row(
        "impact duration 1 mm glass at 2 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "impact_velocity": 2.0},
    ),
    row(
        "time of contact for 2 mm alumina at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.001, "impact_velocity": 1.0, **ALUMINA},
    ),
    row(
        "how long do 1 mm glass beads touch when they collide at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "impact_velocity": 1.0},
    ),
    row(
        "how long does the impact last when a 0.25 in steel ball hits a steel wall at 5 ft/s",
        "hertz_contact_time",
        {"particle_radius": 0.125 * INCH, "impact_velocity": 5 * FOOT, **STEEL_WALL},
    ),
    # --- a container's size and a particle's size in one sentence
    row(
        "wall effect for a 50 mm diameter pipe with 5 mm diameter spheres",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 0.005},
    ),
    row(
        "a 100 mm diameter column packed with 3 mm diameter glass beads: wall effect porosity",
        "wall_effect_porosity",
        {"container_diameter": 0.1, "particle_diameter": 0.003},
    ),
    row(
        "wall effect 5 mm diameter particles in a 50 mm diameter tube",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 0.005},
    ),
    row(
        "porosity near the wall of a 4 in diameter pipe filled with 0.25 in diameter balls",
        "wall_effect_porosity",
        {"container_diameter": 4 * INCH, "particle_diameter": 0.25 * INCH},
    ),
    row(
        "how many 3 mm diameter beads fit in a 150 mm diameter drum 300 mm tall",
        "estimate_particle_count",
        {"particle_diameter": 0.003, "diameter": 0.15, "height": 0.3},
    ),
    row(
        "how many particles of diameter 2 mm fit in a cylinder of diameter 100 mm, height 200 mm",
        "estimate_particle_count",
        {"particle_diameter": 0.002, "diameter": 0.1, "height": 0.2},
    ),
    # --- values that cannot be read: nothing is computed, the reply says why
    row(
        "rayleigh time step r=1.2.5 mm glass",
        None,
        missing=("particle_radius",),
        notes=('particle_radius: could not read "1.2.5 mm": two decimal points',),
    ),
    row(
        "rayleigh time step r=1,5 mm glass",
        None,
        missing=("particle_radius",),
        notes=("a comma inside the number",),
    ),
    row(
        "particle mass d=2 zorks steel",
        None,
        missing=("particle_diameter",),
        notes=('could not read "2 zorks": "zorks" is not a unit I know',),
    ),
    row(
        "mass of a 2 mmm steel ball",
        None,
        missing=("particle_diameter",),
        notes=('"mmm" is not a unit I know; did you mean mm?',),
    ),
    row(
        "rayleigh time step r=1e999 mm glass",
        None,
        missing=("particle_radius",),
        notes=("outside the range of numbers",),
    ),
    row(
        "hertz contact time 1 mm glass at 2 m/s and 3 blorps",
        None,
        notes=('could not read "3 blorps"', "Nothing was computed"),
    ),
]

assert math.isclose(PSI, 6894.757293168361, rel_tol=1e-12)  # the usual quoted figure
