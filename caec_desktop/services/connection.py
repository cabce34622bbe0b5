"""The settings dialog's "Test connection": probe an LLM endpoint, report in words (no Qt).

app.py hands `check_connection` to the dialog, so the ui never imports the LLM package.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
from dataclasses import dataclass

from caec_desktop.settings.model import Settings

LLM_MODULES = (
    "caec_desktop.agent.selection.llm.doctor",
    "caec_desktop.agent.selection.llm.llm_selector",
)
"""What a probe imports: langchain-openai among them, ~1-3 s the first time."""


def load_llm() -> None:
    """Import the probe's modules (on a worker thread: the window keeps painting meanwhile). A
    missing LLM stack is left for the probe to report in words."""
    for name in LLM_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


@dataclass(frozen=True)
class ConnectionTest:
    """A connection test's outcome: the report in words, and the model it tested (the one set,
    or the first the server lists when none was set; "" when none was found)."""

    text: str
    model: str = ""


async def check_connection(settings: Settings) -> ConnectionTest:
    """What works at the endpoint of `settings` (local or openrouter mode) and the set-up to use,
    as `caec doctor` prints it. Imports langchain-openai on first use, on a worker thread."""
    await asyncio.to_thread(load_llm)
    from caec_desktop.agent.selection.llm.doctor import probe

    report = await probe(settings)
    return ConnectionTest(report.summary, report.model)
