"""Where the window remembers how it was left (geometry, splitters, docks, the form's tool):
`window.ini` in the config folder, so `CAEC_CONFIG_DIR` moves it like every other setting and
tests keep it in their temporary folder."""

from __future__ import annotations

from PySide6.QtCore import QSettings


def layout_settings() -> QSettings:
    from caec_desktop.settings.paths import config_dir

    return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)
