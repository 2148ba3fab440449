from __future__ import annotations

import asyncio
import itertools
import random
import sqlite3
from datetime import UTC, datetime, timedelta, timezone

import pytest
import sqlalchemy as sa

from bot.db import create_engine
from bot.repository import (
    DuplicateName,
    EncounterExists,
    NewChange,
    NewEvent,
    Repository,
    VersionConflict,
)

BIG = 2**63 - 1  # largest Discord snowflake we could ever see
GUILD = 1_234_567_890_123_456_789
CHANNEL = 987_654_321_098_765_432


def ev(command: str = "attack", user_id: int = 42, before: dict | None = None) -> NewEvent:
    return NewEvent(user_id=user_id, command=command, summary=f"did {command}", state_before=before or {})


# -- campaigns ---------------------------------------------------------------------
async def set_campaign_state(engine, guild_id: int, state: dict) -> None:
    """Campaign state is written by fights' ends and rests; a test sets it directly."""
    from bot.tables import Campaign

    async with engine.begin() as conn:
        await conn.execute(
            sa.update(Campaign.__table__).where(Campaign.__table__.c.guild_id == guild_id).values(state=state)
        )


async def test_campaign_upsert_keeps_state_and_created_at(repo: Repository, engine) -> None:
    assert await repo.get_campaign(GUILD) is None
    first = await repo.save_campaign(GUILD, system="dnd5e", gm_role_id=BIG, settings={"crit": "max"})
    assert (first.system, first.gm_role_id, first.settings, first.state) == ("dnd5e", BIG, {"crit": "max"}, {})

    await set_campaign_state(engine, GUILD, {"plot_points": {"42": 3}})
    second = await repo.save_campaign(GUILD, system="savage", gm_role_id=None, settings={})

    assert second.system == "savage" and second.gm_role_id is None and second.settings == {}
    assert second.state == {"plot_points": {"42": 3}}
    assert second.created_at == first.created_at
    assert second.updated_at >= first.updated_at
    assert await repo.get_campaign(GUILD) == second


async def test_a_checks_undo_puts_back_only_its_part_of_the_campaign_state(repo: Repository) -> None:
    await repo.save_campaign(GUILD, system="rotted-capes")
    nova = await repo.add_character(GUILD, 7, "Nova", "rotted-capes", {})
    offered = {str(nova.id): {"turn": 2, "offers": ["reroll"]}}
    before = {
        "characters": {str(nova.id): {}},
        "campaign": None,
        "campaign_part": {"rules": {"pool": 0}},
        "offer": {"key": "offered", "character": str(nova.id), "turn": 2},
    }
    checked = {"rng": 5, "checks": 2, "rules": {"pool": 1}, "offered": offered}
    await repo.save_lasting({nova.id: {"plot_points": 0}}, NewChange(GUILD, 7, "/check", "reroll", before), checked)
    # Bolt's check since: the dice and the count of checks go on, and Bolt is offered a reroll
    later = checked | {"rng": 9, "checks": 3, "offered": offered | {"99": {"turn": 3, "offers": ["reroll"]}}}
    await repo.save_lasting({}, NewChange(GUILD, 8, "/check", "bolt", {}), later)
    change = next(c for c in await repo.changes(GUILD) if c.summary == "reroll")
    assert await repo.undo_change(change.id, NewChange(GUILD, 1, "/campaign undo", "undid", {}))
    assert (await repo.character_by_id(GUILD, nova.id)).lasting == {}
    assert (await repo.get_campaign(GUILD)).state == {
        "rng": 9,
        "checks": 3,
        "rules": {"pool": 0},
        "offered": {"99": {"turn": 3, "offers": ["reroll"]}},
    }


async def test_a_checks_undo_leaves_a_later_offer_of_its_character(repo: Repository) -> None:
    await repo.save_campaign(GUILD, system="rotted-capes")
    nova = await repo.add_character(GUILD, 7, "Nova", "rotted-capes", {})
    offer = {"key": "offered", "character": str(nova.id), "turn": 1}
    before = {"characters": {str(nova.id): {}}, "campaign": None, "campaign_part": {}, "offer": offer}
    newer = {"offered": {str(nova.id): {"turn": 2, "offers": ["reroll"]}}, "checks": 2}
    await repo.save_lasting({nova.id: {"stress": 1}}, NewChange(GUILD, 7, "/check", "first", before), {"checks": 1})
    await repo.save_lasting({}, NewChange(GUILD, 7, "/check", "second", {}), newer)
    change = next(c for c in await repo.changes(GUILD) if c.summary == "first")
    assert await repo.undo_change(change.id, NewChange(GUILD, 1, "/campaign undo", "undid", {}))
    assert (await repo.get_campaign(GUILD)).state == newer


