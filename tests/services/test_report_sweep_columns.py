"""A sweep in the report: the swept values stay in their column even when the tool also returns a
result of that name, and every column reads in one display unit (docs/sweeps.md: "A column or an
axis uses one unit for all its values")."""

from __future__ import annotations

import math
from datetime import UTC, datetime

import pytest

from caec_desktop.services.report import TurnRecord, build_package
from caec_desktop.tools.sweep import run_sweep

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)


def _package(request: dict) -> object:
    outcome = run_sweep(request)
    assert outcome.ok and outcome.table is not None
    call = {"tool": "sweep", "args": request, "result": outcome.table, "source": "form"}
    record = TurnRecord(1, "sweep", {"status": "answered", "tool_results": [call]})
    return build_package("s", [record], generated=WHEN)


def test_a_swept_input_that_is_also_a_result_keeps_its_values() -> None:
    pkg = _package(
        {
            "tool": "coarse_graining",
            "parameter": "scale_factor",
            "values": [2, 4, 8],
            "args": {"particle_diameter": "0.5 mm", "density": 2500, "n_particles": 1e6},
        }
    )
    ((_, sweep),) = pkg.sweeps  # type: ignore[attr-defined]
    assert sweep.names.count("scale_factor") == 1
    assert [row[0] for row in sweep.rows] == [2, 4, 8]
    assert [row[0] for row in sweep.shown_rows] == ["2", "4", "8"]
    # the parcel diameter D = s d beside it (docs/references.md §R2: D = s d)
    d_col = sweep.names.index("parcel_diameter")
    for row, s in zip(sweep.rows, (2, 4, 8), strict=True):
        assert math.isclose(row[d_col], s * 0.5e-3)


def test_every_sweep_column_has_one_unit_in_every_format() -> None:
    # dt_R ∝ r is ~1 µs at r = 1 mm (glass): 0.8-1.2 mm crosses 1 µs; the column reads in µs
    from tests.services.report_fixtures import ARGS

    pkg = _package(
        {
            "tool": "rayleigh_timestep",
            "parameter": "particle_radius",
            "values": ["0.8 mm", "1 mm", "1.2 mm"],
            "args": {k: v for k, v in ARGS.items() if k != "particle_radius"},
        }
    )
    ((_, sweep),) = pkg.sweeps  # type: ignore[attr-defined]
    col = sweep.names.index("rayleigh_timestep")
    want = [rayleigh(r, 2500, 70e9, 0.25) for r in (0.8e-3, 1e-3, 1.2e-3)]
    assert want[0] < 1e-6 < want[-1]  # the column crosses 1 µs
    assert sweep.shown_headers[col] == "rayleigh_timestep [µs]"
    cells = [r[col] for r in sweep.shown_rows]
    for cell, value in zip(cells, want, strict=True):
        assert math.isclose(float(cell), value * 1e6, rel_tol=1e-3)  # µs, no unit in the cell
    md, page = pkg.markdown(), pkg.html()  # type: ignore[attr-defined]
    assert "rayleigh_timestep \\[µs\\]" in md and "rayleigh_timestep [µs]" in page
    for cell in cells:
        assert f"| {cell} |" in md and f"<td>{cell}</td>" in page


def rayleigh(r: float, rho: float, e: float, nu: float) -> float:
    """dt_R = π r √(ρ/G) / (0.1631 ν + 0.8766), G = E / (2(1 + ν)) (docs/references.md §1.1)."""
    g = e / (2 * (1 + nu))
    return math.pi * r * math.sqrt(rho / g) / (0.1631 * nu + 0.8766)


def test_window_and_cli_tables_have_the_swept_input_once() -> None:
    from caec_desktop.tools.sweep import sweep_csv

    outcome = run_sweep(
        {
            "tool": "coarse_graining",
            "parameter": "scale_factor",
            "values": [2, 4],
            "args": {"particle_diameter": "0.5 mm"},
        }
    )
    assert outcome.table is not None
    header, *rows = sweep_csv(outcome.table).splitlines()
    assert header.split(",").count("scale_factor") == 1
    assert [r.split(",")[0] for r in rows] == ["2", "4"]
    assert all(c["name"] != "scale_factor" for c in outcome.table["columns"])


COARSE = {
    "tool": "coarse_graining",
    "parameter": "scale_factor",
    "values": [2, 4],
    "args": {"n_particles": 1e6},
}
# with n_particles only, coarse graining gives counts and s-factors, no sizes, masses,
# stiffness or times (those need particle_diameter, density, stiffness, …)
NOT_GIVEN = ("parcel_diameter", "particle_mass", "stiffness_parcel", "timestep_parcel")


def test_columns_empty_at_every_point_are_left_out_and_named_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Reports and `caec sweep` listed 13 columns with no value at any point for these inputs."""
    import json

    from caec_desktop.cli import main
    from caec_desktop.tools.sweep import empty_columns, sweep_markdown, sweep_text

    pkg = _package(COARSE)
    ((_, sweep),) = pkg.sweeps  # type: ignore[attr-defined]
    assert "parcel_count" in sweep.names and not set(NOT_GIVEN) & set(sweep.names)
    assert set(NOT_GIVEN) <= set(sweep.left_out)
    line = sweep.left_out_line
    assert line.startswith("Left out, not computed from these inputs at any point: ")
    assert all(name in line for name in NOT_GIVEN) and "parcel_count" not in line
    md, page, csv_text = pkg.markdown(), pkg.html(), pkg.sweep_csv()  # type: ignore[attr-defined]
    assert line in md and line in page
    assert not any(name in csv_text.splitlines()[0] for name in NOT_GIVEN)
    table = run_sweep(COARSE).table
    assert table is not None and empty_columns(table) == sweep.left_out
    for text in (sweep_text(table), sweep_markdown(table)):
        head = next(t for t in text.splitlines() if "scale_factor" in t and "parcel_count" in t)
        assert not any(name in head for name in NOT_GIVEN)
        assert line in text.splitlines()
    pairs = ["coarse_graining", "scale_factor=2, 4", "n_particles=1000000"]
    assert main(["sweep", *pairs]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == line and not any(name in out[1] for name in NOT_GIVEN)
    assert main(["sweep", *pairs, "--csv"]) == 0
    said = capsys.readouterr()
    assert not any(name in said.out for name in NOT_GIVEN) and line in said.err  # a plain table
    assert main(["sweep", *pairs, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)["display"]
    assert shown["left_out"] == sweep.left_out
    assert not any(name in " ".join(shown["headers"]) for name in NOT_GIVEN)


def test_a_column_empty_only_at_failed_points_is_kept() -> None:
    from caec_desktop.tools.sweep import empty_columns, sweep_text
    from tests.services.report_fixtures import ARGS

    request = {
        "tool": "rayleigh_timestep",
        "parameter": "particle_radius",
        "values": ["0.5 mm", "-1 mm", "2 mm"],
        "args": {k: v for k, v in ARGS.items() if k != "particle_radius"},
    }
    table = run_sweep(request).table
    assert table is not None and table["failed"] == 1
    assert empty_columns(table) == []
    text = sweep_text(table)
    assert "rayleigh_timestep [µs]" in text and "FAILED" in text and "Left out" not in text
    ((_, sweep),) = _package(request).sweeps  # type: ignore[attr-defined]
    assert "rayleigh_timestep" in sweep.names and sweep.left_out == [] and sweep.failures
