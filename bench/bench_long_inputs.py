"""Work of the offline reader on long, pathological messages: does it grow linearly with them?

Run: `.venv/bin/python bench/bench_long_inputs.py [--small 1000]`. For each kind of input (a
long number, a run of spaces, a unit repeated, nested brackets, a comma list) it times
`select_text` at `small` and 10 × `small` characters in CPU time of the process
(`time.process_time`, the median of 3 runs, each on a text not read before: the reader caches
parses by text), next to a short ordinary query as the baseline, and prints JSON:

- `<kind>`: `small_ms`, `large_ms` and `growth` = large / small (≈ 10 when the work is linear,
  ≈ 100 when quadratic; below 10 when the text is refused in a constant-time check);
- `baseline_ms`: `rayleigh time step for 1 mm glass beads`;
- `worst_growth`, and `linear` = whether every growth is at most 15.

Give `PYTHONPATH=<a checkout>` to measure another version's reader (docs/values.md, Long input,
has the figures before and after).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import time
from collections.abc import Callable

from caec_desktop.agent.selection.offline.regex_selector import select_text

_fresh = itertools.count(1)
KINDS: dict[str, Callable[[int], str]] = {
    "long_number": lambda n: f"particle mass of a 3 mm steel ball, density {'9' * n} kg/m3",
    "space_run": lambda n: f"particle mass of 3{' ' * n}mm glass",
    "unit_repeated": lambda n: f"particle mass of 3 {'mm ' * (n // 3)}glass",
    "nested_brackets": lambda n: f"particle mass of 3 {'(' * (n // 2)}mm{')' * (n // 2)} glass",
    "comma_list": lambda n: f"rayleigh time step for {'1,' * (n // 2)}2 mm glass",
}


def _cpu_ms(text: str) -> float:
    start = time.process_time()
    select_text(text)
    return (time.process_time() - start) * 1000


def _median(make: Callable[[int], str], n: int) -> float:
    # a different text each run (the size typed before the pathological part), so no cache hit
    return statistics.median(
        _cpu_ms(make(n).replace("3", f"{3 + next(_fresh) / 1000:g}", 1)) for _ in range(3)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--small", type=int, default=1000)
    small = parser.parse_args().small
    select_text("rayleigh time step for 1 mm glass beads")  # imports and caches, unmeasured
    out: dict[str, object] = {
        "baseline_ms": round(_median(lambda _: "rayleigh time step for 3 mm glass beads", 0), 2)
    }
    growths = []
    for kind, make in KINDS.items():
        a, b = _median(make, small), _median(make, 10 * small)
        growth = b / a if a > 0 else float("inf")
        growths.append(growth)
        out[kind] = {"small_ms": round(a, 2), "large_ms": round(b, 2), "growth": round(growth, 1)}
    out["worst_growth"] = round(max(growths), 1)
    out["linear"] = max(growths) <= 15
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
