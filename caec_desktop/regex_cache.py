"""Compiled regular expressions kept from one launch to the next.

Python's `re` compiles a pattern in pure Python (parse, then generate the engine's code) and keeps
the result only in the process (`re._cache`). On the path to the app's first answer ~180 distinct
patterns are compiled (pint's parsers, the value reader, the offline reader, pydantic, dotenv):
~40-60 ms of CPU, of the ~0.45 s that path takes (docs/architecture.md, "Start-up"). The engine's
code for a pattern depends only on the pattern, its flags and the Python build, so it is saved
once (`save`, after start-up) and the next launch builds the same pattern objects from it with
`_sre.compile`, the call `re` itself ends with, ~15 µs each instead of ~0.1-9 ms (`preload`,
the start-up worker's first step). The objects are put in `re._cache`, where `re.compile`,
`re.match`, ... look first, so every caller (ours and the libraries') gets them unchanged.

Exactness: `save` keeps a pattern only when the object built from the saved code equals the
one `re` compiled in this process (`Pattern.__eq__` compares the source, the flags and the whole
engine code), and the file names the Python build it was made by (`sys.version`, the engine's
magic number and code size) and the SHA-256 of its entries; `preload` uses a file only from the
same build, only whole (a file changed after it was written, by a torn write or a bad disk, is not
used at all: the engine would accept a valid code of another pattern), and only patterns not in
the cache yet. The engine checks the code it is given (`_sre.compile` refuses invalid code),
and a file that cannot be read or parsed is ignored: the patterns are then compiled as usual.
Patterns with the DEBUG (prints while compiling), LOCALE or TEMPLATE flags are never saved.

This uses `re`'s internals (`re._cache`, `re._compiler._code`, `_sre.compile`), the same in
CPython 3.11-3.13; on a Python without them both functions do nothing.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import marshal
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

try:  # CPython's regular expression engine and compiler (3.11-3.13)
    import _sre

    _compiler: Any = importlib.import_module("re._compiler")
    _parser: Any = importlib.import_module("re._parser")
    _SUPPORTED = (
        isinstance(getattr(re, "_cache", None), dict)
        and isinstance(getattr(re, "_MAXCACHE", None), int)
        and callable(getattr(_compiler, "_code", None))
        and callable(getattr(_sre, "compile", None))
    )
except ImportError:  # pragma: no cover - another implementation
    _SUPPORTED = False

FORMAT = 2
MAX_ENTRIES = 320
"""At most this many patterns are saved: the first answer's (~200) first. `re` keeps 512 in its
cache (then drops the oldest), so the preloaded ones leave room for what is compiled after."""
MIN_NEW = 4
"""A file already read is written again only when at least this many patterns are new: one or two
differ from launch to launch (`tokenize` builds a pattern from a set, whose order changes with
Python's string hashing), not worth rewriting ~0.4 MB after every start-up."""
MAX_BYTES = 8 * 1024 * 1024
_SKIPPED_FLAGS = int(re.DEBUG | re.LOCALE) | int(getattr(re, "TEMPLATE", 0))  # (3.13: no TEMPLATE)

Key = tuple[type, Any, int]
"""`re._cache`'s key: the pattern's type (str or bytes), the pattern, its flags."""
Entry = tuple[bool, Any, int, int, list[int], int, dict[str, int], tuple[str | None, ...]]
"""A saved pattern: is bytes, pattern, flags given, flags of the compiled pattern, engine code,
groups - 1, group index, index group (`_sre.compile`'s arguments after the pattern)."""

_loaded: set[Key] = set()
"""The patterns in the file `preload` read (`save` takes their entries from the file again)."""
_first: dict[Key, re.Pattern[Any]] = {}
"""Patterns `remember` found compiled (the first answer's path): saved first."""


def build_id() -> str:
    """The Python build the engine code belongs to (the file made by another is not used)."""
    parts = (
        sys.implementation.name,
        sys.version,
        getattr(_sre, "MAGIC", "") if _SUPPORTED else "",
        getattr(_sre, "CODESIZE", "") if _SUPPORTED else "",
        getattr(_sre, "MAXREPEAT", "") if _SUPPORTED else "",
        getattr(_sre, "MAXGROUPS", "") if _SUPPORTED else "",
    )
    return " | ".join(str(p) for p in parts)


def cache_path() -> Path:
    """The file for this Python build, in the app's cache folder."""
    from caec_desktop.settings.paths import cache_dir

    tag = hashlib.sha256(build_id().encode()).hexdigest()[:16]
    return cache_dir() / f"regex-{sys.implementation.cache_tag}-{tag}.marshal"


def _key(entry: Entry) -> Key:
    return (bytes if entry[0] else str, entry[1], entry[2])


def _build(entry: Entry) -> re.Pattern[Any]:
    _, pattern, _, flags, code, groups, groupindex, indexgroup = entry
    compiled: re.Pattern[Any] = _sre.compile(pattern, flags, code, groups, groupindex, indexgroup)
    return compiled


def _entry(key: Key) -> Entry:
    """The engine's arguments for `key`, generated as `re._compiler.compile` does."""
    kind, pattern, flags = key
    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = {str(k): int(v) for k, v in parsed.state.groupdict.items()}
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    return (
        kind is bytes,
        pattern,
        int(flags),
        int(flags | parsed.state.flags),
        [int(c) for c in code],
        int(parsed.state.groups - 1),
        groupindex,
        tuple(indexgroup),
    )


def _eligible(key: object) -> bool:
    if not (isinstance(key, tuple) and len(key) == 3):
        return False
    kind, pattern, flags = key
    return (
        kind in (str, bytes)
        and type(pattern) is kind
        and type(flags) is int
        and not flags & _SKIPPED_FLAGS
    )


def _read(path: Path) -> list[Entry]:
    from caec_desktop.settings.files import read_small_bytes

    data = read_small_bytes(path, MAX_BYTES)
    if data is None:
        return []
    value = marshal.loads(data)
    if not (isinstance(value, tuple) and len(value) == 4 and value[:2] == (FORMAT, build_id())):
        return []
    digest, body = value[2:]
    if not isinstance(body, bytes) or digest != hashlib.sha256(body).hexdigest():
        return []  # changed since it was written (a torn write, a bad disk): not trusted at all
    entries = marshal.loads(body)
    if not isinstance(entries, list):
        return []
    return [tuple(e) for e in entries if isinstance(e, tuple) and len(e) == 8]  # type: ignore[misc]


def _file_bytes(entries: list[Entry]) -> bytes:
    """The file's content: the format, the Python build, the SHA-256 of the entries, the entries."""
    body = marshal.dumps(entries)
    return marshal.dumps((FORMAT, build_id(), hashlib.sha256(body).hexdigest(), body))


def preload(path: Path | None = None) -> int:
    """Put the patterns saved at `path` (default `cache_path()`) in `re`'s cache; how many.

    Never raises: a missing, unreadable or foreign file means nothing is preloaded."""
    if not _SUPPORTED:
        return 0
    try:
        entries = _read(path or cache_path())
    except Exception:  # a damaged file: the patterns are compiled as usual
        log.debug("regex cache not read", exc_info=True)
        return 0
    cache: dict[Key, re.Pattern[Any]] = re._cache  # type: ignore[attr-defined]
    room = re._MAXCACHE - len(cache) - 64  # type: ignore[attr-defined]
    count = 0
    for entry in entries[:MAX_ENTRIES]:
        if count >= room:
            break
        try:
            key = _key(entry)
            if not _eligible(key):
                continue
            # None: compiled already (by another thread, or an import while the file was read)
            compiled = None if key in cache else _build(entry)
        except Exception:  # an entry the engine refuses: that pattern is compiled as usual
            continue
        _loaded.add(key)  # (kept in the file by `save`)
        if compiled is not None:
            cache.setdefault(key, compiled)
            count += 1
    return count


def remember() -> None:
    """Note the patterns compiled so far (the first answer's path): `save` keeps them first."""
    if not _SUPPORTED:
        return
    cache: dict[Key, re.Pattern[Any]] = re._cache  # type: ignore[attr-defined]
    for key, compiled in list(cache.items()):
        if _eligible(key):
            _first.setdefault(key, compiled)


def _choose(current: Iterable[tuple[Key, re.Pattern[Any]]]) -> dict[Key, re.Pattern[Any] | None]:
    """The patterns to save, in order: remembered, then those preloaded (None: its saved entry
    is kept), then the others compiled in this process. So a launch whose first answer needed
    no pattern that is not saved yet leaves the file as it is."""
    chosen: dict[Key, re.Pattern[Any] | None] = dict(_first)
    for key in _loaded:
        chosen.setdefault(key, None)
    for key, compiled in current:
        if _eligible(key):
            chosen.setdefault(key, compiled)
    return dict(list(chosen.items())[:MAX_ENTRIES])


def save(path: Path | None = None) -> int:
    """Save the patterns `remember` noted and those compiled since (up to `MAX_ENTRIES`), when
    some are not in the file yet (`MIN_NEW` when there is one); how many new ones were written
    (0: the file was left as it was). Each new one is checked against `re`'s own compilation
    first; the others are taken from the file as it is now. Never raises."""
    if not _SUPPORTED:
        return 0
    target = path or cache_path()
    cache: dict[Key, re.Pattern[Any]] = re._cache  # type: ignore[attr-defined]
    chosen = _choose(list(cache.items()))
    unsaved = [key for key in chosen if key not in _loaded]
    if not unsaved or (_loaded and len(unsaved) < MIN_NEW):
        return 0
    try:
        saved = {_key(entry): entry for entry in _read(target)}
    except Exception:  # damaged: written anew
        saved = {}
    entries: list[Entry] = []
    new = 0
    for key, compiled in chosen.items():
        entry = saved.get(key)
        if entry is None and compiled is not None:
            try:
                entry = _entry(key)
                if _build(entry) != compiled:  # not exactly what `re` compiled: not saved
                    continue
            except Exception:
                continue
            new += 1
        if entry is not None:
            entries.append(entry)
    if not new:
        return 0
    from caec_desktop.settings.files import write_cache

    if not write_cache(target, _file_bytes(entries)):
        return 0  # no cache: the next launch compiles as usual
    _loaded.update(_key(entry) for entry in entries)
    return new
