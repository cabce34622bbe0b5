"""Digits grouped by an apostrophe or an underscore (`7'850`, `1_000`, Swiss and programmers'
thousands separators) and feet-and-inches (`1'6"`): refused whole by the value reader, offline chat
and `caec run`, never read as the digits after the mark (`7'850 kg/m³` once computed with 850)."""

from __future__ import annotations

import json

import pytest

from caec_desktop import cli
from caec_desktop.tools.values import ValueReadError, read_value
from tests.agent.follow_up_blind import one_turn

# -- digits grouped by an apostrophe or an underscore ------------------------------------------

GROUPED = ["7'850 kg/m3", "7’850 kg/m3", "7_850 kg/m3", "7'850", "1_000.5 kg/m3", "2'500'000 kg/m3"]


@pytest.mark.parametrize("typed", GROUPED)
def test_grouped_digits_are_refused_by_the_reader(typed: str) -> None:
    with pytest.raises(ValueReadError, match="thousands separator"):
        read_value(typed)


@pytest.mark.parametrize("typed", ["1'6\"", "5'11\"", "1'6 in"])
def test_feet_and_inches_are_two_values(typed: str) -> None:
    with pytest.raises(ValueReadError, match="feet and inches"):
        read_value(typed)


def test_a_foot_mark_alone_is_still_a_foot() -> None:
    assert read_value("3'").unit == "foot"


@pytest.mark.asyncio
@pytest.mark.parametrize("typed", GROUPED)
async def test_grouped_digits_in_chat_compute_nothing(typed: str) -> None:
    """Never the digits after the mark read as the value (`7'850` as 850 kg/m³)."""
    turn = await one_turn(f"particle mass of a 3 mm steel ball, density {typed}")
    assert not turn["tool_results"], turn["tool_results"]
    assert "thousands separator" in turn["answer"]
    assert turn["status"] == "needs_input"


@pytest.mark.asyncio
@pytest.mark.parametrize("typed", ["1_000 um", "1'000 um"])
async def test_grouped_size_in_chat_computes_nothing(typed: str) -> None:
    turn = await one_turn(f"particle mass of a {typed} steel ball")
    assert not turn["tool_results"]
    assert "thousands separator" in turn["answer"]


@pytest.mark.parametrize("typed", ["7'850 kg/m3", "7_850 kg/m3"])
def test_grouped_digits_in_caec_run_exit_2_naming_the_field(
    typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(
        ["run", "particle_mass", "particle_diameter=3 mm", f"density={typed}", "--json"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 2
    assert not out["ok"]
    assert any(e.startswith("density:") and "thousands separator" in e for e in out["errors"])
