"""PySide6 reads the source of every module imported after it; `skip_feature_scan` stops that.

PySide6 supports `from __feature__ import snake_case, true_property`, selectable per module. To
know which modules to switch, it calls `feature_imported(module)` after every import and sorts
the new module by `inspect.getsource(module)` containing the text "PySide6" (0: a PySide user,
switched to no feature; -1: ignored). Reading and scanning each module's source (and keeping its
lines in `linecache`) is ~10 % of the CPU of importing pydantic, pint, the tools and the offline
reader, which start-up does on the path to the first answer, and more for LangGraph's import
after it (PySide6 6.11: shibokensupport/feature.py, `_mod_uses_pyside`; napari issue #8584
measured the same).

CAEC never selects a feature, so every module works with no feature whatever its mark. The
replacement marks a module as a PySide user if its namespace holds a PySide6 module, class or
signal (what `from PySide6… import …` at its top leaves there; told by each value's type, ~5 ms
for all of start-up's modules), else as ignored: the same marks for our modules, without reading
a file. `from __feature__ import …` itself still works (that goes
through `feature_import`, which is left as it is).
"""

from __future__ import annotations

import sys
from types import ModuleType

_FEATURE = "shibokensupport.feature"
_LOADER = "shibokensupport.signature.loader"


def _uses_pyside(module: ModuleType, metatypes: frozenset[type]) -> bool:
    """Whether `module`'s namespace holds a PySide6 module, class or signal (looked at by type
    only: a few ms for all of start-up's modules, and no attribute of a lazy object is read)."""
    for value in list((getattr(module, "__dict__", None) or {}).values()):
        kind = type(value)
        if kind in metatypes:  # a Qt class (QWidget, Qt) or a Signal
            return True
        if kind is ModuleType or kind is type:  # PySide6.QtCore; Slot, Property
            name = value.__name__ if kind is ModuleType else value.__module__
            if isinstance(name, str) and name.startswith(("PySide6", "shiboken6")):
                return True
    return False


def skip_feature_scan() -> bool:
    """Replace PySide6's per-import source scan (call after importing PySide6); False, and
    nothing changed, if this PySide6 has no such scan."""
    feature = sys.modules.get(_FEATURE)
    loader = sys.modules.get(_LOADER)
    marks = getattr(feature, "pyside_feature_dict", None)
    if feature is None or loader is None or not isinstance(marks, dict):
        return False
    if not callable(getattr(feature, "feature_imported", None)):
        return False

    from PySide6.QtCore import QObject, Signal

    metatypes = frozenset({type(QObject), type(Signal)})

    def feature_imported(module: ModuleType) -> None:
        name = getattr(module, "__name__", None)
        if isinstance(name, str) and name not in marks:
            marks[name] = 0 if _uses_pyside(module, metatypes) else -1

    # The C import hook calls the loader's function, which looks up the feature module's each
    # time (and rebinds its own name to it): both are replaced.
    feature.feature_imported = feature_imported  # type: ignore[attr-defined]
    loader.feature_imported = feature_imported  # type: ignore[attr-defined]
    return True
