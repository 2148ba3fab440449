"""Turnkeeper's benchmark, measured against a do-nothing discord.py bot in the same run.

    python -m tests.perf.bench [--samples 500] [--batches 5] [--scale-commands 500] [--load-channels 50]

Run from the repository root. Every bot is a separate process (``launcher``) talking
to a stand-in in this process; latency is taken at the stand-in, from queueing
INTERACTION_CREATE to the arrival of the callback POST. Prints, in order: latency
(median, p99, ratio to the echo baseline), concurrent throughput, the rules core
alone, the database floor and persisted actions, scale with 10,000 stored
encounters, and the issue's targets met or missed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from bot.db import create_engine
from bot.repository import Repository
from bot.standin import default_world

from . import budget, floors, rounds, scale
from .driving import Driver, set_up_all
from .fights import ATTACK, END_TURN, NEXT, SYSTEMS, TAKE, Fight
from .figures import Report, median, ms, p99
from .observed import ObservedStandIn
from .processes import BotProcess
from .seed import seed

LATENCY_CHANNELS = [f"combat-{4 + i}" for i in range(len(SYSTEMS))]
CONCURRENT = 200


def load_channels(count: int) -> list[str]:
    return [f"combat-{4 + len(SYSTEMS) + i}" for i in range(count)]


def arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m tests.perf.bench", description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=500, help="latency samples per command and system (default 500)")
    parser.add_argument(
        "--batches", type=int, default=5, help=f"batches of {CONCURRENT} concurrent commands per bot (default 5)"
    )
    parser.add_argument(
        "--scale-commands", type=int, default=500, help="commands per database in the scale run (default 500)"
    )
    parser.add_argument("--startups", type=int, default=3, help="start-ups per database in the scale run (default 3)")
    parser.add_argument(
        "--load-channels", type=int, default=50, help="channels the concurrent batches are spread over (default 50)"
    )
    parser.add_argument("--encounters", type=int, default=10_000)
    parser.add_argument("--characters", type=int, default=2_000)
    parser.add_argument("--skip-scale", action="store_true", help="leave out the scale section (the longest)")
    parser.add_argument("--skip-budget", action="store_true", help="leave out the REST budget section")
    parser.add_argument(
        "--token-seconds",
        type=float,
        default=0,
        help="an interaction token's life as the bot reckons it (default Discord's 15 minutes); a short one makes "
        "a short run renew trackers as a run of 10 minutes or more does",
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary databases and logs")
    return parser.parse_args(argv)


def machine() -> str:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"Python {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs, load average {load}"
    )


async def bots_section(report: Report, args: argparse.Namespace, url: str) -> list[Fight]:
    """Latency and throughput, Turnkeeper and echo interleaved. Returns the latency fights."""
    load_names = load_channels(args.load_channels)
    extra_channels = len(LATENCY_CHANNELS) + len(load_names)
    tk_standin = ObservedStandIn(default_world(extra_channels=extra_channels))
    echo_standin = ObservedStandIn(default_world(extra_channels=extra_channels))
    await tk_standin.start()
    await echo_standin.start()
    engine = create_engine(url)
    try:
        env = {"DATABASE_URL": url}
        if args.token_seconds:
            env["LAUNCHER_TOKEN_SECONDS"] = str(args.token_seconds)
        async with BotProcess(tk_standin, env=env) as _tk, BotProcess(echo_standin, "echo"):
            await tk_standin.wait_for_commands(global_=True)
            await echo_standin.wait_for_commands(global_=True)
            tk = Driver(tk_standin, Repository(engine))
            echo = Driver(echo_standin)
            await tk.run("general", "/campaign setup", {"system": SYSTEMS[0]}, tracked=False)
            gm = tk_standin.world.user("gm").id
            fights = [Fight(key, channel, gm) for key, channel in zip(SYSTEMS, LATENCY_CHANNELS)]
            load = [Fight(SYSTEMS[i % len(SYSTEMS)], channel, gm) for i, channel in enumerate(load_names)]
            started = time.perf_counter()
            await set_up_all(tk, fights + load)
            report.line(
                f"set up {len(fights) + len(load)} encounters through the bot in {time.perf_counter() - started:.1f} s"
            )

            report.section(
                f"Latency: interaction sent → callback received ({args.samples}+ commands each, one at a time)"
            )
            found = await rounds.latencies(tk, fights, echo, args.samples)
            latency_table(report, found)

            report.section(f"Throughput: {CONCURRENT} concurrent commands over {len(load_names)} channels")
            per_channel = CONCURRENT // len(load_names)
            tk_rates, echo_rates, failures = [], [], []
            for _ in range(args.batches):
                echo_rates.append(await rounds.echo_batch(echo, load_names, per_channel))
                rate, failed = await rounds.turnkeeper_batch(tk, load, per_channel)
                tk_rates.append(rate)
                failures += failed
            throughput_table(report, tk_rates, echo_rates, failures, per_channel, len(load_names))
            return fights
    finally:
        await engine.dispose()
        await tk_standin.stop()
        await echo_standin.stop()


def latency_table(report: Report, found: dict) -> None:
    base = median(found[("echo", rounds.ECHO)])
    report.line(f"{'system':<14} {'command':<17} {'n':>5} {'median':>10} {'p99':>10} {'× echo':>7}")
    report.line(
        f"{'echo baseline':<14} {rounds.ECHO:<17} {len(found[('echo', rounds.ECHO)]):>5} "
        f"{ms(base)} {ms(p99(found[('echo', rounds.ECHO)]))} {1:>7.2f}"
    )
    worst_ratio, worst_p99 = 0.0, 0.0
    for key in SYSTEMS:
        for label in (TAKE, ATTACK, END_TURN) if key == "factions" else (ATTACK, NEXT):
            values = found[(key, label)]
            ratio = median(values) / base
            report.line(f"{key:<14} {label:<17} {len(values):>5} {ms(median(values))} {ms(p99(values))} {ratio:>7.2f}")
            worst_ratio, worst_p99 = max(worst_ratio, ratio), max(worst_p99, p99(values))
    report.line(
        "(factions: /turn take and the End turn button are its turn commands; /initiative next is not used there)"
    )
    report.target("median latency ≤ 1.5× echo (worst command)", f"{worst_ratio:.2f}×", worst_ratio <= 1.5)
    report.target("p99 latency < 10 ms (worst command)", ms(worst_p99).strip(), worst_p99 < 0.010)


def throughput_table(
    report: Report, tk_rates: list[float], echo_rates: list[float], failures: list[str], per_channel: int, channels: int
) -> None:
    tk_rate, echo_rate = median(tk_rates), median(echo_rates)
    fmt = lambda rates: ", ".join(f"{r:.0f}" for r in rates)  # noqa: E731
    report.line(f"echo baseline: median {echo_rate:7.1f} commands/s  (batches: {fmt(echo_rates)})")
    report.line(f"Turnkeeper:    median {tk_rate:7.1f} commands/s  (batches: {fmt(tk_rates)})")
    report.line(
        f"Turnkeeper batches: /attack and turn commands, {per_channel} in a row per channel, "
        f"{channels / len(SYSTEMS):g} channels per system"
    )
    ratio = tk_rate / echo_rate
    report.line(f"ratio: {ratio:.2f}× echo")
    total = len(tk_rates) * CONCURRENT
    report.line(
        f"failed commands: {len(failures)} of {total}"
        + "".join(f"\n  {count} × {text}" for text, count in Counter(failures).most_common())
    )
    report.target("throughput ≥ 0.8× echo", f"{ratio:.2f}×", ratio >= 0.8)
    report.target("no command fails under load", f"{len(failures)} of {total} failed", not failures)


async def budget_section(report: Report) -> None:
    report.section("REST budget: non-interaction REST requests per command over the golden fights")
    worst = 0.0
    for pace, title in ((0.0, "back to back"), (budget.BUSY_PACE, f"one command every {budget.BUSY_PACE:g} s")):
        found = await budget.measure_all(pace=pace)
        report.line(f"-- {title}")
        for line in budget.lines(found):
            report.line(line)
        worst = max([worst] + [b.per_command for b in found])
    report.target("REST requests per command ≤ 0.5 (worst system)", f"{worst:.2f}", worst <= 0.5)


def rules_section(report: Report, fights: list[Fight]) -> dict[str, float]:
    report.section(f"Rules core alone (rules.engine.apply, no I/O): the same commands, best of {floors.TRIALS}")
    rates = {}
    for fight in fights:
        rates[fight.key] = floors.rules_per_second(fight)
        report.line(f"{fight.key:<14} {rates[fight.key]:9.0f} actions/s")
    return rates


async def database_section(report: Report, fights: list[Fight], url: str, rules: dict[str, float]) -> None:
    path = floors.sqlite_path(url)
    payload = floors.state_payload(fights[0])
    size = floors.describe_size(payload)
    report.section(
        f"Database floor on the benchmark's SQLite file (WAL, synchronous=NORMAL), {size} row, best of {floors.TRIALS}"
    )
    raw = floors.sqlite3_floor(path, payload)
    floor = await floors.aiosqlite_floor(path, payload)
    report.line(f"sqlite3   single-row upsert + commit: {raw:8.0f} /s   (reference)")
    report.line(f"aiosqlite single-row upsert + commit: {floor:8.0f} /s   (the floor)")
    report.line("Persisted actions through bot.core.Core.act (lock, load, apply, save state + event), one at a time;")
    report.line(
        "'storage' is the time per action beyond the rules core; 'bound' the ratio if storage cost one floor write:"
    )
    worst = None
    for n, fight in enumerate(fights):
        rate = await floors.persisted_per_second(url, fight, guild_id=1, channels=range(1_000 + 10 * n, 1_010 + 10 * n))
        ratio = rate / floor
        worst = ratio if worst is None else min(worst, ratio)
        storage = 1 / rate - 1 / rules[fight.key]
        bound = rules[fight.key] / (rules[fight.key] + floor)
        report.line(
            f"  {fight.key:<14} {rate:8.0f} actions/s = {ratio:.2f}× the floor; "
            f"storage {storage * 1000:.2f} ms/action; bound {bound:.2f}×"
        )
    report.target("persisted actions ≥ 0.5× aiosqlite floor (worst system)", f"{worst:.2f}×", worst >= 0.5)


async def scale_section(report: Report, fights: list[Fight], args: argparse.Namespace, workdir: Path) -> None:
    empty = scale.Side("empty", f"sqlite+aiosqlite:///{workdir / 'empty.db'}")
    name = f"{args.encounters // 1000}k" if args.encounters % 1000 == 0 else str(args.encounters)
    big = scale.Side(name, f"sqlite+aiosqlite:///{workdir / 'big.db'}")
    report.section(
        f"Scale: {args.encounters:,} stored encounters and {args.characters:,} characters vs an empty database"
    )
    await scale.migrate(empty.url)
    started = time.perf_counter()
    await seed(
        big.url,
        {f.key: f.state.model_dump(mode="json") for f in fights},
        encounters=args.encounters,
        characters=args.characters,
    )
    size = Path(floors.sqlite_path(big.url)).stat().st_size / 2**20
    report.line(
        f"seeded in {time.perf_counter() - started:.1f} s: {size:.0f} MiB "
        f"(a fifth still running, 5 events each, in 500 other servers)"
    )
    await scale.startups([empty, big], args.startups)
    await scale.latencies([empty, big], args.scale_commands)
    report.line(
        f"{'database':<8} {'start-up (median of ' + str(args.startups) + ')':>24} {'RSS ready':>10} "
        f"{'RSS after':>10} {'peak':>8} {'median':>10} {'p99':>10}"
    )
    for side in (empty, big):
        report.line(
            f"{side.name:<8} {median(side.startups):23.2f}s {median(side.ready_rss):8.1f}MiB "
            f"{side.rss_after:8.1f}MiB {side.peak_rss:6.1f}MiB {ms(median(side.latencies))} {ms(p99(side.latencies))}"
        )
    report.line(
        f"start-ups (s): empty {', '.join(f'{s:.2f}' for s in empty.startups)}; "
        f"{big.name} {', '.join(f'{s:.2f}' for s in big.startups)}"
    )
    extra = median(big.startups) - median(empty.startups)
    change = median(big.latencies) / median(empty.latencies) - 1
    report.target(f"start-up with {big.name} encounters < 1 s more", f"{extra:+.2f} s", extra < 1.0)
    report.target("memory < 150 MB (peak RSS)", f"{big.peak_rss:.1f} MiB", big.peak_rss * 2**20 < 150e6)
    report.target("latency within 10% of the empty database (median)", f"{change:+.1%}", abs(change) <= 0.10)


async def bench(args: argparse.Namespace) -> int:
    report = Report()
    report.line(f"Turnkeeper benchmark · {machine()}")
    workdir = Path(tempfile.mkdtemp(prefix="tk-bench-"))
    url = f"sqlite+aiosqlite:///{workdir / 'turnkeeper.db'}"
    report.line(f"database: {url}")
    try:
        fights = await bots_section(report, args, url)
        if not args.skip_budget:
            await budget_section(report)
        rules = rules_section(report, fights)
        await database_section(report, fights, url, rules)
        if not args.skip_scale:
            await scale_section(report, fights, args, workdir)
        report.summary()
        report.line(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        if args.keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    if not Path("bot").is_dir() or not Path("tests/perf").is_dir():
        print("run from the repository root: python -m tests.perf.bench", file=sys.stderr)
        return 2
    return asyncio.run(bench(arguments(argv)))


if __name__ == "__main__":
    sys.exit(main())
