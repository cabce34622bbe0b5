"""Every tool, in display order (grouped by `ToolSpec.group`, in `base.GROUPS` order): an explicit
list (no registration at import, no import cycle)."""

from __future__ import annotations

from typing import Any

from caec_desktop.tools import (
    bulk,
    cfd,
    check_timestep,
    coarse,
    cohesion,
    contact,
    contact_stress,
    conversion,
    cost,
    damping,
    distribution,
    flow,
    neighbor,
    overlap,
    packing,
    pair,
    psd_timestep,
    rolling,
    timestep,
    wall,
)
from caec_desktop.tools.base import ToolSpec

TOOLS: tuple[ToolSpec[Any, Any], ...] = (
    # Time step
    timestep.RAYLEIGH_TIMESTEP,
    psd_timestep.POLYDISPERSE_RAYLEIGH,
    timestep.PWAVE_TIMESTEP,
    check_timestep.CHECK_TIMESTEP_HEURISTIC,
    # Contact
    contact.HERTZ_CONTACT_TIME,
    overlap.HERTZ_MAX_OVERLAP,
    pair.CONTACT_PAIR,
    contact_stress.CONTACT_STRESS_CHECK,
    damping.RESTITUTION_TO_DAMPING,
    damping.LINEAR_SPRING_CONTACT,
    rolling.ROLLING_RESISTANCE,
    # Cohesion
    cohesion.COHESION_NUMBERS,
    # CFD-DEM
    cfd.CFD_DEM_NUMBERS,
    # Particles, packing and bulk
    packing.PARTICLE_MASS,
    packing.ESTIMATE_PARTICLE_COUNT,
    bulk.BULK_PROPERTIES,
    distribution.POLYDISPERSE_COUNTS,
    wall.WALL_EFFECT_POROSITY,
    # Flow and discharge
    flow.FLOW_REGIME,
    flow.BEVERLOO_DISCHARGE,
    # Run size and cost
    timestep.TIMESTEPS_FOR_DURATION,
    cost.SIMULATION_COST,
    coarse.COARSE_GRAINING,
    neighbor.NEIGHBOR_CELL_SIZE,
    # Units
    conversion.CONVERT_UNITS,
)
