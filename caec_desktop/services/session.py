"""One conversation, headless: runs the agent graph on the current asyncio loop and streams
TraceEvents. The window and the `caec` command both drive it; nothing here imports Qt.

Each turn passes only the recent history to the graph (no checkpointer replaying the whole
thread), so the cost per turn stays flat however long the conversation gets. Runs are sequential
per event loop (a class-level lock): a burst of requests queues instead of interleaving on the loop.
LangGraph is imported on the first run, not at import, so showing the window stays cheap; while
the app loads it in the background, a turn without a model runs on the sequential runner
(agent/engine.py), and its run_start event says which runner ran it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import traceback
import weakref
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping
from typing import Any, ClassVar, NamedTuple

from pydantic import BaseModel, Field, ValidationError

from caec_desktop.agent import engine
from caec_desktop.agent.context import OfflineReader
from caec_desktop.agent.deadline import set_deadline
from caec_desktop.agent.events import TraceRecorder, node_update
from caec_desktop.agent.selection.protocol import SelectorError, ToolSelector
from caec_desktop.agent.trace import TraceEvent
from caec_desktop.agent.usage import add_usage, total_usage
from caec_desktop.settings.model import Settings
from caec_desktop.settings.redact import redact, redact_text

log = logging.getLogger(__name__)

HISTORY_LIMIT = 12
"""Messages of earlier turns given to the selector (6 exchanges)."""

RESULT_KEYS = (
    "tool", "args", "result", "calc_sheet", "source", "arg_sources", "given_args", "warnings"
)  # fmt: skip


class TurnResult(BaseModel):
    """One turn as data: exactly what `caec ask --json` prints."""

    answer: str = ""
    intent: str | None = None
    tool_results: list[dict[str, Any]] = Field(default_factory=list)
    """[{tool, args (validated, SI), result, calc_sheet, source, arg_sources, given_args (as
    typed; absent in turns saved before it was stored), warnings}]"""
    errors: list[dict[str, Any]] = Field(default_factory=list)
    """[{attempt, tool, args, messages}] for every rejected call."""
    attempts: int = 0
    refused: bool = False
    refusal_reason: str | None = None
    usage: dict[str, float] = Field(default_factory=dict)
    """Tokens (and cost) this turn spent."""
    conversation_usage: dict[str, float] = Field(default_factory=dict)
    """Tokens (and cost) of the whole conversation up to and including this turn."""
    events: list[TraceEvent] = Field(default_factory=list)
    status: str = "error"
    """answered | invalid | refused | model_error | cancelled | error"""
    path: str = "none"
    """How the results were reached: model (the model's own call), safety_net (the offline
    reader, after the model produced no valid call or its server failed), offline, form, none."""
    safety_net_reason: str = ""
    """Why the safety net answered ("the model's server could not be reached", …); "" when it
    did not (and in turns saved before this was recorded)."""
    mode: str = "offline"
    """offline | local | openrouter, or the call's source ("form") when no selector chose it."""
    model: str = ""
    """The model that chose the call ("regex" offline); "" when none did (form runs)."""


def _exchange(text: str, turn: TurnResult) -> list[dict[str, Any]]:
    """The user's request and the answer as history messages (see `Session.messages`)."""
    user: dict[str, Any] = {"role": "user", "content": text}
    if turn.errors and not turn.tool_results:
        user["rejected"] = True
    return [user, {"role": "assistant", "content": turn.answer}]


class CheckedTurns(NamedTuple):
    """Stored turns checked as TurnResults, with what the session keeps of them (made in any
    thread: a long conversation's older turns are checked in the worker that reads them, so
    the GUI thread only puts them in place, `Session.restore_older`)."""

    pairs: list[tuple[str, TurnResult]]
    """`(user text, TurnResult)` of each turn that is one, in order."""
    invalid: int
    """How many were left out because their result is not a TurnResult."""
    messages: list[dict[str, Any]]
    """Their history messages (`_exchange`), in order."""
    usage: dict[str, float]
    """Their usage summed (the session's running sum takes it)."""


