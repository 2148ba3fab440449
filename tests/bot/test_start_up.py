"""Start-up inside one process: what a failed start leaves behind (the subprocess tests of
tests/e2e/test_start_up.py see what an operator reads)."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest

from bot.app import StartUpError, create_bot, freeze_once_ready
from bot.config import Settings


def driver_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.endswith("(_connection_worker_thread)") and t.is_alive()]


async def test_a_database_that_cannot_be_opened_leaves_no_driver_thread_behind(tmp_path):
    # aiosqlite stops a failed connection's thread through a future of the running loop: a thread still
    # waiting when the process exits finds the loop closed and prints a traceback under the one error line.
    before = set(driver_threads())
    settings = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'no-such-folder' / 'bot.db'}")
    async with create_bot(settings) as bot:
        with pytest.raises(StartUpError, match="cannot open the database"):
            await bot.open_database()
        assert [t for t in driver_threads() if t not in before] == []


class Gateway:
    """A bot whose shards become ready when the test says so."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()

    async def wait_until_ready(self) -> None:
        await self.ready.wait()


async def test_what_arrives_before_every_shard_is_ready_is_frozen_with_the_start_up_heap():
    bot = Gateway()
    freezing = asyncio.create_task(freeze_once_ready(bot))  # type: ignore[arg-type]
    try:
        await asyncio.sleep(0)
        channels = [{"channel": n} for n in range(100)]  # what GUILD_CREATE brings, kept for the process's life
        frozen_before = gc.get_freeze_count()
        bot.ready.set()
        await asyncio.wait_for(freezing, 5)
        assert gc.get_freeze_count() >= frozen_before + len(channels)
    finally:
        freezing.cancel()
        gc.unfreeze()  # the test process's heap goes back under the collector
