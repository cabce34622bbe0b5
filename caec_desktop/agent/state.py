"""The agent graph's state: what each node reads and the deltas it returns.

Lists that grow during a turn (`messages`, `tool_results`, `errors`, `transcript`) and `usage`
have reducers, so nodes return only what they add. `messages` holds this turn's request and the
report's answer as `{"role", "content"}` dicts, the shape `history` has; `transcript` a model's
exchange in LLM modes (LangChain messages); everything else is plain JSON-like data, so the final
state turns into a `TurnResult` without conversion.

Nothing here imports LangChain or LangGraph: an offline turn can run before they have loaded
(agent/sequential.py). `AnyMessage` is LangChain's type for the type checker only; at run time the
transcript's items are not inspected (its reducer only concatenates lists).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypedDict, get_origin, get_type_hints

from caec_desktop.agent.usage import add_usage

if TYPE_CHECKING:
    from langchain_core.messages import AnyMessage
else:
    AnyMessage = Any

Status = Literal[
    "answered", "needs_input", "invalid", "refused", "model_error", "cancelled", "error"
]
"""How a turn ended; `needs_input`: nothing was computed because an input is missing or could
not be read (the reply says which), `invalid`: the inputs were rejected by validation."""

MAX_ATTEMPTS = 3
"""Selections per turn: the first plus two retries that see the earlier validation errors."""


NO_CALL = "(no tool call)"
"""The `tool` of the error entry recorded when a model answered a calculation without calling a
tool (fed back to it like a rejected call; not a rejected input in the report)."""


Message = dict[str, Any]
"""A message as `{"role": "user" | "assistant", "content": str}`, as in `history`."""


class ToolResultEntry(TypedDict):
    """One successful tool run (args are the validated SI values)."""

    tool: str
    args: dict[str, Any]
    result: dict[str, Any]
    calc_sheet: dict[str, Any] | None
    source: str
    arg_sources: dict[str, str]
    given_args: dict[str, Any]
    """The call's arguments as given ("0.5 m" where `args` has 0.5): a card shows a value typed
    in other units than those displayed as typed, live and reopened alike."""
    warnings: list[str]
    """Valid but unusual inputs, in words (`tools.plausibility`): shown with the result."""


class ErrorEntry(TypedDict):
    """One rejected call: which attempt, which tool, the field messages."""

    attempt: int
    tool: str
    args: dict[str, Any]
    messages: list[str]


class AgentState(TypedDict, total=False):
    """State of one turn. Input: `messages` (the request) and `history` (see `turn_input`)."""

    messages: Annotated[list[Message], operator.add]
    """This turn's messages: the user's request, then the answer once `report` has run."""
    history: list[dict[str, Any]]
    """Recent earlier messages as `{"role", "content"}`, the shape selectors take (plain dicts:
    converting a dozen long answers to message objects on every turn cost ~0.3 ms)."""
    intent: str
    proposed: list[dict[str, Any]]
    """The calls of the latest selection, before validation."""
    tool_results: Annotated[list[ToolResultEntry], operator.add]
    errors: Annotated[list[ErrorEntry], operator.add]
    attempts: int
    refused: bool
    refusal_reason: str
    reply: str
    """The selector's own text when it made no call (help, missing inputs, the model's words)."""
    missing: list[str]
    error_message: str
    error_kind: str
    """The SelectorError kind of a `model_error` (timeout, auth, …)."""
    """What went wrong when the run ended with `model_error`."""
    usage: Annotated[dict[str, float], add_usage]
    transcript: Annotated[list[AnyMessage], operator.add]
    """This turn's exchange with a model (LLM modes): each selection's messages, in order (see
    `SelectionRequest.transcript`). The one place a turn's model conversation is kept."""
    answer: str
    status: Status
    path: str
    """How the results were reached: model, safety_net, offline, form or none (safety_net.py)."""
    safety_net_reason: str
    """Why the safety net answered (`safety_net.net_reason`), when it did."""


_REDUCED = {
    name: hint
    for name, hint in get_type_hints(AgentState, include_extras=True).items()
    if get_origin(hint) is Annotated
}
_REDUCERS: dict[str, Callable[[Any, Any], Any]] = {
    n: h.__metadata__[0] for n, h in _REDUCED.items()
}
"""The state's reducers by field (`tool_results`, `errors`, `usage`)."""


def turn_input(request: str, history: list[dict[str, Any]]) -> AgentState:
    """The graph's input for one turn: the request as a user message, and the earlier messages."""
    return {"messages": [{"role": "user", "content": request}], "history": history}


def answer_message(answer: str) -> Message:
    """The report's answer as the turn's assistant message."""
    return {"role": "assistant", "content": answer}


def start_state(graph_input: AgentState) -> AgentState:
    """The state a run starts from as LangGraph holds it: the reduced fields empty (a reducer's
    channel starts as an empty list or dict), then the input (LangGraph's channels take the
    input's values as they are)."""
    state: dict[str, Any] = {n: get_origin(h.__origin__)() for n, h in _REDUCED.items()}
    return {**state, **graph_input}  # type: ignore[typeddict-item]


def state_after(state: AgentState, update: dict[str, Any]) -> AgentState:
    """`state` with a node's `update` applied as LangGraph applies it (reducers for the
    annotated fields, replacement for the rest): what a route reads after a node, and how the
    session folds the nodes' updates into the final state."""
    merged: dict[str, Any] = dict(state)
    for key, value in update.items():
        reducer = _REDUCERS.get(key)
        old = merged.get(key)
        merged[key] = reducer(old, value) if reducer is not None and old is not None else value
    return merged  # type: ignore[return-value]


def request_text(state: AgentState) -> str:
    """The user's request of this turn: the latest user message ("" when none was given)."""
    for message in reversed(state.get("messages") or []):
        if message.get("role") == "user":
            return str(message.get("content") or "")
    return ""


def history(state: AgentState) -> list[dict[str, Any]]:
    """Earlier messages as `{"role", "content"}` dicts."""
    return list(state.get("history") or [])
