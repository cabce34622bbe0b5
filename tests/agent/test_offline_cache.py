"""The regex selector parses a text once per turn, and the cache never changes an answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from caec_desktop.agent.selection.offline import RegexSelector
from caec_desktop.agent.selection.offline import regex_selector as offline
from caec_desktop.agent.selection.protocol import SelectionRequest


@pytest.fixture
def parse_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Texts handed to the real parser, with the caches emptied before and after the test."""
    calls: list[str] = []
    real = offline.parse

    def counting(text: str, vocabulary: tuple[str, ...], known: frozenset[str]) -> offline.Parsed:
        calls.append(text)
        return real(text, vocabulary, known)

    offline.read.cache_clear()
    offline.ranked_phrasings.cache_clear()
    monkeypatch.setattr(offline, "parse", counting)
    yield calls
    offline.read.cache_clear()
    offline.ranked_phrasings.cache_clear()


def _turn(text: str, history: list[dict[str, str]]) -> tuple[str, offline.Selection]:
    selector = RegexSelector()

    async def run() -> tuple[str, offline.Selection]:
        request = SelectionRequest(text=text, history=history, attempt=1, errors=[])
        intent = await selector.classify(request)
        return intent, await selector.select(request)

    return asyncio.run(run())


def test_classify_and_select_parse_the_request_once(parse_calls: list[str]) -> None:
    text = "rayleigh time step for 1 mm glass beads"
    intent, selection = _turn(text, [])
    assert intent == "calculation"
    assert [c.name for c in selection.calls] == ["rayleigh_timestep"]
    assert parse_calls == [text]


def test_follow_ups_do_not_reparse_earlier_requests(parse_calls: list[str]) -> None:
    first = "rayleigh time step for 1 mm glass beads"
    history = [{"role": "user", "content": first}, {"role": "assistant", "content": "..."}]
    _turn(first, [])
    _, second = _turn("and for 2 mm?", history)
    history += [{"role": "user", "content": "and for 2 mm?"}, {"role": "assistant", "content": ""}]
    _, third = _turn("what about steel?", history)
    assert sorted(parse_calls) == sorted([first, "and for 2 mm?", "what about steel?"])
    assert third.calls[0].args["particle_radius"] == second.calls[0].args["particle_radius"]
    assert third.calls[0].arg_sources["density"] == "preset:steel"


def test_cached_answers_equal_fresh_ones(parse_calls: list[str]) -> None:
    """A cached parse gives the same selection as parsing afresh, call after call."""
    texts = ["rayleigh time step for 1 mm glass beads", "convert 3 mm to m", "help", "hi there"]
    cold = [_turn(t, []) for t in texts]
    warm = [_turn(t, []) for t in texts]
    offline.read.cache_clear()
    offline.ranked_phrasings.cache_clear()
    fresh = [_turn(t, []) for t in texts]
    assert cold == warm == fresh
    assert len(parse_calls) == 2 * len(texts)
