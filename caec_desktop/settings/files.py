"""Private files: what the app writes in its data and config folders only the user can read.

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
import logging
import os
import stat
import tempfile
from pathlib import Path

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
