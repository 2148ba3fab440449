"""`python -m bot` runs Turnkeeper; `python -m bot backup PATH` backs up SQLite."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from pydantic import ValidationError

from rules.registry import MODULES

from .app import StartUpError, run
from .backup import BackupError
from .backup import backup as do_backup
from .backup import restore as do_restore
from .config import Settings, settings_problem
from .sandbox import main as sandbox_main

NO_TOKEN = """\
No DISCORD_TOKEN is configured, so Turnkeeper cannot connect to Discord.

To get one:
  1. Open https://discord.com/developers/applications and create an application.
  2. Under "Bot", press "Reset Token" and copy the token.
  3. Put it in a file named .env next to pyproject.toml:  DISCORD_TOKEN=your-token
     (see .env.example for every setting), then run `python -m bot` again.
The README explains how to invite the bot to your server.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Turnkeeper, a Discord combat tracker")
    sub = parser.add_subparsers(dest="command")
    backup = sub.add_parser("backup", help="Copy the SQLite database safely while the bot runs")
    backup.add_argument("path")
    restore = sub.add_parser("restore", help="Replace the SQLite database with a backup (stop the bot first)")
    restore.add_argument("path")
    sandbox = sub.add_parser("sandbox", help="Try the bot offline against a local Discord stand-in")
    sandbox.add_argument("--system", choices=sorted(MODULES))
    sandbox.add_argument("--seed", type=int, default=1)
    sandbox.add_argument("script", nargs="?", help="A file of lines such as: alice: /initiative join character:Ann")
    args = parser.parse_args(argv)
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"error: {settings_problem(error)}", file=sys.stderr)
        return 2
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")

    if args.command in ("backup", "restore"):
        try:
            if args.command == "backup":
                asyncio.run(do_backup(settings.database_url, args.path))
            else:
                do_restore(args.path, settings.database_url)
        except BackupError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
        print(f"{'Backed up to' if args.command == 'backup' else 'Restored from'} {args.path}")
        return 0

    if args.command == "sandbox":
        logging.disable(logging.INFO)
        return sandbox_main(args)

    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        print("Starting the offline sandbox instead (python -m bot sandbox).\n", file=sys.stderr)
        logging.disable(logging.INFO)
        return sandbox_main(argparse.Namespace(script=None, system=None, seed=1))

    try:
        asyncio.run(run(settings))
    except StartUpError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
