"""`python -m bot` checks its configuration and its database before it contacts Discord, and a start-up
that cannot go on ends with one line saying what to do and a non-zero exit code, not a traceback."""

from __future__ import annotations

import asyncio
import socket
import sys
from pathlib import Path

from bot.standin import SANDBOX_GUILD, running_standin
from bot.standin.harness import API_VARIABLE, GATEWAY_VARIABLE, endpoint_environment

ROOT = Path(__file__).resolve().parents[2]
# `python -m bot`, with discord.py's two endpoints taken from STANDIN_API and STANDIN_GATEWAY.
POINTED_BOT = """
import sys
from bot.standin.harness import point_from_environment
point_from_environment()
from bot.__main__ import main
sys.exit(main([]))
"""


def closed_port() -> int:
    """A loopback port nothing listens on: connecting to it is refused, as with no network."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def nowhere() -> dict[str, str]:
    port = closed_port()
    return {API_VARIABLE: f"http://127.0.0.1:{port}/api/v10", GATEWAY_VARIABLE: f"ws://127.0.0.1:{port}/gateway/"}


async def start_bot(tmp_path: Path, endpoints: dict[str, str], **settings: str) -> tuple[int, list[str]]:
    """Runs the bot until it stops; its exit code and the lines it wrote to stderr."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "HOME": str(tmp_path),
        "DISCORD_TOKEN": "standin.bot.token",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        "LOG_LEVEL": "WARNING",
        **endpoints,
        **settings,
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", POINTED_BOT, cwd=tmp_path, env=env, stderr=asyncio.subprocess.PIPE
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, err.decode().splitlines()


def one_error_line(code: int, lines: list[str]) -> str:
    assert code != 0, lines
    assert not any("Traceback" in line for line in lines), "\n".join(lines)
    errors = [line for line in lines if line.startswith("error: ")]
    assert len(errors) == 1 and lines[-1] == errors[0], "\n".join(lines)
    return errors[0]


async def test_a_bad_setting_is_told_before_anything_is_opened(tmp_path):
    code, lines = await start_bot(tmp_path, nowhere(), SHARD_COUNT="two")
    line = one_error_line(code, lines)
    assert "SHARD_COUNT" in line and ".env" in line
    assert not (tmp_path / "bot.db").exists()


async def test_shard_ids_without_a_shard_count_is_a_bad_setting(tmp_path):
    code, lines = await start_bot(tmp_path, nowhere(), SHARD_IDS="0,1")
    line = one_error_line(code, lines)
    assert "SHARD_IDS" in line and "SHARD_COUNT" in line


async def test_an_unknown_log_level_is_a_bad_setting(tmp_path):
    code, lines = await start_bot(tmp_path, nowhere(), LOG_LEVEL="verbose")
    line = one_error_line(code, lines)
    assert code == 2 and "LOG_LEVEL" in line and "WARNING" in line


async def test_an_unreachable_database_is_told_before_discord_is_contacted(tmp_path):
    async with running_standin() as standin:
        code, lines = await start_bot(
            tmp_path,
            endpoint_environment(standin),
            DATABASE_URL=f"postgresql+asyncpg://turnkeeper:hush@127.0.0.1:{closed_port()}/turnkeeper",
        )
        assert standin.requests == [], "Discord was contacted with a database the bot cannot use"
    line = one_error_line(code, lines)
    assert "DATABASE_URL" in line and "database" in line
    assert "hush" not in line, "the password is not shown"


async def test_a_database_file_that_cannot_be_made_is_told(tmp_path):
    code, lines = await start_bot(
        tmp_path, nowhere(), DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'no-such-folder' / 'bot.db'}"
    )
    line = one_error_line(code, lines)
    assert "DATABASE_URL" in line


async def test_no_network_is_one_line_not_a_traceback(tmp_path):
    code, lines = await start_bot(tmp_path, nowhere())
    line = one_error_line(code, lines)
    assert "cannot reach Discord" in line and "network" in line
    assert (tmp_path / "bot.db").exists(), "the database was opened first"


async def test_a_token_discord_refuses_is_told_with_how_to_get_a_new_one(tmp_path):
    async with running_standin() as standin:
        code, lines = await start_bot(tmp_path, endpoint_environment(standin), DISCORD_TOKEN="an.old.token")
    line = one_error_line(code, lines)
    assert "DISCORD_TOKEN" in line and "Reset Token" in line


async def test_a_server_invited_without_the_commands_scope_is_told(tmp_path):
    async with running_standin() as standin:
        guild = standin.world.guild(SANDBOX_GUILD)
        guild.commands_scope = False
        code, lines = await start_bot(tmp_path, endpoint_environment(standin), DEV_GUILD_ID=str(guild.id))
    line = one_error_line(code, lines)
    assert "applications.commands" in line and "DEV_GUILD_ID" in line and str(guild.id) in line
