"""Every test here runs with a config folder of its own: no developer's `config.json` or `.env`
reaches the offline reader or the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(tmp_path / "config"))
