"""hertz_max_overlap: the peak overlap of an elastic Hertz impact, checked against the radius.

Sources (docs/references.md §R2.1):
- Energy balance ½m*v² = (8/15)E*√R* δ_max^(5/2) for F = (4/3)E*√R* δ^(3/2), hence
  δ_max = (15 m* v² / (16 E* √R*))^(2/5), F_max = (5/4) m* v²/δ_max, a_max = √(R* δ_max)
  (Johnson, Contact Mechanics 1985 §11.4, recalled; checked against ODE integration).
- t_H = 2.943275 δ_max/v exactly, so the approach per step v·dt/δ_max = 2.943275 dt/t_H.
- Overlap band (policy, no solver enforces one): ok ≤ 0.5 % of R_min, caution ≤ 1 %, fail above
  (Cleary 2004 0.1-0.5 %; Lommen et al. 2014 ≤ 1 %; both recalled).
- Steps per contact: ok ≥ 50 (MFiX, MercuryDPM), caution 6-50 (EDEM: at least 6, better 10),
  fail below 6. EDEM's own rule v·dt < δ_max is weaker (t_H/dt > 2.94) and only reported.
"""

from __future__ import annotations

from typing import Any

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    CalcSheet,
    Force,
    Length,
    Mass,
    Pressure,
    Q,
    R,
    Ratio,
    Time,
    ToolResult,
    ToolSpec,
    Velocity,
)
from caec_desktop.tools.check_timestep import MIN_STEPS_PER_CONTACT
from caec_desktop.tools.contact import REF_WALL, STEPS_PER_COLLISION
from caec_desktop.tools.pair import (
    OVERLAP_INTEGRAL,
    TwoBodyArgs,
    effective_mass,
    effective_modulus,
    effective_radius,
    hertz_time_of,
    max_overlap,
)
from caec_desktop.tools.timestep import Verdict, worst
from caec_desktop.tools.units import fmt, sig

DEFAULT_OVERLAP_LIMIT = 0.01
HERTZ_VALIDITY = 0.1
"""δ/R* above which a/R* = √(δ/R*) > 0.32: Hertz's small-strain assumption is badly violated."""

REF_ENERGY = (
    "δ_max = (15 m* v²/(16 E* √R*))^(2/5) from ½m*v² = (8/15)E*√R* δ_max^(5/2): Johnson, Contact "
    "Mechanics (CUP 1985) §11.4 (recalled); checked by ODE integration (docs/references.md §R2.1)"
)
REF_EDEM_OVERLAP = (
    "EDEM help, Estimate Simulation Time: the overlap per step v·t must stay below the maximum "
    "Hertz overlap (help.altair.com/edem/topics/appendix/estimate_simulation_time_c.htm)"
)
REF_BAND = (
    "Overlap band 0.5-1 % of R (policy): Cleary 2004, Eng. Comput. 21:169 (0.1-0.5 %); Lommen, "
    "Schott & Lodewijks 2014, Particuology 12:107 (≤ 1 %), both recalled"
)
REF_PASS_THROUGH = (
    "MercuryDPM LinearViscoelasticNormalSpecies.cc:175-178 getMaximumVelocity: above it "
    "'particles could pass through each other'"
)


class OverlapArgs(TwoBodyArgs):
    impact_velocity: Velocity = fields.impact_velocity(
        "Largest relative normal impact speed (≈ 2·v_max for particle–particle)"
    )
    timestep: Time | None = fields.timestep(
        "DEM time step dt, for the steps-per-contact check", default=None, example=None
    )
    overlap_limit: Ratio = Q(
        "δ_max/R_min that fails (default 0.01; ok up to half of it)",
        default=DEFAULT_OVERLAP_LIMIT,
        gt=0,
        le=0.1,
    )


class OverlapResult(ToolResult):
    effective_radius: Length = R("Effective radius R*")
    effective_mass: Mass = R("Effective mass m*")
    effective_modulus: Pressure = R("Effective modulus E*")
    max_overlap: Length = R("Peak overlap δ_max of the elastic impact")
    overlap_fraction: Ratio = R("δ_max / R_min (wall: δ_max / R₁)")
    overlap_fraction_effective: Ratio = R("δ_max / R*")
    max_force: Force = R("Peak force F_max")
    contact_radius: Length = R("Contact radius at the peak a_max = √(R* δ_max)")
    contact_time: Time = R("Hertz contact time t_H")
    steps_per_contact: Ratio | None = R("t_H / dt (with timestep)", default=None)
    approach_per_step: Ratio | None = R("v·dt / δ_max (with timestep)", default=None)
    verdict: Verdict = R("ok / caution / fail: the overlap band and, with timestep, the steps")


def _overlap_verdict(fraction: float, limit: float) -> Verdict:
    if fraction <= limit / 2:
        return "ok"
    return "caution" if fraction <= limit else "fail"


def _steps_verdict(steps: float) -> Verdict:
    if steps >= STEPS_PER_COLLISION:
        return "ok"
    return "caution" if steps >= MIN_STEPS_PER_CONTACT else "fail"


