"""Widgets Qt made itself (a scroll area's viewport, its scroll bars' boxes), got from PySide6
without its class search.

Asked for such a widget through a call returning `QWidget*` (`viewport()`, `parentWidget()`),
PySide6 makes its Python object by looking for the widget's class among every QWidget subclass
it knows, and builds each one's Python class and enums first (about 70 classes: 10-25 ms of the
GUI thread, once per process, in whichever step asks first; before the first answer it was the
chat's build). Through a call returning `QObject*` (`findChild`, `parent()`) it takes the class
from the widget's Qt meta-object instead (QWidget), and later `viewport()` calls return that same
Python object. The caller keeps a reference to it: Python drops an unreferenced wrapper of a
Qt-made widget, and the next call would make it anew.
"""

from __future__ import annotations

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtWidgets import QAbstractScrollArea, QWidget

VIEWPORT_NAME = "qt_scrollarea_viewport"
"""The object name QAbstractScrollArea gives the viewport it makes (qabstractscrollarea.cpp)."""


def viewport(area: QAbstractScrollArea) -> QWidget:
    """`area.viewport()`, without PySide6's class search when the viewport is the one Qt made."""
    direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
    found = area.findChild(QWidget, VIEWPORT_NAME, direct)
    return found if found is not None else area.viewport()
