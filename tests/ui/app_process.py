"""Running the app's code in a fresh interpreter, as a user's start would: its config and data
in the test's folder, no key or setting from the environment, Qt offscreen."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def app_env(tmp_path: Path) -> dict[str, str]:
    """The environment without CAEC_*/OPENROUTER* variables, config, data and cache under
    `tmp_path`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CAEC_", "OPENROUTER"))}
    env |= {
        "CAEC_CONFIG_DIR": str(tmp_path / "config"),
        "CAEC_DATA_DIR": str(tmp_path / "data"),
        "CAEC_CACHE_DIR": str(tmp_path / "cache"),
        "QT_QPA_PLATFORM": "offscreen",
    }
    return env


def run_app_python(args: Sequence[str], tmp_path: Path, **env: str) -> str:
    """`python *args` run from the repository's root in `app_env(tmp_path)` (with `env` on top):
    its stdout (it must exit 0)."""
    proc = subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=app_env(tmp_path) | env,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def run_python(code: str, tmp_path: Path) -> list[str]:
    """`code` run by `python -c` from the repository's root: its stdout's lines (it must exit 0)."""
    return run_app_python(["-c", code], tmp_path).splitlines()


def self_test(tmp_path: Path) -> str:
    """`caec-desktop --self-test` run from the repository's root: its stdout (it must exit 0)."""
    return run_app_python(["-m", "caec_desktop.app", "--self-test"], tmp_path)
