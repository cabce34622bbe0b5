"""Render resources/caec-desktop.svg to the PNG sizes desktops want (run after editing the SVG).

Usage: `.venv/bin/python packaging/make_icon.py` → resources/caec-desktop.png (256 px) and
resources/caec-desktop-48.png. Uses Qt's own SVG renderer, offscreen.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(RESOURCES / "caec-desktop.svg"))
    if not renderer.isValid():
        print("caec-desktop.svg is not valid SVG", file=sys.stderr)
        return 1
    for size, name in ((256, "caec-desktop.png"), (48, "caec-desktop-48.png")):
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        renderer.render(painter)
        painter.end()
        if not image.save(str(RESOURCES / name)):
            print(f"could not write {name}", file=sys.stderr)
            return 1
        print(RESOURCES / name)
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
