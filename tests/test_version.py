"""The version is written once, in caec_desktop/__init__.py; the package metadata reads it."""

from __future__ import annotations

import tomllib
from importlib.metadata import metadata, version
from pathlib import Path

import caec_desktop

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_takes_the_version_from_the_package() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"]  # no second copy to forget
    assert "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "caec_desktop.__version__"}


def test_installed_metadata_matches_the_package_version() -> None:
    assert version("caec-desktop") == caec_desktop.__version__


def test_the_license_file_is_mit_as_the_metadata_says() -> None:
    assert metadata("caec-desktop")["License-Expression"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
