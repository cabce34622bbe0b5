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
