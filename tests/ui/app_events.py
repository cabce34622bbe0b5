"""Recording the events Qt delivers to a widget and the widgets inside it, for tests that count
paints, resizes or shows (an application event filter: Qt paints the children covering a widget,
not always the widget itself)."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QApplication, QWidget


class AppEvents(QObject):
    """Events of `kinds` that reach a widget inside `widget` (and `widget` itself when
    `itself`), in order, as (widget, event type) in `seen`; the filter goes with `widget`.
    Subclasses record something else by overriding `record`."""

    def __init__(self, widget: QWidget, *kinds: QEvent.Type, itself: bool = True) -> None:
        super().__init__(widget)
        self.widget = widget
        self.kinds = kinds
        self.itself = itself
        self.seen: list[tuple[QWidget, QEvent.Type]] = []
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)
        widget.destroyed.connect(lambda: app.removeEventFilter(self))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if not shiboken6.isValid(self.widget):  # (events while the window is torn down)
            return False
        inside = isinstance(watched, QWidget) and (
            (self.itself and watched is self.widget) or self.widget.isAncestorOf(watched)
        )
        if inside and event.type() in self.kinds:
            self.record(watched, event)  # (a QWidget: `inside`)
        return False

    def record(self, watched: QWidget, event: QEvent) -> None:
        self.seen.append((watched, event.type()))

    @property
    def count(self) -> int:
        return len(self.seen)

    @property
    def widgets(self) -> list[QWidget]:
        return [w for w, _kind in self.seen]


def resizes(widget: QWidget) -> AppEvents:
    """The widgets inside `widget` that get a Resize event (`widgets`)."""
    return AppEvents(widget, QEvent.Type.Resize, itself=False)


def paints(widget: QWidget) -> AppEvents:
    """The paint events of `widget` and everything in it (`count`)."""
    return AppEvents(widget, QEvent.Type.Paint)


class _Delivered(QObject):
    """Whether any event reached a widget inside `widget` (or `widget`) while installed."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__()
        self.widget = widget
        self.any = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if isinstance(watched, QWidget) and (
            watched is self.widget or self.widget.isAncestorOf(watched)
        ):
            self.any = True
        return False


def settled(widget: QWidget) -> bool:
    """Deliver every event posted so far, and say whether none of them was for `widget` or a
    widget in it: no layout, queued show or repaint (the UpdateRequest Qt posts to the window)
    was pending, so what the window shows is final. For `qtbot.waitUntil`: an event delivered
    here may post more, which the next call delivers (and is not settled yet)."""
    app = QApplication.instance()
    assert app is not None
    delivered = _Delivered(widget)
    app.installEventFilter(delivered)
    try:
        QCoreApplication.sendPostedEvents()
    finally:
        app.removeEventFilter(delivered)
    return not delivered.any
