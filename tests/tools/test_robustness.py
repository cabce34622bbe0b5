"""Extreme and inconsistent input: every tool answers with field messages, never a traceback.

From a code review: units with non-finite exponents, finite values whose results leave the
floating-point range (1e±300, subnormals such as 5e-324, 1e308), contradictory option pairs, and
limits whose message did not say why.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from caec_desktop.cli import EXIT_INVALID, main
from caec_desktop.tools import execute, get_tool, tool_names

OUT_OF_RANGE = "outside floating-point range"


def messages(name: str, args: dict[str, Any]) -> dict[str, str]:
    outcome = execute(name, args)
    assert not outcome.ok, outcome.result
    return {e.field: e.message for e in outcome.errors}


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list | tuple):
        return all(_finite(v) for v in value)
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    return True


# --- units with non-finite exponents -------------------------------------------------------------


def test_unit_with_infinite_exponent_is_a_field_error() -> None:
    got = messages("convert_units", {"value": 1, "from_unit": "m**1e400", "to_unit": "m"})
    assert "from_unit" in got
    assert "power must be a whole number" in got["from_unit"]


def test_cli_run_with_infinite_exponent_exits_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "convert_units", "value=1", "from_unit=m**1e400", "to_unit=m", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == EXIT_INVALID
    assert out["ok"] is False and out["errors"][0].startswith("from_unit:")


def test_dimension_mismatch_names_dimensions_of_unusual_units() -> None:
    """The message names the dimension from pint's dimensionality, not by re-parsing str(unit)
    (fractional powers such as m**2.5 are no longer read at all: whole-number powers only)."""
    got = messages("convert_units", {"value": 1, "from_unit": "m**4", "to_unit": "kg"})
    assert "[length] ** 4" in got["to_unit"] and "mass" in got["to_unit"]


# --- finite values whose results overflow or underflow -----------------------------------------


@pytest.mark.parametrize(
    ("name", "args", "field"),
    [
        ("particle_mass", {"particle_diameter": 1e300, "density": 2500}, "particle_diameter"),
        ("convert_units", {"value": 1e308, "from_unit": "km", "to_unit": "mm"}, "value"),
        # dt_R ~ R sqrt(rho/G) = 1e-300 m x 1e-148 s/m underflows to 0 s: an underflow, not a step
        (
            "rayleigh_timestep",
            {"particle_radius": 1e-300, "density": 2500, "youngs_modulus": 1e300},
            "particle_radius",
        ),
    ],
)
def test_out_of_range_result_names_the_input(name: str, args: dict[str, Any], field: str) -> None:
    args = {**args, "poisson_ratio": 0.25} if name == "rayleigh_timestep" else args
    got = messages(name, args)
    assert field in got and OUT_OF_RANGE in got[field]
    assert "check" in got[field]


@pytest.mark.parametrize(
    ("field", "value"),
    [("normal_force", 1e-320), ("normal_force", "1e-320 N"), ("youngs_modulus", 5e-324)],
)
def test_subnormal_inputs_are_refused_by_field(field: str, value: Any) -> None:
    """Below 2.2e-308 a float has lost precision (subnormal): such an input is refused by name
    before anything is computed with it (1e-320 N once gave a contact stress from a radius 0)."""
    args = {**get_tool("contact_stress_check").example, field: value}
    got = messages("contact_stress_check", args)
    assert "too small to compute with" in got[field]


def test_every_input_that_alone_restores_the_range_is_named() -> None:
    """d = 1e100 m gives V_p = 5e299 m³; times ρ = 1e10 kg/m³ the mass overflows. Either one at
    its example value (2 mm, 2500 kg/m³) brings the mass back in range, so both are named."""
    got = messages("particle_mass", {"particle_diameter": 1e100, "density": 1e10})
    assert set(got) == {"particle_diameter", "density"}
    assert "1e+100 m" in got["particle_diameter"] and "particle_mass = inf" in got["density"]


def test_out_of_range_without_a_culprit_is_a_call_message() -> None:
    """A partner sphere of r = 1e-300 m has a mass ~ r³ = 0 kg, so the contact time comes out as
    exactly 0 s (once reported as an answer). other_radius has no example value to compare with,
    so the message concerns the whole call and says where."""
    args = {**get_tool("hertz_contact_time").example, "other_radius": 1e-300}
    got = messages("hertz_contact_time", args)
    assert list(got) == [""]
    assert OUT_OF_RANGE in got[""] and "underflow" in got[""] and "contact_time = 0.0" in got[""]


def test_cli_run_overflow_exits_invalid(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["run", "particle_mass", "particle_diameter=1e300", "density=2500"])
    err = capsys.readouterr().err
    assert code == EXIT_INVALID
    assert "particle_diameter" in err and "Traceback" not in err


def _numeric_fields(name: str) -> list[str]:
    """Fields of the tool's example that hold numbers (or numbers with units, or lists of them)."""
    out = []
    for key, value in get_tool(name).example.items():
        if isinstance(value, bool):
            continue
        items = value if isinstance(value, list) else [value]
        if all(isinstance(v, int | float) or any(c.isdigit() for c in str(v)) for v in items):
            out.append(key)
    return out


FLOATS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True),
    st.sampled_from([5e-324, 1e-320, 2.2250738585072014e-308, 1e-300, 1e300, 1e308, 1.7e308]),
)


