"""`caec run TOOL field=VALUE` against the blind set of value writings
(tests/value_format_rows.py): read exactly, or a field-named error with exit 2."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from caec_desktop import cli
from tests.value_format_rows import TABLES, Expect, check, cli_outcome, rows

DIMS = [d for d in TABLES if d != "temperature"]  # convert_units' value is a plain number


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))


@pytest.mark.parametrize(("dim", "cls", "text", "expect"), rows(*DIMS))
def test_run_reads_each_value_exactly_or_names_the_field(
    dim: str, cls: str, text: str, expect: Expect
) -> None:
    check("cli", dim, text, expect, cli_outcome(dim, text))


def _sweep(capsys: pytest.CaptureFixture[str], spec: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["sweep", "particle_mass", spec, "density=2500", "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("particle_diameter=1,5 mm", "1.5 with a decimal comma"),
        ("particle_diameter=2,500 um", "2500 with a thousands separator"),
        ("particle_diameter=1,000,000 nm", "may be one number with thousands separators"),
        ("particle_diameter=100,200,300 um", "may be one number with thousands separators"),
    ],
)
def test_a_sweep_list_that_may_be_one_number_is_refused(
    capsys: pytest.CaptureFixture[str], spec: str, said: str
) -> None:
    """`1,5 mm` was swept over 1 mm and 5 mm, `2,500 um` over 2 µm and 500 µm."""
    code, out = _sweep(capsys, spec)
    assert code == cli.EXIT_INVALID and out["ok"] is False
    (error,) = out["errors"]
    assert error.startswith("particle_diameter: ") and said in error


@pytest.mark.parametrize(
    ("spec", "values"),
    [
        ("particle_diameter=1, 5 mm", [1e-3, 5e-3]),
        ("particle_diameter=0.5,1,2 mm", [0.5e-3, 1e-3, 2e-3]),
        ("particle_diameter=1.5,2.5 mm", [1.5e-3, 2.5e-3]),
        ("particle_diameter=1e-3,2e-3 m", [1e-3, 2e-3]),
    ],
)
def test_a_sweep_list_that_is_a_list_is_swept(
    capsys: pytest.CaptureFixture[str], spec: str, values: list[float]
) -> None:
    code, out = _sweep(capsys, spec)
    assert code == 0, out["errors"]
    got = [row["value"] for row in out["table"]["points"]]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(got, values, strict=True))


def test_a_sweep_list_of_bare_sizes_is_asked_for_its_unit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Sizes are typed in mm, µm, inches and metres alike: bare ones are not taken as metres
    (tools/bare.py, the rule `caec run` follows too)."""
    code, out = _sweep(capsys, "particle_diameter=1e-3,2e-3")
    assert code == cli.EXIT_INVALID and out["ok"] is False
    assert out["errors"] and all(
        e.startswith("particle_diameter: ") and "has no unit" in e for e in out["errors"]
    )
