"""The tool catalog imports a tool's module when the tool is first looked up (tools/catalog.py):
the desktop app's first answer imports the one its question names, the start-up worker the rest
after it. Each entry names its tool, in display order, and points to that tool's spec."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from caec_desktop.tools import catalog, get_tool, tool_groups, tool_names
from caec_desktop.tools.registry import all_loaded, load_all

IN_A_FRESH_PROCESS = """
import json, sys
from caec_desktop.tools import catalog, get_tool, tool_names
from caec_desktop.tools.registry import all_loaded, load_all
modules = {f"caec_desktop.tools.{m}" for _, m, _ in catalog.ENTRIES}
loaded = lambda: sorted(m.rsplit(".", 1)[1] for m in modules & set(sys.modules))
out = {"names": tool_names(), "after_names": loaded(), "all_loaded": all_loaded()}
out["spec"] = get_tool("particle_mass").name
out["after_one"] = loaded()
load_all()
out["after_all"], out["all_loaded_after"] = loaded(), all_loaded()
print(json.dumps(out))
"""


def test_a_tool_s_module_is_imported_when_the_tool_is_first_looked_up() -> None:
    run = subprocess.run(
        [sys.executable, "-c", IN_A_FRESH_PROCESS], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr[-2000:]
    out = json.loads(run.stdout)
    assert out["names"] == list(catalog.NAMES) and len(out["names"]) >= 25
    assert out["after_names"] == [] and not out["all_loaded"]  # listing names imports none
    assert out["spec"] == "particle_mass"
    # its module (and what that imports: packing uses wall's correction), not the other ~17
    assert "packing" in out["after_one"] and len(out["after_one"]) <= 3
    assert out["after_all"] == sorted({m for _, m, _ in catalog.ENTRIES})
    assert out["all_loaded_after"]


def test_each_entry_points_to_its_own_tool_in_display_order() -> None:
    load_all()
    assert all_loaded()
    for name, module, attribute in catalog.ENTRIES:
        spec = get_tool(name)
        assert spec.name == name
        assert getattr(sys.modules[f"caec_desktop.tools.{module}"], attribute) is spec
    assert [n for names in tool_groups().values() for n in names] == tool_names()


def test_an_entry_pointing_to_another_tool_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(catalog._WHERE, "particle_mass", ("timestep", "RAYLEIGH_TIMESTEP"))
    with pytest.raises(ValueError, match="'particle_mass' points to the tool 'rayleigh_timestep'"):
        catalog.load("particle_mass")


def test_an_unknown_tool_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="unknown tool 'no_such_tool'; known tools: rayleigh"):
        get_tool("no_such_tool")
