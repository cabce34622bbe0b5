"""`python -m caec_desktop ...`: the headless `caec` command, for when the script is not on PATH."""

from __future__ import annotations

import sys

from caec_desktop.cli import main

sys.exit(main())
