"""A sweep run through the session shows in the calculation package as its table (failed points
kept) and in the CSV export, although its trace also holds the `sweep` summary event.

Rayleigh time steps: dt_R = π R sqrt(ρ / G) / (0.1631 ν + 0.8766), G = E / (2 (1 + ν))
(LIGGGHTS fix check/timestep/gran; docs/sweeps.md).
"""

from __future__ import annotations

import asyncio
import csv
import math
from pathlib import Path

from caec_desktop.services.export import export_conversation
from caec_desktop.services.history import HistoryStore
from caec_desktop.services.session import Session
from caec_desktop.settings.model import Settings

GLASS = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}
SWEEP = {"tool": "rayleigh_timestep", "parameter": "particle_radius",
         "values": ["0.5 mm", "-1 mm", "2 mm"], "args": GLASS}  # fmt: skip


def rayleigh(radius: float) -> float:
    return math.pi * radius * math.sqrt(2500 / (70e9 / 2.5)) / (0.1631 * 0.25 + 0.8766)


def test_a_sweep_turn_exports_its_table_and_csv(tmp_path: Path) -> None:
    session = Session(Settings(mode="offline"))

    async def run() -> None:
        async for _ in session.run_tool("sweep", SWEEP):
            pass

    asyncio.run(run())
    turn = session.last_turn
    assert turn is not None and turn.status == "answered"
    assert [e.kind for e in turn.events].count("sweep") == 1
    with HistoryStore(tmp_path / "h.sqlite3") as store:
        cid = store.create_conversation("Sweep")
        store.save_turn(cid, "sweep", turn.model_dump(mode="json", exclude={"events"}),
                        turn.events)  # fmt: skip
        loaded = store.load(cid)
    md = export_conversation(loaded, tmp_path / "r.md").read_text(encoding="utf-8")
    assert "sweep of particle_radius" in md.lower()
    assert "particle_radius = -1 mm" in md and "got -0.001 m" in md  # failed, with its reason
    rows = list(csv.DictReader(
        export_conversation(loaded, tmp_path / "r.csv").read_text(encoding="utf-8").splitlines()
    ))  # fmt: skip
    good = [r for r in rows if not r.get("failed")]
    assert len(good) == 2 and any("must be > 0" in (r.get("failed") or "") for r in rows)
    column = next(k for k in good[0] if k.startswith("rayleigh_timestep"))
    assert float(good[1][column]) == rayleigh(2e-3) or math.isclose(
        float(good[1][column]), rayleigh(2e-3), rel_tol=1e-9
    )
