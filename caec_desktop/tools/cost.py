"""simulation_cost: time steps, particle-steps, wall time and core-hours of a run, and the particle
insertion rate that delivers a mass flow.

Sources (docs/references.md §R2.6):
- n = ceil(T/dt) with the floating-point guard of part 1 §1.8 (`timestep.count_steps`).
- Wall time = N·n / (P · n_c · η_par); core-hours = wall time · n_c / 3600. The throughput P
  (particle-steps per core-second) is the user's: no checked source gives a citable figure.
- Insertion for mass fractions w_i: m̄ = 1/Σ(w_i/m_i), Ṅ = ṁ/m̄, Ṅ_i = ṁ w_i/m_i,
  d₃₀ = (6m̄/(πρ))^(1/3) (LIGGGHTS fix_insert_stream.cpp:394, fix_particledistribution_discrete.cpp:
  150-160,178); fractions off 1 by more than 1e-5 are renormalised with a note, as LIGGGHTS does.
"""

from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import Field, model_validator

from caec_desktop.tools import fields
from caec_desktop.tools.base import (
    ArgError,
    CalcSheet,
    Count,
    Density,
    Length,
    Mass,
    MassFlow,
    NumberOf,
    Q,
    R,
    Rate,
    Ratio,
    Time,
    ToolArgs,
    ToolResult,
    ToolSpec,
    Unit,
)
from caec_desktop.tools.display import count_text
from caec_desktop.tools.timestep import MAX_STEPS, REF_STEPS, count_steps
from caec_desktop.tools.units import fmt, sig

SUM_TOLERANCE = 1e-5
REF_INSERTION = (
    "Ṅ = ṁ/m̄, m̄ = 1/Σ(w_i/m_i): LIGGGHTS fix_insert_stream.cpp:394, fix_insert_rate_region.cpp:132,"
    " fix_particledistribution_discrete.cpp:150-160,178"
)
REF_THROUGHPUT = (
    "Throughput is the user's measurement (no citable default): run ~1000 steps of the real case, "
    "P = N·steps/(wall s · cores)"
)

NEEDS_THROUGHPUT = (
    "wall time and core-hours: they need your throughput, the particle-steps per core-second "
    "your DEM code runs on your machine (there is no default: time ~1000 steps of the real case, "
    'P = N · steps / (wall seconds · cores)). Add it to the question, e.g. "1e6 particle-steps '
    'per core-second on 16 cores", or set throughput (and n_cores) in the tool form.'
)
"""Why a run's wall time was not computed, and how to give what it needs."""

Hours = Annotated[float, Unit("h")]
Diameter = Annotated[Length, Field(gt=0)]
Fraction = Annotated[Ratio, Field(ge=0, le=1)]