def checked_turns(
    turns: Iterable[tuple[str, Mapping[str, Any]]], pause: Callable[[], None] | None = None
) -> CheckedTurns:
    """Stored `(user text, TurnResult dict)` pairs as TurnResults, how many were left out
    because their result is not a TurnResult, and their messages and usage (any thread: it
    touches no session). `pause()` is called after each turn checked (a worker thread lets
    the GUI thread run: ui/read_job.py)."""
    given = list(turns)
    pairs: list[tuple[str, TurnResult]] = []
    for text, result in given:
        try:
            pairs.append((text, TurnResult.model_validate(dict(result))))
        except (ValidationError, TypeError, ValueError):
            log.warning("a stored turn that is no TurnResult was skipped")
        if pause is not None:
            pause()
    messages = [message for text, turn in pairs for message in _exchange(text, turn)]
    usage = total_usage(turn.usage for _, turn in pairs)
    return CheckedTurns(pairs, len(given) - len(pairs), messages, usage)


def default_selector(settings: Settings) -> ToolSelector:
    """The selector for the settings' mode: regex offline, else the LLM selector.

    Raises:
        SelectorError: the LLM selector is not available or cannot be configured.
    """
    mode = settings.effective_mode
    if mode == "offline":
        from caec_desktop.agent.selection.offline import RegexSelector

        return RegexSelector()
    try:
        from caec_desktop.agent.selection.llm import make_selector
    except ImportError as exc:
        raise SelectorError(
            "unavailable",
            f"{mode} mode is not available: the LLM selector could not be loaded ({exc}). "
            "Use offline mode or the tool forms.",
        ) from None
    selector: ToolSelector = make_selector(settings)
    return selector


def ready_selector(settings: Settings) -> ToolSelector:
    """`default_selector(settings)` with its model clients made (`warm()`, when it has one): on
    a worker thread, the imports and set-up a first model turn needs (~1-3 s)."""
    selector = default_selector(settings)
    warm = getattr(selector, "warm", None)
    if callable(warm):
        warm()
    return selector


LOAD_NODE = "load_model_client"
"""The trace's node while a session's first model turn loads the model's client library."""
LOADING = "the model's client library (first model turn in this mode)"


def graph_shape() -> tuple[list[str], list[tuple[str, str, bool]]]:
    """The agent graph's nodes and edges as plain data, for the graph view (from its topology:
    LangGraph need not be loaded)."""
    from caec_desktop.agent.topology import shape

    return shape()


def offline_reader() -> OfflineReader:
    """The offline reader, for the graph's safety net (agent/safety_net.py)."""
    from caec_desktop.agent.selection.offline.regex_selector import (
        classify_text,
        ranked_phrasings,
        select_text,
    )

    def tool(text: str) -> str | None:
        ranked = ranked_phrasings(text)
        return ranked[0][1].tool if ranked else None

    return OfflineReader(classify=classify_text, select=select_text, tool=tool)


def turn_timeout_message(limit: float) -> str:
    """What to tell the user when a turn passed its time limit, and how to raise it."""
    return (
        f"This turn was stopped after {limit:g} s, its time limit (turn_timeout_s). To give "
        "turns more time, raise it in Settings, with CAEC_TURN_TIMEOUT_S, or with `caec ask "
        "--timeout SECONDS`. Meanwhile you can switch to offline mode or fill the tool's form."
    )


