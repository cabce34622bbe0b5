"""The regular expressions kept between launches (caec_desktop/regex_cache.py): a launch saves the
patterns the first answer compiled; the next one gets, from `re.compile`, pattern objects equal to
what `re` compiles (same source, flags and engine code), without compiling them; a file from
another Python build, a damaged file or a refused entry changes nothing; the offline reader reads
every tool's example and the corpus's questions the same with and without them."""

from __future__ import annotations

import hashlib
import importlib
import json
import marshal
import re
from pathlib import Path

import pytest

from caec_desktop import regex_cache
from tests.ui.app_process import run_python, self_test

_compiler = importlib.import_module("re._compiler")  # what `re.compile` calls on a cache miss

QUESTION = "rayleigh time step for 1 mm glass beads"

# A launch's first stage and read-ahead (app.py), then what `_load_engine` does once start-up is
# done: the reader's rarer patterns compiled, the cache saved.
FIRST_LAUNCH = f"""
from caec_desktop import app, regex_cache
from caec_desktop.agent.selection.offline.lazy_re import compile_all
settings, _ = app._prepare("offline")
app.read_ahead({QUESTION!r}, settings)
compile_all()
print(regex_cache.save())
"""

# The next launch: which patterns `re` had to compile during the first stage and read-ahead, and
# by which module; then every preloaded pattern compared with `re`'s own compilation of it.
NEXT_LAUNCH = f"""
import json, re, sys
from re import _compiler
from caec_desktop import app, regex_cache
compiled_by = []
_compile = _compiler.compile
def compile(p, flags=0):
    compiled_by.append(sys._getframe(3).f_globals.get("__name__", "?"))
    return _compile(p, flags)
_compiler.compile = compile
settings, _ = app._prepare("offline")
app.read_ahead({QUESTION!r}, settings)
_compiler.compile = _compile
from caec_desktop.agent.selection.offline import aliases
preloaded = set(regex_cache._loaded)
print(json.dumps({{
    "preloaded": len(preloaded),
    "compiled_by": sorted(set(compiled_by)),
    "unequal": [k[1][:60] for k in preloaded if re._cache.get(k) != _compile(k[1], k[2])],
    "reader_preloaded": (str, aliases.PRE_KEY_RE.pattern, 0) in preloaded,  # (compiled so)
    "served": re.compile(aliases.PRE_KEY_RE.pattern) is aliases.PRE_KEY_RE,
}}))
"""


def test_the_next_launch_compiles_none_of_the_first_answers_patterns(tmp_path: Path) -> None:
    (saved,) = run_python(FIRST_LAUNCH, tmp_path)
    assert int(saved) > 150  # ~200 on the first answer's path, the reader's rarer ones after
    (files,) = [list((tmp_path / "cache").iterdir())]
    assert [f.name for f in files] == [regex_cache.cache_path().name]
    assert files[0].stat().st_mode & 0o077 == 0  # private, as everything the app writes
    (out,) = run_python(NEXT_LAUNCH, tmp_path)
    result = json.loads(out)
    assert result["preloaded"] == int(saved)
    assert result["unequal"] == []
    assert result["reader_preloaded"] and result["served"]
    # Still compiled: only patterns of modules imported while the file is read (json, ...).
    ours = [m for m in result["compiled_by"] if m.startswith(("caec_desktop", "pint", "flexp"))]
    assert ours == []
    again = run_python(FIRST_LAUNCH, tmp_path)
    assert again == ["0"]  # nothing new: the file is left as it was


def test_the_app_saves_them_once_started_and_answers_the_same_with_them(tmp_path: Path) -> None:
    first = self_test(tmp_path)  # waits for the start-up worker's last stage, which saves
    (saved,) = (tmp_path / "cache").glob("regex-*.marshal")
    written = saved.stat().st_mtime_ns
    second = self_test(tmp_path)
    assert "rayleigh_timestep" in first and second == first  # the answer, the same
    assert saved.stat().st_mtime_ns == written  # nothing new to save


READ_EXAMPLES = """
import json
from caec_desktop import regex_cache
print(regex_cache.preload())
from caec_desktop.agent.selection.offline.phrasings import PHRASINGS
from caec_desktop.agent.selection.offline.regex_selector import classify_text, select_text
from tests.agent.corpus import CORPUS
read = {}
for text in [p.example for p in PHRASINGS] + [row.text for row in CORPUS]:
    try:
        read[text] = [classify_text(text), repr(select_text(text))]
    except Exception as exc:
        read[text] = ["refused", type(exc).__name__, str(exc)]
print(json.dumps(read))
"""