@pytest.mark.parametrize("name", tool_names())
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_execute_never_raises_and_ok_results_are_finite(name: str, data: st.DataObject) -> None:
    example = get_tool(name).example
    fields = data.draw(st.lists(st.sampled_from(_numeric_fields(name)), min_size=1, unique=True))
    args = dict(example)
    for key in fields:
        if isinstance(example[key], list):
            args[key] = data.draw(st.lists(FLOATS, min_size=len(example[key]), max_size=8))
        else:
            args[key] = data.draw(FLOATS)
    outcome = execute(name, args)
    if outcome.ok:
        assert _finite(outcome.result), outcome.result
    else:
        assert outcome.errors and all(e.message for e in outcome.errors)


# --- inconsistent options --------------------------------------------------------------------


GLASS: dict[str, Any] = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}


def test_rayleigh_contradictory_moduli_is_a_field_error() -> None:
    got = messages("rayleigh_timestep", {**GLASS, "shear_modulus": "1 GPa"})
    assert got["shear_modulus"] == (
        "1 GPa contradicts youngs_modulus=70 GPa and poisson_ratio=0.25 "
        "(G = E/(2(1+ν)) = 28 GPa); give one of them"
    )


def test_rayleigh_consistent_moduli_are_accepted_and_noted() -> None:
    g = 70e9 / (2 * (1 + 0.25))  # 28 GPa, 0.5 % off below
    outcome = execute("rayleigh_timestep", {**GLASS, "shear_modulus": g * 1.005})
    assert outcome.ok and outcome.calc_sheet is not None
    assert outcome.result is not None and outcome.result["shear_modulus"] == g * 1.005
    assert any("agree" in n and "1 %" in n for n in outcome.calc_sheet.notes)


def test_rayleigh_moduli_just_outside_one_percent_conflict() -> None:
    g = 70e9 / (2 * (1 + 0.25))
    assert "shear_modulus" in messages("rayleigh_timestep", {**GLASS, "shear_modulus": g * 1.02})


CYLINDER: dict[str, Any] = {
    "container_shape": "cylinder",
    "diameter": "20 mm",
    "height": "100 mm",
    "particle_diameter": "2 mm",
    "wall_correction": True,
}


def test_explicit_packing_fraction_with_wall_correction_is_an_error() -> None:
    got = messages("estimate_particle_count", {**CYLINDER, "packing_fraction": 0.64})
    assert got["wall_correction"] == (
        "wall_correction computes φ from D/d; remove packing_fraction=0.64 or wall_correction"
    )


def test_default_packing_fraction_with_wall_correction_is_fine() -> None:
    assert execute("estimate_particle_count", CYLINDER).ok


# --- limits that explain themselves --------------------------------------------------------------


def test_zero_restitution_message_explains_why() -> None:
    got = messages(
        "linear_spring_contact", {"effective_mass": "5 mg", "restitution": 0, "stiffness": 1e5}
    )
    text = got["restitution"]
    assert text.startswith("must be > 0")
    assert "critically damped" in text and "never separates" in text
    assert "restitution_to_damping" in text


def test_contact_stress_caution_band_is_labelled_as_our_margin() -> None:
    outcome = execute("contact_stress_check", get_tool("contact_stress_check").example)
    assert outcome.calc_sheet is not None
    band = next(t for t in outcome.calc_sheet.thresholds if "caution" in t)
    assert "CAEC" in band and "not from Johnson" in band
    assert "CAEC" in get_tool("contact_stress_check").description


# --- hostile values of every kind, in every tool (issue 10) ------------------------------------


def _deep(levels: int) -> Any:
    value: Any = 1.0
    for _ in range(levels):
        value = [value]
    return value


HOSTILE = st.one_of(
    st.sampled_from(
        [
            10**400,
            -(10**400),
            10**309,
            1e308,
            -1e308,
            5e-324,
            1e-320,
            math.nan,
            math.inf,
            -math.inf,
            0.0,
            -0.0,
            True,
            None,
            "10**10**10 m",
            "10**400 m",
            "1e999 m",
            "1e-400 m",
            "1e-320",
            "x" * 100_000,
            "1 " + "m" * 100_000,
            "2 🦆",
            "NaN",
            "inf m",
            "1.2.5 mm",
            "2500 2",
            "",
            " ",
            "2 m**1e400",
            "\x00",
            "2 mm" + "\u202e",
            "−0.5 mm",
            "2×10^-400 m",
            "1e308 km",
            {"value": 1},
            [1, "2 mm", None],
            _deep(50),
            _deep(2000),
        ]
    ),
    st.text(max_size=30),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.floats(),
)


@pytest.mark.parametrize("name", tool_names())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_execute_with_hostile_values_never_raises_nor_answers_silently_wrong(
    name: str, data: st.DataObject
) -> None:
    """Whatever a user, a file or a model puts into any field: `execute` returns (never raises),
    a run that fails says why per field, and a run that succeeds has no non-finite result and no
    physical result of exactly 0 (an underflow) unless the tool allows it."""
    spec = get_tool(name)
    fields = list(spec.args_model.model_fields)
    chosen = data.draw(st.lists(st.sampled_from(fields), min_size=1, max_size=3, unique=True))
    args = dict(spec.example)
    for key in chosen:
        args[key] = data.draw(HOSTILE)
    outcome = execute(name, args)
    if not outcome.ok:
        assert outcome.errors and all(e.message for e in outcome.errors)
        return
    assert _finite(outcome.result), outcome.result
    units = spec.result_units()
    zero = [
        k
        for k, v in (outcome.result or {}).items()
        if v == 0.0 and isinstance(v, float) and units.get(k)
    ]
    assert set(zero) <= spec.result_model.zero_allowed, (zero, args)
