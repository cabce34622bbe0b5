"""Corpus rows for the tools of docs/references.md (part 2): every chat phrasing its §13 lists, with
the SI values written out by hand (an unkeyed size is a diameter; glass 2500 kg/m³, 70 GPa, 0.25;
steel 7850, 210 GPa, 0.30; sand 2650, 95 GPa, 0.08; PP 905, 1.5 GPa, 0.42; water at 20 °C
998.2 kg/m³, 1.002e-3 Pa·s, 0.0728 N/m; air 1.205 kg/m³, 1.81e-5 Pa·s)."""

from __future__ import annotations

from tests.agent.corpus import Row

GLASS = {"density": 2500.0, "youngs_modulus": 7e10, "poisson_ratio": 0.25}
STEEL = {"density": 7850.0, "youngs_modulus": 2.1e11, "poisson_ratio": 0.30}
SAND = {"density": 2650.0, "youngs_modulus": 9.5e10, "poisson_ratio": 0.08}
PP = {"density": 905.0, "youngs_modulus": 1.5e9, "poisson_ratio": 0.42}
GLASS_OTHER = {"other_density": 2500.0, "other_youngs_modulus": 7e10, "other_poisson_ratio": 0.25}
WATER = {"fluid_density": 998.2, "fluid_viscosity": 1.002e-3}
AIR = {"fluid_density": 1.205, "fluid_viscosity": 1.81e-5}
STEEL_WALL = {"wall": True, "wall_youngs_modulus": 2.1e11, "wall_poisson_ratio": 0.30}

