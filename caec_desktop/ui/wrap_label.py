"""WrapLabel: a word-wrapped label that remembers its height for each width, and optionally its
painted text.

QLabel lays its text out again on every `heightForWidth` call, and a layout asks each of its
labels about three times whenever anything in it changes size (the chat's scroll area asks at two
widths, with and without its scroll bar): ~1 ms per call for a chat answer, so each render of a
streamed answer cost ~3 ms per earlier answer, and the labels of every result card in the chat
were laid out again too. The cache is dropped when the text, font, style or margins change.

Painting: while an answer streams the chat scrolls on every render, and Qt repaints every visible
bubble (rich text: 0.3-3 ms each, ~10 ms a frame with the window's other repaints). A label made
with `set_paint_cache(True)` keeps what it painted inside its contents rectangle as a pixmap and
draws that instead (~0.05 ms), from its second paint at one size on (a label whose text changes on
every paint, the streamed answer's last piece, never pays for a pixmap). Only for labels whose own
background is opaque under the whole contents rectangle (the chat's bubbles, by their style
sheet): the pixmap then holds the same pixels a direct paint makes there. The label paints
directly while it has selected text or focus (selection and cursor show as before), and at a
fractional device pixel ratio (a pixmap would be resampled). The pixmap is dropped when the text,
format, size, pixel ratio, font, palette, style, margins, enabled or active state change, and the
least recently drawn ones beyond `PAINT_CACHE_BYTES` in all are dropped. (QLabel setters not
overridden here, such as setPixmap, are not seen: a cached label shows text only.)
"""

from __future__ import annotations

import weakref
from collections import OrderedDict

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QEvent, QPoint, QRect
from PySide6.QtGui import QPainter, QPaintEvent, QPixmap, QRegion
from PySide6.QtWidgets import QLabel, QWidget

_RELAYOUT_EVENTS = frozenset(
    {
        QEvent.Type.Polish,
        QEvent.Type.StyleChange,
        QEvent.Type.FontChange,
        QEvent.Type.ContentsRectChange,
    }
)
_REPAINT_EVENTS = _RELAYOUT_EVENTS | {
    QEvent.Type.PaletteChange,
    QEvent.Type.EnabledChange,
    QEvent.Type.ActivationChange,
    QEvent.Type.LayoutDirectionChange,
}
PAINT_CACHE_BYTES = 16 * 1024 * 1024
"""Pixmaps kept by all labels together, least recently drawn dropped first: a screenful of chat
is ~1.5 MB at a device pixel ratio of 1, ~6 MB at 2 (bubbles scrolled out of view keep theirs
until newer ones need the room, so the process grows by this much at most)."""
LABEL_CACHE_BYTES = PAINT_CACHE_BYTES // 4
"""A label whose pixmap would be larger (a very long answer) paints directly."""

_held: OrderedDict[int, tuple[weakref.ref[WrapLabel], int]] = OrderedDict()
"""Labels holding a pixmap, least recently drawn first: id -> (label, bytes)."""
_held_bytes = 0


def paint_cache_bytes() -> int:
    """Bytes of pixmap the labels hold now."""
    return _held_bytes


def _hold(label: WrapLabel, nbytes: int) -> None:
    global _held_bytes
    _release(id(label))
    key = id(label)
    _held[key] = (weakref.ref(label, lambda _ref: _release(key)), nbytes)
    _held_bytes += nbytes
    while _held_bytes > PAINT_CACHE_BYTES and len(_held) > 1:
        ref, _n = _held[next(iter(_held))]
        oldest = ref()
        if oldest is None:
            _release(next(iter(_held)))
        else:
            oldest._drop_pixmap()


def _release(key: int) -> None:
    global _held_bytes
    entry = _held.pop(key, None)
    if entry is not None:
        _held_bytes -= entry[1]


