"""A conversion whose number the value reader refuses (`convert 1,000 mm to m`) says why, quoting
it; it was read again by the conversion's own pattern as `value = 1.` and asked for units."""

from __future__ import annotations

import json

import pytest

from caec_desktop import cli
from tests.agent.follow_up_blind import one_turn

# -- conversions of a value the reader refused ----------------------------------------------------

REFUSED_CONVERSIONS = [
    ("convert 1,000 mm to m", "1,000"),
    ("convert 1 000 mm to m", "1 000"),
    ("convert 7'850 kg/m3 to g/cm3", "7'850"),
    ("convert 1.2.5 mm to m", "1.2.5"),
    ("convert 1e-320 m to mm", "1e-320"),
    ("convert 10^3 mm to m", "10^3"),
    ("convert 2,5 in to mm", "2,5"),
]


@pytest.mark.asyncio
@pytest.mark.parametrize(("text", "typed"), REFUSED_CONVERSIONS)
async def test_a_refused_value_is_not_converted_in_part(text: str, typed: str) -> None:
    """The reply quotes the value and why; never `value = 1` read from `1,000`."""
    turn = await one_turn(text)
    assert not turn["tool_results"], turn["tool_results"]
    assert "could not read" in turn["answer"]
    assert typed in turn["answer"]
    assert "value = 1." not in turn["answer"]


@pytest.mark.parametrize(("text", "typed"), REFUSED_CONVERSIONS[:3])
def test_a_refused_conversion_exits_2(
    text: str, typed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = cli.main(["ask", text, "--json", "--mode", "offline"])
    out = json.loads(capsys.readouterr().out)
    assert code == 2
    assert out["status"] == "needs_input"
    assert typed in out["answer"]
