"""A selector that plays a script, for testing the graph's control flow (not tool selection).

Each attempt proposes the next argument set of the script (the last one repeats), so a test can
make the first attempts invalid and a later one valid. Requests are recorded for assertions.
"""

from __future__ import annotations

import asyncio
from typing import Any

from caec_desktop.agent.selection.protocol import (
    Intent,
    ProposedCall,
    Selection,
    SelectionRequest,
    SelectorError,
    Summary,
)

GOOD_RAYLEIGH = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
BAD_RAYLEIGH = {**GOOD_RAYLEIGH, "particle_radius": "-1 mm"}


class ScriptedSelector:
    """Proposes `rayleigh_timestep` with `script[attempt - 1]` (clamped to the last entry); a
    `None` entry replies `reply` in prose with no call, as a model computing by itself would."""

    answers_in_prose = True

    def __init__(
        self,
        script: list[dict[str, Any] | None] | None = None,
        *,
        intent: Intent = "calculation",
        reply: str = "I compute DEM set-up values.",
        fail: str | None = None,
        block: asyncio.Event | None = None,
        emit: list[tuple[str, dict[str, Any]]] | None = None,
        summary: str | None = None,
        tool: str = "rayleigh_timestep",
    ) -> None:
        self.script = script if script is not None else [GOOD_RAYLEIGH]
        self.intent = intent
        self.reply = reply
        self.fail = fail
        """"classify" or "select": raise SelectorError there."""
        self.block = block
        """When set, select() waits for this event (to test cancel)."""
        self.emit = emit or []
        self.summary = summary
        self.tool = tool
        self.requests: list[SelectionRequest] = []
        self.classified: list[tuple[str, list[dict[str, Any]]]] = []
        self.started = asyncio.Event()

    async def classify(self, request: SelectionRequest) -> Intent:
        self.classified.append((request.text, list(request.history)))
        if self.fail == "classify":
            raise SelectorError("upstream", "the server answered 502 three times")
        return self.intent

    async def select(self, request: SelectionRequest) -> Selection:
        self.requests.append(request)
        self.started.set()
        for kind, data in self.emit:
            request.emit(kind, data)
        if self.fail == "select":
            raise SelectorError("auth", "the API key was rejected (401)")
        if self.block is not None:
            await self.block.wait()
        args = self.script[min(request.attempt, len(self.script)) - 1]
        if self.intent not in ("calculation", "conversion") or args is None:
            return Selection(reply=self.reply, usage={"total_tokens": 7} if args is None else {})
        return Selection(
            calls=[ProposedCall(name=self.tool, args=dict(args), source="llm")],
            usage={"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        )

    async def respond(self, request: SelectionRequest) -> Selection:
        return await self.select(request)

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> Summary | None:
        return Summary(self.summary) if self.summary is not None else None

    async def aclose(self) -> None:
        return None
