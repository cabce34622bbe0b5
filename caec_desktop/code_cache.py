"""Code that `dataclasses` and `typing` generate, compiled once, kept from one launch to the next.

Every `@dataclass` class makes Python write the source of its `__init__`, `__repr__`, `__eq__`,
... and compile it (`dataclasses` `exec`s generated text), and every string annotation pydantic
or `typing` evaluates is compiled first (`typing.ForwardRef`). On the path to the app's first
answer that is ~750 generated functions (pint, flexparser, flexcache, our tools and the offline
reader: ~150 dataclasses) and ~950 annotations (pydantic-core's schema TypedDicts, our models):
100-130 ms of the start-up worker's CPU measured on a loaded 2-core machine (about a fifth of its
first stage), mostly the compiler. The text is the same
from launch to launch, so its code object is too: `install` puts a stand-in for `exec` in
`dataclasses` and for `compile` in `typing` (module globals, found before the builtins) that
compile each text once per process and, from a file `save` wrote after an earlier start-up, take
the code of a text already compiled then (`marshal`, as Python's own `.pyc` files keep code),
~1 µs instead of ~50-130 µs.

Exactness: the stand-ins compile exactly as the call they replace (`exec(text, g, l)` compiles
`text` as file "<string>", mode "exec", with the calling module's `__future__` flags, which
`install` checks are none; `compile(text, "<string>", "eval")` likewise) and then run or return it
the same way; any other call (other arguments, bytes, a code object) goes to the builtin, compiled
with the same (no) flags. `save` keeps a code object only if the one read back from its bytes
equals it (code objects compare their bytecode, constants, names and flags). The file is tied to
the exact Python build (`sys.version`, the bytecode's magic number, `-O`) and carries the SHA-256
of its entries; a file from another build, changed after it was written (a torn write, a bad disk),
unreadable or malformed is not used at all (bytecode is not checked when it runs, so a damaged file
must never be), and everything compiles as before. The file lives in the app's private cache folder
(`settings/paths.py`), written by this user only, as Python's own bytecode caches are.

Only the first stage's texts are saved (`remember`, as regex_cache.py does): the entries the
next launch's first stage needs (~0.6 MB; ~0.9 MB with shiboken's modules, below), read and
checked in ~3-6 ms.

PySide6's import compiles Python sources too, on every launch: shiboken keeps its signature
support package (`shibokensupport`, 14 modules, ~150 kB) in its library as text and compiles
each module from that text when imported (its `signature_bootstrap` and `EmbeddableZipImporter`
call `compile`), 20-35 ms of the GUI thread before the first frame, as no `.pyc` is kept for them.
`main()` imports Qt inside `compiling_from_cache()` (app.import_qt): meanwhile `builtins.compile`
is a stand-in that takes a text's code from the file too, keyed by its text, file name, mode and
compiler flags (the caller's `__future__` flags, which `compile` inherits, included), so the file
is read there, before Qt, and the start-up worker finds it read. Only such texts are kept: what
importlib compiles meanwhile (a module file whose `.pyc` is missing or stale, by its absolute
path) it keeps in the `.pyc` itself.
"""

from __future__ import annotations
import __future__

import builtins
import contextlib
import hashlib
import importlib.util
import logging
import marshal
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

log = logging.getLogger(__name__)

FORMAT = 2
MAX_ENTRIES = 3000
MAX_BYTES = 8 * 1024 * 1024
MIN_NEW = 8
"""A file already read is written again only when at least this many first-stage texts were
missing from it."""

Key = tuple[str, str | bytes, str, int]
"""(mode, source, file name, compiler flags): what was compiled ("exec" for dataclasses'
functions and shiboken's modules, "eval" for annotations; the file name "<string>" and no flags
but for shiboken's)."""

_saved: dict[Key, bytes] = {}
"""The file's entries (marshalled code objects), unmarshalled when first used."""
_compiled: dict[Key, CodeType] = {}
"""Code compiled or read in this process (each text compiled once)."""
_used: set[Key] = set()
"""The file's entries used in this process."""
_first: set[Key] = set()
"""The texts the first stage needed (`remember`): what `save` writes."""
_installed: list[tuple[ModuleType, str]] = []
_kept = [True]
"""Whether code is still kept (until `save`: then it is let go, and texts compile as usual)."""
_read_from: list[Path] = []
"""The file read in this process (`_load`: once)."""

_builtin_compile = builtins.compile

_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _feature = getattr(__future__, _name)
    _mandatory = _feature.getMandatoryRelease()
    if _mandatory is None or _mandatory > sys.version_info:  # still optional: changes compiling
        _FUTURE_FLAGS |= _feature.compiler_flag
del _name, _feature, _mandatory
_INHERITED_FLAGS = 0
"""The flags `compile` takes from its caller's code unless told not to (CPython's `PyCF_MASK`:
every `__future__` feature's)."""
for _feature in map(__future__.__dict__.__getitem__, __future__.all_feature_names):
    _INHERITED_FLAGS |= _feature.compiler_flag
