"""Frozen entry point of the headless command (`caec`), shipped beside the window."""

from __future__ import annotations

import sys

from caec_desktop.cli import main

if __name__ == "__main__":
    sys.exit(main())
