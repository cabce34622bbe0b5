"""Counting the event loop's turns, for tests that check work is spread over several turns."""

from __future__ import annotations

import asyncio


class LoopTurns:
    """While inside `async with`, a task adds one to `now` each turn of the running loop; the
    task runs once before the body (so `now` moves from the body's first await on)."""

    def __init__(self) -> None:
        self.now = 0
        self._task: asyncio.Task[None] | None = None

    async def _count(self) -> None:
        while True:
            self.now += 1
            await asyncio.sleep(0)

    async def __aenter__(self) -> LoopTurns:
        self._task = asyncio.get_running_loop().create_task(self._count())
        await asyncio.sleep(0)  # the counter runs
        return self

    async def __aexit__(self, *_exc: object) -> None:
        assert self._task is not None
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
