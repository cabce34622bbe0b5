"""Settings and data files: read only when safe, written only privately.

Reading (`read_small_text`, `read_small_json`) the small settings files (`config.json`,
`secrets.json`, `.env`) never hangs. A settings file may be anything by the time the app starts: a
FIFO (reading it waits for a writer forever), a device (`/dev/zero` never ends), a folder, a file of
gigabytes, bytes that are not UTF-8. `read_small_text` reads a file only when it is a regular file
of sane size and gives back its text; anything else raises `FileProblem`, whose message says in
words what the path is and why it was not read. The file is opened non-blocking (a FIFO opens at
once instead of waiting for a writer) and checked with `fstat` on the open descriptor, so a file
swapped between a check and the open cannot slip through. Symlinks are followed for reading: the
check applies to the target.

Writing: what the app writes in its data and config folders only the user can read.

- `private_dir(path)`: the folder, made (or tightened to) mode 0700.
- `write_private(path, data)`: the whole file written to a temporary file that `tempfile.mkstemp`
  creates exclusively (O_EXCL | O_NOFOLLOW, mode 0600, an unpredictable name beside the target),
  flushed to disk, then renamed over the target (`os.replace`). A symlink planted at the target or
  at a temporary name is never followed: the rename replaces the link itself, and a reader sees
  the old file or the new one, never half of one.
- `private_file(path)`: an existing file (database, log) tightened to 0600, or an empty one created
  0600 without following a symlink, so a program that opens it afterwards keeps that mode.
- `check_private(path)`: a file holding secrets (`secrets.json`, `.env`) that others could read is
  made private; the note says so (others may have read the key). A file the user does not own, or
  that cannot be fixed, raises `PrivateFileError`.

On Windows, modes mean little (files in the user profile are private by ACL); the calls still work.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

DIR_MODE = 0o700
FILE_MODE = 0o600
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


class PrivateFileError(OSError):
    """A file that should be private is not, and cannot be made so; the message says which."""


def private_dir(path: Path) -> Path:
    """`path` as a folder only the user can enter (created with its parents if missing)."""
    path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    mode = stat.S_IMODE(path.stat().st_mode)
    if os.name == "posix" and mode & 0o077:
        try:
            os.chmod(path, DIR_MODE)
        except OSError as exc:
            log.warning("%s: folder open to others (mode %o), not fixed: %s", path, mode, exc)
        else:
            log.info("%s: folder was open to others (mode %o); now 0700", path, mode)
    return path


def write_private(path: Path, data: str | bytes, encoding: str = "utf-8") -> Path:
    """Replace `path` atomically with `data`, readable by the user only (see the docstring)."""
    path = Path(path)
    raw = data.encode(encoding) if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)  # mkstemp makes 0600; an ACL or odd platform may not
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


def write_cache(path: Path, data: bytes) -> bool:
    """Write a cache file (`write_private`, its folder made private first); whether it was
    written. Never raises: a cache not written only means the next launch builds it again."""
    try:
        private_dir(path.parent)
        write_private(path, data)
    except Exception:
        log.debug("cache file %s not written", path, exc_info=True)
        return False
    return True


def private_file(path: Path) -> Path:
    """`path` exists as a regular file with mode 0600 (created empty if missing).

    Raises:
        PrivateFileError: `path` is a symlink or not a regular file.
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | _NOFOLLOW, FILE_MODE)
    except OSError as exc:
        if path.is_symlink():
            raise PrivateFileError(f"{path}: is a symbolic link; not used") from None
        raise exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise PrivateFileError(f"{path}: not a regular file; not used")
        if os.name == "posix" and stat.S_IMODE(info.st_mode) != FILE_MODE:
            os.fchmod(fd, FILE_MODE)
    finally:
        os.close(fd)
    return path


def check_private(path: Path) -> str:
    """Make the secrets file `path` private if it is not; returns a note for the user ("" when
    it already was or does not exist).

    Raises:
        PrivateFileError: `path` is a symlink, not a regular file, not the user's, or open to
            others and cannot be fixed.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return ""
    if stat.S_ISLNK(info.st_mode):
        raise PrivateFileError(f"{path}: is a symbolic link; a key file must be a plain file")
    if not stat.S_ISREG(info.st_mode):
        raise PrivateFileError(f"{path}: not a regular file")
    if os.name != "posix":
        return ""
    if info.st_uid != os.getuid():
        raise PrivateFileError(f"{path}: belongs to another user; not used")
    mode = stat.S_IMODE(info.st_mode)
    if not mode & 0o077:
        return ""
    try:
        os.chmod(path, FILE_MODE)
    except OSError as exc:
        raise PrivateFileError(
            f"{path}: readable by others (mode {mode:o}) and cannot be made private "
            f"({exc.strerror}); not used"
        ) from None
    note = (
        f"{path} was readable by others (mode {mode:o}); it is now private (0600). Others on "
        "this machine may have read the key: consider replacing it."
    )
    log.warning("%s", note)
    return note


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