async def test_an_undo_leaves_what_goes_on_as_it_is_now_whatever_the_entry_put_back(repo: Repository) -> None:
    await repo.save_campaign(GUILD, system="99-towers")
    tony = await repo.add_character(GUILD, 7, "Tony", "99-towers", {})
    goes_on = (("rules", "deck"),)
    # a change logged when the whole campaign state was put back, and one that puts back the rules' part
    whole = {"characters": {str(tony.id): {}}, "campaign": {"rules": {"deck": ["AS", "KS"], "pool": 1}}}
    part = {"characters": {str(tony.id): {"stun": 3}}, "campaign": None, "campaign_part": {"rules": {"pool": 2}}}
    await repo.save_lasting({tony.id: {"stun": 3}}, NewChange(GUILD, 1, "/campaign rest", "old", whole), {})
    await repo.save_lasting({tony.id: {"stun": 5}}, NewChange(GUILD, 1, "/campaign rest", "new", part), {})
    await repo.save_lasting({}, NewChange(GUILD, 7, "/check", "flip", {}), {"rules": {"deck": ["2H"], "pool": 3}})
    changes = {c.summary: c for c in await repo.changes(GUILD)}
    old, new = changes["old"], changes["new"]
    assert await repo.undo_change(new.id, NewChange(GUILD, 1, "/campaign undo", "undid", {}), None, goes_on)
    assert (await repo.get_campaign(GUILD)).state == {"rules": {"deck": ["2H"], "pool": 2}}
    assert await repo.undo_change(old.id, NewChange(GUILD, 1, "/campaign undo", "undid", {}), None, goes_on)
    assert (await repo.get_campaign(GUILD)).state == {"rules": {"deck": ["2H"], "pool": 1}}
    assert (await repo.character_by_id(GUILD, tony.id)).lasting == {}


# -- characters --------------------------------------------------------------------


async def test_character_names_unique_case_insensitively_per_owner(repo: Repository) -> None:
    alice = await repo.add_character(GUILD, 7, "Alice", "dnd5e", {"hp": 12})
    assert alice.name_key == "alice" and alice.sheet == {"hp": 12} and alice.lasting == {}

    for clash in ("alice", "ALICE", "  Alice "):
        with pytest.raises(DuplicateName):
            await repo.add_character(GUILD, 7, clash, "dnd5e", {})
    # Another player may have an Alice of their own, in the same campaign.
    twin = await repo.add_character(GUILD, 8, "ALICE", "dnd5e", {})
    other_guild = await repo.add_character(GUILD + 1, 8, "ALICE", "dnd5e", {})
    assert other_guild.guild_id == GUILD + 1

    found = await repo.get_character(GUILD, "aLiCe")
    assert found is not None and found.id == alice.id and found.name == "Alice"
    assert (await repo.get_character(GUILD, "alice", owner_id=8)).id == twin.id
    assert [r.id for r in await repo.find_characters(GUILD, "ALICE")] == [alice.id, twin.id]
    assert (await repo.character_by_id(GUILD, twin.id)).owner_id == 8
    assert await repo.character_by_id(GUILD + 1, twin.id) is None  # scoped to its campaign
    assert isinstance(DuplicateName("x"), ValueError)


