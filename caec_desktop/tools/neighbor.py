"""Neighbour-search cell (bin) size, in the convention of the solver the user sets up.

The codes do not agree, so the convention is a parameter (docs/references.md §1.9):
- `liggghts` (LIGGGHTS/LAMMPS, `doc/neighbor.txt`, `src/neighbor.cpp:1677-1680`): neighbour cutoff
  = force cutoff + skin, with force cutoff 2 r_max for granular pairs; `neighbor ... bin` uses bins
  of half the largest cutoff, so bin = ½(2 r_max + skin). Default skin for `units si` is 0.001 m.
- `mfix` (MFiX classic, `model/check_data/check_geometry.f:135-136`): default DES grid width
  3 × d_max = 6 r_max (capped at the fluid cell size); the skin plays no part. Its neighbour search
  radius is FACTOR_RLM·(r_i + r_j) with FACTOR_RLM = 1.2 (`des_init_namelist.f:1148`).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from caec_desktop.tools.base import CalcSheet, Length, Q, R, ToolArgs, ToolResult, ToolSpec
from caec_desktop.tools.units import fmt

DEFAULT_SKIN = 0.001
"""LIGGGHTS/LAMMPS default skin for `units si` (doc/neighbor.txt)."""
MFIX_GRID_FACTOR = 3.0
MFIX_FACTOR_RLM = 1.2

REF_LIGGGHTS = (
    "LIGGGHTS/LAMMPS doc/neighbor.txt, src/neighbor.cpp:1677-1680: cutoff = force cutoff + skin, "
    "bin = ½ largest cutoff; default skin 0.001 for units si"
)
REF_SKIN = (
    "LIGGGHTS fix check/timestep/gran warns when v_rel_max·dt/skin > 1 "
    "(fix_check_timestep_gran.cpp:188,211)"
)
REF_MFIX = (
    "MFiX check_geometry.f:135-136: default DES grid width 3 × max diameter, capped at the fluid "
    "cell size; des_init_namelist.f:1148: FACTOR_RLM = 1.2"
)


class NeighborArgs(ToolArgs):
    max_particle_radius: Length = Q("Radius of the largest particle r_max", gt=0, example="2 mm")
    skin: Length = Q(
        "Neighbour skin distance (liggghts only; LIGGGHTS default 0.001 m for units si)",
        default=DEFAULT_SKIN,
        ge=0,
    )
    convention: Literal["liggghts", "mfix"] = Field(
        default="liggghts",
        description="liggghts: bin = ½(2 r_max + skin); mfix: grid width = 3 × d_max",
    )


class NeighborResult(ToolResult):
    cell_size: Length = R("Neighbour-search bin / grid cell size")
    neighbor_cutoff: Length = R(
        "Pair search distance for two largest particles (liggghts: 2 r_max + skin; "
        "mfix: 1.2 · 2 r_max)"
    )


def neighbor_cell_size(args: NeighborArgs, sheet: CalcSheet) -> NeighborResult:
    """Bin/cell size for the neighbour search of the chosen solver."""
    r = args.max_particle_radius
    if args.convention == "liggghts":
        cutoff = sheet.step(
            "r_c",
            "2 r_max + skin",
            f"2 · {fmt(r, 'm')} + {fmt(args.skin, 'm')}",
            2.0 * r + args.skin,
            "m",
        )
        cell = sheet.step("bin", "½ r_c", f"½ · {fmt(cutoff, 'm')}", cutoff / 2.0, "m")
        sheet.thresholds.append(
            "skin must exceed the relative distance particles travel between list rebuilds"
        )
        sheet.references += [REF_LIGGGHTS, REF_SKIN]
    else:
        cell = sheet.step(
            "Δ_grid", "3 · d_max = 6 r_max", f"6 · {fmt(r, 'm')}", MFIX_GRID_FACTOR * 2.0 * r, "m"
        )
        cutoff = sheet.step(
            "r_search",
            "FACTOR_RLM · 2 r_max",
            f"1.2 · 2 · {fmt(r, 'm')}",
            MFIX_FACTOR_RLM * 2.0 * r,
            "m",
        )
        sheet.notes.append("MFiX caps the DES grid width at the fluid cell size")
        if "skin" in args.model_fields_set:
            sheet.notes.append("skin is not used by the mfix convention")
        sheet.references.append(REF_MFIX)
    return NeighborResult(cell_size=cell, neighbor_cutoff=cutoff)


NEIGHBOR_CELL_SIZE: ToolSpec[Any, Any] = ToolSpec(
    name="neighbor_cell_size",
    description=(
        "Neighbour-search bin/cell size: LIGGGHTS bin = ½(2 r_max + skin) (default skin "
        "0.001 m) or MFiX DES grid = 3 × d_max."
    ),
    args_model=NeighborArgs,
    result_model=NeighborResult,
    func=neighbor_cell_size,
    group="Run size and cost",
    headline="cell_size",
    example={"max_particle_radius": "2 mm"},
)
