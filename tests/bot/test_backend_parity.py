"""What SQLite and PostgreSQL would answer differently unless the repository makes them agree."""

from __future__ import annotations

import asyncio
import threading
import uuid

import pytest
from sqlalchemy.engine import make_url

from bot.db import create_engine, upgrade_schema
from bot.repository import CampaignChanged, NewChange, Repository
from tests.conftest import TEST_DATABASE_URL
from tests.helpers import pg_admin_session

GUILD = 77
NAMES = ["Zed", "Élodie", "Anna", "Émile", "Bob", "Ørjan", "Zoë"]


async def test_ids_no_row_can_have_find_nothing(repo):
    # INTEGER on PostgreSQL: binding 2**31 there failed; SQLite overflowed at 2**63.
    await repo.save_campaign(GUILD, system="factions")
    stored = await repo.add_character(GUILD, 1, "Nova", "factions", {})
    for wrong in (0, -1, 2**31, 2**63):
        assert await repo.character_by_id(GUILD, wrong) is None
        assert await repo.get_encounter(wrong) is None
    assert await repo.characters_by_ids([2**63, stored.id]) == [stored]


async def _listed(url: str) -> list[str]:
    engine = create_engine(url)
    await upgrade_schema(engine)
    repo = Repository(engine)
    try:
        for name in NAMES:
            await repo.add_character(GUILD, 1, name, "factions", {})
        return [c.name for c in await repo.list_characters(GUILD, limit=100)]
    finally:
        repo.close()
        await engine.dispose()


async def test_names_are_listed_in_code_point_order(migrated_database_url):
    assert await _listed(migrated_database_url) == sorted(NAMES, key=str.casefold)


@pytest.mark.skipif(not TEST_DATABASE_URL, reason="needs PostgreSQL (TEST_DATABASE_URL)")
async def test_a_language_collation_does_not_change_the_order():
    # PostgreSQL's usual default (en-US) sorts É beside E; SQLite and the C collation by code point.
    name = f"tk_icu_{uuid.uuid4().hex[:12]}"
    async with pg_admin_session(TEST_DATABASE_URL) as admin:
        try:
            await admin.execute(
                f"CREATE DATABASE \"{name}\" TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'"
            )
        except Exception as exc:  # a server built without ICU
            pytest.skip(f"no ICU collation on this server: {exc}")
        try:
            url = make_url(TEST_DATABASE_URL).set(database=name).render_as_string(hide_password=False)
            assert await _listed(url) == sorted(NAMES, key=str.casefold)
        finally:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_a_character_added_during_an_import_is_never_deleted_unseen(repo):
    """The import read what it replaces; a player's /character add lands before its deletes. SQLite's
    write transaction makes the add wait; PostgreSQL's would delete it, so the import must refuse."""
    url = repo.engine.url.render_as_string(hide_password=False)
    await repo.save_campaign(GUILD, system="factions")
    await repo.add_character(GUILD, 1, "Old", "factions", {})

    def another_process_adds() -> None:
        async def add() -> None:
            engine = create_engine(url)
            other = Repository(engine)
            try:
                await other.add_character(GUILD, 2, "Newcomer", "factions", {})
            finally:
                other.close()
                await engine.dispose()

        asyncio.run(add())

    adding = threading.Thread(target=another_process_adds)

    def unchanged(campaign, characters, npcs) -> bool:
        adding.start()
        adding.join(timeout=0.5)  # SQLite: still waiting for the import's lock
        return [c.name for c in characters] == ["Old"]

    refused = False
    try:
        await repo.replace_campaign(
            GUILD,
            system="factions",
            settings={},
            state={},
            characters=[{"name": "Imported", "owner_id": 3, "sheet": {}, "lasting": {}}],
            npcs=[],
            change=NewChange(GUILD, 9, "/campaign import", "Imported", {}),
            unchanged=unchanged,
        )
    except CampaignChanged:
        refused = True
    await asyncio.to_thread(adding.join)
    names = sorted(c.name for c in await repo.list_characters(GUILD))
    assert "Newcomer" in names
    assert names == (["Newcomer", "Old"] if refused else ["Imported", "Newcomer"])
