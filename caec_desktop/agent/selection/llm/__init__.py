"""LLM tool selection for the `local` and `openrouter` modes (no Qt).

`make_selector(settings)` is the entry point. langchain-openai (~1 s to import) is loaded only when
it is called, so offline mode never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from caec_desktop.agent.selection.llm.llm_selector import LLMSelector
    from caec_desktop.settings.model import Settings


def make_selector(settings: Settings) -> LLMSelector:
    """The ToolSelector that asks the model configured in `settings` (OpenRouter or local)."""
    from caec_desktop.agent.selection.llm.llm_selector import LLMSelector

    return LLMSelector(settings)


__all__ = ["make_selector"]
