"""A campaign survives upgrades, backups and restores.

* The first release's schema (revision 0001), filled with a real campaign — a
  running fight with its log, an ended one, characters, settings — is migrated
  to the current schema: every row is still there, unchanged, and the bot
  carries on the fight.
* ``python -m bot backup PATH`` copies the live WAL database while the bot keeps
  writing: the copy is a consistent snapshot; ``python -m bot restore PATH``
  (bot stopped) brings it back and the fight goes on from there.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from alembic import command

from bot.db import alembic_config, create_engine, upgrade_schema
from bot.repository import Repository
from bot.standin import running_standin
from rules import registry
from rules.actions import AddCombatants, NextTurn, Note
from rules.engine import apply
from rules.model import Actor
from rules.text import english

from .support import (
    BRUTE,
    BULWARK,
    NOVA,
    SYSTEM,
    Commander,
    check_replay,
    reliability_world,
    running_bot,
    say,
    setup_campaign,
    setup_fight,
)

ROOT = Path(__file__).resolve().parents[2]
FIRST_RELEASE = "0001"

# The tables as revision 0001 made them: a frozen copy, so this test keeps writing
# first-release rows however the models change later.
OLD = sa.MetaData()
OLD_CAMPAIGN = sa.Table(
    "campaign",
    OLD,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("system", sa.String),
    sa.Column("gm_role_id", sa.BigInteger),
    sa.Column("settings", sa.JSON),
    sa.Column("state", sa.JSON),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("updated_at", sa.DateTime(timezone=True)),
)
OLD_CHARACTER = sa.Table(
    "character",
    OLD,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("owner_id", sa.BigInteger),
    sa.Column("name", sa.String),
    sa.Column("name_key", sa.String),
    sa.Column("system", sa.String),
    sa.Column("sheet", sa.JSON),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
OLD_ENCOUNTER = sa.Table(
    "encounter",
    OLD,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("guild_id", sa.BigInteger),
    sa.Column("channel_id", sa.BigInteger),
    sa.Column("system", sa.String),
    sa.Column("status", sa.String),
    sa.Column("state", sa.JSON),
    sa.Column("version", sa.Integer),
    sa.Column("tracker_message_id", sa.BigInteger),
    sa.Column("turn_message_id", sa.BigInteger),
    sa.Column("reminder_due", sa.DateTime(timezone=True)),
    sa.Column("reminders_sent", sa.Integer),
    sa.Column("pending_deadline", sa.DateTime(timezone=True)),
    sa.Column("created_at", sa.DateTime(timezone=True)),
    sa.Column("updated_at", sa.DateTime(timezone=True)),
)
OLD_EVENT = sa.Table(
    "event",
    OLD,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("encounter_id", sa.Integer),
    sa.Column("seq", sa.Integer),
    sa.Column("user_id", sa.BigInteger),
    sa.Column("command", sa.String),
    sa.Column("summary", sa.String),
    sa.Column("state_before", sa.JSON),
    sa.Column("undone", sa.Boolean),
    sa.Column("created_at", sa.DateTime(timezone=True)),
)
OLD_TABLES = (OLD_CAMPAIGN, OLD_CHARACTER, OLD_ENCOUNTER, OLD_EVENT)


def _stamp(when: datetime, backend: str) -> datetime:
    # As the first release stored times: naive UTC text on SQLite, timestamptz on PostgreSQL.
    return when.replace(tzinfo=None) if backend == "sqlite" else when


def first_release_rows(world, backend: str) -> dict[sa.Table, list[dict]]:
    """A real campaign as the first release would have saved it, built with the rules engine."""
    guild = world.default_guild
    gm, alice, bob = (world.user(n).id for n in ("gm", "alice", "bob"))
    combat, other = world.channel("combat").id, world.channel("combat-2").id
    system = registry.get(SYSTEM)
    t0 = datetime(2026, 1, 2, 20, 0, tzinfo=UTC)
    nova, bulwark = system.parse_sheet(NOVA), system.parse_sheet(BULWARK)
    state = system.new_encounter(
        gm, 12345, {"reminder_minutes": 5, "choice_timeout_seconds": 120, "offer_plot_disadvantage": False}
    )
    steps = [
        (
            alice,
            "/initiative join",
            AddCombatants(
                by=Actor(user_id=alice),
                name="Nova",
                sheet=nova,
                npc=False,
                controller_id=alice,
                character_id=1,
                dice=(19,),
            ),
        ),
        (
            bob,
            "/initiative join",
            AddCombatants(
                by=Actor(user_id=bob),
                name="Bulwark",
                sheet=bulwark,
                npc=False,
                controller_id=bob,
                character_id=2,
                dice=(5,),
            ),
        ),
        (
            gm,
            "/initiative add",
            AddCombatants(
                by=Actor(user_id=gm, is_gm=True), name="Brute", count=2, sheet=system.parse_sheet(BRUTE), dice=(10, 9)
            ),
        ),
        (gm, "/initiative next", NextTurn(by=Actor(user_id=gm, is_gm=True))),
        (alice, "/encounter note", Note(by=Actor(user_id=alice), text="Nova ✨ «quotes» and <@&1> stay as typed")),
        (gm, "/initiative next", NextTurn(by=Actor(user_id=gm, is_gm=True))),
    ]
    events = []
    for seq, (user, name, action) in enumerate(steps, 1):
        outcome = apply(state, action)
        events.append(
            {
                "id": seq,
                "encounter_id": 1,
                "seq": seq,
                "user_id": user,
                "command": name,
                "summary": english(outcome.summary),  # the first release stored plain English
                "state_before": state.model_dump(mode="json"),
                "undone": seq == len(steps),
                "created_at": _stamp(t0 + timedelta(minutes=seq), backend),
            }
        )
        state = outcome.state
    # The last step was undone: the saved state is the one before it.
    saved = system.load(events[-1]["state_before"])
    ended = system.new_encounter(gm, 7, {}).but(status="ended")
    return {
        OLD_CAMPAIGN: [
            {
                "guild_id": guild.id,
                "system": SYSTEM,
                "gm_role_id": world.role("GM").id,
                "settings": {"reminder_minutes": 5, "starting_plot_points": 2},
                "state": {"issue": 3},
                "created_at": _stamp(t0, backend),
                "updated_at": _stamp(t0, backend),
            }
        ],
        OLD_CHARACTER: [
            {
                "id": 1,
                "guild_id": guild.id,
                "owner_id": alice,
                "name": "Nova",
                "name_key": "nova",
                "system": SYSTEM,
                "sheet": nova,
                "created_at": _stamp(t0, backend),
            },
            {
                "id": 2,
                "guild_id": guild.id,
                "owner_id": bob,
                "name": "Bulwark",
                "name_key": "bulwark",
                "system": SYSTEM,
                "sheet": bulwark,
                "created_at": _stamp(t0, backend),
            },
        ],
        OLD_ENCOUNTER: [
            {
                "id": 1,
                "guild_id": guild.id,
                "channel_id": combat,
                "system": SYSTEM,
                "status": "active",
                "state": saved.model_dump(mode="json"),
                "version": len(steps) + 2,
                "tracker_message_id": 111,
                "turn_message_id": 222,
                "reminder_due": _stamp(t0 + timedelta(hours=1), backend),
                "reminders_sent": 1,
                "pending_deadline": None,
                "created_at": _stamp(t0, backend),
                "updated_at": _stamp(t0 + timedelta(minutes=9), backend),
            },
            {
                "id": 2,
                "guild_id": guild.id,
                "channel_id": other,
                "system": SYSTEM,
                "status": "ended",
                "state": ended.model_dump(mode="json"),
                "version": 3,
                "tracker_message_id": None,
                "turn_message_id": None,
                "reminder_due": None,
                "reminders_sent": 0,
                "pending_deadline": None,
                "created_at": _stamp(t0, backend),
                "updated_at": _stamp(t0, backend),
            },
        ],
        OLD_EVENT: events,
    }


def _upgrade_to(conn: sa.Connection, revision: str) -> None:
    config = alembic_config(conn.engine.url.render_as_string(hide_password=False))
    config.attributes["connection"] = conn
    command.upgrade(config, revision)
    conn.commit()


def _read_old(conn: sa.Connection) -> dict[str, list[dict]]:
    out = {}
    for table in OLD_TABLES:
        key = list(table.primary_key.columns)[0]
        out[table.name] = [dict(r._mapping) for r in conn.execute(sa.select(table).order_by(key))]
    return out


async def test_a_first_release_database_upgrades_with_nothing_lost(database_url, db_backend, errors):
    world = reliability_world()
    rows = first_release_rows(world, db_backend)
    engine = create_engine(database_url)
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_upgrade_to, FIRST_RELEASE)
        async with engine.begin() as conn:
            for table, values in rows.items():
                await conn.execute(sa.insert(table), values)
            if db_backend == "postgresql":
                # Explicit ids leave the sequences behind; the first release's own inserts would not.
                for table in (OLD_CHARACTER, OLD_ENCOUNTER, OLD_EVENT):
                    await conn.execute(
                        sa.text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), (SELECT max(id) FROM "
                            f"{table.name}))"
                        )
                    )
        async with engine.connect() as conn:
            before = await conn.run_sync(_read_old)

        await upgrade_schema(engine)

        async with engine.connect() as conn:
            after = await conn.run_sync(_read_old)
        assert after == before, "a migration changed or lost first-release data"
        repo = Repository(engine)
        record = await repo.active_encounter(world.channel("combat").id)
        system = registry.get(record.system)
        for event in await repo.events(record.id):
            system.load(event.state_before)  # every logged state still loads
        assert (await repo.get_campaign(world.default_guild.id)).settings == {
            "reminder_minutes": 5,
            "starting_plot_points": 2,
        }
        assert [c.name for c in await repo.list_characters(world.default_guild.id)] == ["Bulwark", "Nova"]
    finally:
        await engine.dispose()

    # The bot picks the fight up where the first release left it.
    async with running_standin(world) as standin:
        async with running_bot(standin, database_url) as bot:
            status = await say(standin, "gm", "/encounter status")
            shown = status.embeds[0]["description"]
            assert all(name in shown for name in ("Nova", "Bulwark", "Brute 1", "Brute 2"))
            log = await say(standin, "gm", "/encounter log")
            text = log.attachments[0].data.decode()
            # Typed text is escaped in the Markdown log; a reader sees it as typed.
            shown = re.sub(r"\\(.)", r"\1", text)
            assert "Nova ✨ «quotes» and <@&1> stay as typed" in shown and "~~/initiative next~~" in text
            commander = Commander(standin)
            step = await commander.send("gm", "/initiative next")
            await commander.answers([step])
            assert step.applied, step.handle.messages[0].content
            await check_replay(bot.core.repo, standin.channel("combat").id, commander.sent, after_seq=6)
            undo = await say(standin, "gm", "/encounter undo")
            assert "Undid 1 action" in undo.content
            assert len(await bot.core.repo.events(record.id)) == 8
    assert errors.records == [], errors.describe()


# --- backup and restore ---------------------------------------------------------------------
def run_cli(*args: str, database_url: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DISCORD_TOKEN")}
    env["DATABASE_URL"] = database_url
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


async def test_backup_of_the_live_database_and_restore(tmp_path, errors):
    # SQLite only, whatever TEST_DATABASE_URL says: the command is for SQLite's online backup.
    database_url = f"sqlite+aiosqlite:///{tmp_path / 'live.db'}"
    copy = tmp_path / "backups" / "turnkeeper-copy.db"
    copy.parent.mkdir()
    async with running_standin(reliability_world()) as standin:
        channel = standin.channel("combat").id
        async with running_bot(standin, database_url) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            commander = Commander(standin)
            stop = asyncio.Event()

            async def keep_playing() -> None:
                n = 0
                while not stop.is_set():
                    n += 1
                    batch = [
                        await commander.send("gm", "/damage", target="Brute 1", amount="1d4"),
                        await commander.send("alice", "/encounter note", text=f"note {n}"),
                    ]
                    await commander.answers(batch)

            async def played(at_least: int) -> None:
                await standin.wait_for(
                    lambda: sum(s.acknowledged for s in commander.sent) >= at_least or None, 30, f"{at_least} commands"
                )

            player = asyncio.create_task(keep_playing())
            await played(6)
            done = await asyncio.to_thread(run_cli, "backup", str(copy), database_url=database_url, cwd=tmp_path)
            await played(sum(s.acknowledged for s in commander.sent) + 6)
            stop.set()
            await player
            assert done.returncode == 0, done.stderr
            live_events = await bot.core.repo.events((await bot.core.repo.active_encounter(channel)).id)
            live_state = (await bot.core.repo.active_encounter(channel)).state

        with contextlib.closing(sqlite3.connect(copy)) as db:
            assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert db.execute("PRAGMA journal_mode").fetchone() == ("delete",), "the copy stands alone, without -wal"
        snapshot = Repository(create_engine(f"sqlite+aiosqlite:///{copy}"))
        try:
            saved = await snapshot.active_encounter(channel)
            copied_events = await snapshot.events(saved.id)
        finally:
            await snapshot.engine.dispose()
        # A consistent snapshot: the copy's state is exactly what its last logged command left.
        assert 4 + 6 <= len(copied_events) < len(live_events), "the backup ran while the bot was writing"
        assert [e.summary for e in copied_events] == [e.summary for e in live_events[: len(copied_events)]]
        assert saved.state == live_events[len(copied_events)].state_before

        restored = await asyncio.to_thread(run_cli, "restore", str(copy), database_url=database_url, cwd=tmp_path)
        assert restored.returncode == 0, restored.stderr
        async with running_bot(standin, database_url) as bot:
            record = await bot.core.repo.active_encounter(channel)
            assert record.state == saved.state and record.state != live_state
            assert len(await bot.core.repo.events(record.id)) == len(copied_events)
            answer = await say(standin, "gm", "/damage", target="Brute 1", amount="1")
            assert not answer.ephemeral, answer.content
    assert errors.records == [], errors.describe()
    print(f"backup: {len(copied_events)} of {len(live_events)} events in the live copy; restored and played on")


def test_backup_of_postgresql_explains_pg_dump(tmp_path):
    done = run_cli("backup", str(tmp_path / "x.db"), database_url="postgresql+asyncpg://u@127.0.0.1:1/db", cwd=tmp_path)
    assert done.returncode != 0
    assert "pg_dump" in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_backup_into_a_folder_not_made_yet(tmp_path):
    # The README's example, `python -m bot backup backups/turnkeeper-2026-11-22.db`, on a first run.
    live = tmp_path / "live.db"
    with contextlib.closing(sqlite3.connect(live)) as db, db:
        db.execute("CREATE TABLE kept (n INTEGER)")
        db.execute("INSERT INTO kept VALUES (7)")
    done = run_cli(
        "backup", "backups/turnkeeper-2026-11-22.db", database_url=f"sqlite+aiosqlite:///{live}", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    with contextlib.closing(sqlite3.connect(tmp_path / "backups" / "turnkeeper-2026-11-22.db")) as db:
        assert db.execute("SELECT n FROM kept").fetchall() == [(7,)]


def test_restore_of_a_file_that_is_no_database_says_so_and_changes_nothing(tmp_path):
    live = tmp_path / "live.db"
    with contextlib.closing(sqlite3.connect(live)) as db, db:
        db.execute("CREATE TABLE kept (n INTEGER)")
    (tmp_path / "notes.txt").write_text("not a database\n" * 100)
    done = run_cli("restore", "notes.txt", database_url=f"sqlite+aiosqlite:///{live}", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.startswith("error: ") and "Traceback" not in done.stderr, done.stderr
    with contextlib.closing(sqlite3.connect(live)) as db:
        assert db.execute("SELECT name FROM sqlite_master").fetchall() == [("kept",)]
