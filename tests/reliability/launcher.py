"""Starts the unmodified bot in processes of its own, against a stand-in in the
test process, so a test can SIGKILL one mid-command and start the next.

It is a small fork server: it imports discord.py, the bot and the rule system
once, then forks a fresh process per ``start NAME`` line read from stdin. Each
child redirects discord.py's two endpoints (as the in-process harness does),
runs ``create_bot(Settings(...))`` and prints ``ready NAME`` once connected; the
server prints ``pid NAME PID`` so the test knows whom to kill. Forking skips the
second or two of imports a fresh interpreter pays, twenty times over; nothing of
the bot itself exists before the fork.

Environment: TURNKEEPER_TEST_API_BASE, TURNKEEPER_TEST_GATEWAY, TURNKEEPER_TEST_TOKEN,
TURNKEEPER_TEST_DATABASE_URL, TURNKEEPER_TEST_LOG_DIR (each child's stderr goes to
LOG_DIR/NAME.log: WARNING and worse).
"""

from __future__ import annotations

import logging
import os
import signal
import sys

from bot.app import COGS, create_bot
from bot.config import Settings
from bot.standin.harness import point_from_environment
from rules import registry


def reap(*_: object) -> None:
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def run_bot(name: str) -> None:
    log = os.open(
        os.path.join(os.environ["TURNKEEPER_TEST_LOG_DIR"], f"{name}.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    )
    os.dup2(log, 2)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    point_from_environment()
    settings = Settings(
        discord_token=os.environ["TURNKEEPER_TEST_TOKEN"], database_url=os.environ["TURNKEEPER_TEST_DATABASE_URL"]
    )
    bot = create_bot(settings, guild_ready_timeout=0.05)

    async def say_ready() -> None:
        print(f"ready {name}", flush=True)

    bot.add_listener(say_ready, "on_ready")
    bot.run(settings.discord_token.get_secret_value(), log_handler=None)


def main() -> None:
    # What a fresh process would import on its first command anyway.
    for module in COGS:
        __import__(module)
    registry.get(os.environ.get("TURNKEEPER_TEST_SYSTEM", "rotted-capes"))
    signal.signal(signal.SIGCHLD, reap)
    print("server ready", flush=True)
    for line in sys.stdin:
        command, _, name = line.strip().partition(" ")
        if command != "start" or not name:
            continue
        pid = os.fork()
        if pid == 0:
            try:
                run_bot(name)
            finally:
                os._exit(0)
        print(f"pid {name} {pid}", flush=True)


if __name__ == "__main__":
    main()
