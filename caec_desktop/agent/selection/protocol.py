"""The one interface between the graph's `tools` node and whatever picks tools (regex or LLM).

The graph calls `await selector.select(request)` once per attempt (at most MAX_ATTEMPTS). Every
proposed call is validated by the graph against the tool's schema; validation errors come back in
the next request's `errors`. Selectors emit extra trace events (llm_request, llm_response, …)
through `request.emit(kind, data)`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

Intent = Literal["calculation", "conversion", "help", "other"]

CallSource = Literal["regex", "llm", "llm_text", "form", "replay"]
"""Where a call came from; `llm_text` = recovered from text the model wrote."""


@dataclass
class ProposedCall:
    """A tool call before validation."""

    name: str
    args: dict[str, Any]
    id: str = ""
    source: CallSource = "regex"
    arg_sources: dict[str, str] = field(default_factory=dict)
    """Per argument: typed / default / preset:<material> / model / form (for reports)."""


@dataclass
class AttemptError:
    """What went wrong with one proposed call, fed back to the selector."""

    call: ProposedCall
    messages: list[str]


@dataclass
class SelectionRequest:
    """Everything a selector may use to choose tools."""

    text: str
    history: list[dict[str, Any]]
    """Earlier turns: [{"role": "user"|"assistant", "content": str}]."""
    attempt: int
    """1-based attempt number."""
    errors: list[AttemptError]
    """Validation errors of earlier attempts in this turn (empty on the first)."""
    emit: Callable[[str, dict[str, Any]], None] = lambda kind, data: None
    """Emit a TraceEvent of `kind` with `data` (the graph adds seq, time and node). A selector
    whose model streams also passes its prose on here while it is written, in `select` and
    `summarize`: `llm_response` events with {"stream": "delta", "text", "purpose"}."""
    usage: dict[str, float] = field(default_factory=dict)
    """Token usage spent outside a Selection: summarize() adds its reply's here, and the graph
    adds it to the turn's usage (so totals match the llm_response events)."""


@dataclass
class Selection:
    """The selector's answer: calls to run, or a text reply when there is nothing to run."""

    calls: list[ProposedCall] = field(default_factory=list)
    reply: str | None = None
    """Text for the user when no call is made (help, missing inputs, the model's own words);
    with calls, notes on how the request was read (typos fixed, values not used), shown under
    the results."""
    missing: list[str] = field(default_factory=list)
    """Inputs the selector could not find, each as 'name [unit], e.g. name=1 mm'."""
    usage: dict[str, float] = field(default_factory=dict)
    """Token usage of this selection (prompt_tokens, completion_tokens, total_tokens, cost)."""


class SelectorError(Exception):
    """A selector could not work (model/server failure after its retries): the run ends with
    status "model_error" (exit code 3) and `user_message` is shown. Never carries an API key."""

    def __init__(self, kind: str, user_message: str) -> None:
        super().__init__(user_message)
        self.kind = kind
        """auth, rate_limit, tools_unsupported, model_not_found, upstream, timeout, cancelled …"""
        self.user_message = user_message


class ToolSelector(Protocol):
    """Implemented by the regex dispatcher (offline) and the LLM selector."""

    async def classify(self, text: str, history: list[dict[str, Any]]) -> Intent:
        """The request's intent, for `route_after_intent` (calculation and conversion run tools)."""
        ...

    async def select(self, request: SelectionRequest) -> Selection: ...

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> str | None:
        """Optional final wording from a model after tools ran; None keeps the report's own text.
        Tokens it spends go to `request.usage`."""
        ...
