"""The third blind set (tests/agent/offline_blind_3.py) through `Session.ask`: every row right
or asked naming its input. Score on main before the fixes of this set (same expectations):
192 rows, 114 right / 68 asked / 5 silently wrong / 5 wrongly refused / 0 crashed; after:
119 / 73 / 0 / 0 / 0 (`python -m tests.agent.offline_blind_3`)."""

from __future__ import annotations

import pytest

from tests.agent.offline_blind_2 import judge
from tests.agent.offline_blind_3 import ROWS, Row, run_row

# -- the blind set ----------------------------------------------------------------------------


@pytest.mark.asyncio
@pytest.mark.parametrize("row", [pytest.param(r, id=f"{r.kind}: {r.text[:70]!r}") for r in ROWS])
async def test_blind_row(row: Row) -> None:
    """Right (the expected call and figure, any note said) or asked naming the input; never
    silently wrong, never a complete request refused, never a crash."""
    turn = await run_row(row)
    verdict, why = judge(turn, row.expect)
    assert verdict in ("right", "asked"), f"{verdict}: {why}\n{(turn or {}).get('answer', '')}"


def test_blind_set_size() -> None:
    assert len(ROWS) >= 150
    assert len({r.kind for r in ROWS}) >= 9
