"""Two bodies of two materials in contact: R*, m*, E*, G*, and the contact_pair tool.

Sources (docs/references.md §R2.0, §R2.2):
- 1/R* = 1/R₁ + 1/R₂, 1/m* = 1/m₁ + 1/m₂, 1/E* = (1-ν₁²)/E₁ + (1-ν₂²)/E₂ (part 1 §1.3);
  sphere–wall: R* = R₁, m* = m₁, the wall's E and ν in the E* sum, a rigid wall adds 0
  (MFiX `check_solids_dem.f:955-959`).
- 1/G* = (2-ν₁)/G₁ + (2-ν₂)/G₂ with G = E/(2(1+ν)): EDEM "Hertz-Mindlin (no slip)" page;
  LIGGGHTS `global_properties.cpp:463` writes it with E (`2(2-ν)(1+ν)/E`).
- Hertz F = (4/3)E*√R* δ^(3/2); tangent S_n = 2E*√(R*δ) (EDEM), secant k_n = (4/3)E*√(R*δ)
  (LIGGGHTS `kn`), Mindlin no-slip S_t = 8G*√(R*δ) (LIGGGHTS `normal_model_hertz.h:231-235`).
- Linear spring "equivalent" to Hertz at speed v: equal peak overlap k_δ = m*v²/δ_max² (derived)
  or equal contact time k_t = π² m*/t_H²; k_t/k_δ = (π/2.943275)² = 1.13930 for any input.
Body 2 defaults to body 1 (equal spheres of one material need no body-2 input).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Density,
    Force,
    Length,
    Mass,
    Pressure,
    Q,
    R,
    Ratio,
    Stiffness,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Velocity,
)
from caec_desktop.tools.contact import HERTZ_TIME_CONSTANT, REF_HERTZ, REF_WALL
from caec_desktop.tools.units import fmt, sig

OVERLAP_INTEGRAL = 2.943275
"""2∫₀¹(1-x^(5/2))^(-1/2)dx: t_H = 2.943275·δ_max/v exactly (docs/references.md §R2.1)."""
OVERLAP_WARNING = 0.01
"""δ/R_min above which the overlap is flagged (docs/references.md §R2.1, a policy band)."""

REF_G = (
    "1/G* = (2-ν₁)/G₁ + (2-ν₂)/G₂, G = E/(2(1+ν)): EDEM help, Hertz-Mindlin (no slip) Model "
    "(help.altair.com/edem/topics/creator_tree_physics/the_hertz_mindlin_no_slip_model_r.htm); "
    "LIGGGHTS global_properties.cpp:463"
)
REF_E = "1/E* = (1-ν₁²)/E₁ + (1-ν₂²)/E₂: LIGGGHTS global_properties.cpp:432"
REF_STIFFNESS = (
    "S_n = 2E*√(R*δ), k_n = (4/3)E*√(R*δ), S_t = 8G*√(R*δ): LIGGGHTS normal_model_hertz.h:221, "
    "231-235; EDEM Hertz-Mindlin (no slip) Model; Mindlin 1949, J. Appl. Mech. 16:259 (recalled)"
)
REF_EQUIVALENT = (
    "Equivalent linear spring: k_δ = m*v²/δ_max² (equal peak overlap, derived), k_t = π²m*/t_H² "
    "(equal contact time); k_t/k_δ = (π/2.943275)² = 1.13930 (docs/references.md §R2.2)"
)


@dataclass(frozen=True)
class Pair:
    """Effective quantities of one contact (SI); None where the inputs do not give them."""

    radius: float
    r_min: float
    mass: float | None = None
    modulus: float | None = None
    shear: float | None = None
    shear_1: float | None = None
    shear_2: float | None = None
    same_material: bool = True


def check_partner(args: Any) -> None:
    """ArgError for body-2 inputs with wall=true, or wall inputs without it."""
    if args.wall:
        for name in (
            "other_radius",
            "other_density",
            "other_youngs_modulus",
            "other_poisson_ratio",
        ):
            if getattr(args, name, None) is not None:
                raise ArgError(name, "not used for a particle–wall contact (wall=true)")
    else:
        for name in ("wall_youngs_modulus", "wall_poisson_ratio"):
            if getattr(args, name, None) is not None:
                raise ArgError(name, "only used for a particle–wall contact; set wall=true")


def _given(args: Any, name: str, fallback: float | None) -> float | None:
    value = getattr(args, name, None)
    return fallback if value is None else float(value)


def effective_radius(sheet: CalcSheet, args: Any) -> tuple[float, float]:
    """(R*, R_min) on the sheet."""
    r1 = float(args.particle_radius)
    if args.wall:
        return sheet.step("R*", "R₁ (wall)", fmt(r1, "m"), r1, "m"), r1
    r2 = _given(args, "other_radius", r1)
    assert r2 is not None
    value = sheet.step(
        "R*",
        "R₁ R₂ / (R₁ + R₂)",
        f"{fmt(r1, 'm')} · {fmt(r2, 'm')} / ({fmt(r1, 'm')} + {fmt(r2, 'm')})",
        r1 * r2 / (r1 + r2),
        "m",
    )
    return value, min(r1, r2)


def effective_mass(sheet: CalcSheet, args: Any) -> float:
    """m* on the sheet (m₁ for a wall); needs `density`."""
    r1, rho1 = float(args.particle_radius), float(args.density)
    m1 = sheet.step(
        "m₁",
        "(4/3) π R₁³ ρ₁",
        f"(4/3) π ({fmt(r1, 'm')})³ · {fmt(rho1, 'kg/m^3')}",
        4.0 / 3.0 * math.pi * r1**3 * rho1,
        "kg",
    )
    if args.wall:
        return sheet.step("m*", "m₁ (wall)", fmt(m1, "kg"), m1, "kg")
    r2 = _given(args, "other_radius", r1)
    rho2 = _given(args, "other_density", rho1)
    assert r2 is not None and rho2 is not None
    if r2 == r1 and rho2 == rho1:
        m2 = m1
    else:
        m2 = sheet.step(
            "m₂",
            "(4/3) π R₂³ ρ₂",
            f"(4/3) π ({fmt(r2, 'm')})³ · {fmt(rho2, 'kg/m^3')}",
            4.0 / 3.0 * math.pi * r2**3 * rho2,
            "kg",
        )
    return sheet.step(
        "m*",
        "m₁ m₂ / (m₁ + m₂)",
        f"{fmt(m1, 'kg')} · {fmt(m2, 'kg')} / ({fmt(m1, 'kg')} + {fmt(m2, 'kg')})",
        m1 * m2 / (m1 + m2),
        "kg",
    )


def _second_body(args: Any) -> tuple[float | None, float]:
    """(E₂, ν₂) of body 2 or the wall; E₂ None for a rigid wall."""
    e1, nu1 = float(args.youngs_modulus), float(args.poisson_ratio)
    if args.wall:
        e2 = _given(args, "wall_youngs_modulus", None)
        nu2 = _given(args, "wall_poisson_ratio", nu1)
    else:
        e2 = _given(args, "other_youngs_modulus", e1)
        nu2 = _given(args, "other_poisson_ratio", nu1)
    assert nu2 is not None
    return e2, nu2


def _rigid_note(sheet: CalcSheet, args: Any) -> None:
    if args.wall and getattr(args, "wall_youngs_modulus", None) is None:
        sheet.notes.append("Rigid wall (no wall_youngs_modulus): its term in 1/E* and 1/G* is 0.")


def effective_modulus(sheet: CalcSheet, args: Any) -> float:
    """E* on the sheet: 1/E* = (1-ν₁²)/E₁ + (1-ν₂²)/E₂ (a rigid wall adds 0)."""
    e1, nu1 = float(args.youngs_modulus), float(args.poisson_ratio)
    e2, nu2 = _second_body(args)
    first = f"(1 - {nu1:g}²)/{fmt(e1, 'Pa')}"
    if e2 is None:
        _rigid_note(sheet, args)
        value = sheet.step(
            "E*", "E₁ / (1 - ν₁²) (rigid wall)", first, 1.0 / ((1 - nu1**2) / e1), "Pa"
        )
    else:
        value = sheet.step(
            "E*",
            "1 / ((1 - ν₁²)/E₁ + (1 - ν₂²)/E₂)",
            f"1 / ({first} + (1 - {nu2:g}²)/{fmt(e2, 'Pa')})",
            1.0 / ((1 - nu1**2) / e1 + (1 - nu2**2) / e2),
            "Pa",
        )
    sheet.references.append(REF_E)
    return value


def effective_shear(sheet: CalcSheet, args: Any) -> tuple[float, float, float | None]:
    """(G*, G₁, G₂) on the sheet: 1/G* = (2-ν₁)/G₁ + (2-ν₂)/G₂ (a rigid wall adds 0)."""
    e1, nu1 = float(args.youngs_modulus), float(args.poisson_ratio)
    e2, nu2 = _second_body(args)
    g1 = sheet.step(
        "G₁",
        "E₁ / (2 (1 + ν₁))",
        f"{fmt(e1, 'Pa')} / (2 (1 + {nu1:g}))",
        e1 / (2 * (1 + nu1)),
        "Pa",
    )
    g2 = None
    if e2 is None:
        g_eff = sheet.step(
            "G*",
            "G₁ / (2 - ν₁) (rigid wall)",
            f"{fmt(g1, 'Pa')} / (2 - {nu1:g})",
            g1 / (2 - nu1),
            "Pa",
        )
    else:
        g2 = sheet.step(
            "G₂",
            "E₂ / (2 (1 + ν₂))",
            f"{fmt(e2, 'Pa')} / (2 (1 + {nu2:g}))",
            e2 / (2 * (1 + nu2)),
            "Pa",
        )
        g_eff = sheet.step(
            "G*",
            "1 / ((2 - ν₁)/G₁ + (2 - ν₂)/G₂)",
            f"1 / ((2 - {nu1:g})/{fmt(g1, 'Pa')} + (2 - {nu2:g})/{fmt(g2, 'Pa')})",
            1.0 / ((2 - nu1) / g1 + (2 - nu2) / g2),
            "Pa",
        )
    sheet.references.append(REF_G)
    return g_eff, g1, g2


def same_material(args: Any) -> bool:
    """Both bodies of one material (a wall never is)."""
    if args.wall:
        return False
    return all(
        getattr(args, f"other_{n}", None) in (None, getattr(args, n))
        for n in ("youngs_modulus", "poisson_ratio")
    )


def max_overlap(sheet: CalcSheet, m_eff: float, r_eff: float, e_eff: float, v: float) -> float:
    """δ_max = (15 m* v² / (16 E* √R*))^(2/5) on the sheet (energy balance, Johnson 1985 §11.4)."""
    return sheet.step(
        "δ_max",
        "(15 m* v² / (16 E* √R*))^(2/5)",
        f"(15 · {fmt(m_eff, 'kg')} · ({fmt(v, 'm/s')})² / (16 · {fmt(e_eff, 'Pa')} · "
        f"√{fmt(r_eff, 'm')}))^(2/5)",
        (15.0 * m_eff * v**2 / (16.0 * e_eff * math.sqrt(r_eff))) ** 0.4,
        "m",
    )


def hertz_time_of(sheet: CalcSheet, m_eff: float, r_eff: float, e_eff: float, v: float) -> float:
    """t_H = 2.868266 (m*²/(R* E*² v))^(1/5) on the sheet (part 1 §1.3)."""
    value = HERTZ_TIME_CONSTANT * float((m_eff**2 / (r_eff * e_eff**2 * v)) ** 0.2)
    sheet.step(
        "t_H",
        "2.868266 (m*² / (R* E*² v))^(1/5)",
        f"2.868266 · (({fmt(m_eff, 'kg')})² / ({fmt(r_eff, 'm')} · ({fmt(e_eff, 'Pa')})² · "
        f"{fmt(v, 'm/s')}))^(1/5)",
        value,
        "s",
    )
    sheet.references.append(REF_HERTZ)
    return value


# --- contact_pair ------------------------------------------------------------------------------


class TwoBodyArgs(ToolArgs):
    """Body 1, body 2 (each `other_*` defaults to body 1's) and the wall, in this order, as every
    two-material contact tool takes them; wall inputs only with wall=true, body 2's only without."""

    particle_radius: Length = fields.particle_radius("Radius R₁ of body 1")
    density: Density = fields.density("Density ρ₁ of body 1")
    youngs_modulus: Pressure = fields.youngs_modulus("Young's modulus E₁ of body 1")
    poisson_ratio: Ratio = fields.poisson_ratio("Poisson ratio ν₁ of body 1 (-1 < ν ≤ 0.5)")
    other_radius: Length | None = fields.other_radius("Radius R₂ of the other sphere (default: R₁)")
    other_density: Density | None = fields.other_density()
    other_youngs_modulus: Pressure | None = fields.other_youngs_modulus()
    other_poisson_ratio: Ratio | None = fields.other_poisson_ratio()
    wall: bool = fields.wall()
    wall_youngs_modulus: Pressure | None = fields.wall_youngs_modulus()
    wall_poisson_ratio: Ratio | None = fields.wall_poisson_ratio()

    @model_validator(mode="after")
    def _partner(self) -> TwoBodyArgs:
        check_partner(self)
        return self


class ContactPairArgs(TwoBodyArgs):
    overlap: Length | None = Q(
        "Overlap δ for the Hertz and Mindlin stiffnesses (omitted: no stiffness outputs)",
        default=None,
        gt=0,
    )
    impact_velocity: Velocity | None = fields.impact_velocity(
        "Impact speed v for the equivalent linear spring (omitted: no equivalent spring)",
        default=None,
        example=None,
    )
    equivalent_definition: Literal["overlap", "contact_time"] = Q(
        "Headline equivalent linear spring: equal peak overlap (k_δ) or equal contact time (k_t);"
        " both are reported",
        default="overlap",
    )


class ContactPairResult(ToolResult):
    effective_radius: Length = R("Effective radius R*")
    effective_mass: Mass = R("Effective mass m*")
    effective_modulus: Pressure = R("Effective modulus E*")
    shear_modulus_1: Pressure = R("Shear modulus G₁ of body 1")
    shear_modulus_2: Pressure | None = R(
        "Shear modulus G₂ of body 2 or the wall (null: rigid)", default=None
    )
    effective_shear_modulus: Pressure = R("Effective shear modulus G*")
    stiffness_ratio: Ratio = R("S_t/S_n = 4G*/E* (tangent over tangent normal stiffness)")
    normal_force: Force | None = R("Hertz normal force F_n at the overlap", default=None)
    normal_stiffness_tangent: Stiffness | None = R(
        "Tangent normal stiffness S_n = 2E*√(R*δ)", default=None
    )
    normal_stiffness_secant: Stiffness | None = R(
        "Secant normal stiffness k_n = F_n/δ", default=None
    )
    tangential_stiffness: Stiffness | None = R(
        "Mindlin no-slip tangential stiffness S_t", default=None
    )
    max_overlap: Length | None = R("Peak Hertz overlap δ_max at the impact speed", default=None)
    linear_stiffness_equal_overlap: Stiffness | None = R("k_δ = m*v²/δ_max²", default=None)
    linear_stiffness_equal_contact_time: Stiffness | None = R("k_t = π² m*/t_H²", default=None)
    equivalent_linear_stiffness: Stiffness | None = R(
        "The headline one (equivalent_definition)", default=None
    )
    linear_contact_time: Time | None = R("π√(m*/k_δ)", default=None)
    hertz_contact_time: Time | None = R("Hertz contact time t_H at the impact speed", default=None)


def contact_pair(args: ContactPairArgs, sheet: CalcSheet) -> ContactPairResult:
    """Effective quantities and stiffnesses of a contact between two materials (or a wall)."""
    r_eff, r_min = effective_radius(sheet, args)
    m_eff = effective_mass(sheet, args)
    e_eff = effective_modulus(sheet, args)
    g_eff, g1, g2 = effective_shear(sheet, args)
    if args.wall:
        sheet.references.append(REF_WALL)
    ratio = sheet.step(
        "S_t/S_n", "4 G* / E*", f"4 · {fmt(g_eff, 'Pa')} / {fmt(e_eff, 'Pa')}", 4 * g_eff / e_eff
    )
    if same_material(args):
        nu = args.poisson_ratio
        sheet.notes.append(
            f"One material: S_t/S_n = 2(1-ν)/(2-ν) = {sig(2 * (1 - nu) / (2 - nu))} (Di Renzo & "
            "Di Maio 2004, recalled)."
        )
    sheet.notes.append(
        "S_t/S_n is tangent over tangent. LIGGGHTS' kt/kn is tangent over secant, 6G*/E* = "
        f"{sig(6 * g_eff / e_eff)}, 1.5 times larger: always name the normal stiffness."
    )
    out: dict[str, Any] = {}
    if args.overlap is not None:
        d = args.overlap
        root = math.sqrt(r_eff * d)
        out["normal_force"] = sheet.step(
            "F_n",
            "(4/3) E* √R* δ^(3/2)",
            f"(4/3) · {fmt(e_eff, 'Pa')} · √{fmt(r_eff, 'm')} · ({fmt(d, 'm')})^(3/2)",
            4.0 / 3.0 * e_eff * math.sqrt(r_eff) * d**1.5,
            "N",
        )
        out["normal_stiffness_tangent"] = sheet.step(
            "S_n",
            "2 E* √(R* δ)",
            f"2 · {fmt(e_eff, 'Pa')} · √({fmt(r_eff, 'm')} · {fmt(d, 'm')})",
            2.0 * e_eff * root,
            "N/m",
        )
        out["normal_stiffness_secant"] = sheet.step(
            "k_n",
            "(4/3) E* √(R* δ)",
            f"(4/3) · {fmt(e_eff, 'Pa')} · √({fmt(r_eff, 'm')} · {fmt(d, 'm')})",
            4.0 / 3.0 * e_eff * root,
            "N/m",
        )
        out["tangential_stiffness"] = sheet.step(
            "S_t",
            "8 G* √(R* δ)",
            f"8 · {fmt(g_eff, 'Pa')} · √({fmt(r_eff, 'm')} · {fmt(d, 'm')})",
            8.0 * g_eff * root,
            "N/m",
        )
        if d / r_min > OVERLAP_WARNING:
            sheet.notes.append(
                f"δ/R_min = {sig(d / r_min)} > {OVERLAP_WARNING:g}: overlap above 1 % of the "
                "radius; Hertz assumes a small contact (a ≪ R*)."
            )
        sheet.notes.append(
            "S_t is Mindlin's no-slip value, an upper bound until sliding (|F_t| = μF_n) starts."
        )
        sheet.references.append(REF_STIFFNESS)
    if args.impact_velocity is not None:
        v = args.impact_velocity
        d_max = max_overlap(sheet, m_eff, r_eff, e_eff, v)
        out["max_overlap"] = d_max
        k_d = sheet.step(
            "k_δ",
            "m* v² / δ_max²",
            f"{fmt(m_eff, 'kg')} · ({fmt(v, 'm/s')})² / ({fmt(d_max, 'm')})²",
            m_eff * v**2 / d_max**2,
            "N/m",
        )
        t_h = hertz_time_of(sheet, m_eff, r_eff, e_eff, v)
        k_t = sheet.step(
            "k_t",
            "π² m* / t_H²",
            f"π² · {fmt(m_eff, 'kg')} / ({fmt(t_h, 's')})²",
            math.pi**2 * m_eff / t_h**2,
            "N/m",
        )
        out["linear_contact_time"] = sheet.step(
            "t_lin",
            "π √(m* / k_δ)",
            f"π √({fmt(m_eff, 'kg')} / {fmt(k_d, 'N/m')})",
            math.pi * math.sqrt(m_eff / k_d),
            "s",
        )
        out.update(
            linear_stiffness_equal_overlap=k_d,
            linear_stiffness_equal_contact_time=k_t,
            hertz_contact_time=t_h,
            equivalent_linear_stiffness=k_d if args.equivalent_definition == "overlap" else k_t,
        )
        sheet.notes.append(
            f"Equivalent linear spring at v = {fmt(v, 'm/s')} (k ∝ v^(2/5)): a spring tuned at one "
            "speed over-predicts overlaps at higher speeds. Headline: "
            + (
                "k_δ, equal peak overlap (the overlap and stress checks depend on δ_max)"
                if args.equivalent_definition == "overlap"
                else "k_t, equal contact time (use it to take a time step from t_c)"
            )
            + "; k_t/k_δ = 1.13930 always."
        )
        sheet.references.append(REF_EQUIVALENT)
    sheet.notes.append(
        "Hertz and Mindlin: elastic, homogeneous, isotropic, smooth spheres, small contact radius."
    )
    return ContactPairResult(
        effective_radius=r_eff,
        effective_mass=m_eff,
        effective_modulus=e_eff,
        shear_modulus_1=g1,
        shear_modulus_2=g2,
        effective_shear_modulus=g_eff,
        stiffness_ratio=ratio,
        **out,
    )


CONTACT_PAIR: ToolSpec[Any, Any] = ToolSpec(
    name="contact_pair",
    description=(
        "Effective R*, m*, E*, G* of two spheres of two materials (or a sphere on a wall); with "
        "an overlap the Hertz normal (tangent and secant) and Mindlin tangential stiffnesses and "
        "S_t/S_n = 4G*/E*; with an impact speed the equivalent linear spring (equal peak overlap "
        "or equal contact time)."
    ),
    args_model=ContactPairArgs,
    result_model=ContactPairResult,
    func=contact_pair,
    group="Contact",
    headline="effective_modulus",
    example={
        "particle_radius": "2 mm",
        "density": 7850,
        "youngs_modulus": "210 GPa",
        "poisson_ratio": 0.3,
        "other_radius": "1 mm",
        "other_density": 2500,
        "other_youngs_modulus": "70 GPa",
        "other_poisson_ratio": 0.25,
        "overlap": "1 um",
        "impact_velocity": "1 m/s",
    },
)
