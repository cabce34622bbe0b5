"""The generated code kept between launches (caec_desktop/code_cache.py): a launch saves the code
`dataclasses` and `typing` compiled on the way to the first answer; the next one takes it from the
file instead of compiling it, and it equals what the compiler makes; a file from another Python
build, a damaged file or an entry that is not code changes nothing; the offline reader reads, and
every tool computes, every tool's example and the corpus's questions the same with and without
it."""

from __future__ import annotations
import __future__

import ast
import builtins
import dataclasses
import hashlib
import json
import marshal
import typing
from collections.abc import Iterator
from pathlib import Path

import pytest

from caec_desktop import code_cache
from tests.ui.app_process import run_python, self_test

QUESTION = "rayleigh time step for 1 mm glass beads"

# A launch's first stage and read-ahead (app.py), then the save `_load_engine` does once
# start-up is done.
FIRST_LAUNCH = f"""
from caec_desktop import app, code_cache
settings, _ = app._prepare("offline")
app.read_ahead({QUESTION!r}, settings)
print(code_cache.save())
"""

# The next launch: how much of the first stage's code was compiled rather than read, and every
# code object read from the file compared with the compiler's own.
NEXT_LAUNCH = f"""
import json
from caec_desktop import app, code_cache
settings, _ = app._prepare("offline")
app.read_ahead({QUESTION!r}, settings)
needed = code_cache._first
print(json.dumps({{
    "needed": len(needed),
    "read": len(code_cache._used),
    "compiled": len(needed - code_cache._used),
    "unequal": [s[:80] for m, s, f, fl in code_cache._used
                if code_cache._compiled[m, s, f, fl] != compile(s, f, m, fl, dont_inherit=True)],
}}))
"""


def test_the_next_launch_compiles_none_of_the_first_stages_generated_code(tmp_path: Path) -> None:
    (saved,) = run_python(FIRST_LAUNCH, tmp_path)
    assert int(saved) > 500  # ~800: pint's, pydantic-core's, the tools' and the reader's
    (files,) = [list((tmp_path / "cache").glob("code-*"))]
    assert [f.name for f in files] == [code_cache.cache_path().name]
    assert files[0].stat().st_mode & 0o077 == 0  # private, as everything the app writes
    (out,) = run_python(NEXT_LAUNCH, tmp_path)
    result = json.loads(out)
    assert result["needed"] == int(saved)
    assert result["read"] == int(saved) and result["compiled"] == 0
    assert result["unequal"] == []
    again = run_python(FIRST_LAUNCH, tmp_path)
    assert again == ["0"]  # nothing new: the file is left as it was


def test_the_app_saves_it_once_started_and_answers_the_same_with_it(tmp_path: Path) -> None:
    first = self_test(tmp_path)  # waits for the start-up worker's last stage, which saves
    (saved,) = (tmp_path / "cache").glob("code-*.marshal")
    written = saved.stat().st_mtime_ns
    second = self_test(tmp_path)
    assert "rayleigh_timestep" in first and second == first  # the answer, the same
    assert saved.stat().st_mtime_ns == written  # nothing new to save


READ_EXAMPLES = """
import json
from caec_desktop import code_cache
print(code_cache.install())
from caec_desktop.agent.selection.offline.phrasings import PHRASINGS
from caec_desktop.agent.selection.offline.regex_selector import classify_text, select_text
from caec_desktop.tools import execute
from tests.agent.corpus import CORPUS
read = {}
for text in [p.example for p in PHRASINGS] + [row.text for row in CORPUS]:
    try:
        selection = select_text(text)
        runs = [execute(c.name, c.args).model_dump(mode="json") for c in selection.calls]
        read[text] = [classify_text(text), repr(selection), runs]
    except Exception as exc:
        read[text] = ["refused", type(exc).__name__, str(exc)]
print(json.dumps(read))
"""


def test_the_reader_and_the_tools_answer_the_same_with_the_saved_code(tmp_path: Path) -> None:
    run_python(FIRST_LAUNCH, tmp_path)
    with_cache = run_python(READ_EXAMPLES, tmp_path)
    (tmp_path / "cache").rename(tmp_path / "other")
    without = run_python(READ_EXAMPLES, tmp_path)
    assert int(with_cache[0]) > 500 and without[0] == "0"
    assert json.loads(with_cache[1]) == json.loads(without[1])
    answers = json.loads(without[1])
    assert len(answers) >= 100  # every tool's example, the corpus's questions
    assert sum(bool(a[2]) for a in answers.values() if a[0] != "refused") >= 50  # computed


