"""Exports read the conversation in their worker thread (own connection): the files are those the
whole conversation read on the GUI thread gives, byte for byte; a conversation gone before the
worker reads it is a message in words; no thread is left behind."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
import qasync
from pytestqt.qtbot import QtBot

from caec_desktop.services.export import export_conversation
from caec_desktop.services.report import package as package_module
from caec_desktop.ui.pdf import plot_image
from tests.ui.test_conversations_window import FIRST, Harness, finish


@pytest.fixture
def h(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[Harness]:
    harness = Harness(qtbot)
    yield harness
    qloop.run_until_complete(harness.runner.shutdown())


class _Noon(datetime):
    """A clock that always says the same second: a package records when it was made, and
    the two exports compared run seconds apart."""

    @classmethod
    def now(cls, tz: object = None) -> _Noon:  # type: ignore[override]
        return cls(2026, 1, 2, 12, 0, 0, tzinfo=UTC)


def _long(qloop: qasync.QEventLoop, h: Harness, turns: int) -> int:
    turn = qloop.run_until_complete(h.ask(FIRST))
    conversation = h.recorder.conversation_id
    assert conversation is not None
    data = turn.model_dump(mode="json", exclude={"events"})
    for i in range(1, turns):
        h.store.save_turn(conversation, f"question {i}", data, turn.events)
    return conversation


@pytest.mark.parametrize("name", ["package.md", "package.html", "trace.jsonl"])
def test_an_export_from_the_worker_equals_the_whole_conversation_exported_here(
    qtbot: QtBot,
    qloop: qasync.QEventLoop,
    h: Harness,
    tmp_path: Path,
    name: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(package_module, "datetime", _Noon)
    conversation = _long(qloop, h, 25)
    worker_dir, here_dir = tmp_path / "worker", tmp_path / "here"
    worker_dir.mkdir()
    here_dir.mkdir()
    before = {t.ident for t in threading.enumerate()}
    if name.endswith(".jsonl"):
        job = h.history.export_trace(worker_dir / name)
        what = "Trace"
    else:
        job = h.history.export_report(worker_dir / name, turns=[1, 5, 25])
        what = "Report"
    finish(qtbot, h, job, saved=f"{what} saved to {worker_dir / name}")
    assert job is not None and job.wait(30)
    assert {t.ident for t in threading.enumerate()} <= before  # the worker thread is gone

    loaded = h.store.load(conversation)  # the old way: the whole conversation read here
    turns = None if name.endswith(".jsonl") else [1, 5, 25]
    title = None
    if not name.endswith(".jsonl"):
        from caec_desktop.services.report import TitleBlock

        title = TitleBlock.from_dict(h.store.report_fields(conversation))
    export_conversation(
        loaded, here_dir / name, h.history._secrets(), None,
        turns=turns, title_block=title, plot_image=plot_image,
    )  # fmt: skip
    assert (worker_dir / name).read_bytes() == (here_dir / name).read_bytes()
    if not name.endswith(".jsonl"):  # made at the one second of the clock above
        assert "2026-01-02" in (worker_dir / name).read_text(encoding="utf-8")
    assert sorted(p.name for p in worker_dir.iterdir()) == sorted(
        p.name for p in here_dir.iterdir()
    )


def test_a_conversation_deleted_before_the_worker_reads_it_is_a_message(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, tmp_path: Path
) -> None:
    conversation = _long(qloop, h, 2)
    h.store.delete_conversation(conversation)  # (the window would start a new one)
    job = h.history.export_trace(tmp_path / "t.jsonl")
    finish(qtbot, h, job, saved="Trace not exported: it is no longer in the history")
    qtbot.waitUntil(lambda: h.sink.count == 1, timeout=10_000)
    assert h.window.banner.text() == "Trace not exported: it is no longer in the history"
    assert not (tmp_path / "t.jsonl").exists()
