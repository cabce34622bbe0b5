"""A streamed reply whose chunks arrived together is handed on a few per event-loop turn (the
loop also runs the GUI), every chunk in order; chunks within the budget share their turn."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from types import SimpleNamespace

import pytest

from caec_desktop.agent.selection.llm import chat_model
from caec_desktop.agent.selection.llm.chat_model import _ChunkStream
from tests.loop_turns import LoopTurns


class _Ready:
    """An SDK stream whose chunks are all there already (no await between them)."""

    def __init__(self, n: int) -> None:
        self.chunks = [SimpleNamespace(choices=[], n=i) for i in range(n)]

    async def __aiter__(self) -> AsyncIterator[SimpleNamespace]:
        for chunk in self.chunks:
            yield chunk


async def _read(n: int) -> tuple[list[int], list[int]]:
    """Each chunk's number and the loop turn (a counter a task steps once a turn) it came on."""
    got: list[tuple[int, int]] = []
    async with LoopTurns() as turns:
        async for chunk in _ChunkStream(_Ready(n)).__aiter__():
            got.append((chunk.n, turns.now))
    return [n for n, _ in got], [t for _, t in got]


def test_chunks_over_the_budget_come_on_later_loop_turns_all_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(chat_model, "STREAM_BUDGET_MS", 0.0)  # every chunk is over it
    numbers, turns = asyncio.run(_read(6))
    assert numbers == list(range(6))
    assert all(a < b for a, b in itertools.pairwise(turns))


def test_chunks_within_the_budget_share_their_loop_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chat_model, "STREAM_BUDGET_MS", 1e9)
    numbers, turns = asyncio.run(_read(6))
    assert numbers == list(range(6)) and len(set(turns)) == 1
