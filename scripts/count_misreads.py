"""Count how the offline reader does on a query set (tests/agent/test_offline_queries_2.py by
default): right, asked or refused (acceptable), or silently wrong (a call that validates and
runs, but not with what the engineer meant). Run it against any checkout's `caec_desktop` to
compare versions:

    .venv/bin/python scripts/count_misreads.py                 # this tree
    .venv/bin/python scripts/count_misreads.py --queries tests/agent/test_offline_queries_3.py
    git archive <commit> caec_desktop | tar -x -C /tmp/old
    .venv/bin/python scripts/count_misreads.py /tmp/old        # that commit's reader and tools

A set lists ALL_ROUNDS (or QUERIES and ROUND_TWO) rows `(text, tool, args, key)`, FOLLOW_UPS
rows `(before, text, tool, args, key)`, REFUSED texts and REFUSED_BY_THE_TOOL rows `(text, tool,
message)`, and a `_check(text, history, tool, args, key)` that raises AssertionError when a row
is misread.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    args = sys.argv[1:]
    where = HERE / "tests" / "agent" / "test_offline_queries_2.py"
    if "--queries" in args:
        at = args.index("--queries")
        where = Path(args[at + 1]).resolve()
        del args[at : at + 2]
    code = Path(args[0]).resolve() if args else HERE
    sys.path.insert(0, str(code))
    sys.path.insert(1, str(HERE))
    spec = importlib.util.spec_from_file_location("queries", where)
    assert spec is not None and spec.loader is not None
    queries: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(queries)

    from caec_desktop.agent.selection.offline import select_text
    from caec_desktop.tools import execute, validate

    def outcome(text: str, history: list[dict[str, Any]], check: Any) -> str:
        try:
            check()
            return "right"
        except AssertionError:
            pass
        except Exception:  # an older tool refusing an argument it does not know
            return "asked"
        selection = select_text(text, history)
        if not selection.calls:
            return "asked"
        call = selection.calls[0]
        model, _ = validate(call.name, call.args)
        if model is None or not execute(call.name, call.args).ok:
            return "asked"
        return "silent"

    counts = {"right": 0, "asked": 0, "silent": 0}
    rows: list[tuple[str, list[dict[str, Any]], Any]] = []
    every = getattr(queries, "ALL_ROUNDS", None)
    for text, tool, args, key in every or queries.QUERIES + getattr(queries, "ROUND_TWO", []):
        rows.append(
            (text, [], lambda t=text, a=args, k=key, o=tool: queries._check(t, [], o, a, k))
        )
    for before, text, tool, args, key in getattr(queries, "FOLLOW_UPS", []):
        history = [{"role": "user", "content": b} for b in before]
        rows.append(
            (
                text,
                history,
                lambda t=text, h=history, a=args, k=key, o=tool: queries._check(t, h, o, a, k),
            )
        )
    for text in getattr(queries, "REFUSED", []):
        rows.append((text, [], lambda t=text: queries.test_refused(t)))
    for text, tool, message in getattr(queries, "REFUSED_BY_THE_TOOL", []):
        rows.append(
            (text, [], lambda t=text, o=tool, m=message: queries.test_refused_by_the_tool(t, o, m))
        )
    for text, history, check in rows:
        kind = outcome(text, history, check)
        counts[kind] += 1
        if kind != "right":
            print(f"{kind:7} {text}")
    print(counts, "of", len(rows))


if __name__ == "__main__":
    main()
