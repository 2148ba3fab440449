"""Reusable helpers to run a real discord.py client against a ``StandIn``.

Construct clients with a small ``guild_ready_timeout`` (e.g. ``0.05``): discord.py
waits that long after the last GUILD_CREATE before firing ``on_ready`` (2 s default),
which would make every test start slowly::

    class MyBot(commands.Bot):
        def __init__(self):
            super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)

    async with running_standin() as standin:
        async with running_client(standin, MyBot) as bot:
            ...
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any, TypeVar

import discord
import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from .server import StandIn
from .waiting import StandInTimeout
from .world import World

ClientT = TypeVar("ClientT", bound=discord.Client)
ClientFactory = Callable[[], ClientT | Awaitable[ClientT]]


# A bot in another process finds the stand-in through these (see endpoint_environment).
API_VARIABLE = "STANDIN_API"
GATEWAY_VARIABLE = "STANDIN_GATEWAY"


def point_at(api_base: str, gateway_url: str) -> None:
    """Point discord.py's REST base and default gateway at a stand-in (process-wide)."""
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def endpoint_environment(standin: StandIn) -> dict[str, str]:
    """Environment variables that let a bot process started by a test find the stand-in."""
    return {API_VARIABLE: standin.api_base, GATEWAY_VARIABLE: standin.gateway_url}


def point_from_environment() -> None:
    """In a bot process started with `endpoint_environment`: use that stand-in."""
    point_at(os.environ[API_VARIABLE], os.environ[GATEWAY_VARIABLE])


@contextlib.contextmanager
def patched_endpoints(standin: StandIn) -> Iterator[None]:
    """Point discord.py's REST base and default gateway at the stand-in, then restore.

    These are process-wide class attributes; nesting (two clients on one stand-in) is
    fine because each exit restores what its own entry saw.
    """
    saved = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
    point_at(standin.api_base, standin.gateway_url)
    try:
        yield
    finally:
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = saved


@contextlib.asynccontextmanager
async def running_standin(world: World | None = None, **kwargs: Any) -> AsyncIterator[StandIn]:
    """Start a stand-in on 127.0.0.1 (random port) and stop it afterwards."""
    standin = StandIn(world, **kwargs)
    await standin.start()
    try:
        yield standin
    finally:
        await standin.stop()


async def start_client(standin: StandIn, client: discord.Client, *, timeout: float = 10.0) -> asyncio.Task[None]:
    """Log ``client`` in against the stand-in and wait for ``on_ready``; returns the run task.

    Endpoints must already be patched (see ``patched_endpoints``)."""
    task = asyncio.create_task(client.start(standin.token), name=f"standin-client-{id(client)}")
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not client.is_ready():
        if task.done():
            task.result()  # surfaces login/connection errors
            raise StandInTimeout("client stopped before becoming ready")
        if loop.time() > deadline:
            await stop_client(client, task)
            raise StandInTimeout(f"client not ready after {timeout}s (unknown routes: {standin.unknown_routes})")
        await asyncio.sleep(0.005)
    return task


async def stop_client(client: discord.Client, task: asyncio.Task[None], *, timeout: float = 5.0) -> None:
    """Close the client and wait for its run task so no task outlives the test."""
    await client.close()
    try:
        await asyncio.wait_for(task, timeout)
    except TimeoutError:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    except Exception:
        pass  # a failure after close is not the test's concern; it already finished


@contextlib.asynccontextmanager
async def running_client(
    standin: StandIn, client_factory: ClientFactory[ClientT], *, ready_timeout: float = 10.0
) -> AsyncIterator[ClientT]:
    """``async with running_client(standin, MyBot) as bot:`` — a ready client, closed after.

    ``client_factory`` is called (and awaited if it returns an awaitable) with the
    endpoints already patched, so a bot may be created lazily inside it.
    """
    with patched_endpoints(standin):
        created = client_factory()
        client: ClientT = await created if inspect.isawaitable(created) else created
        task = await start_client(standin, client, timeout=ready_timeout)
        try:
            yield client
        finally:
            await stop_client(client, task)
