"""Every tool, in display order: an explicit list (no registration at import, no import cycle)."""

from __future__ import annotations

from typing import Any

from caec_desktop.tools import (
    bulk,
    check_timestep,
    contact,
    contact_stress,
    conversion,
    damping,
    distribution,
    neighbor,
    packing,
    timestep,
    wall,
)
from caec_desktop.tools.base import ToolSpec

TOOLS: tuple[ToolSpec[Any, Any], ...] = (
    bulk.BULK_PROPERTIES,
    timestep.RAYLEIGH_TIMESTEP,
    timestep.PWAVE_TIMESTEP,
    timestep.TIMESTEPS_FOR_DURATION,
    contact.HERTZ_CONTACT_TIME,
    check_timestep.CHECK_TIMESTEP_HEURISTIC,
    contact_stress.CONTACT_STRESS_CHECK,
    conversion.CONVERT_UNITS,
    damping.RESTITUTION_TO_DAMPING,
    damping.LINEAR_SPRING_CONTACT,
    distribution.POLYDISPERSE_COUNTS,
    neighbor.NEIGHBOR_CELL_SIZE,
    wall.WALL_EFFECT_POROSITY,
    packing.PARTICLE_MASS,
    packing.ESTIMATE_PARTICLE_COUNT,
)
