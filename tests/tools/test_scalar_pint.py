"""pint without NumPy (tools/scalar_pint.py): loaded so wherever CAEC starts, and the same results.

Each check runs in a fresh interpreter: which pint a process gets is decided by its first import.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

# Everything the tools compute or show with pint: every tool's example (result and calc sheet),
# values read with units, conversions (offset and logarithmic scales too) and display formatting.
RESULTS = r"""
import json, sys
if sys.argv[1] == "numpy-first":
    import numpy  # pint then finds NumPy and keeps its NumPy branch
from caec_desktop.tools import execute, get_tool, tool_names
from caec_desktop.tools.units import fmt, pretty_unit, to_si
import pint.compat

out = {"has_numpy": pint.compat.HAS_NUMPY, "tools": {}, "read": {}, "convert": {}, "fmt": {}}
for name in tool_names():
    out["tools"][name] = execute(name, get_tool(name).example).model_dump(mode="json")
READS = [("1 inch", "m"), ("2.5 mm", "m"), ("70 GPa", "Pa"), ("10 psi", "Pa"), ("1 lbf", "N"),
         ("3 pcf", "kg/m^3"), ("2.5 g/cm^3", "kg/m^3"), ("60 %", ""), ("30 rpm", "rpm"),
         ("0.5 rev/s", "rpm"), ("3 rad/s", "rad/s"), ("20 degC", "K"), ("-40 degF", "K"),
         ("1e-3 ms", "s"), ("5 km/h", "m/s"), ("2 kN/mm", "N/m"), ("1 cP", "Pa*s")]
for text, unit in READS:
    out["read"][f"{text} in {unit}"] = repr(to_si(text, unit))
CONVERSIONS = [(1, "inch", "mm"), (20, "degC", "degF"), (68, "degF", "K"), (1, "psi", "Pa"),
               (1, "atm", "bar"), (20, "dB", "dimensionless"), (3, "neper", "dB"),
               (0.001, "dimensionless", "dB"), (1500, "rpm", "rad/s"), (7.5, "ft", "m"),
               (1, "delta_degC", "delta_degF"), (300, "K", "degC")]
for value, source, target in CONVERSIONS:
    outcome = execute("convert_units", {"value": value, "from_unit": source, "to_unit": target})
    out["convert"][f"{value} {source} -> {target}"] = outcome.model_dump(mode="json")
for value in (1.0232e-6, 2.5e-3, 7.0e10, 1234.5678, 0.5, 3.3e-12):
    for unit in ("s", "m", "Pa", "N", "kg", "m/s", "kg/m^3", ""):
        out["fmt"][f"{value!r} {unit}"] = fmt(value, unit)
out["pretty"] = [pretty_unit(u) for u in ("kg/m^3", "N*s/m", "m^2", "1/s", "Pa*s")]
print(json.dumps(out, sort_keys=True))
"""


def _run(code: str, *args: str) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


@pytest.mark.parametrize(
    "entry",
    [
        "caec_desktop.tools",
        "caec_desktop.tools.units",
        "caec_desktop.agent.report",  # catches pint's errors: imports pint through tools/
        "caec_desktop.agent.selection.offline",
        "caec_desktop.services.session",
        "caec_desktop.cli",
    ],
)
def test_every_entry_point_gets_pint_without_numpy(entry: str) -> None:
    code = (
        f"import sys, {entry}\n"
        "from caec_desktop.tools.units import ureg\n"
        "ureg().Quantity(1.0, 'inch').to('mm')\n"
        "import pint.compat\n"
        "print(pint.compat.HAS_NUMPY, 'numpy' in sys.modules)\n"
    )
    assert _run(code).split() == ["False", "False"]


def test_numpy_is_hidden_from_the_importing_thread_only() -> None:
    """While one thread imports pint, NumPy is refused to it but not to another thread."""
    code = (
        "import sys, threading\n"
        "from caec_desktop.tools import scalar_pint\n"
        "sys.meta_path.insert(0, scalar_pint._NumpyHidden())\n"
        "scalar_pint._hiding.on = True\n"  # as while this thread imports pint
        "got = []\n"
        "try:\n"
        "    import numpy\n"
        "except ModuleNotFoundError:\n"
        "    got.append('refused-here')\n"
        "t = threading.Thread(target=lambda: got.append(__import__('numpy').__name__))\n"
        "t.start(); t.join()\n"
        "print(*got)\n"
    )
    assert _run(code).split() == ["refused-here", "numpy"]


def test_results_are_the_same_as_with_numpy() -> None:
    without: dict[str, Any] = json.loads(_run(RESULTS, "default"))
    with_numpy: dict[str, Any] = json.loads(_run(RESULTS, "numpy-first"))
    assert without.pop("has_numpy") is False
    assert with_numpy.pop("has_numpy") is True  # the comparison is between two different pints
    assert len(without["tools"]) >= 20
    assert all(o["ok"] for o in without["tools"].values())
    assert all(o["ok"] for o in without["convert"].values())
    assert without == with_numpy
