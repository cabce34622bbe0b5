"""Exports of a saved conversation: the calculation package (PDF, HTML, Markdown, CSV of its
sweep tables) and the trace (JSONL). Honest, private files: a file is written next to its target
as a temporary file only the user can read (`tempfile.mkstemp`, mode 0600 as in
`settings.files.write_private`), flushed to disk, checked to exist and be non-empty, and only
then renamed into place; anything else is an `ExportError` naming the file and the reason, never
"saved".

PDF pages and sweep plots need Qt, so the ui layer passes them in (`pdf_writer`, `plot_image`:
`caec_desktop.ui.pdf`); this module never imports Qt. Long exports report progress and can be
cancelled between steps (`progress`, `cancelled`), so the window runs them off its GUI thread.
"""

from __future__ import annotations

import base64
import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from caec_desktop.agent.trace import TraceEvent, redact
from caec_desktop.services.history import LoadedConversation
from caec_desktop.services.report import (
    CalcPackage,
    SweepTable,
    TitleBlock,
    TurnRecord,
    build_package,
    provenance,
)
from caec_desktop.settings.files import FILE_MODE, write_private

__all__ = [
    "EXPORT_FORMATS",
    "ExportCancelled",
    "ExportError",
    "export_conversation",
    "package_from_history",
    "provenance",
    "records",
    "trace_jsonl",
]

EXPORT_FORMATS = {".pdf": "pdf", ".html": "html", ".md": "md", ".csv": "csv", ".jsonl": "jsonl"}
"""File suffix → format name (`caec export --format`)."""

Progress = Callable[[int, int], None]
"""`progress(done, total)`: steps of the export (PDF: pages)."""


class PdfWriter(Protocol):
    """Renders a package as PDF at a path (`caec_desktop.ui.pdf.write_pdf`)."""

    def __call__(
        self,
        package: CalcPackage,
        path: Path,
        images: Mapping[int, bytes],
        progress: Progress | None,
        cancelled: Callable[[], bool] | None,
    ) -> object: ...


PlotImage = Callable[[SweepTable], bytes | None]
"""A sweep's plot as PNG bytes (None: no plot), drawn by the ui (`caec_desktop.ui.pdf`)."""


class ExportError(Exception):
    """An export that did not produce its file; the message says which file and why."""


class ExportCancelled(ExportError):
    """The user cancelled the export; no file was left behind."""


def records(loaded: LoadedConversation) -> list[TurnRecord]:
    """A stored conversation's turns as the package reads them (turn 1 first)."""
    return [
        TurnRecord(i, t.user_text, t.result, t.created, t.events)
        for i, t in enumerate(loaded.turns, 1)
    ]


def package_from_history(
    loaded: LoadedConversation,
    *,
    turns: Sequence[int] | None = None,
    title_block: TitleBlock | None = None,
    secrets: Sequence[str] = (),
) -> CalcPackage:
    """The package of a stored conversation (turns default to the answered ones)."""
    return build_package(
        loaded.conversation.name,
        records(loaded),
        turns=turns,
        title_block=title_block,
        secrets=secrets,
    )


def trace_jsonl(
    events: Iterable[TraceEvent | Mapping[str, Any]], secrets: Sequence[str] = ()
) -> str:
    """Events as JSONL (one `TraceEvent.to_json()` per line), keys redacted."""
    known = tuple(s for s in secrets if s)
    lines = []
    for ev in events:
        data = ev.model_dump() if isinstance(ev, TraceEvent) else dict(ev)
        lines.append(TraceEvent.model_validate(redact(data, known)).to_json())
    return "".join(line + "\n" for line in lines)


def format_of(path: Path, fmt: str | None = None) -> str:
    """The export format: `fmt` if given, else the file's suffix (ValueError if neither fits)."""
    names = sorted(set(EXPORT_FORMATS.values()))
    if fmt is not None:
        if fmt not in names:
            raise ValueError(f"export format {fmt!r}: use one of {', '.join(names)}")
        return fmt
    suffix = path.suffix.lower()
    if suffix not in EXPORT_FORMATS:
        raise ValueError(
            f"export format {suffix or '(none)'!r}: use one of {', '.join(EXPORT_FORMATS)}"
        )
    return EXPORT_FORMATS[suffix]


def _check_folder(path: Path) -> None:
    folder = path.parent
    if not folder.is_dir():
        raise ExportError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise ExportError(f"{path}: the folder {folder} is not writable")


def _temp_beside(path: Path) -> Path:
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
    except OSError as exc:
        raise ExportError(f"{path}: cannot write in {path.parent} ({exc.strerror})") from None
    os.close(fd)
    return Path(name)


