"""coarse_graining: parcels of diameter D = s·d, and how a DEM set-up scales with them.

Scaling rules (docs/references.md §R2.5; same bulk stresses, strains, density, restitution and
friction at unchanged gravity and geometry):
- D = s d, M = s³ m, N_p = N/s³ (so s = (N/N_p)^(1/3) for a target parcel count); linear
  stiffness k' = s k (same δ/D; Bierwisch et al. 2009, Radl et al. 2011, recalled; stiffness ∝
  size, Thakur et al. 2016, abstract verified); Hertz E unchanged (δ_max/R depends only on
  ρv²/E); damping η' = s² η (keeps ζ and e; derived);
  contact time and time step × s; particle-steps for a fixed time ÷ s⁴; drag on a parcel s³ times
  the drag of one primary particle at the primary diameter (CFDEM forceSubModel.C:407-434; MFiX
  CGDEM drag_gp_des.f:109).
- Cohesion, where schemes disagree: `stress` keeps bulk cohesive strength, F ∝ s², Δγ' = s Δγ
  (Thakur et al. 2016: adhesive force scales with the square of the size; the default); `bond`
  keeps the particle Bond number, F ∝ s³, Δγ' = s² Δγ.
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Damping,
    Density,
    Length,
    Mass,
    NumberOf,
    Pressure,
    Q,
    R,
    Ratio,
    Stiffness,
    SurfaceEnergy,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.display import count_text
from caec_desktop.tools.timestep import Verdict, worst
from caec_desktop.tools.units import fmt, sig

LARGE_SCALE = 10.0
FEATURE_CAUTION = 10.0
"""L_min/D below which the parcel is coarse for the geometry (policy, no checked source)."""

REF_SCALING = (
    "Coarse-graining similarity: Bierwisch et al. 2009, J. Mech. Phys. Solids 57:10; Radl et al. "
    "2011 (recalled); Thakur, Ooi & Ahmadian 2016, Powder Technol. 293:130 (abstract verified: "
    "stiffness ∝ d, adhesive force ∝ d²)"
)
REF_DRAG = (
    "Parcel drag = s³ × drag of a primary particle at the primary diameter: CFDEM "
    "forceSubModel.C:407-434; MFiX check_solids_common_discrete.f:114,132, drag_gp_des.f:109; "
    "Sakai & Koshizuka 2009, Chem. Eng. Sci. 64:533 (recalled)"
)
REF_FEATURE = (
    "System-to-grain ratio: Grabowski et al. 2023, Comput. Part. Mech. (abstract verified); "
    "D₀ > 6D at orifices (beverloo_discharge); Δx ≥ 3D for CFD-DEM (cfd_dem_numbers)"
)


class CoarseArgs(ToolArgs):
    scale_factor: Ratio | None = Q(
        "Coarse-graining factor s = D/d (≥ 1; caution above 10), or give n_parcels",
        default=None,
        ge=1,
        example=4,
    )
    n_parcels: NumberOf | None = Q(
        "Target number of parcels N_p: gives s = (N/N_p)^(1/3) (needs n_particles, or total_mass "
        "with particle_diameter and density); instead of scale_factor",
        default=None,
        gt=0,
    )
    particle_diameter: Length | None = fields.particle_diameter(
        "Primary particle diameter d (for D, masses and counts)", default=None, example=None
    )
    density: Density | None = fields.density(
        "Solid density ρ (for masses, and counts from total_mass)", default=None, example=None
    )
    n_particles: NumberOf | None = Q(
        "Number of primary particles N (or give total_mass)", default=None, gt=0
    )
    total_mass: Mass | None = Q("Total solid mass (or give n_particles)", default=None, gt=0)
    stiffness: Stiffness | None = Q("Linear contact stiffness k_n (or k_t)", default=None, gt=0)
    damping_coefficient: Damping | None = Q("Linear damping coefficient η_n", default=None, ge=0)
    youngs_modulus: Pressure | None = fields.youngs_modulus(
        "Young's modulus E of a Hertz model (unchanged by coarse graining)",
        default=None,
        example=None,
    )
    surface_energy: SurfaceEnergy | None = Q(
        "Work of adhesion Δγ (or a liquid's γ_l: scales the same way)", default=None, gt=0
    )
    cohesion_scaling: Literal["stress", "bond"] = Q(
        "stress: keep bulk cohesive strength, F ∝ s² (Thakur et al. 2016; default); bond: keep the "
        "particle Bond number, F ∝ s³",
        default="stress",
    )
    timestep: Time | None = fields.timestep(
        "DEM time step dt of the primary particles", default=None, example=None
    )
    smallest_feature: Length | None = Q(
        "Smallest geometric feature L_min (orifice, gap, bed width), for the D/L_min check",
        default=None,
        gt=0,
    )

    @model_validator(mode="after")
    def _counts(self) -> CoarseArgs:
        if self.n_particles is not None and self.total_mass is not None:
            raise ArgError("total_mass", "give n_particles or total_mass, not both")
        if self.total_mass is not None and (self.density is None or self.particle_diameter is None):
            missing = "density" if self.density is None else "particle_diameter"
            raise ArgError(missing, "a count from total_mass needs particle_diameter and density")
        if self.smallest_feature is not None and self.particle_diameter is None:
            raise ArgError("particle_diameter", "the smallest_feature check needs it")
        if (self.scale_factor is None) == (self.n_parcels is None):
            raise ArgError(
                "scale_factor",
                "give scale_factor, or n_parcels (a target parcel count) to solve for it, not both"
                if self.scale_factor is not None
                else "required: give scale_factor, or n_parcels with n_particles (or total_mass)",
            )
        if self.n_parcels is not None:
            n = primary_count(self)
            if n is None:
                raise ArgError(
                    "n_particles",
                    "a scale factor from n_parcels needs the number of primary particles: give "
                    "n_particles, or total_mass with particle_diameter and density",
                )
            if self.n_parcels > n:
                raise ArgError(
                    "n_parcels",
                    f"must not exceed the number of primary particles N = {sig(n)} (s ≥ 1)",
                )
        return self


def primary_count(args: CoarseArgs) -> float | None:
    """N: given, or the total mass over one particle's mass ρπd³/6; None without either."""
    if args.n_particles is not None:
        return args.n_particles
    if args.total_mass is None or args.density is None or args.particle_diameter is None:
        return None
    return args.total_mass / (args.density * math.pi * args.particle_diameter**3 / 6.0)