async def test_character_listing_prefix_owner_and_limit(repo: Repository) -> None:
    for owner, name in [(1, "Bob"), (1, "bertha"), (2, "Brienne"), (2, "Anna"), (1, "50%_off")]:
        await repo.add_character(GUILD, owner, name, "pf2e", {})
    await repo.add_character(GUILD + 1, 1, "Bruno", "pf2e", {})

    names = lambda rs: [r.name for r in rs]  # noqa: E731
    assert names(await repo.list_characters(GUILD)) == ["50%_off", "Anna", "bertha", "Bob", "Brienne"]
    assert names(await repo.list_characters(GUILD, prefix="B")) == ["bertha", "Bob", "Brienne"]
    assert names(await repo.list_characters(GUILD, prefix="bo")) == ["Bob"]
    assert names(await repo.list_characters(GUILD, owner_id=2)) == ["Anna", "Brienne"]
    assert names(await repo.list_characters(GUILD, owner_id=1, prefix="b")) == ["bertha", "Bob"]
    assert names(await repo.list_characters(GUILD, limit=2)) == ["50%_off", "Anna"]
    # LIKE wildcards in user input are literal.
    assert names(await repo.list_characters(GUILD, prefix="50%_")) == ["50%_off"]
    assert names(await repo.list_characters(GUILD, prefix="5_")) == []


async def test_character_sheet_and_removal(repo: Repository) -> None:
    c = await repo.add_character(GUILD, 7, "Cleric", "dnd5e", {"hp": 3, "nested": {"slots": [1, 2]}})
    assert (await repo.get_character(GUILD, "CLERIC")).sheet == {"hp": 3, "nested": {"slots": [1, 2]}}

    assert await repo.remove_character_id(GUILD, c.id)
    assert not await repo.remove_character_id(GUILD, c.id)
    assert await repo.get_character(GUILD, "cleric") is None
    await repo.add_character(GUILD, 7, "cleric", "dnd5e", {})  # the name is free again


async def test_64_bit_ids_round_trip(repo: Repository) -> None:
    await repo.save_campaign(BIG, system="dnd5e", gm_role_id=BIG - 1, settings={})
    assert (await repo.get_campaign(BIG)).gm_role_id == BIG - 1

    c = await repo.add_character(BIG, BIG, "Huge", "dnd5e", {})
    assert (c.guild_id, c.owner_id) == (BIG, BIG)
    assert [r.owner_id for r in await repo.list_characters(BIG, owner_id=BIG)] == [BIG]

    enc = await repo.create_encounter(BIG, BIG, "dnd5e", {})
    await repo.commit(enc.id, enc.version, state={}, events=[ev(user_id=BIG)])
    await repo.set_meta(enc.id, tracker_message_id=BIG, turn_message_id=BIG - 2)
    got = await repo.active_encounter(BIG)
    assert (got.guild_id, got.channel_id, got.tracker_message_id, got.turn_message_id) == (
        BIG,
        BIG,
        BIG,
        BIG - 2,
    )
    assert (await repo.events(enc.id))[0].user_id == BIG


# -- encounters --------------------------------------------------------------------


async def test_one_active_encounter_per_channel(repo: Repository) -> None:
    first = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {"round": 1})
    assert (first.status, first.version, first.state) == ("active", 1, {"round": 1})
    assert first.created_at.tzinfo is not None

    with pytest.raises(EncounterExists):
        await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {})
    elsewhere = await repo.create_encounter(GUILD, CHANNEL + 1, "dnd5e", {})
    assert (await repo.active_encounter(CHANNEL)).id == first.id

    await repo.commit(first.id, first.version, state={"over": True}, status="ended")
    assert await repo.active_encounter(CHANNEL) is None
    ended = await repo.get_encounter(first.id)
    assert (ended.status, ended.version, ended.state) == ("ended", 2, {"over": True})

    second = await repo.create_encounter(GUILD, CHANNEL, "pf2e", {})
    assert second.id not in (first.id, elsewhere.id)
    # Re-opening the old fight would make two active ones in the channel.
    with pytest.raises(EncounterExists):
        await repo.commit(first.id, ended.version, state={}, status="active")
    assert {(await repo.active_encounter(c)).id for c in (CHANNEL, CHANNEL + 1)} == {second.id, elsewhere.id}


