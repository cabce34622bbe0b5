"""The one interface between the graph's nodes and whatever picks tools (regex, LLM, a form).

Every member the graph uses is declared in `ToolSelector` (no probing for optional ones). The
`intent` node calls `classify`; the `tools` node calls `select` once per attempt (at most
MAX_ATTEMPTS); every proposed call is validated by the graph against the tool's schema, and
validation errors come back in the next request's `errors`. The `report` node calls `respond`
for a request that runs no tool (help, conversation) and `summarize` after tools ran. Selectors
emit extra trace events (llm_request, llm_response, …) through `request.emit(kind, data)`.

A selector keeps no state of a turn: what it needs of earlier attempts (errors, the latest
calls, a model's conversation so far) comes in the request, from the graph state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

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
    problems: list[str] = field(default_factory=list)
    """Why the call as the model wrote it cannot be read (arguments that are not JSON): it is
    rejected with these messages, not run."""


@dataclass
class AttemptError:
    """What went wrong with one proposed call, fed back to the selector."""

    call: ProposedCall
    messages: list[str]


Emit = Callable[[str, dict[str, Any]], None]
"""Emit a TraceEvent of `kind` with `data` (the graph adds seq, time and node)."""


def no_emit(kind: str, data: dict[str, Any]) -> None:
    """An `Emit` that drops the event."""
    return None


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
    emit: Emit = no_emit
    """Emit a TraceEvent of `kind` with `data` (the graph adds seq, time and node). A selector
    whose model streams also passes its prose on here while it is written, in `select` and
    `summarize`: `llm_response` events with {"stream": "delta", "text", "purpose"}."""
    usage: dict[str, float] = field(default_factory=dict)
    """Token usage spent outside a Selection: classify() and summarize() add their replies'
    here, and the graph adds it to the turn's usage (so totals match the llm_response events)."""
    proposed: list[ProposedCall] = field(default_factory=list)
    """The calls of this turn's latest selection, before validation (from the graph state)."""
    transcript: list[BaseMessage] = field(default_factory=list)
    """This turn's exchange with a model so far: the messages earlier selections returned in
    `Selection.transcript`, kept in the graph state (empty for selectors without a model)."""
    intent: str | None = None
    """The classified intent, once `classify` ran (for `respond`: help is answered with the
    help text, not by a model)."""


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
    transcript: list[BaseMessage] = field(default_factory=list)
    """The messages this selection added to the turn's exchange with a model (the model's
    reply, the feedback it was given); the graph appends them to the state's transcript."""


@dataclass
class StatedValue:
    """A number with a unit that a model's summary states."""

    number: str
    """As written ("0.2"; "" when not known), for the report and the rounding it implies."""
    value: float
    unit: str
    """In pint's syntax ("us", "kg/m^3")."""


@dataclass
class Summary:
    """A model's final words on the results, and the values they state (which the report checks
    against the computed ones)."""

    text: str
    values: list[StatedValue] = field(default_factory=list)


class SelectorError(Exception):
    """A selector could not work (model/server failure after its retries): the run ends with
    status "model_error" (exit code 3) and `user_message` is shown. Never carries an API key."""

    def __init__(self, kind: str, user_message: str) -> None:
        super().__init__(user_message)
        self.kind = kind
        """auth, rate_limit, tools_unsupported, model_not_found, upstream, timeout, cancelled …"""
        self.user_message = user_message


class ToolSelector(Protocol):
    """Implemented by the regex dispatcher (offline), the LLM selector and the direct call."""

    answers_in_prose: bool
    """Whether a selection without calls may be a model answering a calculation in its own words
    (then the graph asks once for a tool call). False for the offline selector, whose replies
    without a call are help or missing inputs, never a number it worked out."""

    async def classify(self, request: SelectionRequest) -> Intent:
        """The request's intent, for `route_after_intent` (calculation and conversion run tools).
        Tokens it spends go to `request.usage`."""
        ...

    async def select(self, request: SelectionRequest) -> Selection:
        """The calls to run for this attempt, or a reply when there is nothing to run."""
        ...

    async def respond(self, request: SelectionRequest) -> Selection:
        """The reply to a request that runs no tool (help, conversation): `Selection.reply`."""
        ...

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> Summary | None:
        """Optional final wording from a model after tools ran; None keeps the report's own text.
        Tokens it spends go to `request.usage`."""
        ...

    async def aclose(self) -> None:
        """Close what the selector holds open (HTTP clients); nothing for most."""
        ...