class WrapLabel(QLabel):
    """A QLabel whose `heightForWidth` is computed once per width and text."""

    def __init__(self, text: str = "") -> None:
        # First: `event` and `setText` may run inside QLabel's constructor.
        self._heights: dict[int, int] = {}
        self._paint_cache = False
        self._pixmap: QPixmap | None = None
        self._painted_at: tuple[int, int, float] | None = None
        """(width, height, pixel ratio) of the last paint since the content last changed."""
        self._rendering = False
        self._ahead: tuple[int, int, float] | None = None
        """(width, height, pixel ratio) the label is being painted ahead at (`paint_ahead`)."""
        self._painted_whole = False
        """The last paint covered the whole label, and nothing changed since."""
        super().__init__(text)

    def set_paint_cache(self, on: bool) -> None:
        """Keep the painted text as a pixmap (see the module's docstring): only for a label whose
        style gives it an opaque background under its whole contents rectangle."""
        self._paint_cache = on
        self._changed()

    def setText(self, text: str) -> None:
        self._relaid()
        super().setText(text)

    def setTextFormat(self, fmt: QtCore.Qt.TextFormat) -> None:
        self._relaid()
        super().setTextFormat(fmt)

    def setWordWrap(self, on: bool) -> None:
        self._relaid()
        super().setWordWrap(on)

    def clear(self) -> None:
        self._relaid()
        super().clear()

    def setNum(self, num: float) -> None:  # type: ignore[override]
        self._relaid()
        super().setNum(num)

    def setAlignment(self, alignment: QtCore.Qt.AlignmentFlag) -> None:
        self._changed()
        super().setAlignment(alignment)

    def setIndent(self, indent: int) -> None:
        self._relaid()
        super().setIndent(indent)

    def setMargin(self, margin: int) -> None:
        self._relaid()
        super().setMargin(margin)

    def event(self, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.UpdateLater and self._painted_whole:
            return True  # asked for during that paint, which drew it (see `paintEvent`)
        if kind in _REPAINT_EVENTS:
            if kind in _RELAYOUT_EVENTS:  # a new style sheet's padding counts once polished
                self._heights.clear()
            self._changed()
        return super().event(event)

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height

    def paint_ahead(self, width: int, part: int = 0, parts: int = 1) -> None:
        """Size the label to `width` (and its height there) and keep its painted text now, so
        its first paint draws the pixmap: for a hidden label shown on a later loop turn, whose
        direct first paint (~3-5 ms for a long answer) would share that turn's gap with the
        rest of the show. Painted in `parts` bands of its height, one per call (`part` 0 first:
        it sizes the label and starts the pixmap), so each can be a loop turn of its own; the
        pixmap counts once its last band is in. If the label changes or is shown at another
        size meanwhile, it paints anew. (Qt's `render` of a hidden widget lays its parent out as
        if it were shown: in the chat, whose layout never squeezes its items, that places it at
        this size below the others.)"""
        if not self._paint_cache:
            return
        ratio = self.devicePixelRatioF()
        if part == 0:
            self.resize(width, self.heightForWidth(width))
            self._changed()
            size = self.contentsRect().size()
            too_big = size.width() * size.height() * ratio * ratio * 4 > LABEL_CACHE_BYTES
            if size.isEmpty() or too_big or not ratio.is_integer():
                return
            self._ahead = (self.width(), self.height(), ratio)
            self._start_pixmap(ratio)
        elif self._pixmap is None or self._ahead != (self.width(), self.height(), ratio):
            return  # changed meanwhile: its next paint is direct
        assert self._pixmap is not None
        rect = self.contentsRect()
        top = rect.top() + rect.height() * part // parts
        bottom = rect.top() + rect.height() * (part + 1) // parts
        self._render_into(self._pixmap, QRect(rect.left(), top, rect.width(), bottom - top))
        if part == parts - 1:
            self._painted_at = self._ahead  # (after: `render` lays it out)

    def lay_out_ahead(self, width: int) -> None:
        """Size the label to `width` (and its height there) and have Qt lay its text out for a
        paint at that size now: QLabel lays the text of a resized label out again in its next
        paint (~1.5 ms for a 300-word answer), which made the first band of `paint_ahead` the
        longest step of an answer's show. A paint of one pixel into a throwaway pixmap does it,
        a loop turn before the bands: of the twin that paints the bands when there is one
        (`render_twin`; the label's own `render` walked the whole window first, ~25 ms with
        1,000 turns in the chat), else of the label."""
        if not self._paint_cache:
            return
        self.resize(width, self.heightForWidth(width))
        twin = self.render_twin()
        if twin is not None:
            twin.render(QPixmap(1, 1), QPoint(0, 0), QRegion(0, 0, 1, 1))
            return
        self._rendering = True  # a direct paint: the label's pixmap is not touched
        try:
            self.render(QPixmap(1, 1), QPoint(0, 0), QRegion(0, 0, 1, 1))
        finally:
            self._rendering = False

    def paint_cached(self) -> bool:
        """Whether the label holds a pixmap of its text now."""
        return self._pixmap is not None

    def paintEvent(self, event: QPaintEvent) -> None:
        # QLabel lays a changed text out when it paints it, and that layout asks for a repaint
        # of the label while the paint goes on (Qt posts it: an UpdateLater event). The text is
        # drawn after its layout, so a paint of the whole label has drawn what that repaint
        # would draw again (a second paint of the streamed answer's last piece per render).
        whole = (QRegion(self.rect()) - event.region()).isEmpty()
        self._paint(event)
        self._painted_whole = whole  # (after: a paint into the pixmap paints the label too)

    def _paint(self, event: QPaintEvent) -> None:
        ratio = self.devicePixelRatioF()
        if (
            self._rendering
            or not self._paint_cache
            or not ratio.is_integer()
            or self.hasFocus()
            or self.hasSelectedText()
        ):
            super().paintEvent(event)
            return
        at = (self.width(), self.height(), ratio)
        size = self.contentsRect().size()
        if size.isEmpty() or size.width() * size.height() * ratio * ratio * 4 > LABEL_CACHE_BYTES:
            super().paintEvent(event)
            return
        if self._pixmap is not None and self._painted_at == at:
            key = id(self)
            if key in _held:
                _held.move_to_end(key)
        elif self._painted_at != at:  # the first paint of this content and size: directly
            self._drop_pixmap()
            self._painted_at = at
            super().paintEvent(event)
            return
        # Begun before `_render_pixmap`: `render` sets the widget's paint redirection to the
        # pixmap and clears it after, so a painter begun later would have no device.
        painter = QPainter(self)
        if self._pixmap is None:
            self._render_pixmap(ratio)
        assert self._pixmap is not None
        painter.drawPixmap(self.contentsRect().topLeft(), self._pixmap)
        painter.end()

    def _render_pixmap(self, ratio: float) -> None:
        """Paint the contents rectangle (the style's background, then the text) into a pixmap."""
        self._start_pixmap(ratio)
        assert self._pixmap is not None
        self._render_into(self._pixmap, self.contentsRect())

    def _start_pixmap(self, ratio: float) -> None:
        """A new pixmap of the contents rectangle (each band filled as it is painted: filling a
        long answer's pixmap at once took ~1.7 ms)."""
        pixmap = QPixmap(self.contentsRect().size() * ratio)
        pixmap.setDevicePixelRatio(ratio)
        self._pixmap = pixmap
        _hold(self, pixmap.width() * pixmap.height() * 4)

    def render_twin(self) -> QWidget | None:
        """A widget out of this label's window that paints exactly what the label paints now
        (its text, size and look), painted into the pixmap in the label's place: `render` of a
        shown widget first sends the pending move and resize events of every widget of its
        window, a walk over all of them (~0.5 µs a widget: ~10 ms a bubble in a chat of 1,000
        reopened turns). None (here): the label itself is rendered."""
        return None

    def _render_into(self, pixmap: QPixmap, band: QRect) -> None:
        """Paint `band` of the contents rectangle into its place in `pixmap`, on the window's
        colour (opaque, as the backing store is)."""
        offset = band.topLeft() - self.contentsRect().topLeft()
        filler = QPainter(pixmap)
        filler.fillRect(QRect(offset, band.size()), self.palette().window().color())
        filler.end()
        twin = self.render_twin()
        if twin is not None:
            twin.render(pixmap, offset, QRegion(band), QWidget.RenderFlag.DrawWindowBackground)
            return
        # Called from `paintEvent`: `render` refuses a widget in its paint event ("recursive
        # repaint"), so the flag is lifted meanwhile; `_rendering` makes the nested paint direct.
        in_paint = QtCore.Qt.WidgetAttribute.WA_WState_InPaintEvent
        was_in_paint = self.testAttribute(in_paint)
        self._rendering = True
        self.setAttribute(in_paint, False)
        try:
            self.render(pixmap, offset, QRegion(band), QWidget.RenderFlag.DrawWindowBackground)
        finally:
            self.setAttribute(in_paint, was_in_paint)
            self._rendering = False

    def _drop_pixmap(self) -> None:
        if self._pixmap is not None:
            self._pixmap = None
            _release(id(self))

    def _relaid(self) -> None:
        """The text's layout changed (text, format, wrap, indent, margin): the remembered
        heights go too, as well as the pixmap (`_changed`)."""
        self._heights.clear()
        self._changed()

    def _changed(self) -> None:
        """The content or its look changed: the next paint is direct, the pixmap gone."""
        self._painted_at = None
        self._painted_whole = False
        self._drop_pixmap()
