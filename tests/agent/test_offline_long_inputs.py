"""Over-long inputs to the offline reader cost bounded work, measured by what the reader's stages
are handed (never by wall time): a number longer than a value may be, or a message longer than
`MAX_MESSAGE_CHARS`, is refused before parsing; a run of white space reaches no pattern (`3` and
20,000 spaces before `mm` took 18 s, `\\s*,?\\s*` being quadratic on it; a 200,000-digit number
took seconds to be refused in `caec chat`)."""

from __future__ import annotations

from typing import Any

import pytest

from caec_desktop.agent.selection.offline import regex_selector
from caec_desktop.agent.selection.offline.regex_selector import (
    MAX_MESSAGE_CHARS,
    classify_text,
    select_text,
)
from caec_desktop.tools.values import MAX_CHARS
from tests.agent.follow_up_blind import run_conversation


@pytest.fixture
def seen(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """(stage, length of the text it was handed) for each call of the parser and the sweep
    reader, the two stages whose patterns run over the whole message."""
    calls: list[tuple[str, int]] = []
    parse, sweep = regex_selector.parse, regex_selector.sweep_selection

    def counted_parse(text: str, *args: Any) -> Any:
        calls.append(("parse", len(text)))
        return parse(text, *args)

    def counted_sweep(text: str, *args: Any) -> Any:
        calls.append(("sweep", len(text)))
        return sweep(text, *args)

    monkeypatch.setattr(regex_selector, "parse", counted_parse)
    monkeypatch.setattr(regex_selector, "sweep_selection", counted_sweep)
    regex_selector.read.cache_clear()
    return calls


@pytest.mark.parametrize(
    "text",
    [
        "particle mass of a 3 mm steel ball, density " + "9" * 200_000 + " kg/m3",
        "rayleigh time step for glass, r = 1." + "0" * 5_000 + " mm",
        "convert " + "1" * (MAX_CHARS + 1) + " mm to in",
    ],
)
def test_an_over_long_number_is_refused_before_any_reading(
    text: str, seen: list[tuple[str, int]]
) -> None:
    selection = select_text(text)
    assert not selection.calls and "digits" in (selection.reply or "")
    assert f"at most {MAX_CHARS} characters" in (selection.reply or "")
    assert classify_text(text) == "calculation"
    assert seen == []  # no pattern of the reader ran over it, no number was converted


def test_an_over_long_message_is_refused_before_any_reading(seen: list[tuple[str, int]]) -> None:
    for text in ("particle mass of 3 " + "mm" * 50_000, "(" * 30_000 + "2 mm" + ")" * 30_000):
        selection = select_text(text)
        assert not selection.calls and f"{MAX_MESSAGE_CHARS:,}" in (selection.reply or "")
    assert seen == []


def test_a_run_of_white_space_reaches_no_pattern(seen: list[tuple[str, int]]) -> None:
    """The stages are handed the same text whatever the length of the run: the work does not
    grow with it (500 vs 5,000 spaces, tabs and line breaks)."""
    lengths = []
    for n in (500, 5_000):
        seen.clear()
        regex_selector.read.cache_clear()
        text = "particle mass of 3" + " " * n + "mm" + "\t" * n + "glass" + "\n" * n + "beads"
        (call,) = select_text(text).calls
        assert call.name == "particle_mass" and call.args["particle_diameter"] == "3 mm"
        lengths.append(sorted(seen))
    assert lengths[0] == lengths[1] and all(n < 100 for _, n in lengths[0])


@pytest.mark.asyncio
async def test_a_follow_up_never_rereads_an_over_long_message() -> None:
    huge = "rayleigh time step for glass beads of " + "1" * 50_000 + " mm"
    turns = await run_conversation((huge, "and for 2 mm?"))
    assert not turns[0]["tool_results"] and "digits" in turns[0]["answer"]
    # the follow-up has no calculation to build on: it is asked about, never merged with it
    assert not turns[1]["tool_results"]
