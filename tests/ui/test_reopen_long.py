"""Reopening a long conversation: the newest turns show at once, older ones as the reader scrolls
up (in order, above the shown ones); switching conversations leaves nothing behind."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.ui.chat_pane import Bubble, ChatPane
from caec_desktop.ui.result_card import ResultCard
from tests.ui.conftest import LeakCheck
from tests.ui.test_conversations_window import FIRST, Harness

TURNS = 60


@pytest.fixture
def h(qtbot: QtBot, qloop: qasync.QEventLoop) -> Iterator[Harness]:
    harness = Harness(qtbot)
    yield harness
    qloop.run_until_complete(harness.runner.shutdown())


def _user_texts(h: Harness) -> list[str]:
    return [
        w.text()
        for w in h.window.chat.items()
        if isinstance(w, QLabel) and w.property("role") == "user"
    ]


def _read(qtbot: QtBot, h: Harness) -> None:
    """Wait until the open conversation's older turns are read (a worker thread reads them) and
    put in place (a part a loop turn)."""
    qtbot.waitUntil(lambda: not h.history.loading(), timeout=20_000)


def _saved(qloop: qasync.QEventLoop, h: Harness, first: str, turns: int) -> int:
    """A saved conversation of `turns` turns: `first`, then "<first> / question i"."""
    turn = qloop.run_until_complete(h.ask(first))
    conversation = h.recorder.conversation_id
    assert conversation is not None
    data = turn.model_dump(mode="json", exclude={"events"})
    for i in range(1, turns):
        h.store.save_turn(conversation, f"{first} / question {i}", data, turn.events)
    h.history.new_conversation()
    return conversation


def _scroll_to_the_first(qtbot: QtBot, h: Harness) -> None:
    """Scroll up as a reader does, half a view at a time, until every older turn is built."""
    chat = h.window.chat
    bar = chat.scroll_area.verticalScrollBar()

    def scrolled_to_the_first() -> bool:
        bar.setValue(max(0, bar.value() - chat.scroll_area.viewport().height() // 2))
        return bar.value() == 0 and chat.older_pending() == 0

    qtbot.waitUntil(scrolled_to_the_first, timeout=30_000)


class _Resizes(QObject):
    """Counts the resize events of the widgets it watches."""

    def __init__(self, widgets: list[QWidget]) -> None:
        super().__init__()
        self.count = 0
        for w in widgets:
            w.installEventFilter(self)

    def eventFilter(self, watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.count += 1
        return False


def test_a_long_conversation_opens_at_its_newest_turn_and_fills_in_on_scroll(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, leak_check: LeakCheck
) -> None:
    h.window.resize(1000, 700)
    h.window.show()
    turn = qloop.run_until_complete(h.ask(FIRST))
    conversation = h.recorder.conversation_id
    assert conversation is not None
    for i in range(1, TURNS):
        data = turn.model_dump(mode="json", exclude={"events"})
        h.store.save_turn(conversation, f"question {i}", data, turn.events)
    h.history.new_conversation()
    assert h.history.open_conversation(conversation)

    chat = h.window.chat
    shown = _user_texts(h)
    assert shown[-1] == f"question {TURNS - 1}"  # the newest turn, at the bottom
    assert FIRST not in shown and chat.older_pending() > 0
    newest = chat.items()[-1]
    qtbot.waitUntil(lambda: not newest.visibleRegion().isEmpty(), timeout=5000)  # in view
    _read(qtbot, h)

    _scroll_to_the_first(qtbot, h)
    texts = _user_texts(h)
    assert texts == [FIRST, *(f"question {i}" for i in range(1, TURNS))]  # all, in order
    assert len(chat.cards()) == TURNS
    h.window.trace.flush()  # and every turn's trace events, once, in order
    assert h.window.trace.model.events() == h.store.load(conversation).events
    h.history.new_conversation()  # closing it: its widgets go
    leak_check.assert_clean(h.window, qloop)


def test_a_jump_to_the_top_shows_the_first_turn_before_the_turns_between(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """The older turns wait in room of about their height, so the scroll bar spans the whole
    conversation: dragged to the top it shows the first turn while most turns between are not
    built yet; those the reader passed are built after it, each once, in order."""
    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, TURNS)
    assert h.history.open_conversation(conversation)
    _read(qtbot, h)
    chat = h.window.chat
    bar = chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)
    assert bar.maximum() > 20 * chat.scroll_area.viewport().height()  # room for all 60 turns
    pending: list[int] = []

    def first_turn_on_screen() -> bool:
        bar.setValue(0)
        texts = _user_texts(h)
        shown = bool(texts) and texts[0] == FIRST
        if shown and not chat.items()[0].visibleRegion().isEmpty():
            pending.append(chat.older_pending())
            return True
        return False

    qtbot.waitUntil(first_turn_on_screen, timeout=10_000)
    assert pending[0] > TURNS // 2  # shown before the turns between
    every = [FIRST, *(f"{FIRST} / question {i}" for i in range(1, TURNS))]
    texts = _user_texts(h)
    assert texts[:3] == every[:3]  # the first page, at the top
    assert texts == [t for t in every if t in texts]  # the turns built, each once, in order
    qtbot.waitUntil(lambda: chat.older_pending() == 0, timeout=30_000)
    assert _user_texts(h) == every
    assert len(chat.cards()) == TURNS
    assert bar.value() == 0 and not chat.items()[0].visibleRegion().isEmpty()  # still there


def test_switching_conversations_leaves_no_widget_timer_or_task_behind(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, leak_check: LeakCheck
) -> None:
    h.window.show()
    qloop.run_until_complete(h.ask(FIRST))
    first = h.recorder.conversation_id
    h.history.new_conversation()
    qloop.run_until_complete(h.ask(FIRST.replace("1 mm", "2 mm")))
    second = h.recorder.conversation_id
    assert first is not None and second is not None and first != second
    for conversation in (first, second, first, second):
        assert h.history.open_conversation(conversation)
        leak_check.assert_clean(h.window, qloop)
        h.shown()
        assert h.window.chat.cards()  # the reopened turn's card is there
    h.history.new_conversation()
    leak_check.assert_clean(h.window, qloop)
    assert not h.window.chat.items()


def test_older_turns_shown_above_leave_the_cards_below_untouched(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """Adding an older turn must not lay out the turns already shown again: it once took the room
    for the new turn from every card (each resized twice), so a turn near the top of a long
    conversation cost ~200 ms. Only the new turn's widgets get sizes."""
    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 30)
    assert h.history.open_conversation(conversation)
    _read(qtbot, h)
    chat = h.window.chat
    bar = chat.scroll_area.verticalScrollBar()

    def cards_at_least(n: int) -> bool:
        # Up by half a view once the turns near the view are built, not on every check: on a
        # loaded machine the checks outran the building, the view reached the top and every
        # older turn was built before the count was seen (none left to add below).
        if len(chat.cards()) < n and not chat.building_older():
            bar.setValue(max(0, bar.value() - chat.scroll_area.viewport().height() // 2))
        return len(chat.cards()) >= n

    qtbot.waitUntil(lambda: cards_at_least(12), timeout=20_000)
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=5000)
    shown = chat.cards()
    resizes = _Resizes([w for card in shown for w in (card, *card.findChildren(QWidget))])
    before = chat.older_pending()
    assert before > 0  # older turns are left to add
    added = chat.show_older()
    assert added >= 1
    qtbot.waitUntil(lambda: len(chat.cards()) == len(shown) + added, timeout=5000)
    assert chat.older_pending() == before - added
    assert all(c.isVisible() for c in chat.cards())
    assert resizes.count == 0
    assert all(isinstance(c, ResultCard) for c in chat.cards())


def test_switching_while_older_turns_are_being_built_shows_only_the_new_conversation(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, leak_check: LeakCheck
) -> None:
    h.window.resize(1000, 700)
    h.window.show()
    first = _saved(qloop, h, FIRST, 20)
    second = _saved(qloop, h, FIRST.replace("1 mm", "2 mm"), 15)
    assert h.history.open_conversation(first)
    chat = h.window.chat
    chat.scroll_area.verticalScrollBar().setValue(0)  # the reader starts scrolling up
    chat.show_older()
    assert chat.older_pending() > 0  # mid-build
    assert h.history.open_conversation(second)
    _read(qtbot, h)
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=5000)  # none half-built
    leak_check.assert_clean(h.window, qloop)
    _scroll_to_the_first(qtbot, h)
    name = FIRST.replace("1 mm", "2 mm")
    assert _user_texts(h) == [name, *(f"{name} / question {i}" for i in range(1, 15))]
    assert len(chat.cards()) == 15
    h.history.new_conversation()
    leak_check.assert_clean(h.window, qloop)


