"""pyqtgraph against matplotlib's QtAgg backend, for the sweep plots. Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_plotlib.py [--runs 5]`.

- `import_s`: a fresh process with a QApplication already made (as in the window) imports the
  library (pyqtgraph; matplotlib + its QtAgg canvas) and makes one empty plot widget. Median of
  `--runs` fresh processes after a warm-up run, next to `qt_only_s` (the same process without
  the library) in the same run; `import_extra_s` is the difference.
- `redraw_ms`: in one process, a 1,000-point curve (the Rayleigh step of a sweep, log axes, a
  threshold line) set and repainted `--redraws` times; median per redraw (`repaint()` forces a
  synchronous paint of the widget, so the time includes rasterising).
matplotlib is only measured when it is installed (it is not a dependency of the app).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

QT = """
import sys, time
t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
t1 = time.perf_counter()
{body}
app.processEvents()
print(time.perf_counter() - t1, flush=True)
"""

BODIES = {
    "qt_only": "",
    "pyqtgraph": "import pyqtgraph as pg\nw = pg.PlotWidget(); w.show()",
    "matplotlib": (
        "from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg\n"
        "from matplotlib.figure import Figure\n"
        "w = FigureCanvasQTAgg(Figure()); w.figure.add_subplot(); w.show()"
    ),
}

REDRAW = """
import json, math, statistics, sys, time
from PySide6.QtWidgets import QApplication
app = QApplication(sys.argv[:1])
xs = [1e-4 * 100 ** (i / 999) for i in range(1000)]
ys = [math.pi * x * math.sqrt(2500 / 28e9) / (0.1631 * 0.25 + 0.8766) for x in xs]
lib = sys.argv[1]; n = int(sys.argv[2])
times = []
if lib == "pyqtgraph":
    import pyqtgraph as pg
    w = pg.PlotWidget(); w.resize(640, 420); w.show(); app.processEvents()
    w.setLogMode(True, True)
    w.addLine(y=math.log10(2e-7))
    curve = w.plot()
    for i in range(n):
        t = time.perf_counter()
        curve.setData(xs, [y * (1 + i * 1e-3) for y in ys])
        w.repaint(); app.processEvents()
        times.append((time.perf_counter() - t) * 1000)
else:
    from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
    from matplotlib.figure import Figure
    w = FigureCanvasQTAgg(Figure(figsize=(6.4, 4.2))); ax = w.figure.add_subplot()
    w.show(); app.processEvents()
    ax.set_xscale("log"); ax.set_yscale("log"); ax.axhline(2e-7)
    (line,) = ax.plot(xs, ys)
    for i in range(n):
        t = time.perf_counter()
        line.set_ydata([y * (1 + i * 1e-3) for y in ys]); ax.relim(); ax.autoscale_view()
        w.draw(); w.repaint(); app.processEvents()
        times.append((time.perf_counter() - t) * 1000)
print(json.dumps(statistics.median(times[1:])))
"""


def _installed(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


def _run(code: str, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=True
    )
    return out.stdout.strip().splitlines()[-1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--redraws", type=int, default=30)
    ns = parser.parse_args()
    libs = [lib for lib in ("pyqtgraph", "matplotlib") if _installed(lib)]
    imports: dict[str, float] = {}
    for name in ["qt_only", *libs]:
        code = QT.format(body=BODIES[name])
        _run(code)  # warm-up: bytecode, font caches
        imports[name] = statistics.median(float(_run(code)) for _ in range(ns.runs))
    report: dict[str, object] = {"qt_only_s": round(imports["qt_only"], 4)}
    for lib in libs:
        report[lib] = {
            "import_s": round(imports[lib], 4),
            "import_extra_s": round(imports[lib] - imports["qt_only"], 4),
            "redraw_ms": round(float(_run(REDRAW, lib, str(ns.redraws))), 3),
        }
    report["measured_at"] = time.strftime("%Y-%m-%dT%H:%M:%S")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
