"""The bot in processes of its own (see launcher.py), started and SIGKILLed by the crash test."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from pathlib import Path

from bot.standin import StandIn
from bot.standin.harness import endpoint_environment

from .support import TOKEN

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("launcher.py")
# Settings the children must not pick up from the developer's or CI's environment.
SCRUBBED = ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL")


class Life:
    """One bot process."""

    def __init__(self, name: str, pid: int, log: Path, session) -> None:
        self.name = name
        self.pid = pid
        self.log = log
        self.session = session  # its gateway session in the stand-in
        self.killed = False

    def errors(self) -> str:
        """What the process logged at ERROR or worse (a traceback counts too)."""
        text = self.log.read_text(errors="replace") if self.log.exists() else ""
        return "\n".join(line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL", "Traceback")))


class BotLauncher:
    """``async with BotLauncher(...) as launcher: life = await launcher.start(); await launcher.kill(life)``."""

    def __init__(self, standin: StandIn, database_url: str, workdir: Path) -> None:
        self.standin = standin
        self.database_url = database_url
        self.workdir = workdir
        self.lives: list[Life] = []
        self.server: asyncio.subprocess.Process | None = None

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env.update(endpoint_environment(self.standin))
        env.update(
            TURNKEEPER_TEST_TOKEN=TOKEN,
            TURNKEEPER_TEST_DATABASE_URL=self.database_url,
            TURNKEEPER_TEST_LOG_DIR=str(self.workdir),
        )
        return env

    async def __aenter__(self) -> BotLauncher:
        # The working directory holds no .env, so Settings reads nothing but what we pass.
        self.server = await asyncio.create_subprocess_exec(
            sys.executable,
            str(LAUNCHER),
            cwd=self.workdir,
            env=self._env(),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        await self._expect("server ready", 60)
        return self

    async def __aexit__(self, *exc) -> None:
        for life in self.lives:
            if not life.killed:
                await self.kill(life)
        self.server.stdin.close()
        try:
            await asyncio.wait_for(self.server.wait(), 10)
        except TimeoutError:
            self.server.kill()
            await self.server.wait()

    async def _expect(self, prefix: str, timeout: float) -> str:
        try:
            line = (await asyncio.wait_for(self.server.stdout.readline(), timeout)).decode().strip()
        except TimeoutError:
            raise AssertionError(f"the launcher did not say {prefix!r} within {timeout}s") from None
        assert line.startswith(prefix), f"the launcher said {line!r}, not {prefix!r}" + self._last_log()
        return line

    def _last_log(self) -> str:
        return (
            f"\n{self.lives[-1].log.read_text(errors='replace')}" if self.lives and self.lives[-1].log.exists() else ""
        )

    async def start(self, timeout: float = 30.0) -> Life:
        name = f"bot-life-{len(self.lives)}"
        sessions_before = len(self.standin.gateway.sessions)
        self.server.stdin.write(f"start {name}\n".encode())
        await self.server.stdin.drain()
        pid = int((await self._expect(f"pid {name}", 10)).split()[-1])
        life = Life(name, pid, self.workdir / f"{name}.log", None)
        self.lives.append(life)
        await self._expect(f"ready {name}", timeout)
        assert len(self.standin.gateway.sessions) == sessions_before + 1
        life.session = list(self.standin.gateway.sessions.values())[-1]
        return life

    async def kill(self, life: Life) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(life.pid, signal.SIGKILL)
        life.killed = True
        # The stand-in sees the socket close; wait, so no interaction goes to a dead session.
        if life.session is not None:
            await self.standin.wait_for(
                lambda: not life.session.connected or None, 10, f"{life.name}'s socket to close"
            )
