"""The headless `caec` command (docs/architecture.md): tools, run, ask, chat, doctor, replay,
history, export.

Exit codes: 0 answered; 2 invalid input or refused; 3 model/server failure; 1 a bug.
Subcommands import what they need lazily, so `caec tools` does not pay for LangGraph.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import json
import os
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from caec_desktop.agent.usage import usage_text
from caec_desktop.settings.redact import found_secrets, install_log_redaction, redact_text

EXIT_OK = 0
EXIT_BUG = 1
EXIT_INVALID = 2
EXIT_MODEL = 3


_UNSEEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal acts on instead of showing (controls but newline and tab: escape
sequences that clear the screen, retitle the window or move the cursor; bidirectional overrides
that reorder what is read). A model's tool-call argument quoted in a refusal can hold them."""


def _shown(char: re.Match[str]) -> str:
    code = ord(char.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _say(text: object = "", *, err: bool = False) -> None:
    """Print a line on stdout (stderr with `err`), every API key redacted and every character
    in `_UNSEEN` written as its escape (`\\x1b`): whatever a command prints (answers, errors,
    doctor reports, JSON) passes here."""
    line = _UNSEEN.sub(_shown, redact_text(str(text)))
    print(line, file=sys.stderr if err else sys.stdout)


def _say_json(text: str) -> None:
    """Print JSON text as `_say` does, its `_UNSEEN` characters (JSON escapes only those below
    0x20) as `\\u` escapes, which read back as the same text."""
    _say(_UNSEEN.sub(lambda c: f"\\u{ord(c.group()):04x}", text))


def _print_json(obj: Any) -> None:
    _say_json(json.dumps(obj, indent=2, ensure_ascii=False, default=str))


def load_json(text: str, what: str) -> Any:
    """`json.loads` for command-line input, with errors that name `what` (never a traceback)."""
    from caec_desktop.tools.jsontext import MAX_JSON_DEPTH, too_deep

    if too_deep(text):
        raise ValueError(f"{what}: nested deeper than {MAX_JSON_DEPTH} levels")
    try:
        return json.loads(text, object_pairs_hook=one_value_per_key)
    except RecursionError:  # pragma: no cover - refused above
        raise ValueError(f"{what}: nested too deeply") from None
    except TwoValues as exc:
        raise ValueError(f"{what}: {exc}") from None
    except ValueError as exc:  # JSONDecodeError, or an integer too long to convert
        if "integer string conversion" in str(exc):
            raise ValueError(f"{what}: a number of more than 4300 digits") from None
        raise ValueError(f"{what}: not valid JSON ({exc})") from None


class TwoValues(ValueError):
    """One input given two different values (`density=7850 density=2500`)."""


def one_value_per_key(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict, refusing a key given twice with two values (`json.loads`
    alone keeps the last in silence)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out and out[key] != value:
            raise TwoValues(f"{key} given twice ({out[key]!r} and {value!r}); give one value")
        out[key] = value
    return out


def merged_args(typed: dict[str, Any], extra: Any) -> dict[str, Any]:
    """`key=value` words and `--args` together; an input given in both with two values is
    refused, never taken from one of them in silence."""
    if not isinstance(extra, dict):
        raise ValueError("--args must be a JSON object")
    both = [k for k in typed if k in extra and typed[k] != extra[k]]
    if both:
        key = both[0]
        raise TwoValues(
            f"{key} given twice ({key}={typed[key]!r} and in --args {extra[key]!r}); give one value"
        )
    return {**typed, **extra}


_JSON_WORDS = frozenset({"true", "false", "null"})


def parse_pairs(pairs: Sequence[str]) -> dict[str, Any]:
    """`key=value` words into a dict. Lists (`[...]`), objects and true/false/null are JSON;
    everything else stays a string (`particle_diameter=2mm`, `density=2500`) for the tool's value
    reader, which reads numbers and units alike and names the field when it cannot.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"expected key=value, got {pair!r}")
        key, _, raw = pair.partition("=")
        key, raw = key.strip(), raw.strip()
        value: Any = raw
        if raw[:1] in ("[", "{") or raw in _JSON_WORDS:
            value = load_json(raw, key)
        if key in out and out[key] != value:
            raise TwoValues(f"{key} given twice ({out[key]!r} and {value!r}); give one value")
        out[key] = value
    return out


def apply_display(ns: argparse.Namespace) -> str | None:
    """Make the display units current for this command: the settings' (config file, env), then
    `--units` and `--sig` over them. Returns a message naming the bad option, else None."""
    from caec_desktop.settings.config import ConfigError, load_settings
    from caec_desktop.tools.display import DisplayError, make_display, parse_units_option, use

    overrides: dict[str, str] = {}
    try:
        settings = load_settings()
        preset, digits = settings.units_preset, settings.significant_figures
        overrides.update({str(k): v for k, v in settings.display_units.items()})
    except ConfigError:  # the command itself reports a broken config where it needs one
        preset, digits = "si", 4
    try:
        if getattr(ns, "units", None):
            option = parse_units_option(ns.units)
            if option["preset"] != "si" or not option["overrides"]:
                preset, overrides = option["preset"], {}
            overrides.update(option["overrides"])
        if getattr(ns, "sig", None) is not None:
            digits = ns.sig
        use(make_display(preset, overrides, digits))
    except DisplayError as exc:
        return str(exc)
    return None


def cmd_tools(ns: argparse.Namespace) -> int:
    from caec_desktop.tools import tool_list

    tools = tool_list()
    if ns.json:
        _print_json(tools)
        return EXIT_OK
    group = None
    for t in tools:
        if t["group"] != group:
            if group is not None:
                print()
            group = t["group"]
            print(f"== {group} ==")
        params = t["parameters"]
        req = set(params["required"])
        names = [p if p in req else f"[{p}]" for p in params["properties"]]
        _say(f"{t['name']}: {t['description']}")
        _say(f"    parameters: {' '.join(names)}")
    return EXIT_OK


def cmd_run(ns: argparse.Namespace) -> int:
    from caec_desktop.tools import count_fields, execute, result_schema, tool_names
    from caec_desktop.tools.bare import typed_args
    from caec_desktop.tools.display import current

    try:
        args = typed = parse_pairs(ns.pairs)
        if ns.args:
            extra = load_json(ns.args, "--args")
            args = merged_args(args, extra)
            typed = {k: v for k, v in typed.items() if k not in extra}
    except ValueError as exc:
        msg = f"invalid arguments: {exc}"
        if isinstance(exc, json.JSONDecodeError):  # no parser text: where the error is
            msg = f"invalid arguments: --args is not valid JSON (first error at column {exc.colno})"
        if ns.json:
            _print_json({"ok": False, "tool": ns.tool, "args": {}, "result": None, "errors": [msg]})
        else:
            _say(msg, err=True)
        return EXIT_INVALID
    if ns.tool not in tool_names():
        msg = f"unknown tool {ns.tool!r}; known tools: {', '.join(tool_names())}"
        if ns.json:
            _print_json(
                {"ok": False, "tool": ns.tool, "args": args, "result": None, "errors": [msg]}
            )
        else:
            _say(msg, err=True)
        return EXIT_INVALID
    questions, notes = typed_args(ns.tool, typed)  # bare numbers typed: read and said, or asked
    if questions:
        if ns.json:
            _print_json(
                {"ok": False, "tool": ns.tool, "args": args, "result": None, "errors": questions}
            )
        else:
            _say(f"{ns.tool}: invalid input", err=True)
            for question in questions:
                _say(f"  {question}", err=True)
        return EXIT_INVALID
    outcome = execute(ns.tool, args)
    units = {k: v.get("x-unit", "") for k, v in result_schema(ns.tool)["properties"].items()}
    counts = count_fields(ns.tool)

    def show(key: str, value: Any) -> str:
        return current().show(value, units.get(key, ""), key in counts)

    if ns.json:
        _print_json(
            {
                "ok": outcome.ok,
                "notes": notes,
                "tool": outcome.tool,
                "args": outcome.args if outcome.ok else args,
                "result": outcome.result,
                "display": {k: show(k, v) for k, v in (outcome.result or {}).items()},
                "errors": [e.text() for e in outcome.errors],
                "warnings": [{**w.model_dump(), "text": w.text()} for w in outcome.warnings],
                "calc_sheet": outcome.calc_sheet.model_dump() if outcome.calc_sheet else None,
            }
        )
        return EXIT_OK if outcome.ok else EXIT_INVALID
    if not outcome.ok:
        _say(f"{ns.tool}: invalid input", err=True)
        for err in outcome.errors:
            _say(f"  {err.text()}", err=True)
        return EXIT_INVALID
    for note in notes:
        _say(f"note: {note}")
    for warning in outcome.warning_texts():
        _say(f"warning: {warning}")
    for key, value in (outcome.result or {}).items():
        if value is not None:  # not computed from these inputs: left out, as in the chat
            _say(f"{key} = {show(key, value)}")
    if outcome.calc_sheet:
        _say()
        _say(outcome.calc_sheet.text())
    return EXIT_OK


def cmd_sweep(ns: argparse.Namespace) -> int:
    """`caec sweep TOOL PARAM=FROM..TO[:N][:log] key=value …`: the tool at every point."""
    from caec_desktop.tools.display import current
    from caec_desktop.tools.sweep import (
        RangeError,
        empty_columns,
        left_out_line,
        parse_range,
        run_sweep,
        sweep_csv,
        sweep_text,
        table_cells,
    )

    def refuse(messages: list[str]) -> int:
        if ns.json:
            _print_json({"ok": False, "tool": ns.tool, "table": None, "errors": messages})
        else:
            _say(f"caec sweep: {ns.tool}: invalid input", err=True)
            for m in messages:
                _say(f"  {m}", err=True)
        return EXIT_INVALID

    try:
        parameter, _, spec = ns.range.partition("=")
        if not spec:
            raise RangeError(f"expected PARAM=FROM..TO[:N][:log], got {ns.range!r}")
        request: dict[str, Any] = {"tool": ns.tool, "parameter": parameter.strip()}
        request.update(parse_range(spec))
        request["args"] = typed = parse_pairs(ns.pairs)
        if ns.args:
            extra = load_json(ns.args, "--args")
            request["args"] = merged_args(typed, extra)
            typed = {k: v for k, v in typed.items() if k not in extra}
    except RangeError as exc:  # the swept input by name: `particle_diameter: '1,5 mm' may be`
        return refuse([f"{ns.range.partition('=')[0].strip() or 'range'}: {exc}"])
    except (ValueError, json.JSONDecodeError) as exc:
        return refuse([f"invalid arguments: {exc}"])
    questions, notes = _typed_sweep(ns.tool, request, typed)
    if questions:
        return refuse(questions)
    if ns.threshold is not None:
        request["threshold"] = ns.threshold
    outcome = run_sweep(request)
    if not outcome.ok or outcome.table is None:
        return refuse([e.text() for e in outcome.errors])
    table = outcome.table
    left_out = empty_columns(table)
    if ns.json:
        headers, rows = table_cells(table)
        _print_json(
            {"ok": True, "tool": ns.tool, "request": outcome.request, "table": table,
             "display": {"headers": headers, "rows": rows, "left_out": left_out},
             "errors": [], "notes": notes}
        )  # fmt: skip
        return EXIT_OK
    for note in notes:  # on stderr beside a CSV, which stays a plain table
        _say(f"note: {note}", err=ns.csv)
    if ns.csv:
        if left_out:
            _say(f"note: {left_out_line(left_out)}", err=True)
        _say(sweep_csv(table).rstrip("\n"))
    else:
        _say(sweep_text(table, current()))
    return EXIT_OK


def _typed_sweep(
    tool: str, request: dict[str, Any], typed: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """The bare-number rule (`tools/bare.py`) for a sweep's typed words: the other inputs, and
    the range's ends or list (`particle_radius=0.1..3` is asked back like `particle_radius=0.1`)."""
    from caec_desktop.tools import tool_names
    from caec_desktop.tools.bare import typed_args

    if tool not in tool_names():
        return [], []  # the sweep names the unknown tool
    questions, notes = typed_args(tool, typed)
    swept = [request.get("start"), request.get("stop"), *request.get("values", [])]
    for value in (v for v in swept if v is not None):
        asked, said = typed_args(tool, {request["parameter"]: value})
        questions += asked
        notes += said
    return list(dict.fromkeys(questions)), list(dict.fromkeys(notes))


# --- ask / chat: one Session over the agent graph ----------------------------------------------

STATUS_EXIT = {
    "answered": EXIT_OK,
    "needs_input": EXIT_INVALID,
    "invalid": EXIT_INVALID,
    "refused": EXIT_INVALID,
    "model_error": EXIT_MODEL,
    "cancelled": EXIT_BUG,
    "error": EXIT_BUG,
}


def _session_settings(ns: argparse.Namespace) -> Any:
    """Settings from config file, env and the command-line flags (flags win).

    A broken settings file is reported on stderr and replaced by the defaults (never a failed
    command); an invalid flag or environment variable raises ConfigError (exit 2).
    """
    from caec_desktop.settings.config import load_settings_soft

    flags = {
        "mode": ns.mode,
        "base_url": ns.base_url,
        "model": ns.model,
        "turn_timeout_s": getattr(ns, "timeout", None),
    }
    loaded = load_settings_soft(**{k: v for k, v in flags.items() if v is not None})
    for note in loaded.notes:
        _say(f"caec {ns.command}: {note}", err=True)
    return loaded.settings


def _seconds(text: str) -> float:
    """`--timeout` value: a finite number of seconds above 0 (at most a day)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds as a number, got {text!r}") from None
    if not math.isfinite(value) or not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(
            f"must be a number of seconds above 0 and at most 86400, got {text!r}"
        )
    return value


def format_event(event: Any) -> str:
    """One trace event on one line for the terminal: time, kind, node, the data in short."""
    data = event.data
    if event.kind == "tool_call":
        brief = f"{data.get('name')} {json.dumps(data.get('args'), ensure_ascii=False)}"
    elif event.kind == "validation_error":
        brief = f"{data.get('tool')}: " + "; ".join(data.get("messages", []))
    elif event.kind == "tool_result":
        brief = f"{data.get('tool')} -> {json.dumps(data.get('result'), ensure_ascii=False)}"
    elif event.kind == "warning":
        brief = str(data.get("message", ""))
    else:
        brief = json.dumps(data, ensure_ascii=False, default=str) if data else ""
    if len(brief) > 160:
        brief = brief[:157] + "..."
    return f"{event.t_ms:8.1f} ms  {event.kind:<16} {event.node or '':<7} {brief}".rstrip()


PASTED_KEY = (
    "{command}: the request contains what looks like an API key; it was not sent to any model "
    "nor saved. Remove it and ask again; to use a key, set CAEC_LLM_API_KEY (or "
    "OPENROUTER_API_KEY) or save it in the app's Settings."
)


def cmd_ask(ns: argparse.Namespace) -> int:
    import asyncio

    if not ns.query.strip():  # nothing asked: input needed, not an answer (exit 2)
        _say(
            "caec ask: the question is empty; ask for a calculation with its inputs, e.g. "
            'caec ask "Rayleigh time step for 1 mm glass beads"',
            err=True,
        )
        return EXIT_INVALID
    from caec_desktop.services.session import Session
    from caec_desktop.settings.config import ConfigError

    try:
        session = Session(_session_settings(ns))
    except ConfigError as exc:
        _say(f"caec ask: {exc}", err=True)
        return EXIT_INVALID
    if ns.trace and (problem := _trace_file_problem(ns.trace)):  # before the turn runs
        _say(f"caec ask: --trace: cannot write {ns.trace!r} ({problem})", err=True)
        return EXIT_INVALID
    if found_secrets(ns.query):  # key-shaped, or a key the settings hold (now registered)
        _say(PASTED_KEY.format(command="caec ask"), err=True)
        return EXIT_INVALID

    async def turn() -> None:
        async for event in session.ask(ns.query):
            if ns.verbose:
                _say(format_event(event), err=True)

    asyncio.run(turn())
    result = session.last_turn
    if result is None:  # pragma: no cover - a run always records its turn
        return EXIT_BUG
    if ns.save:
        recorder = _open_recorder(ns)
        _save_turn(ns, recorder, result)
        recorder.store.close()
    if ns.trace:
        from pathlib import Path

        from caec_desktop.settings.files import write_private

        try:
            write_private(Path(ns.trace), "".join(e.to_json() + "\n" for e in result.events))
        except OSError as exc:
            _say(f"caec ask: --trace: cannot write {ns.trace!r} ({exc.strerror})", err=True)
            return EXIT_INVALID
    if ns.json:
        _say_json(result.model_dump_json(indent=2))
    else:
        _say(result.answer)
    return STATUS_EXIT.get(result.status, EXIT_BUG)


def _trace_file_problem(name: str) -> str | None:
    """Why a trace file could not be written there, seen before a turn runs; None if it can."""
    import os
    from pathlib import Path

    path = Path(name)
    if path.is_dir():
        return "it is a folder; give a file name, e.g. run.jsonl"
    folder = path.parent
    if not folder.is_dir():
        return f"the folder {str(folder)!r} does not exist"
    if not os.access(folder, os.W_OK):
        return f"the folder {str(folder)!r} is not writable"
    return None


def cmd_chat(ns: argparse.Namespace) -> int:
    gc.enable()  # a conversation runs for long (see main)

    from caec_desktop.services.session import Session
    from caec_desktop.settings.config import ConfigError

    try:
        session = Session(_session_settings(ns))
    except ConfigError as exc:
        _say(f"caec chat: {exc}", err=True)
        return EXIT_INVALID

    async def turn(text: str) -> None:
        async for event in session.ask(text):
            _say(format_event(event))

    recorder = None if ns.no_save else _open_recorder(ns)
    saving = "" if recorder is None else "; saved to history, --no-save to opt out"
    _say(f"caec chat ({session.mode}, {session.model}){saving}; quit, exit or Ctrl-D ends.")
    try:
        _chat_loop(session, recorder, turn, ns)
    finally:
        if recorder is not None:
            recorder.store.close()
    return EXIT_OK


def _open_recorder(ns: argparse.Namespace) -> Any:
    """A recorder on the history database (never fails; what went wrong goes to stderr)."""
    from caec_desktop.services.history import ConversationRecorder, HistoryStore

    recorder = ConversationRecorder(HistoryStore.open())
    for notice in recorder.new_notices():
        _say(f"caec {ns.command}: {notice}", err=True)
    return recorder


def _save_turn(ns: argparse.Namespace, recorder: Any, result: Any) -> None:
    """Save one finished turn like the window does; problems go to stderr, never an exit."""
    import sqlite3

    from caec_desktop.services.history.store import error_words

    try:
        recorder.record(result)
    except (OSError, sqlite3.Error, ValueError) as exc:
        _say(f"caec {ns.command}: turn not saved to history ({error_words(exc)})", err=True)
    for notice in recorder.new_notices():
        _say(f"caec {ns.command}: {notice}", err=True)


def _chat_loop(session: Any, recorder: Any, turn: Any, ns: argparse.Namespace) -> None:
    import asyncio

    with asyncio.Runner() as runner:
        while True:
            try:
                text = input("you> ").strip()
            except EOFError:
                _say()
                break
            if text.lower() in ("quit", "exit"):
                break
            if not text:
                continue
            if found_secrets(text):
                _say(PASTED_KEY.format(command="caec chat"), err=True)
                continue
            try:
                runner.run(turn(text))
            except KeyboardInterrupt:
                _say("(cancelled)")
                continue
            if session.last_turn is not None:
                if recorder is not None:
                    _save_turn(ns, recorder, session.last_turn)
                _say()
                _say(session.last_turn.answer)
                if session.last_turn.conversation_usage:
                    _say(f"({usage_text(session.last_turn.usage)} this turn, "
                          f"{usage_text(session.usage_total)} in this conversation)")  # fmt: skip
                _say()


def cmd_doctor(ns: argparse.Namespace) -> int:
    """Probe an LLM endpoint: 0 when some tool-call style works there, 3 when none does."""
    import asyncio

    from caec_desktop.settings.config import ConfigError

    try:
        settings = _session_settings(ns)
    except ConfigError as exc:
        _say(f"caec doctor: {exc}", err=True)
        return EXIT_INVALID
    if settings.effective_mode == "offline":
        _say(
            "caec doctor: choose --mode local (with --base-url) or --mode openrouter",
            err=True,
        )
        return EXIT_INVALID
    from caec_desktop.agent.selection.llm.doctor import probe

    if ns.timeout is not None:
        settings = settings.model_copy(update={"request_timeout_s": ns.timeout})
    report = asyncio.run(probe(settings))
    if ns.json:
        _print_json(report.to_dict())
    else:
        _say(report.text())
    return EXIT_OK if report.ok else EXIT_MODEL


def cmd_replay(ns: argparse.Namespace) -> int:
    """Re-run a trace's tool calls with no model: 0 all reproduce, 2 otherwise or unreadable."""
    from caec_desktop.services.replay import TraceFileError, replay_file, report_json, report_text

    try:
        report = replay_file(ns.trace)
    except TraceFileError as exc:
        _say(f"caec replay: {exc}", err=True)
        return EXIT_INVALID
    _say_json(report_json(report)) if ns.json else _say(report_text(report))
    return EXIT_OK if report.ok else EXIT_INVALID


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (a number > 0), got {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected seconds (a number > 0), got {text!r}")
    return value


def _display_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--units",
        help="display units: a preset (si, si_mm_mpa, us) and/or kind=unit pairs, e.g. "
        "length=mm,pressure=MPa (kinds: length time pressure density mass force stiffness "
        "speed); values stay SI in --json",
    )
    p.add_argument("--sig", type=int, help="significant figures shown (2-10, default 4)")


_DISPLAY = "caec_desktop.tools.display"


# --- history / export: saved conversations -----------------------------------------------------


def _open_history(ns: argparse.Namespace, command: str) -> Any:
    """The history store (`--history FILE` or the user data dir); None (and a message) if it
    cannot be opened."""
    import sqlite3

    from caec_desktop.services.history import HistoryStore, default_path

    path = ns.history or default_path()
    if not path.exists():  # never create a database just to read it
        where = "--history" if ns.history else "the app's history"
        print(f"caec {command}: {where}: no file {str(path)!r}", file=sys.stderr)
        return None
    from caec_desktop.services.history.store import HistoryDamaged, error_words

    try:
        return HistoryStore(path)
    except HistoryDamaged as exc:
        _say(
            f"caec {command}: history {str(path)!r} is damaged ({exc}); the app or `caec chat` "
            "moves it aside and recovers what still reads",
            err=True,
        )
        return None
    except (OSError, sqlite3.Error) as exc:
        why = error_words(exc)
        _say(f"caec {command}: history {str(path)!r} cannot be opened ({why})", err=True)
        return None


def cmd_history(ns: argparse.Namespace) -> int:
    """List saved conversations, most recent first: id, turns, last change, name."""
    from caec_desktop.services.history import default_path
    from caec_desktop.services.report import to_second

    if ns.history is None and not default_path().exists():
        rows: list[dict[str, Any]] = []
        _print_json(rows) if ns.json else print("No saved conversations.")
        return EXIT_OK
    store = _open_history(ns, "history")
    if store is None:
        return EXIT_INVALID
    with store:
        rows = [
            {
                "id": c.id,
                "name": c.name,
                "turns": store.turn_count(c.id),
                "created": to_second(c.created),
                "updated": to_second(c.updated),
            }
            for c in store.list_conversations()
        ]
    if ns.json:
        _print_json(rows)
        return EXIT_OK
    if not rows:
        print("No saved conversations.")
        return EXIT_OK
    print(f"{'id':>5}  {'turns':>5}  {'updated':<23}  name")
    for r in rows:
        print(f"{r['id']:>5}  {r['turns']:>5}  {r['updated']:<23}  {r['name']}")
    return EXIT_OK


def cmd_export(ns: argparse.Namespace) -> int:
    """Write a saved conversation's calculation package (or trace) to a file."""
    from pathlib import Path

    from caec_desktop.services.export import (
        ExportError,
        export_conversation,
        format_of,
        records,
    )
    from caec_desktop.services.report import TitleBlock, default_turns, parse_turns

    out = Path(ns.output)
    try:
        fmt = format_of(out, ns.format)
    except ValueError as exc:
        print(f"caec export: {exc} (--format or the -o suffix)", file=sys.stderr)
        return EXIT_INVALID
    store = _open_history(ns, "export")
    if store is None:
        return EXIT_INVALID
    with store:
        try:
            loaded = store.load(ns.id)
        except KeyError:
            print(
                f"caec export: no conversation with id {ns.id} (`caec history` lists them)",
                file=sys.stderr,
            )
            return EXIT_INVALID
        try:
            turns = parse_turns(ns.turns, len(loaded.turns)) if ns.turns else None
        except ValueError as exc:
            print(f"caec export: {exc}", file=sys.stderr)
            return EXIT_INVALID
        if turns is None and fmt != "jsonl":
            turns = default_turns(records(loaded))
            if not turns:
                print(
                    f"caec export: conversation {ns.id} has no answered calculation; choose turns "
                    f"with --turns (1-{len(loaded.turns)})",
                    file=sys.stderr,
                )
                return EXIT_INVALID
        typed = {"project": ns.project, "job": ns.job, "author": ns.author, "date": ns.date}
        typed["checker"] = ns.checker
        block = TitleBlock.from_dict(store.report_fields(ns.id)).merged(**typed)
        if any(v is not None for v in typed.values()):
            store.save_report_fields(ns.id, block.to_dict())  # remembered, as the window does
    pdf_writer: Any = None
    plot: Any = None
    if fmt == "pdf":  # the only export that needs Qt: imported here, offscreen
        import os

        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        from caec_desktop.ui.pdf import plot_image, write_pdf

        pdf_writer, plot = write_pdf, plot_image
    try:
        written = export_conversation(
            loaded,
            out,
            fmt=fmt,
            turns=turns,
            title_block=block,
            pdf_writer=pdf_writer,
            plot_image=plot,
        )
    except ExportError as exc:
        print(f"caec export: {exc}", file=sys.stderr)
        return EXIT_INVALID
    print(f"saved {written} ({written.stat().st_size} bytes)")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="caec", description="CAEC Desktop, headless: DEM set-up calculations you can check."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("tools", help="list the calculation tools")
    p.add_argument("--json", action="store_true", help="print name, description, JSON Schema")
    p.set_defaults(func=cmd_tools)

    p = sub.add_parser("run", help="run one tool by hand")
    p.add_argument("tool")
    p.add_argument("pairs", nargs="*", metavar="key=value", help='e.g. particle_diameter="2 mm"')
    p.add_argument("--args", help="arguments as a JSON object")
    p.add_argument("--json", action="store_true")
    _display_options(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "sweep",
        help="run one tool over a range of one input (a sweep)",
        description="Every point is validated and computed by the tool itself; failed points "
        "are listed, not dropped. At most 1000 points.",
    )
    p.add_argument("tool")
    p.add_argument(
        "range",
        metavar="PARAM=FROM..TO[:N][:log]",
        help='e.g. particle_radius=0.5mm..5mm:20:log, or a list: particle_radius="0.5,1,2 mm"',
    )
    p.add_argument("pairs", nargs="*", metavar="key=value", help="the tool's other inputs")
    p.add_argument("--args", help="the other inputs as a JSON object")
    p.add_argument(
        "--threshold",
        help='a value to compare the headline result (the first column) with, e.g. "2e-7 s"',
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="SI numbers plus display strings")
    out.add_argument(
        "--csv", action="store_true", help="the table as CSV (SI numbers, units in its header)"
    )
    _display_options(p)
    p.set_defaults(func=cmd_sweep)

    for name, func, text in (
        ("ask", cmd_ask, "answer one request through the agent (offline regex or an LLM)"),
        ("chat", cmd_chat, "interactive chat over one session, every trace event shown"),
    ):
        p = sub.add_parser(name, help=text)
        if name == "ask":
            p.add_argument("query", help='e.g. "rayleigh time step for 1 mm glass beads"')
            p.add_argument("--save", action="store_true", help="save the turn to the history")
            p.add_argument("--json", action="store_true", help="print the turn as JSON")
            p.add_argument("--trace", metavar="FILE.jsonl", help="write the trace events as JSONL")
            p.add_argument("-v", "--verbose", action="store_true", help="trace events on stderr")
        else:
            p.add_argument(
                "--no-save", action="store_true", help="do not save this conversation to history"
            )
        p.add_argument("--mode", choices=["offline", "local", "openrouter"])
        p.add_argument("--base-url", help="OpenAI-compatible endpoint (local mode)")
        p.add_argument(
            "--model", help="model name (CAEC_MODEL; local mode default: the server's first listed)"
        )
        _display_options(p)
        p.add_argument(
            "--timeout",
            type=_seconds,
            metavar="SECONDS",
            help="longest a turn may take, retries included (turn_timeout_s, CAEC_TURN_TIMEOUT_S;"
            " default 300); past it the turn ends with exit code 3",
        )
        p.set_defaults(func=func)

    p = sub.add_parser("doctor", help="probe an LLM endpoint; print what works and the mode to use")
    p.add_argument("--mode", choices=["local", "openrouter"])
    p.add_argument("--base-url", help="OpenAI-compatible endpoint (local mode)")
    p.add_argument("--model", help="model name")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument(
        "--timeout",
        type=_positive_seconds,
        help="seconds to wait for each reply (default: CAEC_REQUEST_TIMEOUT_S, or 300 s for a "
        "local server, 60 s for OpenRouter)",
    )
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("replay", help="re-run the tool calls of a trace; check they reproduce")
    p.add_argument("trace", metavar="TRACE.jsonl", help="a trace from `caec ask --trace` or export")
    p.add_argument("--json", action="store_true", help='print {"ok", "calls": [...]}')
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("history", help="list saved conversations (id, turns, last change, name)")
    p.add_argument(
        "--json", action="store_true", help="print [{id, name, turns, created, updated}]"
    )
    p.add_argument("--history", type=Path, metavar="FILE", help="history database (default: app's)")
    p.set_defaults(func=cmd_history)

    p = sub.add_parser(
        "export", help="write a saved conversation as a calculation package or trace"
    )
    p.add_argument("id", type=int, help="conversation id (see `caec history`)")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="file to write")
    p.add_argument(
        "--format",
        choices=["pdf", "html", "md", "csv", "jsonl"],
        help="default: from the file suffix; csv = the sweep tables",
    )
    p.add_argument("--turns", help="turns to include, e.g. 1,3-5 (default: the answered ones)")
    _display_options(p)  # the saved display units, as the window's export; --units over them
    for flag, text in (
        ("--project", "project name"),
        ("--job", "job number"),
        ("--author", "prepared by"),
        ("--checker", "checked by"),
        ("--date", "date shown (default: today)"),
    ):
        p.add_argument(flag, help=f"title block: {text} (remembered for this conversation)")
    p.add_argument("--history", type=Path, metavar="FILE", help="history database (default: app's)")
    p.set_defaults(func=cmd_export)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `caec`; returns the exit code.

    The cyclic garbage collector is paused while a command runs: importing LangGraph and building
    pydantic models leaves ~180,000 long-lived tracked objects, which collections walk again and
    again to free nothing (~0.1 s of a cold `caec ask`). As the process entry (`argv` None: the
    `caec` script, `python -m caec_desktop.cli`) it stays paused to the end, and at exit those
    objects are frozen (`gc.freeze`) so interpreter shutdown does not walk them either (~0.15 s
    more). Called with an `argv` (tests, other Python code), the collector is restored after the
    command. `caec chat` runs for long and turns it back on.
    """
    parser = build_parser()
    ns = parser.parse_args(argv)
    install_log_redaction()  # warnings reach stderr: never with a key in them
    collecting = gc.isenabled()
    gc.disable()
    if argv is None:
        atexit.register(gc.freeze)
    loaded = sys.modules.get(_DISPLAY)  # --units/--sig hold for this command only
    display = loaded.current() if loaded is not None else None
    try:
        if hasattr(ns, "units") and (bad := apply_display(ns)) is not None:
            _say(f"caec {ns.command}: {bad}", err=True)
            return EXIT_INVALID
        return int(ns.func(ns))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception:  # a bug: one sentence, the traceback only when asked for
        if getattr(ns, "verbose", False) or os.environ.get("CAEC_DEBUG"):
            raise
        _say(
            f"caec {ns.command}: an internal error stopped the command (a bug in CAEC Desktop, "
            "not your input); run it again with CAEC_DEBUG=1 to see the details.",
            err=True,
        )
        return EXIT_BUG
    finally:
        if (module := sys.modules.get(_DISPLAY)) is not None:
            module.use(display or module.Display())
        if collecting and argv is not None:
            gc.enable()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
