"""Database backup and restore.

SQLite: ``backup`` uses SQLite's online backup API, which copies a consistent
snapshot while the bot keeps running (WAL mode lets it keep writing meanwhile).
``restore`` writes a backup back over the live database: stop the bot first.

PostgreSQL: use ``pg_dump`` / ``pg_restore``; nothing here wraps them.

Command line::

    python -m bot.backup backup  turnkeeper-2026-01-01.db   # uses DATABASE_URL
    python -m bot.backup restore turnkeeper-2026-01-01.db   # bot must be stopped
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from pathlib import Path

from sqlalchemy.engine import make_url

from bot.config import Settings


class BackupError(RuntimeError):
    pass


def sqlite_path(database_url: str) -> Path:
    """The database file of a SQLite URL; BackupError for anything else."""
    url = make_url(database_url)
    if url.get_backend_name() == "postgresql":
        raise BackupError(
            "PostgreSQL databases are backed up with pg_dump, e.g. "
            "`pg_dump -Fc -f turnkeeper.dump DBNAME`, and restored with pg_restore."
        )
    if url.get_backend_name() != "sqlite":
        raise BackupError(f"unsupported database for backup: {url.get_backend_name()}")
    if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
        raise BackupError(f"not a SQLite database file: {database_url}")
    return Path(url.database)


def _copy(source: Path, target: Path) -> None:
    # Write to a temporary name and rename, so an interrupted run never leaves a
    # truncated file where a good backup is expected.
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    src = sqlite3.connect(source, timeout=30)
    try:
        dst = sqlite3.connect(partial)
        try:
            src.backup(dst)
            # A standalone rollback-journal file: no -wal/-shm needed to read it.
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(partial, target)


async def backup(database_url: str, target_path: str | os.PathLike[str]) -> Path:
    """Copy a live SQLite database to ``target_path`` (overwritten) and return it."""
    source = sqlite_path(database_url)
    if not source.exists():
        raise BackupError(f"database file does not exist: {source}")
    target = Path(target_path)
    try:
        # A first backup often goes into a folder of backups not made yet (the README's example).
        target.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(_copy, source, target)
    except (OSError, sqlite3.Error) as error:
        raise BackupError(f"cannot back up to {target}: {error}") from error
    return target


def restore(backup_path: str | os.PathLike[str], database_url: str) -> None:
    """Replace the SQLite database with a backup. Stop the bot first: open
    connections would keep serving (and writing) the old data."""
    target = sqlite_path(database_url)
    source = Path(backup_path)
    if not source.is_file():
        raise BackupError(f"backup file does not exist: {source}")
    src = sqlite3.connect(source)
    try:
        try:
            checked = src.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise BackupError(f"not a SQLite database: {source} ({error})") from error
        if checked != "ok":
            raise BackupError(f"backup file failed its integrity check: {source}")
        # The backup API rather than a file copy: it goes through SQLite's locking and
        # handles the live database's -wal file, which a plain copy would leave stale.
        dst = sqlite3.connect(target, timeout=30)
        try:
            src.backup(dst)
        finally:
            dst.close()
    except sqlite3.Error as error:
        raise BackupError(f"cannot restore {source} to {target}: {error}") from error
    finally:
        src.close()


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in {"backup", "restore"}:
        print("usage: python -m bot.backup {backup|restore} FILE", file=sys.stderr)
        return 2
    url = Settings().database_url
    try:
        if argv[0] == "backup":
            print(asyncio.run(backup(url, argv[1])))
        else:
            restore(argv[1], url)
    except BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
