"""Repository and place rules behind the campaign's memory: lasting state saved
with its log entry, undo of a between-fight change, the NPC library, bindings."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.places import Places, candidates, own_key
from bot.repository import (
    DuplicateName,
    NewChange,
    NewEvent,
    Repository,
    VersionConflict,
)

GUILD = 10**18


async def test_lasting_state_is_saved_with_its_log_entry_and_undone_exactly(repo: Repository) -> None:
    await repo.save_campaign(GUILD, system="rotted-capes")
    nova = await repo.add_character(GUILD, 7, "Nova", "rotted-capes", {})
    bolt = await repo.add_character(GUILD, 8, "Bolt", "rotted-capes", {})
    await repo.save_lasting({nova.id: {"wounds": 2}}, NewChange(GUILD, 1, "/encounter end", "fight", {}))
    before = {"characters": {str(nova.id): {"wounds": 2}, str(bolt.id): {}}, "campaign": {}}
    await repo.save_lasting(
        {nova.id: {"wounds": 3}, bolt.id: {"stamina": 1}},
        NewChange(GUILD, 1, "/campaign rest kind:x", "rest", before, "gm"),
        {"rules": {"pool": 0}},
    )
    assert (await repo.get_campaign(GUILD)).state == {"rules": {"pool": 0}}
    rest = (await repo.changes(GUILD))[0]
    assert (rest.command, rest.user_name, rest.undone) == ("/campaign rest kind:x", "gm", False)
    assert await repo.undo_change(rest.id, NewChange(GUILD, 1, "/campaign undo", "undid", {}))
    assert not await repo.undo_change(rest.id, NewChange(GUILD, 1, "/campaign undo", "again", {}))
    assert (await repo.character_by_id(GUILD, nova.id)).lasting == {"wounds": 2}
    assert (await repo.character_by_id(GUILD, bolt.id)).lasting == {}
    assert (await repo.get_campaign(GUILD)).state == {}
    commands = [c.command for c in await repo.changes(GUILD)]
    assert commands == ["/campaign undo", "/campaign rest kind:x", "/encounter end"]


async def test_an_encounters_end_and_the_lasting_state_commit_together(repo: Repository) -> None:
    nova = await repo.add_character(GUILD, 7, "Nova", "rotted-capes", {})
    enc = await repo.create_encounter(GUILD, 5, "rotted-capes", {})
    await repo.commit(enc.id, 1, state={"x": 1}, events=[NewEvent(1, "/a", "a", {})])
    # A stale end (someone committed first) must save no lasting state either.
    with pytest.raises(VersionConflict):
        await repo.commit(
            enc.id,
            1,
            state={},
            status="ended",
            lasting={nova.id: {"wounds": 0}},
            change=NewChange(GUILD, 1, "/encounter end", "x", {}),
        )
    assert (await repo.character_by_id(GUILD, nova.id)).lasting == {} and await repo.changes(GUILD) == []
    await repo.commit(
        enc.id,
        2,
        state={},
        status="ended",
        lasting={nova.id: {"wounds": 0}},
        change=NewChange(GUILD, 1, "/encounter end", "x", {}),
    )
    assert (await repo.character_by_id(GUILD, nova.id)).lasting == {"wounds": 0}


async def test_the_npc_library_is_per_campaign(repo: Repository) -> None:
    await repo.add_npc(GUILD, "Zombie", "rotted-capes", {"stamina": 8}, "slow")
    with pytest.raises(DuplicateName):
        await repo.add_npc(GUILD, " zombie ", "rotted-capes", {})
    await repo.add_npc(GUILD + 1, "Zombie", "rotted-capes", {})
    assert (await repo.get_npc(GUILD, "ZOMBIE")).notes == "slow"
    assert [n.name for n in await repo.list_npcs(GUILD, prefix="omb")] == ["Zombie"]
    assert await repo.remove_npc(GUILD, "zombie") and not await repo.remove_npc(GUILD, "zombie")
    assert await repo.get_npc(GUILD + 1, "zombie") is not None


async def test_a_channel_binding_wins_over_its_category_and_a_thread_follows_its_channel(repo: Repository) -> None:
    places = Places(repo)
    channel = SimpleNamespace(id=21, category_id=20)
    thread = SimpleNamespace(id=30, parent_id=21, parent=channel)
    elsewhere = SimpleNamespace(id=40, category_id=None)
    assert candidates(thread) == [30, 21, 20]
    assert await places.key(GUILD, channel) == GUILD
    await repo.bind_place(GUILD, 20, own_key(20))
    places.forget(GUILD)
    assert await places.key(GUILD, thread) == own_key(20) == -20
    await repo.bind_place(GUILD, 21, own_key(21))
    places.forget(GUILD)
    assert await places.key(GUILD, thread) == -21 and await places.key(GUILD, elsewhere) == GUILD
    assert await repo.unbind_place(GUILD, 21) and not await repo.unbind_place(GUILD, 21)
    assert await repo.places(GUILD) == {20: -20}
