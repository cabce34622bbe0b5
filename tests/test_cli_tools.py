"""`caec tools` and `caec run`: the contract of docs/architecture.md (JSON, exit codes, sheets)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from importlib.metadata import entry_points
from typing import Any

import pytest

from caec_desktop.cli import EXIT_INVALID, EXIT_OK, main
from caec_desktop.tools import tool_names

RUN_KEYS = {"ok", "tool", "args", "result", "errors"}


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["run", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_tools_json_lists_every_tool_with_its_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "--json"]) == EXIT_OK
    listed = json.loads(capsys.readouterr().out)
    assert [t["name"] for t in listed] == tool_names()
    by_name = {t["name"]: t for t in listed}
    for tool in listed:
        assert set(tool) == {"name", "group", "description", "parameters"}
        assert tool["description"] and tool["parameters"]["type"] == "object"
    diameter = by_name["particle_mass"]["parameters"]["properties"]["particle_diameter"]
    assert diameter["x-unit"] == "m" and "[m]" in diameter["description"]


def test_tools_text_marks_optional_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools"]) == EXIT_OK
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "container_shape" in x)
    assert "[packing_fraction]" in line.split()
    assert "particle_diameter" in line.split()  # required: no brackets


def test_run_with_units_in_key_value_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "particle_mass", "particle_diameter=2 mm", "density=2.5 g/cm^3")
    assert code == EXIT_OK
    assert set(out) >= RUN_KEYS
    assert out["ok"] is True and out["tool"] == "particle_mass" and out["errors"] == []
    assert out["args"] == {
        "particle_diameter": pytest.approx(0.002),
        "density": pytest.approx(2500.0),
    }
    assert out["result"]["particle_mass"] == pytest.approx(2500 * math.pi * 0.002**3 / 6)


def test_run_with_args_json_and_pairs_together(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(
        capsys,
        "polydisperse_counts",
        "number_fractions=[0.5, 0.5]",
        "--args",
        '{"diameters": ["1 mm", "2 mm"]}',
    )
    assert code == EXIT_OK, out["errors"]
    assert out["result"]["mass_fractions"] == pytest.approx([1 / 9, 8 / 9])


def test_pair_values_read_as_json_when_they_are(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(
        capsys,
        "estimate_particle_count",
        "container_shape=cylinder",
        "diameter=20mm",
        "height=0.2 m",
        "particle_diameter=2mm",
        "wall_correction=true",
    )
    assert code == EXIT_OK, out["errors"]
    assert out["args"]["wall_correction"] is True
    assert out["result"]["packing_fraction"] == pytest.approx(1 - (0.390 + 1.740 / 11.14**2))


def test_invalid_input_json_exit_2_names_field(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "particle_mass", "particle_diameter=-1 mm", "density=2500")
    assert code == EXIT_INVALID
    assert set(out) >= RUN_KEYS
    assert out["ok"] is False and out["result"] is None
    assert out["errors"] == ["particle_diameter: must be > 0 m, got -0.001 m"]


def test_invalid_input_text_goes_to_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "convert_units", "value=1", "from_unit=inch", "to_unit=kg"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "convert_units: invalid input" in captured.err
    assert "to_unit: 'kg' is a mass" in captured.err
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("as_json", [False, True])
def test_unknown_tool_exit_2_with_known_names(
    capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    code = main(["run", "no_such_tool", "x=1", *(["--json"] if as_json else [])])
    assert code == EXIT_INVALID
    captured = capsys.readouterr()
    text = json.loads(captured.out)["errors"][0] if as_json else captured.err
    assert "unknown tool 'no_such_tool'" in text and "particle_mass" in text


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["particle_mass", "particle_diameter"], "expected key=value"),
        (["particle_mass", "--args", "[1, 2]"], "JSON object"),
        (["particle_mass", "--args", "{not json"], "invalid arguments"),
    ],
)
def test_malformed_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(["run", *argv]) == EXIT_INVALID
    assert words in capsys.readouterr().err


def test_text_output_shows_results_and_calc_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "particle_mass", "particle_diameter=2mm", "density=2500"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "particle_mass = 10.47 mg" in out  # 2500 · π (2 mm)³ / 6 = 1.0472e-5 kg
    assert "Calc sheet: particle_mass" in out
    assert "V_p = π d³ / 6 = π · (2 mm)³ / 6" in out
    assert "References:" in out and "MFiX" in out


def test_console_script_points_at_main() -> None:
    (script,) = entry_points(group="console_scripts", name="caec")
    assert script.value == "caec_desktop.cli:main"


def test_module_entry_point_in_a_subprocess() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "caec_desktop",
            "run",
            "convert_units",
            "value=1",
            "from_unit=inch",
            "to_unit=mm",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == EXIT_OK, proc.stderr
    assert json.loads(proc.stdout)["result"] == {"value": 25.4, "unit": "mm"}


def test_tools_are_listed_by_group(capsys: pytest.CaptureFixture[str]) -> None:
    """`caec tools` prints each group once, as a header over its tools; --json names the group."""
    from caec_desktop.tools import get_tool, tool_groups

    assert main(["tools"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    headers = [line[3:-3] for line in lines if line.startswith("== ")]
    assert headers == list(tool_groups())
    for group, names in tool_groups().items():
        start = lines.index(f"== {group} ==")
        listed = [line.split(":")[0] for line in lines[start + 1 :] if line and line[0].isalpha()]
        assert listed[: len(names)] == names
    assert main(["tools", "--json"]) == EXIT_OK
    for tool in json.loads(capsys.readouterr().out):
        assert tool["group"] == get_tool(tool["name"]).group
    assert len(tool_names()) == 25


def test_run_text_shows_values_in_words_not_python(capsys: pytest.CaptureFixture[str]) -> None:
    """Plain `caec run`: booleans as yes/no, values not computed left out (no `None`, `False`)."""
    code = main(
        [
            "run",
            "cfd_dem_numbers",
            "particle_diameter=1 mm",
            "particle_density=2500 kg/m^3",
            "fluid_density=998.2 kg/m^3",
            "fluid_viscosity=1.002e-3 Pa*s",
        ]
    )
    assert code == EXIT_OK
    rows = dict(
        line.split(" = ", 1) for line in capsys.readouterr().out.splitlines() if " = " in line
    )
    assert rows["rises"] == "no"  # a 2500 kg/m³ bead sinks in water
    assert "None" not in rows.values() and "False" not in rows.values()
    assert "cell_to_diameter" not in rows  # no cell size given: nothing computed, nothing shown
