"""A blind set of how values are written, shared by offline chat, form fields and `caec run`.

Written from the tools' schemas and docs/values.md only, before reading the value reader. The rule
(docs/values.md): a value is read exactly or refused; never part of a value, never a dropped unit,
never an evaluated expression. Each row is a class, the text as typed, and what is right:

- ``V(x)``: read as exactly x (in the field's unit: SI, except rpm and degrees where the schema
  says so); anything else is wrong.
- ``VA(x)``: x, or asked/refused: the writing is unusual enough that asking is fine, but any other
  number is silently wrong.
- ``A``: must be asked back or refused, naming the field or quoting the value.
- ``SW``: a range: asked, refused, or a sweep whose ends are the two numbers; never one of them.

Every expected number is computed here from exact unit definitions: 1 in = 25.4 mm, 1 ft = 12 in
(international yard and pound, 1959); 1 lb = 0.45359237 kg (ibid.); T[K] = T[°C] + 273.15 and
T[°C] = (T[°F] − 32)·5/9 (SI brochure / NIST SP 811 §4.2.1.1); 1 rev = 2π rad; 1 P = 0.1 Pa·s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

MM = 1e-3
UM = 1e-6
INCH = 0.0254
FT = 0.3048
LB_FT3 = 0.45359237 / FT**3  # lb/ft³ in kg/m³


@dataclass(frozen=True)
class V:
    value: float


@dataclass(frozen=True)
class VA:
    value: float


@dataclass(frozen=True)
class _Ask:
    pass


@dataclass(frozen=True)
class _Sweep:
    lo: float
    hi: float


A = _Ask()


def SW(lo: float, hi: float) -> _Sweep:
    return _Sweep(lo, hi)


Expect = V | VA | _Ask | _Sweep
Row = tuple[str, str, Expect]  # class, text, expectation

# A length: particle_diameter of particle_mass, in metres.
LENGTH: list[Row] = [
    ("sci", "1e-3 m", V(1e-3)),
    ("sci", "1E-3 m", V(1e-3)),
    ("sci", "1.0e+3 um", V(1e-3)),
    ("sci", "1.5e-3m", V(1.5e-3)),
    ("sci", "1×10^-3 m", V(1e-3)),
    ("sci", "2·10⁻³ m", V(2e-3)),
    ("sci", "1×10⁻³ m", V(1e-3)),
    ("sci", "1x10-3 m", VA(1e-3)),
    ("sci", "1 × 10^-3 m", VA(1e-3)),
    ("sci", "10^-3 m", VA(1e-3)),
    ("sci", "10⁻³ m", VA(1e-3)),
    ("sci", "1e−3 m", VA(1e-3)),
    ("sci", "1×10^−3 m", VA(1e-3)),
    ("sci", "1.5*10^-3 m", VA(1.5e-3)),
    ("sci", "1e3 µm", V(1e-3)),
    ("sci", "10² µm", VA(1e-4)),
    ("sci", "1 E-3 m", VA(1e-3)),
    ("sci", "1e-3.5 m", A),
    ("decimal", ".5 mm", V(5e-4)),
    ("decimal", "5. mm", V(5e-3)),
    ("decimal", "+2 mm", VA(2e-3)),
    ("decimal", "1,5 mm", VA(1.5e-3)),
    ("decimal", "0,5 mm", VA(5e-4)),
    ("decimal", "1,25 mm", VA(1.25e-3)),
    ("thousands", "1 000 µm", VA(1e-3)),
    ("thousands", "1,000 µm", A),
    ("thousands", "1,000,000 nm", VA(1e-3)),
    ("thousands", "1.000 mm", V(1e-3)),
    ("thousands", "1_000 µm", VA(1e-3)),
    ("thousands", "1'000 µm", VA(1e-3)),
    ("minus", "−2 mm", A),
    ("minus", "-2 mm", A),
    ("fraction", "1/4 in", VA(0.25 * INCH)),
    ("fraction", '1/8"', VA(INCH / 8)),
    ("fraction", "½ mm", VA(5e-4)),
    ("fraction", "1 1/2 in", VA(1.5 * INCH)),
    ("fraction", "1½ in", VA(1.5 * INCH)),
    ("fraction", "3/4 mm", VA(0.75e-3)),
    ("compound", "1 ft 2 in", VA(14 * INCH)),
    ("compound", "1' 2\"", VA(14 * INCH)),
    ("compound", "1 m 20 cm", VA(1.2)),
    ("compound", "1 mm 200 µm", VA(1.2e-3)),
    ("range", "1–2 mm", SW(1e-3, 2e-3)),
    ("range", "1-2 mm", SW(1e-3, 2e-3)),
    ("range", "1 to 2 mm", SW(1e-3, 2e-3)),
    ("range", "1 mm to 2 mm", SW(1e-3, 2e-3)),
    ("range", "1...2 mm", SW(1e-3, 2e-3)),
    ("range", "1~2 mm", SW(1e-3, 2e-3)),
    ("tolerance", "1 ± 0.1 mm", A),
    ("tolerance", "1 +/- 0.1 mm", A),
    ("tolerance", "1±0.1mm", A),
    ("tolerance", "1 mm ± 10%", A),
    ("tolerance", "1 (±0.1) mm", A),
    ("approx", "~1 mm", VA(1e-3)),
    ("approx", "≈1 mm", VA(1e-3)),
    ("approx", "≈ 1 mm", VA(1e-3)),
    ("approx", "approx. 1 mm", VA(1e-3)),
    ("approx", "about 1 mm", VA(1e-3)),
    ("approx", "<1 mm", A),
    ("approx", "≤ 1 mm", VA(1e-3)),  # a size's inclusive bound: read and said (docs/values.md)
    ("spelling", "500 microns", V(500 * UM)),
    ("spelling", "500 micron", V(500 * UM)),
    ("spelling", "500 um", V(500 * UM)),
    ("spelling", "500 µm", V(500 * UM)),
    ("spelling", "500 μm", V(500 * UM)),
    ("spelling", "500 micrometres", V(500 * UM)),
    ("spelling", "500 micrometers", V(500 * UM)),
    ("spelling", "2 millimetres", V(2e-3)),
    ("spelling", "2 millimeters", V(2e-3)),
    ("spelling", "2mm", V(2e-3)),
    ("spelling", "0.2 cm", V(2e-3)),
    ("spelling", "0.08 in", V(0.08 * INCH)),
    ("spelling", "0.08 inch", V(0.08 * INCH)),
    ("spelling", "0.08 inches", V(0.08 * INCH)),
    ("spelling", '0.08"', V(0.08 * INCH)),
    ("spelling", "0.08 ″", VA(0.08 * INCH)),
    ("spelling", "2 Mm", VA(2e6)),
    ("spelling", "2 MM", VA(2e-3)),
    ("spelling", "2\u00a0mm", V(2e-3)),
    ("spelling", "2\u2009mm", VA(2e-3)),
    ("spelling", "80 mil", V(80 * 0.001 * INCH)),
    ("garbage", "1 mmm", A),
    ("garbage", "1 mm2", A),
    ("garbage", "1 mm²", A),
    ("garbage", "1 mm3", A),
    ("garbage", "1mm.", VA(1e-3)),
    ("garbage", "1 mm!", VA(1e-3)),
    ("garbage", "1 mm?", VA(1e-3)),
    ("garbage", "1 mm abc", VA(1e-3)),
    ("garbage", "1 milimetre", A),
    ("garbage", "1 mn", A),
    ("garbage", "1.2.3 mm", A),
    ("garbage", "1..2 mm", SW(1e-3, 2e-3)),
    ("garbage", "1e mm", A),
    ("garbage", "e3 mm", A),
    ("garbage", "0x10 mm", A),
    ("garbage", "1e3e3 mm", A),
    ("special", "0 mm", A),
    ("special", "inf mm", A),
    ("special", "infinity mm", A),
    ("special", "nan mm", A),
    ("special", "1e400 m", A),
    ("special", "1e-400 m", A),
    ("special", "∞ mm", A),
    ("two", "2 mm 3 mm", A),
    ("two", "2 3 mm", A),
    ("two", "2 mm, 3 mm", SW(2e-3, 3e-3)),
    ("two", "2 mm/3 mm", A),
    ("expr", "2*3 mm", A),
    ("expr", "2+3 mm", A),
    ("expr", "sqrt(4) mm", A),
    ("expr", "2**3 mm", A),
    ("expr", "(1+1) mm", A),
    ("expr", "__import__('os') mm", A),
    ("words", "one millimetre", VA(1e-3)),
    ("words", "two mm", VA(2e-3)),
    ("words", "half a millimetre", VA(5e-4)),
    ("dimension", "2 kg", A),
    ("dimension", "2 s", A),
    ("dimension", "2 mm/s", A),
    ("dimension", "2 rad", A),
]

# A density: density of particle_mass, kg/m³.
DENSITY: list[Row] = [
    ("spelling", "2500 kg/m3", V(2500.0)),
    ("spelling", "2500 kg/m^3", V(2500.0)),
    ("spelling", "2500 kg/m**3", V(2500.0)),
    ("spelling", "2500 kg/m³", V(2500.0)),
    ("spelling", "2500 kg m-3", V(2500.0)),
    ("spelling", "2500 kg·m⁻³", V(2500.0)),
    ("spelling", "2500 kg m^-3", V(2500.0)),
    ("spelling", "2500 kg.m-3", V(2500.0)),
    ("spelling", "2500 kilograms per cubic metre", V(2500.0)),
    ("spelling", "2500 kilograms per cubic meter", V(2500.0)),
    ("spelling", "2500 kg per cubic metre", V(2500.0)),
    ("spelling", "2500 kg/cubic metre", VA(2500.0)),
    ("spelling", "2.5 g/cc", V(2500.0)),
    ("spelling", "2.5 g/cm3", V(2500.0)),
    ("spelling", "2.5 g/cm³", V(2500.0)),
    ("spelling", "2.5 g/cm^3", V(2500.0)),
    ("spelling", "2.5 g/ml", V(2500.0)),
    ("spelling", "2.5 g/mL", V(2500.0)),
    ("spelling", "2.5 t/m3", V(2500.0)),
    ("spelling", "2.5 kg/L", V(2500.0)),
    ("spelling", "2.5 kg/l", V(2500.0)),
    ("spelling", "156 lb/ft3", V(156 * LB_FT3)),
    ("spelling", "156 lb/ft^3", V(156 * LB_FT3)),
    ("spelling", "156 pcf", V(156 * LB_FT3)),
    ("spelling", "2500 KG/M3", VA(2500.0)),
    ("spelling", "2500 Kg/m3", VA(2500.0)),
    ("sci", "2.5e3 kg/m3", V(2500.0)),
    ("sci", "2.5×10³ kg/m³", V(2500.0)),
    ("sci", "2.5E+03 kg/m3", V(2500.0)),
    ("thousands", "2,500 kg/m3", A),
    ("thousands", "2 500 kg/m3", VA(2500.0)),
    ("thousands", "2.500 kg/m3", VA(2.5)),
    ("thousands", "2,5 g/cm3", VA(2500.0)),
    ("approx", "~2500 kg/m3", VA(2500.0)),
    ("range", "2400-2600 kg/m3", SW(2400.0, 2600.0)),
    ("tolerance", "2500 ± 50 kg/m3", A),
    ("garbage", "2500 kg/m33", A),
    ("garbage", "2500 kgm3", A),
    ("garbage", "2500 kg/m", A),
    ("garbage", "2500 kg/m3/s", A),
    ("dimension", "70 GPa", A),
    ("dimension", "2500 kg", A),
    ("dimension", "2500 N/m3", A),
    ("special", "nan kg/m3", A),
    ("special", "-2500 kg/m3", A),
]

# Young's modulus: youngs_modulus of rayleigh_timestep, Pa.
MODULUS: list[Row] = [
    ("spelling", "70 GPa", V(70e9)),
    ("spelling", "70GPa", V(70e9)),
    ("spelling", "70 Gpa", V(70e9)),
    ("spelling", "70 GPA", V(70e9)),
    ("spelling", "70000 MPa", V(70e9)),
    ("spelling", "70 gigapascals", V(70e9)),
    ("spelling", "70 kN/mm2", V(70e9)),
    ("spelling", "70 kN/mm²", V(70e9)),
    ("spelling", "70000 N/mm²", V(70e9)),
    ("spelling", "7e10 Pa", V(70e9)),
    ("spelling", "7e10 N/m2", V(70e9)),
    ("spelling", "10 ksi", V(10e3 * 0.45359237 * 9.80665 / INCH**2)),
    ("sci", "7×10^10 Pa", V(70e9)),
    ("sci", "7·10¹⁰ Pa", V(70e9)),
    ("sci", "7.0E10 Pa", V(70e9)),
    ("thousands", "70,000 MPa", A),
    ("thousands", "70 000 MPa", VA(70e9)),
    ("decimal", "0,07 TPa", VA(70e9)),
    ("garbage", "70 GPaa", A),
    ("garbage", "70 Gpascal", VA(70e9)),
    ("garbage", "70 G Pa", A),
    ("dimension", "70 GN", A),
    ("dimension", "2500 kg/m3", A),
    ("special", "0 GPa", A),
    ("special", "inf GPa", A),
    ("expr", "70e9/2 Pa", A),
]

# Porosity: porosity of bulk_properties, a ratio.
POROSITY: list[Row] = [
    ("percent", "40 %", V(0.4)),
    ("percent", "40%", V(0.4)),
    ("percent", "40 percent", V(0.4)),
    ("percent", "40 per cent", VA(0.4)),
    ("percent", "0.4", V(0.4)),
    ("percent", "4e1 %", V(0.4)),
    ("percent", "40,5 %", VA(0.405)),
    ("percent", "400 ‰", VA(0.4)),
    ("percent", "40 %%", A),
    ("percent", "40 % ± 2 %", A),
    ("percent", "140 %", A),
    ("percent", "−0.1", A),
    ("dimension", "0.4 m", A),
]

# A contact angle: contact_angle of cohesion_numbers, in degrees (the schema's unit).
ANGLE: list[Row] = [
    ("angle", "30°", V(30.0)),
    ("angle", "30 °", V(30.0)),
    ("angle", "30 deg", V(30.0)),
    ("angle", "30 degrees", V(30.0)),
    ("angle", "30 degree", V(30.0)),
    ("angle", "0.5 rad", V(math.degrees(0.5))),
    ("angle", "0.5 radians", V(math.degrees(0.5))),
    ("angle", "30º", VA(30.0)),
    ("angle", "30˚", VA(30.0)),
    ("angle", "π/6 rad", A),
    ("angle", "100°", A),
    ("angle", "30 °C", A),
    ("angle", "30 degC", A),
    ("angle", "30° ± 5°", A),
    ("angle", "30 grad", VA(27.0)),
]

# A drum speed: rotation_speed of flow_regime, in rpm (the schema's unit).
ROTATION: list[Row] = [
    ("speed", "20 rpm", V(20.0)),
    ("speed", "20 RPM", V(20.0)),
    ("speed", "20 Rpm", V(20.0)),  # r-p-m in any case: no other unit is spelt so
    ("speed", "20 rPm", V(20.0)),
    ("speed", "20 r/min", VA(20.0)),
    ("speed", "20 rev/min", V(20.0)),
    ("speed", "20 revolutions per minute", V(20.0)),
    ("speed", "0.5 rev/s", V(30.0)),
    ("speed", "0.5 rps", VA(30.0)),
    ("speed", "2 rad/s", V(2 * 60 / (2 * math.pi))),
    ("speed", "2 rad s-1", V(2 * 60 / (2 * math.pi))),
    ("speed", "2 Hz", A),
    ("speed", "2 1/s", A),
    ("speed", "20 1/min", A),
    ("speed", "120 deg/s", VA(120 / 360 * 60)),
    ("speed", "20 rmp", A),
    ("speed", "2 m/s", A),
]

# A time: timestep of timesteps_for_duration, s.
TIME: list[Row] = [
    ("time", "1 µs", V(1e-6)),
    ("time", "1 μs", V(1e-6)),
    ("time", "1 us", V(1e-6)),
    ("time", "1 microsecond", V(1e-6)),
    ("time", "1e-6 s", V(1e-6)),
    ("time", "1e-6 sec", V(1e-6)),
    ("time", "1e-3 ms", V(1e-6)),
    ("time", "1000 ns", V(1e-6)),
    ("time", "1×10⁻⁶ s", V(1e-6)),
    ("time", "1 µsec", VA(1e-6)),
    ("time", "1 Ms", VA(1e6)),
    ("time", "1e-6 ss", A),
    ("time", "1e-6 Hz", A),
]

# A viscosity: fluid_viscosity of cfd_dem_numbers, Pa·s.
VISCOSITY: list[Row] = [
    ("viscosity", "1 cP", V(1e-3)),
    ("viscosity", "1 mPa s", V(1e-3)),
    ("viscosity", "1 mPa·s", V(1e-3)),
    ("viscosity", "1 mPa.s", V(1e-3)),
    ("viscosity", "1e-3 Pa s", V(1e-3)),
    ("viscosity", "1e-3 Pa·s", V(1e-3)),
    ("viscosity", "1e-3 Pa*s", V(1e-3)),
    ("viscosity", "0.001 Pas", VA(1e-3)),
    ("viscosity", "1 centipoise", V(1e-3)),
    ("viscosity", "0.01 poise", V(1e-3)),
    ("viscosity", "1e-3 kg/(m s)", V(1e-3)),
    ("viscosity", "1e-3 N s/m2", V(1e-3)),
    ("viscosity", "1 mpa s", A),
    ("viscosity", "1e-3 Pa", A),
]

# A temperature conversion (convert_units to kelvin): the result in K.
TEMPERATURE: list[Row] = [
    ("temperature", "20 °C", V(293.15)),
    ("temperature", "20 degC", V(293.15)),
    ("temperature", "20 ℃", VA(293.15)),
    ("temperature", "20 celsius", V(293.15)),
    ("temperature", "20 degrees Celsius", VA(293.15)),
    ("temperature", "68 °F", V((68 - 32) * 5 / 9 + 273.15)),
    ("temperature", "68 degF", V((68 - 32) * 5 / 9 + 273.15)),
    ("temperature", "68 fahrenheit", V((68 - 32) * 5 / 9 + 273.15)),
    ("temperature", "−40 °C", V(233.15)),
    ("temperature", "-40 °F", V(233.15)),
    ("temperature", "300 K", V(300.0)),
    # A lone C or F in a temperature conversion is read as °C or °F, and the reply says so
    # (test_value_formats.py); the blind set had them asked (coulomb, farad).
    ("temperature", "20 C", VA(293.15)),
    ("temperature", "20 F", VA((20 - 32) * 5 / 9 + 273.15)),
    ("temperature", "20 °K", VA(20.0)),
]

TABLES: dict[str, list[Row]] = {
    "length": LENGTH,
    "density": DENSITY,
    "modulus": MODULUS,
    "porosity": POROSITY,
    "angle": ANGLE,
    "rotation": ROTATION,
    "time": TIME,
    "viscosity": VISCOSITY,
    "temperature": TEMPERATURE,
}


def rows(*dims: str) -> list[tuple[str, str, str, Expect]]:
    """(dimension, class, text, expectation) of the named tables, in order."""
    return [(d, c, t, e) for d in dims for c, t, e in TABLES[d]]


def same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.0)


def judge(expect: Expect, outcome: tuple[str, object]) -> str:
    """right | asked (correctly) | wrong (silently) | refused (wrongly).

    ``outcome`` is ("value", float), ("sweep", (lo, hi)) or ("asked", message).
    """
    kind, got = outcome
    if kind == "asked":
        return "refused" if isinstance(expect, V) else "asked"
    if kind == "sweep":
        lo, hi = got  # type: ignore[misc]
        ok = isinstance(expect, _Sweep) and same(lo, expect.lo) and same(hi, expect.hi)
        return "right" if ok else "wrong"
    if isinstance(expect, V | VA) and same(float(got), expect.value):  # type: ignore[arg-type]
        return "right"
    return "wrong"


# -- the three entry points -----------------------------------------------------------------------

# dimension -> (chat template, tool, field, other inputs for forms and `caec run`)
ENTRY: dict[str, tuple[str, str, str, dict[str, str]]] = {
    "length": (
        "mass of a glass bead of diameter {v}",
        "particle_mass",
        "particle_diameter",
        {"density": "2500 kg/m^3"},
    ),
    "density": (
        "mass of a 2 mm bead of density {v}",
        "particle_mass",
        "density",
        {"particle_diameter": "2 mm"},
    ),
    "modulus": (
        "rayleigh time step, radius 1 mm, density 2500 kg/m3, poisson 0.25, E {v}",
        "rayleigh_timestep",
        "youngs_modulus",
        {"particle_radius": "1 mm", "density": "2500 kg/m^3", "poisson_ratio": "0.25"},
    ),
    "porosity": (
        "bulk density for porosity {v}, solid density 2500 kg/m3",
        "bulk_properties",
        "porosity",
        {"solid_density": "2500 kg/m^3"},
    ),
    "angle": (
        "liquid bridge force between 1 mm glass beads in water, contact angle {v}",
        "cohesion_numbers",
        "contact_angle",
        {"particle_radius": "0.5 mm", "liquid_surface_tension": "0.0728 N/m"},
    ),
    "rotation": (
        "froude number of a drum of radius 0.5 m at {v}",
        "flow_regime",
        "rotation_speed",
        {"drum_radius": "0.5 m"},
    ),
    "time": (
        "how many time steps to simulate 2 s at a time step of {v}",
        "timesteps_for_duration",
        "timestep",
        {"duration": "2 s"},
    ),
    "viscosity": (
        "terminal velocity of 1 mm glass beads, fluid density 1000 kg/m3, fluid viscosity {v}",
        "cfd_dem_numbers",
        "fluid_viscosity",
        {
            "particle_diameter": "1 mm",
            "particle_density": "2500 kg/m^3",
            "fluid_density": "1000 kg/m^3",
        },
    ),
    "temperature": ("convert {v} to K", "convert_units", "value", {}),
}


def _field_value(dim: str, model: object) -> float | None:
    field = ENTRY[dim][2]
    value = getattr(model, field, None)
    if dim == "rotation" and value is None:
        omega = getattr(model, "angular_velocity", None)  # rad/s -> rpm (1 rev = 2π rad)
        value = None if omega is None else omega * 60 / (2 * math.pi)
    return None if value is None else float(value)


def chat_outcome(dim: str, text: str) -> tuple[str, object]:
    """What offline chat does with the value typed in its dimension's request."""
    from caec_desktop.agent.selection.offline import select_text
    from caec_desktop.tools import execute, validate
    from caec_desktop.tools.sweep import plan_sweep

    template, _, field, _ = ENTRY[dim]
    selection = select_text(template.format(v=text))
    if not selection.calls:
        return ("asked", selection.reply or "")
    call = selection.calls[0]
    if call.name == "sweep":
        plan, errors = plan_sweep(call.args)
        if plan is None:
            return ("asked", "; ".join(str(e) for e in errors))
        if plan.parameter != field and not (dim == "rotation" and "angular" in plan.parameter):
            return ("value", math.nan)
        factor = 60 / (2 * math.pi) if plan.parameter == "angular_velocity" else 1.0
        return ("sweep", (min(plan.values) * factor, max(plan.values) * factor))
    model, errors = validate(call.name, call.args)
    if model is None:
        return ("asked", "; ".join(str(e) for e in errors))
    if dim == "temperature":
        outcome = execute(call.name, call.args)
        if not outcome.ok or outcome.result is None:
            return ("asked", "; ".join(str(e) for e in outcome.errors))
        if str(outcome.result.get("unit")) != "K":
            return ("value", math.nan)
        return ("value", float(outcome.result["value"]))
    value = _field_value(dim, model)
    return ("value", math.nan if value is None else value)


