"""The values with units a text states (a model's summary), read as a request is read.

The report checks each against the computed values (`agent.report.unmatched_numbers`); the LLM
selector reads them here, so the report itself depends on no reader.
"""

from __future__ import annotations

import asyncio
import re

from caec_desktop.agent.selection.offline.parse import blocks, parse
from caec_desktop.agent.selection.protocol import StatedValue

_EMPHASIS_RE = re.compile(r"(?<![\w*])(\*\*|__|\*|_)(?=\S)(.+?)(?<=\S)\1(?![\w*])")
"""Markdown emphasis around a span (`**1.012 µs**`, `*70 GPa*`, `__1 mm__`): models bold their
key numbers. Not inside a word, so `m**2`, `kg*m*s` and `particle_radius` are left as written."""


def stated_values(text: str) -> list[StatedValue]:
    """Every number with a unit in `text`, units normalised as for a request; a value in
    Markdown emphasis is read as the plain text (else a bolded value was never checked). Bare
    numbers are left out: they may be counts or ratios the result tables do not list."""
    plain = _EMPHASIS_RE.sub(r"\2", text)
    return [
        StatedValue(number=q.number, value=q.value, unit=q.unit)
        for q in parse(plain).quantities
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
