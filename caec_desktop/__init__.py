"""CAEC Desktop: trustworthy DEM set-up calculations, traced end to end."""

from __future__ import annotations

__version__ = "0.1.0"
"""The version, kept here only: pyproject.toml reads it (`[tool.setuptools.dynamic]`)."""
