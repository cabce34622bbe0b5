"""`app.import_in_steps`: a package imported a group of submodules per step (main() does asyncio
so, between Qt's event turns) ends up as a plain import makes it; a failing step leaves no
half-made package behind."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from caec_desktop.app import ASYNCIO_PARTS, import_in_steps

PKG = "caec_steps_pkg"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A package whose `__init__` imports its submodules `a` and `b` (b uses a)."""
    root = tmp_path / PKG
    root.mkdir()
    (root / "__init__.py").write_text("from .a import A\nfrom .b import B\nRAN = True\n")
    (root / "a.py").write_text("A = 'a'\n")
    (root / "b.py").write_text("from .a import A\nB = A + 'b'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield root
    for key in [k for k in sys.modules if k == PKG or k.startswith(f"{PKG}.")]:
        del sys.modules[key]


def test_each_step_imports_its_submodules_and_the_last_runs_the_package(package: Path) -> None:
    begin, first, absent, second, finish = import_in_steps(PKG, [("a",), ("nope",), ("b",)])
    begin()
    assert PKG in sys.modules and not hasattr(sys.modules[PKG], "RAN")  # not run yet
    first()
    assert f"{PKG}.a" in sys.modules and f"{PKG}.b" not in sys.modules
    absent()  # a submodule this version lacks is skipped
    second()
    assert f"{PKG}.b" in sys.modules and not hasattr(sys.modules[PKG], "RAN")
    finish()
    import caec_steps_pkg as pkg  # type: ignore[import-not-found]

    assert pkg.RAN is True and pkg.B == "ab"
    assert pkg.a is sys.modules[f"{PKG}.a"] and pkg.A == "a"


def test_a_failing_step_leaves_no_half_made_package_and_the_import_fails_as_plainly(
    package: Path,
) -> None:
    (package / "b.py").write_text("raise RuntimeError('broken b')\n")
    begin, first, second, finish = import_in_steps(PKG, [("a",), ("b",)])
    begin()
    first()
    with pytest.raises(RuntimeError, match="broken b"):
        second()
    assert not [k for k in sys.modules if k == PKG or k.startswith(f"{PKG}.")]
    with pytest.raises(RuntimeError, match="broken b"):
        finish()  # a plain import now: it fails as it would have
    assert PKG not in sys.modules


def test_a_package_imported_already_is_left_as_it_is(package: Path) -> None:
    import caec_steps_pkg as pkg

    for step in import_in_steps(PKG, [("a",), ("b",)]):
        step()
    assert sys.modules[PKG] is pkg


def test_asyncio_in_steps_is_the_asyncio_of_a_plain_import() -> None:
    # In fresh interpreters: one imports asyncio plainly, the other as main() does.
    show = (
        "import asyncio, json, sys\n"
        "async def f():\n    await asyncio.sleep(0)\n    return 3\n"
        "print(json.dumps({'all': sorted(asyncio.__all__), 'run': asyncio.run(f()),\n"
        "  'modules': sorted(k for k in sys.modules if k.startswith('asyncio'))}))\n"
    )
    steps = (
        "from caec_desktop.app import ASYNCIO_PARTS, import_in_steps\n"
        "for step in import_in_steps('asyncio', ASYNCIO_PARTS):\n    step()\n"
    )
    plain, stepped = (
        json.loads(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True
            ).stdout
        )
        for code in (show, steps + show)
    )
    assert stepped == plain and plain["run"] == 3
    named = {f"asyncio.{sub}" for group in ASYNCIO_PARTS for sub in group}
    assert named <= set(plain["modules"])  # every part named is one asyncio has
