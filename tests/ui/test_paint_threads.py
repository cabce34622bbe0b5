"""The desktop app keeps Qt's fills on the GUI thread (app.paint_on_gui_thread): a fill Qt would
hand to its GUI thread pool in pieces starts no thread. Each case runs in a fresh process (Qt
reads the variable once, at its first such fill)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FILL = """
import os, sys
{setup}
from PySide6.QtCore import QPointF
from PySide6.QtGui import QGuiApplication, QImage, QLinearGradient, QPainter, QColor

app = QGuiApplication(sys.argv[:1])
image = QImage(200, 600, QImage.Format.Format_ARGB32_Premultiplied)
gradient = QLinearGradient(QPointF(0, 0), QPointF(200, 0))
gradient.setColorAt(0, QColor("#eeeeee"))
gradient.setColorAt(1, QColor("#888888"))
before = len(os.listdir("/proc/self/task"))
painter = QPainter(image)
painter.fillRect(image.rect(), gradient)  # 600 lines: over Qt's threshold for the pool
painter.end()
print(len(os.listdir("/proc/self/task")) - before)
"""

ROOT = Path(__file__).resolve().parents[2]


def _threads_started(setup: str) -> int:
    env = {k: v for k, v in os.environ.items() if k != "QT_NO_GUI_THREADPOOL"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-c", FILL.format(setup=setup)],
        env=env, capture_output=True, text=True, timeout=50, check=True,
    )  # fmt: skip
    return int(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="counts threads in /proc")
def test_a_large_fill_starts_no_thread_in_the_app() -> None:
    assert _threads_started("") > 0  # Qt's own way: the pool's threads
    setup = "from caec_desktop.app import paint_on_gui_thread; paint_on_gui_thread()"
    assert _threads_started(setup) == 0
