"""The values with units a text states (a model's summary), read as a request is read.

The report checks each against the computed values (`agent.report.unmatched_numbers`); the LLM
selector reads them here, so the report itself depends on no reader.
"""

from __future__ import annotations

import asyncio

from caec_desktop.agent.selection.offline.parse import blocks, parse
from caec_desktop.agent.selection.protocol import StatedValue


def stated_values(text: str) -> list[StatedValue]:
    """Every number with a unit in `text`, units normalised as for a request. Bare numbers are
    left out: they may be counts or ratios the result tables do not list."""
    return [
        StatedValue(number=q.number, value=q.value, unit=q.unit)
        for q in parse(text).quantities
        if q.unit
    ]


async def read_stated_values(text: str) -> list[StatedValue]:
    """`stated_values(text)`, read a block (`parse.blocks`) per event-loop turn: a streamed
    summary of 300 words read at once took ~3-9 ms of the GUI thread in one turn at the end of
    a run (bench/bench_streaming.py)."""
    values: list[StatedValue] = []
    for block in blocks(text):
        await asyncio.sleep(0)
        values += stated_values(block)
    return values
