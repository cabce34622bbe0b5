"""What start-up makes PySide6 build. PySide6 builds a Qt class's Python class (and its enums) the
first time it is used: a stall of the GUI thread, a few ms a class, that start-up places where it
costs least (ui/main_window.py, `rest_of_window`). Each case runs in a fresh interpreter: in the
test process, other tests have built most classes already.
"""

from __future__ import annotations

from pathlib import Path

from tests.ui.app_process import run_python

UNUSED = ("QMdiSubWindow", "QWizard", "QFontDialog", "QCalendarWidget")
"""Widget classes the window never uses."""


def test_making_the_chat_builds_no_class_of_a_widget_it_does_not_use(tmp_path: Path) -> None:
    # The chat finds its scroll bar's box, a widget of a class private to Qt: asked for it as a
    # QWidget, PySide6 looks for its class among every QWidget subclass, building each first.
    code = (
        "import PySide6.QtWidgets as W\n"
        "app = W.QApplication([])\n"
        "from caec_desktop.ui.chat_pane import ChatPane\n"
        f"unused = {UNUSED!r}\n"
        "print([n for n in unused if n in W.__dict__])\n"
        "chat = ChatPane()\n"
        "print([n for n in unused if n in W.__dict__])\n"
    )
    assert run_python(code, tmp_path) == ["[]", "[]"]


def test_the_qt_namespace_is_built_by_a_step_of_its_own_after_the_first_frame(
    tmp_path: Path,
) -> None:
    # Its ~90 enums are one of start-up's longest steps: not in the first frame (the window
    # shows sooner), and not inside another step (the chat asking the first question, a key
    # pressed in the message box), whose own work would share that loop turn.
    code = (
        "import PySide6.QtCore as C\n"
        "from PySide6.QtWidgets import QApplication\n"
        "from caec_desktop.ui.main_window import MainWindow\n"
        "app = QApplication([])\n"
        "window = MainWindow(first_frame=True)\n"
        "window.show()\n"
        "app.processEvents()\n"
        "print('Qt' in C.__dict__)\n"
        "steps = window.rest_of_window()\n"
        "built = []\n"
        "for step in steps:\n"
        "    before = 'Qt' in C.__dict__\n"
        "    step()\n"
        "    app.processEvents()\n"
        "    if not before and 'Qt' in C.__dict__:\n"
        "        built.append(getattr(step, '__name__', repr(step)))\n"
        "print(built, [getattr(s, '__name__', '') for s in steps].index('_qt_namespace'))\n"
    )
    assert run_python(code, tmp_path) == ["False", "['_qt_namespace'] 0"]


def test_the_window_its_panels_and_the_conversation_list_build_no_unused_widget_class(
    tmp_path: Path,
) -> None:
    # Their scroll areas' viewports are Qt's own widgets: asked for with `viewport()`, the
    # first such call anywhere built every QWidget subclass PySide6 knows (qt_children.py).
    code = (
        "import PySide6.QtWidgets as W\n"
        "app = W.QApplication([])\n"
        "from caec_desktop.agent.trace import TraceEvent\n"
        "from caec_desktop.services.history import HistoryStore\n"
        "from caec_desktop.ui.conversation_list import ConversationList\n"
        "from caec_desktop.ui.main_window import MainWindow\n"
        "window = MainWindow()\n"
        "window.build_panels()\n"
        "window.show()\n"
        "app.processEvents()\n"
        "event = TraceEvent(seq=1, t_ms=0.0, kind='run_start', node=None, data={'text': 'q'})\n"
        "window.trace.add_event(event)\n"
        "window.trace.flush()\n"
        "window.chat.set_older([lambda: None] * 3)\n"
        "app.processEvents()\n"
        f"listing = ConversationList(HistoryStore({str(tmp_path / 'h.db')!r}))\n"
        "listing.set_current(None)\n"
        "app.processEvents()\n"
        f"print([n for n in {UNUSED!r} if n in W.__dict__])\n"
    )
    assert run_python(code, tmp_path) == ["[]"]


def test_viewport_is_the_areas_own(qapp: object) -> None:
    from PySide6.QtWidgets import QScrollArea, QWidget

    from caec_desktop.ui.qt_children import viewport

    area = QScrollArea()
    assert viewport(area) is area.viewport()
    made = QWidget()
    area.setViewport(made)  # (not Qt's own: found by `viewport()`)
    assert viewport(area) is made is area.viewport()


