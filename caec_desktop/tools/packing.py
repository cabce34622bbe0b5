"""Particle and packing geometry: particle mass, and how many particles fill a container.

Sources (docs/references.md §1.6, §1.7, §3):
- V_p = π d³/6, m_p = ρ_s V_p: MFiX `check_solids_dem.f` (REF_MASS = (PI/6)·D_P0³·RO_S0);
  LIGGGHTS writes 4/3 π r³ ρ.
- N = φ V_container / V_p for equal spheres (§1.7); φ ≤ π/(3√2) = 0.74048, the densest packing of
  equal spheres (Kepler conjecture, proved by Hales 2005). Presets: loose/poured 0.58,
  dense/vibrated 0.62-0.64, crystalline 0.7405 (§3); the sheet names the one used.
- Optional wall correction of φ for cylinders: `wall.py` (Benyahia & O'Neill 2005, §3.3).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import Field, model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
    Length,
    Mass,
    Q,
    R,
    Ratio,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Volume,
)
from caec_desktop.tools.units import fmt, sig
from caec_desktop.tools.wall import SMALL_RATIO, check_wall_ratio, wall_porosity

KEPLER = math.pi / (3.0 * math.sqrt(2.0))
"""π/(3√2) = 0.74048: densest packing of equal spheres (FCC/HCP)."""
DEFAULT_PACKING = 0.6

REF_VOLUME = (
    "V_p = π d³/6, m_p = ρ_s V_p: MFiX check_solids_dem.f REF_MASS = (PI/6)*D_P0**3*RO_S0; "
    "LIGGGHTS 4/3 π r³ ρ"
)
REF_COUNT = "N = φ V_container / V_p for equal spheres (docs/references.md §1.7)"
REF_KEPLER = "φ ≤ π/(3√2) = 0.74048 for equal spheres (FCC/HCP; Kepler conjecture, Hales 2005)"
REF_PRESETS = (
    "Packing presets (docs/references.md §3): loose/poured 0.58, dense/vibrated 0.62-0.64 "
    "(random close packing ≈0.64, Berryman 1983), crystalline 0.7405"
)


def particle_volume(sheet: CalcSheet, diameter: float) -> float:
    """V_p = π d³ / 6 recorded on the sheet."""
    return sheet.step(
        "V_p", "π d³ / 6", f"π · ({fmt(diameter, 'm')})³ / 6", math.pi * diameter**3 / 6.0, "m^3"
    )


def packing_preset(phi: float) -> str:
    """Which packing state of docs/references.md §3 a volume fraction corresponds to."""
    if phi < 0.55:
        return "looser than a poured random packing (below ≈0.55)"
    if phi < 0.6:
        return "loose/poured random packing (preset 0.58)"
    if phi < 0.62:
        return "between loose/poured (0.58) and dense (0.62-0.64): typical frictional DEM fill"
    if phi <= 0.645:
        return "dense/vibrated random packing (preset 0.62-0.64, random close packing ≈0.64)"
    if phi < 0.7:
        return "denser than random close packing (≈0.64): needs partial order"
    return "near-crystalline packing (FCC/HCP 0.7405)"


# --- particle_mass -----------------------------------------------------------------------------


class ParticleMassArgs(ToolArgs):
    particle_diameter: Length = fields.particle_diameter()
    density: Density = fields.density()


class ParticleMassResult(ToolResult):
    particle_volume: Volume = R("Volume of one sphere π d³/6")
    particle_mass: Mass = R("Mass of one sphere ρ V_p")


def particle_mass(args: ParticleMassArgs, sheet: CalcSheet) -> ParticleMassResult:
    """Volume and mass of one spherical particle."""
    v_p = particle_volume(sheet, args.particle_diameter)
    m_p = sheet.step(
        "m_p",
        "ρ_s V_p",
        f"{fmt(args.density, 'kg/m^3')} · {fmt(v_p, 'm^3')}",
        args.density * v_p,
        "kg",
    )
    sheet.references.append(REF_VOLUME)
    return ParticleMassResult(particle_volume=v_p, particle_mass=m_p)


# --- estimate_particle_count -------------------------------------------------------------------

SHAPE_FIELDS: dict[str, tuple[str, ...]] = {
    "box": ("length", "width", "height"),
    "cylinder": ("diameter", "height"),
    "volume": ("container_volume",),
}


class CountArgs(ToolArgs):
    container_shape: Literal["box", "cylinder", "volume"] = Field(
        description=(
            "box: give length, width, height; cylinder: diameter, height; volume: container_volume"
        ),
        examples=["cylinder"],
    )
    length: Length | None = Q("Box length (box only)", default=None, gt=0)
    width: Length | None = Q("Box width (box only)", default=None, gt=0)
    height: Length | None = Q("Box or cylinder height", default=None, gt=0)
    diameter: Length | None = Q("Cylinder inner diameter (cylinder only)", default=None, gt=0)
    container_volume: Volume | None = Q("Container volume (volume only)", default=None, gt=0)
    particle_diameter: Length = fields.particle_diameter("Particle diameter (equal spheres)")
    packing_fraction: Ratio | None = Q(
        f"Solid volume fraction φ (default {DEFAULT_PACKING:g}, or from D/d with wall_correction):"
        " loose 0.58, dense 0.62-0.64, crystalline 0.7405; at most π/(3√2) = 0.74048 for equal"
        " spheres",
        default=None,
        gt=0,
        le=KEPLER,
    )
    wall_correction: bool = Field(
        default=False,
        description=(
            "Cylinder only: compute φ from D/d with the Benyahia & O'Neill (2005) wall-effect "
            "correlation (do not give packing_fraction then)"
        ),
    )

    @model_validator(mode="after")
    def _shape_fields(self) -> CountArgs:
        needed = SHAPE_FIELDS[self.container_shape]
        for name in needed:
            if getattr(self, name) is None:
                raise ArgError(
                    name,
                    f"required for container_shape={self.container_shape!r} (in m"
                    f"{'^3' if name == 'container_volume' else ''}); this shape needs "
                    f"{', '.join(needed)}",
                )
        for shape, names in SHAPE_FIELDS.items():
            for name in names:
                if name not in needed and getattr(self, name) is not None:
                    raise ArgError(
                        name,
                        f"not used for container_shape={self.container_shape!r} "
                        f"(belongs to {shape!r}); give only {', '.join(needed)}",
                    )
        if self.wall_correction and self.container_shape != "cylinder":
            raise ArgError(
                "wall_correction",
                f"only for container_shape='cylinder', got {self.container_shape!r}",
            )
        # None (not 0.6) when not given, so validated args dumped and run again (the graph,
        # `caec replay`) keep meaning the same thing.
        if self.wall_correction and self.packing_fraction is not None:
            raise ArgError(
                "wall_correction",
                "wall_correction computes φ from D/d; remove "
                f"packing_fraction={sig(self.packing_fraction)} or wall_correction",
            )
        return self


class CountResult(ToolResult):
    particle_count: int = Field(description="Number of particles, floor(φ V / V_p)")
    particle_volume: Volume = R("Volume of one particle")
    container_volume: Volume = R("Container volume")
    packing_fraction: Ratio = R("Packing fraction used")


def _container_volume(args: CountArgs, sheet: CalcSheet) -> float:
    if args.container_shape == "box":
        assert args.length and args.width and args.height  # checked by the model validator
        return sheet.step(
            "V",
            "L · W · H",
            f"{fmt(args.length, 'm')} · {fmt(args.width, 'm')} · {fmt(args.height, 'm')}",
            args.length * args.width * args.height,
            "m^3",
        )
    if args.container_shape == "cylinder":
        assert args.diameter and args.height
        return sheet.step(
            "V",
            "π D² H / 4",
            f"π · ({fmt(args.diameter, 'm')})² · {fmt(args.height, 'm')} / 4",
            math.pi * args.diameter**2 * args.height / 4.0,
            "m^3",
        )
    assert args.container_volume
    sheet.notes.append(f"Container volume given directly: {fmt(args.container_volume, 'm^3')}")
    return args.container_volume


def _smallest_dimension(args: CountArgs) -> tuple[str, float] | None:
    """The container's narrowest dimension (None when only its volume is known)."""
    sides = {
        name: getattr(args, name)
        for name in SHAPE_FIELDS[args.container_shape]
        if name != "container_volume"
    }
    if not sides:
        return None
    name = min(sides, key=sides.__getitem__)
    return name, sides[name]