del _feature


def build_id() -> str:
    """The Python build the code belongs to (the file made by another is not used)."""
    parts = (
        sys.implementation.name,
        sys.version,
        importlib.util.MAGIC_NUMBER.hex(),
        sys.flags.optimize,
    )
    return " | ".join(str(p) for p in parts)


def cache_path() -> Path:
    """The file for this Python build, in the app's cache folder."""
    from caec_desktop.settings.paths import cache_dir

    tag = hashlib.sha256(build_id().encode()).hexdigest()[:16]
    return cache_dir() / f"code-{sys.implementation.cache_tag}-{tag}.marshal"


def _code(source: str | bytes, mode: str, filename: str = "<string>", flags: int = 0) -> CodeType:
    """`source` compiled as `filename` in `mode` with `flags` (by default "<string>" with no
    `__future__` flags): from this process, the file, or the compiler."""
    if not _kept[0]:  # start-up is over: as the builtin does
        return _builtin_compile(source, filename, mode, flags, dont_inherit=True)
    key = (mode, source, filename, flags)
    code = _compiled.get(key)
    if code is None:
        data = _saved.get(key)
        if data is not None:
            try:
                loaded = marshal.loads(data)
            except Exception:
                loaded = None
            if type(loaded) is CodeType:
                code = loaded
                _used.add(key)
        if code is None:
            code = _builtin_compile(source, filename, mode, flags, dont_inherit=True)
        if len(_compiled) < MAX_ENTRIES * 4:
            _compiled[key] = code
    return code


def _exec(source: Any, globals: Any = None, locals: Any = None, /, **kwargs: Any) -> None:
    """`exec` for `dataclasses`: a text is compiled by `_code`, then run as `exec` runs it."""
    if globals is None:  # the caller's namespace, as `exec` takes it (not this frame's)
        caller = sys._getframe(1)
        globals = caller.f_globals
        locals = caller.f_locals if locals is None else locals
    if type(source) is str and type(globals) is dict:
        source = _code(source, "exec")
    elif isinstance(source, (str, bytes)):  # compiled as the caller would (no flags inherited)
        source = _builtin_compile(source, "<string>", "exec", dont_inherit=True)
    exec(source, globals, locals, **kwargs)


def _compile(
    source: Any,
    filename: Any,
    mode: Any,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    *args: Any,
    **kwargs: Any,
) -> Any:
    """`compile` for `typing`: `compile(text, "<string>", mode)` is compiled by `_code`."""
    if (
        type(source) is str
        and filename == "<string>"
        and mode in ("eval", "exec")
        and flags == 0
        and optimize == -1
        and not args
        and not kwargs
    ):
        return _code(source, mode)
    # the calling module has no __future__ flags (checked by `install`): none inherited here
    return _builtin_compile(source, filename, mode, flags, True, optimize, *args, **kwargs)


def _any_compile(
    source: Any,
    filename: Any,
    mode: Any,
    flags: int = 0,
    dont_inherit: bool = False,
    optimize: int = -1,
    *args: Any,
    **kwargs: Any,
) -> Any:
    """`builtins.compile` while Qt is imported (`compiling_from_cache`): the text (str or bytes)
    of a module embedded in shiboken's library, named by its path inside it (relative) and
    compiled in "exec" mode with the `__future__` flags of the calling code that `compile`
    inherits (the code that called it, or for a call from C, the Python code running), by
    `_code`; any other call as the builtin. (importlib compiles a module's file, when its `.pyc`
    is missing or stale, by its absolute path and with `dont_inherit`, and keeps the `.pyc`
    itself: not kept here.)"""
    if dont_inherit:
        return _builtin_compile(source, filename, mode, flags, True, optimize, *args, **kwargs)
    flags |= sys._getframe(1).f_code.co_flags & _INHERITED_FLAGS
    if (
        type(source) in (str, bytes)
        and type(filename) is str
        and not os.path.isabs(filename)
        and mode == "exec"
        and not flags & ~_INHERITED_FLAGS  # no AST, no top-level await, ...: plain code
        and optimize == -1
        and not args
        and not kwargs
    ):
        return _code(source, mode, filename, flags)
    return _builtin_compile(source, filename, mode, flags, True, optimize, *args, **kwargs)


@contextlib.contextmanager
def compiling_from_cache(path: Path | None = None) -> Iterator[None]:
    """While inside, `builtins.compile` takes the code of a module's text from the file (read
    first, `_load`) or compiles it once per process: for `main()`'s import of Qt (shiboken's
    embedded sources), before any other thread runs (the builtin is everyone's)."""
    _load(path)
    previous = builtins.compile
    builtins.compile = _any_compile
    try:
        yield
    finally:
        builtins.compile = previous


def _no_future_flags(function: Any) -> bool:
    code = getattr(function, "__code__", None)
    return isinstance(code, CodeType) and not code.co_flags & _FUTURE_FLAGS


