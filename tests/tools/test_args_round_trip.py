"""Validated arguments, dumped in SI and run again, mean the same thing.

The graph records `outcome.args` in every tool_result and `caec replay` runs them again, so a
dump must never turn "not given" into "given" (e.g. a default packing fraction colliding with
wall_correction).
"""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.tools import execute, get_tool, tool_names

WALL_CORRECTED: dict[str, Any] = {
    "container_shape": "cylinder",
    "diameter": "400 mm",
    "height": "600 mm",
    "particle_diameter": "3 mm",
    "wall_correction": True,
}


@pytest.mark.parametrize("name", tool_names())
def test_dumped_args_reproduce_the_result(name: str) -> None:
    first = execute(name, get_tool(name).example)
    assert first.ok, first.error_text()
    again = execute(name, first.args)
    assert again.ok, again.error_text()
    assert again.result == first.result


def test_wall_correction_survives_a_round_trip() -> None:
    first = execute("estimate_particle_count", WALL_CORRECTED)
    assert first.ok, first.error_text()
    again = execute("estimate_particle_count", first.args)
    assert again.ok, again.error_text()
    assert again.result == first.result
    # Benyahia & O'Neill 2005: ε = 0.390 + 1.740/(D/d + 1.140)², D/d = 400/3.
    assert again.result is not None
    assert again.result["packing_fraction"] == pytest.approx(
        1 - (0.390 + 1.740 / (400 / 3 + 1.140) ** 2)
    )


def test_an_explicit_fraction_with_wall_correction_is_still_an_error() -> None:
    outcome = execute("estimate_particle_count", {**WALL_CORRECTED, "packing_fraction": 0.64})
    assert not outcome.ok
    assert outcome.errors[0].field == "wall_correction"
