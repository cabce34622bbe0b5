"""Bulk properties of a packing: packing fraction, porosity, void ratio, bulk density, mass.

Definitions (docs/references.md §1.6; no single source is needed): porosity ε = 1 − φ, void ratio
e_v = ε/(1 − ε) = (1 − φ)/φ (not the restitution coefficient e), bulk density ρ_b = φ ρ_s, mass
M = ρ_b V, and from measured densities φ = ρ_b/ρ_s, which must be ≤ 1.

How φ is given — exactly one of:
- `packing_fraction`;
- `porosity`;
- `bulk_density` together with `solid_density`.
With φ from the first two ways, one density may be added: `solid_density` gives ρ_b = φ ρ_s, or
`bulk_density` gives ρ_s = ρ_b/φ. The mass needs `volume` and a density; without a density the
mass is left out (null) and the sheet says why. A `bulk_density` with a `volume` alone gives the
mass M = ρ_b V (φ, ε and e_v are then null: they need the solid density).
"""

from __future__ import annotations

from typing import Any

from pydantic import model_validator

from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
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

REF_BULK = (
    "Definitions (docs/references.md §1.6): ε = 1 − φ, e_v = (1 − φ)/φ, ρ_b = φ ρ_s, M = ρ_b V, "
    "φ = ρ_b/ρ_s ≤ 1"
)
WAYS = "packing_fraction, porosity, or bulk_density with solid_density"


class BulkArgs(ToolArgs):
    packing_fraction: Ratio | None = Q(
        "Solid volume fraction φ (give one of: " + WAYS + ")", default=None, gt=0, le=1
    )
    porosity: Ratio | None = Q("Porosity ε = 1 − φ (void fraction)", default=None, ge=0, lt=1)
    bulk_density: Density | None = Q(
        "Bulk density ρ_b (with solid_density gives φ; with φ gives solid_density)",
        default=None,
        gt=0,
    )
    solid_density: Density | None = Q(
        "Solid (particle material) density ρ_s", default=None, gt=0, example="2500 kg/m^3"
    )
    volume: Volume | None = Q("Bulk volume V, to get the mass", default=None, gt=0)

    @model_validator(mode="after")
    def _one_way(self) -> BulkArgs:
        given = [
            name
            for name, present in (
                ("packing_fraction", self.packing_fraction is not None),
                ("porosity", self.porosity is not None),
                ("bulk_density", self.bulk_density is not None and self.solid_density is not None),
            )
            if present
        ]
        if len(given) > 1:
            raise ArgError(
                given[1], f"give only one of {WAYS}; got {' and '.join(given)} (over-determined)"
            )
        if not given:
            if self.bulk_density is not None and self.volume is not None:
                return self  # the mass of a volume of known bulk density: M = ρ_b V
            if self.bulk_density is not None:
                raise ArgError(
                    "solid_density",
                    "required with bulk_density to get φ = ρ_b/ρ_s (in kg/m^3); "
                    "or give packing_fraction or porosity, or a volume for the mass ρ_b V",
                )
            raise ArgError("packing_fraction", f"required: give {WAYS}")
        if given == ["bulk_density"]:
            assert self.bulk_density is not None and self.solid_density is not None
            if self.bulk_density > self.solid_density:
                raise ArgError(
                    "bulk_density",
                    f"{fmt(self.bulk_density, 'kg/m^3')} exceeds solid_density "
                    f"{fmt(self.solid_density, 'kg/m^3')}: φ = ρ_b/ρ_s must be ≤ 1",
                )
        return self


class BulkResult(ToolResult):
    packing_fraction: Ratio | None = R("Solid volume fraction φ (null from a bulk density alone)")
    porosity: Ratio | None = R("Porosity ε = 1 − φ (null from a bulk density alone)")
    void_ratio: Ratio | None = R("Void ratio e_v = (1 − φ)/φ (null from a bulk density alone)")
    bulk_density: Density | None = R("Bulk density ρ_b (null without a density)")
    solid_density: Density | None = R("Solid density ρ_s (null without a density)")
    mass: Mass | None = R("Bulk mass ρ_b V (null without volume or density)")


