"""Load at a big community's scale, through a rate-limited stand-in.

    python -m tests.perf.load [--channels 1000] [--rate 100] [--seconds 60] [--database-url URL]

Two bot processes (shards 0 and 1 of 2, ``launcher``) share one database (SQLite by
default; give a PostgreSQL URL for the deployment's set-up) and one stand-in with
Discord's rate limits (50 requests/s per token, 5 per 5 s per route and channel).
Every channel runs a Rotted Capes fight (``fights``); commands arrive at random
(Poisson, ``--rate`` a second) on random channels: attacks and turn changes.

Prints: acknowledgement latency p50/p99 (interaction sent → callback received), the
delay from a turn change to its ping p99 (interaction sent → the turn message with
its ping), tracker staleness p99 (a command's callback → the next edit of its
channel's tracker), 429s received (global and per route), commands lost (never
answered) and turn pings missing. The stand-in and the clock share this process, whose
cycle collector rests during the measured minute (its pauses are the instrument's).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import signal
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url

from bot import render
from bot.db import create_engine
from bot.repository import Repository
from bot.standin import RateLimits, World
from bot.standin.interactions import InteractionHandle
from bot.standin.messages import Event
from bot.standin.snowflakes import shard_of
from bot.standin.world import Channel
from rules import registry
from tests.contract.spec import discord_contract
from tests.helpers import pg_admin

from .driving import deferred, refused
from .fights import NEXT, Fight
from .figures import median, p99
from .observed import ObservedStandIn
from .processes import BotProcess

SHARDS = 2
INTERNAL_ERROR = "Something went wrong on our side"
SYSTEM = "rotted-capes"
ANSWER_TIMEOUT = 30.0


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.load", description=__doc__.split("\n")[0])
    parser.add_argument("--channels", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100.0, help="commands per second (default 100)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--database-url", default="", help="default: a fresh SQLite file")
    parser.add_argument("--shards", type=int, default=2, help="bot processes, one shard each (default 2)")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--settle", type=float, default=30.0, help="seconds to wait for the last edits (default 30)")
    parser.add_argument(
        "--profile",
        default="",
        help="write each bot process's pyinstrument report into this folder (slows the bots)",
    )
    parser.add_argument(
        "--contract",
        action="store_true",
        help="also check every request against Discord's API description (about 2 ms of the stand-in's CPU each, "
        "on the cores the bots use; every end-to-end test checks it anyway)",
    )
    return parser.parse_args(argv)


def load_world(channels: int) -> World:
    """Two servers, one per shard, their channels split between them."""
    world = World()
    gm = world.add_user("gm")
    for shard in range(SHARDS):
        guild = world.add_guild(f"Keep {shard}", owner=gm, shard=(shard, SHARDS), channels=())
        world.add_member(guild, gm)
        for n in range(shard, channels, SHARDS):
            world.add_channel(guild, f"fight-{n}")
    return world


@dataclass
class Sent:
    fight: Fight
    label: str
    handle: InteractionHandle
    at: float


@dataclass
class Figures:
    acks: list[float] = field(default_factory=list)  # of the commands carried out
    answers: list[float] = field(default_factory=list)  # of every command answered, refusals included
    internal_errors: int = 0
    pings: list[float] = field(default_factory=list)
    staleness: list[float] = field(default_factory=list)
    lost: int = 0
    refused: int = 0
    deferred: int = 0  # acknowledged privately first, being slower than 2 s
    pings_missing: int = 0
    refusals: dict = field(default_factory=dict)  # refusal text → count
    stages: dict = field(default_factory=dict)  # stage → its figures over every bot process
    cpu: list = field(default_factory=list)  # CPU seconds of each bot process, then of the stand-in's
    window: float = 0.0  # seconds from the first command to the end of settling
    peak_mb: list = field(default_factory=list)  # the most resident memory each bot process had
    tracked: list = field(default_factory=list)  # objects each bot process's cycle collector tracked at the end
    trackers_behind: int = 0  # channels whose pinned tracker does not show the saved state at the end
    global_429: int = 0
    route_429: int = 0
    commands: int = 0
    rest: int = 0
    seconds: float = 0.0

    def lines(self) -> list[str]:
        ms = lambda v: f"{v * 1000:.0f} ms" if v == v else "n/a"  # noqa: E731
        return (
            [
                f"commands sent: {self.commands} in {self.seconds:.1f} s ({self.commands / self.seconds:.1f}/s)",
                f"acknowledgement latency: p50 {ms(median(self.acks))}, p99 {ms(p99(self.acks))}",
                f"every command, refusals included: {sum(1 for a in self.answers if a <= 3.0)} of {self.commands} "
                f"acknowledged within Discord's 3 s, the slowest in {ms(max(self.answers, default=float('nan')))}; "
                f"internal errors: {self.internal_errors}",
                f"turn change → ping: p99 {ms(p99(self.pings))} over {len(self.pings)} turn changes",
                f"tracker staleness: p99 {ms(p99(self.staleness))} over {len(self.staleness)} commands "
                "(those whose tracker edit came before their channel's next command)",
                f"429s received: {self.global_429} global, {self.route_429} per route",
                f"non-interaction REST requests: {self.rest} ({self.rest / max(1, self.commands):.2f} per command)",
                f"commands lost: {self.lost}; refused: {self.refused}; deferred (slower than 2 s): {self.deferred}; "
                f"turn pings missing: {self.pings_missing}; "
                f"trackers behind at the end: {self.trackers_behind}",
            ]
            + [f"  refused {n} ×: {text}" for text, n in sorted(self.refusals.items(), key=lambda kv: -kv[1])[:3]]
            + self.cpu_lines()
            + stage_lines(self.stages, self.commands)
        )

    def cpu_lines(self) -> list[str]:
        if not self.cpu:
            return []
        names = [f"shard {n}" for n in range(len(self.cpu) - 1)] + ["stand-in and clock"]
        peaks = [f", peak memory {mb:.0f} MiB" for mb in self.peak_mb] + [""]
        if len(self.tracked) == len(self.peak_mb):
            peaks = [f"{p}, {n:,} objects tracked at the end" for p, n in zip(peaks, self.tracked)] + [""]
        return [f"CPU over the {self.window:.0f} s of commands and settling:"] + [
            f"  {name:<18} {seconds:6.1f} s ({seconds / self.window:4.0%} of a core, "
            f"{seconds * 1000 / max(1, self.commands):.2f} ms per command){peak}"
            for name, seconds, peak in zip(names, self.cpu, peaks, strict=True)
        ]


class Clocks:
    """When each message was created and each tracker edited, from the stand-in's events."""

    def __init__(self) -> None:
        self.created: dict[int, float] = {}
        self.edits: dict[int, list[float]] = {}  # channel → times of bot edits

    def __call__(self, event: Event) -> None:
        msg = event.message
        if msg is None:
            return
        now = time.perf_counter()
        if event.kind == "create":
            self.created.setdefault(msg.id, now)
        elif event.kind == "edit" and msg.pinned:
            self.edits.setdefault(msg.channel_id, []).append(now)


