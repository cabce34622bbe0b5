"""The settings dialog's "Test connection": probe an LLM endpoint, report in words (no Qt).

app.py hands `check_connection` to the dialog, so the ui never imports the LLM package.
"""

from __future__ import annotations

from caec_desktop.settings.model import Settings


async def check_connection(settings: Settings) -> str:
    """What works at the endpoint of `settings` (local or openrouter mode) and the set-up to use,
    as `caec doctor` prints it. Imports langchain-openai on first use (~1 s)."""
    from caec_desktop.agent.selection.llm.doctor import probe

    return (await probe(settings)).summary