def form_outcome(dim: str, text: str) -> tuple[str, object]:
    """The value typed whole into a form field's box, the unit box left at the field's unit, read
    as the form's editors read it (services.forms: join_value for quantities, plain_number for
    plain numbers), then validated as the form's Run does."""
    from caec_desktop.services.forms import form_fields, join_value, plain_number
    from caec_desktop.tools import tool_schema, validate

    _, tool, field, others = ENTRY[dim]
    fields = {f.name: f for f in form_fields(tool_schema(tool))}

    def read(name: str, typed: str) -> object:
        f = fields[name]
        if f.kind in ("number", "integer"):
            number = plain_number(typed.strip())
            return typed.strip() if number is None else number
        return join_value(typed, f.unit or "", f.unit or "")

    args = {name: read(name, typed) for name, typed in others.items()}
    args[field] = read(field, text)
    model, errors = validate(tool, args)
    if model is None:
        return ("asked", "; ".join(str(e) for e in errors))
    value = _field_value(dim, model)
    return ("value", math.nan if value is None else value)


def cli_outcome(dim: str, text: str) -> tuple[str, object]:
    """`caec run TOOL field=TEXT ... --json`."""
    import contextlib
    import io
    import json

    from caec_desktop import cli

    _, tool, field, others = ENTRY[dim]
    argv = ["run", tool, *(f"{k}={v}" for k, v in others.items()), f"{field}={text}", "--json"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = cli.main(argv)
    data = json.loads(out.getvalue())
    if code != 0 or not data.get("ok"):
        return ("asked", "; ".join(str(e) for e in data.get("errors", [])))
    value = data["args"].get(field)
    if dim == "rotation" and value is None and data["args"].get("angular_velocity") is not None:
        value = data["args"]["angular_velocity"] * 60 / (2 * math.pi)
    return ("value", math.nan if value is None else float(value))


def check(entry: str, dim: str, text: str, expect: Expect, outcome: tuple[str, object]) -> None:
    """Assert one row: right or correctly asked; a refusal names the field or quotes the value."""
    verdict = judge(expect, outcome)
    assert verdict in ("right", "asked"), f"{entry} {dim} {text!r}: {verdict}, got {outcome}"
    if outcome[0] == "asked":
        message = str(outcome[1])
        field = ENTRY[dim][2]
        assert field in message or text.strip() in message, (entry, text, message)
