"""The plot library's background import never builds a PySide6 class (PYSIDE-2404: PySide6
builds a class's Python type on first use with no lock; two threads building at once can crash
the process). Each check runs in a fresh interpreter, where no class is built yet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ui.app_process import run_python

WORKER_BUILDS = """
import json, sys
from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication
from caec_desktop.ui import plot_view

app = QApplication([])
seen = {"steps": 0}


def built():
    return {n: set(m.__dict__) for n, m in list(sys.modules.items()) if n.startswith("PySide6.")}


load, step = plot_view._load, plot_view._warm_step


def watched_load():
    seen["unbuilt"] = [
        f"{n}.{a}" for n in plot_view.WARM_MODULES for a in dir(sys.modules[n])
        if a not in sys.modules[n].__dict__
    ]
    before = built()
    load()
    after = built()
    seen["built_by_worker"] = sorted(
        f"{n}.{a}" for n in after for a in after[n] - before.get(n, set())
    )


def watched_step():
    seen["steps"] += 1
    step()


plot_view._load, plot_view._warm_step = watched_load, watched_step
plot_view.preload()
seen["started_at_once"] = plot_view._thread is not None
while plot_view._thread is None:  # the warm-up's timers wake the loop
    app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
plot_view._thread.join(40)
seen["loaded"] = plot_view.loaded() is not None
print(json.dumps(seen))
"""


def test_the_worker_starts_after_the_gui_thread_built_every_name_and_builds_none(
    tmp_path: Path,
) -> None:
    seen = json.loads(run_python(WORKER_BUILDS, tmp_path)[-1])
    assert seen["loaded"]
    assert not seen["started_at_once"]  # preload() returns at once: the warm-up is loop turns
    assert seen["steps"] > 10  # ~600 names over many turns, not one long stall
    assert seen["unbuilt"] == []  # every name of every module pyqtgraph imports, before it starts
    assert seen["built_by_worker"] == []  # nor anything dir() does not list, nor a new module


RACE = """
import random, sys, time
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication
from caec_desktop.ui import plot_view

app = QApplication([])
plot_view.preload()
deadline = time.monotonic() + 30
while plot_view._thread is None and time.monotonic() < deadline:  # the warm-up's loop turns
    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
assert plot_view._thread is not None, "the warm-up never started the import"
while "pyqtgraph.Qt" not in sys.modules and plot_view.loaded() is None:
    # Not waiting for Qt: the GIL handed to the worker until it reaches pyqtgraph's Qt shim.
    assert time.monotonic() < deadline, "the worker never reached pyqtgraph's Qt shim"
    time.sleep(0.0002)
names = [(m, n) for m in (QtWidgets, QtGui, QtCore) for n in dir(m)]
random.Random(SEED).shuffle(names)
for m, n in names:  # the GUI thread uses Qt classes while the worker imports pyqtgraph
    getattr(m, n, None)
plot_view._thread.join(40)
print("loaded", plot_view.loaded() is not None)
"""


@pytest.mark.parametrize("seed", [11, 18, 20])
def test_using_qt_classes_while_the_plot_library_imports_does_not_crash(
    tmp_path: Path, seed: int
) -> None:
    """Before the warm-up, the GUI thread's names in these orders crashed the process (rc 139,
    in pyqtgraph's `Qt._copy_attrs`) in 8 of 9 runs of the three (fresh processes each)."""
    assert run_python(RACE.replace("SEED", str(seed)), tmp_path)[-1] == "loaded True"


FIRST_PLOT = """
from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication
from caec_desktop.tools.sweep import run_sweep
from caec_desktop.ui import plot_view
from caec_desktop.ui.plot_view import SweepPlot

app = QApplication([])
table = run_sweep({"tool": "rayleigh_timestep", "parameter": "particle_radius", "start": "0.2 mm",
                   "stop": "3 mm", "points": 9, "args": {"density": 2500,
                   "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}}).table
plot = SweepPlot(table)  # the session's first plot: nothing loaded, the warm-up not begun
plot.show()
print("at once", plot.placeholder.text(), plot_view._thread is None)
while not plot.drawn:  # the warm-up's, the poll's and the build's timers wake the loop
    app.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
print("drawn", len(plot.xs), plot.curve is not None)
"""


def test_a_plot_asked_before_the_warm_up_and_import_shows_once_they_are_done(
    tmp_path: Path,
) -> None:
    out = run_python(FIRST_PLOT, tmp_path)
    assert out[-2:] == ["at once Loading the plot… True", "drawn 9 True"]
