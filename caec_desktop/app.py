"""`caec-desktop`: the GUI entry point (the window lands with the desktop-window issue)."""

from __future__ import annotations

import sys


def main() -> int:
    """Start the desktop app."""
    print("CAEC Desktop window is not built yet; use `caec` for now.", file=sys.stderr)
    return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
