"""LLM-path overhead per round trip, against the loopback fake server with instant replies.

Compares, in the same run and against the same server, a raw `httpx` POST of an equivalent
request with `LLMSelector.select()` (ChatOpenAI, tool binding, normalisation, tracing). Prints JSON;
target: median overhead ≤ 5 ms. Run: `.venv/bin/python bench/bench_llm.py [--n 200]`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from caec_desktop.agent.selection.llm import make_selector
from caec_desktop.agent.selection.llm.prompts import SYSTEM, openai_tools
from caec_desktop.agent.selection.protocol import SelectionRequest
from caec_desktop.settings.model import Settings
from caec_desktop.tools import tool_list
from tests.llm.fake_server import FakeOpenAI, Reply, tool_call

ARGS = {
    "particle_radius": "1 mm",
    "density": 2500,
    "youngs_modulus": "70 GPa",
    "poisson_ratio": 0.25,
}
TEXT = "Rayleigh time step for 1 mm radius glass beads"


def reply() -> Reply:
    return Reply(
        message={"role": "assistant", "content": None,
                 "tool_calls": [tool_call("rayleigh_timestep", ARGS, "call_1")]},
        usage={"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
        finish_reason="tool_calls",
    )  # fmt: skip


async def raw(client: httpx.AsyncClient, url: str, body: dict[str, Any]) -> float:
    t = time.perf_counter()
    resp = await client.post(url, json=body, headers={"Authorization": "Bearer x"})
    if body["stream"]:
        events = [json.loads(x[6:]) for x in resp.text.split("\n\n") if x.startswith("data: {")]
        assert events
    else:
        data = resp.json()
        json.loads(data["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"])
    return (time.perf_counter() - t) * 1000


async def llm(settings: Settings, selector: Any = None) -> float:
    """One select(); a new selector (new ChatOpenAI) each time unless one is given."""
    selector = selector or make_selector(settings)
    request = SelectionRequest(text=TEXT, history=[], attempt=1, errors=[], emit=lambda k, d: None)
    t = time.perf_counter()
    selection = await selector.select(request)
    assert selection.calls[0].args == ARGS
    return (time.perf_counter() - t) * 1000


async def main(n: int, stream: bool) -> dict[str, Any]:
    with FakeOpenAI() as server:
        settings = Settings(
            mode="local", base_url=server.base_url, model="fake-model", stream=stream
        )
        body = {
            "model": "fake-model",
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": TEXT}],
            "tools": openai_tools(tool_list()),
            "stream": stream,
        }
        url = f"{server.base_url}/chat/completions"
        raw_ms, fresh_ms, reused_ms = [], [], []
        session_selector = make_selector(settings)  # what a Session does: one per conversation
        async with httpx.AsyncClient() as client:
            for i in range(n + 10):  # first 10 of each: warm-up, not counted
                server.add(reply(), reply(), reply())
                r = await raw(client, url, body)
                f = await llm(settings)
                u = await llm(settings, session_selector)
                if i >= 10:
                    raw_ms.append(r)
                    fresh_ms.append(f)
                    reused_ms.append(u)
    raw_med = statistics.median(raw_ms)
    reused_med, fresh_med = statistics.median(reused_ms), statistics.median(fresh_ms)
    return {
        "n": n,
        "stream": stream,
        "raw_httpx_median_ms": round(raw_med, 3),
        "llm_path_median_ms": round(reused_med, 3),
        "overhead_median_ms": round(reused_med - raw_med, 3),
        "llm_path_p90_ms": round(statistics.quantiles(reused_ms, n=10)[-1], 3),
        "new_selector_each_time_median_ms": round(fresh_med, 3),
        "target_overhead_ms": 5.0,
        "within_target": reused_med - raw_med <= 5.0,
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--stream", action="store_true", help="ask for SSE streaming")
    ns = parser.parse_args()
    print(json.dumps(asyncio.run(main(ns.n, ns.stream)), indent=2))