def _commit(temp: Path, path: Path) -> Path:
    """Move a finished temp file into place once it exists and is not empty (flushed to disk
    and private first)."""
    try:
        size = temp.stat().st_size
    except OSError:
        size = -1
    if size <= 0:
        raise ExportError(f"{path}: nothing was written (the file came out empty)")
    try:
        fd = os.open(temp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(temp, FILE_MODE)  # mkstemp makes 0600; a renderer or odd platform may not
        os.replace(temp, path)
    except OSError as exc:
        raise ExportError(f"{path}: cannot be saved ({exc.strerror})") from None
    if not path.is_file() or path.stat().st_size <= 0:  # pragma: no cover - the OS lied
        raise ExportError(f"{path}: not found after saving")
    return path


def _images(
    package: CalcPackage, plot_image: PlotImage | None, cancelled: Callable[[], bool] | None
) -> dict[int, bytes]:
    images: dict[int, bytes] = {}
    if plot_image is None:
        return images
    for calc, sweep in package.sweeps:
        if cancelled is not None and cancelled():
            raise ExportCancelled("export cancelled")
        png = plot_image(sweep)
        if png:
            images[calc.number] = png
    return images


def write_package(
    package: CalcPackage,
    path: Path | str,
    fmt: str | None = None,
    *,
    pdf_writer: PdfWriter | None = None,
    plot_image: PlotImage | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Path:
    """Write `package` as pdf, html, md or csv; returns the path once the file is there.

    Markdown links its sweep plots as PNG files beside it (`NAME-plot-N.png`); HTML embeds them.

    Raises:
        ExportError: the folder is missing or read-only, the file came out empty, or (csv) the
            package has no sweep table. ExportCancelled when `cancelled()` turned true.
        ValueError: an unknown format.
    """
    path = Path(path)
    fmt = format_of(path, fmt)
    if fmt == "jsonl":
        raise ValueError(
            "a trace (jsonl) is written from the conversation: use export_conversation"
        )
    if fmt == "pdf" and pdf_writer is None:
        raise ValueError("PDF export needs a PDF renderer (caec_desktop.ui.pdf.write_pdf)")
    if fmt == "csv" and not package.sweeps:
        raise ExportError(f"{path}: the chosen turns have no sweep table to write as CSV")
    _check_folder(path)
    images = _images(package, plot_image, cancelled) if fmt != "csv" else {}
    temp = _temp_beside(path)
    written: list[Path] = []
    try:
        if fmt == "pdf":
            assert pdf_writer is not None
            pdf_writer(package, temp, images, progress, cancelled)
        elif fmt == "csv":
            temp.write_text(package.sweep_csv(), encoding="utf-8", newline="")
        elif fmt == "html":
            urls = {
                n: "data:image/png;base64," + base64.b64encode(png).decode("ascii")
                for n, png in images.items()
            }
            temp.write_text(package.html(urls), encoding="utf-8")
        else:
            urls = {}
            for n, png in images.items():
                image = path.with_name(f"{path.stem}-plot-{n}.png")
                write_private(image, png)
                written.append(image)
                urls[n] = image.name
            temp.write_text(package.markdown(urls), encoding="utf-8")
        if cancelled is not None and cancelled():
            raise ExportCancelled("export cancelled")
        return _commit(temp, path)
    except OSError as exc:
        raise ExportError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    except BaseException:
        for extra in written:
            with contextlib.suppress(OSError):
                extra.unlink()
        raise
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()


def export_conversation(
    loaded: LoadedConversation,
    path: Path | str,
    secrets: Sequence[str] = (),
    pdf_writer: PdfWriter | None = None,
    *,
    fmt: str | None = None,
    turns: Sequence[int] | None = None,
    title_block: TitleBlock | None = None,
    plot_image: PlotImage | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Path:
    """Write a stored conversation to `path`: its package (pdf, html, md, csv) or its trace
    (jsonl, every event of the chosen turns; all turns by default). The suffix picks the format
    unless `fmt` is given. See `write_package` for the rest."""
    path = Path(path)
    kind = format_of(path, fmt)
    if kind != "jsonl":
        package = package_from_history(
            loaded, turns=turns, title_block=title_block, secrets=secrets
        )
        return write_package(
            package,
            path,
            kind,
            pdf_writer=pdf_writer,
            plot_image=plot_image,
            progress=progress,
            cancelled=cancelled,
        )
    _check_folder(path)
    chosen = set(turns) if turns is not None else None
    events = [
        e for i, t in enumerate(loaded.turns, 1) if chosen is None or i in chosen for e in t.events
    ]
    temp = _temp_beside(path)
    try:
        temp.write_text(trace_jsonl(events, secrets), encoding="utf-8")
        if not events:  # an empty trace is a valid, empty file: write it as such
            os.replace(temp, path)
            return path
        return _commit(temp, path)
    except OSError as exc:
        raise ExportError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    finally:
        with contextlib.suppress(OSError):
            temp.unlink()
