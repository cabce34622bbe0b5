"""cohesion_numbers: JKR/DMT pull-off, granular Bond number, target surface energy, liquid bridge.

Sources (docs/references.md §R2.3):
- F_JKR = (3/2)πΔγR* (MercuryDPM `JKRAdhesiveInteraction.cc:97`; JKR 1971, recalled) and
  F_DMT = 2πΔγR* (DMT 1975, recalled), Δγ the work of adhesion (= 2γ_s for identical solids).
- Bo = F/(m₁g), m₁ = (4/3)πR₁³ρ₁; the surface energy for a target Bo inverts it.
- Liquid bridge at contact F = 4πR*γ_l cosθ (MercuryDPM `LiquidBridgeWilletInteraction.cc:108-110`;
  Willett et al. 2000). LIGGGHTS' washino model uses 2πR*γ_l cosθ (half): we follow MercuryDPM,
  which gives the textbook sphere–plate 4πRγcosθ and equal-sphere 2πRγcosθ, and print LIGGGHTS'.
- Tabor parameter μ_T = (R*Δγ²/(E*²z₀³))^(1/3): JKR above ≈ 5, DMT below ≈ 0.1 (Tabor 1977;
  Johnson & Greenwood 1997; recalled).
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    Acceleration,
    Angle,
    ArgError,
    CalcSheet,
    Density,
    Force,
    Length,
    Pressure,
    Q,
    R,
    Ratio,
    SurfaceEnergy,
    SurfaceTension,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.pair import check_partner, effective_radius
from caec_desktop.tools.units import fmt, sig

DEFAULT_Z0 = 4e-10
TABOR_JKR = 5.0
TABOR_DMT = 0.1

REF_JKR = (
    "F_JKR = (3/2)πΔγR*: MercuryDPM JKRAdhesiveInteraction.cc:97; Johnson, Kendall & Roberts 1971, "
    "Proc. R. Soc. A 324:301 (recalled)"
)
REF_DMT = (
    "F_DMT = 2πΔγR*: Derjaguin, Muller & Toporov 1975, J. Colloid Interface Sci. 53:314 (recalled)"
)
REF_BOND = (
    "Bo = F_coh/(m g); Bo ≈ 1 as the onset of cohesive behaviour: Nase et al. 2001, Powder "
    "Technol. 116:214; Castellanos 2005, Adv. Phys. 54:263 (both recalled)"
)
REF_BRIDGE = (
    "Liquid bridge at contact F = 4πR*γ cosθ: MercuryDPM LiquidBridgeWilletInteraction.cc:108-110; "
    "Willett et al. 2000, Langmuir 16:9396 (recalled). LIGGGHTS cohesion_model_washino_capillary_"
    "viscous.h:271,277 uses 2πR*γ cosθ"
)
REF_TABOR = (
    "Tabor parameter μ_T = (R*Δγ²/(E*²z₀³))^(1/3): Tabor 1977, J. Colloid Interface Sci. 58:2; "
    "Johnson & Greenwood 1997, J. Colloid Interface Sci. 192:326 (recalled)"
)


class CohesionArgs(ToolArgs):
    particle_radius: Length = fields.particle_radius("Radius R₁ of particle 1", example="10 um")
    other_radius: Length | None = fields.other_radius("Radius R₂ of the other sphere (default: R₁)")
    wall: bool = fields.wall()
    density: Density | None = fields.density(
        "Solid density ρ₁ of particle 1, for its weight and the Bond numbers (forces alone need "
        "none)",
        default=None,
    )
    surface_energy: SurfaceEnergy | None = Q(
        "Work of adhesion Δγ (= 2γ_s for two identical solids); not LIGGGHTS' sjkr cohesion "
        "energy density in J/m³",
        default=None,
        gt=0,
        example="0.05 J/m^2",
    )
    surface_energy_per_surface: bool = Q(
        "true: surface_energy is γ_s of one surface and Δγ = 2γ_s (Dupré, identical solids)",
        default=False,
    )
    target_bond_number: Ratio | None = Q(
        "Bond number to reach: gives the surface energy needed", default=None, gt=0
    )
    liquid_surface_tension: SurfaceTension | None = Q(
        "Surface tension γ_l of a bridging liquid (water at 20 °C: 0.0728 N/m)", default=None, gt=0
    )
    contact_angle: Angle = Q(
        "Contact angle θ of the liquid on the solid (0 ≤ θ < 90°)", default=0.0, ge=0, lt=90
    )
    youngs_modulus: Pressure | None = fields.youngs_modulus(
        "Young's modulus E, for the Tabor parameter only", default=None, example=None
    )
    poisson_ratio: Ratio | None = fields.poisson_ratio(
        "Poisson ratio ν, for the Tabor parameter only (-1 < ν ≤ 0.5)", default=None, example=None
    )
    equilibrium_separation: Length = Q(
        "Equilibrium separation z₀, for the Tabor parameter", default=DEFAULT_Z0, gt=0
    )
    gravity: Acceleration = fields.gravity()

    @model_validator(mode="after")
    def _consistent(self) -> CohesionArgs:
        check_partner(self)
        if (
            self.surface_energy is None
            and self.target_bond_number is None
            and self.liquid_surface_tension is None
        ):
            raise ArgError(
                "surface_energy",
                "required: give surface_energy (J/m^2), target_bond_number or "
                "liquid_surface_tension (N/m)",
            )
        if self.target_bond_number is not None and self.density is None:
            raise ArgError(
                "density",
                "a surface energy for a target Bond number needs the particle weight: give "
                "density (kg/m^3) or name a material",
            )
        if (self.youngs_modulus is None) != (self.poisson_ratio is None):
            missing = "poisson_ratio" if self.poisson_ratio is None else "youngs_modulus"
            raise ArgError(
                missing, "the Tabor parameter needs both youngs_modulus and poisson_ratio"
            )
        return self


class CohesionResult(ToolResult):
    effective_radius: Length = R("Effective radius R*")
    particle_weight: Force | None = R("Weight of particle 1, m₁g (with density)", default=None)
    work_of_adhesion: SurfaceEnergy | None = R(
        "Δγ used (doubled when given per surface)", default=None
    )
    pull_off_force_jkr: Force | None = R("JKR pull-off force (3/2)πΔγR*", default=None)
    pull_off_force_dmt: Force | None = R("DMT pull-off force 2πΔγR*", default=None)
    bond_number_jkr: Ratio | None = R("F_JKR / (m₁g)", default=None)
    bond_number_dmt: Ratio | None = R("F_DMT / (m₁g)", default=None)
    surface_energy_for_target_jkr: SurfaceEnergy | None = R(
        "Δγ giving the target Bo (JKR)", default=None
    )
    surface_energy_for_target_dmt: SurfaceEnergy | None = R(
        "Δγ giving the target Bo (DMT)", default=None
    )
    liquid_bridge_force: Force | None = R(
        "Capillary bridge force at contact 4πR*γ_l cosθ", default=None
    )
    bond_number_liquid_bridge: Ratio | None = R("F_lb / (m₁g)", default=None)
    tabor_parameter: Ratio | None = R("Tabor parameter μ_T (with E and ν)", default=None)
    adhesion_regime: str | None = R("JKR (μ_T ≳ 5), DMT (μ_T ≲ 0.1) or intermediate", default=None)


def _bond_label(bo: float) -> str:
    if bo < 0.5:
        return "weight dominates"
    return "transition (Bo ≈ 1)" if bo <= 2 else "cohesive: agglomerates, arches, poor flow"


def cohesion_numbers(args: CohesionArgs, sheet: CalcSheet) -> CohesionResult:
    """Adhesion and capillary forces of a contact against the weight of particle 1."""
    r_eff, _ = effective_radius(sheet, args)
    r1, g = args.particle_radius, args.gravity
    weight: float | None = None
    if args.density is not None:
        weight = sheet.step(
            "W",
            "(4/3) π R₁³ ρ₁ g",
            f"(4/3) π ({fmt(r1, 'm')})³ · {fmt(args.density, 'kg/m^3')} · {sig(g)} m/s²",
            4.0 / 3.0 * math.pi * r1**3 * args.density * g,
            "N",
        )
    else:
        sheet.notes.append(
            "No density given: forces only; the particle weight and Bond numbers need density."
        )
    out: dict[str, Any] = {}
    gamma = args.surface_energy
    if gamma is not None:
        if args.surface_energy_per_surface:
            gamma = sheet.step("Δγ", "2 γ_s", f"2 · {sig(gamma)} J/m²", 2.0 * gamma, "J/m^2")
            sheet.notes.append(
                "surface_energy given per surface: Δγ = 2γ_s (Dupré, identical solids)."
            )
        else:
            sheet.notes.append(
                f"surface_energy read as the work of adhesion Δγ = {sig(gamma)} J/m² (Johnson; "
                "MercuryDPM). A per-surface γ_s gives forces 2× larger in texts that write "
                "F = 3πγ_sR*: set surface_energy_per_surface=true for such a value."
            )
        jkr = sheet.step(
            "F_JKR",
            "(3/2) π Δγ R*",
            f"1.5 π · {sig(gamma)} J/m² · {fmt(r_eff, 'm')}",
            1.5 * math.pi * gamma * r_eff,
            "N",
        )
        dmt = sheet.step(
            "F_DMT",
            "2 π Δγ R*",
            f"2 π · {sig(gamma)} J/m² · {fmt(r_eff, 'm')}",
            2.0 * math.pi * gamma * r_eff,
            "N",
        )
        if weight is not None:
            bo_j = out["bond_number_jkr"] = sheet.step(
                "Bo_JKR", "F_JKR / W", f"{fmt(jkr, 'N')} / {fmt(weight, 'N')}", jkr / weight
            )
            out["bond_number_dmt"] = sheet.step(
                "Bo_DMT", "F_DMT / W", f"{fmt(dmt, 'N')} / {fmt(weight, 'N')}", dmt / weight
            )
            sheet.notes.append(
                f"Bo_JKR = {sig(bo_j)}: {_bond_label(bo_j)} (indicative, not a flow prediction)."
            )
        sheet.notes.append(
            "JKR/DMT are for smooth elastic spheres; asperities of real powders lower the force by "
            "orders of magnitude."
        )
        out.update(
            work_of_adhesion=gamma,
            pull_off_force_jkr=jkr,
            pull_off_force_dmt=dmt,
        )
        sheet.references += [REF_JKR, REF_DMT]
    if args.target_bond_number is not None:
        assert weight is not None  # the validator asks for density with a target
        bo = args.target_bond_number
        out["surface_energy_for_target_jkr"] = sheet.step(
            "Δγ_JKR",
            "Bo W / (1.5 π R*)",
            f"{sig(bo)} · {fmt(weight, 'N')} / (1.5 π {fmt(r_eff, 'm')})",
            bo * weight / (1.5 * math.pi * r_eff),
            "J/m^2",
        )
        out["surface_energy_for_target_dmt"] = sheet.step(
            "Δγ_DMT",
            "Bo W / (2 π R*)",
            f"{sig(bo)} · {fmt(weight, 'N')} / (2 π {fmt(r_eff, 'm')})",
            bo * weight / (2.0 * math.pi * r_eff),
            "J/m^2",
        )
    if args.liquid_surface_tension is not None:
        gl, theta = args.liquid_surface_tension, args.contact_angle
        cos_t = math.cos(math.radians(theta))
        f_lb = sheet.step(
            "F_lb",
            "4 π R* γ_l cos θ",
            f"4 π · {fmt(r_eff, 'm')} · {sig(gl)} N/m · cos {sig(theta)}°",
            4.0 * math.pi * r_eff * gl * cos_t,
            "N",
        )
        out["liquid_bridge_force"] = f_lb
        if weight is not None:
            out["bond_number_liquid_bridge"] = sheet.step(
                "Bo_lb", "F_lb / W", f"{fmt(f_lb, 'N')} / {fmt(weight, 'N')}", f_lb / weight
            )
        sheet.notes.append(
            f"Sources disagree by 2 on the bridge force: 4πR*γ cosθ (MercuryDPM/Willett, used) vs "
            f"LIGGGHTS' washino 2πR*γ cosθ = {fmt(f_lb / 2, 'N')}. The value is at contact; it "
            "decays with separation and bridge volume (not modelled); viscous forces are excluded."
        )
        sheet.references.append(REF_BRIDGE)
    if args.youngs_modulus is not None and args.poisson_ratio is not None and gamma is not None:
        e, nu, z0 = args.youngs_modulus, args.poisson_ratio, args.equilibrium_separation
        factor = 1.0 if args.wall else 2.0
        e_eff = sheet.step(
            "E*",
            "E / (1 - ν²) (rigid wall)" if args.wall else "E / (2 (1 - ν²)) (one material)",
            f"{fmt(e, 'Pa')} / ({'' if args.wall else '2 '}(1 - {nu:g}²))".replace("( (", "(("),
            e / (factor * (1 - nu**2)),
            "Pa",
        )
        mu = sheet.step(
            "μ_T",
            "(R* Δγ² / (E*² z₀³))^(1/3)",
            f"({fmt(r_eff, 'm')} · ({sig(gamma)} J/m²)² / (({fmt(e_eff, 'Pa')})² · "
            f"({fmt(z0, 'm')})³))^(1/3)",
            (r_eff * gamma**2 / (e_eff**2 * z0**3)) ** (1.0 / 3.0),
        )
        regime = "JKR" if mu >= TABOR_JKR else "DMT" if mu <= TABOR_DMT else "intermediate"
        out.update(tabor_parameter=mu, adhesion_regime=regime)
        sheet.thresholds.append(
            f"Tabor: JKR if μ_T ≳ {TABOR_JKR:g}, DMT if μ_T ≲ {TABOR_DMT:g}, intermediate between "
            f"(report both forces) → {regime}"
        )
        sheet.references.append(REF_TABOR)
    if args.youngs_modulus is not None and gamma is None:
        sheet.notes.append("No Tabor parameter: it needs surface_energy besides E and ν.")
    if weight is not None:
        sheet.thresholds.append(
            "Bond number (indicative, no single checked source): Bo < 1 weight dominates, Bo ≈ 1 "
            "transition, Bo ≫ 1 cohesive"
        )
        sheet.references.append(REF_BOND)
    return CohesionResult(effective_radius=r_eff, particle_weight=weight, **out)


COHESION_NUMBERS: ToolSpec[Any, Any] = ToolSpec(
    name="cohesion_numbers",
    description=(
        "JKR (1.5πΔγR*) and DMT (2πΔγR*) pull-off forces and Bond numbers against the weight of "
        "particle 1, the surface energy (work of adhesion) that gives a target Bond number, the "
        "liquid-bridge force 4πR*γ_l cosθ, and the Tabor parameter."
    ),
    args_model=CohesionArgs,
    result_model=CohesionResult,
    func=cohesion_numbers,
    group="Cohesion",
    headline="bond_number_jkr",
    example={
        "particle_radius": "10 um",
        "density": 2500,
        "surface_energy": "0.05 J/m^2",
        "target_bond_number": 1,
    },
)
