"""ConversationDelegate: each conversation with the time of its last turn, and a day heading
("Today", "Yesterday", "Mon 30 Nov 2026") above the first conversation of each day, so two
conversations with the same name can be told apart. Drawn here; the model's rows stay one per
conversation."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QFont, QPainter
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem, QWidget

from caec_desktop.ui.conversation_model import UPDATED_ROLE

_Index = QModelIndex | QPersistentModelIndex


def day_heading(day: date, today: date | None = None) -> str:
    today = today or date.today()
    if day == today:
        return "Today"
    if day == today - timedelta(days=1):
        return "Yesterday"
    return day.strftime("%a %d %b %Y")


def _when(index: _Index) -> datetime | None:
    value = index.data(UPDATED_ROLE)
    return value if isinstance(value, datetime) else None


def heading_of(index: _Index) -> str:
    """The day heading drawn above row `index` ("" when the row above is of the same day)."""
    when = _when(index)
    if when is None:
        return ""
    if index.row() > 0:
        above = _when(index.model().index(index.row() - 1, 0))
        if above is not None and above.date() == when.date():
            return ""
    return day_heading(when.date())


class ConversationDelegate(QStyledItemDelegate):
    """Name on the left, time on the right, a day heading where the day changes."""

    def _heading_height(self, option: QStyleOptionViewItem) -> int:
        return option.fontMetrics.height() + 6

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        size = super().sizeHint(option, index)
        size.setWidth(min(size.width(), 120))  # long names are elided, not scrolled sideways
        if heading_of(index):
            size.setHeight(size.height() + self._heading_height(option))
        return size

    def _item_rect(self, option: QStyleOptionViewItem, index: _Index) -> QRect:
        rect = QRect(option.rect)  # type: ignore[attr-defined]
        if heading_of(index):
            rect.setTop(rect.top() + self._heading_height(option))
        return rect

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        heading = heading_of(index)
        item = QStyleOptionViewItem(option)
        item.rect = self._item_rect(option, index)  # type: ignore[attr-defined]
        if heading:
            painter.save()
            font = QFont(option.font)  # type: ignore[attr-defined]
            font.setBold(True)
            painter.setFont(font)
            band = QRect(option.rect)  # type: ignore[attr-defined]
            band.setBottom(item.rect.top() - 1)  # type: ignore[attr-defined]
            painter.drawText(band.adjusted(4, 0, -4, 0), Qt.AlignmentFlag.AlignVCenter, heading)
            painter.restore()
        when = _when(index)
        time_text = when.strftime("%H:%M") if when else ""
        width = option.fontMetrics.horizontalAdvance(time_text) + 10 if time_text else 0
        item.rect.setRight(item.rect.right() - width)  # type: ignore[attr-defined]
        super().paint(painter, item, index)
        if time_text:
            painter.save()
            painter.setPen(option.palette.placeholderText().color())  # type: ignore[attr-defined]
            full = self._item_rect(option, index)
            painter.drawText(
                full.adjusted(0, 0, -4, 0),
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                time_text,
            )
            painter.restore()

    def updateEditorGeometry(
        self, editor: QWidget, option: QStyleOptionViewItem, index: _Index
    ) -> None:
        editor.setGeometry(self._item_rect(option, index))
