"""rolling_resistance: the EPSD (type C) rolling model's stiffness, torque limit, damping, and
whether the rolling spring tightens the time step.

Sources (docs/references.md §R2.10; LIGGGHTS `rolling_model_epsd.h`, verified):
- k_r = 2.25 k_n μ_r² R*² (line 282; a brief writing R* instead of R*² is dimensionally wrong:
  k_r is in N·m/rad); EPSD3 lets the prefactor vary (`rolling_model_epsd3.h:213`).
- M_r,max = μ_r R* |F_n| (line 292); damping C_r = η_r 2√(I_r k_r) (line 324).
- I_r = 1.4 (m_iR_i²)(m_jR_j²)/(m_iR_i² + m_jR_j²) for two spheres, 1.4 m R*² on a wall
  (lines 143-148, 209-215).
- For Hertz, LIGGGHTS' k_n is the secant (4/3)E*√(R*δ) (`normal_model_hertz.h:234`), F_n = k_n δ.
- Explicit stability of a spring–inertia oscillator: Δt ≤ (2/ω)(√(1+ζ²) - ζ) (Belytschko, Liu &
  Moran 2000, recalled); compared with Δt_n = 2/ω_n from the same k_n. Equal spheres
  ω_r/ω_n = 0.633866 μ_r, sphere on a wall 1.26773 μ_r (derived).
"""

from __future__ import annotations

import math
from typing import Any

from pydantic import model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    AngularVelocity,
    ArgError,
    CalcSheet,
    Density,
    Force,
    Inertia,
    Length,
    Pressure,
    Q,
    R,
    Ratio,
    RollingDamping,
    RollingStiffness,
    Stiffness,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Torque,
)
from caec_desktop.tools.pair import (
    check_partner,
    effective_mass,
    effective_modulus,
    effective_radius,
)
from caec_desktop.tools.timestep import Verdict, worst
from caec_desktop.tools.units import fmt, sig

PREFACTOR = 2.25
HIGH_MU_R = 0.5

REF_EPSD = (
    "EPSD rolling model: LIGGGHTS rolling_model_epsd.h:143-148,209-215 (I_r), 282 (k_r = "
    "2.25 kn μ_r² R*²), 292 (M_max = |F_n| R* μ_r), 324 (C_r); doc "
    "gran_rolling_friction_epsd.txt:33 "
    "(2.25 for 3D, after Ai et al. 2011, Powder Technol. 206:269)"
)
REF_HERTZ_KN = "Hertz k_n = (4/3)E*√(R*δ) (secant, LIGGGHTS normal_model_hertz.h:234,264)"
REF_STABILITY = (
    "Δt ≤ (2/ω)(√(1+ζ²) - ζ) for explicit central differences: Belytschko, Liu & Moran 2000, "
    "Nonlinear Finite Elements, explicit time integration (recalled)"
)


