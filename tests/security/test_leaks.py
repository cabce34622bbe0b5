"""The leak suite: plant keys, run the app's paths, grep everything it wrote.

Keys of five shapes (an OpenRouter `sk-or-v1-…` key, an OpenAI-style `sk-proj-…` key, a key not
shaped like either, one with a line break, one with non-ASCII characters) are built at run time
and planted through the environment, `secrets.json`, a config-folder `.env`, the settings dialog
and a chat message. A loopback server (tests/llm/fake_server.py) echoes the key it receives in
its replies: in reasoning, in prose, in tool-call arguments the validator rejects (the unit
reader's "'…' is not defined"), in the streamed summary and in a 401 error body. Then every sink
is searched for the key and for every 8-character piece of it, raw and escaped: stdout, stderr,
the trace file, `caec doctor` (text and JSON), the turns, the trace events, the history database
(file bytes and an SQL dump), the log file, `config.json` and the Markdown, HTML, PDF and JSONL
exports. One test per (path, key shape, sink): `len(CASES)` cases, each must find nothing.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
import secrets
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from caec_desktop.cli import main
from tests.keys import OPENROUTER_PREFIX, fake_key
from tests.llm.fake_server import ECHO_KEY, FakeOpenAI, Reply, tool_call

SHAPES = {
    "sk-or": lambda: fake_key(secrets.token_hex(24)),
    "sk-proj": lambda: "sk-" + "proj-" + secrets.token_urlsafe(30),
    "plain": lambda: "LEAKCANARY" + secrets.token_hex(12).upper(),
    "newline": lambda: "LEAKNL" + secrets.token_hex(8) + "\n" + secrets.token_hex(10),
    "unicode": lambda: "LEAKUNI" + secrets.token_hex(6) + "é€" + secrets.token_hex(10),
}
FRAGMENT = 8
"""Pieces of a key this long or longer must not appear anywhere (issue 11)."""
PUBLIC_PREFIXES = (OPENROUTER_PREFIX, "sk-" + "proj-")
"""Public parts of key formats: a piece of these alone is no leak."""

QUERY = "Rayleigh time step for 1 mm radius glass beads, 2500 kg/m3, E 70 GPa, nu 0.25"
ARGS = {
    "particle_radius": "1 mm",
    "density": "2500 kg/m^3",
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}

CLI_SINKS = ("stdout", "stderr", "trace", "doctor-json", "doctor-text")
CLI_SOURCES = ("env", "secrets", "dotenv")
APP_SINKS = ("turns", "events", "database", "log", "config", "md", "html", "pdf", "jsonl")
APP_SOURCES = ("env", "secrets", "dialog", "pasted")

CASES = [
    *((("cli", source), shape, sink) for source in CLI_SOURCES for shape in SHAPES
      for sink in CLI_SINKS),
    *((("cli", "pasted"), shape, sink) for shape in SHAPES for sink in ("stdout", "stderr")),
    *((("app", source), shape, sink) for source in APP_SOURCES for shape in SHAPES
      for sink in APP_SINKS),
]  # fmt: skip


# --- finding a key --------------------------------------------------------------------------------


def spellings(key: str) -> set[str]:
    """The key as text, in JSON (ASCII or not), in a Python repr (str, bytes), HTML-escaped."""
    import html

    return {
        key,
        json.dumps(key)[1:-1],
        json.dumps(key, ensure_ascii=False)[1:-1],
        repr(key)[1:-1],
        repr(key.encode())[2:-1],
        html.escape(key),
    }


def pieces(key: str) -> set[str]:
    """Every FRAGMENT-character window of every spelling, but those inside a public prefix."""
    out = set()
    for text in spellings(key):
        for i in range(len(text) - FRAGMENT + 1):
            window = text[i : i + FRAGMENT]
            if not any(window in prefix for prefix in PUBLIC_PREFIXES):
                out.add(window)
    return out


def leaked(text: str, key: str) -> list[str]:
    return sorted(p for p in pieces(key) if p in text)


def test_the_finder_finds_what_it_should() -> None:
    key = SHAPES["newline"]()
    assert leaked(f"x {key[2:12]} y", key)
    assert leaked(json.dumps({"k": key}), key)
    assert leaked(repr(key.encode()), key)
    assert not leaked("x *** y", key)
    assert not leaked(f"prefix {OPENROUTER_PREFIX} only", fake_key("0123456789abcdef"))


# --- the loopback server's replies ----------------------------------------------------------------


def message(content: str | None, calls: list[dict[str, Any]] | None = None, **extra: Any) -> Reply:
    msg: dict[str, Any] = {"role": "assistant", "content": content, **extra}
    if calls:
        msg["tool_calls"] = calls
    return Reply(message=msg, echo_key=True, finish_reason="tool_calls" if calls else "stop")


def ask_script(key: str) -> list[Reply]:
    """One `ask`: classify, two rejected calls with the key, a good call, a summary quoting it."""
    echo = ECHO_KEY
    return [
        message(None, [tool_call("respond", {"intent": "calculation"}, "c0")],
                reasoning=f"the key is {echo}"),
        message(f"Trying {echo}", [tool_call(
            "rayleigh_timestep", {**ARGS, "particle_radius": f"{echo} mm"}, "c1")]),
        message(None, [tool_call(
            "rayleigh_timestep", {**ARGS, "density": f"{key[:20]} kg/m^3"}, "c2")],
                reasoning=key),
        message("", [tool_call("rayleigh_timestep", ARGS, "c3")]),
        message(f"Done. Your key {echo}, or {key}, or part of it: {key[4:16]}."),
    ]  # fmt: skip


def error_reply(key: str) -> Reply:
    body = {"error": {"message": f"Incorrect API key provided: {ECHO_KEY} ({key})"}}
    return Reply(status=401, body=body, echo_key=True)


def doctor_script(key: str) -> list[Reply]:
    block = json.dumps({"name": "rayleigh_timestep", "arguments": {**ARGS, "note": ECHO_KEY}})
    return [
        message("", [tool_call("rayleigh_timestep", {**ARGS, "note": ECHO_KEY})],
                reasoning=f"{ECHO_KEY} {key}"),
        message(f"Computing with {key}.\n<tool_call>{block}</tool_call>"),
    ]  # fmt: skip


# --- planting a key -------------------------------------------------------------------------------


def plant(source: str, key: str, folder: Path, server: FakeOpenAI, mp: pytest.MonkeyPatch) -> None:
    """Make `key` the app's key, through `source`; local mode at the loopback server."""
    endpoint = {"mode": "local", "base_url": server.base_url, "model": "fake-model"}
    folder.mkdir(parents=True, exist_ok=True)
    if source == "env":
        mp.setenv("CAEC_LLM_API_KEY", key)
        (folder / "config.json").write_text(json.dumps(endpoint))
    elif source == "dotenv":
        (folder / ".env").write_text(f"CAEC_LLM_API_KEY={json.dumps(key)}\n")
        (folder / "config.json").write_text(json.dumps(endpoint))
    elif source in ("secrets", "pasted"):  # written by hand: no check on the way in
        (folder / "secrets.json").write_text(json.dumps({"llm_api_key": key}))
        (folder / "secrets.json").chmod(0o600)
        record = {"api_key_store": "file", "api_key_host": server.base_url.rsplit("/", 1)[0]}
        (folder / "config.json").write_text(json.dumps({**endpoint, **record}))


