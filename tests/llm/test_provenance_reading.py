"""The conversation's earlier messages are read once for argument sources, and still count."""

from __future__ import annotations

import asyncio

import pytest

from caec_desktop.agent.selection.llm import provenance
from caec_desktop.agent.selection.llm.provenance import source_args
from caec_desktop.agent.selection.protocol import StatedValue
from tests.loop_turns import LoopTurns

ARGS = {"particle_radius": "1.5 mm", "density": 2700, "youngs_modulus": "72 GPa",
        "poisson_ratio": 0.22}  # fmt: skip


def test_earlier_messages_are_read_once_and_still_found(monkeypatch: pytest.MonkeyPatch) -> None:
    history = [
        {"role": "user", "content": "rayleigh step, r = 1.5 mm, rho 2700 kg/m^3, E 72 GPa"},
        {"role": "assistant", "content": "The step is 1.011 µs for nu 0.22 (rayleigh_timestep)."},
    ]
    reads: list[str] = []
    real_parse = provenance.parse

    def counting_parse(text: str) -> object:
        reads.append(text)
        return real_parse(text)

    monkeypatch.setattr(provenance, "parse", counting_parse)
    first = source_args("rayleigh_timestep", ARGS, "and with nu = 0.22 please", history)
    second = source_args("rayleigh_timestep", ARGS, "and with nu = 0.22 please", history)
    assert first == second
    _args, sources = first
    assert sources["particle_radius"] == "typed (earlier turn)"
    assert sources["youngs_modulus"] == "typed (earlier turn)"
    assert sources["poisson_ratio"] == "typed"
    for message in history:
        assert reads.count(str(message["content"])) <= 1  # remembered after the first call


def test_read_ahead_reads_each_message_on_its_own_loop_turn_and_sources_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While the model answers, the messages' values are read one per event-loop turn; the
    sources read afterwards read none again and are those read without it."""
    history = [
        {"role": "user", "content": "rayleigh step, r = 1.5 mm, rho 2710 kg/m^3, E 72 GPa"},
        {"role": "assistant", "content": "The step is 1.012 µs for nu 0.22 (rayleigh_timestep)."},
    ]
    text = "and with nu = 0.23 please, r 1.5 mm"
    provenance._block_values.cache_clear()
    provenance._quantities.cache_clear()
    expected = source_args("rayleigh_timestep", ARGS, text, history)
    provenance._block_values.cache_clear()
    provenance._quantities.cache_clear()
    monkeypatch.setattr(provenance, "READ_AHEAD_MS", 0.0)  # every message ends its turn
    reads: list[tuple[str, int]] = []
    turns = LoopTurns()
    real_parse = provenance.parse

    def counting_parse(body: str) -> object:
        reads.append((body, turns.now))
        return real_parse(body)

    monkeypatch.setattr(provenance, "parse", counting_parse)

    async def scenario() -> tuple[dict[str, object], dict[str, str]]:
        async with turns:
            await provenance.read_ahead(text, history)
        read_before = len(reads)
        got = source_args("rayleigh_timestep", ARGS, text, history)
        assert len(reads) == read_before  # all read ahead
        return got

    got = asyncio.run(scenario())
    assert [body for body, _ in reads] == [text, *(str(m["content"]) for m in reversed(history))]
    assert len({turn for _, turn in reads}) == len(reads)  # one message per loop turn
    assert got == expected


ANSWER = (
    "The Rayleigh step is **1.012 µs** for r = 1.5 mm and E = 72 GPa.\n\n"
    "- density 2710 kg/m^3, as typed\n"
    "- Poisson's ratio 0.22\n"
    "1. a 20 % fraction gives 0.202 µs\n\n"
    "The radius of 1\nmm stays apart across a line break."
)


def test_a_long_message_is_read_ahead_a_block_per_loop_turn_with_the_same_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A long answer is read ahead a paragraph or list item per loop turn (read whole, it was
    one 3-7 ms turn); its values are those of the whole message read at once, in order."""
    whole = tuple(
        si
        for si in (provenance._si(q) for q in provenance.parse(ANSWER).quantities)
        if si is not None
    )
    assert len(whole) >= 6
    provenance._block_values.cache_clear()
    provenance._quantities.cache_clear()
    monkeypatch.setattr(provenance, "READ_AHEAD_MS", 0.0)  # every block ends its turn
    reads: list[tuple[str, int]] = []
    turns = LoopTurns()
    real_parse = provenance.parse

    def counting_parse(body: str) -> object:
        reads.append((body, turns.now))
        return real_parse(body)

    monkeypatch.setattr(provenance, "parse", counting_parse)

    async def scenario() -> None:
        async with turns:
            await provenance.read_ahead("", [{"role": "assistant", "content": ANSWER}])

    asyncio.run(scenario())
    answer_reads = [(body, turn) for body, turn in reads if body.strip()]
    firsts = [body.split()[0] for body, _ in answer_reads]
    assert firsts == ["The", "-", "-", "1.", "The"]  # paragraphs and list items
    assert len(answer_reads) == 5 and len({turn for _, turn in answer_reads}) == 5
    before = len(reads)
    assert provenance.values_in(ANSWER) == whole
    assert len(reads) == before  # nothing read again