class Session:
    """A conversation: `ask()` and `run_tool()` stream TraceEvents; `last_turn` holds the result."""

    _locks: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock]] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self, settings: Settings | None = None, selector: ToolSelector | None = None):
        self.settings = settings if settings is not None else Settings()
        self._selector = selector
        self.messages: list[dict[str, Any]] = []
        """The conversation as `{"role", "content"}`; a user message whose calls were all
        rejected also has `"rejected": True`, so a follow-up builds on the last accepted call."""
        self.turns: list[TurnResult] = []
        self._usage_total: dict[str, float] = {}
        """Sum of the turns' usage."""
        self.last_turn: TurnResult | None = None
        self._task: asyncio.Task[dict[str, Any]] | None = None
        self._open_runs = 0
        """Runs of this session started or waiting for their turn."""
        self._cancel_requested = False

    @property
    def mode(self) -> str:
        return self.settings.effective_mode

    @property
    def model(self) -> str:
        """The model answering ("regex" offline)."""
        return "regex" if self.mode == "offline" else self.settings.effective_model()

    def selector(self) -> ToolSelector:
        """The selector of this session, created on first use (SelectorError if unavailable)."""
        if self._selector is None:
            self._selector = default_selector(self.settings)
        return self._selector

    @property
    def usage_total(self) -> dict[str, float]:
        """Tokens (and cost) of every turn of this conversation, restored ones included (kept
        as a running sum: summing every turn again would grow the cost of each turn)."""
        return dict(self._usage_total)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def restore(self, turns: Iterable[tuple[str, Mapping[str, Any]]]) -> int:
        """Continue a saved conversation: its turns become this session's history.

        Args:
            turns: `(user text, TurnResult dict)` pairs in order, as the history store keeps
                them; follow-up questions then see the same messages as before the app closed.

        Returns:
            How many turns were left out because their stored result is not a TurnResult (a
            damaged row is skipped, never fatal).
        """
        checked = checked_turns(turns)
        self.turns = []
        self.messages = []
        self._usage_total = {}
        self.restore_older(checked)
        return checked.invalid

    checked = staticmethod(checked_turns)
    """`checked_turns`, for a worker thread given the session (the ui imports no session)."""

    def restore_older(self, older: CheckedTurns) -> None:
        """Put turns older than the restored ones before them: a long conversation restores its
        newest turns at once (what a follow-up sends: `HISTORY_LIMIT`) and the rest when it has
        been read and checked (`checked_turns`, with their messages and usage) off the GUI
        thread; this only joins lists (summing 1,000 turns' usage and making their messages
        here took ~5 ms of the loop turn that put them in place)."""
        self.turns = [turn for _, turn in older.pairs] + self.turns
        self.messages = older.messages + self.messages
        self.last_turn = self.turns[-1] if self.turns else None
        self._usage_total = add_usage(older.usage, self._usage_total)

    def continued(self, settings: Settings) -> Session:
        """A new session with `settings` that goes on with this conversation (after the user
        changed the settings: the next question sees the same earlier messages)."""
        fresh = Session(settings)
        fresh.messages = self.messages
        return fresh

    def cancel(self) -> None:
        """Stop the current run now (and runs of this session still waiting for their turn);
        each stream ends with run_end status "cancelled". Does nothing when idle."""
        if self._open_runs:
            self._cancel_requested = True
        if self._task is not None and not self._task.done():
            self._task.cancel()

    async def aclose(self) -> None:
        """Stop the current run and wait for it; close the selector's clients if it has any."""
        task = self._task
        self.cancel()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        if self._selector is not None:
            await self._selector.aclose()

    def ask(self, text: str) -> AsyncGenerator[TraceEvent, None]:
        """One turn: route, select, validate, run tools, report. Yields events as they happen.

        The last event is always run_end. To stop early, call `cancel()` (the stream still ends
        with run_end "cancelled") or close the stream (`contextlib.aclosing`), which stops the run.
        The stream is the run's own generator (no wrapper passing each event on). An API key in
        `text` (pasted by mistake) is redacted first: no selector, model or history sees it.
        """
        return self._run(redact_text(text.strip(), self._secrets()), None, "ask")

    def run_tool(
        self,
        name: str,
        args: dict[str, Any],
        source: str = "form",
        arg_sources: dict[str, str] | None = None,
    ) -> AsyncGenerator[TraceEvent, None]:
        """Run one tool as given (no regex, no model): same events, calc sheet and conversation.

        `arg_sources` says where each argument came from (default, preset:<material>, …) for the
        report; an argument it does not name counts as `source`.
        """
        from caec_desktop.agent.selection.direct import DirectCallSelector
        from caec_desktop.services.forms import call_text

        selector = DirectCallSelector(name, args, source, arg_sources)  # type: ignore[arg-type]
        # the request as the window shows it live (`[form] tool: name = value, …`), so a
        # reopened conversation, its export and its title read the same
        text = call_text(name, args)
        return self._run(redact_text(text, self._secrets()), selector, source)

    def _secrets(self) -> tuple[str, ...]:
        """The keys of this session's settings (the redactor knows the others)."""
        return (self.settings.api_key(),) if self.settings.api_key() else ()

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        lock = self._locks.get(loop)
        if lock is None:
            lock = self._locks[loop] = asyncio.Lock()
        return lock

    async def _run(
        self, text: str, selector: ToolSelector | None, source: str
    ) -> AsyncGenerator[TraceEvent, None]:
        self._open_runs += 1
        try:
            async with self._lock():
                recorder = TraceRecorder(secrets=self._secrets())
                # A direct call (form) is chosen by no selector: its mode is its source, no model.
                mode, model = (self.mode, self.model) if selector is None else (source, "")
                uses_model = self._uses_model(selector)
                runner = engine.pick(uses_model)
                start = recorder.make(
                    "run_start",
                    None,
                    {
                        "text": text, "mode": mode, "model": model, "source": source,
                        "runner": runner,
                    },
                )  # fmt: skip
                queue: asyncio.Queue[TraceEvent | None] = asyncio.Queue()
                limit = self.settings.effective_turn_timeout()
                context = contextvars.copy_context()
                context.run(set_deadline, limit)  # the run's task (and its tasks) see it
                task = asyncio.create_task(
                    self._drive(text, selector, runner, recorder, queue), context=context
                )
                task.add_done_callback(lambda _: queue.put_nowait(None))
                expired: list[bool] = []

                def expire() -> None:
                    expired.append(True)
                    task.cancel()

                timer = asyncio.get_running_loop().call_later(limit, expire)
                self._task = task
                if self._cancel_requested:  # cancelled while waiting for its turn
                    task.cancel()
                try:
                    yield start
                    while (event := await queue.get()) is not None:
                        yield event
                finally:
                    timer.cancel()
                    if not task.done():  # the consumer stopped listening: stop the run too
                        task.cancel()
                        await asyncio.gather(task, return_exceptions=True)
                    self._task = None
                state, status, extra = self._outcome(
                    task, recorder, bool(expired), text, uses_model
                )
                for event in extra:
                    yield event
                turn = self._record(text, state, status, mode, model)
                end = recorder.make(
                    "run_end",
                    None,
                    {"status": status, "attempts": turn.attempts, "usage": turn.usage},
                )
                turn.events = list(recorder.events)  # complete before the consumer sees run_end
                yield end
        finally:
            self._open_runs -= 1
            if not self._open_runs:
                self._cancel_requested = False

    def _uses_model(self, selector: ToolSelector | None) -> bool:
        """Whether this turn's selector asks a model (`selector`: a form's, else the session's)."""
        chosen = selector if selector is not None else self._selector
        return chosen.answers_in_prose if chosen is not None else self.mode != "offline"

    async def _drive(
        self,
        text: str,
        selector: ToolSelector | None,
        runner: engine.Runner,
        recorder: TraceRecorder,
        queue: asyncio.Queue[TraceEvent | None],
    ) -> dict[str, Any]:
        from caec_desktop.agent.context import GraphContext
        from caec_desktop.agent.state import start_state, state_after, turn_input

        if selector is None and self._selector is None and self.mode != "offline":
            # The model's client library takes ~1-3 s to import the first time (after starting
            # offline and switching mode): on a worker thread, so the window keeps painting.
            queue.put_nowait(recorder.make("node_start", LOAD_NODE, {"loading": LOADING}))
            try:
                self._selector = await asyncio.to_thread(ready_selector, self.settings)
            finally:
                loaded = {"loaded": self.mode if self._selector is not None else "no"}
                queue.put_nowait(recorder.make("node_end", LOAD_NODE, loaded))
        context = GraphContext(
            selector=selector or self.selector(), settings=self.settings, reader=offline_reader()
        )
        graph_input = turn_input(text, self._history())
        state = start_state(graph_input)
        async for part in await engine.stream(runner, graph_input, context):
            if (update := node_update(part)) is not None:
                state = state_after(state, update)
            if (event := recorder.from_part(part)) is not None:
                queue.put_nowait(event)
        return dict(state)

    def _history(self) -> list[dict[str, Any]]:
        """The last HISTORY_LIMIT messages, answers without their calc sheets (tokens per turn
        stay small and flat; the sheets are in the conversation for people)."""
        from caec_desktop.agent.report import brief

        return [
            {"role": m["role"], "content": brief(m["content"])} if m["role"] == "assistant" else m
            for m in self.messages[-HISTORY_LIMIT:]
        ]

    def _deadline_net(
        self, text: str, message: str, recorder: TraceRecorder
    ) -> dict[str, Any] | None:
        """The offline safety net for a model's turn stopped at its time limit: also when the
        limit came while the model's client library was still loading (no selector yet)."""
        if not self.settings.safety_net:
            return None
        from caec_desktop.agent.safety_net import after_deadline

        def emit(kind: str, data: dict[str, Any]) -> None:
            recorder.make(kind, "report", data)

        refuse = self.settings.refuse_unsafe_calculations
        return after_deadline(text, self._history(), offline_reader(), refuse, message, emit)

    def _outcome(
        self,
        task: asyncio.Task[dict[str, Any]],
        recorder: TraceRecorder,
        timed_out: bool = False,
        text: str = "",
        uses_model: bool = False,
    ) -> tuple[dict[str, Any], str, list[TraceEvent]]:
        """Final state, status and any closing error events of a finished run task (a model's
        turn stopped at its time limit gets the offline safety net, agent/safety_net.py)."""
        from caec_desktop.agent.report import build_report

        if task.cancelled() and timed_out:
            message = turn_timeout_message(self.settings.effective_turn_timeout())
            event = recorder.make("error", None, {"message": message, "kind": "turn_timeout"})
            net = self._deadline_net(text, message, recorder) if uses_model else None
            if net is not None:
                return net, "answered", [event]
            answer = build_report({"error_message": message}, "model_error")
            return {"error_message": message, "answer": answer}, "model_error", [event]
        if task.cancelled():
            return {"answer": "Cancelled: the run was stopped before it finished."}, "cancelled", []
        exc = task.exception()
        if isinstance(exc, SelectorError):
            event = recorder.make("error", None, {"message": exc.user_message, "kind": exc.kind})
            answer = build_report({"error_message": exc.user_message}, "model_error")
            return {"error_message": exc.user_message, "answer": answer}, "model_error", [event]
        if exc is not None:
            trace_text = "".join(traceback.format_exception(exc))
            log.error("run failed:\n%s", redact_text(trace_text, self._secrets()))
            message = (
                "an internal error stopped this turn (a bug in CAEC Desktop, not in your "
                "request); the details are in the log. Try again, or use the tool's form."
            )
            event = recorder.make("error", None, {"message": message})  # redacted there
            return (
                {"answer": f"**Something went wrong:** {event.data['message']}"},
                "error",
                [event],
            )
        state = task.result()
        return state, str(state.get("status") or "error"), []

    def _record(
        self, text: str, state: dict[str, Any], status: str, mode: str, model: str
    ) -> TurnResult:
        shown = redact(  # the answer may quote what the model wrote: keys go here
            {
                "answer": str(state.get("answer", "")),
                "tool_results": [
                    {k: r.get(k) for k in RESULT_KEYS} for r in state.get("tool_results") or []
                ],
                "errors": list(state.get("errors") or []),
                "refusal_reason": state.get("refusal_reason"),
            },
            self._secrets(),
        )
        turn = TurnResult(
            **shown,
            intent=state.get("intent"),
            attempts=int(state.get("attempts", 0)),
            refused=bool(state.get("refused", False)),
            usage=dict(state.get("usage") or {}),
            status=status,
            path=str(state.get("path") or "none"),
            safety_net_reason=str(state.get("safety_net_reason") or ""),
            mode=mode,
            model=model,
        )
        self._usage_total = add_usage(self.usage_total, turn.usage)  # earlier turns + this one
        turn.conversation_usage = dict(self._usage_total)
        self.messages += _exchange(text, turn)
        self.turns.append(turn)
        self.last_turn = turn
        return turn