def through_dialog(key: str, folder: Path, server: FakeOpenAI) -> str:
    """Type the key into the settings dialog and press OK, as a user would; the dialog's
    message when it refuses the key."""
    import keyring
    from keyring.backends import fail
    from PySide6.QtWidgets import QApplication

    from caec_desktop.settings.config import load_settings, save_settings
    from caec_desktop.settings.keystore import FileStore
    from caec_desktop.ui.settings_dialog import SettingsDialog

    QApplication.instance() or QApplication([])
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # no keyring here: secrets.json
    try:
        dialog = SettingsDialog(load_settings(), secret_store=FileStore(folder / "secrets.json"))
        dialog.mode_box.setCurrentText("local")
        dialog.base_url_edit.setText(server.base_url)
        dialog.model_edit.setText("fake-model")
        dialog.key_edit.setText(key)
        dialog._on_buttons_accepted()
        if dialog.result() != dialog.DialogCode.Accepted:
            return dialog.error_label.text()
        save_settings(dialog.result_settings())  # what app.apply_settings does on OK
        return ""
    finally:
        keyring.set_keyring(previous)
        dialog.deleteLater()


# --- running the paths ----------------------------------------------------------------------------


@contextlib.contextmanager
def isolated(tmp: Path) -> Iterator[tuple[pytest.MonkeyPatch, FakeOpenAI]]:
    with pytest.MonkeyPatch.context() as mp, FakeOpenAI() as server:
        for name in ("CAEC_LLM_API_KEY", "OPENROUTER_API_KEY", "CAEC_MODE", "CAEC_MODEL",
                     "CAEC_BASE_URL"):  # fmt: skip
            mp.delenv(name, raising=False)
        mp.setenv("CAEC_CONFIG_DIR", str(tmp / "config"))
        mp.setenv("CAEC_DATA_DIR", str(tmp / "data"))
        (tmp / "cwd").mkdir()
        mp.chdir(tmp / "cwd")
        yield mp, server


