"""What redacting keys costs a query: warm offline `Session.ask` with keys known vs none.

Run: `.venv/bin/python bench/bench_redact.py [--runs 300]`. Prints JSON, in one run:
- `no_key_ms`: median of a warm offline query with no key known (the redactor still looks for
  key-shaped strings everywhere, as it always does);
- `keys_ms`: the same with three keys known (a configured OpenRouter-shaped key and two
  environment tokens), so every string of every event, the answer and the results is also
  searched for every 8-character piece of each key;
- `ratio` = keys / no_key, on CPU time of the thread (target <= 1.15), wall time beside it;
- `redact_text_us`: one call on a typical 120-character event string, none vs three keys.
Runs of the two kinds are interleaved so load from other processes hits both alike.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import secrets
import statistics
import time
from typing import Any

from caec_desktop.services.session import Session
from caec_desktop.settings import redact
from caec_desktop.settings.model import Settings

QUERY = "rayleigh time step for 1 mm glass beads"
RATIO_TARGET = 1.15
_sizes = itertools.count(1)


def next_query() -> str:
    """A size no earlier run used: the regex reader caches parses by text."""
    return QUERY.replace("1 mm", f"{1 + next(_sizes) / 10_000:g} mm")


KEYS = (
    "sk-" + "or-v1-" + secrets.token_hex(32),
    secrets.token_urlsafe(30),
    secrets.token_hex(20),
)


async def time_queries(runs: int, session: Session, keys: tuple[str, ...]) -> tuple[list, list]:
    redact.forget_all()
    redact.remember(*keys)
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.thread_time()
        async for _event in session.ask(next_query()):
            pass
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
        assert session.last_turn is not None and session.last_turn.status == "answered"
    return wall, cpu


def time_text(keys: tuple[str, ...], n: int = 20000) -> float:
    text = "rayleigh_timestep: particle_radius = 0.001 m, density = 2500 kg/m^3 → dt = 1.02e-06 s"
    redact.forget_all()
    redact.remember(*keys)
    t0 = time.perf_counter()
    for _ in range(n):
        redact.redact_text(text)
    return (time.perf_counter() - t0) / n * 1e6


async def main(runs: int) -> dict[str, Any]:
    session = Session(Settings(mode="offline"))
    await time_queries(20, session, ())  # warm-up
    await time_queries(20, session, KEYS)
    none: tuple[list, list] = ([], [])
    keyed: tuple[list, list] = ([], [])
    for _ in range(5):
        for into, keys in ((none, ()), (keyed, KEYS)):
            w, c = await time_queries(runs // 5, session, keys)
            into[0].extend(w)
            into[1].extend(c)
    out: dict[str, Any] = {"runs": len(none[0])}
    for i, clock in enumerate(("wall", "cpu")):
        a, b = statistics.median(none[i]), statistics.median(keyed[i])
        out[clock] = {"no_key_ms": round(a, 3), "keys_ms": round(b, 3), "ratio": round(b / a, 3)}
    out["redact_text_us"] = {"no_key": round(time_text(()), 2), "keys": round(time_text(KEYS), 2)}
    out["target"] = {"cpu_ratio_max": RATIO_TARGET, "met": out["cpu"]["ratio"] <= RATIO_TARGET}
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main(args.runs)), indent=2))
