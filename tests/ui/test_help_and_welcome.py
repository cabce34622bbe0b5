"""First start and help: the welcome panel of an empty chat (mode, six examples that ask
themselves), and the Help menu's pages built from the offline reader and the tool registry."""

from __future__ import annotations

import platform
from importlib import metadata

import qasync
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

import caec_desktop.services.help as help_source
from caec_desktop.services.help import EXAMPLE_TOOLS, example_questions, offline_help
from caec_desktop.services.tool_help import tool_help
from caec_desktop.settings.paths import config_dir, data_dir
from caec_desktop.tools import execute, get_tool, tool_names
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from caec_desktop.ui.window_menus import SHORTCUTS
from tests.ui.helpers import FakeSession, events, wait_signal
from tests.ui.test_conversations_window import SETTINGS


def _window(qtbot: QtBot) -> tuple[MainWindow, FakeSession, SessionRunner]:
    session = FakeSession(events(("run_start", None, {}), ("run_end", None, {})), answer="ok")
    runner = SessionRunner(session)
    window = MainWindow(runner, SETTINGS, help_source)
    qtbot.addWidget(window)
    return window, session, runner


def test_an_empty_chat_welcomes_with_the_mode_and_one_example_per_group(qtbot: QtBot) -> None:
    from caec_desktop.tools import tool_groups

    window, _, _ = _window(qtbot)
    chat = window.chat
    assert not chat.welcome_area.isHidden() and chat.scroll_area.isHidden()
    assert "offline — nothing leaves this machine" in chat.welcome.mode_label.text()
    kinds = [kind for kind, _ in chat.welcome.examples]
    groups = tool_groups()
    assert kinds == list(groups)  # one per kind of calculation, as Help and `caec tools` group
    for kind, tool in EXAMPLE_TOOLS:
        assert tool in groups[kind]
    intro = chat.welcome.intro.text().lower()
    for word in ("time step", "contact", "cohesion", "cfd-dem", "packing", "discharge", "cost"):
        assert word in intro, word  # what the app does names every group (the 10 new tools too)
    label = chat.welcome.examples_label.text()
    for _, question in chat.welcome.examples:
        assert question in label
    where = chat.welcome.where.text()
    assert "Tool form" in where and "Settings" in where and "Help" in where


def test_each_example_is_read_by_the_offline_reader_as_its_tool() -> None:
    from caec_desktop.agent.selection.offline import regex_selector  # noqa: F401  (loads it)
    from caec_desktop.agent.selection.offline.phrasings import BY_TOOL

    for (kind, question), (kind2, tool) in zip(example_questions(), EXAMPLE_TOOLS, strict=True):
        assert kind == kind2 and question == BY_TOOL[tool].example


