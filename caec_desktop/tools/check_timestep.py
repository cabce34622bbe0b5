"""check_timestep_heuristic: is a chosen DEM time step safe against Rayleigh and Hertz limits?

Thresholds (docs/references.md §1.2, §1.3):
- Rayleigh: ok if dt ≤ f·dt_R (default f = 0.2: EDEM auto time step, COMSOL), caution up to
  0.4·dt_R (EDEM's upper "normal range"; its advice for low coordination numbers), fail above.
  f may be raised to 1.0 at most; above 0.4 the caution band is empty and anything past f fails,
  so dt > dt_R always fails.
- Hertz (only when impact_velocity is given): steps per contact n = t_H/dt; fail below 6, caution
  below 10 (EDEM: "at least six time points ... though ten is more desirable"). MFiX and MercuryDPM
  use 50 steps per collision for accuracy; that is reported, not enforced.
The verdict is the worse of the two checks.

The Hertz time is for two equal spheres of the particle material with the textbook reduced mass
m* = m/2, R* = R/2, E* = E/(2(1-ν²)) and the relative approach speed as given (EDEM's form).
LIGGGHTS' `fix check/timestep/gran` uses m* = m, which makes its Hertz time 2^(2/5) = 1.32× longer,
and takes v_rel = 2·v_max; give the relative speed (≈ 2× the largest particle speed) here.
The Hertz formula itself lives in contact.py; the Rayleigh helpers in timestep.py.
"""

from __future__ import annotations

from typing import Any

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
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
    Velocity,
)
from caec_desktop.tools.contact import STEPS_PER_COLLISION, Partner, hertz_pair, hertz_time
from caec_desktop.tools.timestep import (
    DEFAULT_RAYLEIGH_FRACTION,
    REF_EDEM_TIMESTEP,
    REF_SHEAR,
    Verdict,
    rayleigh_step,
    shear_modulus,
    worst,
)
from caec_desktop.tools.units import fmt, sig

RAYLEIGH_CAUTION_FRACTION = 0.4
"""EDEM: 40 % of T_R for low coordination numbers, the top of its 10-40 % normal range."""
MIN_STEPS_PER_CONTACT = 6
"""EDEM: at least six time points per contact (three in, three out)."""
GOOD_STEPS_PER_CONTACT = 10
"""EDEM: ten is more desirable; MFiX refuses DTSOLID_FACTOR < 10."""


class CheckArgs(ToolArgs):
    particle_radius: Length = fields.particle_radius("Radius of the smallest particle")
    density: Density = fields.density()
    youngs_modulus: Pressure = fields.youngs_modulus("Young's modulus E used in the simulation")
    poisson_ratio: Ratio = fields.poisson_ratio()
    timestep: Time = fields.timestep("The DEM time step dt to check", example="2e-7 s")
    max_rayleigh_fraction: Ratio = Q(
        "Largest dt/dt_R that passes (EDEM/COMSOL 0.2)",
        default=DEFAULT_RAYLEIGH_FRACTION,
        gt=0,
        le=1,
    )
    impact_velocity: Velocity | None = fields.impact_velocity(
        "Largest relative impact speed, for the Hertz contact-time check",
        default=None,
        example=None,
    )


class CheckResult(ToolResult):
    rayleigh_timestep: Time = R("Rayleigh time step dt_R")
    rayleigh_fraction: Ratio = R("dt / dt_R")
    ok: bool = R("True when the verdict is ok")
    verdict: Verdict = R("ok / caution / fail, the worse of the Rayleigh and Hertz checks")
    recommended_timestep: Time = R(
        "max_rayleigh_fraction·dt_R, or t_H/10 when smaller (impact_velocity given)"
    )
    hertz_contact_time: Time | None = R("Hertz contact time t_H (with impact_velocity)")
    steps_per_contact: Ratio | None = R("t_H / dt (with impact_velocity)")


def _rayleigh_verdict(fraction: float, ok_limit: float) -> Verdict:
    if fraction <= ok_limit:
        return "ok"
    return "caution" if fraction <= max(ok_limit, RAYLEIGH_CAUTION_FRACTION) else "fail"


def _hertz_verdict(steps: float) -> Verdict:
    if steps < MIN_STEPS_PER_CONTACT:
        return "fail"
    return "caution" if steps < GOOD_STEPS_PER_CONTACT else "ok"


