"""Issue 10's examples through the `caec` command: each gives the message or the right value.

`caec run` and `caec ask` (offline) read every value with the one value reader; a value that
cannot be read is a field-named error with exit 2, never a guess, a traceback or a hang.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from caec_desktop import cli
from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.replay import replay_events

INCH = 0.0254  # m, exact (international yard and pound agreement, 1959)
GLASS = ["density=2500", "youngs_modulus=70 GPa", "poisson_ratio=0.25"]


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["run", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def ask_json(capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["ask", text, "--json", "--mode", "offline"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["rayleigh_timestep", "particle_radius=1.2.5 mm", *GLASS],
            'particle_radius: could not read "1.2.5 mm": two decimal points',
        ),
        (
            ["particle_mass", "particle_diameter=2 mm", "density=2500 2"],
            'density: "2500 2" holds two numbers',
        ),
        (
            ["particle_mass", "particle_diameter=2 🦆", "density=2500"],
            'particle_diameter: could not read "2 🦆"',
        ),
        (
            ["particle_mass", "particle_diameter=10**10**10 m", "density=2500"],
            "particle_diameter: could not read",
        ),
        (
            ["particle_mass", "particle_diameter=10**400 m", "density=2500"],
            "particle_diameter: could not read",
        ),
        (
            ["particle_mass", "particle_diameter=1 " + "m" * 100_000, "density=2500"],
            "particle_diameter: could not read",
        ),
        (
            ["rayleigh_timestep", "particle_radius=1e-320", *GLASS],
            'particle_radius: could not read "1e-320": 1e-320 is too small to compute with',
        ),
        (
            [
                "particle_mass",
                "particle_diameter=2 mm",
                "--args",
                '{"density": 1' + "0" * 400 + "}",
            ],
            "density: a whole number of about 401 digits is outside the range",
        ),
        (
            ["particle_mass", "--args", "[" * 2000],
            "--args: nested deeper than",
        ),
        (
            [
                "particle_mass",
                "density=2500",
                "--args",
                '{"particle_diameter": ' + "[" * 2000 + "}",
            ],
            "--args: nested deeper than",
        ),
        (
            ["convert_units", "value=1", "from_unit=m**10**10**10", "to_unit=m"],
            "from_unit: could not read unit",
        ),
        (
            ["particle_mass", "particle_diameter=2 zorks", "density=2500"],
            '"zorks" is not a unit I know',
        ),
    ],
)
def test_unreadable_values_are_field_named_errors(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out = run_json(capsys, *argv)
    assert code == cli.EXIT_INVALID and out["ok"] is False
    assert any(message in e for e in out["errors"]), out["errors"]


def test_run_text_mode_names_the_field_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = cli.main(["run", "particle_mass", "particle_diameter=1.2.5 mm", "density=2500"])
    err = capsys.readouterr().err
    assert code == cli.EXIT_INVALID
    assert 'particle_diameter: could not read "1.2.5 mm": two decimal points' in err
    assert "Traceback" not in err


@pytest.mark.parametrize("radius", ["0.25 in", "0.25in", '0.25"', "0.25 inch", "6.35 mm"])
def test_run_reads_inches(capsys: pytest.CaptureFixture[str], radius: str) -> None:
    code, out = run_json(capsys, "rayleigh_timestep", f"particle_radius={radius}", *GLASS)
    assert code == 0 and out["args"]["particle_radius"] == pytest.approx(0.25 * INCH, rel=1e-12)


def test_run_shows_plausibility_warnings_in_text_and_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # typed with its unit, an odd value computes with a warning (a bare 1.2 is asked back:
    # tests/test_cli_bare_values.py)
    code, out = run_json(capsys, "rayleigh_timestep", "particle_radius=1.2 m", *GLASS)
    assert code == 0 and out["ok"] is True
    (warning,) = out["warnings"]
    assert warning["field"] == "particle_radius" and warning["value"] == 1.2
    assert warning["text"].startswith(
        "particle_radius = 1.2 m is unusually large for a DEM particle — did you mean 1.2 mm?"
    )
    code = cli.main(["run", "rayleigh_timestep", "particle_radius=1.2 m", *GLASS])
    assert code == 0
    assert "warning: particle_radius = 1.2 m is unusually large" in capsys.readouterr().out


def test_replay_of_a_hostile_trace_reports_instead_of_hanging() -> None:
    event = TraceEvent(
        seq=1,
        t_ms=0.0,
        kind="tool_result",
        data={
            "tool": "particle_mass",
            "args": {"particle_diameter": "10**10**10 m", "density": 2500},
            "result": {"particle_mass": 1.0},
        },
    )
    report = replay_events([event])
    assert not report.ok
    assert any("could not read" in d for c in report.calls for d in c.differences)


# --- caec ask, offline ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "rayleigh time step r=1.2.5 mm glass",
            'particle_radius: could not read "1.2.5 mm": two decimal points',
        ),
        ("particle mass d=2 zorks steel", '"zorks" is not a unit I know'),
        ("particle mass d=2 mmm steel", '"mmm" is not a unit I know; did you mean mm?'),
        ("rayleigh time step for a 2 🦆 glass bead", "could not read"),
    ],
)
def test_ask_refuses_to_guess_unreadable_values(
    capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    code, out = ask_json(capsys, text)
    assert (code, out["status"]) == (cli.EXIT_INVALID, "needs_input")
    assert out["tool_results"] == [] and message in out["answer"]


@pytest.mark.parametrize(
    "text",
    [
        "rayleigh time step r=0.25 in glass",
        "rayleigh time step r=0.25in glass",
        'rayleigh time step for 0.5" glass beads',
        "rayleigh time step for 0.25 in radius glass beads",
    ],
)
def test_ask_reads_inches(capsys: pytest.CaptureFixture[str], text: str) -> None:
    code, out = ask_json(capsys, text)
    assert code == 0, out["answer"]
    (result,) = out["tool_results"]
    assert result["args"]["particle_radius"] == pytest.approx(0.25 * INCH, rel=1e-12)


def test_a_pipe_in_inches_is_an_inch_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = ask_json(capsys, 'wall effect 1" pipe 2 mm spheres')
    assert code == 0, out["answer"]
    assert out["tool_results"][0]["args"]["container_diameter"] == pytest.approx(INCH)


def test_contact_stress_typed_in_inches_gives_the_true_verdict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """r = 0.25 in was read as 0.25 m and the check said CAUTION/OK; read as 6.35 mm the
    Hertz peak pressure is far above the allowable: FAIL. Computed here from Johnson (1985)
    §4.2/§6.2: a = (3 F R*/(4 E*))^(1/3), p0 = 3F/(2π a²), allowable 1.6 σ_y / SF."""
    force, radius, e, nu, yield_stress, sf = 10.0, 0.25 * INCH, 210e9, 0.3, 250e6, 1.5
    r_star, e_star = radius / 2, e / (2 * (1 - nu**2))
    a = (3 * force * r_star / (4 * e_star)) ** (1 / 3)
    p0 = 3 * force / (2 * math.pi * a**2)
    utilization = p0 / (1.6 * yield_stress / sf)
    assert utilization > 1  # so the true verdict is fail
    code, out = ask_json(capsys, "contact stress F=10 N r=0.25 in steel yield 250 MPa SF 1.5")
    assert code == 0, out["answer"]
    result = out["tool_results"][0]["result"]
    assert result["verdict"] == "fail"
    assert result["utilization"] == pytest.approx(utilization, rel=1e-9)


def test_numbers_without_a_calculation_need_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = ask_json(capsys, "what about 3 mm and 5 kg")
    assert (code, out["status"]) == (cli.EXIT_INVALID, "needs_input")
    assert out["tool_results"] == []


@pytest.mark.parametrize(
    "text",
    [
        "what is the stress in a 2 mm steel ball under 10 N",
        "how much stress does a 10 N load put on a 1 mm glass bead",
        "calculate the stress for a 5 N force on a 2 mm steel ball",
        "stress in 1 mm glass bead at 5 N",
        "what is the max stress on a 3 mm glass bead pressed with 2 N",
        "find the stress of a 1 mm alumina sphere under 1 N",
        "what stress does a 5 N load give on a 1 mm steel ball",
        "what's the contact stress for F=10 N r=1 mm steel",
        "stresses on a 2 mm bead at 10 N",
    ],
)
def test_every_stress_question_without_a_limit_is_refused(
    capsys: pytest.CaptureFixture[str], text: str
) -> None:
    code, out = ask_json(capsys, text)
    assert (code, out["status"], out["refused"]) == (cli.EXIT_INVALID, "refused", True)
    assert out["tool_results"] == []


def test_a_stress_as_a_condition_is_not_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = ask_json(
        capsys, "rayleigh time step for 1 mm glass beads under a confining stress of 100 kPa"
    )
    assert code == 0 and out["refused"] is False
