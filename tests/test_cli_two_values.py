"""One input given two values on the command line: `density=7850 density=2500`, a JSON key twice
in `--args`, or an input both as a word and in `--args`. `json.loads` and a dict keep the last in
silence (the mass came out for 2500 kg/m³); now each is refused naming the input, exit 2. The
same value twice is not ambiguous and runs."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from caec_desktop import cli


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    return tmp_path


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = cli.main([*argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


TWICE = [
    ["particle_diameter=3 mm", "density=7850", "density=2500"],
    ["particle_diameter=3 mm", "density=7850 kg/m3", "density=7.85 g/cm3"],
    ["particle_diameter=3 mm", "--args", '{"density": 7850, "density": 2500}'],
    ["particle_diameter=3 mm", "density=2500", "--args", '{"density": 7850}'],
    ["--args", '{"particle_diameter": "3 mm", "density": 7850, "density": "2500 kg/m3"}'],
    ["particle_diameter=3 mm", "particle_diameter=4 mm", "density=7850"],
]


@pytest.mark.parametrize("argv", TWICE)
def test_caec_run_refuses_two_values_for_one_input(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_json(capsys, "run", "particle_mass", *argv)
    assert code == 2
    assert not out["ok"] and out["result"] is None
    assert any("given twice" in e and ("density" in e or "particle_diameter" in e)
               for e in out["errors"])  # fmt: skip


@pytest.mark.parametrize("argv", TWICE[:4])
def test_caec_sweep_refuses_two_values_for_one_input(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [a for a in argv if not a.startswith("particle_diameter")]
    code, out = run_json(capsys, "sweep", "particle_mass", "particle_diameter=1mm..2mm:3", *argv)
    assert code == 2
    assert not out["ok"]
    assert any("given twice" in e and "density" in e for e in out["errors"])


@pytest.mark.parametrize(
    "argv",
    [
        ["particle_diameter=3 mm", "density=7850 kg/m3", "density=7850 kg/m3"],
        ["particle_diameter=3 mm", "--args", '{"density": 7850, "density": 7850}'],
        ["particle_diameter=3 mm", "density=7850", "--args", '{"density": "7850"}'],
    ],
)
def test_the_same_value_twice_runs(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_json(capsys, "run", "particle_mass", *argv)
    assert code == 0, out
    mass = 7850.0 * math.pi * 0.003**3 / 6  # m = ρ π d³ / 6 (§1.7)
    assert out["result"]["particle_mass"] == pytest.approx(mass, rel=1e-12)


def test_deep_args_in_caec_sweep_exit_2_not_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    """`caec sweep --args` was parsed with bare `json.loads`: 3,000 brackets were a RecursionError
    (an internal error, exit 1)."""
    deep = "[" * 3000 + "]" * 3000
    code, out = run_json(capsys, "sweep", "particle_mass", "particle_diameter=1mm..2mm:3",
                         "--args", deep)  # fmt: skip
    assert code == 2
    assert any("nested deeper" in e for e in out["errors"])


@pytest.mark.parametrize("command", ["run", "sweep"])
def test_a_number_too_long_to_convert_is_named_in_words(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not Python's `use sys.set_int_max_str_digits()` advice."""
    args = '{"density": ' + "9" * 5000 + "}"
    extra = ["particle_diameter=1mm..2mm:3"] if command == "sweep" else ["particle_diameter=3mm"]
    code, out = run_json(capsys, command, "particle_mass", *extra, "--args", args)
    assert code == 2
    text = " ".join(out["errors"])
    assert "4300 digits" in text and "set_int_max_str_digits" not in text
