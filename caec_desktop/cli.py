"""The headless `caec` command (contract in DESIGN.md): tools, run, ask, chat, doctor, replay.

Exit codes: 0 answered; 2 invalid input or refused; 3 model/server failure; 1 a bug.
Subcommands import what they need lazily, so `caec tools` does not pay for LangGraph.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

EXIT_OK = 0
EXIT_BUG = 1
EXIT_INVALID = 2
EXIT_MODEL = 3


def _print_json(obj: Any) -> None:
    print(json.dumps(obj, indent=2, ensure_ascii=False, default=str))


def parse_pairs(pairs: Sequence[str]) -> dict[str, Any]:
    """`key=value` words into a dict; values stay strings unless they read as JSON numbers/lists.

    Strings keep their units (`particle_diameter=2mm`); the tool's validation converts them.
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise ValueError(f"expected key=value, got {pair!r}")
        key, _, raw = pair.partition("=")
        raw = raw.strip()
        try:
            value: Any = json.loads(raw)
        except json.JSONDecodeError:
            value = raw
        out[key.strip()] = value
    return out


def cmd_tools(ns: argparse.Namespace) -> int:
    from caec_desktop.tools import tool_list

    tools = tool_list()
    if ns.json:
        _print_json(tools)
        return EXIT_OK
    for t in tools:
        params = t["parameters"]
        req = set(params["required"])
        names = [p if p in req else f"[{p}]" for p in params["properties"]]
        print(f"{t['name']}: {t['description']}")
        print(f"    parameters: {' '.join(names)}")
    return EXIT_OK


def cmd_run(ns: argparse.Namespace) -> int:
    from caec_desktop.tools import execute, result_schema, tool_names
    from caec_desktop.tools.units import fmt

    try:
        args = parse_pairs(ns.pairs)
        if ns.args:
            extra = json.loads(ns.args)
            if not isinstance(extra, dict):
                raise ValueError("--args must be a JSON object")
            args.update(extra)
    except (ValueError, json.JSONDecodeError) as exc:
        msg = f"invalid arguments: {exc}"
        if ns.json:
            _print_json({"ok": False, "tool": ns.tool, "args": {}, "result": None, "errors": [msg]})
        else:
            print(msg, file=sys.stderr)
        return EXIT_INVALID
    if ns.tool not in tool_names():
        msg = f"unknown tool {ns.tool!r}; known tools: {', '.join(tool_names())}"
        if ns.json:
            _print_json(
                {"ok": False, "tool": ns.tool, "args": args, "result": None, "errors": [msg]}
            )
        else:
            print(msg, file=sys.stderr)
        return EXIT_INVALID
    outcome = execute(ns.tool, args)
    if ns.json:
        _print_json(
            {
                "ok": outcome.ok,
                "tool": outcome.tool,
                "args": outcome.args if outcome.ok else args,
                "result": outcome.result,
                "errors": [e.text() for e in outcome.errors],
                "calc_sheet": outcome.calc_sheet.model_dump() if outcome.calc_sheet else None,
            }
        )
        return EXIT_OK if outcome.ok else EXIT_INVALID
    if not outcome.ok:
        print(f"{ns.tool}: invalid input", file=sys.stderr)
        for err in outcome.errors:
            print(f"  {err.text()}", file=sys.stderr)
        return EXIT_INVALID
    units = {k: v.get("x-unit", "") for k, v in result_schema(ns.tool)["properties"].items()}
    for key, value in (outcome.result or {}).items():
        shown = fmt(value, units.get(key, "")) if isinstance(value, float) else value
        print(f"{key} = {shown}")
    if outcome.calc_sheet:
        print()
        print(outcome.calc_sheet.text())
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="caec", description="CAEC Desktop, headless: DEM set-up calculations you can check."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("tools", help="list the calculation tools")
    p.add_argument("--json", action="store_true", help="print name, description, JSON Schema")
    p.set_defaults(func=cmd_tools)

    p = sub.add_parser("run", help="run one tool by hand")
    p.add_argument("tool")
    p.add_argument("pairs", nargs="*", metavar="key=value", help='e.g. particle_diameter="2 mm"')
    p.add_argument("--args", help="arguments as a JSON object")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `caec`; returns the exit code."""
    parser = build_parser()
    ns = parser.parse_args(argv)
    try:
        return int(ns.func(ns))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
