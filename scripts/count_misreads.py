"""Count how the offline reader does on tests/agent/test_offline_queries_2.py: right, asked or
refused (acceptable), or silently wrong (a call that validates and runs, but not with what the
engineer meant). Run it against any checkout's `caec_desktop` to compare versions:

    .venv/bin/python scripts/count_misreads.py                 # this tree
    git archive <commit> caec_desktop | tar -x -C /tmp/old
    .venv/bin/python scripts/count_misreads.py /tmp/old        # that commit's reader and tools
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    code = Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else HERE
    sys.path.insert(0, str(code))
    sys.path.insert(1, str(HERE))
    spec = importlib.util.spec_from_file_location(
        "queries", HERE / "tests" / "agent" / "test_offline_queries_2.py"
    )
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
    for text, tool, args, key in queries.QUERIES + queries.ROUND_TWO:
        rows.append(
            (text, [], lambda t=text, a=args, k=key, o=tool: queries._check(t, [], o, a, k))
        )
    for before, text, tool, args, key in queries.FOLLOW_UPS:
        history = [{"role": "user", "content": b} for b in before]
        rows.append(
            (
                text,
                history,
                lambda t=text, h=history, a=args, k=key, o=tool: queries._check(t, h, o, a, k),
            )
        )
    for text, tool, message in queries.REFUSED_BY_THE_TOOL:
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
