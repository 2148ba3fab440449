"""REST budget: non-interaction REST requests per command over the golden fights.

Discord counts every REST request of a bot token against its global limit (about 50 a
second) except interaction callbacks and interaction webhooks (followups). Each golden
script is played through the real bot and the stand-in with the bot's production
settings (tracker interval and pacing): back to back as a busy table would send its
commands, at 0.3 s, and at table pace (slower than the tracker interval, so no two
changes share an edit); requests are counted from the first line to the moment every
tracker shows the final state. (A fight longer than an interaction token's 15 minutes
adds one pin about every ten minutes, when the tracker moves to a fresh token:
tests/e2e/test_delivery.py.)

    python -m tests.perf.budget
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from bot.app import create_bot
from bot.config import Settings
from bot.sandbox_text import parse_script_line, run_script_line
from bot.standin.harness import running_client, running_standin
from bot.standin.world import default_world

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SEED = 1
BUSY_PACE = 0.3  # seconds between commands at a busy table
TABLE_PACE = 1.2  # seconds between commands: longer than the tracker interval


def interaction_route(path: str) -> bool:
    return path.startswith("/interactions/") or path.startswith("/webhooks/")


@dataclass
class Budget:
    system: str
    commands: int = 0
    requests: Counter = field(default_factory=Counter)  # "METHOD /route kind" -> count

    @property
    def total(self) -> int:
        return sum(self.requests.values())

    @property
    def per_command(self) -> float:
        return self.total / self.commands if self.commands else 0.0


def route_kind(method: str, path: str) -> str:
    parts = path.strip("/").split("/")
    kind = "/".join(p if not p.isdigit() else "{id}" for p in parts)
    return f"{method} /{kind}"


async def measure(script: Path, *, interval: float = 1.0, pace: float = 0.0) -> Budget:
    budget = Budget(script.stem)
    with tempfile.TemporaryDirectory(prefix="tk-budget-") as tmp:
        settings = Settings(
            discord_token="standin.bot.token",
            database_url=f"sqlite+aiosqlite:///{Path(tmp) / 'b.db'}",
            tracker_interval_seconds=interval,
        )
        async with running_standin(default_world()) as standin:
            factory = lambda: create_bot(settings, seed=SEED, guild_ready_timeout=0.05)  # noqa: E731
            async with running_client(standin, factory) as bot:
                channel = standin.channel("combat")
                gm_role = next(r for r in standin.world.guild_of_channel(channel).roles.values() if r.name == "GM")
                await bot.core.repo.save_campaign(
                    channel.guild_id, system=script.stem, gm_role_id=gm_role.id, settings={}
                )
                await bot.command_sets.refresh(channel.guild_id)
                await bot.idle.wait()
                start = len(standin.requests)
                for number, raw in enumerate(script.read_text(encoding="utf-8").splitlines(), start=1):
                    line = parse_script_line(raw, standin.commands, channel.guild_id, number)
                    if line is None:
                        continue
                    if line.kind == "click":  # the button arrives in a followup after the answer
                        await commands_done(bot)
                    await run_script_line(standin, line, in_channel=channel, timeout=10)
                    if line.kind in ("command", "click"):
                        budget.commands += 1
                        if pace:
                            await asyncio.sleep(pace)
                await bot.idle.wait()
                for method, path, _status in standin.requests[start:]:
                    if not interaction_route(path):
                        budget.requests[route_kind(method, path)] += 1
    return budget


async def commands_done(bot, timeout: float = 10.0) -> None:
    """Every command has sent all it sends; tracker edits may still be waiting."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while bot.busy > bot.trackers.waiting:
        if loop.time() > deadline:
            raise TimeoutError("the bot is still busy with commands")
        await asyncio.sleep(0.002)


async def measure_all(**kwargs) -> list[Budget]:
    return [await measure(script, **kwargs) for script in sorted(GOLDEN.glob("*.script"))]


def lines(budgets: list[Budget]) -> list[str]:
    out = [f"{'system':<14} {'commands':>8} {'requests':>8} {'per command':>12}  (what they were)"]
    for b in budgets:
        what = ", ".join(f"{n} × {k}" for k, n in b.requests.most_common())
        out.append(f"{b.system:<14} {b.commands:>8} {b.total:>8} {b.per_command:>12.2f}  {what}")
    commands = sum(b.commands for b in budgets)
    total = sum(b.total for b in budgets)
    out.append(f"{'all':<14} {commands:>8} {total:>8} {total / commands:>12.2f}")
    return out


async def main() -> int:
    for pace in (0.0, BUSY_PACE, TABLE_PACE):
        title = f"one command every {pace:g} s" if pace else "back to back"
        print(f"Non-interaction REST requests per command over the golden fights, {title}:")
        print("\n".join(lines(await measure_all(pace=pace))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