async def stage_reports(paths: list[Path], timeout: float = 30.0) -> tuple[dict, list[int]]:
    """Every bot process's stage figures (``bot.stages``) added up, once each has written them,
    and the objects each process's cycle collector tracked at the end."""
    deadline = time.monotonic() + timeout
    while not all(p.exists() for p in paths) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    merged: dict = {}
    tracked: list[int] = []
    for path in paths:
        with contextlib.suppress(OSError, ValueError):
            report = json.loads(path.read_text())
            tracked.append(report["tracked_objects"])
            for name, figures in report["stages"].items():
                into = merged.setdefault(name, {"count": 0, "total": 0.0, "samples": []})
                into["count"] += figures["count"]
                into["total"] += figures["total"]
                into["samples"] += figures["samples"]
    return merged, tracked


def stage_lines(stages: dict, commands: int) -> list[str]:
    """Where the bots spent a command's time, stage by stage (see ``bot.stages``)."""
    if not stages:
        return []
    lines = [
        "where the time went (every bot process, the measured run and its settling):",
        f"  {'stage':<8} {'count':>7} {'p50 ms':>8} {'p99 ms':>8} {'ms per command':>15}",
    ]
    for name, figures in stages.items():
        samples = figures["samples"]
        if not samples:
            continue
        lines.append(
            f"  {name:<8} {figures['count']:>7} {median(samples) * 1000:>8.2f} {p99(samples) * 1000:>8.2f} "
            f"{figures['total'] * 1000 / max(1, commands):>15.2f}"
        )
    return lines


