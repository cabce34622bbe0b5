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

import pytest

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


def test_both_csvs_are_si_with_each_unit_in_its_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`caec sweep --csv` wrote display units rounded to the display's figures (mm, µs, 4
    figures; inches under --units us) while the package's CSV wrote SI at full precision: one
    sweep gave two files that disagreed. Both now write SI numbers to 15 figures, each column's
    unit in its header, whatever the display units (docs/sweeps.md, "CSV")."""
    import io

    from caec_desktop.cli import main
    from caec_desktop.services.report import TurnRecord, build_package
    from caec_desktop.tools.sweep import run_sweep

    g = 70e9 / (2 * (1 + 0.25))  # dt_R = π R sqrt(ρ/G) / (0.1631 ν + 0.8766), G = E/(2(1+ν))

    def dt_r(radius: float) -> float:
        return math.pi * radius * math.sqrt(2500 / g) / (0.1631 * 0.25 + 0.8766)

    glass = ["density=2500", "youngs_modulus=70 GPa", "poisson_ratio=0.25"]
    assert main(["sweep", "rayleigh_timestep", "particle_radius=0.5,1,2 mm", *glass, "--csv",
                 "--units", "us", "--sig", "3"]) == 0  # fmt: skip
    cli = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    glass_args = {"density": 2500, "youngs_modulus": "70 GPa", "poisson_ratio": 0.25}
    request = {"tool": "rayleigh_timestep", "parameter": "particle_radius",
               "values": ["0.5 mm", "1 mm", "2 mm"], "args": glass_args}  # fmt: skip
    out = run_sweep(request)
    assert out.table is not None
    sweep = {"tool": "sweep", "args": out.request, "result": out.table, "source": "form"}
    record = TurnRecord(1, "sweep", {"status": "answered", "tool_results": [sweep]})
    package = list(csv.DictReader(io.StringIO(build_package("s", [record]).sweep_csv())))
    for rows in (cli, package):
        assert [float(r["particle_radius [m]"]) for r in rows] == pytest.approx([5e-4, 1e-3, 2e-3])
        assert [float(r["rayleigh_timestep [s]"]) for r in rows] == pytest.approx(
            [dt_r(5e-4), dt_r(1e-3), dt_r(2e-3)], rel=1e-13
        )  # every figure, not the display's 3
    for name in ("particle_radius [m]", "rayleigh_timestep [s]"):
        assert [r[name] for r in cli] == [r[name] for r in package]  # the same text, too