def hertz_max_overlap(args: OverlapArgs, sheet: CalcSheet) -> OverlapResult:
    """Peak overlap, force and contact radius of an elastic Hertz impact, and their verdict."""
    r_eff, r_min = effective_radius(sheet, args)
    m_eff = effective_mass(sheet, args)
    e_eff = effective_modulus(sheet, args)
    if args.wall:
        sheet.references.append(REF_WALL)
    v, limit = args.impact_velocity, args.overlap_limit
    d = max_overlap(sheet, m_eff, r_eff, e_eff, v)
    fraction = sheet.step(
        "δ/R_min", "δ_max / R_min", f"{fmt(d, 'm')} / {fmt(r_min, 'm')}", d / r_min
    )
    fraction_eff = sheet.step("δ/R*", "δ_max / R*", f"{fmt(d, 'm')} / {fmt(r_eff, 'm')}", d / r_eff)
    f_max = sheet.step(
        "F_max",
        "(5/4) m* v² / δ_max",
        f"1.25 · {fmt(m_eff, 'kg')} · ({fmt(v, 'm/s')})² / {fmt(d, 'm')}",
        1.25 * m_eff * v**2 / d,
        "N",
    )
    a = sheet.step(
        "a_max", "√(R* δ_max)", f"√({fmt(r_eff, 'm')} · {fmt(d, 'm')})", (r_eff * d) ** 0.5, "m"
    )
    t_h = hertz_time_of(sheet, m_eff, r_eff, e_eff, v)
    verdict = sheet.flag(
        _overlap_verdict(fraction, limit),
        f"Overlap: δ_max/R_min = {sig(fraction)} > "
        + (
            f"{sig(limit)}, the caution limit"
            if fraction > limit
            else f"{sig(limit / 2)}, the ok limit"
        ),
    )
    sheet.thresholds.append(
        f"Overlap: ok if δ_max/R_min ≤ {sig(limit / 2)}, caution up to {sig(limit)}, fail above "
        f"(a policy band, no solver enforces one) → {verdict}"
    )
    if verdict == "caution":
        sheet.notes.append(
            "Overlap 0.5-1 % of the radius: usually accepted with a softened modulus for bulk "
            "flow; contact-sensitive results (packing fraction, wall stress, conduction) will "
            "shift."
        )
    elif verdict == "fail":
        sheet.notes.append(
            "Overlap above 1 % of the radius: modulus too soft for this speed. δ_max ∝ E^(-2/5), "
            "so halving δ needs E × 5.66; or check that v really is this high."
        )
    if d >= r_min:
        sheet.notes.append("δ_max ≥ R_min: the particles would pass through each other.")
        sheet.references.append(REF_PASS_THROUGH)
    if fraction_eff > HERTZ_VALIDITY:
        sheet.notes.append(
            f"δ_max/R* = {sig(fraction_eff)} > 0.1: Hertz's small-strain assumption (a ≪ R) is "
            f"badly violated (a/R* = {sig((fraction_eff) ** 0.5)})."
        )
    steps = approach = None
    if args.timestep is not None:
        dt = args.timestep
        steps = sheet.step("n_c", "t_H / dt", f"{fmt(t_h, 's')} / {fmt(dt, 's')}", t_h / dt)
        approach = sheet.step(
            "v·dt/δ_max",
            "v dt / δ_max",
            f"{fmt(v, 'm/s')} · {fmt(dt, 's')} / {fmt(d, 'm')}",
            v * dt / d,
        )
        step_verdict = sheet.flag(
            _steps_verdict(steps),
            f"Steps per contact: t_H/dt = {sig(steps)} < "
            + (
                f"{MIN_STEPS_PER_CONTACT}, the caution limit"
                if steps < MIN_STEPS_PER_CONTACT
                else f"{STEPS_PER_COLLISION}, the ok limit"
            ),
        )
        sheet.thresholds.append(
            f"Steps per contact: ok if t_H/dt ≥ {STEPS_PER_COLLISION} (MFiX, MercuryDPM; "
            f"v·dt/δ_max ≤ {sig(OVERLAP_INTEGRAL / STEPS_PER_COLLISION, 3)}), caution from "
            f"{MIN_STEPS_PER_CONTACT} (EDEM: at least 6, better 10), fail below → {step_verdict}"
        )
        sheet.notes.append(
            "EDEM's own rule, v·dt < δ_max (t_H/dt > 2.94), is weaker: "
            + ("met." if approach < 1 else "not met.")
        )
        sheet.references.append(REF_EDEM_OVERLAP)
        verdict = worst(verdict, step_verdict)
    sheet.notes.append(
        f"t_H = {OVERLAP_INTEGRAL} δ_max/v exactly; part 1's 2.868266 is 2.943275·(15/16)^(2/5)."
    )
    sheet.notes.append(
        "δ_max is an upper bound for dissipative contacts (damping lowers the peak); plastic "
        "yield is not modelled: for real moduli check it with contact_stress_check."
    )
    sheet.references += [REF_ENERGY, REF_BAND]
    return OverlapResult(
        effective_radius=r_eff,
        effective_mass=m_eff,
        effective_modulus=e_eff,
        max_overlap=d,
        overlap_fraction=fraction,
        overlap_fraction_effective=fraction_eff,
        max_force=f_max,
        contact_radius=a,
        contact_time=t_h,
        steps_per_contact=steps,
        approach_per_step=approach,
        verdict=verdict,
    )


HERTZ_MAX_OVERLAP: ToolSpec[Any, Any] = ToolSpec(
    name="hertz_max_overlap",
    description=(
        "Peak overlap δ_max = (15m*v²/(16E*√R*))^(2/5) of an elastic Hertz impact (two spheres "
        "of one or two materials, or a sphere on a wall), as a fraction of the radius: ok ≤ 0.5 %, "
        "caution ≤ 1 %, else fail; with a time step also the steps per contact."
    ),
    args_model=OverlapArgs,
    result_model=OverlapResult,
    func=hertz_max_overlap,
    group="Contact",
    headline="max_overlap",
    example={
        "particle_radius": "1 mm",
        "density": 2500,
        "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25,
        "impact_velocity": "1 m/s",
        "timestep": "1e-7 s",
    },
)
