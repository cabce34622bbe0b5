"""GraphView: the agent graph in layers, the running node lit live, a count on each edge."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from caec_desktop.ui.graph_layout import Edge, graph_shape, positions

if TYPE_CHECKING:
    from caec_desktop.agent.trace import TraceEvent

NODE_W, NODE_H = 120.0, 36.0
SKIP_GAP = 60.0
"""Vertical distance beyond which an edge is taken to skip a layer (layers are 90 apart)."""
IDLE, ACTIVE, VISITED = QColor("#eef1f6"), QColor("#ffd54f"), QColor("#c8e6c9")
START, END = "__start__", "__end__"


class GraphView(QGraphicsView):
    """Draws nodes/edges once (`set_graph`), then follows node_start/node_end events."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._boxes: dict[str, QGraphicsRectItem] = {}
        self._labels: dict[tuple[str, str], QGraphicsSimpleTextItem] = {}
        self.edge_counts: dict[tuple[str, str], int] = {}
        self.active: str | None = None
        self._previous: str | None = None

    def set_graph(self, graph: Any) -> None:
        """Draw `graph` (anything `graph_shape` reads) and reset the counts."""
        nodes, edges = graph_shape(graph)
        scene = self.scene()
        scene.clear()
        self._boxes.clear()
        self._labels.clear()
        self.edge_counts = {(e.source, e.target): 0 for e in edges}
        pos = positions(nodes, edges)
        for e in edges:
            self._draw_edge(e, pos)
        for n in nodes:
            x, y = pos[n]
            box = scene.addRect(
                QRectF(x - NODE_W / 2, y, NODE_W, NODE_H), QPen(Qt.GlobalColor.black)
            )
            box.setBrush(QBrush(IDLE))
            box.setToolTip(n)
            text = scene.addSimpleText(n.strip("_") or n)
            r = text.boundingRect()
            text.setPos(x - r.width() / 2, y + (NODE_H - r.height()) / 2)
            box.setZValue(1)
            text.setZValue(2)
            self._boxes[n] = box
        self.fitInView(scene.itemsBoundingRect().adjusted(-20, -20, 20, 20),
                       Qt.AspectRatioMode.KeepAspectRatio)  # fmt: skip

    def reset_counts(self) -> None:
        """Back to an unvisited graph (another conversation): counts 0, every node idle."""
        for key, label in self._labels.items():
            self.edge_counts[key] = 0
            label.setText("0")
        for node in self._boxes:
            self._paint(node, IDLE)
        self.active = None
        self._previous = None

    def nodes(self) -> list[str]:
        return list(self._boxes)

    def colour_of(self, node: str) -> QColor:
        return self._boxes[node].brush().color()

    def _draw_edge(self, e: Edge, pos: dict[str, tuple[float, float]]) -> None:
        if e.source not in pos or e.target not in pos:
            return
        (x1, y1), (x2, y2) = pos[e.source], pos[e.target]
        path = QPainterPath()
        if e.source == e.target:  # a retry loop: an arc on the right of the box
            start = QPointF(x1 + NODE_W / 2, y1 + 8)
            path.moveTo(start)
            path.cubicTo(start + QPointF(50, -25), start + QPointF(50, 45), start + QPointF(0, 20))
            mid = start + QPointF(40, 2)
        elif y1 < y2 <= y1 + 2 * NODE_H + SKIP_GAP:  # next layer down: a straight line
            a, b = QPointF(x1, y1 + NODE_H), QPointF(x2, y2)
            path.moveTo(a)
            path.lineTo(b)
            mid = (a + b) / 2
        else:  # skipping layers or going back up: bend round the left side, clear of the boxes
            a, b = (
                QPointF(x1 - NODE_W / 2, y1 + NODE_H / 2),
                QPointF(x2 - NODE_W / 2, y2 + NODE_H / 2),
            )
            bend = min(a.x(), b.x()) - 60
            path.moveTo(a)
            path.cubicTo(QPointF(bend, a.y()), QPointF(bend, b.y()), b)
            mid = QPointF(bend + 15, (a.y() + b.y()) / 2)
        pen = QPen(QColor("#555"), 1.4)
        if e.conditional:
            pen.setStyle(Qt.PenStyle.DashLine)
        item = QGraphicsPathItem(path)
        item.setPen(pen)
        self.scene().addItem(item)
        self._arrowhead(path)
        label = self.scene().addSimpleText("0")
        label.setBrush(QBrush(QColor("#1a5fb4")))
        label.setPos(mid + QPointF(4, -8))
        label.setZValue(3)
        self._labels[(e.source, e.target)] = label

    def _arrowhead(self, path: QPainterPath) -> None:
        """A small filled triangle at the end of `path`, pointing along it."""
        tip = path.pointAtPercent(1.0)
        angle = math.radians(path.angleAtPercent(1.0))
        back = QPointF(math.cos(angle), -math.sin(angle)) * 9.0  # Qt angles run anticlockwise
        side = QPointF(-back.y(), back.x()) * 0.45
        head = QPolygonF([tip, tip - back + side, tip - back - side])
        arrow = self.scene().addPolygon(head, QPen(QColor("#555")), QBrush(QColor("#555")))
        arrow.setZValue(2)

    def _count(self, source: str | None, target: str) -> None:
        key = (source or START, target)
        if key in self.edge_counts:
            self.edge_counts[key] += 1
            self._labels[key].setText(str(self.edge_counts[key]))

    def replay(self, events: Iterable[TraceEvent]) -> None:
        """A reopened conversation's runs, as if they had just run: the counts and the last
        run's nodes lit as `on_event` leaves them live (each label set once, not per event)."""
        visited, self._previous = self._walk(events, self._previous)
        for node in self._boxes:
            self._paint(node, VISITED if node in visited else IDLE)
        self.active = None

    def add_older(self, events: Iterable[TraceEvent]) -> None:
        """Add the counts of runs older than those shown (a long conversation's older turns,
        read after its newest ones); the nodes lit stay the last run's."""
        self._walk(events, None)

    def _walk(
        self, events: Iterable[TraceEvent], previous: str | None
    ) -> tuple[set[str], str | None]:
        """Count the edges `events` take, as `on_event` does, then show the counts; returns
        the nodes of the last run walked and the node the walk ended on."""
        counts = dict(self.edge_counts)
        visited: set[str] = set()

        def take(key: tuple[str, str]) -> None:
            if key in counts:
                counts[key] += 1

        for event in events:
            if event.kind == "run_start":
                visited, previous = {START}, START
            elif event.kind == "node_start" and (node := event.node) in self._boxes:
                assert node is not None
                take((previous or START, node))
                previous = node
                visited.add(node)
            elif event.kind == "run_end":
                if previous is not None and previous != START:
                    take((previous, END))
                    visited.add(END)
                previous = None
        for key, count in counts.items():
            if count != self.edge_counts[key]:
                self.edge_counts[key] = count
                self._labels[key].setText(str(count))
        return visited, previous

    def _paint(self, node: str, colour: QColor) -> None:
        if node in self._boxes:
            self._boxes[node].setBrush(QBrush(colour))

    def on_event(self, event: TraceEvent) -> None:
        """Follow a run: light the running node, count each edge taken."""
        node = event.node
        if event.kind == "run_start":
            for n in self._boxes:
                self._paint(n, IDLE)
            self._previous = START
            self._paint(START, VISITED)
        elif event.kind == "node_start" and node in self._boxes:
            self._count(self._previous, node)
            self._previous = node
            self.active = node
            self._paint(node, ACTIVE)
        elif event.kind == "node_end" and node in self._boxes:
            self._paint(node, VISITED)
            if self.active == node:
                self.active = None
        elif event.kind == "run_end":
            if self._previous is not None and self._previous != START:
                self._count(self._previous, END)
                self._paint(END, VISITED)
            self._previous = None
            self.active = None

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        rect = self.scene().itemsBoundingRect()
        if not rect.isEmpty():
            self.fitInView(rect.adjusted(-20, -20, 20, 20), Qt.AspectRatioMode.KeepAspectRatio)
