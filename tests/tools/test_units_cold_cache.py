"""The app's own unit spellings hold on the first launch after installing, when pint's disk cache is
still empty (pint then filled its in-memory cache before the app's definitions; `mil` read as the
angular mil, dimensionless, for that launch), and on every launch after. The registry fills that
cache on use only (`units._Registry`): no launch computes it for every unit, saves it or reads it
back (pint dropped the copy it read)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

CODE = (
    "from caec_desktop.tools.units import ureg\n"
    "r = ureg()\n"
    "print(r.Quantity(1, r.parse_units('mil')).to('micrometer').magnitude)\n"
    "print(r.Quantity(1, r.parse_units('pcf')).to('kg/m**3').magnitude)\n"
)


def _launch(cache_home: Path) -> list[str]:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    out = subprocess.run(
        [sys.executable, "-c", CODE],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        timeout=60,
    )
    return out.stdout.split("\n")


@pytest.mark.skipif(sys.platform != "linux", reason="pint's ':auto:' cache follows XDG on Linux")
def test_mil_is_a_thousandth_of_an_inch_cold_and_warm(tmp_path: Path) -> None:
    cold = _launch(tmp_path)
    assert any((tmp_path / "pint").iterdir())  # the first launch did fill pint's disk cache
    warm = _launch(tmp_path)
    for lines in (cold, warm):
        # 1 mil = 0.001 in = 0.001 × 25.4 mm (NIST Handbook 44, Appendix C)
        assert float(lines[0]) == pytest.approx(0.001 * 25.4 * 1000)
        # 1 lb/ft³ = 0.45359237 kg / 0.3048³ m³ (NIST SP 811, Table B.8)
        assert float(lines[1]) == pytest.approx(0.45359237 / 0.3048**3)


@pytest.mark.skipif(sys.platform != "linux", reason="pint's ':auto:' cache follows XDG on Linux")
def test_pints_disk_cache_holds_the_parsed_definitions_and_no_unit_cache(tmp_path: Path) -> None:
    _launch(tmp_path)
    _launch(tmp_path)
    kinds = sorted(
        json.loads(f.read_text())["converter_id"] for f in (tmp_path / "pint").glob("*.json")
    )
    assert kinds == ["parse_file", "parse_file"]  # default_en.txt, constants_en.txt