def estimate_particle_count(args: CountArgs, sheet: CalcSheet) -> CountResult:
    """How many equal spheres fill a container at a given (or wall-corrected) packing fraction."""
    d = args.particle_diameter
    narrow = _smallest_dimension(args)
    if narrow and d > narrow[1]:
        raise ArgError(
            "particle_diameter",
            f"{fmt(d, 'm')} is larger than the container {narrow[0]} {fmt(narrow[1], 'm')}",
        )
    volume = _container_volume(args, sheet)
    v_p = particle_volume(sheet, d)
    if v_p > volume:
        raise ArgError(
            "particle_diameter",
            f"one particle ({fmt(v_p, 'm^3')}) is larger than the container ({fmt(volume, 'm^3')})",
        )
    phi = DEFAULT_PACKING if args.packing_fraction is None else args.packing_fraction
    if args.wall_correction:
        assert args.diameter
        ratio = sheet.step(
            "D/d", "D / d", f"{fmt(args.diameter, 'm')} / {fmt(d, 'm')}", args.diameter / d
        )
        check_wall_ratio(ratio, "diameter")
        eps = wall_porosity(sheet, ratio, None)
        phi = sheet.step("φ", "1 − ε (wall-corrected)", f"1 − {sig(eps)}", 1.0 - eps)
        sheet.notes.append(
            f"Wall correction applied: φ = {sig(phi)} instead of the default {DEFAULT_PACKING:g}"
        )
    else:
        sheet.notes.append(f"Packing fraction φ = {sig(phi)}: {packing_preset(phi)}")
        if narrow and narrow[1] / d < SMALL_RATIO:
            sheet.notes.append(
                f"{narrow[0]}/d = {sig(narrow[1] / d)} < 10: walls lower the packing; the count is "
                "uncertain by 5-10 %"
                + (" (wall_correction=true applies Benyahia & O'Neill)" if args.diameter else "")
            )
    exact = sheet.step(
        "N",
        "φ V / V_p",
        f"{sig(phi)} · {fmt(volume, 'm^3')} / {fmt(v_p, 'm^3')}",
        phi * volume / v_p,
        count=True,  # every digit before the floor the note takes
    )
    # floor, but 299.99999999999994 from rounding error is 300 (guard of docs/references.md §1.8)
    nearest = round(exact)
    count = nearest if abs(exact - nearest) < 1e-9 * max(exact, 1.0) else math.floor(exact)
    sheet.notes.append(f"particle_count = floor(N) = {count}")
    sheet.thresholds.append(f"φ ≤ π/(3√2) = {KEPLER:.5f} for equal spheres")
    sheet.references += [REF_COUNT, REF_VOLUME, REF_PRESETS, REF_KEPLER]
    return CountResult(
        particle_count=count, particle_volume=v_p, container_volume=volume, packing_fraction=phi
    )


PARTICLE_MASS: ToolSpec[Any, Any] = ToolSpec(
    name="particle_mass",
    description="Volume π d³/6 and mass ρ·V of one spherical particle.",
    args_model=ParticleMassArgs,
    result_model=ParticleMassResult,
    func=particle_mass,
    group="Particles, packing and bulk",
    headline="particle_mass",
    example={"particle_diameter": "2 mm", "density": "2500 kg/m^3"},
)
ESTIMATE_PARTICLE_COUNT: ToolSpec[Any, Any] = ToolSpec(
    name="estimate_particle_count",
    description=(
        "Number of equal spheres N = φ·V/V_p that fill a box, a cylinder or a given volume; "
        "optional Benyahia & O'Neill wall correction of φ for cylinders."
    ),
    args_model=CountArgs,
    result_model=CountResult,
    func=estimate_particle_count,
    group="Particles, packing and bulk",
    headline="particle_count",
    example={
        "container_shape": "cylinder",
        "diameter": "100 mm",
        "height": "200 mm",
        "particle_diameter": "2 mm",
    },
)
