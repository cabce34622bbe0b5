"""Where the window remembers how it was left (geometry, splitters, docks, the form's tool, the
folder of the last export and the report's format): `window.ini` in the config folder, so
`CAEC_CONFIG_DIR` moves it like every other setting and tests keep it in their temporary folder."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QStandardPaths

EXPORT_FOLDER = "export/folder"
REPORT_SUFFIX = "export/report_suffix"


def layout_settings() -> QSettings:
    from caec_desktop.settings.paths import config_dir

    return QSettings(str(config_dir() / "window.ini"), QSettings.Format.IniFormat)


def export_folder() -> Path:
    """Where save dialogs for exports start: the folder of the last export while it exists,
    else Documents (else the home folder)."""
    saved = layout_settings().value(EXPORT_FOLDER)
    if saved and Path(str(saved)).is_dir():
        return Path(str(saved))
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    # Only a Documents folder that exists: a save dialog given one that does not opens in the
    # folder the app was started from (its source checkout, started with scripts/app)
    return Path(documents) if documents and Path(documents).is_dir() else Path.home()


def remember_export_folder(path: str | Path) -> None:
    """Start the next export dialog in the folder of `path` (a file chosen for an export)."""
    folder = Path(path).expanduser().parent
    if str(path).strip() and folder.is_dir():
        layout_settings().setValue(EXPORT_FOLDER, str(folder.resolve()))


def report_suffix(offered: list[str]) -> str:
    """The format the last report was exported in (its file suffix) if still `offered`, else
    the first offered."""
    saved = str(layout_settings().value(REPORT_SUFFIX) or "")
    return saved if saved in offered else offered[0]


def remember_report(path: str | Path) -> None:
    """Start the next report dialog in the folder and the format of `path` (a report written)."""
    remember_export_folder(path)
    layout_settings().setValue(REPORT_SUFFIX, Path(path).suffix.lower())
