"""polydisperse_rayleigh: the Rayleigh time step of a size distribution.

Sources (docs/references.md §R2.7): dt_R(d) = π(d/2)√(ρ/G)/(0.1631ν + 0.8766) (part 1 §1.2),
linear in d, so the smallest particle governs.
- A list of sizes: the smallest (LIGGGHTS takes the minimum over particles).
- A normal distribution: mean - 3σ (EDEM "Time Steps": "If no capping is utilized, the Time Step
  is set based on the particle with size mean - 3 * standard deviation"); a capped minimum
  (`min_diameter`) governs whenever it is given ("otherwise ... the lowest capped value").
  LIGGGHTS and EDEM disagree for distributions: EDEM is followed, lists use the minimum.
- Lognormal (geometric mean d_g, geometric standard deviation σ_g): d_g/σ_g³, the 3σ point in log
  space (an analogy, not from a vendor document).
σ is number-weighted: the time step is set by the smallest particles, and a mass-weighted σ
under-represents fines (the MFiX-Exa guide: the two weightings are not interchangeable).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
    Length,
    Pressure,
    Q,
    R,
    Ratio,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.check_timestep import RAYLEIGH_CAUTION_FRACTION
from caec_desktop.tools.timestep import (
    DEFAULT_RAYLEIGH_FRACTION,
    REF_EDEM_TIMESTEP,
    REF_SHEAR,
    Verdict,
    check_moduli,
    rayleigh_step,
    shear_modulus,
    worst,
)
from caec_desktop.tools.units import fmt, sig

WIDE_NORMAL = 0.3
REF_EDEM_PSD = (
    "EDEM help, Time Steps: smallest size; uncapped normal distribution: mean - 3 × standard "
    "deviation; otherwise the lowest capped value (help.altair.com/edem/topics/edem_simulator/"
    "understanding_time_steps_c.htm)"
)
REF_MIN = (
    "LIGGGHTS fix check/timestep/gran: minimum over all particles (fix_check_timestep_gran.cpp:262)"
)
REF_WEIGHTING = (
    "MFiX-Exa guide, size distributions: number- and volume-weighted distributions are not "
    "interchangeable "
    "(mfix.netl.doe.gov/doc/mfix-exa/guide/latest/references/size_distributions.html)"
)

Diameter = Annotated[Length, Field(gt=0)]


class PsdArgs(ToolArgs):
    density: Density = fields.density()
    youngs_modulus: Pressure | None = fields.youngs_modulus(
        "Young's modulus E (give this or shear_modulus)", default=None
    )
    shear_modulus: Pressure | None = Q(
        "Shear modulus G (give this or youngs_modulus; both must agree with ν within 1 %)",
        default=None,
        gt=0,
    )
    poisson_ratio: Ratio = fields.poisson_ratio()
    diameters: list[Diameter] | None = Field(
        default=None,
        min_length=1,
        description="Listed particle sizes (the smallest governs)",
        json_schema_extra={"x-unit": "m"},
    )
    mean_diameter: Length | None = Q(
        "Mean diameter of a normal distribution (lognormal: geometric mean d_g)", default=None, gt=0
    )
    std_dev: Length | None = Q(
        "Number-weighted standard deviation σ of a normal distribution, in m (lognormal: give the "
        "dimensionless geometric standard deviation σ_g > 1 as a bare number)",
        default=None,
        ge=0,
    )
    min_diameter: Length | None = Q("Capped (truncated) smallest diameter", default=None, gt=0)
    distribution: Literal["normal", "lognormal"] = Q(
        "Shape of the mean_diameter/std_dev distribution", default="normal"
    )
    rayleigh_fraction: Ratio = Q(
        "Fraction of dt_R to recommend (ok ≤ 0.2, caution ≤ 0.4)",
        default=DEFAULT_RAYLEIGH_FRACTION,
        gt=0,
        le=1,
    )

    @model_validator(mode="after")
    def _one_way(self) -> PsdArgs:
        check_moduli(self.youngs_modulus, self.shear_modulus, self.poisson_ratio)
        if self.youngs_modulus is None and self.shear_modulus is None:
            raise ArgError(
                "youngs_modulus", 'required (or give shear_modulus), in Pa, e.g. "70 GPa"'
            )
        normal = self.mean_diameter is not None or self.std_dev is not None
        if self.diameters is not None and (normal or self.min_diameter is not None):
            raise ArgError(
                "diameters",
                "give diameters, or mean_diameter with std_dev (optionally min_diameter), or "
                "min_diameter alone: not several",
            )
        if normal and (self.mean_diameter is None or self.std_dev is None):
            missing = "std_dev" if self.std_dev is None else "mean_diameter"
            raise ArgError(missing, "a distribution needs mean_diameter and std_dev")
        if not normal and self.diameters is None and self.min_diameter is None:
            raise ArgError(
                "diameters",
                "required: give diameters, mean_diameter with std_dev, or min_diameter",
            )
        if self.distribution == "lognormal" and self.std_dev is not None and self.std_dev <= 1:
            raise ArgError("std_dev", "a lognormal σ_g is a dimensionless factor > 1")
        if (
            self.distribution == "normal"
            and self.mean_diameter is not None
            and self.std_dev is not None
            and self.min_diameter is None
            and self.mean_diameter - 3 * self.std_dev <= 0
        ):
            raise ArgError(
                "std_dev",
                "σ > d̄/3: a normal distribution predicts non-positive sizes. Give the capped "
                "minimum (min_diameter), as EDEM does, a list of sizes, or a lognormal "
                "distribution",
            )
        return self


class PsdResult(ToolResult):
    governing_diameter: Length = R("Diameter that sets the time step")
    governing_rule: str = R("smallest listed, mean − 3σ, capped minimum or d_g/σ_g³")
    rayleigh_timestep: Time = R("dt_R of the governing diameter")
    rayleigh_timestep_at_mean: Time | None = R("dt_R of the mean diameter", default=None)
    ratio_to_mean: Ratio | None = R("d_gov / d_mean", default=None)
    recommended_timestep: Time = R("rayleigh_fraction · dt_R")
    verdict: Verdict = R(
        "The fraction: ok ≤ 0.2, caution ≤ 0.4, fail above; caution for a normal σ/d̄ > 0.3"
    )


def polydisperse_rayleigh(args: PsdArgs, sheet: CalcSheet) -> PsdResult:
    """Rayleigh time step from the smallest size of a distribution (EDEM's rules)."""
    nu = args.poisson_ratio
    if args.shear_modulus is not None:
        g = args.shear_modulus
        sheet.notes.append(f"Shear modulus given directly: G = {fmt(g, 'Pa')}")
    else:
        assert args.youngs_modulus is not None
        g = shear_modulus(sheet, args.youngs_modulus, nu)
        sheet.references.append(REF_SHEAR)
    mean: float | None
    wide = False
    if args.diameters is not None:
        d_gov, rule = min(args.diameters), "smallest listed"
        mean = sheet.step(
            "d_mean",
            "Σ d_i / n",
            " + ".join(fmt(x, "m") for x in args.diameters) + f" / {len(args.diameters)}",
            sum(args.diameters) / len(args.diameters),
            "m",
        )
        sheet.step("d_gov", "min d_i", ", ".join(fmt(x, "m") for x in args.diameters), d_gov, "m")
        sheet.references.append(REF_MIN)
    elif args.mean_diameter is not None and args.std_dev is not None:
        mean, sd = args.mean_diameter, args.std_dev
        if args.distribution == "lognormal":
            d_tail = sheet.step(
                "d_g/σ_g³", "d_g / σ_g³", f"{fmt(mean, 'm')} / {sig(sd)}³", mean / sd**3, "m"
            )
            rule = "d_g/σ_g³"
            sheet.notes.append(
                "Lognormal: d_g/σ_g³, the 3σ point in log space (an analogy to EDEM's rule)."
            )
        else:
            d_tail = sheet.step(
                "d̄ - 3σ", "d̄ - 3σ", f"{fmt(mean, 'm')} - 3 · {fmt(sd, 'm')}", mean - 3 * sd, "m"
            )
            rule = "mean − 3σ"
            wide = sd / mean > WIDE_NORMAL
            if wide:
                sheet.flag("caution", f"Wide PSD: σ/d̄ = {sig(sd / mean)} > {WIDE_NORMAL:g}")
                sheet.notes.append(
                    f"σ/d̄ = {sig(sd / mean)} > 0.3: a wide normal PSD; the governing size is "
                    "sensitive to the tail."
                )
        d_gov = d_tail
        if args.min_diameter is not None:
            d_gov, rule = args.min_diameter, "capped minimum"
            sheet.notes.append(
                f"Capped minimum {fmt(d_gov, 'm')} governs (EDEM: the lowest capped value), "
                "whichever "
                f"side of {fmt(d_tail, 'm')} it lies."
            )
        sheet.notes.append(
            "σ is taken as number-weighted: the smallest particles set the step, and a "
            "mass-weighted σ under-represents fines."
        )
        sheet.references += [REF_EDEM_PSD, REF_WEIGHTING]
    else:
        assert args.min_diameter is not None
        d_gov, rule, mean = args.min_diameter, "capped minimum", None
        sheet.references.append(REF_EDEM_PSD)
    dt_r = rayleigh_step(sheet, d_gov / 2, args.density, g, nu)
    dt_mean = ratio = None
    if mean is not None:
        dt_mean = sheet.step(
            "dt_R(d_mean)",
            "dt_R · d_mean / d_gov",
            f"{fmt(dt_r, 's')} · {fmt(mean, 'm')} / {fmt(d_gov, 'm')}",
            dt_r * mean / d_gov,
            "s",
        )
        ratio = sheet.step(
            "d_gov/d_mean", "d_gov / d_mean", f"{fmt(d_gov, 'm')} / {fmt(mean, 'm')}", d_gov / mean
        )
    f = args.rayleigh_fraction
    rec = sheet.step("dt", "fraction · dt_R", f"{f:g} · {fmt(dt_r, 's')}", f * dt_r, "s")
    verdict: Verdict = (
        "ok"
        if f <= DEFAULT_RAYLEIGH_FRACTION
        else "caution"
        if f <= RAYLEIGH_CAUTION_FRACTION
        else "fail"
    )
    sheet.thresholds.append(
        f"Fraction of dt_R: ok ≤ {DEFAULT_RAYLEIGH_FRACTION:g}, caution ≤ "
        f"{RAYLEIGH_CAUTION_FRACTION:g}, "
        f"fail above (EDEM) → {verdict}"
    )
    sheet.flag(
        verdict,
        f"Fraction of dt_R: {f:g} > "
        + (
            f"{RAYLEIGH_CAUTION_FRACTION:g}, the caution limit"
            if verdict == "fail"
            else f"{DEFAULT_RAYLEIGH_FRACTION:g}, the ok limit"
        ),
    )
    if wide:
        verdict = worst(verdict, "caution")
        sheet.thresholds.append("Wide normal PSD: caution when σ/d̄ > 0.3 (policy, no source)")
    sheet.notes.append(
        "Sources disagree: LIGGGHTS uses the actual smallest particle, EDEM mean − 3σ of a normal "
        "distribution or its capped minimum; EDEM is followed for distributions, the minimum for "
        "lists. Several materials: compute each and take the smallest step."
    )
    sheet.references.append(REF_EDEM_TIMESTEP)
    return PsdResult(
        governing_diameter=d_gov,
        governing_rule=rule,
        rayleigh_timestep=dt_r,
        rayleigh_timestep_at_mean=dt_mean,
        ratio_to_mean=ratio,
        recommended_timestep=rec,
        verdict=verdict,
    )


POLYDISPERSE_RAYLEIGH: ToolSpec[Any, Any] = ToolSpec(
    name="polydisperse_rayleigh",
    description=(
        "Rayleigh time step of a size distribution: from the smallest listed size, from mean − 3σ "
        "of a normal distribution (EDEM), or from a capped minimum; and the recommended step "
        "(fraction × dt_R, default 0.2)."
    ),
    args_model=PsdArgs,
    result_model=PsdResult,
    func=polydisperse_rayleigh,
    group="Time step",
    headline="rayleigh_timestep",
    example={
        "density": 2500,
        "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25,
        "mean_diameter": "2 mm",
        "std_dev": "0.2 mm",
    },
)
