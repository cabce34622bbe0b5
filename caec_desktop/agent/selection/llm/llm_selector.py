"""LLMSelector: the graph's ToolSelector backed by a chat model (OpenRouter or a local server).

One turn is one conversation with the model across `select` attempts, kept in the graph state
(`SelectionRequest.transcript` in, `Selection.transcript` out; nothing of a turn is kept here): on
a retry the model sees its own calls answered by ToolMessages carrying the validation errors (same
ids; ids made up when the server sent none), and `summarize` answers them with the results so the
model writes the final words. Calls come from native `tool_calls`, else from text
(`textcalls.py`, source "llm_text"). `auto` style starts native and switches to prompt style for
good when the server says it has no tool support.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)

from caec_desktop.agent.selection.llm import prompts
from caec_desktop.agent.selection.llm.caller import Emit, ModelCaller, new_call_id, usage_of
from caec_desktop.agent.selection.llm.provenance import read_ahead, source_args
from caec_desktop.agent.selection.llm.textcalls import parse_text_calls, split_think
from caec_desktop.agent.selection.protocol import (
    AttemptError,
    Intent,
    ProposedCall,
    Selection,
    SelectionRequest,
    SelectorError,
    Summary,
)
from caec_desktop.agent.usage import add_usage
from caec_desktop.settings.model import Settings
from caec_desktop.tools import tool_list
from caec_desktop.tools.sweep import SWEEP_TOOL, sweep_brief, sweep_entry


def _signature(calls: list[ProposedCall]) -> list[str]:
    return sorted(f"{c.name}:{json.dumps(c.args, sort_keys=True, default=str)}" for c in calls)


def _history(history: list[dict[str, Any]]) -> list[BaseMessage]:
    out: list[BaseMessage] = []
    for h in history:
        text = str(h.get("content") or "")
        out.append(AIMessage(content=text) if h.get("role") == "assistant" else HumanMessage(text))
    return out


def _rejected(errors: list[AttemptError]) -> dict[str, list[str]]:
    """Signatures of this turn's rejected calls → their messages (to stop repeats early)."""
    by_sig: dict[str, list[str]] = {}
    for e in errors:
        by_sig.setdefault(_signature([e.call])[0], []).extend(e.messages)
    return by_sig


