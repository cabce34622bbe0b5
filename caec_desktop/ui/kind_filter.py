"""KindFilterProxy: shows only the trace rows whose kind is in a chosen set."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSortFilterProxyModel

from caec_desktop.ui.trace_model import KIND_ROLE, TraceModel


class KindFilterProxy(QSortFilterProxyModel):
    """Filter a TraceModel by event kind; `None` shows every kind.

    With a TraceModel source the kind is read from its `kinds` list: one Python call per row
    instead of three (index, data, role) keeps a filter change on 10,000 rows short.
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._kinds: frozenset[str] | None = None
        self._row_kinds: list[str] | None = None

    def setSourceModel(self, model: Any) -> None:
        self._row_kinds = model.kinds if isinstance(model, TraceModel) else None
        super().setSourceModel(model)

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
        if self._row_kinds is not None:
            return self._row_kinds[source_row] in self._kinds
        src = self.sourceModel()
        return src.data(src.index(source_row, 0, source_parent), KIND_ROLE) in self._kinds