def check_timestep_heuristic(args: CheckArgs, sheet: CalcSheet) -> CheckResult:
    """Check dt against the Rayleigh step and, given an impact speed, the Hertz contact time."""
    dt, f = args.timestep, args.max_rayleigh_fraction
    g = shear_modulus(sheet, args.youngs_modulus, args.poisson_ratio)
    sheet.references.append(REF_SHEAR)
    dt_r = rayleigh_step(sheet, args.particle_radius, args.density, g, args.poisson_ratio)
    fraction = sheet.step("dt/dt_R", "dt / dt_R", f"{fmt(dt, 's')} / {fmt(dt_r, 's')}", dt / dt_r)
    caution_limit = max(f, RAYLEIGH_CAUTION_FRACTION)
    verdict = _rayleigh_verdict(fraction, f)
    sheet.flag(
        verdict,
        f"Rayleigh: dt/dt_R = {sig(fraction)} > {caution_limit:g}, the caution limit"
        if verdict == "fail"
        else f"Rayleigh: dt/dt_R = {sig(fraction)} > {f:g}, the ok limit",
    )
    sheet.thresholds.append(
        f"Rayleigh: ok if dt/dt_R ≤ {f:g}; caution up to {caution_limit:g}; fail above "
        f"(EDEM 20 % auto step, 10-40 % normal range) → {verdict}"
    )
    sheet.references.append(REF_EDEM_TIMESTEP)
    recommended = f * dt_r
    t_h = steps = None
    if args.impact_velocity is not None:
        pair = hertz_pair(
            sheet,
            args.particle_radius,
            args.density,
            args.youngs_modulus,
            args.poisson_ratio,
            Partner(),
        )
        t_h = hertz_time(sheet, pair, args.impact_velocity)
        steps = sheet.step("n_c", "t_H / dt", f"{fmt(t_h, 's')} / {fmt(dt, 's')}", t_h / dt)
        hertz = sheet.flag(
            _hertz_verdict(steps),
            f"Hertz: t_H/dt = {sig(steps)} < "
            + (
                f"{MIN_STEPS_PER_CONTACT} steps per contact (fail limit)"
                if steps < MIN_STEPS_PER_CONTACT
                else f"{GOOD_STEPS_PER_CONTACT} steps per contact (ok limit)"
            ),
        )
        sheet.thresholds.append(
            f"Hertz: fail below {MIN_STEPS_PER_CONTACT} steps per contact, caution below "
            f"{GOOD_STEPS_PER_CONTACT} (EDEM) → {hertz}; MFiX/MercuryDPM use "
            f"{STEPS_PER_COLLISION} for accuracy (dt ≤ {fmt(t_h / STEPS_PER_COLLISION, 's')})"
        )
        sheet.notes.append(
            "Hertz time for equal spheres, textbook m* = m/2 (EDEM); LIGGGHTS' check uses m* = m "
            "(2^(2/5) = 1.32× longer). The speed is the relative approach speed (≈ 2·v_max)."
        )
        verdict = worst(verdict, hertz)
        recommended = min(recommended, t_h / GOOD_STEPS_PER_CONTACT)
    sheet.step(
        "dt_rec",
        "min(f · dt_R, t_H / 10)" if t_h is not None else "f · dt_R",
        f"{f:g} · {fmt(dt_r, 's')}" + (f", {fmt(t_h, 's')} / 10" if t_h is not None else ""),
        recommended,
        "s",
    )
    return CheckResult(
        rayleigh_timestep=dt_r,
        rayleigh_fraction=fraction,
        ok=verdict == "ok",
        verdict=verdict,
        recommended_timestep=recommended,
        hertz_contact_time=t_h,
        steps_per_contact=steps,
    )


CHECK_TIMESTEP_HEURISTIC: ToolSpec[Any, Any] = ToolSpec(
    name="check_timestep_heuristic",
    description=(
        "Check a DEM time step: dt/dt_R against the Rayleigh step (ok ≤ 0.2, caution ≤ 0.4, "
        "else fail) and, with impact_velocity, steps per Hertz contact (fail < 6, "
        "caution < 10)."
    ),
    args_model=CheckArgs,
    result_model=CheckResult,
    func=check_timestep_heuristic,
    group="Time step",
    headline="rayleigh_fraction",
    example={
        "particle_radius": "1 mm",
        "density": 2500,
        "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25,
        "timestep": "2e-7 s",
        "impact_velocity": "2 m/s",
    },
)
