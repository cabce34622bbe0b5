"""`caec history` and `caec export`: saved conversations listed and written as a package from the
command line, with the exit codes of the CLI contract (0 ok, 2 bad input, never 1)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from caec_desktop.cli import EXIT_INVALID, EXIT_OK, main
from caec_desktop.services.history import HistoryStore
from tests.services.report_fixtures import turns

Capture = pytest.CaptureFixture[str]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "history.sqlite3"
    with HistoryStore(path) as store:
        cid = store.create_conversation("Glass beads")
        for rec in turns():
            store.save_turn(cid, rec.user_text, dict(rec.result))
        store.create_conversation("Empty one")
    return path


def test_history_lists_conversations(db: Path, capsys: Capture) -> None:
    assert main(["history", "--history", str(db), "--json"]) == EXIT_OK
    listed = json.loads(capsys.readouterr().out)
    assert [(c["id"], c["name"], c["turns"]) for c in listed] == [
        (2, "Empty one", 0),
        (1, "Glass beads", 5),
    ]
    assert all(re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", c["updated"]) for c in listed)
    assert main(["history", "--history", str(db)]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["id", "turns", "updated", "name"]
    assert lines[2].split()[:2] == ["1", "5"] and lines[2].endswith("Glass beads")


def test_history_of_a_missing_file_is_bad_input(tmp_path: Path, capsys: Capture) -> None:
    assert main(["history", "--history", str(tmp_path / "none.sqlite3")]) == EXIT_INVALID
    assert "no file" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite3").exists()  # reading never creates a database


def test_export_markdown_with_turns_and_title_block(
    db: Path, tmp_path: Path, capsys: Capture
) -> None:
    out = tmp_path / "pkg.md"
    argv = ["export", "1", "--history", str(db), "-o", str(out), "--turns", "1-3"]
    assert main([*argv, "--project", "Silo", "--job", "J-7", "--author", "A. E."]) == EXIT_OK
    assert capsys.readouterr().out.startswith(f"saved {out} (")
    md = out.read_text(encoding="utf-8")
    assert "| Project | Silo |" in md and "| Job number | J-7 |" in md
    assert "| Turns in this package | 1-3 of 5 |" in md
    assert re.findall(r"^## (\d)\. ", md, re.M) == ["1", "2"]  # turns 1 and 3 computed
    assert "### Turn 2: REFUSED" in md
    # The title block is remembered: a later export without flags keeps it.
    again = tmp_path / "again.html"
    assert main(["export", "1", "--history", str(db), "-o", str(again)]) == EXIT_OK
    page = again.read_text(encoding="utf-8")
    assert "<td>Silo</td>" in page and "<td>J-7</td>" in page
    assert "Turns in this package" in page and "1, 3, 5 of 5" in page  # default: answered


def test_export_csv_of_the_sweep_and_jsonl(db: Path, tmp_path: Path, capsys: Capture) -> None:
    out = tmp_path / "sweep.csv"
    assert main(["export", "1", "--history", str(db), "-o", str(out)]) == EXIT_OK
    header, *rows = out.read_text(encoding="utf-8").splitlines()
    assert header.startswith("calculation,tool,particle_radius [m],rayleigh_timestep [s]")
    assert len(rows) == 4  # three points and the failed one
    trace = tmp_path / "t.txt"
    assert main(["export", "1", "--history", str(db), "--format", "jsonl", "-o", str(trace)]) == 0
    assert trace.exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["export", "9", "-o", "{tmp}/x.md"], "no conversation with id 9"),
        (["export", "1", "-o", "{tmp}/x.md", "--turns", "2-9"], "'2-9' is outside"),
        (["export", "1", "-o", "{tmp}/x.md", "--turns", "x"], "'x' is not a turn number"),
        (["export", "1", "-o", "{tmp}/x.docx"], "'.docx'"),
        (["export", "1", "-o", "{tmp}/missing/x.md"], "does not exist"),
        (["export", "1", "-o", "{tmp}/x.csv", "--turns", "1"], "no sweep table"),
        (["export", "2", "-o", "{tmp}/x.md"], "has no answered calculation"),
    ],
)
def test_export_bad_input_exits_2_with_a_message(
    db: Path, tmp_path: Path, capsys: Capture, argv: list[str], message: str
) -> None:
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main([*args, "--history", str(db)]) == EXIT_INVALID
    err = capsys.readouterr().err
    assert err.startswith("caec export: ") and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["history.sqlite3"] + (
        ["history.sqlite3-shm", "history.sqlite3-wal"]
        if (tmp_path / "history.sqlite3-wal").exists()
        else []
    )


def run_cli(*argv: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys; from caec_desktop.cli import main; rc = main(sys.argv[1:]); "
        "print('QT' if 'PySide6' in sys.modules else 'NOQT', file=sys.stderr); sys.exit(rc)"
    )
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}  # as a shell has it
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=120
    )


def test_qt_is_loaded_only_for_pdf_and_runs_offscreen(db: Path, tmp_path: Path) -> None:
    import pypdf

    md = run_cli("export", "1", "--history", str(db), "-o", str(tmp_path / "p.md"))
    assert md.returncode == 0 and md.stderr.strip() == "NOQT"
    pdf = run_cli(
        "export", "1", "--history", str(db), "-o", str(tmp_path / "p.pdf"), "--turns", "1-5"
    )
    assert pdf.returncode == 0, pdf.stderr
    assert pdf.stderr.strip().endswith("QT")
    text = " ".join(
        " ".join(p.extract_text().split()) for p in pypdf.PdfReader(tmp_path / "p.pdf").pages
    )
    assert "Calculation package — Glass beads" in text and "3.3 Sweep of particle_radius" in text


def test_export_follows_the_saved_display_units(
    db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture
) -> None:
    """A US-preset config writes inches, as the window's export does; --units holds over it for
    this command (docs/sweeps.md: `--units ... --sig` apply to one command)."""
    from caec_desktop.settings.config import save_config

    config = tmp_path / "config"
    monkeypatch.setenv("CAEC_CONFIG_DIR", str(config))
    save_config({"units_preset": "us"}, config)
    out = tmp_path / "us.md"
    assert main(["export", "1", "--history", str(db), "-o", str(out), "--turns", "1"]) == EXIT_OK
    md = out.read_text(encoding="utf-8")
    # the 1 mm radius of turn 1: 1 / 25.4 in = 0.03937 in (4 significant figures)
    assert f"{1 / 25.4:.4g} in" in md and "| 1 mm |" not in md
    mm = tmp_path / "mm.md"
    argv = ["export", "1", "--history", str(db), "-o", str(mm), "--turns", "1"]
    assert main([*argv, "--units", "si_mm_mpa"]) == EXIT_OK
    assert "1 mm" in mm.read_text(encoding="utf-8")
    capsys.readouterr()