def channels_of(standin: ObservedStandIn, fights: list[Fight]) -> dict[str, Channel]:
    """Each fight's channel, by name, looked up once: a look-up by name walks the server's channels,
    so doing it for each command or check made the load run's own work grow with the square of its size."""
    by_name = {channel.name: channel for channel in standin.world.channels.values()}
    return {fight.channel: by_name[fight.channel.lstrip("#")] for fight in fights}


async def set_up(standin: ObservedStandIn, repo: Repository, fights: list[Fight], at_once: int = 16) -> None:
    for guild in standin.world.guilds.values():
        channel = next(iter(guild.channels.values()))
        handle = await standin.invoke("gm", "/campaign setup", {"system": SYSTEM}, in_channel=channel)
        await handle.response(timeout=ANSWER_TIMEOUT)
    gate = asyncio.Semaphore(at_once)
    channels = channels_of(standin, fights)

    async def one(fight: Fight) -> None:
        channel = channels[fight.channel]
        async with gate:
            for command, options in fight.setup():
                handle = await standin.invoke("gm", command, dict(options), in_channel=channel)
                answer = await handle.response(timeout=ANSWER_TIMEOUT)
                if answer.ephemeral:
                    raise RuntimeError(f"set-up refused in {fight.channel}: {answer.content}")
            record = await repo.active_encounter(channel.id)
            fight.load(record.state)

    await asyncio.gather(*(one(f) for f in fights))


async def drive(
    standin: ObservedStandIn, fights: list[Fight], rate: float, seconds: float, rng: random.Random
) -> list[Sent]:
    sent: list[Sent] = []
    channels = channels_of(standin, fights)
    loop = asyncio.get_running_loop()
    start = loop.time()
    due = start
    while True:
        due += rng.expovariate(rate)
        if due - start > seconds:
            break
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        fight = rng.choice(fights)
        step = fight.next_step(buttons=False)
        fight.advance(step)
        handle = await standin.invoke("gm", step.command, dict(step.options), in_channel=channels[fight.channel])
        sent.append(Sent(fight, step.label, handle, time.perf_counter()))
    return sent


async def quiet(standin: ObservedStandIn, *, stretch: float, most: float = float("inf")) -> None:
    """Until the bots have sent the stand-in nothing for `stretch` seconds (or `most` seconds have passed)."""
    waited = 0.0
    while waited < most:
        seen = len(standin.requests)
        await asyncio.sleep(stretch)
        waited += stretch
        if len(standin.requests) == seen:
            return


async def trackers_behind(standin: ObservedStandIn, repo: Repository, fights: list[Fight]) -> int:
    """Channels whose pinned tracker does not show what the database holds."""
    behind = 0
    channels = channels_of(standin, fights)
    for fight in fights:
        channel = channels[fight.channel]
        record = await repo.active_encounter(channel.id)
        system = registry.get(record.system)
        wanted = render.tracker_embed(system, system.load(record.state), record.id).to_dict()["description"]
        pinned = [m for m in standin.messages(channel) if m.pinned]
        if len(pinned) != 1 or pinned[0].embeds[0].get("description") != wanted:
            behind += 1
    return behind


async def settled_trackers_behind(
    standin: ObservedStandIn, repo: Repository, fights: list[Fight], *, most: float
) -> int:
    """`trackers_behind`, asked again each second while some are, up to `most` seconds: an edit a tracker is
    owed may wait out Discord's limit on edits in its channel past a second of silence, and still come."""
    behind = await trackers_behind(standin, repo, fights)
    deadline = time.perf_counter() + most
    while behind and time.perf_counter() < deadline:
        await asyncio.sleep(1)
        behind = await trackers_behind(standin, repo, fights)
    return behind


