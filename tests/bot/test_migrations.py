"""Schema migrations, SQLite connection setup, and backup/restore."""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import alembic.command
import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

import bot.db
from bot.backup import BackupError, backup, restore
from bot.db import create_engine, head_revision, upgrade_schema
from bot.repository import DuplicateName, NewChange, NewEvent, Repository
from bot.tables import UTCDateTime, metadata

ROOT = Path(__file__).resolve().parents[2]
HEAD = "0011"
TABLES = {"campaign", "character", "encounter", "event", "npc", "campaign_change", "campaign_place", "encounter_share"}


async def _tables(engine) -> set[str]:
    async with engine.connect() as conn:
        return set(await conn.run_sync(lambda c: sa.inspect(c).get_table_names()))


async def _revision(engine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


async def test_upgrade_creates_schema_then_is_a_no_op(database_url: str, monkeypatch) -> None:
    engine = create_engine(database_url)
    try:
        assert await _tables(engine) == set()
        await upgrade_schema(engine)
        assert await _tables(engine) == TABLES | {"alembic_version"}
        assert await _revision(engine) == head_revision() == HEAD

        repo = Repository(engine)
        await repo.save_campaign(1, system="dnd5e")

        def must_not_run(*args, **kwargs):
            raise AssertionError("upgrade_schema re-ran migrations although already at head")

        monkeypatch.setattr(alembic.command, "upgrade", must_not_run)
        await upgrade_schema(engine)
        assert await _revision(engine) == HEAD
        assert (await repo.get_campaign(1)).system == "dnd5e"
    finally:
        await engine.dispose()


async def test_migrated_schema_matches_the_models(engine) -> None:
    def diff(conn):
        return compare_metadata(MigrationContext.configure(conn), metadata)

    async with engine.connect() as conn:
        assert await conn.run_sync(diff) == []


async def test_concurrent_upgrades_of_a_new_database(database_url: str) -> None:
    engines = [create_engine(database_url) for _ in range(3)]
    try:
        await asyncio.gather(*(upgrade_schema(e) for e in engines))
        assert await _revision(engines[0]) == HEAD
        assert await _tables(engines[1]) == TABLES | {"alembic_version"}
    finally:
        for e in engines:
            await e.dispose()


async def test_alembic_command_line(database_url: str) -> None:
    env = {**os.environ, "DATABASE_URL": database_url}

    def alembic(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "alembic", "-c", "bot/migrations/alembic.ini", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    await asyncio.to_thread(alembic, "upgrade", "head")
    engine = create_engine(database_url)
    try:
        assert await _revision(engine) == HEAD
        await asyncio.to_thread(alembic, "downgrade", "base")
        assert await _tables(engine) == {"alembic_version"}
        assert "0001" in await asyncio.to_thread(alembic, "history")
        await upgrade_schema(engine)  # programmatic path after the CLI one
        assert await _tables(engine) == TABLES | {"alembic_version"}
    finally:
        await engine.dispose()


async def test_a_migration_by_hand_waits_for_a_starting_bots_migration(database_url: str) -> None:
    """README: the schema is migrated at start-up, safely even when several processes start at once; an
    operator's `alembic … upgrade head` meanwhile waits its turn too, instead of racing the bot's."""
    engine = create_engine(database_url)
    env = {**os.environ, "DATABASE_URL": database_url}
    command = [sys.executable, "-m", "alembic", "-c", "bot/migrations/alembic.ini", "upgrade", "head"]
    try:
        async with engine.connect() as holder:  # a bot's migration under way, holding what it holds
            await holder.execution_options(**{bot.db.SQLITE_IMMEDIATE: True})
            if engine.dialect.name == "postgresql":
                await holder.exec_driver_sql(f"SELECT pg_advisory_xact_lock({bot.db._PG_MIGRATION_LOCK})")
            else:
                await holder.exec_driver_sql("CREATE TABLE held (n INTEGER)")
            by_hand = await asyncio.create_subprocess_exec(
                *command, cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
            )
            # Longer than a migration by hand takes (about 2 s), shorter than SQLite's busy timeout.
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(asyncio.shield(by_hand.wait()), 6)
            await holder.rollback()
        _, stderr = await asyncio.wait_for(by_hand.communicate(), 60)
        assert by_hand.returncode == 0, stderr.decode()
        assert await _revision(engine) == HEAD
    finally:
        await engine.dispose()


async def test_sqlite_connection_settings(engine, db_backend: str) -> None:
    if db_backend != "sqlite":
        pytest.skip("SQLite only")
    async with engine.connect() as conn:
        pragma = lambda name: conn.exec_driver_sql(f"PRAGMA {name}")  # noqa: E731
        assert (await pragma("journal_mode")).scalar() == "wal"
        assert (await pragma("synchronous")).scalar() == 1  # NORMAL
        assert (await pragma("foreign_keys")).scalar() == 1
        assert (await pragma("busy_timeout")).scalar() >= 1000


async def test_deleting_an_encounter_cascades_to_its_events(repo: Repository) -> None:
    enc = await repo.create_encounter(1, 2, "dnd5e", {})
    await repo.commit(enc.id, 1, state={}, events=[NewEvent(1, "a", "b", {})])
    async with repo.engine.begin() as conn:
        await conn.execute(sa.text("DELETE FROM encounter WHERE id = :id"), {"id": enc.id})
    assert await repo.events(enc.id) == []


# -- backup ------------------------------------------------------------------------


async def test_backup_of_a_live_database_and_restore(
    engine, database_url: str, tmp_path: Path, db_backend: str
) -> None:
    if db_backend != "sqlite":
        pytest.skip("SQLite only; PostgreSQL uses pg_dump")
    repo = Repository(engine)
    await repo.save_campaign(2**62, system="dnd5e", settings={"x": 1})
    enc = await repo.create_encounter(2**62, 5, "dnd5e", {"n": 0})
    stop = asyncio.Event()

    async def keep_writing() -> int:
        version = enc.version
        while not stop.is_set():
            version = await repo.commit(enc.id, version, state={"n": version}, events=[NewEvent(1, "inc", "", {})])
            await asyncio.sleep(0)
        return version

    writer = asyncio.create_task(keep_writing())
    await asyncio.sleep(0.05)
    target = await backup(database_url, tmp_path / "copy.db")
    await asyncio.sleep(0.05)
    stop.set()
    final_version = await writer

    with sqlite3.connect(target) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert copy.execute("SELECT system FROM campaign WHERE guild_id = ?", (2**62,)).fetchone() == ("dnd5e",)
        version, state = copy.execute("SELECT version, state FROM encounter").fetchone()
        (events,) = copy.execute("SELECT count(*) FROM event").fetchone()
    # A consistent snapshot: every commit wrote exactly one event.
    assert 1 < version < final_version
    assert events == version - 1
    assert not Path(str(target) + "-wal").exists()

    await repo.add_character(2**62, 1, "After Backup", "dnd5e", {})
    await engine.dispose()  # "stop the bot"
    restore(target, database_url)

    restored = Repository(create_engine(database_url))
    try:
        assert await restored.get_character(2**62, "after backup") is None
        assert (await restored.get_encounter(enc.id)).version == version
    finally:
        await restored.engine.dispose()


async def test_backup_refuses_postgresql_and_memory(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="pg_dump"):
        await backup("postgresql+asyncpg://u@localhost/db", tmp_path / "x")
    with pytest.raises(BackupError):
        await backup("sqlite+aiosqlite:///:memory:", tmp_path / "x")
    with pytest.raises(BackupError):
        await backup(f"sqlite+aiosqlite:///{tmp_path / 'missing.db'}", tmp_path / "x")
    with pytest.raises(BackupError):
        restore(tmp_path / "missing.db", f"sqlite+aiosqlite:///{tmp_path / 'db.db'}")


async def test_sqlite_table_rebuild_keeps_child_rows(engine, tmp_path: Path, monkeypatch, db_backend: str) -> None:
    """A future migration that makes SQLite copy-and-drop ``encounter`` must not
    cascade-delete its events (upgrade_schema suspends foreign keys around it)."""
    if db_backend != "sqlite":
        pytest.skip("SQLite only")
    repo = Repository(engine)
    enc = await repo.create_encounter(1, 2, "dnd5e", {})
    await repo.commit(enc.id, 1, state={}, events=[NewEvent(1, "a", "b", {})])

    scripts = tmp_path / "migrations"
    shutil.copytree(bot.db.MIGRATIONS_DIR, scripts, ignore=shutil.ignore_patterns("__pycache__"))
    (scripts / "versions" / "0012_rebuild.py").write_text(
        'revision = "0012"\n'
        'down_revision = "0011"\n'
        "import sqlalchemy as sa\n"
        "from alembic import op\n"
        "def upgrade():\n"
        '    with op.batch_alter_table("encounter", recreate="always") as batch:\n'
        '        batch.add_column(sa.Column("extra", sa.Integer(), nullable=True))\n'
    )
    monkeypatch.setattr(bot.db, "MIGRATIONS_DIR", scripts)
    bot.db.head_revision.cache_clear()
    try:
        await upgrade_schema(engine)
        assert await _revision(engine) == "0012"
    finally:
        monkeypatch.undo()
        bot.db.head_revision.cache_clear()

    assert len(await repo.events(enc.id)) == 1
    async with engine.connect() as conn:
        assert (await conn.exec_driver_sql("PRAGMA foreign_keys")).scalar() == 1


async def _migrate_to(engine, revision: str) -> None:
    def run(conn):
        config = bot.db.alembic_config(conn.engine.url.render_as_string(hide_password=False))
        config.attributes["connection"] = conn
        with bot.db.foreign_keys_suspended(conn):
            alembic.command.upgrade(config, revision)
            conn.commit()

    async with engine.connect() as conn:
        await conn.run_sync(run)


async def _insert_named(engine, rows: list[tuple[str, int | None, str, str]]) -> None:
    """Characters and NPCs (table, owner, name, name key) written as an older revision's code wrote them."""
    async with engine.begin() as conn:
        for table, owner, name, key in rows:
            owned = ("owner_id, lasting, ", f"{owner}, '{{}}', ") if table == "character" else ("", "")
            statement = sa.text(
                f"INSERT INTO {table} (guild_id, {owned[0]}name, name_key, system, sheet, created_at) "
                f"VALUES (1, {owned[1]}:name, :key, 'factions', '{{}}', :t)"
            ).bindparams(sa.bindparam("t", type_=UTCDateTime()))
            await conn.execute(statement, {"name": name, "key": key, "t": datetime(2026, 11, 28, tzinfo=UTC)})


async def test_0002_carries_a_filled_0001_database_forward(database_url: str) -> None:
    """Campaigns, characters, encounters and events written under 0001 survive 0002
    unchanged; characters start with nothing carried over and names become unique per owner."""
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0001")
        stamp = datetime(2026, 11, 20, 10, tzinfo=UTC)
        async with engine.begin() as conn:
            for sql, params in [
                (
                    (
                        "INSERT INTO campaign (guild_id, system, gm_role_id, settings, state, created_at, updated_at) "
                        "VALUES (:g, 'rotted-capes', :r, :s, '{}', :t, :t)"
                    ),
                    {"g": 2**62, "r": 2**61, "s": '{"reminder_minutes": 5}'},
                ),
                (
                    (
                        "INSERT INTO character (guild_id, owner_id, name, name_key, system, sheet, created_at) "
                        "VALUES (:g, 7, 'Nova', 'nova', 'rotted-capes', :sheet, :t)"
                    ),
                    {"g": 2**62, "sheet": '{"stamina": 20}'},
                ),
                (
                    (
                        "INSERT INTO encounter (guild_id, channel_id, system, status, state, version, reminders_sent, "
                        "created_at, updated_at) VALUES (:g, 5, 'rotted-capes', 'active', '{\"round\": 2}', 3, 0, :t, "
                        ":t)"
                    ),
                    {"g": 2**62},
                ),
                (
                    (
                        "INSERT INTO event (encounter_id, seq, user_id, command, summary, state_before, undone, "
                        "created_at) "
                        "VALUES (1, 1, 7, '/attack', 'hit', '{}', false, :t)"
                    ),
                    {},
                ),
            ]:
                statement = sa.text(sql).bindparams(sa.bindparam("t", type_=UTCDateTime()))
                await conn.execute(statement, {"t": stamp, **params})
        await upgrade_schema(engine)
        assert await _revision(engine) == HEAD
        repo = Repository(engine)
        campaign = await repo.get_campaign(2**62)
        expected = ("rotted-capes", 2**61, {"reminder_minutes": 5})
        assert (campaign.system, campaign.gm_role_id, campaign.settings) == expected
        nova = await repo.get_character(2**62, "NOVA")
        assert (nova.owner_id, nova.sheet, nova.lasting) == (7, {"stamina": 20}, {})
        encounter = await repo.active_encounter(5)
        assert (encounter.state, encounter.version, encounter.campaign_key) == ({"round": 2}, 3, None)
        assert [e.command for e in await repo.events(encounter.id)] == ["/attack"]
        # Another player's Nova is now allowed; the same player's second one is not.
        await repo.add_character(2**62, 8, "nova", "rotted-capes", {})
        with pytest.raises(DuplicateName):
            await repo.add_character(2**62, 7, "Nova", "rotted-capes", {})
        await repo.save_lasting({nova.id: {"wounds": 2}}, NewChange(2**62, 1, "/campaign adjust", "x", {}))
        assert (await repo.get_character(2**62, "nova", owner_id=7)).lasting == {"wounds": 2}
    finally:
        await engine.dispose()


async def test_0003_keeps_characters_stored_before_it_as_heroes(database_url: str) -> None:
    """Who is a GM is not in the database, so characters stored under 0002 stay heroes; a kept NPC
    stored after it says so."""
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0002")
        async with engine.begin() as conn:
            statement = sa.text(
                "INSERT INTO character (guild_id, owner_id, name, name_key, system, sheet, lasting, created_at) "
                "VALUES (1, 7, 'Nova', 'nova', 'rotted-capes', '{}', '{}', :t)"
            ).bindparams(sa.bindparam("t", type_=UTCDateTime()))
            await conn.execute(statement, {"t": datetime(2026, 11, 26, 10, tzinfo=UTC)})
        await upgrade_schema(engine)
        assert await _revision(engine) == HEAD
        repo = Repository(engine)
        assert not (await repo.get_character(1, "Nova")).npc
        await repo.add_character(1, 7, "Dr Rot", "rotted-capes", {}, npc=True)
        assert (await repo.get_character(1, "Dr Rot")).npc
    finally:
        await engine.dispose()


async def test_0006_leaves_fightin_words_dodge_and_parry_unset_where_they_were_the_old_default(
    database_url: str,
) -> None:
    """Dodge and Parry now follow Reflex and Weapon Skill unless given: a stored 0 was the old default."""
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0005")
        rows = [
            ("character", "Mira", "fightin-words", {"reflex": 3, "dodge": 0, "parry": 2}),
            ("character", "Nova", "rotted-capes", {"dodge": 0}),
            ("npc", "Goblin", "fightin-words", {"weapon_skill": 1, "dodge": 0, "parry": 0}),
        ]
        async with engine.begin() as conn:
            for table, name, system, sheet in rows:
                owner = "owner_id, lasting, " if table == "character" else ""
                owned = "7, '{}', " if table == "character" else ""
                statement = sa.text(
                    f"INSERT INTO {table} (guild_id, {owner}name, name_key, system, sheet, created_at) "
                    f"VALUES (1, {owned}:name, :key, :system, :sheet, :t)"
                ).bindparams(sa.bindparam("t", type_=UTCDateTime()), sa.bindparam("sheet", type_=sa.JSON()))
                values = {"name": name, "key": name.casefold(), "system": system, "sheet": sheet}
                await conn.execute(statement, {**values, "t": datetime(2026, 11, 28, tzinfo=UTC)})
        await upgrade_schema(engine)
        repo = Repository(engine)
        assert (await repo.get_character(1, "Mira")).sheet == {"reflex": 3, "dodge": None, "parry": 2}
        assert (await repo.get_character(1, "Nova")).sheet == {"dodge": 0}, "another system's sheet is its own"
        (goblin,) = await repo.list_npcs(1)
        assert goblin.sheet == {"weapon_skill": 1, "dodge": None, "parry": None}
    finally:
        await engine.dispose()


async def test_0007_gives_stored_names_the_key_a_fight_compares_by(database_url: str) -> None:
    """A zero-width space or a variation selector no longer makes a name of its own; a row whose new key
    another row of its player already has keeps its old one, and both stay stored."""
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0006")
        rows = [
            ("character", 7, "Bob", "bob"),
            ("character", 7, "B\u200bob", "b\u200bob"),  # the same player's Bob, told apart only by 0006
            ("character", 8, "\u2694\ufe0f Blade", "\u2694\ufe0f blade"),
            ("npc", None, "Gob\u200blin", "gob\u200blin"),
        ]
        await _insert_named(engine, rows)
        await _migrate_to(engine, "0007")
        repo = Repository(engine)
        assert (await repo.get_character(1, "\u2694 Blade", owner_id=8)).name == "\u2694\ufe0f Blade"
        assert (await repo.get_npc(1, "Goblin")).name == "Gob\u200blin"
        assert (await repo.get_character(1, "bob", owner_id=7)).name == "Bob"
        assert {c.name for c in await repo.list_characters(1, owner_id=7)} == {"Bob", "B\u200bob"}
    finally:
        await engine.dispose()


async def test_0008_drops_setting_words_no_system_knows_and_brings_numbers_into_range(database_url: str) -> None:
    """A misspelt word played as whichever branch its reader fell through to: it becomes the default again."""
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0007")
        rows = [
            (1, "99-towers", {"defender_flips": "player", "surprise_phases": 4}),
            (2, "99-towers", {"defender_flips": " Auto"}),
            (3, "rotted-capes", {"advantage": "counts", "starting_plot_points": 150, "ongoing_dc": 0}),
            (4, "rotted-capes", {"advantage": "count", "ongoing_dc": 12}),
            (5, "factions", {"advantage": "whatever"}),
        ]
        async with engine.begin() as conn:
            for key, system, settings in rows:
                statement = sa.text(
                    "INSERT INTO campaign (guild_id, system, settings, state, created_at, updated_at) "
                    "VALUES (:key, :system, :settings, '{}', :t, :t)"
                ).bindparams(sa.bindparam("t", type_=UTCDateTime()), sa.bindparam("settings", type_=sa.JSON()))
                values = {"key": key, "system": system, "settings": settings}
                await conn.execute(statement, {**values, "t": datetime(2026, 11, 28, tzinfo=UTC)})
        await upgrade_schema(engine)
        repo = Repository(engine)
        assert [(await repo.get_campaign(key)).settings for key, _, _ in rows] == [
            {"surprise_phases": 4},
            {"defender_flips": "auto"},
            {"starting_plot_points": 100, "ongoing_dc": 1},
            {"advantage": "count", "ongoing_dc": 12},
            {"advantage": "whatever"},
        ]
    finally:
        await engine.dispose()


async def test_0009_names_a_row_left_on_its_old_key_so_its_name_finds_it(database_url: str) -> None:
    """0007 left a row on its old key where its new one was taken: listed, but its name found the other."""
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0008")
        rows = [
            ("character", 7, "Bob", "bob"),
            ("character", 7, "B\u200bob", "b\u200bob"),  # left on its old key by 0007
            ("character", 7, "Bob (2)", "bob (2)"),  # the first free number is taken
            ("character", 8, "Sam", "sam"),
            ("npc", None, "Goblin", "goblin"),
            ("npc", None, "Gob\u200blin", "gob\u200blin"),
        ]
        await _insert_named(engine, rows)
        await upgrade_schema(engine)
        assert await _revision(engine) == HEAD
        repo = Repository(engine)
        assert (await repo.get_character(1, "bob", owner_id=7)).name == "Bob"
        assert (await repo.get_character(1, "Bob (3)", owner_id=7)).name == "B\u200bob (3)"
        assert (await repo.get_character(1, "sam", owner_id=8)).name == "Sam"
        assert (await repo.get_npc(1, "Goblin (2)")).name == "Gob\u200blin (2)"
        assert (await repo.get_npc(1, "goblin")).name == "Goblin"
        assert await repo.remove_npc(1, "Goblin (2)")
        assert [n.name for n in await repo.list_npcs(1)] == ["Goblin"]
    finally:
        await engine.dispose()


async def test_0010_names_a_row_whose_name_shows_nothing_so_it_can_join_and_be_exported(database_url: str) -> None:
    engine = create_engine(database_url)
    try:
        await _migrate_to(engine, "0009")
        rows = [
            ("character", 7, "\u200b", ""),
            ("character", 7, "Unnamed", "unnamed"),  # the player already has one: the next number
            ("character", 8, "\u3164", ""),
            ("character", 8, "Sam", "sam"),
            ("npc", None, "\u200d\u200b", ""),
        ]
        await _insert_named(engine, rows)
        await upgrade_schema(engine)
        assert await _revision(engine) == HEAD
        repo = Repository(engine)
        assert sorted(c.name for c in await repo.list_characters(1, owner_id=7)) == ["Unnamed", "Unnamed (2)"]
        assert [c.name for c in await repo.list_characters(1, owner_id=8)] == ["Sam", "Unnamed"]
        assert (await repo.get_character(1, "unnamed", owner_id=8)).name == "Unnamed"
        assert [n.name for n in await repo.list_npcs(1)] == ["Unnamed"]
    finally:
        await engine.dispose()
