"""Wall effect on the packing of particles in a cylinder (Benyahia & O'Neill 2005).

Sources (docs/references.md §3.3): Benyahia & O'Neill 2005 (Part. Sci. Technol. 23:169), as
implemented in `fluids.packed_bed.voidage_Benyahia_Oneil_spherical` / `voidage_Benyahia_Oneil`:
- spheres ε = 0.390 + 1.740/(D/d + 1.140)² (average error 1.5 %);
- any shape ε = 0.1504 + 0.2024/ψ + 1.0814/(D/d + 0.1226)², ψ the sphericity (0.42 < ψ < 1, 5.2 %);
both fitted for 1.5 < D/d < 50. Guo et al. 2019 warn that correlations disagree below D/d ≈ 7.

Validity policy: D/d ≤ 1.5 is an error (no packed bed to speak of, and the fit has no data there);
D/d > 50 is accepted with a caution note (the wall effect has died out and the correlation is at its
asymptote ε → 0.390, so extrapolating is harmless); D/d < 10 adds a 5-10 % uncertainty note.
"""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Length,
    Q,
    R,
    Ratio,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.units import fmt, sig

WALL_RATIO_MIN = 1.5
WALL_RATIO_MAX = 50.0
SMALL_RATIO = 10.0
"""Below D/d = 10 the count is uncertain by about 5-10 % (docs/references.md §3.3)."""

REF_BENYAHIA = (
    "Benyahia & O'Neill 2005, Part. Sci. Technol. 23:169: spheres "
    "ε = 0.390 + 1.740/(D/d + 1.140)², 1.5 < D/d < 50, average error 1.5 % "
    "(fluids packed_bed.voidage_Benyahia_Oneil_spherical)"
)
REF_BENYAHIA_SHAPE = (
    "Benyahia & O'Neill 2005: ε = 0.1504 + 0.2024/ψ + 1.0814/(D/d_pe + 0.1226)², 1.5 < D/d < 50, "
    "0.42 < ψ < 1, average error 5.2 % (fluids packed_bed.voidage_Benyahia_Oneil)"
)
REF_GUO = (
    "Guo et al. 2019, Powder Technol. 354:842: mean-porosity correlations disagree; for D/d < ~7 "
    "porosity fluctuates with D/d (treat as ±5 %)"
)


def wall_porosity(sheet: CalcSheet, ratio: float, sphericity: float | None) -> float:
    """Mean bed porosity in a cylinder of D/d = `ratio` (Benyahia & O'Neill 2005), on the sheet."""
    if sphericity is None:
        eps = 0.390 + 1.740 / (ratio + 1.140) ** 2
        sheet.step(
            "ε", "0.390 + 1.740 / (D/d + 1.140)²", f"0.390 + 1.740 / ({sig(ratio)} + 1.140)²", eps
        )
        sheet.references.append(REF_BENYAHIA)
    else:
        eps = 0.1504 + 0.2024 / sphericity + 1.0814 / (ratio + 0.1226) ** 2
        sheet.step(
            "ε",
            "0.1504 + 0.2024/ψ + 1.0814 / (D/d + 0.1226)²",
            f"0.1504 + 0.2024/{sig(sphericity)} + 1.0814 / ({sig(ratio)} + 0.1226)²",
            eps,
        )
        sheet.references.append(REF_BENYAHIA_SHAPE)
    if ratio > WALL_RATIO_MAX * (1 + 1e-9):  # 50 mm / 1 mm = 50.00000000000001 is still 50
        sheet.notes.append(
            f"D/d = {sig(ratio)} is beyond the fitted range 1.5 < D/d < 50: extrapolated; the wall "
            "effect is negligible there and ε tends to the bulk value"
        )
    if ratio < SMALL_RATIO:
        sheet.notes.append(
            f"D/d = {sig(ratio)} < 10: strong wall effect, treat the result as uncertain by 5-10 %"
        )
        sheet.references.append(REF_GUO)
    return eps


def check_wall_ratio(ratio: float, field: str = "container_diameter") -> None:
    """Reject D/d ≤ 1.5, where the wall correlation has no basis (see module docstring)."""
    if ratio <= WALL_RATIO_MIN:
        raise ArgError(
            field,
            f"container/particle diameter ratio D/d = {sig(ratio)} is too small: the wall "
            f"correlation needs D/d > {WALL_RATIO_MIN:g} (fitted for 1.5 < D/d < 50)",
        )


# --- wall_effect_porosity ----------------------------------------------------------------------


class WallEffectArgs(ToolArgs):
    container_diameter: Length = Q("Inner diameter D of the cylinder", gt=0, example="50 mm")
    particle_diameter: Length = Q(
        "Particle diameter d (volume-equivalent sphere diameter for non-spheres)",
        gt=0,
        example="1 mm",
    )
    sphericity: Ratio | None = Q(
        "Sphericity ψ (0.42 < ψ ≤ 1); leave out for spheres (uses the sphere correlation)",
        default=None,
        gt=0.42,
        le=1,
    )

    @model_validator(mode="after")
    def _ratio(self) -> WallEffectArgs:
        check_wall_ratio(self.container_diameter / self.particle_diameter)
        return self


class WallEffectResult(ToolResult):
    diameter_ratio: Ratio = R("D/d")
    porosity: Ratio = R("Mean bed porosity ε (void fraction)")
    packing_fraction: Ratio = R("Solid volume fraction φ = 1 − ε")


def wall_effect_porosity(args: WallEffectArgs, sheet: CalcSheet) -> WallEffectResult:
    """Mean porosity of a packed bed in a cylinder, including the wall effect."""
    ratio = sheet.step(
        "D/d",
        "D / d",
        f"{fmt(args.container_diameter, 'm')} / {fmt(args.particle_diameter, 'm')}",
        args.container_diameter / args.particle_diameter,
    )
    eps = wall_porosity(sheet, ratio, args.sphericity)
    phi = sheet.step("φ", "1 − ε", f"1 − {sig(eps)}", 1.0 - eps)
    return WallEffectResult(diameter_ratio=ratio, porosity=eps, packing_fraction=phi)


WALL_EFFECT_POROSITY: ToolSpec[Any, Any] = ToolSpec(
    name="wall_effect_porosity",
    description=(
        "Mean porosity and packing fraction of particles packed in a cylinder of diameter D, "
        "with the wall effect (Benyahia & O'Neill 2005; 1.5 < D/d < 50; sphericity optional)."
    ),
    args_model=WallEffectArgs,
    result_model=WallEffectResult,
    func=wall_effect_porosity,
    group="Particles, packing and bulk",
    headline="porosity",
    example={"container_diameter": "50 mm", "particle_diameter": "1 mm"},
)