def bulk_properties(args: BulkArgs, sheet: CalcSheet) -> BulkResult:
    """Convert between packing fraction, porosity, void ratio and densities; mass of a volume."""
    rho_b, rho_s = args.bulk_density, args.solid_density
    if args.packing_fraction is None and args.porosity is None and rho_s is None:
        assert rho_b is not None and args.volume is not None  # checked by the model validator
        bulk_mass = sheet.step(
            "M",
            "ρ_b V",
            f"{fmt(rho_b, 'kg/m^3')} · {fmt(args.volume, 'm^3')}",
            rho_b * args.volume,
            "kg",
        )
        sheet.notes.append(
            "φ, ε and e_v not computed: they need the solid density (φ = ρ_b/ρ_s), a packing "
            "fraction or a porosity"
        )
        sheet.references.append(REF_BULK)
        return BulkResult(
            packing_fraction=None,
            porosity=None,
            void_ratio=None,
            bulk_density=rho_b,
            solid_density=None,
            mass=bulk_mass,
        )
    if args.packing_fraction is not None:
        phi = args.packing_fraction
        sheet.notes.append(f"Packing fraction given: φ = {sig(phi)}")
    elif args.porosity is not None:
        phi = sheet.step("φ", "1 − ε", f"1 − {sig(args.porosity)}", 1.0 - args.porosity)
    else:
        assert rho_b is not None and rho_s is not None  # checked by the model validator
        phi = sheet.step(
            "φ", "ρ_b / ρ_s", f"{fmt(rho_b, 'kg/m^3')} / {fmt(rho_s, 'kg/m^3')}", rho_b / rho_s
        )
    if args.porosity is not None:
        eps = args.porosity
    else:
        eps = sheet.step("ε", "1 − φ", f"1 − {sig(phi)}", 1.0 - phi)
    e_v = sheet.step("e_v", "(1 − φ) / φ", f"(1 − {sig(phi)}) / {sig(phi)}", (1.0 - phi) / phi)
    if rho_b is None and rho_s is not None:
        rho_b = sheet.step(
            "ρ_b", "φ ρ_s", f"{sig(phi)} · {fmt(rho_s, 'kg/m^3')}", phi * rho_s, "kg/m^3"
        )
    elif rho_s is None and rho_b is not None:
        rho_s = sheet.step(
            "ρ_s", "ρ_b / φ", f"{fmt(rho_b, 'kg/m^3')} / {sig(phi)}", rho_b / phi, "kg/m^3"
        )
    mass = None
    if args.volume is not None and rho_b is not None:
        mass = sheet.step(
            "M",
            "ρ_b V",
            f"{fmt(rho_b, 'kg/m^3')} · {fmt(args.volume, 'm^3')}",
            rho_b * args.volume,
            "kg",
        )
    elif args.volume is not None:
        sheet.notes.append("No mass: give solid_density or bulk_density together with volume")
    sheet.notes.append("e_v is the void ratio of the packing, not the coefficient of restitution")
    sheet.references.append(REF_BULK)
    return BulkResult(
        packing_fraction=phi,
        porosity=eps,
        void_ratio=e_v,
        bulk_density=rho_b,
        solid_density=rho_s,
        mass=mass,
    )


BULK_PROPERTIES: ToolSpec[Any, Any] = ToolSpec(
    name="bulk_properties",
    description=(
        "Packing fraction φ, porosity 1−φ, void ratio (1−φ)/φ, bulk density φρ_s and bulk mass "
        "ρ_b·V, from one of: packing_fraction, porosity, or bulk_density with solid_density."
    ),
    args_model=BulkArgs,
    result_model=BulkResult,
    func=bulk_properties,
    group="Particles, packing and bulk",
    headline="bulk_density",
    example={"packing_fraction": 0.6, "solid_density": "2500 kg/m^3", "volume": "2 L"},
)