def test_letting_a_card_paint_hands_python_no_object_of_a_private_qt_class(
    tmp_path: Path,
) -> None:
    # A selectable rich-text label (a result card's table) holds a QWidgetTextControl, a QObject
    # of a class private to Qt: handed to Python (`children()`), PySide6 looks for its class
    # among the classes it has not built yet, building ~180 enums of them (35 ms, once a process;
    # it was one of the longest stalls right after the first answer). `_enable_updates` walks
    # the widgets only, filtered in C++.
    code = (
        "import PySide6.QtWidgets as W\n"
        "from PySide6 import QtCore\n"
        "app = W.QApplication([])\n"
        "from caec_desktop.ui.chat_pane import _enable_updates\n"
        f"unused = {UNUSED!r}\n"
        "outer = W.QWidget()\n"
        "box = W.QWidget(outer)\n"
        "label = W.QLabel('<table><tr><td>a</td><td><b>1 mm</b></td></tr></table>', box)\n"
        "label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)\n"
        "outer.setUpdatesEnabled(False)\n"
        "print([n for n in unused if n in W.__dict__])\n"
        "_enable_updates(outer)\n"
        "print([n for n in unused if n in W.__dict__])\n"
        "print(outer.updatesEnabled(), box.updatesEnabled(), label.updatesEnabled())\n"
    )
    assert run_python(code, tmp_path) == ["[]", "[]", "True True True"]


def test_a_result_cards_table_builds_no_class_of_a_widget_it_does_not_use(tmp_path: Path) -> None:
    # The card puts its table's label in its scroll area's viewport, a widget Qt made: asked for
    # with `viewport()` (the first call in a process), PySide6 built ~80 enums of unused classes
    # (QWizard's, QFileDialog's...), 15-30 ms in the first answer's card. The area keeps the
    # viewport found as a QObject (qt_children.py).
    code = (
        "import PySide6.QtWidgets as W\n"
        "app = W.QApplication([])\n"
        "from caec_desktop.ui.result_card import ResultCard\n"
        f"unused = {UNUSED!r}\n"
        "data = {'tool': 'rayleigh_time_step', 'args': {}, 'result': {'dt': 1e-6}}\n"
        "card = ResultCard(data, table_later=True, labels_later=True)\n"
        "print([n for n in unused if n in W.__dict__])\n"
        "card.make_labels()\n"
        "card.make_table_area()\n"
        "card.lay_out_table()\n"
        "card.place_table()\n"
        "card.show()\n"
        "app.processEvents()\n"
        "print([n for n in unused if n in W.__dict__])\n"
        "print(card.result_label.isVisible(), 'dt' in card.result_label.text())\n"
    )
    assert run_python(code, tmp_path) == ["[]", "[]", "True True"]


def test_polishing_a_result_card_hands_python_its_widgets_only(tmp_path: Path) -> None:
    # A recursive `findChildren(QWidget)` hands Python every object under the card to check its
    # class: each rich-text label's text control and document too (PySide6 built QTextDocument's
    # class for it), ~3-4 ms of the first card's polish step. `polish` walks the widgets a level
    # at a time, filtered in C++, and styles each.
    code = (
        "import PySide6.QtGui as G\n"
        "import PySide6.QtWidgets as W\n"
        "from PySide6 import QtCore\n"
        "app = W.QApplication([])\n"
        "from caec_desktop.ui.result_card import ResultCard\n"
        "data = {'tool': 'rayleigh_time_step', 'args': {}, 'result': {'dt': 1e-6}}\n"
        "card = ResultCard(data, table_later=True, labels_later=True)\n"
        "for step in (card.make_labels, card.make_table_area, card.lay_out_table):\n"
        "    step()\n"
        "card.place_table()\n"
        "print('QTextDocument' in G.__dict__)\n"
        "card.polish(400)\n"
        "print('QTextDocument' in G.__dict__)\n"
        "polished = QtCore.Qt.WidgetAttribute.WA_WState_Polished\n"
        "print(all(w.testAttribute(polished) for w in card.findChildren(W.QWidget)))\n"
    )
    assert run_python(code, tmp_path) == ["False", "False", "True"]


def test_the_first_answer_builds_no_qt_class_it_does_not_need(tmp_path: Path) -> None:
    # Every ms of the GUI thread before the first answer delays it (the start-up worker needs
    # the GIL): QStyle's ~700 enum members (the trace's and the streaming chat's) come after it,
    # and QIcon's (an action made with positional arguments tried the QIcon overload first)
    # never in start-up.
    code = (
        "import os\n"
        "import PySide6.QtGui as G, PySide6.QtWidgets as W\n"
        "import caec_desktop.ui.main_window as mw\n"
        "Window = mw.MainWindow\n"
        "_show, _finished = Window.show, Window._on_runner_run_finished\n"
        "def show(self):\n"
        "    _show(self)\n"
        "    self.message_box.setPlainText('rayleigh time step for 1 mm glass beads')\n"
        "    self.message_box.submit()\n"
        "def finished(self, turn):\n"
        "    _finished(self, turn)\n"
        "    print(turn.status, [n for n in ('QStyle', 'QStyleOptionSlider') if n in W.__dict__],\n"
        "          'QIcon' in G.__dict__, flush=True)\n"
        "    os._exit(0)\n"
        "Window.show, Window._on_runner_run_finished = show, finished\n"
        "from caec_desktop.app import main\n"
        "main([])\n"
    )
    assert run_python(code, tmp_path) == ["answered [] False"]
