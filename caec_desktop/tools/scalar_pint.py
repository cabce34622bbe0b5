"""pint imported without its NumPy layer: every quantity CAEC converts is one Python float.

pint's compatibility module imports NumPy whenever it is installed (pyqtgraph, which draws the
sweep plots, brings it), to handle arrays of magnitudes; that import is ~0.1 s of CPU on the path
to the first answer, and we never hand pint an array or a list. `import_pint()` imports pint with
NumPy hidden from that probe, so pint takes its pure-Python branch (`pint.compat.HAS_NUMPY` is
False, its exp and log are `math`'s): the same results for scalars, checked for every tool's
example and a spread of conversions by tests/tools/test_scalar_pint.py against a pint that has
NumPy.

Importing this module imports pint so, and `caec_desktop/tools/__init__.py` imports it before any
tool module: the app, `caec` and the tests all get the same pint. NumPy is hidden only from the
thread importing pint and only while it does (a thread importing NumPy meanwhile gets it), and
only if pint is not imported yet. Had NumPy been imported before pint, pint's probe would find it
in `sys.modules` and keep its NumPy branch (the same results, see the test above).
"""

from __future__ import annotations

import importlib
import sys
import threading
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

_hiding = threading.local()


class _NumpyHidden:
    """A meta path finder that says NumPy is not installed, to the hiding thread only."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if getattr(_hiding, "on", False) and (fullname == "numpy" or fullname.startswith("numpy.")):
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None  # not ours to find: the next finder looks


def import_pint() -> ModuleType:
    """pint, imported now (once) with NumPy hidden from its compatibility probe."""
    if "pint" in sys.modules:
        return sys.modules["pint"]
    finder = _NumpyHidden()
    sys.meta_path.insert(0, finder)
    _hiding.on = True
    try:
        return importlib.import_module("pint")
    finally:
        _hiding.on = False
        sys.meta_path.remove(finder)


pint = import_pint()
