"""Per-user folders (platformdirs), overridable with `CAEC_CONFIG_DIR` /
`CAEC_DATA_DIR` / `CAEC_CACHE_DIR`.

The overrides let tests, portable installs and the packaged app's smoke check keep everything in
one chosen folder instead of the user's real profile.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "caec-desktop"


def config_dir() -> Path:
    """Where plain settings and the fallback secrets file live (not created here)."""
    override = os.environ.get("CAEC_CONFIG_DIR")
    return Path(override) if override else Path(platformdirs.user_config_dir(APP_NAME, False))


def data_dir() -> Path:
    """Where the conversation history database lives (not created here)."""
    override = os.environ.get("CAEC_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir(APP_NAME, False))


def cache_dir() -> Path:
    """Where data the app can make again is kept between launches (not created here)."""
    override = os.environ.get("CAEC_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir(APP_NAME, False))