async def test_commit_bumps_version_and_appends_consecutive_events(repo: Repository) -> None:
    enc = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {"hp": 10})
    v2 = await repo.commit(enc.id, 1, state={"hp": 7}, events=[ev("attack", before={"hp": 10})])
    v3 = await repo.commit(
        enc.id, v2, state={"hp": 2}, events=[ev("attack", before={"hp": 7}), ev("damage", before={"hp": 5})]
    )
    v4 = await repo.commit(enc.id, v3, state={"hp": 2})  # a commit with no events
    assert (v2, v3, v4) == (2, 3, 4)

    events = await repo.events(enc.id)
    assert [e.seq for e in events] == [1, 2, 3]
    assert [e.command for e in events] == ["attack", "attack", "damage"]
    assert [e.state_before for e in events] == [{"hp": 10}, {"hp": 7}, {"hp": 5}]
    assert not any(e.undone for e in events)
    got = await repo.get_encounter(enc.id)
    assert (got.version, got.state) == (4, {"hp": 2})
    assert got.updated_at >= enc.updated_at

    # seq numbering is per encounter
    other = await repo.create_encounter(GUILD, CHANNEL + 1, "dnd5e", {})
    await repo.commit(other.id, 1, state={}, events=[ev()])
    assert [e.seq for e in await repo.events(other.id)] == [1]


async def test_stale_version_raises_and_changes_nothing(repo: Repository) -> None:
    enc = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {"n": 0})
    await repo.commit(enc.id, 1, state={"n": 1}, events=[ev()])
    before = await repo.get_encounter(enc.id)

    with pytest.raises(VersionConflict) as info:
        await repo.commit(
            enc.id,
            1,
            state={"n": 99},
            events=[ev("lost")],
            undo_seqs=[1],
            status="ended",
            meta={"reminders_sent": 5},
        )
    assert (info.value.expected, info.value.current) == (1, 2)
    assert await repo.get_encounter(enc.id) == before
    assert [(e.seq, e.command, e.undone) for e in await repo.events(enc.id)] == [(1, "attack", False)]

    with pytest.raises(VersionConflict) as info:
        await repo.commit(enc.id + 1000, 1, state={})
    assert info.value.current is None


async def test_a_commit_of_a_commands_events_alone_is_refused_whole_when_stale_or_reopening(repo: Repository) -> None:
    # Almost every command commits its state and events and nothing else: PostgreSQL takes that as one statement.
    enc = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {"n": 0})
    await repo.commit(enc.id, 1, state={"n": 1}, events=[ev()])
    before = await repo.get_encounter(enc.id)
    with pytest.raises(VersionConflict) as info:
        await repo.commit(enc.id, 1, state={"n": 99}, events=[ev("lost"), ev("lost too")])
    assert (info.value.expected, info.value.current) == (1, 2)
    with pytest.raises(VersionConflict) as info:
        await repo.commit(enc.id + 1000, 1, state={}, events=[ev("lost")])
    assert info.value.current is None
    assert await repo.get_encounter(enc.id) == before
    assert [(e.seq, e.command) for e in await repo.events(enc.id)] == [(1, "attack")]

    ended = await repo.commit(enc.id, 2, state={"n": 2}, status="ended", events=[ev("end")])
    await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {})
    with pytest.raises(EncounterExists):
        await repo.commit(enc.id, ended, state={}, status="active", events=[ev("reopen")])
    assert [(e.seq, e.command) for e in await repo.events(enc.id)] == [(1, "attack"), (2, "end")]