class CoarseResult(ToolResult):
    scale_factor: Ratio | None = R(
        "s = (N/N_p)^(1/3), solved for the n_parcels asked for", default=None
    )
    parcel_diameter: Length | None = R("Parcel diameter D = s d", default=None)
    particle_mass: Mass | None = R("Primary particle mass m = ρπd³/6", default=None)
    parcel_mass: Mass | None = R("Parcel mass M = s³ m", default=None)
    particle_count: NumberOf | None = R("Primary particles N", default=None)
    parcel_count: NumberOf | None = R("Parcels N_p = N/s³", default=None)
    stiffness_parcel: Stiffness | None = R("k' = s k", default=None)
    damping_parcel: Damping | None = R("η' = s² η", default=None)
    youngs_modulus_parcel: Pressure | None = R("E' = E (Hertz is scale-free)", default=None)
    contact_time: Time | None = R(
        "Undamped linear contact time π√(m/(2k)) of two primaries", default=None
    )
    contact_time_parcel: Time | None = R(
        "The same for two parcels (= s × contact_time)", default=None
    )
    surface_energy_parcel: SurfaceEnergy | None = R(
        "Δγ' of the chosen cohesion_scaling", default=None
    )
    surface_energy_parcel_stress: SurfaceEnergy | None = R(
        "Δγ' = s Δγ (stress scheme)", default=None
    )
    surface_energy_parcel_bond: SurfaceEnergy | None = R("Δγ' = s² Δγ (bond scheme)", default=None)
    timestep_parcel: Time | None = R("dt' = s dt", default=None)
    particle_step_reduction: Ratio = R("Particle-steps saved for a fixed time: s⁴")
    drag_factor: Ratio = R("Parcel drag / primary drag at the primary diameter: s³")
    feature_to_parcel: Ratio | None = R("L_min / D", default=None)
    verdict: Verdict = R("caution for s > 10 or L_min/D < 10; fail if the parcel does not fit")