def test_the_reader_reads_the_same_with_preloaded_patterns(tmp_path: Path) -> None:
    run_python(FIRST_LAUNCH, tmp_path)
    with_cache = run_python(READ_EXAMPLES, tmp_path)
    (tmp_path / "cache").rename(tmp_path / "other")
    without = run_python(READ_EXAMPLES, tmp_path)
    assert int(with_cache[0]) > 150 and without[0] == "0"
    assert json.loads(with_cache[1]) == json.loads(without[1])
    assert len(json.loads(without[1])) >= 100  # every tool's example, the corpus's questions


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> dict[tuple[type, object, int], re.Pattern[str]]:
    """`re`'s cache emptied for the test (restored after), and the module's own records."""
    monkeypatch.setattr(re, "_cache", {})
    monkeypatch.setattr(regex_cache, "_loaded", set())
    monkeypatch.setattr(regex_cache, "_first", {})
    return re._cache  # type: ignore[attr-defined,no-any-return]


PATTERNS = (r"(?P<number>\d+(?:\.\d+)?)\s*(?P<unit>mm|m)\b", r"[a-z]+", r"(?i:time)\s+step")


def test_saved_patterns_equal_what_re_compiles(tmp_path: Path, fresh: dict[object, object]) -> None:
    path = tmp_path / "regex.marshal"
    originals = [re.compile(p) for p in PATTERNS]
    re.compile(b"[a-z]", re.LOCALE)  # locale-dependent: never saved
    regex_cache.remember()
    assert regex_cache.save(path) == len(PATTERNS)
    fresh.clear()
    regex_cache._loaded.clear()
    assert regex_cache.preload(path) == len(PATTERNS)
    for pattern, original in zip(PATTERNS, originals, strict=True):
        served = re.compile(pattern)
        assert served is fresh[str, pattern, 0]  # from the file, not compiled again
        assert served is not original and served == original == _compiler.compile(pattern, 0)
        assert served.groupindex == original.groupindex and served.groups == original.groups
    assert re.compile(PATTERNS[0]).fullmatch("2.5 mm")["unit"] == "mm"  # type: ignore[index]


def test_an_entry_unlike_res_own_compilation_is_not_saved(
    tmp_path: Path, fresh: dict[object, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    re.compile(PATTERNS[1])
    entry = regex_cache._entry

    def wrong(key: regex_cache.Key) -> regex_cache.Entry:
        made = entry(key)
        return (*made[:4], entry((str, "[0-9]+", 0))[4], *made[5:])  # another pattern's code

    monkeypatch.setattr(regex_cache, "_entry", wrong)
    assert regex_cache.save(tmp_path / "regex.marshal") == 0
    assert not (tmp_path / "regex.marshal").exists()


def _write(path: Path, value: tuple[int, str, list[regex_cache.Entry]]) -> None:
    """A cache file with `value`'s format, build and entries, its digest made as `save` makes it."""
    form, build, entries = value
    body = marshal.dumps(entries)
    path.write_bytes(marshal.dumps((form, build, hashlib.sha256(body).hexdigest(), body)))


def test_a_file_from_another_build_or_damaged_is_not_used(
    tmp_path: Path, fresh: dict[object, object]
) -> None:
    path = tmp_path / "regex.marshal"
    entry = regex_cache._entry((str, PATTERNS[1], 0))
    _write(path, (regex_cache.FORMAT, regex_cache.build_id() + " other", [entry]))
    assert regex_cache.preload(path) == 0
    path.write_bytes(b"\x00not marshal data")
    assert regex_cache.preload(path) == 0
    path.unlink()
    path.mkdir()  # not a file
    assert regex_cache.preload(path) == 0
    assert fresh == {}


def test_a_file_changed_after_it_was_written_is_not_used(
    tmp_path: Path, fresh: dict[object, object]
) -> None:
    path = tmp_path / "regex.marshal"
    good = regex_cache._entry((str, PATTERNS[1], 0))
    _write(path, (regex_cache.FORMAT, regex_cache.build_id(), [good]))
    assert regex_cache.preload(path) == 1  # as written: used
    fresh.clear()
    form, build, digest, _ = marshal.loads(path.read_bytes())
    other = regex_cache._entry((str, "[0-9]+", 0))[4]  # valid code, of another pattern
    changed = marshal.dumps([(*good[:4], other, *good[5:])])
    path.write_bytes(marshal.dumps((form, build, digest, changed)))
    assert regex_cache.preload(path) == 0
    assert fresh == {}
    assert re.compile(PATTERNS[1]) == _compiler.compile(PATTERNS[1], 0)


def test_an_entry_the_engine_refuses_is_compiled_as_usual(
    tmp_path: Path, fresh: dict[object, object]
) -> None:
    path = tmp_path / "regex.marshal"
    good = regex_cache._entry((str, PATTERNS[1], 0))
    bad = regex_cache._entry((str, PATTERNS[2], 0))
    bad = (*bad[:4], [*bad[4][:-3], 9999, 9999, 9999], *bad[5:])  # code the engine rejects
    _write(path, (regex_cache.FORMAT, regex_cache.build_id(), [bad, good]))
    assert regex_cache.preload(path) == 1
    assert list(fresh) == [(str, PATTERNS[1], 0)]
    assert re.compile(PATTERNS[2]) == _compiler.compile(PATTERNS[2], 0)


def test_the_cache_folder_follows_caec_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEC_CACHE_DIR", str(tmp_path))
    assert regex_cache.cache_path().parent == tmp_path