async def test_commit_meta_status_and_set_meta(repo: Repository) -> None:
    enc = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {})
    due = datetime(2030, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    v = await repo.commit(enc.id, 1, state={}, meta={"reminder_due": due, "reminders_sent": 2, "turn_message_id": 5})
    got = await repo.get_encounter(enc.id)
    assert (got.reminder_due, got.reminders_sent, got.turn_message_id) == (due, 2, 5)
    assert got.reminder_due.tzinfo is not None

    assert await repo.set_meta(enc.id, tracker_message_id=11, reminder_due=None, pending_deadline=due)
    got = await repo.get_encounter(enc.id)
    assert got.version == v, "set_meta must not bump the version"
    assert (got.tracker_message_id, got.reminder_due, got.pending_deadline) == (11, None, due)
    assert not await repo.set_meta(enc.id + 1000, reminders_sent=1)

    with pytest.raises(ValueError):
        await repo.set_meta(enc.id, version=99)
    with pytest.raises(ValueError):
        await repo.commit(enc.id, v, state={}, meta={"state": {}})
    with pytest.raises(ValueError):
        await repo.commit(enc.id, v, state={}, status="paused")
    with pytest.raises(ValueError):  # naive datetimes are ambiguous
        await repo.set_meta(enc.id, reminder_due=datetime(2030, 1, 1))

    # Non-UTC aware input is normalised to UTC.
    local = datetime(2030, 1, 1, 12, 0, tzinfo=UTC).astimezone(timezone(timedelta(hours=5)))
    await repo.set_meta(enc.id, reminder_due=local)
    got = await repo.get_encounter(enc.id)
    assert got.reminder_due == local and got.reminder_due.utcoffset() == timedelta(0)


async def test_undo_marks_events(repo: Repository) -> None:
    enc = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {"n": 0})
    v = enc.version
    for i in range(1, 5):
        v = await repo.commit(enc.id, v, state={"n": i}, events=[ev(f"c{i}", before={"n": i - 1})])

    last = await repo.last_events(enc.id, 2)
    assert [e.seq for e in last] == [4, 3]
    v = await repo.commit(enc.id, v, state=last[-1].state_before, events=[ev("undo")], undo_seqs=[e.seq for e in last])

    assert [(e.seq, e.undone) for e in await repo.events(enc.id)] == [
        (1, False),
        (2, False),
        (3, True),
        (4, True),
        (5, False),
    ]
    assert [e.seq for e in await repo.events(enc.id, include_undone=False)] == [1, 2, 5]
    assert [e.seq for e in await repo.last_events(enc.id, 10)] == [5, 2, 1]
    assert [e.seq for e in await repo.last_events(enc.id, 1, undone=True)] == [4]
    assert (await repo.get_encounter(enc.id)).state == {"n": 2}


async def test_due_encounters(repo: Repository) -> None:
    now = datetime.now(UTC)
    past, future = now - timedelta(minutes=5), now + timedelta(minutes=5)

    async def make(channel: int, guild: int = GUILD, **meta) -> int:
        enc = await repo.create_encounter(guild, channel, "dnd5e", {})
        if meta:
            await repo.set_meta(enc.id, **meta)
        return enc.id

    reminder = await make(1, reminder_due=past)
    deadline = await make(2, pending_deadline=now - timedelta(minutes=10))
    both = await make(3, reminder_due=future, pending_deadline=past - timedelta(minutes=1))
    exactly_now = await make(4, reminder_due=now)
    await make(5, reminder_due=future, pending_deadline=future)
    await make(6)
    # On another shard of two: Discord's rule is (server id >> 22) % shard count.
    other_guild = await make(7, guild=GUILD + (1 << 22), reminder_due=past)
    ended = await make(8, reminder_due=past)
    enc = await repo.get_encounter(ended)
    await repo.commit(ended, enc.version, state={}, status="ended")

    due = await repo.due_encounters(now)
    # earliest deadline first
    assert [e.id for e in due] == [deadline, both, reminder, other_guild, exactly_now]
    shard = (GUILD >> 22) % 2
    assert {e.id for e in await repo.due_encounters(now, shards=(2, [shard]))} == {
        reminder,
        deadline,
        both,
        exactly_now,
    }
    assert [e.id for e in await repo.due_encounters(now, shards=(2, {1 - shard}))] == [other_guild]
    assert len(await repo.due_encounters(now, shards=(2, [0, 1]))) == 5
    assert await repo.due_encounters(now, shards=(2, [])) == []
    assert len(await repo.due_encounters(now, limit=2)) == 2
    assert await repo.due_encounters(now - timedelta(hours=1)) == []


# -- concurrency -------------------------------------------------------------------


