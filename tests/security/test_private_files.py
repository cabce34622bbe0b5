"""Every file the app writes in its data and config folders is private (folders 0700, files
0600): the history database with its WAL and SHM files, config.json, secrets.json, the trace file
of `caec ask --trace`, and exports (written through a private temporary file)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.cli import main
from caec_desktop.services.export import export_conversation
from caec_desktop.services.history import HistoryStore
from caec_desktop.settings.config import save_config
from caec_desktop.settings.keystore import FileStore
from caec_desktop.ui.pdf import write_pdf

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
TURN = {"answer": "ok", "status": "answered", "mode": "offline", "model": "regex"}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def open_umask() -> object:
    """The loosest umask: privacy must not depend on the user's."""
    old = os.umask(0)
    yield
    os.umask(old)


def test_history_database_wal_and_shm_are_private(tmp_path: Path) -> None:
    store = HistoryStore(tmp_path / "data" / "history.sqlite3")
    conv = store.create_conversation("c")
    store.save_turn(conv, "hello", TURN)
    files = sorted(p.name for p in (tmp_path / "data").iterdir())
    assert files == ["history.sqlite3", "history.sqlite3-shm", "history.sqlite3-wal"]
    assert mode(tmp_path / "data") == 0o700
    assert {name: mode(tmp_path / "data" / name) for name in files} == dict.fromkeys(files, 0o600)
    store.close()


def test_an_existing_open_database_and_folder_are_tightened(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir(mode=0o755)
    HistoryStore(folder / "history.sqlite3").close()
    (folder / "history.sqlite3").chmod(0o644)
    folder.chmod(0o755)
    HistoryStore(folder / "history.sqlite3").close()
    assert mode(folder) == 0o700 and mode(folder / "history.sqlite3") == 0o600


def test_config_and_secrets_files_are_private(tmp_path: Path) -> None:
    save_config({"model": "m"}, tmp_path / "config")
    FileStore(tmp_path / "config" / "secrets.json").set_api_key("0123456789abcdef", "host")
    assert mode(tmp_path / "config") == 0o700
    assert mode(tmp_path / "config" / "config.json") == 0o600
    assert mode(tmp_path / "config" / "secrets.json") == 0o600


def test_exports_and_trace_files_are_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    store = HistoryStore(tmp_path / "history.sqlite3")
    conv = store.create_conversation("c")
    start = TraceEvent(seq=1, t_ms=0.0, kind="run_start", data={"text": "hello"})
    store.save_turn(conv, "hello", TURN, [start])
    loaded = store.load(conv)
    for suffix in ("md", "html", "jsonl", "pdf"):
        path = export_conversation(loaded, tmp_path / f"out.{suffix}", pdf_writer=write_pdf)
        assert mode(path) == 0o600 and path.stat().st_size > 0
    assert (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF")
    store.close()
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
    trace = tmp_path / "trace.jsonl"
    assert main(["ask", "mass of a 2 mm particle rho=7800 kg/m3", "--trace", str(trace)]) == 0
    assert mode(trace) == 0o600 and trace.read_text().count("\n") > 3
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
