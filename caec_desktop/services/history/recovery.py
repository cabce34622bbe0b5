"""Getting back what a damaged history database still holds, and putting the damage aside.

SQLite's own `.recover` is a feature of the `sqlite3` command-line program, not of the library
Python ships, so recovery here reads the damaged file through SQL as far as it goes: each table
in key order, in batches; where a batch hits a damaged page, row by row, and past a row that
cannot be read, by jumps of growing size until rows read again. Every row that reads (and whose
text is UTF-8) is copied into the fresh database; the ones that do not are counted as lost. The
damaged file itself is never deleted: `move_aside` renames it (with its `-wal`/`-shm`/`-journal`
companions) to `history.corrupt-<UTC time>.sqlite3` beside it.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

log = logging.getLogger(__name__)

COMPANIONS = ("-wal", "-shm", "-journal")
BATCH = 200
MAX_PROBES = 64
"""Jumps tried past an unreadable row before a table is given up (the jumps double each time)."""


@dataclass
class Recovered:
    """What a recovery copied into the fresh database, and what it could not read."""

    conversations: int = 0
    turns: int = 0
    events: int = 0
    lost: int = 0
    """Rows (or runs of rows) that could not be read or did not fit."""

    def text(self) -> str:
        lost = f"; {self.lost} unreadable part(s) were left behind" if self.lost else ""
        return (
            f"{self.conversations} conversation(s) with {self.turns} turn(s) were recovered "
            f"into a new history{lost}"
        )


def decode_text(raw: bytes) -> str | None:
    """sqlite3 `text_factory`: UTF-8 text, or None for bytes that are not (the row is skipped)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return None


def move_aside(path: Path, stamp: datetime | None = None) -> Path:
    """Rename `path` (file, folder, link or pipe) and its companions to a `.corrupt-` name.

    Returns the new path; nothing is deleted. A name already taken gets a counter.
    """
    when = (stamp or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    stem = path.name.removesuffix(".sqlite3")
    for n in range(1000):
        extra = f"-{n}" if n else ""
        target = path.with_name(f"{stem}.corrupt-{when}{extra}.sqlite3")
        if not os.path.lexists(target):
            break
    os.rename(path, target)
    for suffix in COMPANIONS:
        companion = path.with_name(path.name + suffix)
        if os.path.lexists(companion):
            with contextlib.suppress(OSError):
                os.rename(companion, target.with_name(target.name + suffix))
    return target


def open_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection to `path` (nothing in the file is changed by reading it)."""
    db = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    db.text_factory = decode_text
    return db


def _rows(src: sqlite3.Connection, sql: str) -> Iterator[tuple[object, ...]]:
    """Rows of `sql` (which selects the integer key first, `WHERE key > ? ORDER BY key LIMIT ?`)
    in key order, past damaged pages where SQLite lets it; `(None,)` for each unreadable stretch."""
    last = -(2**63)
    probes = 0
    while probes <= MAX_PROBES:
        try:
            batch = src.execute(sql, (last, BATCH)).fetchall()
        except sqlite3.DatabaseError:
            batch = None
        if batch is None:
            try:  # the batch hit damage: the next row alone, if it reads
                batch = src.execute(sql, (last, 1)).fetchall()
            except sqlite3.DatabaseError:
                yield (None,)
                probes += 1
                last += 2 ** min(probes, 40)  # jump past the damage, further each time
                continue
        if not batch:
            return
        probes = 0
        for row in batch:
            yield row
            if not isinstance(row[0], int):  # a key that is no integer: stop, it cannot advance
                return
            last = row[0]


def _texts(values: tuple[object, ...]) -> bool:
    return all(isinstance(v, str) for v in values)


def _ints(values: tuple[object, ...]) -> bool:
    return all(isinstance(v, int) for v in values)


def recover(src: sqlite3.Connection, dst: sqlite3.Connection) -> Recovered:
    """Copy every readable conversation, turn and event of `src` into the empty store `dst`."""
    found = Recovered()
    conversations: set[int] = set()
    try:
        rows = list(
            _rows(
                src,
                "SELECT id, name, created, updated FROM conversations WHERE id > ? "
                "ORDER BY id LIMIT ?",
            )
        )
    except sqlite3.DatabaseError:
        rows = [(None,)]
    for row in rows:
        if len(row) != 4 or not isinstance(row[0], int) or not _texts(row[1:]):
            found.lost += 1
            continue
        dst.execute("INSERT OR IGNORE INTO conversations VALUES (?, ?, ?, ?)", row)
        conversations.add(row[0])
        found.conversations += 1
    turns: list[int] = []
    try:
        rows = list(
            _rows(
                src,
                "SELECT id, conversation, idx, user_text, result, created FROM turns "
                "WHERE id > ? ORDER BY id LIMIT ?",
            )
        )
    except sqlite3.DatabaseError:
        rows = [(None,)]
    for row in rows:
        if len(row) != 6 or not _ints(row[:3]) or not _texts(row[3:]):
            found.lost += 1
            continue
        conversation = int(row[1])  # type: ignore[call-overload]
        if conversation not in conversations:  # its conversation row was lost: a new one
            stamp = str(row[5])
            dst.execute(
                "INSERT INTO conversations VALUES (?, ?, ?, ?)",
                (conversation, f"Recovered conversation {conversation}", stamp, stamp),
            )
            conversations.add(conversation)
            found.conversations += 1
        cur = dst.execute("INSERT OR IGNORE INTO turns VALUES (?, ?, ?, ?, ?, ?)", row)
        if cur.rowcount:
            turns.append(int(row[0]))  # type: ignore[call-overload]
            found.turns += 1
        else:
            found.lost += 1
    for turn in turns:
        try:
            events = src.execute(
                "SELECT seq, event FROM events WHERE turn = ? ORDER BY seq", (turn,)
            ).fetchall()
        except sqlite3.DatabaseError:
            found.lost += 1
            continue
        good = [(turn, seq, event) for seq, event in events if isinstance(event, str)]
        found.lost += len(events) - len(good)
        dst.executemany("INSERT OR IGNORE INTO events VALUES (?, ?, ?)", good)
        found.events += len(good)
    try:  # report title blocks (schema 2; an older file has none)
        blocks = src.execute("SELECT conversation, fields, updated FROM report_fields").fetchall()
    except sqlite3.DatabaseError:
        blocks = []
    dst.executemany(
        "INSERT OR IGNORE INTO report_fields VALUES (?, ?, ?)",
        [b for b in blocks if b[0] in conversations and _texts(b[1:])],
    )
    return found
