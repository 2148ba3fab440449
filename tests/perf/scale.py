"""Start-up, memory and latency of a bot whose database holds a large community's history,
side by side with one whose database is empty (both migrated)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from bot.db import create_engine, upgrade_schema
from bot.repository import Repository
from bot.standin import default_world

from .driving import Driver, set_up_all
from .fights import SYSTEMS, Fight
from .observed import ObservedStandIn
from .processes import BotProcess


@dataclass
class Side:
    name: str
    url: str
    startups: list[float] = field(default_factory=list)
    ready_rss: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    rss_after: float = 0.0
    peak_rss: float = 0.0


async def migrate(url: str) -> None:
    engine = create_engine(url)
    try:
        await upgrade_schema(engine)
    finally:
        await engine.dispose()


async def startups(sides: list[Side], runs: int) -> None:
    """Spawn → gateway ready, ``runs`` times per side, alternating sides."""
    for _ in range(runs):
        for side in sides:
            standin = ObservedStandIn(default_world())
            await standin.start()
            try:
                async with BotProcess(standin, env={"DATABASE_URL": side.url}, name=f"scale-{side.name}") as bot:
                    side.startups.append(bot.startup_seconds)
                    side.ready_rss.append(bot.rss_mb())
            finally:
                await standin.stop()


async def latencies(sides: list[Side], commands: int) -> None:
    """``commands`` commands per side over fights of every system, the sides taking turns."""
    async with contextlib.AsyncExitStack() as stack:
        runs = []
        for side in sides:
            standin = ObservedStandIn(default_world(extra_channels=len(SYSTEMS)))
            await standin.start()
            stack.push_async_callback(standin.stop)
            bot = await stack.enter_async_context(
                BotProcess(standin, env={"DATABASE_URL": side.url}, name=f"scale-{side.name}")
            )
            engine = create_engine(side.url)
            stack.push_async_callback(engine.dispose)
            await standin.wait_for_commands(global_=True)
            driver = Driver(standin, Repository(engine))
            await driver.run("general", "/campaign setup", {"system": SYSTEMS[0]}, tracked=False)
            gm = standin.world.user("gm").id
            fights = [Fight(key, f"combat-{4 + i}", gm) for i, key in enumerate(SYSTEMS)]
            await set_up_all(driver, fights)
            runs.append((side, bot, driver, fights))
        for n in range(commands):
            for side, _bot, driver, fights in runs:
                _label, latency = await driver.step(fights[n % len(fights)])
                side.latencies.append(latency)
        for side, bot, _driver, _fights in runs:
            side.rss_after = bot.rss_mb()
            side.peak_rss = bot.peak_rss_mb()