NEW_TOOL_ROWS: list[Row] = [
    # --- hertz_max_overlap
    Row(
        "max overlap for 2 mm glass beads colliding at 1 m/s",
        "hertz_max_overlap",
        {"particle_radius": 1e-3, **GLASS, "impact_velocity": 1.0},
    ),
    Row(
        "hertz overlap r=1 mm E=10 MPa nu=0.25 rho=2500 v=2 m/s against a steel wall",
        "hertz_max_overlap",
        {
            "particle_radius": 1e-3,
            "youngs_modulus": 1e7,
            "poisson_ratio": 0.25,
            "density": 2500.0,
            "impact_velocity": 2.0,
            **STEEL_WALL,
        },
    ),
    Row(
        "how much do 4 mm steel balls overlap at 5 m/s",
        "hertz_max_overlap",
        {"particle_radius": 2e-3, **STEEL, "impact_velocity": 5.0},
    ),
    Row(
        "is the overlap ok for glass R=1 mm with E=1 GPa at 0.5 m/s, dt=5e-6 s",
        "hertz_max_overlap",
        {
            "particle_radius": 1e-3,
            "density": 2500.0,
            "youngs_modulus": 1e9,
            "poisson_ratio": 0.25,
            "impact_velocity": 0.5,
            "timestep": 5e-6,
        },
        sources={"youngs_modulus": "typed", "density": "preset:glass"},
    ),
    Row(
        "peak overlap steel r=2 mm hitting glass r=1 mm at 1 m/s",
        "hertz_max_overlap",
        {
            "particle_radius": 2e-3,
            **STEEL,
            "other_radius": 1e-3,
            **GLASS_OTHER,
            "impact_velocity": 1.0,
        },
        sources={"other_density": "preset:glass (other)"},
    ),
    # --- contact_pair
    Row(
        "effective properties for a 4 mm steel ball on a 2 mm glass bead",
        "contact_pair",
        {"particle_radius": 2e-3, **STEEL, "other_radius": 1e-3, **GLASS_OTHER},
    ),
    Row(
        "hertz and mindlin stiffness for 2 mm glass beads at overlap 0.5 um",
        "contact_pair",
        {"particle_radius": 1e-3, **GLASS, "overlap": 5e-7},
    ),
    Row("kt/kn ratio for 2 mm glass beads", "contact_pair", {"particle_radius": 1e-3, **GLASS}),
    Row(
        "equivalent linear spring for 6 mm PP pellets on a wall at 2 m/s",
        "contact_pair",
        {"particle_radius": 3e-3, **PP, "wall": True, "impact_velocity": 2.0},
    ),
    Row(
        "G* and E* for steel R=2 mm vs glass R=1 mm, overlap 1 µm, v=1 m/s",
        "contact_pair",
        {
            "particle_radius": 2e-3,
            **STEEL,
            "other_radius": 1e-3,
            **GLASS_OTHER,
            "overlap": 1e-6,
            "impact_velocity": 1.0,
        },
    ),
    # --- cohesion_numbers
    Row(
        "JKR pull-off force for 20 um glass particles, surface energy 0.05 J/m2",
        "cohesion_numbers",
        {"particle_radius": 1e-5, "density": 2500.0, "surface_energy": 0.05},
    ),
    Row(
        "bond number r=10 um rho=2500 gamma=0.05 J/m^2",
        "cohesion_numbers",
        {"particle_radius": 1e-5, "density": 2500.0, "surface_energy": 0.05},
    ),
    Row(
        "what surface energy gives a Bond number of 10 for 1 mm glass beads",
        "cohesion_numbers",
        {"particle_radius": 5e-4, "density": 2500.0, "target_bond_number": 10.0},
    ),
    Row(
        "liquid bridge force of water between 1 mm glass beads, contact angle 20 deg",
        "cohesion_numbers",
        {
            "particle_radius": 5e-4,
            "density": 2500.0,
            "liquid_surface_tension": 0.0728,
            "contact_angle": 20.0,
        },
        sources={"liquid_surface_tension": "preset:water"},
        notes=("**Preset water** (Water at 20 °C): surface tension 0.0728 N/m",),
    ),
    Row(
        "DMT adhesion of a 100 um particle on a wall, gamma 0.02, rho 1500",
        "cohesion_numbers",
        {"particle_radius": 5e-5, "wall": True, "surface_energy": 0.02, "density": 1500.0},
    ),
    # --- cfd_dem_numbers
    Row(
        "terminal velocity of a 1 mm glass bead in water",
        "cfd_dem_numbers",
        {"particle_diameter": 1e-3, "particle_density": 2500.0, **WATER},
        sources={"fluid_density": "preset:water", "particle_density": "preset:glass"},
    ),
    Row(
        "particle Reynolds number, 200 um sand in air, slip 0.5 m/s, voidage 0.6, dallavalle",
        "cfd_dem_numbers",
        {
            "particle_diameter": 2e-4,
            "particle_density": 2650.0,
            **AIR,
            "slip_velocity": 0.5,
            "voidage": 0.6,
            "drag_correlation": "dallavalle",
        },
    ),
    Row(
        "Stokes number of 3 mm PP pellets in air for L=0.1 m and U=10 m/s",
        "cfd_dem_numbers",
        {
            "particle_diameter": 3e-3,
            "particle_density": 905.0,
            **AIR,
            "characteristic_length": 0.1,
            "flow_velocity": 10.0,
        },
    ),
    Row(
        "is a 4 mm CFD cell ok for 1 mm glass beads in water",
        "cfd_dem_numbers",
        {"particle_diameter": 1e-3, "particle_density": 2500.0, **WATER, "cfd_cell_size": 4e-3},
    ),
    Row(
        "Archimedes number and Di Felice exponent for 0.5 mm sand in water",
        "cfd_dem_numbers",
        {"particle_diameter": 5e-4, "particle_density": 2650.0, **WATER},
    ),
    # --- coarse_graining
    Row(
        "coarse grain 0.5 mm particles by a factor of 4, 1e8 particles",
        "coarse_graining",
        {"particle_diameter": 5e-4, "scale_factor": 4.0, "n_particles": 1e8},
    ),
    Row(
        "parcel size for 100 um powder, scale factor 10, 10 kg, rho 2500",
        "coarse_graining",
        {"particle_diameter": 1e-4, "scale_factor": 10.0, "total_mass": 10.0, "density": 2500.0},
    ),
    Row(
        "how should k=1000 N/m and damping 0.05 scale for coarse graining s=4",
        "coarse_graining",
        {"scale_factor": 4.0, "stiffness": 1000.0, "damping_coefficient": 0.05},
    ),
    Row(
        "coarse graining s=3 with surface energy 0.05 J/m2, keep the bond number",
        "coarse_graining",
        {"scale_factor": 3.0, "surface_energy": 0.05, "cohesion_scaling": "bond"},
    ),
    Row(
        "time step after coarse graining by 5 from dt=1e-6 s",
        "coarse_graining",
        {"scale_factor": 5.0, "timestep": 1e-6},
    ),
    # --- simulation_cost
    Row(
        "how long will 10 s at dt=2e-6 take with 500k particles, 1e6 particle-steps per "
        "core-second, 16 cores",
        "simulation_cost",
        {
            "duration": 10.0,
            "timestep": 2e-6,
            "n_particles": 5e5,
            "throughput": 1e6,
            "n_cores": 16,
        },
    ),
    Row(
        "number of time steps for 1.1 s at dt 1 us",
        "simulation_cost",
        {"duration": 1.1, "timestep": 1e-6},
    ),
    Row(
        "insertion rate for 2 kg/s of 2 mm sand",
        "simulation_cost",
        {"mass_flow_rate": 2.0, "particle_diameter": 2e-3, "density": 2650.0},
    ),
    Row(
        "particles per second for 5 t/h of 3 mm glass beads",
        "simulation_cost",
        {"mass_flow_rate": 5000 / 3600, "particle_diameter": 3e-3, "density": 2500.0},
    ),
    Row(
        "core hours for 2 million particles, 5 s, dt 5e-7, throughput 3e5, 64 cores",
        "simulation_cost",
        {
            "n_particles": 2e6,
            "duration": 5.0,
            "timestep": 5e-7,
            "throughput": 3e5,
            "n_cores": 64,
        },
    ),
    # --- polydisperse_rayleigh
    Row(
        "rayleigh time step for glass beads, mean 2 mm, sd 0.2 mm",
        "polydisperse_rayleigh",
        {"mean_diameter": 2e-3, "std_dev": 2e-4, **GLASS},
    ),
    Row(
        "time step for a size distribution of 1, 2 and 4 mm, E=100 MPa, nu=0.25, rho=2650",
        "polydisperse_rayleigh",
        {
            "diameters": [1e-3, 2e-3, 4e-3],
            "youngs_modulus": 1e8,
            "poisson_ratio": 0.25,
            "density": 2650.0,
        },
    ),
    Row(
        "polydisperse rayleigh step, glass, mean 1 mm, sd 0.4 mm, min 0.5 mm",
        "polydisperse_rayleigh",
        {"mean_diameter": 1e-3, "std_dev": 4e-4, "min_diameter": 5e-4, **GLASS},
    ),
    Row(
        "rayleigh step for a steel PSD whose smallest particle is 0.3 mm",
        "polydisperse_rayleigh",
        {"min_diameter": 3e-4, **STEEL},
    ),
    Row(
        "time step from the PSD 0.5, 1, 1.5 mm quartz sand at 20 % of Rayleigh",
        "polydisperse_rayleigh",
        {"diameters": [5e-4, 1e-3, 1.5e-3], **SAND, "rayleigh_fraction": 0.2},
    ),
    # --- flow_regime
    Row(
        "inertial number, shear rate 10 1/s, d=1 mm, P=1 kPa, rho=2500",
        "flow_regime",
        {"shear_rate": 10.0, "particle_diameter": 1e-3, "pressure": 1000.0, "density": 2500.0},
    ),
    Row(
        "is my shear cell quasi-static? shear 0.01 /s, 2 mm sand, 50 kPa",
        "flow_regime",
        {"shear_rate": 0.01, "particle_diameter": 2e-3, "pressure": 5e4, "density": 2650.0},
    ),
    Row(
        "froude number of a drum of radius 0.25 m at 10 rpm",
        "flow_regime",
        {"drum_radius": 0.25, "rotation_speed": 10.0},
    ),
    Row(
        "what flow regime is a 1 m diameter drum at 40 rpm",
        "flow_regime",
        {"drum_radius": 0.5, "rotation_speed": 40.0},
    ),
    Row(
        "critical speed of a 3 m diameter kiln at 1 rpm, filling 15 %",
        "flow_regime",
        {"drum_radius": 1.5, "rotation_speed": 1.0, "filling_degree": 0.15},
    ),
    # --- beverloo_discharge
    Row(
        "beverloo discharge rate, 50 mm orifice, 2 mm particles, bulk density 1500",
        "beverloo_discharge",
        {"orifice_diameter": 0.05, "particle_diameter": 2e-3, "bulk_density": 1500.0},
    ),
    Row(
        "silo outflow D0=10 mm d=2 mm rho_b=1600 kg/m3",
        "beverloo_discharge",
        {"orifice_diameter": 0.01, "particle_diameter": 2e-3, "bulk_density": 1600.0},
    ),
    Row(
        "mass flow through a 100 mm outlet for 5 mm angular gravel, k=2.9, C=0.64, bulk 1400",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.1,
            "particle_diameter": 5e-3,
            "shape_coefficient": 2.9,
            "discharge_coefficient": 0.64,
            "bulk_density": 1400.0,
        },
    ),
    Row(
        "how fast does 200 kg of 1 mm glass beads empty through a 30 mm hole, bulk density 1550",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.03,
            "particle_diameter": 1e-3,
            "bulk_density": 1550.0,
            "fill_mass": 200.0,
        },
    ),
    Row(
        "hopper discharge, orifice 80 mm, sand 0.5 mm, bulk density 1600, silo diameter 0.5 m",
        "beverloo_discharge",
        {
            "orifice_diameter": 0.08,
            "particle_diameter": 5e-4,
            "bulk_density": 1600.0,
            "silo_diameter": 0.5,
        },
    ),
    # --- rolling_resistance
    Row(
        "rolling stiffness for kn=1e5 N/m, rolling friction 0.1, 2 mm glass beads",
        "rolling_resistance",
        {
            "normal_stiffness": 1e5,
            "rolling_friction": 0.1,
            "particle_radius": 1e-3,
            "density": 2500.0,
        },
    ),
    Row(
        "EPSD rolling resistance mu_r=0.3, glass R=2 mm on a steel wall, overlap 2 um",
        "rolling_resistance",
        {
            "rolling_friction": 0.3,
            "particle_radius": 2e-3,
            **GLASS,
            **STEEL_WALL,
            "overlap": 2e-6,
        },
    ),
    Row(
        "does rolling friction 0.2 limit my time step? kn=5e4, r=0.5 mm, rho=2650, dt=1e-5",
        "rolling_resistance",
        {
            "rolling_friction": 0.2,
            "normal_stiffness": 5e4,
            "particle_radius": 5e-4,
            "density": 2650.0,
            "timestep": 1e-5,
        },
    ),
    Row(
        "rolling damping for mu_r=0.1, eta_r=0.3, kn=1e5 N/m, 2 mm steel balls",
        "rolling_resistance",
        {
            "rolling_friction": 0.1,
            "rolling_damping": 0.3,
            "normal_stiffness": 1e5,
            "particle_radius": 1e-3,
            "density": 7850.0,
        },
    ),
    Row(
        "max rolling torque, mu_r 0.05, R 3 mm, Fn 2 N, kn 2e5",
        "rolling_resistance",
        {
            "rolling_friction": 0.05,
            "particle_radius": 3e-3,
            "normal_force": 2.0,
            "normal_stiffness": 2e5,
        },
    ),
    # --- missing inputs are asked for
    Row("terminal velocity of a 1 mm glass bead", None, missing=("fluid_density",)),
    Row("beverloo discharge for 2 mm particles", None, missing=("orifice_diameter",)),
    Row("coarse graining of 1 mm particles", None, missing=("scale_factor",)),
    Row("rolling friction 0.1 for 2 mm particles", None, missing=("normal_stiffness",)),
]
