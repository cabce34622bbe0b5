"""Every tool, the new ones included, goes through the generic paths with no code of its own: a
form run through the Session (graph, validation, trace), replay of its trace, and the report."""

from __future__ import annotations

import asyncio

import pytest

from caec_desktop.services.replay import replay_events
from caec_desktop.services.report import TurnRecord, build_package
from caec_desktop.services.report.markdown import render_markdown
from caec_desktop.services.session import Session
from caec_desktop.tools import get_tool, tool_names


@pytest.mark.parametrize("tool", tool_names())
def test_form_run_replays_and_reports(tool: str) -> None:
    session = Session()

    async def run() -> list:  # type: ignore[type-arg]
        return [e async for e in session.run_tool(tool, get_tool(tool).example)]

    events = asyncio.run(run())
    turn = session.last_turn
    assert turn is not None and turn.status == "answered", turn
    assert [r["tool"] for r in turn.tool_results] == [tool]
    replayed = replay_events(events)
    assert replayed.ok, replayed.to_dict()
    record = TurnRecord(number=1, user_text=f"form {tool}", result=turn.model_dump())
    md = render_markdown(build_package("all tools", [record]), {})
    assert tool in md
    result = turn.tool_results[0]["result"]
    if "verdict" in result:
        assert f"Verdict: {str(result['verdict']).upper()}" in md
