"""Imports every tool module so that each registers its tools (order = display order)."""

from __future__ import annotations

from caec_desktop.tools import (  # noqa: F401
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
