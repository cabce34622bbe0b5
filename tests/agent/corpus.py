"""Phrasings the offline dispatcher must understand, with the answer each one must produce.

Each row: the query, the tool it must call (None: no call), a subset of the validated arguments in
SI units (written out by hand from the query, e.g. "1 mm glass beads" → radius 0.0005 m), the
inputs that must be reported missing, and where some arguments must come from. Material values
are the handbook values of `caec_desktop.tools.materials` (glass 2500 kg/m³, 70 GPa, ν 0.25;
steel 7850 kg/m³, 210 GPa, ν 0.30; quartz sand 2650 kg/m³; alumina 3900 kg/m³, 370 GPa).

Shared with the graph tests: `caec ask` on a row with a tool must answer with that tool.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tests.agent.corpus_reader import READER_ROWS


@dataclass(frozen=True)
class Row:
    text: str
    tool: str | None
    args: dict[str, Any] = field(default_factory=dict)
    """Expected validated arguments (SI); strings (units, shapes) compare exactly."""
    missing: tuple[str, ...] = ()
    """Input names the reply must ask for (no call is made)."""
    sources: dict[str, str] = field(default_factory=dict)
    """Expected `arg_sources` entries."""
    intent: str | None = None
    notes: tuple[str, ...] = ()
    """Text the reply (notes under the result, or the 'missing' reply) must contain."""
    absent: tuple[str, ...] = ()
    """Text the reply must not contain (a value reported as dropped that was in fact used)."""


GLASS = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}
STEEL = {"density": 7850.0, "youngs_modulus": 210e9, "poisson_ratio": 0.30}
PRESET_GLASS = {k: "preset:glass" for k in GLASS}
STEEL_WALL = {
    "wall_youngs_modulus": "preset:steel (wall)",
    "wall_poisson_ratio": "preset:steel (wall)",
}
GLASS_NOTE = "**Preset glass** (Soda-lime glass): density 2500 kg/m³, E 70 GPa, ν 0.25 — source: "

CORPUS: list[Row] = [
    # --- convert_units
    Row(
        "convert 3 inch to mm",
        "convert_units",
        {"value": 3, "from_unit": "inch", "to_unit": "mm"},
        intent="conversion",
    ),
    Row(
        "70 GPa in psi",
        "convert_units",
        {"value": 70, "from_unit": "GPa", "to_unit": "psi"},
        intent="conversion",
    ),
    Row("convet 3 inch to mm", "convert_units", {"value": 3, "from_unit": "inch", "to_unit": "mm"}),
    Row(
        "how many mm in 2.5 inch?",
        "convert_units",
        {"value": 2.5, "from_unit": "inch", "to_unit": "mm"},
    ),
    Row(
        "what is 2.5 g/cm3 in kg/m3",
        "convert_units",
        {"value": 2.5, "from_unit": "g/cm^3", "to_unit": "kg/m^3"},
    ),
    Row(
        "convert 20 degC to degF",
        "convert_units",
        {"value": 20, "from_unit": "degC", "to_unit": "degF"},
    ),
    # --- particle_mass
    Row(
        "mass of a 2 mm steel ball",
        "particle_mass",
        {"particle_diameter": 0.002, "density": 7850.0},
        sources={"particle_diameter": "typed", "density": "preset:steel"},
    ),
    Row(
        "particle mass d=3 mm rho=2.5 g/cm^3",
        "particle_mass",
        {"particle_diameter": 0.003, "density": 2500.0},
    ),
    Row(
        "mass of a 2 mm glass bead with density 2600 kg/m3",
        "particle_mass",
        {"particle_diameter": 0.002, "density": 2600.0},
        sources={"density": "typed"},
    ),
    Row(
        "what does a r=1 mm sand grain weigh",
        "particle_mass",
        {"particle_diameter": 0.002, "density": 2650.0},
        sources={"particle_diameter": "typed (2r)", "density": "preset:quartz_sand"},
    ),
    Row(
        "how heavy is a 500 um alumina sphere",
        "particle_mass",
        {"particle_diameter": 0.0005, "density": 3900.0},
    ),
    Row("mass of a steel ball", None, missing=("particle_diameter",), intent="calculation"),
    # --- estimate_particle_count
    Row(
        "how many 2 mm particles fit in a cylinder 100 mm across and 200 mm tall",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.1, "height": 0.2, "particle_diameter": 0.002},
    ),
    Row(
        "how many 2 mm particles fit in a 0.5 x 0.3 x 0.2 m box",
        "estimate_particle_count",
        {
            "container_shape": "box",
            "length": 0.5,
            "width": 0.3,
            "height": 0.2,
            "particle_diameter": 0.002,
        },
    ),
    Row(
        "how many 1 mm beads fit in a container volume 2 L",
        "estimate_particle_count",
        {"container_shape": "volume", "container_volume": 0.002, "particle_diameter": 0.001},
    ),
    Row(
        "particle count for d=5 mm in a cylinder D=0.3 m H=0.5 m packing 0.62",
        "estimate_particle_count",
        {
            "container_shape": "cylinder",
            "diameter": 0.3,
            "height": 0.5,
            "particle_diameter": 0.005,
            "packing_fraction": 0.62,
        },
    ),
    Row(
        "how many 3 mm spheres fit in a drum 400 mm diameter 600 mm long with wall correction",
        "estimate_particle_count",
        {
            "container_shape": "cylinder",
            "diameter": 0.4,
            "height": 0.6,
            "particle_diameter": 0.003,
            "wall_correction": True,
        },
    ),
    Row("how many particles fit in a 0.5x0.3x0.2 m box", None, missing=("particle_diameter",)),
    Row("how many 2 mm particles fit", None, missing=("container_shape",)),
    Row(
        "how many 2 mm particles fit in a 1 m^3 box",
        "estimate_particle_count",
        {"container_shape": "volume", "container_volume": 1.0, "particle_diameter": 0.002},
    ),
    # --- rayleigh_timestep
    Row(
        "rayleigh time step for 1 mm glass beads",
        "rayleigh_timestep",
        {"particle_radius": 0.0005, **GLASS},
        sources={"particle_radius": "typed (d/2)", **PRESET_GLASS},
        notes=(GLASS_NOTE + "Soda-lime glass: ρ ≈ 2500", "typed values override it"),
    ),
    Row("raleigh timestpe r=1mm glass", "rayleigh_timestep", {"particle_radius": 0.001, **GLASS}),
    Row(
        "rayleigh dt r=0.5 mm rho=2500 kg/m3 E=70 GPa nu=0.25",
        "rayleigh_timestep",
        {"particle_radius": 0.0005, **GLASS},
        sources={"density": "typed", "youngs_modulus": "typed"},
    ),
    Row(
        "rayleigh time step for 1 mm glass beads with E=10 MPa",
        "rayleigh_timestep",
        {"particle_radius": 0.0005, "density": 2500.0, "youngs_modulus": 1e7},
        sources={"youngs_modulus": "typed", "density": "preset:glass"},
        notes=("**Preset glass** (Soda-lime glass): density 2500 kg/m³, ν 0.25 — source: ",),
    ),
    Row(
        "Rayleigh timestep R=2 mm ρ=7.8 g/cm³ G=80 GPa ν=0.3",
        "rayleigh_timestep",
        {"particle_radius": 0.002, "density": 7800.0, "shear_modulus": 80e9, "poisson_ratio": 0.3},
    ),
    Row(
        "critical time step for 2 mm steel, fraction 0.1",
        "rayleigh_timestep",
        {"particle_radius": 0.001, "fraction": 0.1, **STEEL},
    ),
    Row(
        "rayleigh time step for 1 mm beads",
        None,
        missing=("density", "youngs_modulus", "poisson_ratio"),
    ),
    # --- check_timestep_heuristic
    Row(
        "is dt = 2e-7 s OK for 1 mm glass beads",
        "check_timestep_heuristic",
        {"timestep": 2e-7, "particle_radius": 0.0005, **GLASS},
    ),
    Row(
        "check time step 5e-7 s for r=1 mm steel",
        "check_timestep_heuristic",
        {"timestep": 5e-7, "particle_radius": 0.001, **STEEL},
    ),
    Row(
        "is a timestep of 1 us stable for 0.5 mm sand at 3 m/s",
        "check_timestep_heuristic",
        {"timestep": 1e-6, "particle_radius": 0.00025, "impact_velocity": 3.0, "density": 2650.0},
    ),
    Row(
        "dt=1e-6 s ok? r=1 mm rho=2500 E=70e9 nu=0.25",
        "check_timestep_heuristic",
        {"timestep": 1e-6, "particle_radius": 0.001, **GLASS},
    ),
    Row(
        "is dt=2e-7 s ok for 1 mm glass, max fraction 0.1",
        "check_timestep_heuristic",
        {"timestep": 2e-7, "max_rayleigh_fraction": 0.1},
    ),
    Row("is dt 2e-7 s fine for glass", None, missing=("particle_radius",)),
    # --- pwave_timestep
    Row(
        "p-wave time step for r=0.5 mm steel",
        "pwave_timestep",
        {"particle_radius": 0.0005, "density": 7850.0, "youngs_modulus": 210e9},
    ),
    Row(
        "pwave dt d=2 mm glass",
        "pwave_timestep",
        {"particle_radius": 0.001, "density": 2500.0},
        sources={"particle_radius": "typed (d/2)"},
    ),
    Row(
        "yade P-wave timestep R=1 mm rho=2500 kg/m^3 E=70 GPa",
        "pwave_timestep",
        {"particle_radius": 0.001, "density": 2500.0, "youngs_modulus": 70e9},
    ),
    Row(
        "p wave time step 1 mm alumina",
        "pwave_timestep",
        {"particle_radius": 0.0005, "density": 3900.0, "youngs_modulus": 370e9},
    ),
    Row("p-wave time step r=1 mm", None, missing=("density", "youngs_modulus")),
    # --- hertz_contact_time
    Row(
        "hertz contact time 1 mm glass at 2 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "impact_velocity": 2.0, **GLASS},
    ),
    Row(
        "Hertzian collision time r=1 mm steel v=0.5 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.001, "impact_velocity": 0.5, **STEEL},
    ),
    Row(
        "hertz contact time 2 mm steel ball hitting a wall at 1 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.001, "impact_velocity": 1.0, "wall": True},
    ),
    Row(
        "hertz contact time for glass beads d=1 mm impact velocity 5 m/s E=10 MPa",
        "hertz_contact_time",
        {
            "particle_radius": 0.0005,
            "impact_velocity": 5.0,
            "youngs_modulus": 1e7,
            "density": 2500.0,
        },
        sources={"youngs_modulus": "typed", "poisson_ratio": "preset:glass"},
    ),
    Row(
        "hertz time r=1 mm r2=2 mm glass at 1 km/h",
        "hertz_contact_time",
        {"particle_radius": 0.001, "other_radius": 0.002, "impact_velocity": 1000 / 3600},
    ),
    Row("hertz contact time 1 mm glass", None, missing=("impact_velocity",)),
    # --- restitution_to_damping
    Row("damping ratio for restitution 0.7", "restitution_to_damping", {"restitution": 0.7}),
    Row("damping for e=0.9", "restitution_to_damping", {"restitution": 0.9}),
    Row("COR 0.5 damping ratio", "restitution_to_damping", {"restitution": 0.5}),
    Row(
        "dampng ratio for coefficient of restitution 0.3",
        "restitution_to_damping",
        {"restitution": 0.3},
    ),
    Row("damping ratio for restitution 90%", "restitution_to_damping", {"restitution": 0.9}),
    Row("damping ratio", None, missing=("restitution",)),
    # --- linear_spring_contact
    Row(
        "linear spring k=1e5 N/m m=1e-6 kg e=0.8",
        "linear_spring_contact",
        {"stiffness": 1e5, "effective_mass": 1e-6, "restitution": 0.8},
    ),
    Row(
        "linear spring contact m_eff=5 mg e=0.9 collision time 1e-5 s",
        "linear_spring_contact",
        {"effective_mass": 5e-6, "restitution": 0.9, "collision_time": 1e-5},
    ),
    Row(
        "hooke model stiffness 2e4 N/m mass 1 g restitution 0.5",
        "linear_spring_contact",
        {"stiffness": 2e4, "effective_mass": 1e-3, "restitution": 0.5},
    ),
    Row(
        "linear spring-dashpot kn=1000 N/m meff=2e-6 kg COR=0.7",
        "linear_spring_contact",
        {"stiffness": 1000.0, "effective_mass": 2e-6, "restitution": 0.7},
    ),
    Row("linear spring k=1e5 N/m e=0.8", None, missing=("effective_mass",)),
    # --- bulk_properties
    Row("porosity for packing fraction 0.62", "bulk_properties", {"packing_fraction": 0.62}),
    Row(
        "bulk density 1500 kg/m3 of sand",
        "bulk_properties",
        {"bulk_density": 1500.0, "solid_density": 2650.0},
        sources={"bulk_density": "typed", "solid_density": "preset:quartz_sand"},
    ),
    Row(
        "bulk density of glass beads at porosity 0.4",
        "bulk_properties",
        {"porosity": 0.4, "solid_density": 2500.0},
    ),
    Row(
        "void ratio for phi=0.6 and 2 m3 of steel",
        "bulk_properties",
        {"packing_fraction": 0.6, "volume": 2.0, "solid_density": 7850.0},
    ),
    Row(
        "bulk properties: bulk density 1.6 g/cm3, solid density 2.65 g/cm3",
        "bulk_properties",
        {"bulk_density": 1600.0, "solid_density": 2650.0},
    ),
    Row("porosity", None, missing=("packing_fraction",)),
    Row("bulk density 1500 kg/m3", None, missing=("solid_density",)),
    # --- timesteps_for_duration
    Row(
        "how many steps for 5 s at 2.2e-6 s",
        "timesteps_for_duration",
        {"duration": 5.0, "timestep": 2.2e-6},
    ),
    Row(
        "number of time steps for duration 1.1 s with dt=1 us",
        "timesteps_for_duration",
        {"duration": 1.1, "timestep": 1e-6},
    ),
    Row(
        "how many iterations for 2 min at 5e-6 s",
        "timesteps_for_duration",
        {"duration": 120.0, "timestep": 5e-6},
    ),
    Row(
        "number of steps dt=2e-6 s T=1 s",
        "timesteps_for_duration",
        {"duration": 1.0, "timestep": 2e-6},
    ),
    Row("how many steps for 3 s", None, missing=("timestep",)),
    # --- polydisperse_counts
    Row(
        "psd 1 mm 2 mm 3 mm mass fractions 0.2 0.5 0.3 total 10 kg glass",
        "polydisperse_counts",
        {
            "diameters": [0.001, 0.002, 0.003],
            "mass_fractions": [0.2, 0.5, 0.3],
            "total_mass": 10.0,
            "density": 2500.0,
        },
    ),
    Row(
        "polydisperse counts diameters 1, 2 and 3 mm number fractions 0.5 0.3 0.2",
        "polydisperse_counts",
        {"diameters": [0.001, 0.002, 0.003], "number_fractions": [0.5, 0.3, 0.2]},
    ),
    Row(
        "size distribution 0.5 mm 1 mm mass fractions 40% 60% total 2 kg density 2650 kg/m3",
        "polydisperse_counts",
        {
            "diameters": [0.0005, 0.001],
            "mass_fractions": [0.4, 0.6],
            "total_mass": 2.0,
            "density": 2650.0,
        },
    ),
    Row(
        "psd 1 mm 2 mm 0.3 0.7 by number",
        "polydisperse_counts",
        {"diameters": [0.001, 0.002], "number_fractions": [0.3, 0.7]},
    ),
    Row("psd 1 mm 2 mm", None, missing=("mass_fractions",)),
    # --- neighbor_cell_size
    Row("cell size for r=2 mm", "neighbor_cell_size", {"max_particle_radius": 0.002}),
    Row(
        "neighbor bin size for 4 mm particles skin 0.5 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 0.002, "skin": 0.0005},
    ),
    Row(
        "mfix cell size for max radius 1 mm",
        "neighbor_cell_size",
        {"max_particle_radius": 0.001, "convention": "mfix"},
    ),
    Row(
        "neighbour list skin for d=3 mm liggghts",
        "neighbor_cell_size",
        {"max_particle_radius": 0.0015, "convention": "liggghts"},
    ),
    Row("cell size", None, missing=("max_particle_radius",)),
    # --- wall_effect_porosity
    Row(
        "wall effect 50 mm pipe 5 mm spheres",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 0.005},
    ),
    Row(
        "wall effect porosity D=10 mm d=1 mm sphericity 0.8",
        "wall_effect_porosity",
        {"container_diameter": 0.01, "particle_diameter": 0.001, "sphericity": 0.8},
    ),
    Row(
        "wall effect in a 100 mm column of 2 mm glass beads",
        "wall_effect_porosity",
        {"container_diameter": 0.1, "particle_diameter": 0.002},
    ),
    Row(
        "wall efect 50 mm tube 1 mm spheres",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 0.001},
    ),
    Row("wall effect 50 mm pipe", None, missing=("particle_diameter",)),
    # --- contact_stress_check
    Row(
        "contact stress F=10 N r=1 mm steel yield 250 MPa SF 1.5",
        "contact_stress_check",
        {
            "normal_force": 10.0,
            "particle_radius": 0.001,
            "yield_stress": 250e6,
            "safety_factor": 1.5,
            "youngs_modulus": 210e9,
            "poisson_ratio": 0.3,
        },
    ),
    Row(
        "will a 2 mm glass bead yield under F=5 N? yield stress 100 MPa SF 2",
        "contact_stress_check",
        {
            "normal_force": 5.0,
            "particle_radius": 0.001,
            "yield_stress": 100e6,
            "safety_factor": 2.0,
            "youngs_modulus": 70e9,
        },
    ),
    Row(
        "contact stress check F=1 N r=0.5 mm E=200 GPa nu=0.3 sigma_y=250 MPa FoS=1.25",
        "contact_stress_check",
        {
            "normal_force": 1.0,
            "particle_radius": 0.0005,
            "youngs_modulus": 200e9,
            "yield_stress": 250e6,
            "safety_factor": 1.25,
        },
    ),
    Row(
        "contact stress of a 2 mm steel ball on a wall F=20 N yield 300 MPa SF 1.5",
        "contact_stress_check",
        {"normal_force": 20.0, "particle_radius": 0.001, "wall": True},
    ),
    Row("contact stress F=10 N r=1 mm steel yield 250 MPa", None, missing=("safety_factor",)),
    # --- name=value only (no keyword: the tool that takes every named input)
    Row(
        "particle_radius=1mm density=2500 youngs_modulus=70e9 poisson_ratio=0.25",
        "rayleigh_timestep",
        {"particle_radius": 0.001, **GLASS},
    ),
    Row(
        "r=1 mm rho=2500 E=70 GPa nu=0.25 dt=1e-7 s",
        "check_timestep_heuristic",
        {"timestep": 1e-7, "particle_radius": 0.001, **GLASS},
    ),
    Row(
        "k=1e5 N/m m=1e-6 kg e=0.8",
        "linear_spring_contact",
        {"stiffness": 1e5, "effective_mass": 1e-6, "restitution": 0.8},
    ),
    Row(
        "D=50 mm d=5 mm",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 0.005},
    ),
    Row(
        "estimate_particle_count container_shape=box length=1 m width=0.5 m height=0.3 m "
        "particle_diameter=5 mm",
        "estimate_particle_count",
        {"container_shape": "box", "length": 1.0, "width": 0.5, "height": 0.3},
    ),
    # --- unit spellings, unicode, overrides, word values
    Row(
        "rayleigh time step E=70GPa,nu=0.25,rho=2.5g/cc,r=1mm",
        "rayleigh_timestep",
        {"particle_radius": 0.001, **GLASS},
    ),
    Row(
        "hertz contact time r=1 mm glass at 3.6 km/h against a wall with wall E=200 GPa",
        "hertz_contact_time",
        {
            "impact_velocity": 1.0,
            "wall": True,
            "wall_youngs_modulus": 200e9,
            "youngs_modulus": 70e9,
        },
        sources={"wall_youngs_modulus": "typed", "youngs_modulus": "preset:glass"},
    ),
    Row(
        "contact stress F=0.01 kN d=2 mm glass σ_y=0.1 GPa SF 1.5 E=100 GPa",
        "contact_stress_check",
        {
            "normal_force": 10.0,
            "particle_radius": 0.001,
            "yield_stress": 1e8,
            "youngs_modulus": 1e11,
        },
        sources={"particle_radius": "typed (d/2)", "youngs_modulus": "typed"},
    ),
    Row("cell size r=2 mm convention=mfix", "neighbor_cell_size", {"convention": "mfix"}),
    Row(
        "pwave time step for r=1 mm glass G=30 GPa",
        "pwave_timestep",
        {"youngs_modulus": 70e9},
        sources={"youngs_modulus": "preset:glass"},
    ),
    # --- keys typed after the value, pairs, containers named in passing
    Row(
        "porosity of a packing with 1600 kg/m3 bulk density and 2650 kg/m3 particle density",
        "bulk_properties",
        {"bulk_density": 1600.0, "solid_density": 2650.0},
    ),
    Row(
        "bulk density of glass beads packed at 0.62",
        "bulk_properties",
        {"packing_fraction": 0.62, "solid_density": 2500.0},
    ),
    Row(
        "particle count in a 2 m x 1 m x 0.5 m bin filled with 10 mm gravel",
        "estimate_particle_count",
        {"container_shape": "box", "length": 2.0, "width": 1.0, "height": 0.5},
    ),
    Row(
        "porosity near the wall for 5 mm particles in a 25 mm tube",
        "wall_effect_porosity",
        {"container_diameter": 0.025, "particle_diameter": 0.005},
    ),
    Row(
        "psd: 0.5 mm 40%, 1 mm 35%, 2 mm 25% by mass, 5 kg of glass",
        "polydisperse_counts",
        {"diameters": [0.0005, 0.001, 0.002], "mass_fractions": [0.4, 0.35, 0.25]},
    ),
    Row(
        "contact stress r=1 mm glass 10 N load 100 MPa yield SF 2",
        "contact_stress_check",
        {"normal_force": 10.0, "yield_stress": 1e8, "safety_factor": 2.0},
    ),
    Row(
        "I'm simulating 3 mm PP pellets, what dt should I use?",
        "rayleigh_timestep",
        {"particle_radius": 0.0015, "density": 905.0},
        sources={"density": "preset:polypropylene"},
    ),
    # --- review fixes: container radius, second material, wrong units, preset sources
    Row(
        "how many 2 mm beads in a cylinder of radius 50 mm and height 200 mm",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.1, "height": 0.2, "particle_diameter": 0.002},
        sources={"diameter": "typed (2r)", "particle_diameter": "typed"},
    ),
    Row(
        "how many 1 mm beads fit in a drum radius 0.2 m, 0.5 m long",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.4, "height": 0.5, "particle_diameter": 0.001},
        sources={"diameter": "typed (2r)"},
    ),
    Row(
        "how many 2 mm beads in a 50 mm radius cylinder 200 mm tall",
        "estimate_particle_count",
        {"container_shape": "cylinder", "diameter": 0.1, "height": 0.2, "particle_diameter": 0.002},
        sources={"diameter": "typed (2r)"},
    ),
    Row(
        "hertz contact time 1 mm glass at 1 m/s, r=2 mm/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "impact_velocity": 1.0},
        notes=("r: expected a length (in m), got 2 mm/s which is a velocity",),
    ),
    Row(
        "wall effect in a pipe with radius 25 mm for 5 mm spheres",
        "wall_effect_porosity",
        {"container_diameter": 0.05, "particle_diameter": 0.005},
        sources={"container_diameter": "typed (2r)"},
    ),
    Row(
        "hertz contact time r=1mm glass v=2 m/s against a steel wall",
        "hertz_contact_time",
        {
            "particle_radius": 0.001,
            "impact_velocity": 2.0,
            "wall": True,
            "wall_youngs_modulus": 210e9,
            "wall_poisson_ratio": 0.3,
            **GLASS,
        },
        sources={**STEEL_WALL, **PRESET_GLASS},
        notes=("**Preset steel (wall)** (Steel (carbon / low-alloy)): wall E 210 GPa, wall ν 0.3",),
    ),
    Row(
        "hertz contact time for a steel plate hit by 1 mm glass beads at 2 m/s",
        "hertz_contact_time",
        {"particle_radius": 0.0005, "wall": True, "wall_youngs_modulus": 210e9, **GLASS},
        sources={**STEEL_WALL, **PRESET_GLASS},
    ),
    Row(
        "hertz contact time 1 mm glass against a steel wall with wall E=200 GPa at 1 m/s",
        "hertz_contact_time",
        {"wall_youngs_modulus": 200e9, "wall_poisson_ratio": 0.3, **GLASS},
        sources={"wall_youngs_modulus": "typed", "wall_poisson_ratio": "preset:steel (wall)"},
    ),
    Row(
        "contact stress F=10 N r=1 mm glass on a steel plate yield 100 MPa SF 2",
        "contact_stress_check",
        {"wall": True, "wall_youngs_modulus": 210e9, "youngs_modulus": 70e9},
        sources=STEEL_WALL,
    ),
    Row(
        "rayleigh for 1mm glass and 2mm steel",
        "rayleigh_timestep",
        {"particle_radius": 0.0005, **GLASS},
        notes=("**Not used:** steel, 2mm — one material per calculation",),
        absent=("not an input of",),
    ),
    Row(
        "rayleigh timestep for r=1 kg glass",
        None,
        missing=("particle_radius",),
        notes=("r: expected a length (in m), got 1 kg which is a mass",),
        absent=("Not used",),
    ),
    Row(
        "convert 100 F to C",
        "convert_units",
        {"value": 100, "from_unit": "degF", "to_unit": "degC"},
        notes=("F → degF", "C → degC"),
    ),
    Row("convert 300 K to F", "convert_units", {"from_unit": "K", "to_unit": "degF"}),
    Row("convert 2 F to uF", "convert_units", {"from_unit": "F", "to_unit": "uF"}),
    Row(
        "rayleigh dt r=0.5 mm rho=2500 kg/m3 E=70 GPa nu=0.25 glass",
        "rayleigh_timestep",
        {"particle_radius": 0.0005, **GLASS},
        absent=("Preset",),
    ),
    Row("convert 3 inch", None, missing=("to_unit",), intent="conversion"),
    # --- not a calculation
    Row("hi", None, intent="help"),
    Row("what can you do", None, intent="help"),
    Row("help", None, intent="help"),
    Row("list tools", None, intent="help"),
    Row("tell me a joke", None, intent="other"),
    Row("1 mm glass beads", None, intent="calculation"),
]

from tests.agent.corpus_new_tools import NEW_TOOL_ROWS  # noqa: E402  (rows of the ten new tools)

CORPUS += NEW_TOOL_ROWS
CORPUS += [Row(**fields) for fields in READER_ROWS]  # issue 10: units, bulk mass, durations, …