class CostArgs(ToolArgs):
    duration: Time | None = Q(
        "Simulated time T (with timestep: steps and wall time)", default=None, gt=0
    )
    timestep: Time | None = fields.timestep("DEM time step dt (≤ T)", default=None, example=None)
    n_particles: NumberOf | None = Q(
        "Time-averaged number of particles N in the domain", default=None, gt=0
    )
    throughput: Rate | None = Q(
        "Measured particle-steps per second per core P (no default: measure it)", default=None, gt=0
    )
    n_cores: Count = Q("Number of cores n_c", default=1, ge=1)
    parallel_efficiency: Ratio = Q("Parallel efficiency η_par (0 < η ≤ 1)", default=1.0, gt=0, le=1)
    mass_flow_rate: MassFlow | None = Q("Mass flow rate ṁ to insert", default=None, gt=0)
    particle_diameter: Length | None = fields.particle_diameter(
        "Particle diameter (single size; or give diameters and mass_fractions)",
        default=None,
        example=None,
    )
    diameters: list[Diameter] | None = Field(
        default=None,
        min_length=1,
        description="Diameter of each size class",
        json_schema_extra={"x-unit": "m"},
    )
    mass_fractions: list[Fraction] | None = Field(
        default=None,
        description="Mass fraction of each class (renormalised if the sum is off by > 1e-5)",
        json_schema_extra={"x-unit": ""},
    )
    density: Density | None = fields.density(
        "Solid density ρ (for the insertion rate)", default=None, example=None
    )

    @model_validator(mode="after")
    def _consistent(self) -> CostArgs:
        if (self.duration is None) != (self.timestep is None):
            missing = "timestep" if self.timestep is None else "duration"
            raise ArgError(missing, "steps and wall time need both duration and timestep")
        if (
            self.duration is not None
            and self.timestep is not None
            and self.timestep > self.duration
        ):
            raise ArgError("timestep", f"larger than duration ({fmt(self.duration, 's')})")
        if self.diameters is not None and self.particle_diameter is not None:
            raise ArgError("diameters", "give particle_diameter or diameters, not both")
        if (self.diameters is None) != (self.mass_fractions is None):
            missing = "mass_fractions" if self.mass_fractions is None else "diameters"
            raise ArgError(missing, "a size distribution needs diameters and mass_fractions")
        if self.diameters is not None and self.mass_fractions is not None:
            if len(self.diameters) != len(self.mass_fractions):
                raise ArgError(
                    "mass_fractions",
                    f"needs one value per diameter: {len(self.diameters)} diameters, "
                    f"{len(self.mass_fractions)} fractions",
                )
            if math.fsum(self.mass_fractions) <= 0:
                raise ArgError("mass_fractions", "must not all be 0")
        if self.mass_flow_rate is not None:
            if self.particle_diameter is None and self.diameters is None:
                raise ArgError(
                    "particle_diameter", "the insertion rate needs a size (or diameters)"
                )
            if self.density is None:
                raise ArgError("density", "the insertion rate needs the solid density (kg/m^3)")
        if self.duration is None and self.mass_flow_rate is None:
            raise ArgError(
                "duration",
                "required: give duration and timestep (steps, wall time), or mass_flow_rate with a "
                "size and density (insertion rate)",
            )
        return self


class CostResult(ToolResult):
    time_steps: int | None = Field(default=None, description="Number of time steps n = ceil(T/dt)")
    particle_steps: NumberOf | None = R("N · n", default=None)
    wall_time: Time | None = R("Wall-clock time N·n/(P·n_c·η_par)", default=None)
    wall_time_hours: Hours | None = R("Wall-clock time in hours", default=None)
    core_hours: Hours | None = R("Core-hours, wall time · n_c / 3600", default=None)
    number_mean_particle_mass: Mass | None = R("m̄ = 1/Σ(w_i/m_i)", default=None)
    insertion_rate: Rate | None = R("Particles per second Ṅ = ṁ/m̄", default=None)
    insertion_rates: list[float] | None = Field(
        default=None, description="Ṅ_i per size class [1/s]", json_schema_extra={"x-unit": "1/s"}
    )
    number_mean_volume_diameter: Length | None = R("d₃₀ = (6m̄/(πρ))^(1/3)", default=None)
    particles_inserted: NumberOf | None = R("Ṅ · T (with duration)", default=None)


