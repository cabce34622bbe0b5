"""The Help menu's pages: offline help, tools and formulas, keyboard shortcuts, About.

Each opens in a non-blocking dialog (`open()`, never `exec()`: qasync issue #59) that Esc closes.
The offline help is the offline dispatcher's own answer to "what can you do?" and the tools page
is built from the registry, so neither can drift from what the app computes.
"""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout, QWidget

MIN_SIZE = (720, 560)
"""The least size of a help page; on a larger screen it takes half its width and 4/5 of its
height (at 720x560 on 1920x1080 the tools page showed one tool and a half at a time)."""


def name_headings(browser: QTextBrowser) -> None:
    """Make each heading an anchor named by its text, so `[x](#rayleigh_timestep)` scrolls to
    the heading `rayleigh_timestep` (Qt's Markdown reader names no anchors)."""
    block = browser.document().begin()
    while block.isValid():
        if block.blockFormat().headingLevel():
            cursor = QTextCursor(block)
            cursor.movePosition(
                QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor
            )
            anchor = QTextCharFormat()
            anchor.setAnchor(True)
            anchor.setAnchorNames([block.text().strip()])
            cursor.mergeCharFormat(anchor)
        block = block.next()


class TextDialog(QDialog):
    """A titled, scrollable page of Markdown with a Close button; its headings are anchors
    (`name_headings`)."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setMarkdown(text)
        name_headings(self.browser)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.browser, 1)
        lay.addWidget(buttons)
        screen = (parent.screen() if parent is not None else self.screen()).availableGeometry()
        width = max(MIN_SIZE[0], screen.width() // 2)
        height = max(MIN_SIZE[1], screen.height() * 4 // 5)
        self.resize(min(width, screen.width() * 9 // 10), min(height, screen.height() * 9 // 10))


def md(text: str) -> str:
    """`text` as literal Markdown: `m*²/(R*·E*²)` must not turn into emphasis."""
    return "".join(f"\\{c}" if c in _MARKDOWN_SPECIAL else c for c in text)


_MARKDOWN_SPECIAL = frozenset("\\`*_[]<>#|")


def offline_help_markdown(text: str) -> str:
    """The offline reader's help answer as Markdown that shows it word for word: its group
    headings (`**Time step**` lines) as headings, each tool's line a bullet with the tool's name
    in bold, the rest literal (`md`: its formulas' `*` are not emphasis). As plain text it was one
    wall of ~30 long lines, the groups told apart only by a shorter line."""
    lines = []
    for line in text.splitlines():
        if len(line) > 4 and line.startswith("**") and line.endswith("**"):
            lines += ["", f"### {md(line[2:-2])}", ""]
        elif line.startswith("- "):
            name, colon, rest = line[2:].partition(": ")
            lines.append(f"- **{md(name)}**{colon}{md(rest)}" if colon else f"- {md(line[2:])}")
        else:
            lines.append(md(line))
    return "\n".join(lines)


def tools_markdown() -> str:
    """Every tool, grouped by what it computes: description, inputs, formulas, references."""
    from caec_desktop.services.tool_help import tool_help
    from caec_desktop.ui.tool_groups import grouped

    by_name = {t.name: t for t in tool_help()}
    groups = grouped(list(by_name))
    # Contents first: 25 tools on one page; each name links to its heading (name_headings)
    lines = ["**Contents** (click a tool to go to it):", ""]
    lines += [
        f"- **{group}**: " + ", ".join(f"[{md(name)}](#{name})" for name in names)
        for group, names in groups
    ]
    lines.append("")
    for group, names in groups:
        lines.append(f"## {group}")
        for name in names:
            tool = by_name[name]
            lines += [f"### `{tool.name}`", "", md(tool.description), "", "**Inputs:**", ""]
            lines += [
                f"- `{key}`"
                + (f" [{md(unit)}]" if unit and f"[{unit}]" not in what else "")
                + (f": {md(what)}" if what else "")
                for key, unit, what in tool.inputs
            ]
            if tool.formulas:
                lines += ["", "**Formulas** (from its calc sheet):", ""]
                lines += [f"- {md(f)}" for f in tool.formulas]
            if tool.references:
                lines += ["", "**References:**", ""]
                lines += [f"- {md(r)}" for r in tool.references]
            lines.append("")
    return "\n".join(lines)


def about_markdown() -> str:
    """Versions (app, Qt, LangGraph, Python, …) and the data and config folders."""
    from PySide6.QtCore import qVersion

    from caec_desktop.services.tool_help import versions
    from caec_desktop.settings.paths import config_dir, data_dir

    found = versions()
    rows = [("CAEC Desktop", found.pop("CAEC Desktop")), ("Qt", qVersion()), *found.items()]
    lines = ["# CAEC Desktop", "", "| | version |", "| --- | --- |"]
    lines += [f"| {name} | {version} |" for name, version in rows]
    lines += [
        "",
        f"- **Data folder** (history, log): `{data_dir()}`",
        f"- **Config folder** (settings, window layout): `{config_dir()}`",
        "",
        "Every number comes with its calc sheet and sources; see Help → Tools and formulas.",
    ]
    return "\n".join(lines)