@pytest.fixture
def fresh() -> Iterator[None]:
    """The module's records emptied and its stand-ins out, before and after the test."""
    code_cache.uninstall()
    yield
    code_cache.uninstall()


SOURCE = "def __create_fn__():\n def f(self, x):\n  return (self, x)\n return f"


def _write(path: Path, build: str, entries: list[code_cache.Entry]) -> None:
    """A cache file with `build` and `entries`, its digest made as `save` makes it."""
    body = marshal.dumps(entries)
    path.write_bytes(
        marshal.dumps((code_cache.FORMAT, build, hashlib.sha256(body).hexdigest(), body))
    )


def _point() -> typing.Any:
    @dataclasses.dataclass(frozen=True)
    class Point:
        x: float
        y: float = 2.0
        tags: list[str] = dataclasses.field(default_factory=list, hash=False)

    return Point


def test_saved_code_equals_what_python_compiles_and_dataclasses_work_with_it(
    tmp_path: Path, fresh: None
) -> None:
    path = tmp_path / "code.marshal"
    assert code_cache.install(path) == 0  # no file yet
    assert dataclasses.exec is code_cache._exec and typing.compile is code_cache._compile  # type: ignore[attr-defined]

    _point()
    hint = typing.ForwardRef("dict[str, int] | None")
    code_cache.remember()
    saved = dict(code_cache._compiled)
    assert code_cache.save(path) == len(saved) >= 5  # __init__, __repr__, __eq__, __hash__, ...
    assert code_cache._compiled == {}  # let go once saved: compiled as usual from then on
    assert code_cache._code("1", "eval") == compile("1", "<string>", "eval", dont_inherit=True)
    assert code_cache._compiled == {} and code_cache.save(path) == 0
    code_cache.uninstall()
    assert not hasattr(dataclasses, "exec") or dataclasses.exec is not code_cache._exec
    assert code_cache.install(path) == len(saved)

    Point = _point()  # the same class again: its code from the file
    assert code_cache._used  # read, not compiled
    for key in code_cache._used:
        mode, source, filename, flags = key
        assert (filename, flags) == ("<string>", 0)
        assert code_cache._compiled[key] == saved[key]
        assert saved[key] == compile(source, filename, mode, dont_inherit=True)
    p = Point(1.0)
    assert (p.x, p.y, p.tags) == (1.0, 2.0, []) and p == Point(1.0, 2.0, [])
    assert repr(p).endswith("Point(x=1.0, y=2.0, tags=[])") and hash(p) == hash(Point(1.0))
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 3.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        Point()  # type: ignore[call-arg]
    assert typing.ForwardRef("dict[str, int] | None") == hint
    assert typing.get_type_hints(Point)["x"] is float


def test_the_stand_ins_do_what_the_builtins_do(fresh: None) -> None:
    code_cache.install(Path("/nonexistent/code.marshal"))
    namespace: dict[str, object] = {}
    code_cache._exec("y = 6 * 7", namespace)
    assert namespace["y"] == 42
    here = 1
    code_cache._exec("here = 2")  # no namespace: the caller's, as `exec` takes it
    assert here == 1  # (a function's locals are a snapshot, as with `exec`)
    code = code_cache._compile("1 + 1", "<string>", "eval")
    assert eval(code) == 2 and code == compile("1 + 1", "<string>", "eval", dont_inherit=True)
    assert code_cache._compile("1 + 1", "<string>", "eval") is code  # compiled once
    other = code_cache._compile("x: int", "<other>", "exec")  # another file name: the builtin's
    assert other.co_filename == "<other>" and not code_cache._compiled.keys() & {
        ("exec", "x: int", "<other>", 0),
        ("exec", "x: int", "<string>", 0),
    }
    with pytest.raises(SyntaxError):
        code_cache._compile("not an expression (", "<string>", "eval")
    # The generated text compiles without this module's `from __future__ import annotations`.
    with pytest.raises(NameError):  # the annotation evaluated at once, not kept as a string
        code_cache._exec("def f(x: undefined_name): pass", namespace)


