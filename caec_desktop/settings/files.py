"""Reading the small settings files (`config.json`, `secrets.json`, `.env`) without ever hanging.

A settings file may be anything by the time the app starts: a FIFO (reading it waits for a writer
forever), a device (`/dev/zero` never ends), a folder, a file of gigabytes, bytes that are not
UTF-8. `read_small_text` reads a file only when it is a regular file of sane size and gives back
its text; anything else raises `FileProblem`, whose message says in words what the path is and
why it was not read. The file is opened non-blocking (a FIFO opens at once instead of waiting for
a writer) and checked with `fstat` on the open descriptor, so a file swapped between a check and
the open cannot slip through. Symlinks are followed for reading: the check applies to the target.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

MAX_SETTINGS_BYTES = 1_000_000
"""Largest settings file read (ours are a few hundred bytes; 1 MB leaves room for any `.env`)."""


class FileProblem(ValueError):
    """A settings file that is not read; the message names the file and says why."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_small_bytes(path: Path | str, max_bytes: int = MAX_SETTINGS_BYTES) -> bytes | None:
    """The bytes of `path`, or None when nothing is there (no file, or a dangling symlink).

    Raises:
        FileProblem: the path is not a regular file, is larger than `max_bytes`, or cannot be
            read (permissions, I/O error).
    """
    path = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise FileProblem(f"{path} is a folder, not a settings file") from None
    except OSError as exc:
        if os.path.isdir(path):  # Windows refuses to open folders with EACCES
            raise FileProblem(f"{path} is a folder, not a settings file") from None
        raise FileProblem(f"{path} could not be opened ({_reason(exc)})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"{path} is {_kind(info.st_mode)}, not a settings file; not read")
        if info.st_size > max_bytes:
            raise FileProblem(
                f"{path} is {info.st_size:,} bytes; a settings file may have at most "
                f"{max_bytes:,}; not read"
            )
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:  # the file may grow while it is read
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:  # pragma: no cover - regular files never block
                break
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:
            raise FileProblem(f"{path} grew past {max_bytes:,} bytes while being read; not read")
        return b"".join(chunks)
    except OSError as exc:
        raise FileProblem(f"{path} could not be read ({_reason(exc)})") from None
    finally:
        os.close(fd)


def read_small_text(path: Path | str, max_bytes: int = MAX_SETTINGS_BYTES) -> str | None:
    """The text (UTF-8, a leading BOM dropped) of a small regular file; None when there is none.

    Raises:
        FileProblem: as `read_small_bytes`, or the bytes are not UTF-8 text.
    """
    data = read_small_bytes(path, max_bytes)
    if data is None:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FileProblem(
            f"{path} is not UTF-8 text (byte {exc.start} cannot be read); not read"
        ) from None


def read_small_json(path: Path | str, max_bytes: int = MAX_SETTINGS_BYTES) -> Any:
    """The JSON value of a small regular file; None when there is no file.

    Raises:
        FileProblem: as `read_small_text`, or the text is not JSON (or nested too deeply).
    """
    text = read_small_text(path, max_bytes)
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise FileProblem(
            f"{path} is not valid JSON (the first error is at line {exc.lineno}, column "
            f"{exc.colno})"
        ) from None
    except RecursionError:
        raise FileProblem(f"{path} is JSON nested too deeply to be settings; not read") from None


def _reason(exc: OSError) -> str:
    """An OS error in words (no Python exception text)."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if exc.errno == errno.ELOOP:
        return "too many levels of symbolic links"
    return exc.strerror or "input/output error"
