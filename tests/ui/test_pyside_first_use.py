"""What start-up makes PySide6 build. PySide6 builds a Qt class's Python class (and its enums) the
first time it is used: a stall of the GUI thread, a few ms a class, that start-up places where it
costs least (ui/main_window.py, `rest_of_window`). Each case runs in a fresh interpreter: in the
test process, other tests have built most classes already.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

UNUSED = ("QMdiSubWindow", "QWizard", "QFontDialog", "QCalendarWidget")
"""Widget classes the window never uses."""


def _run(code: str, tmp_path: Path) -> list[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAEC_", "OPENROUTER"))}
    env |= {
        "CAEC_CONFIG_DIR": str(tmp_path / "config"),
        "CAEC_DATA_DIR": str(tmp_path / "data"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=50
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout.splitlines()


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
    assert _run(code, tmp_path) == ["[]", "[]"]


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
    assert _run(code, tmp_path) == ["False", "['_qt_namespace'] 0"]