def test_clicking_an_example_asks_it_and_the_welcome_gives_way(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    window, session, runner = _window(qtbot)
    window.show()
    chat = window.chat
    label = chat.welcome.examples_label

    async def scenario() -> None:
        label.setFocus()  # Tab onto the first link, Enter follows it (the keyboard's click)
        qtbot.keyClick(label, Qt.Key.Key_Tab)
        qtbot.keyClick(label, Qt.Key.Key_Return)
        await wait_signal(runner.runFinished)

    qloop.run_until_complete(scenario())
    first = chat.welcome.examples[0][1]
    assert session.calls == [("ask", first)]
    assert chat.welcome_area.isHidden() and not chat.scroll_area.isHidden()
    window.chat.clear()  # a new conversation: the welcome again
    assert not chat.welcome_area.isHidden()


def test_offline_help_is_the_dispatchers_own_answer(qtbot: QtBot) -> None:
    window, _, _ = _window(qtbot)
    dialog = window.show_offline_help()
    plain = dialog.browser.toPlainText()
    shown = " ".join(plain.split())
    text = offline_help()
    assert "m*²/(R*·E*²" in text  # (a formula's * shows as typed, not as emphasis: below)
    for line in text.splitlines():  # the group headings without their Markdown bold marks
        assert " ".join(line.removeprefix("- ").strip("*").split()) in shown
    assert "**" not in plain  # Markdown marks do not show literally
    # The groups are headings (as plain text the page was one wall of ~30 long lines), each
    # tool's line a bullet that starts with its name in bold.
    groups = [line.strip("*") for line in text.splitlines() if line.startswith("**")]
    headings, bullets = [], []
    block = dialog.browser.document().begin()
    while block.isValid():
        if block.blockFormat().headingLevel():
            headings.append(block.text())
        elif block.textList() is not None:
            bullets.append((block.text(), block.begin().fragment().charFormat().fontWeight()))
        block = block.next()
    assert headings == groups and len(groups) >= 8
    tools = [line[2:].split(":")[0] for line in text.splitlines() if line.startswith("- ")]
    assert [b[0].split(":")[0] for b in bullets] == tools
    assert all(weight >= QFont.Weight.Bold for _, weight in bullets)
    assert dialog.isVisible()
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_tools_and_formulas_lists_every_tool_with_inputs_formulas_references(
    qtbot: QtBot,
) -> None:
    window, _, _ = _window(qtbot)
    shown = window.show_tools_help().browser.toPlainText()
    for name in tool_names():
        assert name in shown
        assert get_tool(name).description.split(". ")[0] in shown
        sheet = execute(name, dict(get_tool(name).example)).calc_sheet
        assert sheet is not None
        for step in sheet.steps:
            assert step.formula in shown
        for ref in sheet.references:
            assert ref.replace("*", "")[:40] in shown.replace("*", "")
    rayleigh = next(t for t in tool_help() if t.name == "rayleigh_timestep")
    assert [i[0] for i in rayleigh.inputs][:2] == ["particle_radius", "density"]
    assert "Time step" in shown and "Units" in shown  # grouped by what they compute


def test_shortcuts_page_and_about(qtbot: QtBot) -> None:
    window, _, _ = _window(qtbot)
    keys = window.show_shortcuts_help().browser.toPlainText()
    for combo, what in SHORTCUTS:
        assert combo in keys and what in keys
    about = window.show_about().browser.toPlainText()
    assert metadata.version("caec-desktop") in about
    assert metadata.version("langgraph") in about
    assert qVersion() in about and platform.python_version() in about
    assert str(data_dir()) in about and str(config_dir()) in about


def test_every_shortcut_in_the_table_exists() -> None:
    """The table is what the page shows: each key is bound somewhere in the window."""
    from PySide6.QtGui import QAction, QKeySequence, QShortcut

    app = QApplication.instance()
    assert app is not None
    window = MainWindow()
    from caec_desktop.ui.form_panel import FormPanel

    form = FormPanel()
    bound = {a.shortcut().toString() for a in window.findChildren(QAction)}
    bound |= {s.key().toString() for s in window.findChildren(QShortcut)}
    bound |= {s.key().toString() for s in form.findChildren(QShortcut)}
    for keys in ("Ctrl+L", "Ctrl+K", "Esc", "Ctrl+,", "F1", "Ctrl+Q", "Ctrl+Return"):
        assert QKeySequence(keys).toString() in bound, keys
    window.deleteLater()
    form.deleteLater()


def test_the_tools_page_is_tall_and_its_contents_go_to_each_tool(qtbot: QtBot) -> None:
    """Help → Tools and formulas opened at 720x560 whatever the screen (one tool and a half at
    a time on 1920x1080), 25 tools in one scroll with no way to reach one but scrolling. It
    takes 4/5 of the screen's height, and a contents list links each tool to its heading."""
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QTextCursor

    window, _, _ = _window(qtbot)
    window.show()
    dialog = window.show_tools_help()
    screen = window.screen().availableGeometry()
    assert dialog.height() >= 0.75 * screen.height()
    assert dialog.width() <= screen.width() and dialog.height() <= screen.height()
    browser = dialog.browser
    qtbot.waitExposed(dialog)
    bar = browser.verticalScrollBar()
    assert bar.value() == 0
    document = browser.document()
    for name in ("hertz_contact_time", "convert_units"):
        at = document.find(name)  # the first mention: its link in the contents
        assert at.charFormat().isAnchor() and at.charFormat().anchorHref() == f"#{name}"
        bar.setValue(0)
        start = QTextCursor(document)
        start.setPosition(at.selectionStart())
        rect = browser.cursorRect(start)
        qtbot.mouseClick(
            browser.viewport(),
            Qt.MouseButton.LeftButton,
            pos=QPoint(rect.left() + 3, rect.center().y()),
        )
        qtbot.waitUntil(lambda: bar.value() > 0)
        heading = next(
            b
            for b in (document.findBlockByNumber(i) for i in range(document.blockCount()))
            if b.blockFormat().headingLevel() == 3 and b.text() == name
        )
        top = document.documentLayout().blockBoundingRect(heading).top() - bar.value()
        assert 0 <= top < browser.viewport().height() - 20, name  # the heading is in view