class LLMSelector:
    """ToolSelector for the `local` and `openrouter` modes."""

    answers_in_prose = True
    """A reply without a call may be the model computing by itself (the graph asks for a call)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.caller = ModelCaller(settings)
        self.style = "prompt" if settings.tool_call_style == "prompt" else "native"
        """How tools are offered; `auto` switches to prompt for good on a server without tools."""
        self.tools = [*tool_list(), sweep_entry()]
        self.tool_names = {t["name"] for t in self.tools}
        self.local = settings.effective_mode == "local"

    async def aclose(self) -> None:
        """Nothing held open here (langchain-openai's clients close with the process)."""

    def warm(self) -> None:
        """Make the model clients now (the session calls this on a worker thread)."""
        self.caller.warm()

    # --- plumbing --------------------------------------------------------------------------

    def _offered(self, request: SelectionRequest) -> list[dict[str, Any]]:
        """The tools offered for this request: those the offline reader ranks highest for it
        (or for the latest request it ranks, in a follow-up), and `sweep` when it gives a range
        or list of values; all when it ranks none or when `Settings.all_tools` asks for all. A
        small model reads a short prompt faster and better (and picked `sweep` for "convert
        2.5 mm to m" when it was always offered)."""
        names = [] if self.settings.all_tools else ranked_tools(request.text, request.history)
        if not names:
            return self.tools
        from caec_desktop.agent.selection.offline.sweeps import find_sweep

        if find_sweep(request.text) is not None:
            names.append(SWEEP_TOOL)  # a range or list of values: a sweep runs any of them
        return [t for t in self.tools if t["name"] in names]

    def _tool_choice(
        self, purpose: str, tools: list[dict[str, Any]] | None
    ) -> str | dict[str, Any] | None:
        """What to send as `tool_choice` (local servers only): llama.cpp's function-calling
        format leaves tools out of the prompt without it, and a tool forced by name gets its
        arguments constrained to the tool's JSON Schema."""
        if not self.local or self.style != "native" or not tools:
            return None
        if purpose == "classify":
            return prompts.forced("respond")
        if purpose == "select":
            if len(tools) == 1 and not self._constrains_select():
                return prompts.forced(tools[0]["function"]["name"])
            return "required"
        return None

    def _constrains_select(self) -> bool:
        """Whether a selection's reply goes with a JSON Schema (`_schema`)."""
        return self.local and self.settings.constrained_output and self.caller.constrained

    def _schema(self, purpose: str, tools: list[dict[str, Any]]) -> dict[str, Any] | None:
        """The JSON Schema the reply must follow (local servers compile it into a grammar, so a
        small model cannot write an invalid call), or None. Classify in prompt style: the
        intent object (native style forces the `respond` tool, which llama.cpp constrains
        itself). Select: one call of the offered tools, in either style (native style then
        sends `tool_choice: required`, not a tool forced by name: llama-cpp-python would build
        its grammar from the tool's own schema instead, and a 270M model wrote `value: 100`
        for "convert 2.5 mm to m" there, `2.5` with this one)."""
        if not (self._constrains_select() and tools):
            return None
        if purpose == "classify":
            return prompts.INTENT_SCHEMA if self.style == "prompt" else None
        return prompts.call_schema(tools) if purpose == "select" else None

    def _system(self, purpose: str, tools: list[dict[str, Any]]) -> SystemMessage:
        if purpose == "classify":
            return SystemMessage(prompts.CLASSIFY)
        if purpose == "respond":
            return SystemMessage(prompts.RESPOND)
        if self.style == "prompt" and purpose == "select" and self._schema(purpose, tools):
            return SystemMessage(prompts.constrained_system(tools))
        if self.style == "prompt":
            return SystemMessage(prompts.prompt_style_system(tools))
        return SystemMessage(prompts.SYSTEM)

    async def _invoke(
        self,
        messages: list[BaseMessage],
        tools: list[dict[str, Any]] | None,
        emit: Emit,
        purpose: str,
        offered: list[dict[str, Any]] | None = None,
    ) -> AIMessage:
        """One reply to the system prompt for `purpose` (the style's, listing `offered` tools)
        and `messages`; in `auto` style, a 'no tool support' answer switches to prompt style.

        The request is prepared on a later event-loop turn than the one that asked for it (the
        node's own work before it: offered tools, messages; the loop also runs the GUI)."""
        offered = offered if offered is not None else self.tools
        await asyncio.sleep(0)
        try:
            return await self.caller.invoke(
                [self._system(purpose, offered), *messages],
                tools=tools if self.style == "native" else None,
                emit=emit,
                purpose=purpose,
                tool_choice=self._tool_choice(purpose, tools),
                schema=self._schema(purpose, offered if purpose == "select" else tools or []),
            )
        except SelectorError as exc:
            if not (exc.kind == "tools_unsupported" and self.style == "native"):
                raise
            if self.settings.tool_call_style != "auto":
                raise
        self.style = "prompt"
        emit("error", {
            "kind": "tools_unsupported",
            "action": "switched to prompt-style tool calls (tools described in the system prompt)",
        })  # fmt: skip
        return await self.caller.invoke(
            [self._system(purpose, offered), *messages],
            tools=None,
            emit=emit,
            purpose=purpose,
            schema=self._schema(purpose, offered if purpose == "select" else tools or []),
        )

    # --- classify --------------------------------------------------------------------------

    async def classify(self, request: SelectionRequest) -> Intent:
        """Intent via the synthetic `respond` tool, else JSON in the text, else the regex rules."""
        emit = request.emit
        text = request.text
        from caec_desktop.agent.selection.offline import classify_text

        if classify_text(text, request.history) == "help":
            # "what can you do?": the help text answers it; no model call, no tool list.
            emit("llm_response", {"purpose": "classify", "content": HELP_NOTE, "intent": "help"})
            return "help"
        messages = [*_history(request.history), HumanMessage(text)]
        msg = await self._invoke(messages, [prompts.RESPOND_TOOL], emit, "classify")
        request.usage.update(add_usage(request.usage, usage_of(msg)))
        said = next(
            (
                c["args"]["intent"]
                for c in msg.tool_calls
                if c["name"] == "respond" and c["args"].get("intent") in prompts.INTENTS
            ),
            None,
        ) or _intent_from_text(str(msg.content))
        if said is None:
            note = "model gave no intent; using regex rules"
            emit("error", {"kind": "classify", "message": note})
            return classify_text(text, request.history)
        if self.local and said in ("help", "other") and ranked_tools(text, []):
            # A small local model called "hertz contact time for r=1 mm steel at 2 m/s" help:
            # a question the offline rules rank a tool for is not left without a calculation.
            ruled = classify_text(text, request.history)
            emit("llm_response", {
                "purpose": "classify", "intent": ruled,
                "content": f"the model said {said!r}, but the offline rules rank a tool for "
                f"this request: {ruled}",
            })  # fmt: skip
            return ruled
        return said

    # --- select ----------------------------------------------------------------------------

    def _feedback(self, request: SelectionRequest) -> list[BaseMessage]:
        """The previous attempt's errors as the model should see them.

        The graph keeps errors without ids (and from every attempt), so they are matched to the
        model's last calls by tool name and arguments.
        """
        errors = request.errors
        by_sig = _rejected(errors)
        last = request.transcript[-1] if request.transcript else None
        if isinstance(last, AIMessage) and last.tool_calls:
            out: list[BaseMessage] = []
            for c in last.tool_calls:
                msgs = by_sig.get(_signature([ProposedCall(c["name"], dict(c["args"]))])[0])
                text = (
                    prompts.INVALID_CALL_NOTE.format(errors="; ".join(dict.fromkeys(msgs)))
                    if msgs
                    else prompts.RAN_NOTE
                )
                out.append(ToolMessage(text, tool_call_id=c["id"] or ""))
            return out
        latest = [(c.name, c.args, by_sig.get(_signature([c])[0], [])) for c in request.proposed]
        return [HumanMessage(prompts.feedback_text([x for x in latest if x[2]] or [
            (e.call.name, e.call.args, e.messages) for e in errors
        ], self.style))]  # fmt: skip

    async def select(self, request: SelectionRequest) -> Selection:
        """Calls the model proposes for this attempt (or its reply when it proposes none).

        The model sees the request after the history, then this turn's exchange so far
        (`request.transcript`) and the feedback on the last attempt; the messages added here
        are returned in `Selection.transcript` for the graph state.
        """
        emit = request.emit
        usage: dict[str, float] = {}
        start = [*_history(request.history), HumanMessage(request.text)]
        added: list[BaseMessage] = []
        if request.errors and request.transcript:
            added += self._feedback(request)
        messages = [*start, *request.transcript, *added]
        offered = self._offered(request)
        defs = prompts.openai_tools(offered)
        # What the arguments will be compared with is read while the model answers.
        reading = asyncio.get_running_loop().create_task(read_ahead(request.text, request.history))
        try:
            msg = await self._reply(messages, defs, emit, offered, usage, added)
            proposed = self._calls_of(msg, emit)
            if proposed:
                # The reply was read in this step of the event loop; where each argument came
                # from is read in the next (the messages' values were read meanwhile), so the
                # window draws in between (the loop also runs the GUI).
                await asyncio.sleep(0)
                await reading
        finally:
            reading.cancel()
        calls = [_sourced(c, request) for c in proposed]
        invalid = _rejected(request.errors)
        repeated = [invalid[s] for s in _signature(calls) if s in invalid]
        if calls and len(repeated) == len(calls):
            problems = "; ".join(dict.fromkeys(m for msgs in repeated for m in msgs))
            emit("error", {"kind": "repeated_invalid_call", "message": problems})
            return Selection(
                reply=f"The model repeated the same invalid call ({problems}). Please give the "
                "missing or corrected values, or fill the tool's form.",
                usage=usage,
                transcript=added,
            )
        if calls:
            return Selection(calls=calls, usage=usage, transcript=added)
        _, visible = split_think(str(msg.content))
        return Selection(reply=visible.strip() or None, usage=usage, transcript=added)

    async def _reply(
        self,
        messages: list[BaseMessage],
        defs: list[dict[str, Any]],
        emit: Emit,
        offered: list[dict[str, Any]],
        usage: dict[str, float],
        added: list[BaseMessage],
    ) -> AIMessage:
        """The model's reply to a selection (`usage` and `added` updated): asked once more
        when its calls' arguments are not valid JSON."""
        msg = await self._invoke(messages, defs, emit, "select", offered)
        usage.update(add_usage(usage, usage_of(msg)))
        if msg.invalid_tool_calls and not msg.tool_calls:
            # Unreadable arguments: tell the model once, inside this attempt.
            notes: list[BaseMessage] = [msg]
            for c in msg.invalid_tool_calls:
                note = f"Error: {unreadable_args(c.get('args'))}."
                notes.append(ToolMessage(note, tool_call_id=c["id"] or "", status="error"))
            added += notes
            msg = await self._invoke([*messages, *notes], defs, emit, "select", offered)
            usage.update(add_usage(usage, usage_of(msg)))
        added.append(msg)
        return msg

    async def respond(self, request: SelectionRequest) -> Selection:
        """The reply to a request that runs no tool: for help, the help text (no model call);
        else the model's words, asked without any tool list (nothing is run for this turn)."""
        if request.intent == "help":
            return Selection(reply=model_help_text())
        usage: dict[str, float] = {}
        messages = [*_history(request.history), HumanMessage(request.text)]
        msg = await self._invoke(messages, None, request.emit, "respond", [])
        usage.update(add_usage(usage, usage_of(msg)))
        _, visible = split_think(str(msg.content))
        _, rest = parse_text_calls(visible, self.tool_names)  # a call written here runs nothing
        return Selection(reply=rest.strip() or None, usage=usage, transcript=[msg])

    def _calls_of(self, msg: AIMessage, emit: Emit) -> list[ProposedCall]:
        if msg.tool_calls:
            return [
                ProposedCall(name=c["name"], args=dict(c["args"]), id=c["id"] or "", source="llm")
                for c in msg.tool_calls
            ]
        if msg.invalid_tool_calls:  # still unreadable after being told once (`_reply`)
            return [
                ProposedCall(
                    name=c.get("name") or "(no name)",
                    args={},
                    id=c.get("id") or "",
                    source="llm",
                    problems=[unreadable_args(c.get("args"))],
                )
                for c in msg.invalid_tool_calls
            ]
        _, visible = split_think(str(msg.content))
        found, _rest = parse_text_calls(visible, self.tool_names)
        if not found:
            return []
        calls = [
            ProposedCall(name=f.name, args=f.args, id=new_call_id(), source="llm_text")
            for f in found
        ]
        emit("llm_response", {
            "note": "tool calls recovered from text",
            "variants": sorted({f.variant for f in found}),
            "calls": [{"id": c.id, "name": c.name, "args": c.args} for c in calls],
            "problems": [n for f in found for n in f.notes],
        })  # fmt: skip
        return calls

    # --- summarize -------------------------------------------------------------------------

    async def summarize(
        self, request: SelectionRequest, results: list[dict[str, Any]]
    ) -> Summary | None:
        """The model's final answer from the tool results, with the values it states (read as
        the offline reader reads a request); None (keep the report) when there is nothing to
        summarize or the reply is cut off or empty. A failed request raises SelectorError: the
        report node keeps the numbers and says the summary is missing."""
        last = request.transcript[-1] if request.transcript else None
        if not request.proposed or not isinstance(last, AIMessage):
            return None
        answers: list[BaseMessage] = []
        if last.tool_calls:
            # Results carry validated args, not the model's: pair by tool name, newest first.
            pool = list(reversed(results))
            for c in last.tool_calls:
                r = next((r for r in pool if r.get("tool") == c["name"]), None)
                if r is not None:
                    pool.remove(r)
                text = _result_for_model(r) if r else prompts.NOT_RUN_NOTE
                answers.append(ToolMessage(text, tool_call_id=c["id"] or ""))
        else:
            lines = [f"- {r.get('tool')} → {_result_for_model(r)}" for r in results]
            answers.append(
                HumanMessage("Tool results:\n" + "\n".join(lines) + "\nAnswer the user briefly.")
            )
        start = [*_history(request.history), HumanMessage(request.text)]
        messages = [*start, *request.transcript, *answers]
        offered = self._offered(request)
        defs = prompts.openai_tools(offered)
        msg = await self._invoke(messages, defs, request.emit, "summarize", offered)
        request.usage.update(add_usage(request.usage, usage_of(msg)))
        if msg.response_metadata.get("finish_reason") == "length":
            return None  # cut off at the reply cap: the report's own text reads better
        _, visible = split_think(str(msg.content))
        _, rest = parse_text_calls(visible, self.tool_names)
        if not rest:
            return None
        from caec_desktop.agent.selection.offline.stated import read_stated_values

        # The reply's end was read in this step of the event loop; the values it states (the
        # offline reader over the whole summary, ~2-3 ms for 300 words) are read a block per
        # step in the next ones.
        return Summary(text=rest, values=await read_stated_values(rest))


def unreadable_args(raw: Any) -> str:
    """Why a call's arguments cannot be read, quoting the start of what the model wrote."""
    text = " ".join(str(raw or "").split())
    quoted = text if len(text) <= 120 else text[:119] + "…"
    return f"the arguments are not valid JSON (the model wrote: {quoted})"


HELP_NOTE = "a help question (offline rules): answered with the help text, no model call"


def model_help_text() -> str:
    """The help text for the model modes: what can be computed and how to ask."""
    from caec_desktop.agent.selection.offline.help import help_text

    return help_text(
        "I compute DEM set-up values with tools: ask in your own words and give the inputs with "
        "units (2 mm, 70 GPa, 2.5 g/cm^3). Material names (glass, steel, sand, …) fill density, "
        "E and ν. A model's call runs only with values you gave or named. What I can compute:"
    )


_INTENT_KEY = re.compile(r"[{,]\s*['\"]?intent['\"]?\s*:\s*['\"]?([A-Za-z]+)")


def ranked_tools(text: str, history: list[dict[str, Any]], top: int = 3) -> list[str]:
    """The `top` tools the offline reader ranks highest for `text` (else for the latest earlier
    request it ranks: a follow-up), best first."""
    from caec_desktop.agent.selection.offline.regex_selector import ranked_phrasings

    requests = [text] + [
        str(h.get("content")) for h in reversed(history) if h.get("role") == "user"
    ]
    for body in requests:
        names = list(dict.fromkeys(p.tool for _, p in ranked_phrasings(body)))
        if names:
            return names[:top]
    return []


def _sourced(call: ProposedCall, request: SelectionRequest) -> ProposedCall:
    """`call` with the source of each argument (and material names the user gave as values
    replaced by their presets): see `provenance.py`."""
    call.args, call.arg_sources = source_args(call.name, call.args, request.text, request.history)
    return call


def _for_model(entry: dict[str, Any]) -> Any:
    """A result as the model reads it: a sweep in brief (its table may hold 1,000 rows)."""
    result = entry.get("result")
    if entry.get("tool") == SWEEP_TOOL and isinstance(result, dict):
        return sweep_brief(result)
    return result


def _result_for_model(entry: dict[str, Any]) -> str:
    """A result for the model: a sweep in brief, else every value with its unit."""
    if entry.get("tool") == SWEEP_TOOL:
        return json.dumps(_for_model(entry), default=str)
    return prompts.result_text(entry)


def _intent_from_text(content: str) -> Intent | None:
    _, visible = split_think(content)
    found, _ = parse_text_calls(visible, {"respond"})
    for f in found:
        if f.args.get("intent") in prompts.INTENTS:
            return f.args["intent"]  # type: ignore[no-any-return]
    unquoted = _INTENT_KEY.search(visible)  # {intent: "calculation"}
    if unquoted and unquoted.group(1).lower() in prompts.INTENTS:
        return unquoted.group(1).lower()  # type: ignore[return-value]
    start = visible.find("{")
    if start >= 0:
        try:
            obj, _ = json.JSONDecoder().raw_decode(visible, start)
        except json.JSONDecodeError:
            obj = None
        if isinstance(obj, dict) and obj.get("intent") in prompts.INTENTS:
            return obj["intent"]  # type: ignore[no-any-return]
    word = visible.strip().strip('."').lower()
    return word if word in prompts.INTENTS else None
