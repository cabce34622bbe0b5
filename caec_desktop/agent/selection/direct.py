"""A selector for calls the user made by hand (the form's Run button, replays): no regex, no model.

It proposes exactly the given call; a rejected call is reported with its field messages and not
retried (`route_after_tools` does not retry calls from the form or a replay). Each argument keeps
the origin the caller gives (the form knows defaults and presets); the rest count as `source`.
"""

from __future__ import annotations

from typing import Any

from caec_desktop.agent.selection.protocol import (
    CallSource,
    Intent,
    ProposedCall,
    Selection,
    SelectionRequest,
    Summary,
)


class DirectCallSelector:
    """Implements ToolSelector for one fixed call."""

    answers_in_prose = False

    def __init__(
        self,
        name: str,
        args: dict[str, Any],
        source: CallSource = "form",
        arg_sources: dict[str, str] | None = None,
    ) -> None:
        given = arg_sources or {}
        self.call = ProposedCall(
            name=name,
            args=dict(args),
            source=source,
            arg_sources={k: given.get(k, source) for k in args},
        )

    async def classify(self, request: SelectionRequest) -> Intent:
        return "calculation"

    async def select(self, request: SelectionRequest) -> Selection:
        return Selection(calls=[self.call])

    async def respond(self, request: SelectionRequest) -> Selection:
        """Never asked (the intent is always a calculation): no reply of its own."""
        return Selection()

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> Summary | None:
        return None

    async def aclose(self) -> None:
        """Nothing to close."""