async def collect(standin: ObservedStandIn, sent: list[Sent], clocks: Clocks, started_requests: int) -> Figures:
    figures = Figures(commands=len(sent))
    following: dict[int, float] = {}  # handle id → when the next command of its channel was sent
    last: dict[str, Sent] = {}
    for s in sent:
        if s.fight.channel in last:
            following[last[s.fight.channel].handle.id] = s.at
        last[s.fight.channel] = s
    for s in sent:
        try:
            answer = await s.handle.response(timeout=ANSWER_TIMEOUT)
        except Exception:
            figures.lost += 1
            continue
        figures.answers.append(standin.latency(s.handle))
        if INTERNAL_ERROR in answer.content:
            figures.internal_errors += 1
        if deferred(answer):
            figures.deferred += 1
        elif refused(answer):
            figures.refused += 1
            figures.refusals[answer.content[:100]] = figures.refusals.get(answer.content[:100], 0) + 1
            continue
        figures.acks.append(standin.latency(s.handle))
        callback = standin.callback_at[s.handle.id]
        edits = clocks.edits.get(s.handle.channel.id, [])
        after = next((t for t in edits if t >= callback), None)
        # A command that changed nothing on the tracker gets no edit of its own: the next
        # edit, after the channel's next command, would overstate how stale it was.
        if after is not None and after <= following.get(s.handle.id, float("inf")):
            figures.staleness.append(after - callback)
        if s.label == NEXT:
            ping = next((m for m in s.handle.followups if m.pings.user_ids), None)
            if ping is None:
                figures.pings_missing += 1
            else:
                figures.pings.append(clocks.created[ping.id] - s.at)
    hits = standin.rate_limiter.hits
    figures.global_429 = sum(1 for h in hits if h.is_global)
    figures.route_429 = len(hits) - figures.global_429
    figures.rest = sum(
        1
        for _m, path, _s in standin.requests[started_requests:]
        if not path.startswith(("/interactions/", "/webhooks/"))
    )
    return figures


