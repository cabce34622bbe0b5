"""A small local model behind an OpenAI-compatible server: how often does a turn get an answer?

Run against a server you started (e.g. `scripts/local-model` prints the command for llama.cpp's):

    .venv/bin/python bench/bench_local_model.py --base-url http://127.0.0.1:8000/v1 \
        [--styles native,prompt] [--variants narrowed,all_tools] [--out turns.jsonl]

For the issue's 6 questions, per tool-call style and variant (`narrowed`: the tools the offline
reader ranks highest, with replies constrained to a JSON Schema where the server offers it — the
default; `unconstrained`: narrowed, without `response_format`; `all_tools`: every tool, no
constraint — the baseline before both), it prints
JSON with: the share of turns answered by the model's own validated call, the share answered by
the offline safety net, the share refused, the share ending with a clear message, the median
prompt tokens per turn and the median seconds per turn; and the narrowed/all-tools ratios of
prompt tokens and seconds. Also counted: turns that computed with a model-supplied input (must be
0). Each turn is bounded by the request timeout (`--timeout`, no retries). Every finished turn is
appended to `--out` as it ends, so a long run leaves figures even when stopped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

QUESTIONS = (
    "convert 2.5 mm to m",
    "rayleigh time step for 1 mm glass beads",
    "how many 2 mm particles fit in a 100 mm by 100 mm by 100 mm box",
    "what can you do?",
    "hertz contact time for r=1 mm steel at 2 m/s",
    "what is the stress in a glass bead under 10 N?",
)


async def one_turn(settings: Any, question: str) -> dict[str, Any]:
    from caec_desktop.services.session import Session

    session = Session(settings)
    t0 = time.perf_counter()
    try:
        async for _ in session.ask(question):
            pass
    finally:
        await session.aclose()
    seconds = time.perf_counter() - t0
    turn = session.last_turn
    assert turn is not None
    borrowed = [
        name
        for r in turn.tool_results
        for name, source in (r.get("arg_sources") or {}).items()
        if source == "model"
    ]
    return {
        "question": question,
        "status": turn.status,
        "path": turn.path,
        "attempts": turn.attempts,
        "prompt_tokens": int(turn.usage.get("prompt_tokens", 0)),
        "seconds": round(seconds, 2),
        "borrowed_inputs_computed": borrowed,
        "requests": [  # each model request: what for, seconds, prompt tokens
            [
                e.data.get("purpose"),
                round(e.data.get("duration_ms", 0) / 1000, 1),
                (e.data.get("usage") or {}).get("prompt_tokens"),
            ]
            for e in turn.events
            if e.kind == "llm_response" and "duration_ms" in e.data
        ],
        "rejected": [
            {"tool": e["tool"], "args": e["args"], "messages": e["messages"]} for e in turn.errors
        ],
        "answer_start": turn.answer[:160],
    }


def summary(turns: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(turns) or 1

    def share(pred: Any) -> float:
        return round(sum(1 for t in turns if pred(t)) / n, 3)

    return {
        "turns": len(turns),
        "model_call_share": share(lambda t: t["path"] == "model"),
        "safety_net_share": share(lambda t: t["path"] == "safety_net"),
        "refused_share": share(lambda t: t["status"] == "refused"),
        "help_or_message_share": share(lambda t: t["path"] == "none" and t["status"] != "refused"),
        "median_prompt_tokens": statistics.median([t["prompt_tokens"] for t in turns] or [0]),
        "median_seconds": statistics.median([t["seconds"] for t in turns] or [0]),
        "max_seconds": max([t["seconds"] for t in turns] or [0]),
        "borrowed_inputs_computed": sum(len(t["borrowed_inputs_computed"]) for t in turns),
    }


async def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base-url", required=True)
    ap.add_argument("--model", default="")
    ap.add_argument("--styles", default="native,prompt")
    ap.add_argument("--variants", default="narrowed,all_tools")
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--questions", type=int, default=len(QUESTIONS))
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)

    from caec_desktop.settings.model import Settings

    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory():
        for style in args.styles.split(","):
            for variant in args.variants.split(","):
                settings = Settings(
                    mode="local",
                    base_url=args.base_url,
                    model=args.model,
                    tool_call_style=style,  # type: ignore[arg-type]
                    all_tools=variant == "all_tools",
                    constrained_output=variant == "narrowed",
                    request_timeout_s=args.timeout,
                    max_retries=0,
                )
                turns = []
                for q in QUESTIONS[: args.questions]:
                    row = {"style": style, "variant": variant, **await one_turn(settings, q)}
                    turns.append(row)
                    print(json.dumps(row), file=sys.stderr, flush=True)
                    if args.out:
                        with args.out.open("a", encoding="utf-8") as f:
                            f.write(json.dumps(row) + "\n")
                results[f"{style}/{variant}"] = summary(turns)
    ratios = {}
    for style in args.styles.split(","):
        narrowed, full = results.get(f"{style}/narrowed"), results.get(f"{style}/all_tools")
        if narrowed and full and full["median_prompt_tokens"] and full["median_seconds"]:
            ratios[style] = {
                "prompt_tokens_narrowed_over_all": round(
                    narrowed["median_prompt_tokens"] / full["median_prompt_tokens"], 3
                ),
                "seconds_narrowed_over_all": round(
                    narrowed["median_seconds"] / full["median_seconds"], 3
                ),
            }
    print(json.dumps({"base_url": args.base_url, "results": results, "ratios": ratios}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