def test_a_summarys_stated_values_are_read_a_block_per_loop_turn_as_read_at_once() -> None:
    """The values a model's summary states are read a paragraph or list item per loop turn
    (at the end of a run, read at once, a long summary was one 3-9 ms turn); they are those
    the whole summary read at once states, in order."""
    from caec_desktop.agent.selection.offline.stated import read_stated_values, stated_values

    turns = LoopTurns()

    async def scenario() -> tuple[list[StatedValue], int]:
        async with turns:
            before = turns.now
            values = await read_stated_values(ANSWER)
        return values, turns.now - before

    values, took = asyncio.run(scenario())
    whole = stated_values(ANSWER)
    assert len(whole) >= 4 and values == whole
    assert took >= 5  # one turn per block at least


def test_read_ahead_ends_its_turn_when_short_blocks_add_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Blocks each read in less than READ_AHEAD_MS still end the loop turn once together they
    took that long (a clock that moves 0.15 ms per reading: every second block)."""
    provenance._block_values.cache_clear()
    provenance._quantities.cache_clear()
    clock = [0.0]

    def perf_counter() -> float:
        clock[0] += 0.15e-3
        return clock[0]

    monkeypatch.setattr(provenance.time, "perf_counter", perf_counter)
    turns = LoopTurns()
    read_at: list[int] = []
    real_parse = provenance.parse

    def counting_parse(body: str) -> object:
        read_at.append(turns.now)
        return real_parse(body)

    monkeypatch.setattr(provenance, "parse", counting_parse)

    async def scenario() -> None:
        async with turns:
            await provenance.read_ahead("", [{"role": "assistant", "content": ANSWER}])

    asyncio.run(scenario())
    assert len(read_at) >= 5  # the request ("") and the answer's blocks, each read once
    assert len(set(read_at)) >= len(read_at) // 2  # over several turns, not all in one


TABLE = (
    "| Result | Value |\n| --- | --- |\n| rayleigh_timestep | 1.023 µs |\n"
    "| shear_modulus | 28 GPa |\n| recommended_timestep | 204.7 ns |"
)


def test_a_block_s_units_are_made_on_later_loop_turns_than_its_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A results table is one block, read on one loop turn; pint makes the units it names one per
    later turn (read with them, the block was one ~2-3 ms turn). Its values are those of the
    block read at once."""
    whole = tuple(
        si
        for si in (provenance._si(q) for q in provenance.parse(TABLE).quantities)
        if si is not None
    )
    assert len(whole) == 3
    provenance._block_values.cache_clear()
    provenance._quantities.cache_clear()
    provenance._unit.cache_clear()
    monkeypatch.setattr(provenance, "READ_AHEAD_MS", 0.0)  # every step ends its turn
    turns = LoopTurns()
    read_at: list[int] = []
    made_at: dict[str, int] = {}
    real_parse, real_ureg = provenance.parse, provenance.ureg

    def counting_parse(body: str) -> object:
        read_at.append(turns.now)
        return real_parse(body)

    class Registry:
        def parse_units(self, name: str) -> object:
            made_at.setdefault(name, turns.now)
            return real_ureg().parse_units(name)

        def __getattr__(self, name: str) -> object:
            return getattr(real_ureg(), name)

    monkeypatch.setattr(provenance, "parse", counting_parse)
    monkeypatch.setattr(provenance, "ureg", Registry)

    async def scenario() -> None:
        async with turns:
            await provenance.read_ahead(TABLE, [])

    asyncio.run(scenario())
    (read,) = read_at
    assert sorted(made_at) == ["GPa", "ns", "us"]
    assert len(set(made_at.values())) == 3 and min(made_at.values()) > read
    assert provenance.values_in(TABLE) == whole
    assert read_at == [read]  # nothing read again
