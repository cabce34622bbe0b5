"""Silent misreads a new user's tryout found, as classes, each with variants written here (other
tools, words and orders), including follow-up conversations:

- a bare number where the input has a dimension (`diameters 1, 2 and 5`, `and for 3?`) is asked
  back (which unit?), never read in metres;
- sizes or speeds listed with `and` / `or` are a sweep over every value, never one value with
  the others dropped; a value left over for an input the tool has says so truthfully;
- arithmetic (`5 + 3 mm`) is refused whole, never evaluated nor half-read;
- a diameter and a radius that disagree are refused naming both;
- a reply to `I need more input` keeps the tool and what was read; a follow-on naming another
  tool (`and the max overlap?`) or a wall (`same against a wall`) carries the inputs over; a
  material that is no preset (`PTFE`) is said to be unknown.

Results are computed here from the formulas of docs/references.md, independently of the tools.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from caec_desktop.agent.selection.offline import select_text
from caec_desktop.tools import execute, validate

PI = math.pi
GLASS = {"density": 2500.0, "youngs_modulus": 70e9, "poisson_ratio": 0.25}
STEEL = {"density": 7850.0, "youngs_modulus": 210e9, "poisson_ratio": 0.30}


def rayleigh(r: float, rho: float, e: float, nu: float) -> float:
    """dt_R = π R √(ρ/G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν)) (docs/references.md §1)."""
    return PI * r * math.sqrt(rho / (e / (2 * (1 + nu)))) / (0.1631 * nu + 0.8766)


def sphere_mass(d: float, rho: float) -> float:
    return rho * PI * d**3 / 6


def _pair(r: float, rho: float, e: float, nu: float) -> tuple[float, float, float]:
    """Two equal spheres: R* = r/2, m* = m/2, E* = E / (2 (1 − ν²))."""
    return r / 2, sphere_mass(2 * r, rho) / 2, e / (2 * (1 - nu**2))


def hertz_time(r: float, rho: float, e: float, nu: float, v: float) -> float:
    """t_H = 2.868 (m*² / (R* E*² v))^(1/5): 2 (2/5) B(2/5, 1/2) (15/16)^(2/5) = 2.868."""
    integral = 0.4 * math.gamma(0.4) * math.gamma(0.5) / math.gamma(0.9)
    constant = 2 * integral * (15 / 16) ** 0.4
    r_star, m_star, e_star = _pair(r, rho, e, nu)
    return float(constant * (m_star**2 / (r_star * e_star**2 * v)) ** 0.2)


def hertz_overlap(r: float, rho: float, e: float, nu: float, v: float) -> float:
    """δ_max = (15 m* v² / (16 E* √R*))^(2/5)."""
    r_star, m_star, e_star = _pair(r, rho, e, nu)
    return float((15 * m_star * v**2 / (16 * e_star * math.sqrt(r_star))) ** 0.4)


def _same(got: Any, want: Any) -> bool:
    return math.isclose(float(got), float(want), rel_tol=1e-6)


def _check(
    selection: Any, tool: str, args: dict[str, Any], key: tuple[str, float] | None, text: str
) -> None:
    assert selection.calls, f"no call for {text!r}: {selection.reply}"
    call = selection.calls[0]
    assert call.name == tool, f"{text!r}: {call.name} {call.args}"
    model, errors = validate(call.name, call.args)
    assert model is not None, f"{text!r}: {errors}"
    for name, want in args.items():
        if want is None:
            assert name not in call.args, f"{text!r}: {name} must be absent"
        elif isinstance(want, bool):
            assert getattr(model, name) is want, f"{text!r}: {name}"
        else:
            assert _same(getattr(model, name), want), f"{text!r}: {name} {getattr(model, name)}"
    if key is not None:
        outcome = execute(call.name, call.args)
        assert outcome.ok and outcome.result is not None, outcome.error_text()
        assert _same(outcome.result[key[0]], key[1]), f"{text!r}: {outcome.result[key[0]]}"


def _history(*texts: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": t} for t in texts]


# -- a bare number for an input with a dimension is asked back ---------------------------------

BARE = [
    ("rayleigh time step for glass, diameters 1, 2 and 5", "1, 2 and 5"),
    ("mass of steel balls, diameter 3", "3"),
    ("particle mass d=2 rho=7850 kg/m3", "2"),
    ("hertz contact time of glass beads, radius 0.5, at 1 m/s", "0.5"),
    ("max overlap of steel balls with diameters 1 or 2 at 1 m/s", "1 or 2"),
    ("neighbour cell size for radius 0.002", "0.002"),
    ("rayleigh dt r=1 mm rho=2500 kg/m3 E=70 nu=0.25", "70"),  # 70 Pa: surely not meant
]


@pytest.mark.parametrize(("text", "quoted"), BARE, ids=[b[0] for b in BARE])
def test_a_bare_number_with_a_dimension_is_asked_back(text: str, quoted: str) -> None:
    selection = select_text(text)
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply and "which unit" in selection.reply
    assert f'"{quoted}"' in selection.reply


BARE_FOLLOW_UPS = [
    (["time step for 1 mm glass"], "and for 3?"),
    (["mass of 2 mm steel balls"], "what about 5?"),
    (["hertz contact time 1 mm glass at 2 m/s"], "and with 4?"),
    (["time step for 1 mm glass"], "and for r = 2?"),
    (["rayleigh dt r=1 mm rho=2500 kg/m3 E=70 GPa nu=0.25"], "and E=70?"),
]


@pytest.mark.parametrize(("before", "text"), BARE_FOLLOW_UPS, ids=[b[1] for b in BARE_FOLLOW_UPS])
def test_a_bare_follow_up_is_asked_back(before: list[str], text: str) -> None:
    selection = select_text(text, _history(*before))
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply and "no unit" in selection.reply


@pytest.mark.parametrize(
    ("before", "text", "values"),
    [
        (["time step for 1 mm glass"], "and for 2 and 3 mm?", [1e-3, 1.5e-3]),
        (["time step for 1 mm glass"], "what about 3 mm or 4 mm", [1.5e-3, 2e-3]),
    ],
)
def test_a_follow_up_list_is_swept(before: list[str], text: str, values: list[float]) -> None:
    (call,) = select_text(text, _history(*before)).calls
    assert call.name == "sweep" and call.args["parameter"] == "particle_radius"
    for value, want in zip(call.args["values"], values, strict=True):
        args = {**call.args["args"], "particle_radius": value}
        outcome = execute("rayleigh_timestep", args)
        assert outcome.ok and outcome.result is not None
        assert _same(outcome.result["rayleigh_timestep"], rayleigh(want, *GLASS.values()))


def test_a_bare_value_with_no_dimension_is_still_read() -> None:
    """ν, counts and a density typed in its usual SI unit stay read (docs/values.md)."""
    text = "rayleigh dt r=1 mm rho=2500 E=70e9 nu=0.25"
    _check(
        select_text(text),
        "rayleigh_timestep",
        {"particle_radius": 1e-3, "density": 2500.0, "youngs_modulus": 70e9},
        ("rayleigh_timestep", rayleigh(1e-3, 2500, 70e9, 0.25)),
        text,
    )


UNNAMED = [
    ("hertz contact time for 1 mm glass at 2", "2"),
    ("rayleigh time step for glass from 0.5 to 2", "0.5"),
    ("mass of steel balls of 4", "4"),
]


@pytest.mark.parametrize(("text", "number"), UNNAMED, ids=[u[0] for u in UNNAMED])
def test_an_unnamed_bare_number_is_asked_about(text: str, number: str) -> None:
    selection = select_text(text)
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply and f"{number} has no unit and no name" in selection.reply


# -- lists joined by and / or are sweeps over every value --------------------------------------

SWEEPS = [
    ("rayleigh time step for glass beads of 1 and 2 mm", "particle_radius", [0.5e-3, 1e-3]),
    ("mass of steel balls 1, 2 or 5 mm", "particle_diameter", [1e-3, 2e-3, 5e-3]),
    ("particle mass of 1 mm or 2 mm glass beads", "particle_diameter", [1e-3, 2e-3]),
    ("hertz contact time for 1 mm glass at 1 or 3 m/s", "impact_velocity", [1.0, 3.0]),
    ("max overlap of 2 mm steel balls at 1 m/s and 2 m/s", "impact_velocity", [1.0, 2.0]),
    ("time step of 0.5 mm and 1 mm steel particles", "particle_radius", [0.25e-3, 0.5e-3]),
]


def _expected(tool: str, a: dict[str, Any]) -> tuple[str, float]:
    if tool == "rayleigh_timestep":
        return "rayleigh_timestep", rayleigh(
            a["particle_radius"], a["density"], a["youngs_modulus"], a["poisson_ratio"]
        )
    if tool == "particle_mass":
        return "particle_mass", sphere_mass(a["particle_diameter"], a["density"])
    pair = (a["particle_radius"], a["density"], a["youngs_modulus"], a["poisson_ratio"])
    if tool == "hertz_contact_time":
        return "contact_time", hertz_time(*pair, a["impact_velocity"])
    return "max_overlap", hertz_overlap(*pair, a["impact_velocity"])


@pytest.mark.parametrize(("text", "parameter", "values"), SWEEPS, ids=[s[0] for s in SWEEPS])
def test_a_list_with_and_or_is_swept_whole(text: str, parameter: str, values: list[float]) -> None:
    (call,) = select_text(text).calls
    assert call.name == "sweep", f"{text!r}: {call.name} {call.args}"
    assert call.args["parameter"] == parameter
    assert len(call.args["values"]) == len(values)
    for value, want in zip(call.args["values"], values, strict=True):
        args = {**call.args["args"], parameter: value}
        model, errors = validate(call.args["tool"], args)
        assert model is not None, errors
        si = model.model_dump()
        assert _same(si[parameter], want)
        key, expected = _expected(call.args["tool"], si)
        outcome = execute(call.args["tool"], args)
        assert outcome.ok and outcome.result is not None
        assert _same(outcome.result[key], expected)


LEFT_OVER = [
    ("hertz contact time for 1 mm glass at 2 m/s (5 m/s worst case)", "5 m/s", "impact_velocity"),
    ("mass of 2 mm steel balls, 3 mm ones too", "3 mm", "particle_diameter"),
]


@pytest.mark.parametrize(("text", "value", "name"), LEFT_OVER, ids=[t[0] for t in LEFT_OVER])
def test_a_value_left_over_for_an_input_says_so(text: str, value: str, name: str) -> None:
    selection = select_text(text)
    assert selection.reply
    note = next(line for line in selection.reply.split("\n") if line.startswith("**Not used"))
    assert f"{value} (the tool takes one {name}, which took" in note
    assert "not an input" not in note


SPLIT_LISTS = [
    "time step for 1 mm glass, 2 mm or 3 mm",
    "mass of steel balls of 2 mm, or else 3 mm and 4 mm",
]


@pytest.mark.parametrize("text", SPLIT_LISTS)
def test_values_of_one_input_typed_apart_are_refused(text: str) -> None:
    """Listed apart from the first value, a sweep cannot be read; never one taken, the rest
    dropped."""
    selection = select_text(text)
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply and "typed more than once" in selection.reply


# -- arithmetic is refused whole ---------------------------------------------------------------

ARITHMETIC = [
    ("what is 5 + 3 mm", []),
    ("rayleigh time step for glass, d = 2 mm + 1 mm", []),
    ("mass of 2 plus 3 mm steel balls", []),
    ("hertz contact time 1 mm glass at 4 / 2 m/s", []),
    ("what is 5 + 3 mm", ["time step for 1 mm glass"]),
    ("and for 1 mm + 1 mm?", ["mass of 2 mm steel balls"]),
]


@pytest.mark.parametrize(("text", "before"), ARITHMETIC, ids=[a[0] for a in ARITHMETIC])
def test_arithmetic_is_refused(text: str, before: list[str]) -> None:
    selection = select_text(text, _history(*before))
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply and "arithmetic" in selection.reply


# -- two values for one input ------------------------------------------------------------------

CONFLICTS = [
    ("rayleigh time step 2 mm diameter steel with radius 1.5 mm", "diameter = 2 mm", "1.5 mm"),
    ("mass of glass beads d=3 mm r=1 mm", "d = 3 mm", "r = 1 mm"),
    ("pwave time step of steel, r = 2 mm, d = 3 mm", "r = 2 mm", "d = 3 mm"),
]


@pytest.mark.parametrize(("text", "one", "two"), CONFLICTS, ids=[c[0] for c in CONFLICTS])
def test_a_diameter_and_radius_that_disagree_are_refused(text: str, one: str, two: str) -> None:
    selection = select_text(text)
    assert not selection.calls, f"{text!r} computed: {selection.calls}"
    assert selection.reply and "two values for" in selection.reply
    assert one in selection.reply and two in selection.reply


def test_a_diameter_and_radius_that_agree_compute() -> None:
    text = "rayleigh time step 2 mm diameter steel with radius 1 mm"
    _check(
        select_text(text),
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **STEEL},
        ("rayleigh_timestep", rayleigh(1e-3, *STEEL.values())),
        text,
    )


# -- follow-ups --------------------------------------------------------------------------------

PTFE = "rayleigh timestep of 1 mm PTFE beads"
HERTZ = "hertz contact time 1 mm glass at 2 m/s"
FOLLOW_UPS: list[tuple[list[str], str, str, dict[str, Any], tuple[str, float] | None]] = [
    (
        [PTFE],
        "density 2200 kg/m3, E 0.5 GPa, poisson 0.46",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, "density": 2200.0, "youngs_modulus": 0.5e9},
        ("rayleigh_timestep", rayleigh(0.5e-3, 2200, 0.5e9, 0.46)),
    ),
    (
        [PTFE],
        "rho=2200 kg/m3 E=0.5 GPa nu=0.46",
        "rayleigh_timestep",
        {"particle_radius": 0.5e-3, "poisson_ratio": 0.46},
        ("rayleigh_timestep", rayleigh(0.5e-3, 2200, 0.5e9, 0.46)),
    ),
    (
        [PTFE, "density 2200 kg/m3, E 0.5 GPa, poisson 0.46"],
        "and for 2 mm?",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, "density": 2200.0},
        ("rayleigh_timestep", rayleigh(1e-3, 2200, 0.5e9, 0.46)),
    ),
    (
        ["hertz contact time for 2 mm particles at 1 m/s"],
        "E = 10 MPa, nu 0.3, density 1200 kg/m3",
        "hertz_contact_time",
        {"particle_radius": 1e-3, "impact_velocity": 1.0, "youngs_modulus": 10e6},
        ("contact_time", hertz_time(1e-3, 1200, 10e6, 0.3, 1.0)),
    ),
    (
        [HERTZ],
        "and the max overlap?",
        "hertz_max_overlap",
        {"particle_radius": 0.5e-3, "impact_velocity": 2.0, **GLASS},
        ("max_overlap", hertz_overlap(0.5e-3, 2500, 70e9, 0.25, 2.0)),
    ),
    (
        [HERTZ, "and the max overlap?"],
        "and for 3 m/s?",
        "hertz_max_overlap",
        {"particle_radius": 0.5e-3, "impact_velocity": 3.0},
        ("max_overlap", hertz_overlap(0.5e-3, 2500, 70e9, 0.25, 3.0)),
    ),
    (
        ["particle mass of 2 mm steel balls"],
        "and the rayleigh time step?",
        "rayleigh_timestep",
        {"particle_radius": 1e-3, **STEEL},
        ("rayleigh_timestep", rayleigh(1e-3, *STEEL.values())),
    ),
    (
        [HERTZ],
        "same against a wall",
        "hertz_contact_time",
        {"particle_radius": 0.5e-3, "impact_velocity": 2.0, "wall": True},
        None,
    ),
]


@pytest.mark.parametrize(
    ("before", "text", "tool", "args", "key"), FOLLOW_UPS, ids=[f[1] for f in FOLLOW_UPS]
)
def test_follow_up(
    before: list[str], text: str, tool: str, args: dict[str, Any], key: tuple[str, float] | None
) -> None:
    _check(select_text(text, _history(*before)), tool, args, key, text)


@pytest.mark.parametrize(
    ("text", "word"),
    [(PTFE, "PTFE"), ("hertz contact time for 1 mm PEEK particles at 1 m/s", "PEEK")],
)
def test_an_unknown_material_is_named(text: str, word: str) -> None:
    selection = select_text(text)
    assert not selection.calls
    assert selection.reply and f"{word} is not a material preset I know" in selection.reply


@pytest.mark.parametrize(
    ("text", "meant"),
    [
        ("raleigh timestep for 1mm glas beads", "glass"),
        ("rayleigh time step for 0.5 mm steal balls", "steel"),
        ("hertz contact time for 2 mm stel particles at 1 m/s", "steel"),
    ],
)
def test_a_misspelt_material_is_asked_about_never_filled(text: str, meant: str) -> None:
    """A near spelling of a preset that the typo reader does not correct (under 5 letters, or
    not close enough: `correct_typos`) gets "did you mean"; the user asks again, the preset's
    values are never filled from a guess."""
    selection = select_text(text)
    assert not selection.calls
    assert selection.reply and f"Did you mean {meant}? Ask again with its name" in selection.reply
    assert "Did you mean" not in (select_text(PTFE).reply or "")  # nothing close to PTFE


def test_read_so_far_is_its_own_paragraph() -> None:
    """Markdown would glue a line right after a bullet onto that bullet."""
    reply = select_text(PTFE).reply or ""
    assert "\n\nI read so far: r = 0.5 mm" in reply
