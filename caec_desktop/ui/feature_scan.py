"""PySide6 runs Python code for every import statement after it; `skip_feature_scan` stops that.

PySide6 supports `from __feature__ import snake_case, true_property`, selectable per module. To
offer it, its import puts its own `builtins.__import__` in place (PySide6 6.11:
shibokensupport/feature.py, signature.cpp's `feature_import`), which runs two Python functions
for every import statement executed from then on: `feature_import` (is this
`from __feature__ import …`?) before the import, and `feature_imported(module)` after it, which
sorts each new module by `inspect.getsource(module)` containing the text "PySide6" (reading and
scanning its source, napari issue #8584 measured the same). That is ~2 µs for an import
statement of a module already imported (~0.4 µs without the hook) and a file read for each new
one; start-up runs ~5,000 import statements and imports ~1,000 modules on the path to the first
answer, and more for LangGraph's import after it.

CAEC never selects a feature (tests/ui/test_feature_scan.py checks its sources), and a module
that selects none sees Qt's own names whatever its mark (PySide6 switches a class's names only
for modules marked with a feature; unmarked modules keep the selection in force, none). So
`skip_feature_scan` puts back the import PySide6 wrapped (`builtins.__orig_import__`: shiboken's
lazy import, which still makes `from PySide6.QtX import *` create every class first). A
`from __feature__ import …` after it selects nothing.
"""

from __future__ import annotations

import builtins


def skip_feature_scan() -> bool:
    """Put back the import PySide6 wrapped (call after importing PySide6); False, and nothing
    changed, if this PySide6 has no such hook (or it is not in place)."""
    original = getattr(builtins, "__orig_import__", None)
    hook = getattr(builtins, "__feature_import__", None)
    if original is None or hook is None or builtins.__import__ is not hook:
        return False
    builtins.__import__ = original
    return True
