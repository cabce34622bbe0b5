"""contact_stress_check: peak Hertz pressure of a sphere contact against first yield.

Hertz sphere contact (K. L. Johnson, Contact Mechanics, Cambridge University Press 1985, §4.2):
a = (3 F R* / (4 E*))^(1/3), p0 = 3F/(2π a²). First yield starts below the surface when
p0 ≈ 1.60 σ_y (von Mises, ν ≈ 0.3; Johnson 1985 §6.2 — coefficient recalled, it varies slightly
with ν). R* and E* come from contact.py: a sphere on an equal sphere of the same material by
default (R* = R/2, E* = E/(2(1-ν²))), another radius, or a wall.
"""

from __future__ import annotations

import math
from typing import Any

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    CalcSheet,
    Force,
    Length,
    Pressure,
    Q,
    R,
    Ratio,
    ToolArgs,
    ToolResult,
    ToolSpec,
)
from caec_desktop.tools.contact import Partner, hertz_geometry
from caec_desktop.tools.timestep import Verdict
from caec_desktop.tools.units import fmt, sig

FIRST_YIELD_FACTOR = 1.6
"""p0 at first yield / σ_y for sphere contact (Johnson 1985 §6.2: 1.60 for ν = 0.3, von Mises)."""
STRESS_CAUTION = 0.8
"""Utilisation above which contact_stress_check says caution: CAEC's own margin, from no source
(the sheet and the tool description say so)."""
REF_JOHNSON = (
    "K. L. Johnson, Contact Mechanics, Cambridge University Press, 1985: Hertz sphere contact "
    "(§4.2) and onset of yield p0 ≈ 1.60 σ_y (§6.2)"
)


# --- contact_stress_check ----------------------------------------------------------------------


class StressArgs(ToolArgs):
    normal_force: Force = Q("Normal contact force F", gt=0, example="10 N")
    particle_radius: Length = fields.particle_radius()
    youngs_modulus: Pressure = fields.youngs_modulus()
    poisson_ratio: Ratio = fields.poisson_ratio()
    yield_stress: Pressure = Q("Yield stress σ_y of the particle material", gt=0, example="250 MPa")
    safety_factor: Ratio = Q("Safety factor on first yield (≥ 1)", ge=1, example=1.5)
    other_radius: Length | None = fields.other_radius()
    wall: bool = fields.wall()
    wall_youngs_modulus: Pressure | None = fields.wall_youngs_modulus()
    wall_poisson_ratio: Ratio | None = fields.wall_poisson_ratio()


class StressResult(ToolResult):
    contact_radius: Length = R("Hertz contact radius a")
    max_contact_pressure: Pressure = R("Peak Hertz pressure p0")
    allowable_pressure: Pressure = R("1.6 σ_y / safety factor")
    utilization: Ratio = R("p0 / allowable")
    verdict: Verdict = R("ok ≤ 0.8 < caution ≤ 1 < fail (0.8: CAEC's own margin)")


def contact_stress_check(args: StressArgs, sheet: CalcSheet) -> StressResult:
    """Peak Hertz pressure of a sphere contact against the first-yield limit p0 = 1.6 σ_y.

    A sphere on an equal sphere of the same material by default (R* = R/2, E* = E/(2(1-ν²))),
    a sphere of another size (other_radius) or a sphere on a wall (wall=true, rigid unless the
    wall's E is given). Only the particle's yield is checked, not the wall's.
    """
    pair = hertz_geometry(
        sheet,
        args.particle_radius,
        args.youngs_modulus,
        args.poisson_ratio,
        Partner(args.other_radius, args.wall, args.wall_youngs_modulus, args.wall_poisson_ratio),
    )
    f = args.normal_force
    a = sheet.step(
        "a",
        "(3 F R* / (4 E*))^(1/3)",
        f"(3 · {fmt(f, 'N')} · {fmt(pair.radius, 'm')} / (4 · {fmt(pair.modulus, 'Pa')}))^(1/3)",
        (3.0 * f * pair.radius / (4.0 * pair.modulus)) ** (1.0 / 3.0),
        "m",
    )
    p0 = sheet.step(
        "p0",
        "3 F / (2 π a²)",
        f"3 · {fmt(f, 'N')} / (2 π ({fmt(a, 'm')})²)",
        3.0 * f / (2.0 * math.pi * a**2),
        "Pa",
    )
    allowable = sheet.step(
        "p_allow",
        f"{FIRST_YIELD_FACTOR} σ_y / SF",
        f"{FIRST_YIELD_FACTOR} · {fmt(args.yield_stress, 'Pa')} / {args.safety_factor:g}",
        FIRST_YIELD_FACTOR * args.yield_stress / args.safety_factor,
        "Pa",
    )
    utilization = sheet.step(
        "U", "p0 / p_allow", f"{fmt(p0, 'Pa')} / {fmt(allowable, 'Pa')}", p0 / allowable
    )
    verdict: Verdict = (
        "fail" if utilization > 1.0 else "caution" if utilization > STRESS_CAUTION else "ok"
    )
    sheet.flag(
        verdict,
        f"U = p0/p_allow = {sig(utilization)} > "
        + ("1 (first yield)" if utilization > 1.0 else f"{STRESS_CAUTION:g}, CAEC's margin"),
    )
    sheet.thresholds += [
        f"fail if U > 1: first yield at p0 ≈ {FIRST_YIELD_FACTOR} σ_y (Johnson 1985 §6.2)",
        f"caution if {STRESS_CAUTION:g} < U ≤ 1, ok if U ≤ {STRESS_CAUTION:g}: the "
        f"{STRESS_CAUTION:g} is CAEC's own margin, not from Johnson 1985 or any other source",
    ]
    sheet.notes.append(
        "Elastic Hertz theory: valid for small contact radius (a ≪ R) and frictionless, smooth "
        "surfaces. Past first yield the plastic zone grows until the mean pressure nears 3 σ_y "
        "(full plasticity, Johnson 1985 §6.2, recalled)."
    )
    sheet.references.append(REF_JOHNSON)
    return StressResult(
        contact_radius=a,
        max_contact_pressure=p0,
        allowable_pressure=allowable,
        utilization=utilization,
        verdict=verdict,
    )


CONTACT_STRESS_CHECK: ToolSpec[Any, Any] = ToolSpec(
    name="contact_stress_check",
    description=(
        "Peak Hertz contact pressure p0 of a sphere pressed on an equal sphere (or a wall) by "
        "force F, checked against first yield p0 = 1.6·σ_y (Johnson 1985) divided by a safety "
        "factor; utilization above 0.8 is flagged 'caution' (CAEC's own margin, uncited)."
    ),
    args_model=StressArgs,
    result_model=StressResult,
    func=contact_stress_check,
    group="Contact",
    headline="max_contact_pressure",
    example={
        "normal_force": "0.1 N",
        "particle_radius": "1 mm",
        "youngs_modulus": "210 GPa",
        "poisson_ratio": 0.3,
        "yield_stress": "1.5 GPa",
        "safety_factor": 1.5,
    },
)
