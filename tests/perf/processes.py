"""Bot processes for the benchmark and the scale-out test (see ``launcher``)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path

from bot.standin import StandIn
from bot.standin.harness import endpoint_environment

ROOT = Path(__file__).resolve().parents[2]


class BotProcess:
    """``python -m tests.perf.launcher KIND`` in the repository root, aimed at ``standin``."""

    def __init__(
        self, standin: StandIn, kind: str = "turnkeeper", *, env: dict[str, str] | None = None, name: str = ""
    ) -> None:
        self.standin = standin
        self.kind = kind
        self.name = name or kind
        self.extra_env = dict(env or {})
        self.proc: asyncio.subprocess.Process | None = None
        self.started_at = 0.0
        self.ready_at = 0.0
        self._log = tempfile.NamedTemporaryFile(prefix=f"tk-{self.name}-", suffix=".log", delete=False)

    @property
    def startup_seconds(self) -> float:
        return self.ready_at - self.started_at

    def environment(self) -> dict[str, str]:
        # The bot's own settings come from here alone, not from this shell's environment.
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("SHARD_", "DEV_GUILD", "DATABASE_URL", "REMINDER_POLL", "DISCORD_TOKEN"))
        }
        env.update(endpoint_environment(self.standin))
        env.update(
            DISCORD_TOKEN=self.standin.token,
            LAUNCHER_NAME=self.name,
            DEV_GUILD_ID="",  # blank overrides a developer's .env: commands sync globally
            LOG_LEVEL="WARNING",
            PYTHONPATH=str(ROOT) + os.pathsep + env.get("PYTHONPATH", ""),
        )
        env.update(self.extra_env)
        return env

    async def start(self, timeout: float = 60.0) -> BotProcess:
        self.started_at = time.perf_counter()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.perf.launcher",
            self.kind,
            cwd=ROOT,
            env=self.environment(),
            stdout=asyncio.subprocess.PIPE,
            stderr=self._log,
        )
        try:
            line = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
        except TimeoutError:
            line = b""
        if line.strip() != b"ready":
            problem = f"bot process {self.name} did not become ready:\n{self.log()[-3000:]}"
            await self.stop()
            raise RuntimeError(problem)
        self.ready_at = time.perf_counter()
        return self

    def rss_mb(self) -> float:
        """Resident memory of the bot process now, in MiB."""
        return self._status_mb("VmRSS:")

    def peak_rss_mb(self) -> float:
        """The most resident memory the bot process has had, in MiB."""
        return self._status_mb("VmHWM:")

    def _status_mb(self, field: str) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) / 1024
        raise RuntimeError(f"no {field} in /proc/{self.proc.pid}/status")

    def cpu_seconds(self) -> float:
        """CPU time the bot process has used so far, its threads' included."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    async def stop(self, timeout: float = 10.0) -> None:
        """End the process (SIGTERM, then SIGKILL) and delete its log, unless it logged an
        error: then the log is kept and its path printed."""
        if self.proc is not None and self.proc.returncode is None:
            if "LAUNCHER_PROFILE" in self.extra_env:
                timeout = max(timeout, 120.0)  # writing the report takes a while
            self.proc.terminate()
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        self._log.close()
        if "Traceback" in self.log():
            print(f"bot process {self.name} logged errors: {self._log.name}", file=sys.stderr)
            return
        with contextlib.suppress(OSError):
            os.unlink(self._log.name)

    async def __aenter__(self) -> BotProcess:
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()
