"""KindFilterProxy: shows only the trace rows whose kind is in a chosen set."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel

from caec_desktop.ui.trace_model import KIND_ROLE


class KindFilterProxy(QSortFilterProxyModel):
    """Filter a TraceModel by event kind; `None` shows every kind."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._kinds: frozenset[str] | None = None

    def set_kinds(self, kinds: set[str] | frozenset[str] | None) -> None:
        """Show only `kinds` (None = all)."""
        self.beginFilterChange()
        self._kinds = frozenset(kinds) if kinds is not None else None
        self.endFilterChange()

    def kinds(self) -> frozenset[str] | None:
        return self._kinds

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        if self._kinds is None:
            return True
        src = self.sourceModel()
        return src.data(src.index(source_row, 0, source_parent), KIND_ROLE) in self._kinds
