"""ui/feature_scan.py: after it, an import statement runs no Python code of PySide6's (modules
imported later are neither read for "PySide6" nor marked), star imports of PySide6 still give
every class, Qt's names work in modules imported after it, and no module of the app selects a
PySide6 feature (which it gives up).

Each check runs in a fresh interpreter (the import hook is process-wide state of PySide6)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import caec_desktop

PROBE = r"""
import builtins, linecache, os, sys
sys.path.insert(0, sys.argv[1])
import PySide6.QtWidgets
from shibokensupport.feature import pyside_feature_dict as marks
calls = []
import shibokensupport.feature as feature
_imported = feature.feature_imported  # (what the hook calls after each import statement)
def counting(module):
    calls.append(getattr(module, "__name__", "?"))
    return _imported(module)
feature.feature_imported = counting
if sys.argv[2] == "skip":
    from caec_desktop.ui.feature_scan import skip_feature_scan
    assert skip_feature_scan()
    assert builtins.__import__ is builtins.__orig_import__
calls.clear()
import qt_user, plain_module
read = [m for m in ("qt_user", "plain_module") if any(m in f for f in linecache.cache)]
print(marks.get("qt_user"), marks.get("plain_module"), len(calls), *read)
print(qt_user.title())
"""


def _run(*args: str) -> list[str]:
    out = subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout.split()


@pytest.fixture
def modules(tmp_path: Path) -> Path:
    (tmp_path / "qt_user.py").write_text(
        "import os\n"
        "from PySide6.QtWidgets import QApplication, QWidget\n"
        "def title():\n"
        "    app = QApplication.instance() or QApplication([])\n"
        "    w = QWidget()\n"
        "    w.setWindowTitle('camel')\n"
        "    return w.windowTitle()\n"
    )
    (tmp_path / "plain_module.py").write_text("import json\nVALUE = 1\n")
    return tmp_path


def test_pyside_runs_its_hook_for_every_import_and_reads_every_new_module(modules: Path) -> None:
    """What skipping saves: PySide6's hook runs after each import statement and reads each new
    module's source."""
    marks_and_calls = _run("-c", PROBE, str(modules), "keep")
    assert marks_and_calls[:2] == ["0", "-1"]
    assert int(marks_and_calls[2]) >= 5  # the two modules and the import statements in them
    assert marks_and_calls[3:] == ["qt_user", "plain_module", "camel"]


def test_after_skipping_imports_run_no_pyside_code_and_qt_works_the_same(modules: Path) -> None:
    assert _run("-c", PROBE, str(modules), "skip") == ["None", "None", "0", "camel"]


def test_a_star_import_of_pyside_still_gives_every_class() -> None:
    """shiboken makes its classes when first used; its own import, which stays, makes them all
    for `import *`."""
    code = (
        "import PySide6.QtWidgets\n"
        "from caec_desktop.ui.feature_scan import skip_feature_scan\n"
        "assert skip_feature_scan()\n"
        "from PySide6.QtWidgets import *\n"
        "print(QWizard.__name__, QLCDNumber.__name__)\n"
    )
    assert _run("-c", code) == ["QWizard", "QLCDNumber"]


def test_no_module_of_the_app_selects_a_pyside_feature() -> None:
    """`from __feature__ import …` selects nothing once the hook is gone: none may need it."""
    root = Path(caec_desktop.__file__).parent
    sources = sorted(root.rglob("*.py"))
    assert len(sources) > 50
    selecting = [
        str(path.relative_to(root))
        for path in sources
        if re.search(r"^\s*(from|import)\s+__feature__\b", path.read_text(), re.MULTILINE)
    ]
    assert selecting == []
