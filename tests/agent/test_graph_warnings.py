"""A plausibility warning reaches the trace (`warning` event), the report and the result entry."""

from __future__ import annotations

import pytest

from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings

WHY = "particle_radius = 1.2 m is unusually large for a DEM particle — did you mean 1.2 mm?"


@pytest.mark.asyncio
async def test_an_unusual_value_computes_and_says_so_everywhere() -> None:
    session = Session(Settings(mode="offline"))
    events = [e async for e in session.ask("rayleigh time step r=1.2 m rho=2500 E=70 GPa nu=0.25")]
    turn = session.last_turn
    assert turn is not None and turn.status == "answered"
    (warning,) = [e for e in events if e.kind == "warning"]
    assert warning.data["field"] == "particle_radius" and warning.data["value"] == 1.2
    assert warning.data["why"].startswith("is unusually large for a DEM particle")
    assert warning.data["message"].startswith(WHY)
    kinds = [e.kind for e in events]
    assert kinds.index("warning") < kinds.index("tool_result")
    (entry,) = turn.tool_results
    assert entry["warnings"][0].startswith(WHY)
    assert f"⚠ **Check:** {WHY}" in turn.answer


@pytest.mark.asyncio
async def test_the_calculation_package_lists_the_warning_once() -> None:
    from caec_desktop.services.report import TurnRecord, build_package

    session = Session(Settings(mode="offline"))
    async for _ in session.ask("rayleigh time step r=1.2 m rho=2500 E=70 GPa nu=0.25"):
        pass
    turn = session.last_turn
    assert turn is not None
    record = TurnRecord(number=1, user_text="r=1.2", result=turn.model_dump(), events=turn.events)
    (calc,) = build_package("t", [record]).calculations
    assert [w for w in calc.warnings if "unusually large" in w] == [calc.warnings[0]]
    assert calc.warnings[0].startswith(WHY)