def _sites() -> list[tuple[ModuleType, str, Any]]:
    """Where the stand-ins go: (module, builtin's name, stand-in), each only if the module calls
    that builtin by its plain name and compiles with no `__future__` flags."""
    import dataclasses
    import typing

    sites: list[tuple[ModuleType, str, Any]] = []
    if _no_future_flags(dataclasses.dataclass) and "exec" not in vars(dataclasses):
        sites.append((dataclasses, "exec", _exec))
    forward_init = getattr(getattr(typing, "ForwardRef", None), "__init__", None)
    if _no_future_flags(forward_init) and "compile" not in vars(typing):
        sites.append((typing, "compile", _compile))
    return sites


def _read(path: Path) -> dict[Key, bytes]:
    from caec_desktop.settings.files import read_small_bytes

    data = read_small_bytes(path, MAX_BYTES)
    if data is None:
        return {}
    value = marshal.loads(data)
    if not (isinstance(value, tuple) and len(value) == 4 and value[:2] == (FORMAT, build_id())):
        return {}
    digest, body = value[2:]
    if not isinstance(body, bytes) or digest != hashlib.sha256(body).hexdigest():
        return {}  # changed since it was written: not trusted at all
    entries = marshal.loads(body)
    if not isinstance(entries, list):
        return {}
    out: dict[Key, bytes] = {}
    for entry in entries:
        if (
            isinstance(entry, tuple)
            and len(entry) == 5
            and entry[0] in ("exec", "eval")
            and type(entry[1]) in (str, bytes)
            and type(entry[2]) is str
            and type(entry[3]) is int
            and type(entry[4]) is bytes
        ):
            out[entry[:4]] = entry[4]
    return out


Entry = tuple[str, str | bytes, str, int, bytes]
"""A saved text: its key (`Key`) and its code, marshalled."""


def _file_bytes(entries: list[Entry]) -> bytes:
    body = marshal.dumps(entries)
    return marshal.dumps((FORMAT, build_id(), hashlib.sha256(body).hexdigest(), body))


def _load(path: Path | None = None) -> None:
    """Read the file at `path` (default `cache_path()`), once a process. Never raises: without a
    usable file every text is compiled (once)."""
    if _read_from:
        return
    try:
        _read_from.append(path or cache_path())
        _saved.update(_read(_read_from[0]))
        _kept[0] = True
    except Exception:  # a damaged file: everything compiles as before
        log.debug("code cache not read", exc_info=True)
        _saved.clear()


def install(path: Path | None = None) -> int:
    """Put the stand-ins in place and read the file at `path` (default `cache_path()`) unless
    read already (`compiling_from_cache`); how many entries it gave. Never raises: without a
    usable file every text is compiled (once)."""
    if _installed:
        return len(_saved)
    try:
        sites = _sites()
    except Exception:  # pragma: no cover - another implementation
        return 0
    _load(path)
    for module, name, stand_in in sites:
        setattr(module, name, stand_in)
        _installed.append((module, name))
    return len(_saved)


def uninstall() -> None:
    """Take the stand-ins out (the builtins again) and forget what was read and compiled."""
    for module, name in _installed:
        if name in vars(module):
            delattr(module, name)
    _installed.clear()
    _read_from.clear()
    _saved.clear()
    _compiled.clear()
    _used.clear()
    _first.clear()
    _kept[0] = True


def remember() -> None:
    """Note the texts compiled so far (the first stage's): what `save` writes."""
    _first.update(_compiled)


def save(path: Path | None = None) -> int:
    """Write the texts `remember` noted, when some were not in the file read (at least `MIN_NEW`
    when one was); how many new ones were written (0: the file was left as it was). Each code
    object is written only if the one read back from its bytes equals it. Then the code kept
    is let go (~1 kB a text): texts compiled from then on are compiled as usual. Never raises."""
    if not _read_from or not _kept[0]:  # (nothing read, nothing kept: not in use)
        return 0
    try:
        return _save(path)
    finally:
        _kept[0] = False
        _compiled.clear()
        _saved.clear()
        _first.clear()
        _used.clear()


def _save(path: Path | None) -> int:
    new = [key for key in _first if key not in _saved]
    if not new or (_saved and len(new) < MIN_NEW):
        return 0
    entries: list[Entry] = []
    for key in list(_first)[:MAX_ENTRIES]:
        data = _saved.get(key)
        if data is None:
            code = _compiled.get(key)
            if code is None:
                continue
            try:
                data = marshal.dumps(code)
                if marshal.loads(data) != code:  # not exactly this code: not saved
                    continue
            except Exception:
                continue
        entries.append((*key, data))
    from caec_desktop.settings.files import write_cache

    if not write_cache(path or cache_path(), _file_bytes(entries)):
        return 0  # no cache: the next launch compiles as usual
    _saved.update({entry[:4]: entry[4] for entry in entries})
    return len(new)
