"""Count how each entry point (offline chat, form fields, `caec run`) does on the blind set of
value writings (tests/value_format_rows.py): right, asked (correctly), silently wrong, wrongly
refused, per class, then the rows that are not right or correctly asked.

    .venv/bin/python scripts/count_value_formats.py
"""

from __future__ import annotations

import collections
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("CAEC_CONFIG_DIR", tempfile.mkdtemp(prefix="caec_count_"))

from tests import value_format_rows as R


def main() -> None:
    every = list(R.TABLES)
    no_temperature = [d for d in every if d != "temperature"]
    entries = {
        "chat": (R.chat_outcome, every),
        "form": (R.form_outcome, no_temperature),
        "cli": (R.cli_outcome, no_temperature),
    }
    for name, (outcome, dims) in entries.items():
        per: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        bad = []
        for dim, cls, text, expect in R.rows(*dims):
            got = outcome(dim, text)
            verdict = R.judge(expect, got)
            per[cls][verdict] += 1
            if verdict in ("wrong", "refused"):
                bad.append((verdict, dim, text, str(got)[:160]))
        kinds = ("right", "asked", "wrong", "refused")
        totals = {k: sum(c[k] for c in per.values()) for k in kinds}
        print("==", name, totals)
        for cls, counts in per.items():
            print("  ", cls, dict(counts))
        for row in bad:
            print("   ", *row)


if __name__ == "__main__":
    main()