def simulation_cost(args: CostArgs, sheet: CalcSheet) -> CostResult:
    """Steps, particle-steps, wall time and insertion rate of a planned DEM run."""
    out: dict[str, Any] = {}
    if args.duration is not None and args.timestep is not None:
        t, dt = args.duration, args.timestep
        if t / dt > MAX_STEPS:
            raise ArgError(
                "timestep", f"too small: T/dt = {t / dt:.3g} exceeds {MAX_STEPS:.0e} steps"
            )
        n = count_steps(t, dt)
        sheet.step("n", "ceil(T / dt)", f"ceil({fmt(t, 's')} / {fmt(dt, 's')})", n)
        out["time_steps"] = n
        sheet.notes.append("T/dt within a relative 1e-9 of an integer counts as that integer.")
        sheet.references.append(REF_STEPS)
        if args.n_particles is not None:
            ps = out["particle_steps"] = sheet.step(
                "N·n",
                "N · n",
                f"{count_text(args.n_particles)} · {count_text(n)}",
                args.n_particles * n,
                count=True,
            )
            if args.throughput is not None:
                p, cores, eff = args.throughput, args.n_cores, args.parallel_efficiency
                wall = out["wall_time"] = sheet.step(
                    "t_wall",
                    "N n / (P n_c η_par)",
                    f"{sig(ps)} / ({sig(p)} /s · {cores} · {sig(eff)})",
                    ps / (p * cores * eff),
                    "s",
                )
                out["wall_time_hours"] = sheet.step(
                    "t_wall,h", "t_wall / 3600", f"{sig(wall)} s / 3600", wall / 3600, "h"
                )
                out["core_hours"] = sheet.step(
                    "core·h",
                    "t_wall n_c / 3600",
                    f"{sig(wall)} s · {cores} / 3600",
                    wall * cores / 3600,
                    "h",
                )
                sheet.notes.append(
                    "Throughput depends on the contact model, coordination number, neighbour "
                    "skin, polydispersity, shapes, CFD coupling and output; with few particles per "
                    "core set parallel_efficiency. Use the time-averaged N (not a filling "
                    "run's final count)."
                )
                sheet.references.append(REF_THROUGHPUT)
            else:
                sheet.notes.append(
                    "No wall time: give throughput (measured particle-steps per core-second)."
                )
                sheet.not_computed.append(NEEDS_THROUGHPUT)
    if args.mass_flow_rate is not None and args.density is not None:
        rho, mdot = args.density, args.mass_flow_rate
        if args.diameters is not None and args.mass_fractions is not None:
            d = list(args.diameters)
            w = list(args.mass_fractions)
            total = math.fsum(w)
            if abs(total - 1.0) > SUM_TOLERANCE:
                w = [x / total for x in w]
                sheet.notes.append(
                    f"Mass fractions summed to {total:.9g}: renormalised to 1 (as LIGGGHTS)."
                )
        else:
            assert args.particle_diameter is not None
            d, w = [args.particle_diameter], [1.0]
        masses = [
            sheet.step(
                f"m_{i}",
                "ρ π d_i³ / 6",
                f"{fmt(rho, 'kg/m^3')} · π ({fmt(di, 'm')})³ / 6",
                rho * math.pi * di**3 / 6.0,
                "kg",
            )
            for i, di in enumerate(d, 1)
        ]
        per_kg = math.fsum(wi / mi for wi, mi in zip(w, masses, strict=True))
        m_bar = out["number_mean_particle_mass"] = sheet.step(
            "m̄",
            "1 / Σ(w_i / m_i)",
            "1 / ("
            + " + ".join(f"{sig(wi)}/{fmt(mi, 'kg')}" for wi, mi in zip(w, masses, strict=True))
            + ")",
            1.0 / per_kg,
            "kg",
        )
        rate = out["insertion_rate"] = sheet.step(
            "Ṅ", "ṁ / m̄", f"{sig(mdot)} kg/s / {fmt(m_bar, 'kg')}", mdot / m_bar, "1/s"
        )
        out["insertion_rates"] = [mdot * wi / mi for wi, mi in zip(w, masses, strict=True)]
        out["number_mean_volume_diameter"] = sheet.step(
            "d₃₀",
            "(6 m̄ / (π ρ))^(1/3)",
            f"(6 · {fmt(m_bar, 'kg')} / (π · {fmt(rho, 'kg/m^3')}))^(1/3)",
            (6.0 * m_bar / (math.pi * rho)) ** (1.0 / 3.0),
            "m",
        )
        if args.duration is not None:
            out["particles_inserted"] = sheet.step(
                "Ṅ T",
                "Ṅ · T",
                f"{sig(rate)} /s · {fmt(args.duration, 's')}",
                rate * args.duration,
                count=True,
            )
        sheet.notes.append(
            "Mass fractions, not number fractions: convert number fractions first "
            "(polydisperse_counts); the two are not interchangeable."
        )
        sheet.references.append(REF_INSERTION)
    return CostResult(**out)


SIMULATION_COST: ToolSpec[Any, Any] = ToolSpec(
    name="simulation_cost",
    description=(
        "Cost of a DEM run: time steps ceil(T/dt), particle-steps N·n, wall time and core-hours "
        "from a measured throughput (particle-steps per core-second); and the insertion rate "
        "(particles per second) for a mass flow of one size or a size distribution."
    ),
    args_model=CostArgs,
    result_model=CostResult,
    func=simulation_cost,
    group="Run size and cost",
    headline="time_steps",
    example={
        "duration": "10 s",
        "timestep": "2e-6 s",
        "n_particles": 500000,
        "throughput": 1e6,
        "n_cores": 16,
    },
)
