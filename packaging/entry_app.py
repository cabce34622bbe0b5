"""Frozen entry point of the window (`caec-desktop`); PyInstaller needs a script, not a module."""

from __future__ import annotations

import sys

from caec_desktop.app import main

if __name__ == "__main__":
    sys.exit(main())
