"""A sweep's first result column is the tool's headline result, declared per tool
(`ToolSpec.headline`), never an input or an intermediate that happens to come first in the schema:
the threshold is read in its unit and drawn against it, the window table and plot start with it."""

from __future__ import annotations

import math

import pytest

from caec_desktop.tools.registry import get_tool
from caec_desktop.tools.sweep import first_column, result_columns, run_sweep, sweepable_tools


@pytest.mark.parametrize("tool", sweepable_tools())
def test_every_tool_declares_a_numeric_headline_that_is_not_an_input(tool: str) -> None:
    headline = get_tool(tool).headline
    numeric = [name for name, _ in result_columns(tool)]
    assert headline in numeric, f"{tool}: headline {headline!r} is not a numeric result"
    assert first_column(tool) == result_columns(tool)[0]
    assert result_columns(tool)[0][0] == headline


def test_all_25_tools_are_checked() -> None:
    assert len(sweepable_tools()) == 25


def test_a_polydisperse_rayleigh_threshold_is_a_time_against_the_rayleigh_step() -> None:
    args = dict(get_tool("polydisperse_rayleigh").example)
    del args["mean_diameter"]
    outcome = run_sweep(
        {
            "tool": "polydisperse_rayleigh",
            "parameter": "mean_diameter",
            "values": ["1 mm", "2 mm"],
            "args": args,
            "threshold": "2e-7 s",
        }
    )
    assert outcome.ok, outcome.error_text()
    assert outcome.table is not None
    assert outcome.table["threshold_column"] == "rayleigh_timestep"
    assert math.isclose(outcome.table["threshold"], 2e-7)
    assert outcome.table["columns"][0] == {"name": "rayleigh_timestep", "unit": "s"}


def test_coarse_graining_over_its_scale_factor_leads_with_the_parcel_count() -> None:
    outcome = run_sweep(
        {
            "tool": "coarse_graining",
            "parameter": "scale_factor",
            "values": [2, 4],
            "args": {"n_particles": 1e6},
        }
    )
    assert outcome.table is not None
    assert outcome.table["columns"][0]["name"] == "parcel_count"
    counts = [p["result"]["parcel_count"] for p in outcome.table["points"]]
    assert counts == pytest.approx([1e6 / 2**3, 1e6 / 4**3])  # N_p = N / s³ (references §R2)