def cli(*argv: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main(list(argv))
    return out.getvalue(), err.getvalue()


def run_cli(source: str, key: str, tmp: Path) -> dict[str, str]:
    sinks = dict.fromkeys(CLI_SINKS, "")
    with isolated(tmp) as (mp, server):
        plant(source, key, tmp / "config", server, mp)
        if source == "pasted":
            sinks["stdout"], sinks["stderr"] = cli("ask", f"{QUERY} my key: {key}", "--json")
            return sinks
        server.add(*ask_script(key), error_reply(key))
        trace = tmp / "trace.jsonl"
        out1, err1 = cli("ask", QUERY, "--json", "-v", "--trace", str(trace))
        out2, err2 = cli("ask", QUERY)
        sinks["stdout"], sinks["stderr"] = out1 + out2, err1 + err2
        sinks["trace"] = trace.read_text(encoding="utf-8") if trace.exists() else ""
        server.add(*doctor_script(key))
        sinks["doctor-json"], err3 = cli("doctor", "--json")
        server.add(*doctor_script(key))
        sinks["doctor-text"], err4 = cli("doctor")
        sinks["stderr"] += err3 + err4
    return sinks


def run_app(source: str, key: str, tmp: Path) -> dict[str, str]:
    """The window's path without the window: settings, session, history, exports, the log."""
    import asyncio

    import pypdf

    from caec_desktop.services.export import export_conversation
    from caec_desktop.services.history import ConversationRecorder, HistoryStore
    from caec_desktop.services.session import Session
    from caec_desktop.settings.config import load_settings
    from caec_desktop.settings.files import private_dir, private_file
    from caec_desktop.settings.redact import install_log_redaction
    from caec_desktop.ui.pdf import write_pdf

    sinks = dict.fromkeys(APP_SINKS, "")
    with isolated(tmp) as (mp, server):
        refused = ""
        if source == "dialog":
            refused = through_dialog(key, tmp / "config", server)
        else:
            plant(source, key, tmp / "config", server, mp)
        data = private_dir(tmp / "data")
        install_log_redaction()  # as app._setup_logging does
        handler = logging.FileHandler(private_file(data / "caec-desktop.log"), encoding="utf-8")
        root = logging.getLogger()
        levels = {n: logging.getLogger(n).level for n in ("", "httpx", "openai", "caec_desktop")}
        root.addHandler(handler)
        for name in levels:
            logging.getLogger(name).setLevel(logging.DEBUG)
        try:
            settings = load_settings()
            logging.getLogger("caec_desktop.test").info("settings: %s", settings.public_dict())
            server.add(*ask_script(key), error_reply(key))
            session = Session(settings)
            store = HistoryStore(data / "history.sqlite3")
            recorder = ConversationRecorder(store)
            pasted = f" my key: {key}" if source == "pasted" else ""

            async def turns() -> None:
                runs = [
                    session.ask(QUERY + pasted),
                    session.ask("and again" + pasted),
                    session.run_tool("rayleigh_timestep", {**ARGS, "particle_radius": key}),
                ]
                for run in runs:
                    async for _ in run:
                        pass
                    assert session.last_turn is not None
                    recorder.record(session.last_turn)
                await session.aclose()

            asyncio.run(turns())
        finally:
            root.removeHandler(handler)
            handler.close()
            for name, level in levels.items():
                logging.getLogger(name).setLevel(level)
        sinks["turns"] = refused + "".join(t.model_dump_json() for t in session.turns)
        sinks["events"] = "".join(e.to_json() for t in session.turns for e in t.events)
        assert recorder.conversation_id is not None
        loaded = store.load(recorder.conversation_id)
        dump = "\n".join(store._db.iterdump())
        raw = b"".join(
            p.read_bytes() for p in data.iterdir() if p.name.startswith("history.sqlite3")
        )
        sinks["database"] = dump + raw.decode("utf-8", "ignore")
        every = list(range(1, len(loaded.turns) + 1))  # a package holds answered turns unless told
        for fmt in ("md", "html", "jsonl", "pdf"):  # no secrets passed: the redactor knows them
            path = export_conversation(
                loaded, tmp / f"report.{fmt}", pdf_writer=write_pdf, turns=every
            )
            if fmt == "pdf":
                pdf = pypdf.PdfReader(path)
                title = str((pdf.metadata or {}).get("/Title", ""))
                sinks[fmt] = title + "".join(page.extract_text() for page in pdf.pages)
            else:
                sinks[fmt] = path.read_text(encoding="utf-8")
        store.close()
        sinks["log"] = (data / "caec-desktop.log").read_text(encoding="utf-8")
        config = tmp / "config" / "config.json"  # none when the dialog refused the key
        sinks["config"] = config.read_text(encoding="utf-8") if config.exists() else ""
    return sinks


_RUNS: dict[tuple[str, str, str], tuple[str, dict[str, str]]] = {}
"""(kind, source, shape) -> (the planted key, what each sink held): each path runs once."""


def outputs(
    kind: str, source: str, shape: str, tmp_factory: pytest.TempPathFactory
) -> tuple[str, dict[str, str]]:
    if (kind, source, shape) not in _RUNS:
        key = SHAPES[shape]()
        tmp = tmp_factory.mktemp(f"{kind}-{source}-{shape}")
        runner: Callable[[str, str, Path], dict[str, str]] = run_cli if kind == "cli" else run_app
        _RUNS[kind, source, shape] = key, runner(source, key, tmp)
    return _RUNS[kind, source, shape]


@pytest.mark.parametrize(
    ("path", "shape", "sink"), CASES, ids=[f"{p[0]}-{p[1]}-{s}-{k}" for p, s, k in CASES]
)
def test_no_key_leaks(
    path: tuple[str, str], shape: str, sink: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    key, sinks = outputs(*path, shape, tmp_path_factory)
    assert leaked(sinks[sink], key) == [], f"{sink} holds pieces of the key"


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_paths_ran(shape: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """The sinks are not clean for want of output: the runs did what the cases assume."""
    _, cli_out = outputs("cli", "env", shape, tmp_path_factory)
    _, app_out = outputs("app", "secrets", shape, tmp_path_factory)
    _, pasted = outputs("cli", "pasted", shape, tmp_path_factory)
    assert "looks like an API key" in pasted["stderr"] and pasted["stdout"] == ""
    sendable = shape in ("sk-or", "sk-proj", "plain")
    turns = [json.loads(line) for line in cli_out["trace"].splitlines()]
    if sendable:
        assert "***" in cli_out["stdout"] and "Done." in cli_out["stdout"]
        assert any(e["kind"] == "validation_error" for e in turns)
        assert "native tool calls" in cli_out["doctor-text"] and "***" in cli_out["doctor-json"]
        # the package quotes text Markdown-escaped: the redaction mark shows as \*\*\*
        assert "Calculation package" in app_out["pdf"] and "\\*\\*\\*" in app_out["md"]
    else:
        assert "cannot be sent" in cli_out["stdout"] and "Could not reach" not in cli_out["stdout"]
    assert "rayleigh_timestep" in app_out["database"] and "***" in app_out["jsonl"]
    assert "particle_radius" in app_out["html"] and app_out["log"]