class RollingArgs(ToolArgs):
    rolling_friction: Ratio = Q(
        "Rolling friction coefficient μ_r (> 0; caution above 0.5)", gt=0, example=0.1
    )
    normal_stiffness: Stiffness | None = Q(
        "Normal contact stiffness k_n (linear model; or give youngs_modulus, poisson_ratio and "
        "overlap for Hertz)",
        default=None,
        gt=0,
        example="1e5 N/m",
    )
    youngs_modulus: Pressure | None = fields.youngs_modulus(
        "Young's modulus E (Hertz: with poisson_ratio and overlap)", default=None, example=None
    )
    poisson_ratio: Ratio | None = fields.poisson_ratio(
        "Poisson ratio ν (Hertz; -1 < ν ≤ 0.5)", default=None, example=None
    )
    overlap: Length | None = Q(
        "Overlap δ (Hertz: k_n = (4/3)E*√(R*δ), F_n = k_n δ)", default=None, gt=0
    )
    particle_radius: Length = fields.particle_radius()
    other_radius: Length | None = fields.other_radius()
    wall: bool = fields.wall()
    wall_youngs_modulus: Pressure | None = fields.wall_youngs_modulus()
    wall_poisson_ratio: Ratio | None = fields.wall_poisson_ratio()
    density: Density | None = fields.density(
        "Particle density (for the rolling inertia, frequencies and time steps)",
        default=None,
        example=None,
    )
    normal_force: Force | None = Q(
        "Normal force F_n, for the torque limit (Hertz default: k_n δ)", default=None, gt=0
    )
    rolling_damping: Ratio | None = Q(
        "Rolling damping η_r, fraction of critical (0-1)", default=None, ge=0, le=1
    )
    timestep: Time | None = fields.timestep("DEM time step dt to check", default=None, example=None)
    stiffness_prefactor: Ratio = Q(
        "Prefactor c_r of k_r (2.25 for 3-D, EPSD3 lets it vary)", default=PREFACTOR, gt=0
    )

    @model_validator(mode="after")
    def _stiffness(self) -> RollingArgs:
        check_partner(self)
        hertz = {
            "youngs_modulus": self.youngs_modulus,
            "poisson_ratio": self.poisson_ratio,
            "overlap": self.overlap,
        }
        given = [k for k, v in hertz.items() if v is not None]
        if self.normal_stiffness is not None and given:
            raise ArgError(given[0], "give normal_stiffness (linear) or the Hertz inputs, not both")
        if self.normal_stiffness is None and len(given) < len(hertz):
            missing = next(k for k, v in hertz.items() if v is None)
            raise ArgError(
                "normal_stiffness" if not given else missing,
                "required: give normal_stiffness (N/m), or youngs_modulus, poisson_ratio and "
                "overlap",
            )
        if self.timestep is not None and self.density is None:
            raise ArgError("density", "the time-step check needs the particle density")
        return self


class RollingResult(ToolResult):
    effective_radius: Length = R("Effective radius R*")
    normal_stiffness: Stiffness = R("k_n used (given, or the Hertz secant)")
    normal_force: Force | None = R("F_n used (given, or k_n δ for Hertz)", default=None)
    rolling_stiffness: RollingStiffness = R("k_r = c_r k_n μ_r² R*²")
    max_rolling_torque: Torque | None = R("M_r,max = μ_r R* |F_n|", default=None)
    mobilisation_angle: Ratio | None = R("θ_m = M_r,max / k_r [rad]", default=None)
    rolling_inertia: Inertia | None = R("I_r (LIGGGHTS EPSD)", default=None)
    rolling_frequency: AngularVelocity | None = R("ω_r = √(k_r / I_r)", default=None)
    normal_frequency: AngularVelocity | None = R("ω_n = √(k_n / m*)", default=None)
    frequency_ratio: Ratio | None = R("ω_r / ω_n", default=None)
    critical_rolling_damping: RollingDamping | None = R("2√(I_r k_r)", default=None)
    rolling_damping_coefficient: RollingDamping | None = R("C_r = η_r 2√(I_r k_r)", default=None)
    timestep_limit_rolling: Time | None = R("2/ω_r (undamped)", default=None)
    timestep_limit_rolling_damped: Time | None = R("(2/ω_r)(√(1+η_r²) - η_r)", default=None)
    timestep_limit_normal: Time | None = R("2/ω_n with the same k_n", default=None)
    verdict: Verdict = R("fail if dt > the damped rolling limit; caution if ω_r > ω_n or μ_r > 0.5")


