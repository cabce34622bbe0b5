"""cfd_dem_numbers: particle Reynolds, Archimedes and Stokes numbers, terminal velocity, Di Felice
exponent and the CFD cell size against the particle, for unresolved CFD-DEM.

Sources (docs/references.md §R2.4):
- Ar = ρ_f (ρ_p - ρ_f) g d³/μ² (`fluids` core.py:1929-1974).
- Terminal velocity: C_D(Re) Re² = (4/3) Ar, solved for Re (C_D Re² rises with Re for both
  correlations, so the root is unique), v_t = Re μ/(ρ_f d) (`fluids` drag.py:1296-1375).
- Schiller–Naumann C_D = max(0.44, 24/Re (1 + 0.15 Re^0.687)) (CFDEM SchillerNaumannDrag.C:204;
  continuous, switching at Re = 988.948; MFiX switches at Re = 1000 with a 0.39 % jump, so the CFDEM
  form is used); Dallavalle C_D = (0.63 + 4.8/√Re)² (CFDEM DiFeliceDrag.C:254).
- Re_p = ε ρ_f d |u_f - u_p|/μ (CFDEM DiFeliceDrag.C:251; MFiX drag_gs.f:2152).
- τ_p = ρ_p d²/(18μ), St = τ_p U/L; defaults L = d, U = slip give CFDEM's St = τ_p|u_r|/d
  (checkCouplingInterval.C:224-233); τ_p,drag = τ_p·24/(C_D Re_p) (derived).
- χ = 3.7 - 0.65 exp(-(1.5 - log₁₀Re_p)²/2), χ = 3.7 at Re_p → 0 (CFDEM forceSubModel.C:804-810;
  MFiX drag_gs.f:2168).
- Cell: fail below V_cell/V_p = 3 (CFDEM minAllowedVcellByVparcel, checkCouplingInterval.C:74),
  caution below Δx = 3d (common rule, recalled), ok from 3d.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from pydantic import model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    Acceleration,
    ArgError,
    CalcSheet,
    Density,
    Length,
    Q,
    R,
    Ratio,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Velocity,
    Viscosity,
)
from caec_desktop.tools.timestep import Verdict, worst
from caec_desktop.tools.units import fmt, sig

SN_PLATEAU = 0.44
CELL_FAIL_VOLUME_RATIO = 3.0
"""CFDEM minAllowedVcellByVparcel default (checkCouplingInterval.C:74)."""
CELL_OK_DIAMETERS = 3.0
DRAG_CRISIS_RE = 2e5
DIFELICE_RE = (1e-2, 1e4)
DIFELICE_MIN_VOIDAGE = 0.4
LOW_VOIDAGE = 0.36
_MAX_BRACKET_STEPS = 60
_BISECTIONS = 200

REF_AR = "Ar = ρ_f(ρ_p - ρ_f) g d³/μ²: python fluids core.py:1929-1974 (Archimedes)"
REF_TERMINAL = (
    "v_t = √(4gd(ρ_p-ρ_f)/(3C_Dρ_f)) solved with the drag correlation: python fluids "
    "drag.py:1296-1375 (v_terminal)"
)
REF_SN = (
    "Schiller & Naumann 1933 (recalled): C_D = max(0.44, 24/Re(1+0.15Re^0.687)), CFDEM "
    "SchillerNaumannDrag.C:201,204"
)
REF_DALLAVALLE = "Dallavalle 1948 (recalled): C_D = (0.63 + 4.8/√Re)², CFDEM DiFeliceDrag.C:254"
REF_DIFELICE = (
    "Di Felice 1994, Int. J. Multiphase Flow 20:153 (recalled): χ = 3.7 - 0.65 exp(-(1.5 - "
    "log₁₀Re_p)²/2), CFDEM forceSubModel.C:804-810, MFiX drag_gs.f:2117-2172"
)
REF_STOKES = (
    "τ_p = ρ_p d²/(18μ), St = τ_p|u_r|/d: CFDEM checkCouplingInterval.C:224-233; Crowe, Sommerfeld "
    "& Tsuji 1998 (St bands, recalled)"
)
REF_CELL = (
    "CFDEM checkCouplingInterval.C:74 minAllowedVcellByVparcel = 3; dividedVoidFraction and "
    "bigParticleVoidFraction docs; Δx ≥ 3d rule (e.g. Peng et al. 2014, AIChE J. 60:2000, recalled)"
)


def cd_schiller_naumann(re: float) -> float:
    """C_D = max(0.44, 24/Re (1 + 0.15 Re^0.687)) (CFDEM form)."""
    return max(SN_PLATEAU, 24.0 / re * (1.0 + 0.15 * float(re**0.687)))


def cd_dallavalle(re: float) -> float:
    """C_D = (0.63 + 4.8/√Re)²."""
    return (0.63 + 4.8 / math.sqrt(re)) ** 2


def _cd_re(correlation: str, re: float) -> float:
    """C_D·Re, finite at Re = 0 (Stokes limit 24 for Schiller–Naumann, 23.04 for Dallavalle)."""
    if correlation == "dallavalle":
        return (0.63 * math.sqrt(re) + 4.8) ** 2
    return max(SN_PLATEAU * re, 24.0 * (1.0 + 0.15 * float(re**0.687)))


CORRELATIONS: dict[str, Callable[[float], float]] = {
    "schiller_naumann": cd_schiller_naumann,
    "dallavalle": cd_dallavalle,
}


def terminal_reynolds(correlation: str, target: float) -> float:
    """Re with C_D(Re)·Re² = target (> 0): bisection in log Re on a bracket widened as needed."""

    def f(re: float) -> float:
        return _cd_re(correlation, re) * re

    lo, hi = 1e-12, 1e8
    for _ in range(_MAX_BRACKET_STEPS):
        if f(lo) <= target:
            break
        lo *= 1e-6
    for _ in range(_MAX_BRACKET_STEPS):
        if f(hi) >= target:
            break
        hi *= 1e6
    if not f(lo) <= target <= f(hi):
        raise OverflowError("terminal Reynolds number out of range")
    for _ in range(_BISECTIONS):
        mid = math.sqrt(lo * hi)
        if mid in (lo, hi):
            break
        if f(mid) < target:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi)


def difelice_chi(re_p: float) -> float:
    """χ = 3.7 - 0.65 exp(-(1.5 - log₁₀Re_p)²/2); 3.7 at Re_p = 0 (CFDEM's SMALL)."""
    if re_p <= 0:
        return 3.7
    return 3.7 - 0.65 * math.exp(-((1.5 - math.log10(re_p)) ** 2) / 2.0)


class CfdArgs(ToolArgs):
    particle_diameter: Length = fields.particle_diameter(example="1 mm")
    particle_density: Density = Q("Particle (solid) density ρ_p", gt=0, example="2500 kg/m^3")
    fluid_density: Density = Q(
        "Fluid density ρ_f (water at 20 °C: 998.2 kg/m³)", gt=0, example="998.2 kg/m^3"
    )
    fluid_viscosity: Viscosity = Q(
        "Dynamic viscosity μ of the fluid (water at 20 °C: 1.002e-3 Pa·s)",
        gt=0,
        example="1.002e-3 Pa*s",
    )
    slip_velocity: Velocity | None = Q(
        "Slip speed |u_f - u_p| (default: the terminal velocity)", default=None, ge=0
    )
    voidage: Ratio = Q("Fluid volume fraction ε (0.3 ≤ ε ≤ 1)", default=1.0, ge=0.3, le=1)
    characteristic_length: Length | None = Q(
        "Flow length L for the Stokes number (default: d)", default=None, gt=0
    )
    flow_velocity: Velocity | None = Q(
        "Flow velocity U for the Stokes number (default: the slip speed)", default=None, gt=0
    )
    cfd_cell_size: Length | None = Q("CFD cell size Δx, for the cell check", default=None, gt=0)
    drag_correlation: Literal["schiller_naumann", "dallavalle"] = Q(
        "Single-particle drag: schiller_naumann (MFiX) or dallavalle (CFDEM's Di Felice)",
        default="schiller_naumann",
    )
    gravity: Acceleration = fields.gravity()

    @model_validator(mode="after")
    def _densities(self) -> CfdArgs:
        if self.particle_density == self.fluid_density:
            raise ArgError(
                "particle_density",
                f"equals fluid_density ({fmt(self.fluid_density, 'kg/m^3')}): a neutrally buoyant "
                "particle neither settles nor rises",
            )
        return self


class CfdResult(ToolResult):
    archimedes_number: Ratio = R("Ar = ρ_f |ρ_p - ρ_f| g d³/μ²")
    terminal_velocity: Velocity = R("Terminal settling (or rise) velocity v_t, single particle")
    terminal_reynolds: Ratio = R("Re_t = ρ_f v_t d/μ")
    terminal_drag_coefficient: Ratio = R("C_D(Re_t)")
    rises: bool = R("True when ρ_p < ρ_f: v_t is a rise velocity")
    particle_reynolds: Ratio = R("Re_p = ε ρ_f d |u_f - u_p|/μ")
    relaxation_time_stokes: Time = R("τ_p = ρ_p d²/(18μ)")
    relaxation_time_drag: Time = R("τ_p,drag = τ_p·24/(C_D Re_p)")
    stokes_number: Ratio = R("St = τ_p U/L")
    stokes_number_drag: Ratio = R("St_drag = τ_p,drag U/L")
    difelice_exponent: Ratio = R("Di Felice exponent χ")
    voidage_function: Ratio = R("ε^(-χ)")
    cell_to_diameter: Ratio | None = R("Δx/d (with cfd_cell_size)", default=None)
    cell_to_particle_volume: Ratio | None = R(
        "V_cell/V_p = Δx³/(πd³/6) (with cfd_cell_size)", default=None
    )
    cell_verdict: Verdict | None = R("ok Δx ≥ 3d; caution V_cell/V_p ≥ 3; fail below", default=None)
    verdict: Verdict = R("Worst of the cell check and the validity cautions")


def cfd_dem_numbers(args: CfdArgs, sheet: CalcSheet) -> CfdResult:
    """Particle–fluid dimensionless groups for one particle size in a fluid."""
    d, rho_p, rho_f, mu, g = (
        args.particle_diameter,
        args.particle_density,
        args.fluid_density,
        args.fluid_viscosity,
        args.gravity,
    )
    corr = args.drag_correlation
    cd = CORRELATIONS[corr]
    rises = rho_p < rho_f
    drho = abs(rho_p - rho_f)
    ar = sheet.step(
        "Ar",
        "ρ_f |ρ_p - ρ_f| g d³ / μ²",
        f"{fmt(rho_f, 'kg/m^3')} · {fmt(drho, 'kg/m^3')} · {sig(g)} m/s² · ({fmt(d, 'm')})³ / "
        f"({sig(mu)} Pa·s)²",
        rho_f * drho * g * d**3 / mu**2,
    )
    re_t = sheet.step(
        "Re_t",
        "root of C_D(Re) Re² = (4/3) Ar",
        f"C_D(Re) Re² = (4/3) · {sig(ar)} ({corr})",
        terminal_reynolds(corr, 4.0 / 3.0 * ar),
    )
    cd_t = sheet.step("C_D(Re_t)", "drag correlation at Re_t", f"{corr}({sig(re_t)})", cd(re_t))
    v_t = sheet.step(
        "v_t",
        "Re_t μ / (ρ_f d)",
        f"{sig(re_t)} · {sig(mu)} Pa·s / ({fmt(rho_f, 'kg/m^3')} · {fmt(d, 'm')})",
        re_t * mu / (rho_f * d),
        "m/s",
    )
    verdict: Verdict = "ok"
    if rises:
        sheet.notes.append("ρ_p < ρ_f: v_t is a rise velocity, computed with |ρ_p - ρ_f|.")
    if re_t > DRAG_CRISIS_RE:
        verdict = sheet.flag("caution", f"Re_t = {sig(re_t)} > {DRAG_CRISIS_RE:g} (drag crisis)")
        sheet.notes.append(f"Re_t = {sig(re_t)} > 2e5: drag crisis, both correlations invalid.")
    slip = v_t if args.slip_velocity is None else args.slip_velocity
    if args.slip_velocity is None:
        sheet.notes.append("Slip speed not given: the terminal velocity is used.")
    eps = args.voidage
    re_p = sheet.step(
        "Re_p",
        "ε ρ_f d |u_f - u_p| / μ",
        f"{sig(eps)} · {fmt(rho_f, 'kg/m^3')} · {fmt(d, 'm')} · {fmt(slip, 'm/s')} / {sig(mu)} "
        "Pa·s",
        eps * rho_f * d * slip / mu,
    )
    tau = sheet.step(
        "τ_p",
        "ρ_p d² / (18 μ)",
        f"{fmt(rho_p, 'kg/m^3')} · ({fmt(d, 'm')})² / (18 · {sig(mu)} Pa·s)",
        rho_p * d**2 / (18.0 * mu),
        "s",
    )
    cd_re_p = _cd_re(corr, re_p)
    tau_drag = sheet.step(
        "τ_p,drag",
        "τ_p · 24 / (C_D(Re_p) Re_p)",
        f"{fmt(tau, 's')} · 24 / {sig(cd_re_p)}",
        tau * 24.0 / cd_re_p,
        "s",
    )
    length = d if args.characteristic_length is None else args.characteristic_length
    u = slip if args.flow_velocity is None else args.flow_velocity
    st = sheet.step(
        "St",
        "τ_p U / L",
        f"{fmt(tau, 's')} · {fmt(u, 'm/s')} / {fmt(length, 'm')}",
        tau * u / length,
    )
    st_drag = sheet.step(
        "St_drag",
        "τ_p,drag U / L",
        f"{fmt(tau_drag, 's')} · {fmt(u, 'm/s')} / {fmt(length, 'm')}",
        tau_drag * u / length,
    )
    sheet.notes.append(
        "Stokes number: CFDEM uses τ_p|u_r|/d, textbooks τ_p U/L with a flow scale; "
        + (
            "L = d and U = the slip speed (CFDEM's) used."
            if args.characteristic_length is None and args.flow_velocity is None
            else "the given L and U used."
        )
    )
    chi = sheet.step(
        "χ",
        "3.7 - 0.65 exp(-(1.5 - log₁₀ Re_p)² / 2)",
        f"3.7 - 0.65 exp(-(1.5 - log₁₀ {sig(re_p)})² / 2)",
        difelice_chi(re_p),
    )
    voidage_fn = sheet.step("ε^(-χ)", "ε^(-χ)", f"{sig(eps)}^(-{sig(chi)})", eps ** (-chi))
    lo, hi = DIFELICE_RE
    if not lo < re_p < hi or eps < DIFELICE_MIN_VOIDAGE:
        verdict = "caution"
        if not lo < re_p < hi:
            sheet.flag(verdict, f"Di Felice range: Re_p = {sig(re_p)} outside {lo:g} to {hi:g}")
        if eps < DIFELICE_MIN_VOIDAGE:
            sheet.flag(verdict, f"Di Felice range: ε = {sig(eps)} < {DIFELICE_MIN_VOIDAGE:g}")
        sheet.notes.append(
            f"Di Felice is fitted for about {lo:g} < Re_p < {hi:g} and 0.4 ≲ ε ≤ 1 (recalled): "
            f"Re_p = {sig(re_p)}, ε = {sig(eps)} is outside."
        )
    if eps < LOW_VOIDAGE:
        sheet.notes.append(
            f"ε = {sig(eps)} < 0.36: denser than a random packing; check the voidage."
        )
    sheet.notes.append(
        f"St = {sig(st)}: "
        + (
            "the particle follows the flow (St ≪ 1)"
            if st < 0.1
            else "ballistic, barely deflected by the flow (St ≫ 1)"
            if st > 10
            else "partly follows the flow (St ≈ 1)"
        )
        + "; τ_p,drag is the relevant one for Re_p ≳ 1."
    )
    cell_ratio = cell_volume = None
    cell_verdict: Verdict | None = None
    if args.cfd_cell_size is not None:
        dx = args.cfd_cell_size
        cell_ratio = sheet.step("Δx/d", "Δx / d", f"{fmt(dx, 'm')} / {fmt(d, 'm')}", dx / d)
        cell_volume = sheet.step(
            "V_cell/V_p",
            "Δx³ / (π d³ / 6)",
            f"({fmt(dx, 'm')})³ / (π ({fmt(d, 'm')})³ / 6)",
            dx**3 / (math.pi * d**3 / 6.0),
        )
        if cell_volume < CELL_FAIL_VOLUME_RATIO:
            cell_verdict = "fail"
            sheet.flag(
                "fail", f"Cell: V_cell/V_p = {sig(cell_volume)} < {CELL_FAIL_VOLUME_RATIO:g}"
            )
            sheet.notes.append(
                "Particle not much smaller than the cell; the unresolved void fraction is "
                "meaningless. Coarsen the mesh, or use a resolved/immersed-boundary method "
                "(CFDEM's "
                "bigParticle model needs about 8 cells per particle diameter)."
            )
        elif cell_ratio < CELL_OK_DIAMETERS:
            cell_verdict = "caution"
            sheet.flag("caution", f"Cell: Δx/d = {sig(cell_ratio)} < {CELL_OK_DIAMETERS:g}")
            sheet.notes.append(
                "Below the common Δx ≥ 3 d rule; spread the particle volume over several cells "
                "(divided or Gaussian void fraction) or smooth the exchange fields."
            )
        else:
            cell_verdict = "ok"
        sheet.thresholds.append(
            "Cell: fail if V_cell/V_p < 3 (Δx < 1.162 d, CFDEM's hard minimum), caution if Δx "
            "< 3 d "
            f"(common rule, recalled), ok from 3 d → {cell_verdict}. Sources disagree; both "
            "are used."
        )
        sheet.references.append(REF_CELL)
        verdict = worst(verdict, cell_verdict)
    sheet.notes.append(
        f"Drag correlation {corr}: CFDEM's Di Felice uses Dallavalle, MFiX Schiller–Naumann; "
        "Schiller–Naumann here is CFDEM's continuous max(0.44, …) form (MFiX switches at Re = "
        "1000)."
    )
    sheet.references += [
        REF_AR,
        REF_TERMINAL,
        REF_SN if corr == "schiller_naumann" else REF_DALLAVALLE,
        REF_STOKES,
        REF_DIFELICE,
    ]
    return CfdResult(
        archimedes_number=ar,
        terminal_velocity=v_t,
        terminal_reynolds=re_t,
        terminal_drag_coefficient=cd_t,
        rises=rises,
        particle_reynolds=re_p,
        relaxation_time_stokes=tau,
        relaxation_time_drag=tau_drag,
        stokes_number=st,
        stokes_number_drag=st_drag,
        difelice_exponent=chi,
        voidage_function=voidage_fn,
        cell_to_diameter=cell_ratio,
        cell_to_particle_volume=cell_volume,
        cell_verdict=cell_verdict,
        verdict=verdict,
    )


CFD_DEM_NUMBERS: ToolSpec[Any, Any] = ToolSpec(
    name="cfd_dem_numbers",
    description=(
        "CFD-DEM numbers for one particle size in a fluid: Archimedes number, terminal velocity "
        "(Schiller–Naumann or Dallavalle drag), particle Reynolds and Stokes numbers, Di Felice "
        "voidage exponent, and the CFD cell size against the particle (fail below V_cell/V_p = 3, "
        "caution below 3 d)."
    ),
    args_model=CfdArgs,
    result_model=CfdResult,
    func=cfd_dem_numbers,
    group="CFD-DEM",
    headline="terminal_velocity",
    example={
        "particle_diameter": "1 mm",
        "particle_density": 2500,
        "fluid_density": 998.2,
        "fluid_viscosity": "1.002e-3 Pa*s",
        "cfd_cell_size": "4 mm",
    },
)