def coarse_graining(args: CoarseArgs, sheet: CalcSheet) -> CoarseResult:
    """Parcel sizes and counts, and the scaled stiffness, damping, cohesion and time step."""
    out: dict[str, Any] = {}
    s = args.scale_factor
    if s is None:  # solved for a target parcel count (the validator checked N and N_p)
        n, n_p = primary_count(args), args.n_parcels
        assert n is not None and n_p is not None
        s = out["scale_factor"] = sheet.step(
            "s",
            "(N / N_p)^(1/3)",
            f"({count_text(n)} / {count_text(n_p)})^(1/3)",
            (n / n_p) ** (1.0 / 3.0),
        )
    verdict: Verdict = "ok"
    d, rho = args.particle_diameter, args.density
    if d is not None:
        big_d = out["parcel_diameter"] = sheet.step(
            "D", "s d", f"{sig(s)} · {fmt(d, 'm')}", s * d, "m"
        )
        if rho is not None:
            m = out["particle_mass"] = sheet.step(
                "m",
                "ρ π d³ / 6",
                f"{fmt(rho, 'kg/m^3')} · π ({fmt(d, 'm')})³ / 6",
                rho * math.pi * d**3 / 6.0,
                "kg",
            )
            out["parcel_mass"] = sheet.step(
                "M", "s³ m", f"{sig(s)}³ · {fmt(m, 'kg')}", s**3 * m, "kg"
            )
            if args.total_mass is not None:
                out["particle_count"] = sheet.step(
                    "N",
                    "M_tot / m",
                    f"{fmt(args.total_mass, 'kg')} / {fmt(m, 'kg')}",
                    args.total_mass / m,
                    count=True,
                )
        if args.smallest_feature is not None:
            ratio = out["feature_to_parcel"] = sheet.step(
                "L_min/D",
                "L_min / D",
                f"{fmt(args.smallest_feature, 'm')} / {fmt(big_d, 'm')}",
                args.smallest_feature / big_d,
            )
            feature: Verdict = (
                "fail" if ratio < 1 else "caution" if ratio < FEATURE_CAUTION else "ok"
            )
            sheet.flag(
                feature,
                f"Geometry: L_min/D = {sig(ratio)} < "
                + ("1 (the parcel does not fit)" if ratio < 1 else f"{FEATURE_CAUTION:g}"),
            )
            sheet.thresholds.append(
                f"Geometry: caution if L_min/D < {FEATURE_CAUTION:g} (policy), fail if the parcel "
                f"does not fit (L_min < D) → {feature}; orifices need D₀ > 6 D, CFD cells Δx ≥ 3 D"
            )
            sheet.references.append(REF_FEATURE)
            verdict = worst(verdict, feature)
    if args.n_particles is not None:
        out["particle_count"] = args.n_particles
    if "particle_count" in out:
        out["parcel_count"] = sheet.step(
            "N_p",
            "N / s³",
            f"{count_text(out['particle_count'])} / {sig(s)}³",
            out["particle_count"] / s**3,
            count=True,
        )
    if args.stiffness is not None:
        k = args.stiffness
        k_p = out["stiffness_parcel"] = sheet.step(
            "k'", "s k", f"{sig(s)} · {fmt(k, 'N/m')}", s * k, "N/m"
        )
        sheet.notes.append(
            "Scale k with s: keeping k unchanged makes the parcel overlap δ/D grow as s^(1/2) and "
            "the contact time as s^(3/2)."
        )
        if "particle_mass" in out:
            m = out["particle_mass"]
            t0 = out["contact_time"] = sheet.step(
                "t_c",
                "π √((m/2) / k)",
                f"π √({fmt(m, 'kg')} / 2 / {fmt(k, 'N/m')})",
                math.pi * math.sqrt(m / 2.0 / k),
                "s",
            )
            out["contact_time_parcel"] = sheet.step(
                "t_c'",
                "π √((M/2) / k')",
                f"π √({fmt(out['parcel_mass'], 'kg')} / 2 / {fmt(k_p, 'N/m')})",
                math.pi * math.sqrt(out["parcel_mass"] / 2.0 / k_p),
                "s",
            )
            sheet.notes.append(
                f"t_c'/t_c = {sig(out['contact_time_parcel'] / t0)} = s (equal spheres)."
            )
    if args.damping_coefficient is not None:
        eta = args.damping_coefficient
        out["damping_parcel"] = sheet.step(
            "η'", "s² η", f"{sig(s)}² · {sig(eta)} N·s/m", s**2 * eta, "N*s/m"
        )
        sheet.notes.append(
            "η' = s² η keeps the damping ratio ζ = η/(2√(k m*)) and so the restitution."
        )
    if args.youngs_modulus is not None:
        out["youngs_modulus_parcel"] = sheet.step(
            "E'", "E (unchanged)", fmt(args.youngs_modulus, "Pa"), args.youngs_modulus, "Pa"
        )
        sheet.notes.append("Hertz: E unchanged, δ_max/R depends only on ρv²/E; t_H grows with s.")
    if args.surface_energy is not None:
        gamma = args.surface_energy
        stress = out["surface_energy_parcel_stress"] = sheet.step(
            "Δγ'_stress", "s Δγ", f"{sig(s)} · {sig(gamma)} J/m²", s * gamma, "J/m^2"
        )
        bond = out["surface_energy_parcel_bond"] = sheet.step(
            "Δγ'_bond", "s² Δγ", f"{sig(s)}² · {sig(gamma)} J/m²", s**2 * gamma, "J/m^2"
        )
        out["surface_energy_parcel"] = stress if args.cohesion_scaling == "stress" else bond
        sheet.notes.append(
            f"Cohesion scheme used: {args.cohesion_scaling} ("
            + (
                "F ∝ s², keeps bulk cohesive strength, Thakur et al. 2016"
                if args.cohesion_scaling == "stress"
                else "F ∝ s³, keeps the particle Bond number"
            )
            + f"). The two schemes disagree by a factor s = {sig(s)} in the cohesive force."
        )
    if args.timestep is not None:
        out["timestep_parcel"] = sheet.step(
            "dt'", "s dt", f"{sig(s)} · {fmt(args.timestep, 's')}", s * args.timestep, "s"
        )
    reduction = sheet.step("s⁴", "N/N_p · dt'/dt", f"{sig(s)}⁴", s**4)
    drag = sheet.step("s³", "primaries per parcel", f"{sig(s)}³", s**3)
    sheet.notes.append(
        "Fluid drag on a parcel: s³ × the drag on one primary particle evaluated at the primary "
        "diameter (CFDEM, MFiX CGDEM). Restitution, friction and rolling friction are unchanged."
    )
    if s > LARGE_SCALE:
        verdict = worst(
            verdict, sheet.flag("caution", f"Scale factor: s = {sig(s)} > {LARGE_SCALE:g}")
        )
        sheet.notes.append(
            "s > 10: particle-scale phenomena (size segregation, thin shear bands, wall layers of "
            "5-10 d) are not preserved."
        )
    sheet.thresholds.append(f"Scale factor: caution above {LARGE_SCALE:g}")
    sheet.references += [REF_SCALING, REF_DRAG]
    return CoarseResult(particle_step_reduction=reduction, drag_factor=drag, verdict=verdict, **out)


COARSE_GRAINING: ToolSpec[Any, Any] = ToolSpec(
    name="coarse_graining",
    description=(
        "Coarse graining by a factor s (or s = (N/N_p)^(1/3) for a target parcel count N_p): "
        "parcel diameter s·d, mass s³m and count N/s³; scaled "
        "linear stiffness s·k, damping s²η, time step s·dt, Hertz E unchanged, cohesion (stress "
        "scheme s·Δγ or bond scheme s²·Δγ); particle-steps saved s⁴ and parcel drag factor s³."
    ),
    args_model=CoarseArgs,
    result_model=CoarseResult,
    func=coarse_graining,
    group="Run size and cost",
    headline="parcel_count",
    example={
        "scale_factor": 4,
        "particle_diameter": "0.5 mm",
        "density": 2500,
        "n_particles": 1e8,
        "stiffness": "1000 N/m",
        "damping_coefficient": 0.05,
        "surface_energy": "0.05 J/m^2",
        "timestep": "1e-6 s",
    },
)