def test_a_file_from_another_build_damaged_or_changed_is_not_used(
    tmp_path: Path, fresh: None
) -> None:
    path = tmp_path / "code.marshal"
    good = marshal.dumps(compile(SOURCE, "<string>", "exec", dont_inherit=True))
    _write(path, code_cache.build_id() + " other", [("exec", SOURCE, "<string>", 0, good)])
    assert code_cache.install(path) == 0
    code_cache.uninstall()
    path.write_bytes(b"\x00not marshal data")
    assert code_cache.install(path) == 0
    code_cache.uninstall()
    _write(path, code_cache.build_id(), [("exec", SOURCE, "<string>", 0, good)])
    assert code_cache.install(path) == 1  # as written: used
    code_cache.uninstall()
    form, build, digest, _ = marshal.loads(path.read_bytes())
    another = SOURCE.replace("return (self, x)", "return x")
    other = marshal.dumps(compile(another, "<string>", "exec", dont_inherit=True))
    path.write_bytes(
        marshal.dumps(
            (form, build, digest, marshal.dumps([("exec", SOURCE, "<string>", 0, other)]))
        )
    )
    assert code_cache.install(path) == 0  # valid code, of another text: never run
    code_cache.uninstall()
    path.unlink()
    path.mkdir()  # not a file
    assert code_cache.install(path) == 0
    namespace: dict[str, typing.Any] = {}
    code_cache._exec(SOURCE, namespace)
    assert namespace["__create_fn__"]()("s", 1) == ("s", 1)  # compiled as usual


def test_an_entry_that_is_not_code_is_compiled_as_usual(tmp_path: Path, fresh: None) -> None:
    path = tmp_path / "code.marshal"
    _write(
        path,
        code_cache.build_id(),
        [("exec", SOURCE, "<string>", 0, marshal.dumps(("not", "code")))],
    )
    assert code_cache.install(path) == 1
    namespace: dict[str, typing.Any] = {}
    code_cache._exec(SOURCE, namespace)
    assert namespace["__create_fn__"]()("s", 1) == ("s", 1)
    assert not code_cache._used


def test_nothing_is_put_in_place_where_a_module_compiles_with_future_flags(
    monkeypatch: pytest.MonkeyPatch, fresh: None
) -> None:
    def annotated() -> None: ...  # this module has `from __future__ import annotations`

    monkeypatch.setattr(dataclasses, "dataclass", annotated)
    code_cache.install(Path("/nonexistent/code.marshal"))
    assert "exec" not in vars(dataclasses)
    assert typing.compile is code_cache._compile  # type: ignore[attr-defined]
    assert builtins.compile is not code_cache._compile


def test_the_cache_folder_follows_caec_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CAEC_CACHE_DIR", str(tmp_path))
    assert code_cache.cache_path().parent == tmp_path


MODULE = "x: undefined_name\ny = 6 * 7\n"


def test_while_qt_imports_compile_takes_a_modules_code_from_the_file_with_its_callers_flags(
    tmp_path: Path, fresh: None
) -> None:
    """shiboken compiles its embedded modules with `compile(text, name, "exec")` (app.import_qt);
    inside `compiling_from_cache` that code comes from the file once saved, compiled as the
    builtin would: with the `__future__` flags of the calling code (this module's annotations)."""
    path = tmp_path / "code.marshal"
    builtin = builtins.compile
    with code_cache.compiling_from_cache(path):
        assert builtins.compile is not builtin
        code = compile(MODULE, "pkg/mod.py", "exec")
        tree = compile(MODULE, "pkg/mod.py", "exec", ast.PyCF_ONLY_AST)  # not code: the builtin's
        # importlib compiling a module's file (no .pyc yet): left to the builtin, not kept
        plain = compile(b"z = 1\n", "/site/pkg/other.py", "exec", dont_inherit=True)
        absolute = compile(b"z = 2\n", "/site/pkg/third.py", "exec")
    assert builtins.compile is builtin
    expected = builtin(MODULE, "pkg/mod.py", "exec", __future__.annotations.compiler_flag, True)
    assert code == expected and code.co_filename == "pkg/mod.py"
    assert isinstance(tree, ast.Module)
    assert plain == builtin(b"z = 1\n", "/site/pkg/other.py", "exec", dont_inherit=True)
    assert absolute.co_filename == "/site/pkg/third.py"
    assert [key[2] for key in code_cache._compiled] == ["pkg/mod.py"]
    namespace: dict[str, object] = {}
    exec(code, namespace)  # the annotation kept as text, as with the builtin: no NameError
    assert namespace["y"] == 42 and namespace["__annotations__"] == {"x": "undefined_name"}
    code_cache.remember()
    assert code_cache.save(path) == 1
    code_cache.uninstall()

    with code_cache.compiling_from_cache(path):  # the next launch
        again = compile(MODULE, "pkg/mod.py", "exec")
        elsewhere = compile(MODULE, "pkg/elsewhere.py", "exec")  # another name: compiled
    assert again == expected and again.co_filename == "pkg/mod.py"
    assert elsewhere.co_filename == "pkg/elsewhere.py"
    flags = __future__.annotations.compiler_flag
    assert code_cache._used == {("exec", MODULE, "pkg/mod.py", flags)}
