"""A sweep in exports: its whole table (display units, failed points kept), its CSV and its plot.

Rayleigh time steps: dt_R = π R sqrt(ρ / G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν))
(LIGGGHTS fix check/timestep/gran; docs/sweeps.md).
"""

from __future__ import annotations

import csv
import math
import xml.dom.minidom
from pathlib import Path
from typing import Any

from caec_desktop.services.export import build_report, export_conversation
from caec_desktop.services.history import HistoryStore
from caec_desktop.tools.sweep import run_sweep

GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}


def sweep_turn() -> dict[str, Any]:
    out = run_sweep({"tool": "rayleigh_timestep", "parameter": "particle_radius",
                     "values": ["0.5 mm", "-1 mm", "2 mm"], "args": GLASS,
                     "threshold": "2e-7 s"})  # fmt: skip
    assert out.ok
    entry = {"tool": "sweep", "args": out.request, "result": out.table, "calc_sheet": None,
             "source": "regex", "arg_sources": {}}  # fmt: skip
    return {"answer": "a sweep", "tool_results": [entry], "status": "answered",
            "mode": "offline", "model": "regex"}  # fmt: skip


def test_markdown_export_writes_the_table_the_csv_and_the_plot(tmp_path: Path) -> None:
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation("Sweep")
        store.save_turn(cid, "rayleigh for r = 0.5, -1, 2 mm glass", sweep_turn(), [])
        md = export_conversation(store.load(cid), tmp_path / "r.md").read_text(encoding="utf-8")
    assert "![sweep 1](r-sweep-1.svg)" in md and "(r-sweep-1.csv)" in md
    assert "| particle_radius [mm] | rayleigh_timestep [µs] |" in md
    assert "FAILED: particle_radius: must be > 0" in md
    rows = list(csv.reader((tmp_path / "r-sweep-1.csv").read_text(encoding="utf-8").splitlines()))
    assert rows[0][:2] == ["particle_radius [mm]", "rayleigh_timestep [µs]"]
    g = 70e9 / 2.5
    dt = math.pi * 2e-3 * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)
    assert rows[3][:2] == ["2", f"{dt * 1e6:.4g}"]
    svg = xml.dom.minidom.parse(str(tmp_path / "r-sweep-1.svg"))  # well-formed
    texts = [n.firstChild.data for n in svg.getElementsByTagName("text") if n.firstChild]
    assert "particle_radius [mm]" in texts and "rayleigh_timestep [µs]" in texts
    assert {"ok", "caution", "fail"} & set(texts)


def test_html_export_has_the_plot_inline() -> None:
    page = build_report("t", [("sweep", sweep_turn())]).html()
    assert "<svg" in page and "<polyline" in page
    assert "FAILED: particle_radius: must be &gt; 0" in page
