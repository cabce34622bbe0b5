"""Granular flow: inertial number and rotating-drum regimes (flow_regime), silo discharge by the
Beverloo correlation (beverloo_discharge).

Sources (docs/references.md §R2.8, §R2.9; all recalled, not checked, unless said):
- I = γ̇ d/√(P/ρ_s) (GDR MiDi 2004; da Cruz et al. 2005): quasi-static below 1e-3, dense flow up
  to 0.1, collisional above. μ(I) = μ_s + (μ₂ - μ_s)/(I₀/I + 1) with Jop, Forterre & Pouliquen
  2006 glass-bead values tan 20.9°, tan 32.76°, 0.279 (form verified in the Basilisk sandbox).
- Fr = ω²R/g (Mellmann 2001; some authors write ω√(R/g) = n/n_c, also reported); Mellmann's
  Table 1 ranges overlap, so every match is returned and filtered by the filling degree.
- W = C ρ_b √g (D₀ - k d)^(5/2) (Beverloo et al. 1961: C = 0.58, k = 1.4; Nedderman et al. 1982:
  C 0.55-0.65, k ≈ 1.5 for spheres, 2.9 angular). Defaults C = 0.58, k = 1.5, both printed.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import Field, model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    Acceleration,
    AngularVelocity,
    ArgError,
    CalcSheet,
    Density,
    Length,
    Mass,
    Pressure,
    Q,
    R,
    Rate,
    Ratio,
    RotationSpeed,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Unit,
)
from caec_desktop.tools.timestep import Verdict, worst
from caec_desktop.tools.units import fmt, sig

MassRate = Annotated[float, Unit("kg/s")]
MassRateHour = Annotated[float, Unit("kg/h")]
VolumeRate = Annotated[float, Unit("m^3/s")]

QUASI_STATIC = 1e-3
DENSE = 1e-1
MU_I_CAUTION = 0.5
MU_S = math.tan(math.radians(20.9))
MU_2 = math.tan(math.radians(32.76))
I_0 = 0.279

DRUM_REGIMES: tuple[tuple[str, float, float, str, float | None, float | None], ...] = (
    # name, Fr low (exclusive), Fr high (exclusive; inf = open), filling text, f low, f high
    ("slipping", 0.0, 1e-4, "f < 0.1", None, 0.1),
    ("slumping", 1e-5, 1e-3, "f < 0.1", None, 0.1),
    ("rolling", 1e-4, 1e-2, "f > 0.1", 0.1, None),
    ("cascading", 1e-3, 1e-1, "f > 0.2", 0.2, None),
    ("cataracting", 0.1, 1.0, "f > 0.2", 0.2, None),
    ("centrifuging", 1.0, math.inf, "f > 0.2", 0.2, None),
)
"""Mellmann 2001 Table 1 (recalled): Fr ranges overlap; centrifuging is Fr ≥ 1."""

REF_INERTIAL = (
    "I = γ̇d/√(P/ρ_s); quasi-static < 1e-3 ≤ dense ≤ 0.1 < collisional: GDR MiDi 2004, Eur. Phys. "
    "J. E 14:341; da Cruz et al. 2005, Phys. Rev. E 72:021309 (recalled)"
)
REF_MU_I = (
    "μ(I) = μ_s + (μ₂ - μ_s)/(I₀/I + 1): Jop, Forterre & Pouliquen 2006, Nature 441:727 "
    "(glass-bead "
    "values recalled; form as in basilisk-C sandbox/M1EMN/Exemples/granular.h)"
)
REF_FROUDE = (
    "Fr = ω²R/g and drum regimes: Mellmann 2001, Powder Technol. 118:251, Table 1 (recalled)"
)
REF_BEVERLOO = (
    "W = C ρ_b √g (D₀ - k d)^(5/2): Beverloo, Leniger & van de Velde 1961, Chem. Eng. Sci. 15:260 "
    "(C 0.58, k 1.4); Nedderman et al. 1982, Chem. Eng. Sci. 37:1597 (C 0.55-0.65, k ≈ 1.5); "
    "Nedderman 1992 ch. 10 (all recalled)"
)


class FlowArgs(ToolArgs):
    shear_rate: Rate | None = Q("Local shear rate γ̇", default=None, ge=0)
    particle_diameter: Length | None = fields.particle_diameter(default=None, example=None)
    pressure: Pressure | None = Q("Local confining normal stress P", default=None, gt=0)
    density: Density | None = fields.density(
        "Solid density ρ_s (not bulk)", default=None, example=None
    )
    mu_s: Ratio = Q("μ(I): static friction μ_s (Jop et al. 2006 glass beads)", default=MU_S, gt=0)
    mu_2: Ratio = Q("μ(I): limiting friction μ₂ > μ_s", default=MU_2, gt=0)
    I_0: Ratio = Q("μ(I): I₀", default=I_0, gt=0)
    drum_radius: Length | None = Q("Inner drum radius R", default=None, gt=0)
    rotation_speed: RotationSpeed | None = Q(
        "Drum speed n (or angular_velocity)", default=None, gt=0
    )
    angular_velocity: AngularVelocity | None = Q(
        "Drum angular velocity ω (or rotation_speed)", default=None, gt=0
    )
    filling_degree: Ratio | None = Q(
        "Filled fraction f of the drum volume (0 < f < 1)", default=None, gt=0, lt=1
    )
    gravity: Acceleration = fields.gravity()

    @model_validator(mode="after")
    def _groups(self) -> FlowArgs:
        i_group = {
            "shear_rate": self.shear_rate,
            "particle_diameter": self.particle_diameter,
            "pressure": self.pressure,
            "density": self.density,
        }
        drum = (
            self.drum_radius is not None
            or self.rotation_speed is not None
            or self.angular_velocity is not None
        )
        given = [k for k, v in i_group.items() if v is not None]
        sheared = self.shear_rate is not None or self.pressure is not None
        if given and len(given) < len(i_group) and (sheared or not drum):
            missing = next(k for k, v in i_group.items() if v is None)
            raise ArgError(
                missing,
                "the inertial number needs shear_rate, particle_diameter, pressure and density",
            )
        if self.rotation_speed is not None and self.angular_velocity is not None:
            raise ArgError("angular_velocity", "give rotation_speed or angular_velocity, not both")
        if drum and self.drum_radius is None:
            raise ArgError("drum_radius", "the drum Froude number needs the inner drum radius")
        if not given and not drum:
            raise ArgError(
                "shear_rate",
                "required: give shear_rate, particle_diameter, pressure and density (inertial "
                "number), or drum_radius and rotation_speed (drum Froude number; drum_radius "
                "alone gives the critical speed)",
            )
        if self.mu_2 <= self.mu_s:
            raise ArgError("mu_2", f"must exceed mu_s = {sig(self.mu_s)}")
        return self


class FlowResult(ToolResult):
    inertial_number: Ratio | None = R("I = γ̇ d / √(P/ρ_s)", default=None)
    inertial_regime: str | None = R("quasi-static, dense flow or collisional", default=None)
    mu_of_I: Ratio | None = R("μ(I) with the given μ_s, μ₂, I₀", default=None)
    angular_velocity: AngularVelocity | None = R("Drum angular velocity ω", default=None)
    froude_number: Ratio | None = R("Fr = ω²R/g", default=None)
    critical_speed: RotationSpeed | None = R(
        "n_c = (60/2π)√(g/R), the speed at Fr = 1", default=None
    )
    fraction_of_critical_speed: Ratio | None = R("n/n_c = √Fr", default=None)
    verdict: Verdict = R("caution when I > 0.5 (μ(I) beyond its fitted range), else ok")
    drum_regimes: list[str] | None = Field(
        default=None, description="Mellmann regimes whose Fr range (and filling) match"
    )


def _critical_speed(sheet: CalcSheet, r: float, g: float) -> float:
    """n_c = (60/2π)√(g/R), the drum speed at Fr = 1 (Mellmann 2001)."""
    return sheet.step(
        "n_c",
        "(60/2π) √(g / R)",
        f"(60/2π) √({sig(g)} m/s² / {fmt(r, 'm')})",
        60.0 / (2.0 * math.pi) * math.sqrt(g / r),
        "rpm",
    )


def flow_regime(args: FlowArgs, sheet: CalcSheet) -> FlowResult:
    """Inertial number and regime of a sheared flow; Froude number and regimes of a drum."""
    out: dict[str, Any] = {}
    if args.shear_rate is None and args.pressure is None:
        unused = [n for n in ("particle_diameter", "density") if getattr(args, n) is not None]
        if unused:
            sheet.notes.append(
                f"{' and '.join(unused)} not used: only the inertial number takes "
                f"{'them' if len(unused) > 1 else 'it'} (with shear_rate and pressure)."
            )
    if (
        args.shear_rate is not None
        and args.particle_diameter is not None
        and args.pressure is not None
        and args.density is not None
    ):
        rate, d, p, rho = args.shear_rate, args.particle_diameter, args.pressure, args.density
        i = out["inertial_number"] = sheet.step(
            "I",
            "γ̇ d / √(P / ρ_s)",
            f"{sig(rate)} /s · {fmt(d, 'm')} / √({fmt(p, 'Pa')} / {fmt(rho, 'kg/m^3')})",
            rate * d / math.sqrt(p / rho),
        )
        if i < QUASI_STATIC:
            regime = "quasi-static"
            sheet.notes.append(
                "Quasi-static: rate-independent, friction-dominated; a time step from the Rayleigh "
                "criterion (rayleigh_timestep) is appropriate; results insensitive to shear rate."
            )
        elif i <= DENSE:
            regime = "dense flow"
            sheet.notes.append("Dense flow: μ(I) rheology applies.")
        else:
            regime = "collisional"
            sheet.notes.append(
                "Collisional (gas-like): binary collisions dominate; size the time step from the "
                "Hertz contact time at the collision speed (hertz_contact_time); μ(I) outside its "
                "fitted range."
            )
        out["inertial_regime"] = regime
        out["mu_of_I"] = sheet.step(
            "μ(I)",
            "μ_s + (μ₂ - μ_s) / (I₀/I + 1)",
            f"{sig(args.mu_s)} + ({sig(args.mu_2)} - {sig(args.mu_s)}) / "
            f"({sig(args.I_0)}/{sig(i)} + 1)",
            args.mu_s + (args.mu_2 - args.mu_s) * i / (args.I_0 + i) if i > 0 else args.mu_s,
        )
        if i > MU_I_CAUTION:
            sheet.notes.append(f"I = {sig(i)} > 0.5: μ(I) beyond its fitted range (caution).")
        sheet.notes.append(
            "I uses the local γ̇ and P (a chute or drum surface layer: P ≈ φρ_s g h cosθ). The μ(I) "
            "parameters are material-specific; the defaults are Jop et al.'s glass beads."
        )
        sheet.thresholds.append(
            f"Inertial number: quasi-static < {QUASI_STATIC:g} ≤ dense flow ≤ {DENSE:g} < "
            f"collisional → {regime}"
        )
        sheet.references += [REF_INERTIAL, REF_MU_I]
    if (
        args.drum_radius is not None
        and args.rotation_speed is None
        and args.angular_velocity is None
    ):
        out["critical_speed"] = _critical_speed(sheet, args.drum_radius, args.gravity)
        sheet.notes.append(
            "No drum speed given: the critical speed only; the Froude number and the regimes need "
            "rotation_speed (rpm) or angular_velocity."
        )
        sheet.references.append(REF_FROUDE)
    elif args.drum_radius is not None:
        r, g = args.drum_radius, args.gravity
        if args.angular_velocity is not None:
            omega = args.angular_velocity
            n = omega * 60.0 / (2.0 * math.pi)
        else:
            assert args.rotation_speed is not None
            n = args.rotation_speed
            omega = sheet.step(
                "ω", "2π n / 60", f"2π · {sig(n)} rpm / 60", 2.0 * math.pi * n / 60.0, "rad/s"
            )
        out["angular_velocity"] = omega
        fr = out["froude_number"] = sheet.step(
            "Fr",
            "ω² R / g",
            f"({sig(omega)} rad/s)² · {fmt(r, 'm')} / {sig(g)} m/s²",
            omega**2 * r / g,
        )
        n_c = out["critical_speed"] = _critical_speed(sheet, r, g)
        out["fraction_of_critical_speed"] = sheet.step(
            "n/n_c", "n / n_c = √Fr", f"{sig(n)} / {sig(n_c)}", n / n_c
        )
        f = args.filling_degree
        matches = []
        for name, lo, hi, _, f_lo, f_hi in DRUM_REGIMES:
            in_range = lo <= fr < hi if name == "centrifuging" else lo < fr < hi
            fill_ok = f is None or ((f_lo is None or f > f_lo) and (f_hi is None or f < f_hi))
            if in_range and fill_ok:
                matches.append(name)
        out["drum_regimes"] = matches
        sheet.thresholds.append(
            "Drum (Mellmann 2001, ranges overlap): "
            + "; ".join(
                f"{name} {lo:g} < Fr < {hi:g} ({text})"
                if hi != math.inf
                else f"{name} Fr ≥ {lo:g} ({text})"
                for name, lo, hi, text, _, _ in DRUM_REGIMES
            )
            + f" → {', '.join(matches) or 'none'}"
            + ("" if f is None else f" with f = {sig(f)}")
        )
        sheet.notes.append(
            "Fr = ω²R/g (Mellmann); others write ω√(R/g) = n/n_c, also reported. The limits are "
            "for free-flowing material in a smooth horizontal drum without lifters; the wall-"
            "friction condition for slipping is not computed."
        )
        sheet.references.append(REF_FROUDE)
    i_number = out.get("inertial_number", 0.0)
    verdict: Verdict = "caution" if i_number > MU_I_CAUTION else "ok"
    sheet.flag(verdict, f"μ(I): I = {sig(i_number)} > {MU_I_CAUTION:g}, beyond its fitted range")
    return FlowResult(verdict=verdict, **out)


FLOW_REGIME: ToolSpec[Any, Any] = ToolSpec(
    name="flow_regime",
    description=(
        "Flow regime: inertial number I = γ̇d/√(P/ρ_s) (quasi-static < 1e-3, dense ≤ 0.1, "
        "collisional above) with μ(I); and a rotating drum's Froude number ω²R/g, critical speed "
        "and Mellmann regimes (slipping … centrifuging)."
    ),
    args_model=FlowArgs,
    result_model=FlowResult,
    func=flow_regime,
    group="Flow and discharge",
    headline="inertial_number",
    example={
        "shear_rate": "10 1/s",
        "particle_diameter": "1 mm",
        "pressure": "1 kPa",
        "density": 2500,
    },
)


# --- beverloo_discharge ------------------------------------------------------------------------

C_DEFAULT = 0.58
K_DEFAULT = 1.5
SMALL_RATIO = 6.0
FINE = 4e-4


class BeverlooArgs(ToolArgs):
    orifice_diameter: Length = Q("Circular orifice diameter D₀", gt=0, example="50 mm")
    particle_diameter: Length = fields.particle_diameter()
    bulk_density: Density = Q("Flowing (≈ poured) bulk density ρ_b", gt=0, example="1500 kg/m^3")
    discharge_coefficient: Ratio = Q(
        "Beverloo C (0.5-0.7; Beverloo 0.58, Nedderman 0.55-0.65)",
        default=C_DEFAULT,
        ge=0.5,
        le=0.7,
    )
    shape_coefficient: Ratio = Q(
        "Beverloo k (1.0-3.0; 1.3 spheres … 2.9 angular; Beverloo 1.4, Nedderman 1.5)",
        default=K_DEFAULT,
        ge=1.0,
        le=3.0,
    )
    gravity: Acceleration = fields.gravity()
    silo_diameter: Length | None = Q(
        "Silo diameter D (> D₀), for the narrow-silo check", default=None, gt=0
    )
    fill_mass: Mass | None = Q("Mass in the silo, for the discharge time", default=None, gt=0)

    @model_validator(mode="after")
    def _geometry(self) -> BeverlooArgs:
        if self.orifice_diameter - self.shape_coefficient * self.particle_diameter <= 0:
            raise ArgError(
                "orifice_diameter",
                f"D₀ - k d = {fmt(self.orifice_diameter, 'm')} - {sig(self.shape_coefficient)} · "
                f"{fmt(self.particle_diameter, 'm')} ≤ 0: the orifice is too small for these "
                "particles",
            )
        if self.silo_diameter is not None and self.silo_diameter <= self.orifice_diameter:
            raise ArgError(
                "silo_diameter", f"must exceed orifice_diameter ({fmt(self.orifice_diameter, 'm')})"
            )
        return self


class BeverlooResult(ToolResult):
    orifice_to_particle: Ratio = R("D₀ / d")
    effective_orifice: Length = R("D₀ - k d")
    mass_flow_rate: MassRate = R("Mass discharge rate W")
    mass_flow_rate_per_hour: MassRateHour = R("W per hour")
    volume_flow_rate: VolumeRate = R("Q = W / ρ_b")
    discharge_time: Time | None = R("fill_mass / W", default=None)
    verdict: Verdict = R("caution outside the correlation's range")


def beverloo_discharge(args: BeverlooArgs, sheet: CalcSheet) -> BeverlooResult:
    """Steady mass flow rate through a circular orifice in a flat-bottomed silo."""
    d0, d, rho, c, k, g = (
        args.orifice_diameter,
        args.particle_diameter,
        args.bulk_density,
        args.discharge_coefficient,
        args.shape_coefficient,
        args.gravity,
    )
    ratio = sheet.step("D₀/d", "D₀ / d", f"{fmt(d0, 'm')} / {fmt(d, 'm')}", d0 / d)
    de = sheet.step(
        "D₀ - k d", "D₀ - k d", f"{fmt(d0, 'm')} - {sig(k)} · {fmt(d, 'm')}", d0 - k * d, "m"
    )
    w = sheet.step(
        "W",
        "C ρ_b √g (D₀ - k d)^(5/2)",
        f"{sig(c)} · {fmt(rho, 'kg/m^3')} · √{sig(g)} m/s² · ({fmt(de, 'm')})^(5/2)",
        c * rho * math.sqrt(g) * de**2.5,
        "kg/s",
    )
    per_hour = sheet.step("W_h", "3600 W", f"3600 · {sig(w)} kg/s", 3600.0 * w, "kg/h")
    q = sheet.step("Q", "W / ρ_b", f"{sig(w)} kg/s / {fmt(rho, 'kg/m^3')}", w / rho, "m^3/s")
    t = None
    if args.fill_mass is not None:
        t = sheet.step(
            "t", "M / W", f"{fmt(args.fill_mass, 'kg')} / {sig(w)} kg/s", args.fill_mass / w, "s"
        )
        sheet.notes.append(
            "The discharge time assumes W throughout; the last stage of emptying is not covered."
        )
    verdict: Verdict = "ok"
    if ratio < SMALL_RATIO:
        verdict = sheet.flag("caution", f"Beverloo: D₀/d = {sig(ratio)} < {SMALL_RATIO:g}")
        sheet.notes.append(
            "D₀/d < 6: outside the correlation's range; intermittent flow and clogging become "
            "likely below about 5 d."
        )
    if not 0.55 <= c <= 0.65:
        verdict = sheet.flag("caution", f"Beverloo: C = {sig(c)} outside 0.55 to 0.65")
        sheet.notes.append(f"C = {sig(c)} is outside the usual 0.55-0.65 (Nedderman).")
    if d < FINE:
        verdict = sheet.flag("caution", f"Beverloo: d = {fmt(d, 'm')} < {fmt(FINE, 'm')}")
        sheet.notes.append(
            "d < 0.4 mm: fine particles; interstitial air pressure gradients reduce W, Beverloo "
            "overpredicts."
        )
    if args.silo_diameter is not None:
        big_d = args.silo_diameter
        if big_d - d0 < 30 * d or big_d < 2.5 * d0:
            verdict = worst(verdict, "caution")
            if big_d - d0 < 30 * d:
                sheet.flag(
                    verdict,
                    f"Narrow silo: D - D₀ = {fmt(big_d - d0, 'm')} < 30 d = {fmt(30 * d, 'm')}",
                )
            if big_d < 2.5 * d0:
                sheet.flag(
                    verdict, f"Narrow silo: D = {fmt(big_d, 'm')} < 2.5 D₀ = {fmt(2.5 * d0, 'm')}"
                )
            sheet.notes.append(
                "Narrow silo (D - D₀ < 30 d or D < 2.5 D₀, recalled limits): the walls affect "
                "the flow."
            )
    sheet.thresholds.append(
        "caution if D₀/d < 6, if d < 0.4 mm, or for a narrow silo (D - D₀ < 30 d or D < 2.5 D₀) "
        f"→ {verdict}"
    )
    sheet.notes.append(
        f"C = {sig(c)}, k = {sig(k)} used (defaults 0.58 and 1.5: Beverloo fitted k = 1.4, "
        "Nedderman's review ≈ 1.5; a few per cent in W for D₀/d ≳ 20)."
    )
    sheet.notes.append(
        "Flat-bottomed silo, free-flowing coarse material, fill above about one silo diameter; "
        "conical hoppers need a hopper-angle factor; cohesive or wet material (Bo ≳ 1) is outside."
    )
    sheet.references.append(REF_BEVERLOO)
    return BeverlooResult(
        orifice_to_particle=ratio,
        effective_orifice=de,
        mass_flow_rate=w,
        mass_flow_rate_per_hour=per_hour,
        volume_flow_rate=q,
        discharge_time=t,
        verdict=verdict,
    )


BEVERLOO_DISCHARGE: ToolSpec[Any, Any] = ToolSpec(
    name="beverloo_discharge",
    description=(
        "Beverloo mass discharge rate W = C·ρ_b·√g·(D₀ − k·d)^(5/2) through a circular orifice in "
        "a flat-bottomed silo (defaults C = 0.58, k = 1.5), with validity checks and the "
        "discharge time of a fill."
    ),
    args_model=BeverlooArgs,
    result_model=BeverlooResult,
    func=beverloo_discharge,
    group="Flow and discharge",
    headline="mass_flow_rate",
    example={"orifice_diameter": "50 mm", "particle_diameter": "2 mm", "bulk_density": 1500},
)
