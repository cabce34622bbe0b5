"""Every tool, in display order (grouped by `ToolSpec.group`, in `base.GROUPS` order): an explicit
list (no registration at import, no import cycle) of each tool's name and where its spec is.

A tool's module is imported when the tool is first looked up (`load`): the app's first answer
needs the one or two tools its question names, not the ~25 modules of pydantic models, which the
start-up worker imports after that answer (docs/architecture.md, "Start-up"). `load_all` imports
every one; the registry checks each spec's name against its entry."""

from __future__ import annotations

import importlib
from typing import Any

from caec_desktop.tools.base import ToolSpec

ENTRIES: tuple[tuple[str, str, str], ...] = (
    # (tool name, module in caec_desktop.tools, the spec's name in that module)
    # Time step
    ("rayleigh_timestep", "timestep", "RAYLEIGH_TIMESTEP"),
    ("polydisperse_rayleigh", "psd_timestep", "POLYDISPERSE_RAYLEIGH"),
    ("pwave_timestep", "timestep", "PWAVE_TIMESTEP"),
    ("check_timestep_heuristic", "check_timestep", "CHECK_TIMESTEP_HEURISTIC"),
    # Contact
    ("hertz_contact_time", "contact", "HERTZ_CONTACT_TIME"),
    ("hertz_max_overlap", "overlap", "HERTZ_MAX_OVERLAP"),
    ("contact_pair", "pair", "CONTACT_PAIR"),
    ("contact_stress_check", "contact_stress", "CONTACT_STRESS_CHECK"),
    ("restitution_to_damping", "damping", "RESTITUTION_TO_DAMPING"),
    ("linear_spring_contact", "damping", "LINEAR_SPRING_CONTACT"),
    ("rolling_resistance", "rolling", "ROLLING_RESISTANCE"),
    # Cohesion
    ("cohesion_numbers", "cohesion", "COHESION_NUMBERS"),
    # CFD-DEM
    ("cfd_dem_numbers", "cfd", "CFD_DEM_NUMBERS"),
    # Particles, packing and bulk
    ("particle_mass", "packing", "PARTICLE_MASS"),
    ("estimate_particle_count", "packing", "ESTIMATE_PARTICLE_COUNT"),
    ("bulk_properties", "bulk", "BULK_PROPERTIES"),
    ("polydisperse_counts", "distribution", "POLYDISPERSE_COUNTS"),
    ("wall_effect_porosity", "wall", "WALL_EFFECT_POROSITY"),
    # Flow and discharge
    ("flow_regime", "flow", "FLOW_REGIME"),
    ("beverloo_discharge", "flow", "BEVERLOO_DISCHARGE"),
    # Run size and cost
    ("timesteps_for_duration", "timestep", "TIMESTEPS_FOR_DURATION"),
    ("simulation_cost", "cost", "SIMULATION_COST"),
    ("coarse_graining", "coarse", "COARSE_GRAINING"),
    ("neighbor_cell_size", "neighbor", "NEIGHBOR_CELL_SIZE"),
    # Units
    ("convert_units", "conversion", "CONVERT_UNITS"),
)

NAMES: tuple[str, ...] = tuple(name for name, _, _ in ENTRIES)
_WHERE = {name: (module, attribute) for name, module, attribute in ENTRIES}


def load(name: str) -> ToolSpec[Any, Any]:
    """The spec of tool `name`, its module imported now if it was not yet.

    Raises:
        KeyError: no tool has that name.
        ValueError: the spec found there has another name (the list above is wrong)."""
    module, attribute = _WHERE[name]
    spec: ToolSpec[Any, Any] = getattr(
        importlib.import_module(f"caec_desktop.tools.{module}"), attribute
    )
    if spec.name != name:
        raise ValueError(f"catalog entry {name!r} points to the tool {spec.name!r}")
    return spec


def load_all() -> tuple[ToolSpec[Any, Any], ...]:
    """Every tool's spec, in display order (all their modules imported)."""
    return tuple(load(name) for name in NAMES)
