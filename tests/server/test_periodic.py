"""The background rounds' loop: a failing round is logged and runs again; cancelling stops it."""

from __future__ import annotations

import asyncio
import logging

import pytest

from parlour.server.periodic import every

from .helpers import run_async


def test_a_failing_round_is_logged_and_the_next_tick_runs_again(caplog: pytest.LogCaptureFixture):
    ticks: list[int] = []

    async def work() -> None:
        ticks.append(len(ticks))
        if len(ticks) == 1:
            raise RuntimeError("the database went away")

    async def main() -> None:
        task = asyncio.create_task(every(0.01, work, "counting"))
        while len(ticks) < 3:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with caplog.at_level(logging.ERROR, logger="parlour.server"):
        run_async(main, 30)
    failures = [r for r in caplog.records if r.getMessage() == "counting failed"]
    assert len(failures) == 1 and failures[0].exc_info is not None
    assert "the database went away" in str(failures[0].exc_info[1])
    assert ticks[:3] == [0, 1, 2]


def test_cancelling_stops_a_round_in_the_middle_of_its_work():
    finished: list[bool] = []

    async def work() -> None:
        await asyncio.sleep(10)
        finished.append(True)

    async def main() -> None:
        task = asyncio.create_task(every(0.0, work, "waiting"))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    run_async(main, 30)
    assert finished == []