def test_a_long_conversation_is_whole_once_its_older_turns_are_read(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """The newest turns come at once (with what a follow-up sends the model), the older ones
    from a worker thread: then the session, the trace and the chat's pending turns hold the whole
    conversation, as one whole load gives it; the worker's thread and connection are gone."""
    from caec_desktop.services.session import HISTORY_LIMIT, Session
    from caec_desktop.ui.history_controller import HEAD_TURNS, NEWEST_TURNS

    h.window.show()
    conversation = _saved(qloop, h, FIRST, 40)
    whole = h.store.load(conversation)
    expected = Session(h.runner.session.settings)
    assert expected.restore([(t.user_text, t.result) for t in whole.turns]) == 0

    assert h.history.open_conversation(conversation)
    job = h.history.reading
    assert job is not None
    session = h.runner.session
    assert len(session.turns) == HEAD_TURNS  # the rest is being read
    assert session.messages[-HISTORY_LIMIT:] == expected.messages[-HISTORY_LIMIT:]
    _read(qtbot, h)

    assert session.messages == expected.messages
    assert [t.model_dump() for t in session.turns] == [t.model_dump() for t in expected.turns]
    h.window.trace.flush()
    assert h.window.trace.model.events() == whole.events
    chat = h.window.chat
    assert chat.older_pending() + len(chat.cards()) == 40
    assert len(chat.cards()) >= NEWEST_TURNS
    assert job.wait(30)
    assert job.reader is not None and job.reader.closed


def test_a_kind_filter_chosen_while_older_turns_are_read_shows_every_such_row_once_read(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """The reader chooses a kind in the trace while the older turns are still read: once they
    are in, the table shows that kind's rows of the whole conversation, in order; the row
    chosen before they came stays chosen."""
    from caec_desktop.agent.trace import TraceEvent
    from caec_desktop.ui.trace_model import EVENT_ROLE

    h.window.show()
    conversation = _saved(qloop, h, FIRST, 30)
    whole = h.store.load(conversation)
    trace = h.window.trace
    assert h.history.open_conversation(conversation)
    assert h.history.reading is not None  # the older turns are being read
    trace.flush()
    trace.kind_filter.setCurrentText("tool_result")
    trace.table.selectRow(0)
    chosen = trace.selected_event()
    assert chosen is not None and chosen.kind == "tool_result"
    _read(qtbot, h)
    trace.flush()

    def shown() -> list[TraceEvent]:
        return [trace.proxy.index(r, 0).data(EVENT_ROLE) for r in range(trace.proxy.rowCount())]

    results = [e for e in whole.events if e.kind == "tool_result"]
    assert len(results) == 30 and shown() == results
    assert trace.selected_event() is chosen
    trace.kind_filter.setCurrentText("all kinds")
    assert shown() == whole.events


def test_closing_a_conversation_while_its_older_turns_are_read_leaves_nothing_behind(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, leak_check: LeakCheck
) -> None:
    h.window.show()
    long = _saved(qloop, h, FIRST, 40)
    short = _saved(qloop, h, FIRST.replace("1 mm", "2 mm"), 3)
    assert h.history.open_conversation(long)
    job = h.history.reading
    assert job is not None
    assert h.history.open_conversation(short)  # before the older turns arrive
    assert h.history.reading is None  # 3 turns: read at once
    assert job.cancelled
    assert job.wait(30)  # its thread ends by itself…
    assert job.reader is not None and job.reader.closed  # …with its connection closed
    leak_check.assert_clean(h.window, qloop)
    qtbot.waitUntil(lambda: not _alive(job), timeout=5000)  # deleted once it ended
    assert len(h.runner.session.turns) == 3  # nothing of the long one came in
    name = FIRST.replace("1 mm", "2 mm")
    assert _user_texts(h)[-1] == f"{name} / question 2"
    h.window.trace.flush()
    starts = [e for e in h.window.trace.model.events() if e.kind == "run_start"]
    assert len(starts) == 3


def _alive(obj: QObject) -> bool:
    import shiboken6

    return shiboken6.isValid(obj)


def test_damaged_older_turns_are_left_out_and_counted_in_words_once_read(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    import sqlite3

    h.window.show()
    conversation = _saved(qloop, h, FIRST, 30)
    with sqlite3.connect(h.store.path) as db:
        db.execute(
            "UPDATE turns SET result = '{\"answer\": ' WHERE conversation = ? AND idx = 3",
            (conversation,),
        )
        db.execute(
            "UPDATE events SET event = 'not json' WHERE seq = 2 AND turn ="
            " (SELECT id FROM turns WHERE conversation = ? AND idx = 10)",
            (conversation,),
        )
    db.close()
    assert h.history.open_conversation(conversation)
    assert h.sink.count == 0  # the newest turns are sound
    _read(qtbot, h)
    assert h.window.banner.text() == (
        "2 damaged part(s) of this conversation could not be read and are left out; "
        "the rest of it is here."
    )
    assert len(h.runner.session.turns) == 29
    h.window.trace.flush()
    assert h.window.trace.model.events() == h.store.load(conversation).events


def test_older_bubbles_above_the_view_are_painted_ahead_as_a_direct_paint_draws(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """The bubbles of an older page placed above the view are painted into their pixmaps on the
    next loop turns, before the reader scrolls to them (their direct first paints, every new
    bubble coming into view at once, made the longest stalls of scrolling up); what they draw
    then is what a direct paint draws. For a page in a chapter of its own and one beside it."""
    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 12)
    assert h.history.open_conversation(conversation)
    _read(qtbot, h)
    chat = h.window.chat
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)
    for _ in range(2):
        before = chat.items()
        assert chat.show_older() > 0
        new = [w for w in chat.items() if w not in before and isinstance(w, Bubble)]
        assert {w.property("role") for w in new} == {"user", "answer"}

        def painted_ahead(new: list[Bubble] = new) -> bool:
            return all(w.paint_cached() for w in new)

        qtbot.waitUntil(painted_ahead)
        assert all(w.visibleRegion().isEmpty() for w in new)  # out of view: not painted there
        for bubble in new:
            ahead = bubble.grab().toImage()
            bubble.set_paint_cache(False)
            assert ahead == bubble.grab().toImage()
            bubble.set_paint_cache(True)
        qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)


def test_older_turns_wait_while_the_newest_turns_card_is_shown(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The newest turn's card is shown a step a loop turn, as a live run's; the older turns near
    the view are built after it, not in the same loop turns (a card built for an older turn,
    the newest card's table and the repaint after them made the longest stall of an open)."""
    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 12)
    chat = h.window.chat
    older_cards_while_hidden: list[bool] = []
    made: list[Any] = []
    add_result = ChatPane.add_result

    def recording(pane: ChatPane, data: dict[str, Any]) -> Any:
        if made:  # a card of an older turn (the newest turn's comes first)
            older_cards_while_hidden.append(not made[0].isVisible())
        card = add_result(pane, data)
        made.append(card)
        return card

    monkeypatch.setattr(ChatPane, "add_result", recording)
    assert h.history.open_conversation(conversation)
    qtbot.waitUntil(lambda: bool(made), timeout=5000)
    newest = made[0]
    assert newest in chat.cards() and not newest.isVisible()  # shown on a later loop turn
    qtbot.waitUntil(lambda: len(older_cards_while_hidden) >= 2, timeout=10_000)
    assert newest.isVisible()
    assert not any(older_cards_while_hidden)


def _card_texts(card: ResultCard) -> list[tuple[str, str]]:
    """The card's labels and buttons, in its layout's order: (class, text)."""
    out = []
    lay = card.layout()
    assert lay is not None
    for i in range(lay.count()):
        item = lay.itemAt(i)
        widget = item.widget() if item is not None else None
        if widget is not None:
            text = widget.text() if isinstance(widget, QLabel) else ""
            out.append((type(widget).__name__, text))
    return out


def test_an_older_turns_card_built_in_steps_shows_what_the_newest_turns_card_shows(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """An older turn's card is built a step at a time as the reader scrolls up (its labels, its
    table's area, the table, placed): once shown it is the card the newest turn shows, built at
    once when the conversation opened: the same labels in the same order, the same height at
    the chat's width, the same pixels."""
    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 12)
    assert h.history.open_conversation(conversation)
    _read(qtbot, h)
    chat = h.window.chat
    newest = chat.cards()[-1]
    _scroll_to_the_first(qtbot, h)
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)
    first = chat.cards()[0]
    assert first is not newest
    assert _card_texts(first) == _card_texts(newest)
    assert first.size() == newest.size()
    assert first.grab().toImage() == newest.grab().toImage()


def _graph_counts_of(events: list[Any]) -> dict[tuple[str, str], int]:
    """The edge counts a graph of its own shows for `events` replayed at once."""
    from caec_desktop.services.session import graph_shape
    from caec_desktop.ui.graph_view import GraphView

    view = GraphView()
    view.set_graph(graph_shape())
    view.replay(events)
    counts = dict(view.edge_counts)
    view.deleteLater()
    return counts


def test_older_turns_read_are_put_in_place_a_part_a_loop_turn(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """Once read, the older turns go into the session at once and into the chat, the trace and
    the graph's counts on later loop turns, in parts; then the graph counts every run of the
    conversation, as a whole replay of it does."""
    from caec_desktop.services.session import graph_shape
    from caec_desktop.ui.history_controller import HEAD_TURNS

    h.window.build_panels()
    h.window.load_graph(graph_shape())
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 40)
    whole = h.store.load(conversation)
    assert h.history.open_conversation(conversation)
    job = h.history.reading
    assert job is not None
    chat, graph = h.window.chat, h.window.graph
    head = dict(graph.edge_counts)
    at_arrival: list[tuple[int, int, int, bool]] = []
    job.done.connect(  # after the controller's own slot
        lambda _older: at_arrival.append(
            (
                len(h.runner.session.turns),
                chat.older_pending() + len(chat.cards()),  # (an older page may be half-built)
                graph.edge_counts[("intent", "tools")],
                h.history.loading(),
            )
        )
    )
    _read(qtbot, h)
    assert len(at_arrival) == 1
    turns, in_chat, counted, loading = at_arrival[0]
    assert (turns, counted, loading) == (40, HEAD_TURNS, True)  # one calculation a turn
    assert in_chat <= HEAD_TURNS  # the chat's part comes on a later loop turn
    assert head[("intent", "tools")] == HEAD_TURNS
    assert chat.older_pending() + len(chat.cards()) == 40
    assert graph.edge_counts == _graph_counts_of(whole.events)
    assert graph.edge_counts[("intent", "tools")] == 40


def test_runs_are_counted_in_parts_cut_only_before_a_run(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The graph counts older runs a part at a time, each part whole runs, and the counts come
    out as one walk over them all."""
    from caec_desktop.ui import history_controller
    from caec_desktop.ui.history_controller import _runs_in_parts

    conversation = _saved(qloop, h, FIRST, 12)
    events = h.store.load(conversation).events
    monkeypatch.setattr(history_controller, "GRAPH_STEP_EVENTS", 25)
    parts = _runs_in_parts(events)
    assert [e for part in parts for e in part] == events
    assert len(parts) > 1
    assert all(part[0].kind == "run_start" for part in parts)
    runs = [sum(e.kind == "run_start" for e in part) for part in parts]
    per_run = len(events) // 12
    assert all(n * per_run >= 25 for n in runs[:-1])  # about 25 events, whole runs
    assert _runs_in_parts([]) == []


def test_opening_another_conversation_drops_the_older_turns_not_yet_in_place(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """Another conversation opened while the older turns read are still being put in place: the
    rest of them never shows, in the chat, the trace or the graph."""
    from caec_desktop.services.session import graph_shape

    h.window.build_panels()
    h.window.load_graph(graph_shape())
    h.window.show()
    long = _saved(qloop, h, FIRST, 40)
    name = FIRST.replace("1 mm", "2 mm")
    short = _saved(qloop, h, name, 3)
    assert h.history.open_conversation(long)
    job = h.history.reading
    assert job is not None
    switched: list[bool] = []

    def switch(_older: object) -> None:
        switched.append(h.history.loading())  # read, not yet all in place
        assert h.history.open_conversation(short)

    job.done.connect(switch)
    qtbot.waitUntil(lambda: bool(switched), timeout=20_000)
    assert switched == [True]
    assert h.history.reading is None
    h.shown()
    qtbot.waitUntil(lambda: len(h.window.trace.model.events()) == 30, timeout=5000)
    chat = h.window.chat
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=5000)
    assert chat.older_pending() + len(chat.cards()) == 3
    assert len(h.runner.session.turns) == 3
    assert _user_texts(h)[-1] == f"{name} / question 2"
    assert h.window.graph.edge_counts == _graph_counts_of(h.store.load(short).events)


def test_older_pages_are_laid_out_at_the_chats_width_only(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness
) -> None:
    """An older page is sized to the chat's width before it shows: a widget never shown is
    640x480, and a page shown at that size laid its bubbles' text out at 640 px first. Each
    bubble of a placed page has been measured at the chat's width and no other."""
    from caec_desktop.ui.chat_pane import _inner_width

    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 12)
    assert h.history.open_conversation(conversation)
    _read(qtbot, h)
    chat = h.window.chat
    _scroll_to_the_first(qtbot, h)
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)
    width = _inner_width(chat._host)
    assert width != 640
    older = [w for w in chat.items()[:-3] if isinstance(w, Bubble)]  # all but the newest turn
    assert len(older) == 2 * 11
    assert all(w.width() == width for w in older)
    assert [sorted(w._heights) for w in older] == [[width]] * len(older)


def test_an_older_page_placed_resizes_the_chat_once(
    qtbot: QtBot, qloop: qasync.QEventLoop, h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Placing an older page makes the chat's widget taller once: its layout and the chapters'
    never squeeze their items (see `_Page`), so no minimum height is set and taken back around
    the show (the chat laid out and resized twice more a page)."""
    h.window.resize(1000, 700)
    h.window.show()
    conversation = _saved(qloop, h, FIRST, 30)
    assert h.history.open_conversation(conversation)
    _read(qtbot, h)
    chat = h.window.chat
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)
    placed: list[int] = []
    place = ChatPane._place

    def counting(pane: ChatPane, fill: Any) -> None:
        placed.append(1)
        place(pane, fill)

    monkeypatch.setattr(ChatPane, "_place", counting)
    resizes = _Resizes([chat._host])
    _scroll_to_the_first(qtbot, h)
    qtbot.waitUntil(lambda: not chat.building_older(), timeout=10_000)
    assert len(placed) >= 5
    assert resizes.count <= len(placed) + 2  # (+ the slots' own changes of height)
