"""`python -m bot sandbox`: the real bot against the local Discord stand-in.

One server with a GM called `gm` and players `alice`, `bob` and `carol`. Lines
like `alice: /initiative join character:"Silver Star" roll:15` or
`bob: click "End turn"` come from a script or an interactive prompt, and every
message the bot sends is printed as readable text. The same seed and script
always give the same transcript.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from .app import create_bot, quiet_voice
from .config import Settings
from .sandbox_text import ScriptError, parse_script_line, run_script_line, transcript_of
from .standin.harness import running_client, running_standin
from .standin.world import default_world

BANNER = """Turnkeeper sandbox: a local Discord with one server, a GM `gm` and players alice, bob and carol.
Type lines such as   gm: /campaign setup system:rotted-capes   or   alice: click "End turn"
(`quit` or Ctrl-D to leave)."""


async def settle(standin, bot, quiet: float = 0.05) -> None:
    """Wait until the bot has finished every command and sent nothing for a moment."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    count = -1
    while loop.time() < deadline:
        await bot.idle.wait()
        if len(standin.book.events) == count:
            return
        count = len(standin.book.events)
        await asyncio.sleep(quiet)


async def sandbox(script: str | None, *, system: str | None, seed: int, out=sys.stdout, prompt=input) -> int:
    quiet_voice()
    with tempfile.TemporaryDirectory(prefix="turnkeeper-sandbox-") as tmp:
        database = f"sqlite+aiosqlite:///{Path(tmp) / 'sandbox.db'}"
        async with running_standin(default_world()) as standin:
            # Edits at once: a local stand-in has no per-channel budget to keep, and transcripts stay in order.
            settings = Settings(discord_token=standin.token, database_url=database, tracker_interval_seconds=0)
            async with running_client(
                standin, lambda: create_bot(settings, seed=seed, guild_ready_timeout=0.05)
            ) as bot:
                channel = standin.channel("combat")
                if system:
                    guild = standin.world.guild_of_channel(channel)
                    gm_role = next(r for r in guild.roles.values() if r.name == "GM")
                    await bot.core.repo.save_campaign(guild.id, system=system, gm_role_id=gm_role.id, settings={})
                    await bot.command_sets.refresh(guild.id)
                lines = script.splitlines() if script is not None else None
                if lines is None:
                    print(BANNER, file=out, flush=True)
                return await _drive(standin, bot, channel, lines, out, prompt)


async def _drive(standin, bot, channel, lines, out, prompt) -> int:
    failures = 0
    number = 0
    while True:
        if lines is not None:
            if number >= len(lines):
                return 1 if failures else 0
            raw = lines[number]
        else:
            try:
                raw = await asyncio.to_thread(prompt, "> ")
            except EOFError:
                return 0
            if raw.strip() in ("quit", "exit"):
                return 0
        number += 1
        start = len(standin.book.events)
        try:
            line = parse_script_line(raw, standin.commands, channel.guild_id, number)
            if line is None:
                continue
            await run_script_line(standin, line, in_channel=channel, timeout=10)
        except (ScriptError, ValueError, TimeoutError) as error:
            failures += 1
            print(f"!! {error}", file=out, flush=True)
            continue
        await settle(standin, bot)
        text = transcript_of(standin, since=start)
        if text:
            print(text, file=out, flush=True)


def main(args) -> int:
    script = Path(args.script).read_text(encoding="utf-8") if args.script else None
    if script is None:
        try:
            import readline  # noqa: F401  (gives the prompt line editing and history)
        except ImportError:
            pass
    return asyncio.run(sandbox(script, system=args.system, seed=args.seed))
