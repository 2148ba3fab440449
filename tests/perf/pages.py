"""Load of the fight's web page: many open pages (Server-Sent Events streams) of one fight on one process.

    python -m tests.perf.pages [--pages 1000] [--changes 10] [--database-url URL]

A page server runs in a process of its own (as beside the bot), over a database holding one fight and its shared
link. This process opens the pages' event streams, each from an address of its own (through X-Forwarded-For, as a
reverse proxy on the same machine gives it), then changes the fight `--changes` times through the rules core, as
a command would, and notes when each change reaches each page. It prints the update delay (median and p99, from
the change's commit to its arrival at a page), the changes that some page never got, and the server process's
resident memory with the pages open, against the same process with none.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from bot.core import Core
from bot.db import create_engine, upgrade_schema
from bot.repository import Repository
from bot.web.server import WebPage
from bot.web.shares import Shares
from rules.actions import AddCombatants, NextTurn
from rules.model import Actor
from tests.perf.figures import median, ms, p99

GM = Actor(user_id=1, is_gm=True)
GUILD, CHANNEL = 10, 20
# Between changes: not a multiple of the poll interval, so changes fall at every point of its cycle.
GAP = 0.73


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def resident_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def serve(database_url: str, port: int) -> None:
    """The page server alone, until it is stopped."""
    engine = create_engine(database_url)
    repo = Repository(engine)
    page = WebPage(repo)
    await page.start("127.0.0.1", port)
    print("ready", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await page.stop()
        repo.close()
        await engine.dispose()


async def a_fight(core: Core) -> int:
    await core.start(GUILD, CHANNEL, GM, system="rotted-capes")
    for name, stamina in (("Tank", 200), ("Silver Star", 40), ("Zombie", 20)):
        sheet = {"stamina": stamina}
        await core.act(CHANNEL, AddCombatants(by=GM, name=name, sheet=sheet, count=3 if name == "Zombie" else 1), "")
    result = await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
    return result.encounter_id


async def reader(session: aiohttp.ClientSession, url: str, number: int, seen: dict[int, float], opened) -> None:
    address = f"10.{number // 65536 % 256}.{number // 256 % 256}.{number % 256}"
    async with session.get(url, headers={"X-Forwarded-For": address}) as stream:
        if stream.status != 200:
            raise RuntimeError(f"page {number}: HTTP {stream.status}")
        first = True
        async for line in stream.content:
            if not line.startswith(b"data: "):
                continue
            version = json.loads(line[6:])["v"]
            seen.setdefault(version, time.monotonic())
            if first:
                first = False
                opened()


async def measure(pages: int, changes: int, database_url: str | None) -> None:
    folder = tempfile.mkdtemp(prefix="turnkeeper-pages-")
    url = database_url or f"sqlite+aiosqlite:///{folder}/pages.db"
    engine = create_engine(url)
    await upgrade_schema(engine)
    repo = Repository(engine)
    core = Core(repo)
    encounter = await a_fight(core)
    token = await Shares(engine).share(encounter, CHANNEL, None)
    port = free_port()
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.perf.pages", "--serve", str(port), "--database-url", url,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert server.stdout is not None
    await server.stdout.readline()  # ready
    connector = aiohttp.TCPConnector(limit=0)
    timeout = aiohttp.ClientTimeout(total=None, sock_connect=30)
    seen: list[dict[int, float]] = [{} for _ in range(pages)]
    opened = 0
    all_open = asyncio.Event()

    def one_opened() -> None:
        nonlocal opened
        opened += 1
        if opened == pages:
            all_open.set()

    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        events = f"http://127.0.0.1:{port}/f/{token}/events"
        async with session.get(f"http://127.0.0.1:{port}/f/{token}") as warm:  # rules and templates loaded
            assert warm.status == 200, warm.status
        idle = resident_mib(server.pid)
        started = time.monotonic()
        readers = [asyncio.create_task(reader(session, events, n, seen[n], one_opened)) for n in range(pages)]
        await asyncio.wait_for(all_open.wait(), 120)
        opening = time.monotonic() - started
        delays: list[float] = []
        committed: dict[int, float] = {}
        for _ in range(changes):
            await asyncio.sleep(GAP)
            result = await core.act(CHANNEL, NextTurn(by=GM), "/initiative next")
            committed[result.version] = time.monotonic()
        await asyncio.sleep(2.0)
        busy = resident_mib(server.pid)
        missed = 0
        for page in seen:
            for version, at in committed.items():
                if version in page:
                    delays.append(page[version] - at)
                else:
                    missed += 1
        for task in readers:
            task.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    server.terminate()
    await server.wait()
    repo.close()
    await engine.dispose()
    print(f"Fight page load: {pages} open pages (event streams) of one fight on one page-server process")
    print(f"  opening all pages      {opening:7.2f} s")
    print(f"  changes                {changes} (one every {GAP} s), {len(delays)} updates delivered, {missed} missed")
    if delays:
        print(f"  update delay median    {ms(median(delays))}")
        print(f"  update delay p99       {ms(p99(delays))}   (polling every 0.5 s: at most ~0.5 s plus sending)")
    print(f"  server memory          {busy:7.1f} MiB with the pages open ({idle:.1f} MiB with none open)")
    print(f"  per open page          {(busy - idle) * 1024 / pages:7.1f} KiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument("--changes", type=int, default=10)
    parser.add_argument("--database-url")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)  # the page server's own process
    options = parser.parse_args()
    if options.serve:
        asyncio.run(serve(options.database_url, options.serve))
        return
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    asyncio.run(measure(options.pages, options.changes, options.database_url))


if __name__ == "__main__":
    main()
