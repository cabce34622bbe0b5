"""Restitution → damping, and the linear spring–dashpot contact (stiffness ↔ collision time).

Sources (docs/references.md §1.5):
- Damping ratio ζ = -ln e / sqrt(π² + ln² e); e = 0 is critical damping, ζ = 1
  (MFiX `check_solids_dem.f:659-666`, LIGGGHTS `normal_model_hooke.h:274`).
- Collision time t_c = sqrt(m_eff/k) sqrt(π² + ln² e), damping η = 2ζ sqrt(k m_eff); inverse
  k = m_eff (π² + ln² e)/t_c², η = -2 m_eff ln e / t_c (MFiX `:673`; MercuryDPM
  `LinearViscoelasticNormalSpecies.cc:137-165, 225-246`, whose "mass" is 2 m_eff).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Damping,
    Mass,
    Q,
    R,
    Ratio,
    Stiffness,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.contact import STEPS_PER_COLLISION
from caec_desktop.tools.units import fmt

REF_DAMPING = (
    "ζ = -ln e / sqrt(π² + ln² e), e = 0 → critical: MFiX check_solids_dem.f:659-666; "
    "LIGGGHTS normal_model_hooke.h:274"
)
REF_SPRING = (
    "t_c = sqrt(m/k)·sqrt(π² + ln² e), η = -2 m ln e / t_c: MFiX check_solids_dem.f:673; "
    "MercuryDPM LinearViscoelasticNormalSpecies.cc:137-165, 225-246"
)


def damping_ratio(restitution: float) -> float:
    """ζ = -ln e / sqrt(π² + ln² e), with ζ = 1 (critical) at e = 0 where ln e → -∞."""
    if restitution == 0.0:
        return 1.0
    log_e = math.log(restitution)
    return -log_e / math.sqrt(math.pi**2 + log_e**2) + 0.0  # + 0.0 turns -0.0 (e = 1) into 0.0


# --- restitution_to_damping --------------------------------------------------------------------


class RestitutionArgs(ToolArgs):
    restitution: Ratio = Q("Coefficient of restitution e (0 ≤ e ≤ 1)", ge=0, le=1, example=0.9)


class RestitutionResult(ToolResult):
    damping_ratio: Ratio = R("Damping ratio ζ of the linear spring–dashpot (1 = critical)")


def restitution_to_damping(args: RestitutionArgs, sheet: CalcSheet) -> RestitutionResult:
    """Damping ratio that gives restitution e in a linear spring–dashpot contact."""
    e = args.restitution
    if e == 0.0:
        zeta = sheet.step("ζ", "1 (e = 0: critical damping)", "e = 0", 1.0)
        sheet.notes.append("e = 0: ln e → -∞, so ζ is set to 1 (critical), as MFiX does.")
    else:
        zeta = sheet.step(
            "ζ",
            "-ln e / sqrt(π² + ln² e)",
            f"-ln {e:g} / sqrt(π² + ln² {e:g})",
            damping_ratio(e),
        )
    sheet.notes.append(
        "Hertz (Tsuji) models use β = ln e / sqrt(ln² e + π²) = -ζ with the factor 2·sqrt(5/6) "
        "(LIGGGHTS normal_model_hertz.h, EDEM Hertz–Mindlin)."
    )
    sheet.references.append(REF_DAMPING)
    return RestitutionResult(damping_ratio=zeta)


RESTITUTION_TO_DAMPING: ToolSpec[Any, Any] = ToolSpec(
    name="restitution_to_damping",
    description=(
        "Damping ratio ζ = -ln e/sqrt(π² + ln² e) for a coefficient of restitution e "
        "(e = 0 → ζ = 1, critical)."
    ),
    args_model=RestitutionArgs,
    result_model=RestitutionResult,
    func=restitution_to_damping,
    group="Contact",
    headline="damping_ratio",
    example={"restitution": 0.9},
)


# --- linear_spring_contact ---------------------------------------------------------------------


class SpringArgs(ToolArgs):
    effective_mass: Mass = Q("Effective mass m_eff = m_i m_j/(m_i + m_j)", gt=0, example="5 mg")
    restitution: Ratio = Q(
        "Coefficient of restitution e (0 < e ≤ 1; at e = 0 the contact is critically damped and "
        "never separates, t_c → ∞)",
        gt=0,
        le=1,
        example=0.9,
    )
    stiffness: Stiffness | None = Q(
        "Normal spring stiffness k (give this or collision_time)", default=None, gt=0
    )
    collision_time: Time | None = Q(
        "Collision duration t_c (give this or stiffness)", default=None, gt=0
    )

    range_hints: ClassVar[dict[str, str]] = {
        "restitution": (
            "at e = 0 the contact is critically damped and never separates: t_c = "
            "sqrt(m/k)·sqrt(π² + ln² e) → ∞ (docs/references.md §1.5); use restitution_to_damping "
            "for ζ"
        )
    }


class SpringResult(ToolResult):
    zero_allowed = frozenset({"damping_coefficient"})  # e = 1: no damping
    collision_time: Time = R("Collision duration t_c")
    stiffness: Stiffness = R("Normal spring stiffness k")
    damping_coefficient: Damping = R("Normal damping coefficient η")
    damping_ratio: Ratio = R("Damping ratio ζ")
    recommended_timestep: Time = R(f"t_c / {STEPS_PER_COLLISION}")


def linear_spring_contact(args: SpringArgs, sheet: CalcSheet) -> SpringResult:
    """Linear spring–dashpot: stiffness ↔ collision time, and the damping for restitution e."""
    m, e = args.effective_mass, args.restitution
    if args.stiffness is not None and args.collision_time is not None:
        raise ArgError("collision_time", "give either stiffness or collision_time, not both")
    log_e = math.log(e)
    root = math.sqrt(math.pi**2 + log_e**2)
    if args.stiffness is not None:
        k = args.stiffness
        t_c = sheet.step(
            "t_c",
            "sqrt(m/k) · sqrt(π² + ln² e)",
            f"sqrt({fmt(m, 'kg')} / {fmt(k, 'N/m')}) · sqrt(π² + ln² {e:g})",
            math.sqrt(m / k) * root,
            "s",
        )
    elif args.collision_time is not None:
        t_c = args.collision_time
        k = sheet.step(
            "k",
            "m (π² + ln² e) / t_c²",
            f"{fmt(m, 'kg')} · (π² + ln² {e:g}) / ({fmt(t_c, 's')})²",
            m * root**2 / t_c**2,
            "N/m",
        )
    else:
        raise ArgError("stiffness", "required: give stiffness [N/m] or collision_time [s]")
    zeta = sheet.step(
        "ζ", "-ln e / sqrt(π² + ln² e)", f"-ln {e:g} / sqrt(π² + ln² {e:g})", damping_ratio(e)
    )
    eta = sheet.step(
        "η",
        "2 ζ sqrt(k m)",
        f"2 · {zeta:.4g} · sqrt({fmt(k, 'N/m')} · {fmt(m, 'kg')})",
        2.0 * zeta * math.sqrt(k * m),
        "N*s/m",
    )
    dt = sheet.step(
        "dt",
        f"t_c / {STEPS_PER_COLLISION}",
        f"{fmt(t_c, 's')} / {STEPS_PER_COLLISION}",
        t_c / STEPS_PER_COLLISION,
        "s",
    )
    sheet.thresholds.append(
        f"dt ≤ t_c/{STEPS_PER_COLLISION} (MFiX DTSOLID_FACTOR and MercuryDPM default; MFiX refuses "
        "fewer than 10 steps per collision)"
    )
    sheet.references.append(REF_SPRING)
    return SpringResult(
        collision_time=t_c,
        stiffness=k,
        damping_coefficient=eta,
        damping_ratio=zeta,
        recommended_timestep=dt,
    )


LINEAR_SPRING_CONTACT: ToolSpec[Any, Any] = ToolSpec(
    name="linear_spring_contact",
    description=(
        "Linear spring–dashpot contact: from stiffness k or collision time t_c (exactly one) "
        "and restitution e, the other one, the damping coefficient η and ratio ζ."
    ),
    args_model=SpringArgs,
    result_model=SpringResult,
    func=linear_spring_contact,
    group="Contact",
    headline="collision_time",
    example={"effective_mass": "5 mg", "restitution": 0.9, "stiffness": "1e5 N/m"},
)
