"""ui/feature_scan.py: modules imported after PySide6 are no longer read for "PySide6", get the
marks PySide6 would give them, and `from __feature__ import` still works.

Each check runs in a fresh interpreter (the scan is process-wide state of PySide6)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

PROBE = r"""
import linecache, os, sys
sys.path.insert(0, sys.argv[1])
import PySide6.QtWidgets
from shibokensupport.feature import pyside_feature_dict as marks
if sys.argv[2] == "skip":
    from caec_desktop.ui.feature_scan import skip_feature_scan
    assert skip_feature_scan()
import qt_user, plain_module
read = [m for m in ("qt_user", "plain_module") if any(m in f for f in linecache.cache)]
print(marks["qt_user"], marks["plain_module"], *read)
"""


def _run(*args: str) -> list[str]:
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.split()


@pytest.fixture
def modules(tmp_path: Path) -> Path:
    (tmp_path / "qt_user.py").write_text("from PySide6.QtWidgets import QWidget\n")
    (tmp_path / "plain_module.py").write_text("import json\nVALUE = 1\n")
    return tmp_path


def test_pyside_reads_every_module_imported_after_it(modules: Path) -> None:
    """What the replacement saves: PySide6's own scan reads each module's source."""
    assert _run("-c", PROBE, str(modules), "keep") == ["0", "-1", "qt_user", "plain_module"]


def test_skipped_scan_gives_the_same_marks_without_reading_a_file(modules: Path) -> None:
    assert _run("-c", PROBE, str(modules), "skip") == ["0", "-1"]


def test_a_module_can_still_select_a_feature(tmp_path: Path) -> None:
    """One module selects snake_case; a module imported after it, which selects none, still
    sees the camelCase names (as with PySide6's own scan)."""
    (tmp_path / "snake.py").write_text(
        "from __feature__ import snake_case\n"
        "from PySide6.QtWidgets import QApplication, QWidget\n"
        "app = QApplication([])\n"
        "w = QWidget()\n"
        "w.set_window_title('snake')\n"
        "print(w.window_title())\n"
    )
    (tmp_path / "camel.py").write_text(
        "from PySide6.QtWidgets import QWidget\n"
        "def title():\n"
        "    w = QWidget()\n"
        "    w.setWindowTitle('camel')\n"
        "    return w.windowTitle()\n"
    )
    code = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "import PySide6.QtWidgets\n"
        "from caec_desktop.ui.feature_scan import skip_feature_scan\n"
        "assert skip_feature_scan()\n"
        "import snake, camel\n"
        "print(camel.title())\n"
    )
    assert _run("-c", code) == ["snake", "camel"]
