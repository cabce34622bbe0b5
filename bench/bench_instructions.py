"""Instructions the app runs until its first frame and until its first answer (valgrind's
callgrind). Prints JSON.

Run: `QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_instructions.py [--root DIR]`
(needs `valgrind`; ~1-3 min, the app runs ~50 times slower under it).

CPU and wall times of a start-up on a machine shared with other work move by 10-30 % from run
to run (caches, other cores' load), more than most start-up changes. The number of instructions
a thread runs does not: two runs of the same code differ by ~0.01 %. So this counts them, per
thread, for the same start-ups `bench_startup.py` times (its children's code, in `--root`, the
repository by default, so that an older checkout can be counted with the same bench file):

- `first_frame`: `main()` until the window is shown and painted, next to `bare_window`, a bare
  PySide6 window (`bench_startup.BARE`);
- `first_answer`: `main()` with a question sent from the first frame, until the chat shows its
  answer: the GUI thread's instructions (`gui_thread`) and the other threads' (the start-up
  worker's first stage; `other_threads`). All of them hold the GIL, so their sum is what the
  answer waits for.

Each runs once after a warm-up launch (`--self-test`, uncounted) that compiles the bytecode and
saves the app's compiled patterns (regex_cache.py), as a user's launch after the first finds them.
What it cannot see: time spent waiting for the disk, page faults, cache misses. Instructions
rank changes to the CPU work; the timed benches say what a user waits.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_startup import APP, BARE

ROOT = Path(__file__).resolve().parents[1]

# `main()` with a question sent from the first frame, stopped at the first answer.
ANSWER = """
import os, sys
import caec_desktop.app as _app
getattr(_app, "preload_patterns", lambda: 0)()  # main()'s step before Qt (none in older code)
getattr(_app, "import_qt", lambda: 0)()  # main()'s Qt import (code_cache.py; none in older code)
from PySide6.QtWidgets import QApplication
from caec_desktop.ui.feature_scan import skip_feature_scan
skip_feature_scan()
import caec_desktop.ui.main_window as mw
Window = mw.MainWindow
_show, _finished = Window.show, Window._on_runner_run_finished
def show(self):
    _show(self)
    self.message_box.setPlainText("rayleigh time step for 1 mm glass beads")
    self.message_box.submit()
def finished(self, turn):
    _finished(self, turn)
    print("answered", turn.status, flush=True)
    os._exit(0)
Window.show, Window._on_runner_run_finished = show, finished
_app.main([])
"""


def _env(root: Path, folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAEC_", "OPENROUTER"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # cached bytecode, as an installed app has
    env |= {
        "QT_QPA_PLATFORM": "offscreen",
        "CAEC_CONFIG_DIR": str(folder / "config"),
        "CAEC_DATA_DIR": str(folder / "data"),
        "CAEC_CACHE_DIR": str(folder / "cache"),
        "PYTHONPYCACHEPREFIX": str(folder / "pycache"),
        "PYTHONPATH": str(root),  # the checkout's package, not an installed one
    }
    return env


def _count(code: str, root: Path, folder: Path, name: str) -> list[int]:
    """Instructions per thread (the main thread first) of `python -c code` under callgrind."""
    out = folder / f"{name}.callgrind"
    cmd = ["valgrind", "--tool=callgrind", "--separate-threads=yes"]
    cmd += [f"--callgrind-out-file={out}", sys.executable, "-c", code]
    done = subprocess.run(
        cmd, cwd=root, env=_env(root, folder), capture_output=True, text=True, timeout=1200
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr[-2000:])
    counts = []
    for part in sorted(folder.glob(f"{name}.callgrind-*")):
        totals = [ln for ln in part.read_text().splitlines() if ln.startswith("totals:")]
        counts.append(int(totals[0].split()[1]))
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to count")
    ns = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed")
    root = ns.root.resolve()
    with tempfile.TemporaryDirectory(prefix="caec-instructions-") as tmp:
        folder = Path(tmp)
        warm = [sys.executable, "-m", "caec_desktop.app", "--self-test"]
        env = _env(root, folder)
        subprocess.run(warm, cwd=root, env=env, capture_output=True, timeout=120, check=True)
        bare = sum(_count(BARE, root, folder, "bare"))
        frame = sum(_count(APP, root, folder, "frame"))
        gui, *others = _count(ANSWER, root, folder, "answer")
    result = {
        "root": str(root),
        "bare_window": bare,
        "first_frame": frame,
        "first_frame_vs_bare": round(frame / bare, 3),
        "first_answer": {"gui_thread": gui, "other_threads": sum(others)},
        "first_answer_total": gui + sum(others),
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