async def test_two_repositories_never_lose_an_update(database_url: str, engine) -> None:
    """Two engines on one database stand in for two bot processes."""
    second_engine = create_engine(database_url)
    repos = [Repository(engine), Repository(second_engine)]
    try:
        enc = await repos[0].create_encounter(GUILD, CHANNEL, "dnd5e", {"counter": 0})
        conflicts = 0
        # All 100 tasks start together; capping how many are mid-attempt at once keeps
        # plenty of conflicts while sparing the run a retry storm (one winner per round).
        in_flight = asyncio.Semaphore(10)

        async def increment(repo: Repository) -> None:
            async with in_flight:
                await attempt_until_committed(repo)

        async def attempt_until_committed(repo: Repository) -> None:
            nonlocal conflicts
            for attempt in itertools.count(1):
                current = await repo.get_encounter(enc.id)
                state = {"counter": current.state["counter"] + 1}
                try:
                    await repo.commit(
                        enc.id,
                        current.version,
                        state=state,
                        events=[ev("inc", before=current.state)],
                    )
                    return
                except VersionConflict:
                    conflicts += 1
                    # Growing random backoff, as a real caller should: spreads the retries out.
                    await asyncio.sleep(random.uniform(0, 0.01) * min(attempt, 20))

        await asyncio.gather(*(increment(repos[i % 2]) for i in range(100)))

        final = await repos[1].get_encounter(enc.id)
        assert final.state == {"counter": 100}
        assert final.version == 101
        events = await repos[0].events(enc.id)
        assert [e.seq for e in events] == list(range(1, 101))
        # Each event saw the state its commit replaced: no two commits shared a base.
        assert sorted(e.state_before["counter"] for e in events) == list(range(100))
        assert conflicts > 0, "the test should actually exercise conflicts"
    finally:
        await second_engine.dispose()


async def test_a_commit_waits_for_another_process_write_lock_without_stalling_the_loop(
    repo: Repository, migrated_database_url: str
) -> None:
    if not migrated_database_url.startswith("sqlite"):
        pytest.skip("SQLite's write lock: PostgreSQL locks the row")
    enc = await repo.create_encounter(GUILD, CHANNEL, "dnd5e", {"hp": 10})
    other = sqlite3.connect(sa.make_url(migrated_database_url).database, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another shard process in the middle of its write
    ticks = 0

    async def ticking() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.005)
            ticks += 1

    clock = asyncio.create_task(ticking())
    saving = asyncio.create_task(repo.commit(enc.id, enc.version, state={"hp": 7}, events=[ev()]))
    await asyncio.sleep(0.2)
    assert not saving.done()
    assert ticks >= 20  # the loop ran on while the commit waited
    other.execute("COMMIT")
    other.close()
    assert await asyncio.wait_for(saving, 2) == enc.version + 1
    clock.cancel()
    assert (await repo.get_encounter(enc.id)).state == {"hp": 7}


async def test_a_deleted_characters_id_is_never_given_to_another(repo: Repository) -> None:
    """Fights name their characters by id: a character stored after the newest was deleted gets a new one."""
    first = await repo.add_character(1, 10, "Nova", "dnd5e", {})
    second = await repo.add_character(1, 10, "Bolt", "dnd5e", {})
    await repo.remove_character_id(1, second.id)
    third = await repo.add_character(1, 10, "Vex", "dnd5e", {})
    assert third.id not in (first.id, second.id)


async def test_a_deadline_is_cleared_only_while_it_is_the_one_that_was_read(repo: Repository) -> None:
    enc = await repo.create_encounter(GUILD, 5, "dnd5e", {})
    first, second = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 1, 2, tzinfo=UTC)
    await repo.set_meta(enc.id, pending_deadline=first)
    read = await repo.get_encounter(enc.id)
    await repo.set_meta(enc.id, pending_deadline=second)  # a command opened a new question meanwhile
    assert not await repo.set_meta(enc.id, pending_deadline=None, still={"pending_deadline": read.pending_deadline})
    assert (await repo.get_encounter(enc.id)).pending_deadline == second
    now = await repo.get_encounter(enc.id)
    assert await repo.set_meta(enc.id, pending_deadline=None, still={"pending_deadline": now.pending_deadline})
    assert (await repo.get_encounter(enc.id)).pending_deadline is None


async def test_a_posted_note_goes_only_while_it_is_the_one_posted(repo: Repository) -> None:
    enc = await repo.create_encounter(GUILD, 6, "dnd5e", {})
    await repo.set_meta(enc.id, announce_due="2:turn")
    await repo.set_meta(enc.id, announce_due="3:choice")  # a newer change's, not yet posted
    assert not await repo.announced(enc.id, "2:turn")
    assert (await repo.get_encounter(enc.id)).announce_due == "3:choice"
    assert await repo.announced(enc.id, "3:choice")
    assert (await repo.get_encounter(enc.id)).announce_due is None