async def run_load(
    *,
    channels: int,
    rate: float,
    seconds: float,
    database_url: str,
    seed: int = 17,
    settle_seconds: float = 10.0,
    shards: int = SHARDS,
    check_contract: bool = True,
    profile: str = "",
) -> Figures:
    world = load_world(channels)
    if profile:
        Path(profile).mkdir(parents=True, exist_ok=True)
    stage_dir = tempfile.TemporaryDirectory(prefix="tk-stages-")
    standin = ObservedStandIn(world, rate_limits=RateLimits.discord())
    standin.contract = discord_contract() if check_contract else None
    clocks = Clocks()
    standin.book.listeners.append(clocks)
    await standin.start()
    engine = create_engine(database_url)
    # The processes share the token's global budget, leaving a fifth for everything else.
    env = {"DATABASE_URL": database_url, "TRACKER_REQUESTS_PER_SECOND": str(40 / shards)}
    if shards > 1:
        env["SHARD_COUNT"] = str(shards)

    def shard_env(n: int) -> dict[str, str]:
        own = {"SHARD_IDS": str(n)} if shards > 1 else {}
        own["LAUNCHER_STAGES"] = str(Path(stage_dir.name) / f"shard-{n}.json")
        if profile:
            own["LAUNCHER_PROFILE"] = str(Path(profile) / f"shard-{n}.txt")
        return env | own

    bots = [BotProcess(standin, env=shard_env(n), name=f"shard-{n}") for n in range(shards)]
    try:
        for bot in bots:  # the first runs the migrations, then the others join
            await bot.start(timeout=300)
        await standin.wait_for_commands(global_=True, timeout=30)
        gm = world.user("gm").id
        fights = [Fight(SYSTEM, c.name, gm) for g in world.guilds.values() for c in g.channels.values()]
        await set_up(standin, Repository(engine), fights)
        await quiet(standin, stretch=2)  # set-up's tracker edits drain first: they are not the load's
        standin.rate_limiter.hits.clear()
        # This process is the measuring instrument: the stand-in, which keeps every message of
        # every channel, and the clock that times the bots. Its cycle collections stalled both for
        # up to 300 ms (p99 acknowledgement 369 ms with them, 61 ms without, on 2 cores), which
        # is no latency of the bots' and none Discord has: the collector rests while it measures.
        gc.collect()
        gc.freeze()
        gc.disable()
        first = len(standin.requests)
        for bot in bots:
            bot.proc.send_signal(signal.SIGUSR1)
        cpu_before = [bot.cpu_seconds() for bot in bots], sum(os.times()[:2])
        started = time.perf_counter()
        sent = await drive(standin, fights, rate, seconds, random.Random(seed))
        elapsed = time.perf_counter() - started
        await asyncio.sleep(settle_seconds)  # the last trackers and pings arrive
        # On a busy machine (the suite's other worker) they may come later: wait while they still come.
        await quiet(standin, stretch=1, most=30)
        for bot in bots:
            bot.proc.send_signal(signal.SIGUSR2)
        cpu = [bot.cpu_seconds() - b for bot, b in zip(bots, cpu_before[0], strict=True)]
        cpu.append(sum(os.times()[:2]) - cpu_before[1])
        peak_mb = [bot.peak_rss_mb() for bot in bots]
        window = time.perf_counter() - started
        gc.enable()
        figures = await collect(standin, sent, clocks, first)
        figures.trackers_behind = await settled_trackers_behind(standin, Repository(engine), fights, most=30)
        figures.seconds = elapsed
        figures.cpu = cpu
        figures.peak_mb = peak_mb
        figures.window = window
        figures.stages, figures.tracked = await stage_reports(
            [Path(stage_dir.name) / f"shard-{n}.json" for n in range(shards)]
        )
        served = {shard_of(g.id, SHARDS) for g in world.guilds.values()}
        assert served == set(range(SHARDS)), "both shards have servers"
        return figures
    finally:
        gc.enable()
        await asyncio.gather(*(bot.stop() for bot in bots))
        await engine.dispose()
        await standin.stop()
        stage_dir.cleanup()


@contextlib.asynccontextmanager
async def fresh_database(url: str):
    """A new PostgreSQL database on the given server for this run, dropped afterwards."""
    u = make_url(url)
    name = f"tk_load_{uuid.uuid4().hex[:12]}"
    admin = await pg_admin(url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield u.set(database=name).render_as_string(hide_password=False)
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


async def main_async(args: argparse.Namespace) -> int:
    if args.database_url.startswith("postgresql"):
        async with fresh_database(args.database_url) as url:
            return await measure_and_print(args, url)
    with tempfile.TemporaryDirectory(prefix="tk-load-") as tmp:
        return await measure_and_print(args, f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}")


async def measure_and_print(args: argparse.Namespace, url: str) -> int:
    print(
        f"{args.channels} channels, {args.rate:g} commands/s for {args.seconds:g} s, "
        f"{args.shards} bot process(es), database {url.split('@')[-1]}, "
        f"contract check {'on' if args.contract else 'off'}",
        flush=True,
    )
    figures = await run_load(
        channels=args.channels,
        rate=args.rate,
        seconds=args.seconds,
        database_url=url,
        seed=args.seed,
        settle_seconds=args.settle,
        shards=args.shards,
        check_contract=args.contract,
        profile=args.profile,
    )
    print("\n".join(figures.lines()))
    return 0 if figures.lost == 0 and figures.pings_missing == 0 and figures.trackers_behind == 0 else 1


def main(argv: list[str] | None = None) -> int:
    if not Path("bot").is_dir() or not Path("tests/perf").is_dir():
        print("run from the repository root: python -m tests.perf.load", file=sys.stderr)
        return 2
    return asyncio.run(main_async(arguments(argv)))


if __name__ == "__main__":
    sys.exit(main())