def rolling_resistance(args: RollingArgs, sheet: CalcSheet) -> RollingResult:
    """EPSD rolling stiffness, torque limit, damping and the time step it allows."""
    mu_r = args.rolling_friction
    r_eff, _ = effective_radius(sheet, args)
    f_n = args.normal_force
    if args.normal_stiffness is not None:
        k_n = args.normal_stiffness
    else:
        assert args.overlap is not None
        e_eff = effective_modulus(sheet, args)
        delta = args.overlap
        k_n = sheet.step(
            "k_n",
            "(4/3) E* √(R* δ)",
            f"(4/3) · {fmt(e_eff, 'Pa')} · √({fmt(r_eff, 'm')} · {fmt(delta, 'm')})",
            4.0 / 3.0 * e_eff * math.sqrt(r_eff * delta),
            "N/m",
        )
        if f_n is None:
            f_n = sheet.step(
                "F_n", "k_n δ", f"{fmt(k_n, 'N/m')} · {fmt(delta, 'm')}", k_n * delta, "N"
            )
        sheet.notes.append(
            f"Hertz: k_r follows k_n, which varies with the overlap; δ = {fmt(delta, 'm')} used."
        )
        sheet.references.append(REF_HERTZ_KN)
    c = args.stiffness_prefactor
    k_r = sheet.step(
        "k_r",
        "c_r k_n μ_r² R*²",
        f"{sig(c)} · {fmt(k_n, 'N/m')} · {sig(mu_r)}² · ({fmt(r_eff, 'm')})²",
        c * k_n * mu_r**2 * r_eff**2,
        "N*m/rad",
    )
    sheet.notes.append(
        "k_r uses R*² as LIGGGHTS' rolling_model_epsd.h:282 does (k_r is in N·m/rad); a form "
        "with R* once, sometimes quoted, is dimensionally wrong."
    )
    out: dict[str, Any] = {}
    if f_n is not None:
        m_max = out["max_rolling_torque"] = sheet.step(
            "M_r,max",
            "μ_r R* |F_n|",
            f"{sig(mu_r)} · {fmt(r_eff, 'm')} · {fmt(f_n, 'N')}",
            mu_r * r_eff * f_n,
            "N*m",
        )
        out["mobilisation_angle"] = sheet.step(
            "θ_m", "M_r,max / k_r", f"{sig(m_max)} N·m / {sig(k_r)} N·m/rad", m_max / k_r, "rad"
        )
    else:
        sheet.notes.append("No normal_force: the torque limit and mobilisation angle are omitted.")
    verdict: Verdict = "ok"
    if mu_r > HIGH_MU_R:
        verdict = sheet.flag("caution", f"μ_r = {sig(mu_r)} > {HIGH_MU_R:g}, unusually high")
        sheet.notes.append(
            f"μ_r = {sig(mu_r)} > 0.5: unusually high (calibrated values are 0.01-0.3)."
        )
    if args.density is not None:
        rho, r1 = args.density, args.particle_radius
        m1 = 4.0 / 3.0 * math.pi * r1**3 * rho
        if args.wall:
            i_r = sheet.step(
                "I_r",
                "1.4 m₁ R*²",
                f"1.4 · {fmt(m1, 'kg')} · ({fmt(r_eff, 'm')})²",
                1.4 * m1 * r_eff**2,
                "kg*m^2",
            )
        else:
            r2 = r1 if args.other_radius is None else args.other_radius
            a, b = m1 * r1**2, 4.0 / 3.0 * math.pi * r2**3 * rho * r2**2
            i_r = sheet.step(
                "I_r",
                "1.4 (m₁R₁²)(m₂R₂²) / (m₁R₁² + m₂R₂²)",
                f"1.4 · {sig(a)} · {sig(b)} / ({sig(a)} + {sig(b)}) kg·m²",
                1.4 * a * b / (a + b),
                "kg*m^2",
            )
        m_eff = effective_mass(sheet, args)
        w_r = sheet.step(
            "ω_r", "√(k_r / I_r)", f"√({sig(k_r)} / {sig(i_r)})", math.sqrt(k_r / i_r), "rad/s"
        )
        w_n = sheet.step(
            "ω_n",
            "√(k_n / m*)",
            f"√({fmt(k_n, 'N/m')} / {fmt(m_eff, 'kg')})",
            math.sqrt(k_n / m_eff),
            "rad/s",
        )
        ratio = sheet.step("ω_r/ω_n", "ω_r / ω_n", f"{sig(w_r)} / {sig(w_n)}", w_r / w_n)
        crit = sheet.step(
            "C_r,crit",
            "2 √(I_r k_r)",
            f"2 √({sig(i_r)} · {sig(k_r)})",
            2.0 * math.sqrt(i_r * k_r),
            "N*m*s/rad",
        )
        zeta = args.rolling_damping or 0.0
        dt_r = sheet.step("Δt_r", "2 / ω_r", f"2 / {sig(w_r)}", 2.0 / w_r, "s")
        dt_rd = sheet.step(
            "Δt_r,damped",
            "(2/ω_r)(√(1 + ζ²) - ζ)",
            f"(2/{sig(w_r)})(√(1 + {sig(zeta)}²) - {sig(zeta)})",
            2.0 / w_r * (math.sqrt(1.0 + zeta**2) - zeta),
            "s",
        )
        dt_n = sheet.step("Δt_n", "2 / ω_n", f"2 / {sig(w_n)}", 2.0 / w_n, "s")
        out.update(
            rolling_inertia=i_r,
            rolling_frequency=w_r,
            normal_frequency=w_n,
            frequency_ratio=ratio,
            critical_rolling_damping=crit,
            timestep_limit_rolling=dt_r,
            timestep_limit_rolling_damped=dt_rd,
            timestep_limit_normal=dt_n,
        )
        if args.rolling_damping is not None:
            out["rolling_damping_coefficient"] = sheet.step(
                "C_r", "η_r C_r,crit", f"{sig(zeta)} · {sig(crit)}", zeta * crit, "N*m*s/rad"
            )
        if ratio > 1:
            verdict = worst(
                verdict,
                sheet.flag("caution", f"ω_r/ω_n = {sig(ratio)} > 1: the rolling limit governs"),
            )
            sheet.notes.append(
                "Rolling spring stiffer than the normal contact: the rolling limit governs "
                "the time step."
            )
        else:
            sheet.notes.append(
                "ω_r < ω_n: the rolling spring adds no time-step restriction (μ_r < 1.578 for "
                "equal "
                "spheres, < 0.789 on a wall)."
            )
        if args.timestep is not None:
            step_verdict: Verdict = "fail" if args.timestep > dt_rd else "ok"
            sheet.flag(
                step_verdict,
                f"dt = {fmt(args.timestep, 's')} > {fmt(dt_rd, 's')}, the damped rolling limit",
            )
            sheet.thresholds.append(
                f"dt = {fmt(args.timestep, 's')} against the damped rolling limit "
                f"{fmt(dt_rd, 's')}: fail if larger → {step_verdict}"
            )
            verdict = worst(verdict, step_verdict)
        sheet.notes.append(
            "For Hertz the true normal frequency uses the tangent stiffness (1.5 k_n): the "
            "comparison with Δt_n is conservative."
        )
        sheet.references.append(REF_STABILITY)
    else:
        sheet.notes.append("No density: the inertia, frequencies and time-step limits are omitted.")
    sheet.notes.append(
        "EPSD is a 3-D sphere model; EDEM's default rolling friction is a different (constant "
        "torque, type A) model: μ_r does not transfer one-to-one."
    )
    sheet.references.append(REF_EPSD)
    return RollingResult(
        effective_radius=r_eff,
        normal_stiffness=k_n,
        normal_force=f_n,
        rolling_stiffness=k_r,
        verdict=verdict,
        **out,
    )


ROLLING_RESISTANCE: ToolSpec[Any, Any] = ToolSpec(
    name="rolling_resistance",
    description=(
        "EPSD (type C) rolling resistance: rolling stiffness k_r = 2.25·k_n·μ_r²·R*², torque limit "
        "μ_r·R*·F_n, rolling inertia, damping and the time-step limit of the rolling spring "
        "against the normal one."
    ),
    args_model=RollingArgs,
    result_model=RollingResult,
    func=rolling_resistance,
    group="Contact",
    headline="rolling_stiffness",
    example={
        "rolling_friction": 0.1,
        "normal_stiffness": "1e5 N/m",
        "particle_radius": "1 mm",
        "density": 2500,
        "normal_force": "1 N",
        "rolling_damping": 0.3,
    },
)
