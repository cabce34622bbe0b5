"""TraceDelegate: paints trace rows from one Python call per cell.

Qt's item delegate asks the model for seven roles of each cell it paints (font, alignment,
colours, check state, icon, text, background): each a call from C++ into the Python model, ~7 µs
apiece, so a repaint of the table (every new row scrolls it) made ~600 calls and took ~4.5 ms of
the GUI thread. This delegate fills the style option from `KindFilterProxy.shown` instead: the
text, background and icon the model's `data()` gives, in one call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

if TYPE_CHECKING:
    from caec_desktop.ui.kind_filter import KindFilterProxy

_Feature = QStyleOptionViewItem.ViewItemFeature


class TraceDelegate(QStyledItemDelegate):
    """Fills a cell's style option as `QStyledItemDelegate.initStyleOption` would from `data()`."""

    def __init__(self, proxy: KindFilterProxy) -> None:
        super().__init__(proxy)
        self.proxy = proxy

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        if isinstance(index, QModelIndex):  # (the view passes plain indexes)
            option.index = index
        text, background, icon = self.proxy.shown(index.row(), index.column())
        option.features |= _Feature.HasDisplay
        option.text = text.replace("\n", "\u2028")  # as Qt shows a line break in a cell
        if background is not None:
            option.backgroundBrush = background
        if icon is not None and not icon.isNull():
            option.features |= _Feature.HasDecoration
            option.icon = icon
            mode = (
                QIcon.Mode.Selected
                if option.state & QStyle.StateFlag.State_Selected
                else QIcon.Mode.Normal
            )
            actual = icon.actualSize(option.decorationSize, mode)
            wanted = option.decorationSize
            option.decorationSize = QSize(
                min(wanted.width(), actual.width()), min(wanted.height(), actual.height())
            )
        option.styleObject = None  # type: ignore[assignment]  # as Qt's: no style animations
