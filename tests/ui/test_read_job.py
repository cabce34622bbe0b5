"""read_pages reads a conversation a page at a time (each page frozen out of the GUI thread's
collections) and gives exactly what one whole load gives; a ReadJob cancelled between pages emits
nothing and ends with its connection closed."""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from pytestqt.qtbot import QtBot

from caec_desktop.services.history import HistoryStore
from caec_desktop.ui import read_job
from caec_desktop.ui.read_job import ReadCancelled, ReadJob, read_pages
from tests.services.history.test_paged_load import fill, same
from tests.ui.app_process import run_python


@pytest.mark.parametrize("page", [1, 4, 100])
def test_read_pages_equals_one_whole_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: int
) -> None:
    monkeypatch.setattr(read_job, "PAGE_TURNS", page)
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 13)
        same(read_pages(store, cid), store.load(cid))
        older = read_pages(store, cid, before=9)
        assert [t.idx for t in older.turns] == list(range(9))
        same(older, store.load_page(cid, before=9))


def test_a_cancelled_read_stops_between_pages_and_emits_nothing(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(read_job, "PAGE_TURNS", 2)
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 10)
        pages: list[int] = []

        def cancelled() -> bool:
            pages.append(1)
            return True

        with pytest.raises(ReadCancelled):
            read_pages(store, cid, cancelled=cancelled)
        assert pages == [1]  # after the first page

        emitted: list[object] = []
        job = ReadJob(tmp_path / "h.sqlite3", lambda r, c: read_pages(r, cid, cancelled=c))
        job.done.connect(emitted.append)
        job.failed.connect(emitted.append)
        job.cancel()
        with qtbot.waitSignal(job.ended, timeout=10_000):
            job.start()
        assert job.wait(10)
        assert emitted == []
        assert job.reader is not None and job.reader.closed


def test_a_job_decodes_a_slice_per_gui_loop_turn_and_ends_at_once_when_cancelled(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The worker's reader pauses after each row it decodes (a turn, an event), as does the
    older turns' check after each turn; with every pause a wait for the GUI thread's next loop
    turn (RUN_S 0) and waits of up to a minute, the read still ends while the loop turns (the
    job's timer) and gives what one whole load gives. Cancelled while the loop does not turn
    (the app closing waits for its reads), the worker waits no more and its thread ends."""
    from caec_desktop.services.history import HistoryReader
    from caec_desktop.services.session import checked_turns

    monkeypatch.setattr(read_job, "RUN_S", 0.0)
    monkeypatch.setattr(read_job, "WAIT_S", 60.0)
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 6)
        whole = store.load(cid)
    calls: list[int] = []
    real = read_job.Pacer.__call__

    def counted(pacer: read_job.Pacer) -> None:
        calls.append(1)
        real(pacer)

    monkeypatch.setattr(read_job.Pacer, "__call__", counted)
    job = ReadJob(tmp_path / "h.sqlite3", lambda r, c: read_pages(r, cid, cancelled=c))
    read: list[object] = []
    job.done.connect(read.append)
    with qtbot.waitSignal(job.ended, timeout=20_000):
        job.start()
    assert job.wait(10)
    same(read[0], whole)
    assert isinstance(job.reader, HistoryReader) and job.reader.pause is not None
    assert len(calls) == len(whole.turns) + len(whole.events)
    paused: list[int] = []
    checked_turns([(t.user_text, t.result) for t in whole.turns], lambda: paused.append(1))
    assert len(paused) == len(whole.turns)

    started = threading.Event()
    blocked = ReadJob(tmp_path / "h.sqlite3", lambda r, c: started.set() or read_pages(r, cid))
    blocked.start()  # the loop does not turn from here on: the worker waits at its first row
    assert started.wait(10)
    blocked.cancel()
    assert blocked.wait(10)  # it decoded the rest without waiting


def test_the_pacer_waits_for_a_loop_turn_once_it_has_run_its_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[float] = []
    turn = SimpleNamespace(clear=lambda: waits.append(0.0), wait=waits.append)
    clock = iter([0.0, 0.4 * read_job.RUN_S, 1.1 * read_job.RUN_S, 1.2 * read_job.RUN_S])
    fake = SimpleNamespace(perf_counter=lambda: next(clock))
    monkeypatch.setattr(read_job, "time", fake)  # (read_job's name only)
    cancel = threading.Event()
    pacer = read_job.Pacer(turn, cancel)  # type: ignore[arg-type]  # (its start: 0)
    pacer()  # 0.4 RUN_S since then: no wait
    assert waits == []
    pacer()  # 1.1 RUN_S: the turn waited for, then cleared (and the clock starts again: 1.2)
    assert waits == [read_job.WAIT_S, 0.0]


def test_only_full_pages_are_frozen_out_of_the_collections(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    frozen: list[int] = []
    monkeypatch.setattr(read_job, "PAGE_TURNS", 4)
    monkeypatch.setattr(read_job, "FREEZE_FROM", 4)
    monkeypatch.setattr(read_job.gc, "freeze", lambda: frozen.append(1))
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = fill(store, 10)
        read_pages(store, cid)  # pages of 4, 4 and 2 turns
        assert len(frozen) == 2
        frozen.clear()
        read_pages(store, cid, before=3)  # one page of 3: small, left to the collector
        assert frozen == []


RACE = """
import os
import threading
from pathlib import Path

import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication

from caec_desktop.services.history import HistoryStore
from caec_desktop.ui.read_job import ReadJob

app = QApplication([])
path = Path(os.environ["CAEC_DATA_DIR"]) / "h.sqlite3"
path.parent.mkdir(parents=True)
HistoryStore(path).close()
errors = []
threading.excepthook = lambda a: errors.append(repr(a.exc_value))
delivered = []
for n in range(30):
    gate = threading.Event()
    owner, kept = QObject(), QObject()
    jobs = [ReadJob(path, lambda r, c: gate.wait(10) and "gone", owner) for _ in range(4)]
    jobs.append(ReadJob(path, lambda r, c: gate.wait(10) and "kept", kept))
    for job in jobs:
        job.done.connect(delivered.append)
        job.start()
    threads = [job._thread for job in jobs]
    if n % 2:  # the owner torn down while its workers block, then they finish
        shiboken6.delete(owner)
        gate.set()
    else:  # the workers finish while the owner is torn down
        gate.set()
        shiboken6.delete(owner)
    for t in threads:
        t.join(10)
    app.processEvents()
    app.processEvents()
print(delivered.count("kept"), delivered.count("gone"), len(errors), *errors)
"""


def test_jobs_outlived_by_their_workers_never_crash_and_deliver_nothing(tmp_path: Path) -> None:
    """Jobs whose owner is deleted (the window closed, a conversation switched) while their
    workers read, or just as they finish: the workers' outcomes are dropped, no thread touches
    the deleted jobs (before the fix: a segfault, rc 139, in `done.emit`), and a job whose owner
    lives still gets its `done`. In a fresh interpreter: a crash must not take pytest down."""
    (line,) = run_python(RACE, tmp_path)
    assert line.split() == ["30", "0", "0"]
