"""Runs one bot process against a stand-in that lives in another process.

    python -m tests.perf.launcher [turnkeeper|echo]

The bot is the unchanged Turnkeeper (``create_bot(Settings())``, configured by the
usual DISCORD_TOKEN, DATABASE_URL, SHARD_COUNT, SHARD_IDS) or the echo baseline.
Only discord.py's endpoints are redirected, from these variables:

- ``STANDIN_API``: value for ``discord.http.Route.BASE``
- ``STANDIN_GATEWAY``: value for ``DiscordWebSocket.DEFAULT_GATEWAY``
- ``LAUNCHER_NAME`` (optional): sent as the ``X-Launcher`` header of every request,
  interaction callbacks and the gateway connection included, so the stand-in can
  tell which process sent what
- ``LAUNCHER_PROFILE`` (optional): on SIGUSR2, write there a pyinstrument report of what
  ran since SIGUSR1
- ``LAUNCHER_STAGES`` (optional): on SIGUSR2, write there (JSON) where commands spent their
  time since SIGUSR1 (``bot.stages``); SIGUSR1 starts the count afresh
- ``LAUNCHER_TOKEN_SECONDS`` (optional): how long the bot takes an interaction's token to
  last (Discord's 15 minutes by default), so a short run sees what a long one does when
  tokens run low (the tracker is posted afresh through a newer interaction)

Prints ``ready`` on stdout once the gateway session is ready; SIGTERM closes the bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
import sys

import aiohttp

from bot.stages import STAGE_CLOCK
from bot.standin.harness import point_from_environment

# discord.py waits this long after the last GUILD_CREATE before "ready" (2 s default).
GUILD_READY_TIMEOUT = 0.05


def name_tag(name: str) -> aiohttp.TraceConfig:
    """Adds ``X-Launcher: name`` to every request of the client's HTTP session."""
    trace = aiohttp.TraceConfig()

    async def tag(_session, _context, params: aiohttp.TraceRequestStartParams) -> None:
        params.headers["X-Launcher"] = name  # aiohttp sends these headers after the hook

    trace.on_request_start.append(tag)
    return trace


def build(kind: str):
    options = {"guild_ready_timeout": GUILD_READY_TIMEOUT}
    name = os.environ.get("LAUNCHER_NAME")
    if name:
        options["http_trace"] = name_tag(name)
    if kind == "echo":
        from .echo_bot import EchoBot

        return EchoBot(**options)
    # Imported here, not above: the echo process, the benchmark's baseline, loads nothing of the bot.
    from bot import delivery
    from bot.app import create_bot
    from bot.config import Settings

    if os.environ.get("LAUNCHER_TOKEN_SECONDS"):
        delivery.TOKEN_SECONDS = float(os.environ["LAUNCHER_TOKEN_SECONDS"])
    settings = Settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return create_bot(settings, **options)


async def serve(kind: str) -> int:
    bot = build(kind)
    if kind != "echo":
        from bot.app import freeze_start_up_heap

        freeze_start_up_heap()  # as `python -m bot` does
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    window = Window()
    loop.add_signal_handler(signal.SIGUSR1, window.open)
    loop.add_signal_handler(signal.SIGUSR2, window.close)
    runner = asyncio.create_task(bot.start(os.environ.get("DISCORD_TOKEN", "standin.bot.token")))
    while not bot.is_ready():
        if runner.done():
            runner.result()
            return 1
        await asyncio.sleep(0.002)
    if kind != "echo":
        freeze_start_up_heap()  # once ready too, as `python -m bot` does
    print("ready", flush=True)
    stopping = asyncio.create_task(stop.wait())
    await asyncio.wait({runner, stopping}, return_when=asyncio.FIRST_COMPLETED)
    await bot.close()
    stopping.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await asyncio.wait_for(runner, 5)
    return 0


class Window:
    """The measured part of a run, from SIGUSR1 to SIGUSR2: its stage figures and its profile."""

    def __init__(self) -> None:
        self.report = os.environ.get("LAUNCHER_PROFILE")
        self.stages = os.environ.get("LAUNCHER_STAGES")
        self.profiler = None

    def open(self) -> None:
        STAGE_CLOCK.reset()
        if self.report:
            # Only the bench extra installs the profiler; the tests run without it.
            from pyinstrument import Profiler

            self.profiler = Profiler(interval=0.001, async_mode="disabled")
            self.profiler.start()

    def close(self) -> None:
        if self.stages:
            with open(self.stages, "w", encoding="utf-8") as out:
                # How many objects a full collection walks: what makes its pauses long.
                json.dump({"stages": STAGE_CLOCK.report(), "tracked_objects": len(gc.get_objects())}, out)
        if self.profiler is not None and self.report:
            self.profiler.stop()
            with open(self.report, "w", encoding="utf-8") as out:
                out.write(self.profiler.output_text(unicode=True, show_all=False))
            self.profiler = None


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    kind = args[0] if args else "turnkeeper"
    point_from_environment()
    return asyncio.run(serve(kind))


if __name__ == "__main__":
    sys.exit(main())
