"""Stored characters: anyone stores their own, a name is theirs once, and only the owner or
the GM reads a sheet or removes it."""

from __future__ import annotations

import pytest

from bot.repository import Repository
from bot.roster import Roster, fought_hidden, may_read, system_lasting
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from tests.helpers import GM

ALICE = Actor(user_id=2)
BOB = Actor(user_id=3)
KEY = 10**18


@pytest.fixture
async def roster(repo: Repository) -> Roster:
    await repo.save_campaign(KEY, system="rotted-capes")
    return Roster(repo)


async def test_a_player_stores_a_character_of_their_own_once(roster: Roster, repo: Repository) -> None:
    name, system = await roster.add(KEY, ALICE, "  Nova ", "avoidance=15 stamina=20", "alice")
    assert (name, system.key) == ("Nova", "rotted-capes")
    with pytest.raises(InvalidInput, match="You already have a character called Nova here."):
        await roster.add(KEY, ALICE, "Nova", "stamina=5", "alice")
    await roster.add(KEY, BOB, "Nova", "stamina=5", "bob")  # another player's Nova is another character
    assert sorted(r.owner_id for r in await repo.list_characters(KEY)) == [ALICE.user_id, BOB.user_id]


async def test_nothing_is_stored_without_a_campaign_or_a_name(roster: Roster, repo: Repository) -> None:
    with pytest.raises(InvalidInput, match="no campaign yet"):
        await roster.add(KEY + 1, ALICE, "Nova", None, "alice")
    with pytest.raises(InvalidInput, match="needs a name"):
        await roster.add(KEY, ALICE, "   ", None, "alice")
    assert await repo.list_characters(KEY) == []


async def test_only_the_owner_or_the_gm_reads_or_removes_a_character(roster: Roster, repo: Repository) -> None:
    await roster.add(KEY, ALICE, "Nova", "stamina=20", "alice")
    (record,) = await repo.list_characters(KEY)
    assert may_read(ALICE, record) and may_read(GM, record) and not may_read(BOB, record)
    with pytest.raises(NotAllowed, match="Nova belongs to another player."):
        await roster.remove(KEY, BOB, record)
    assert len(await repo.list_characters(KEY)) == 1
    await roster.remove(KEY, GM, record)
    assert await repo.list_characters(KEY) == []


async def test_a_kept_npc_is_read_and_removed_by_any_gm_and_not_by_a_keeper_no_longer_gm(
    roster: Roster, repo: Repository
) -> None:
    carol = Actor(user_id=4, is_gm=True)
    kept = await repo.add_character(KEY, carol.user_id, "Doctor Vile", "rotted-capes", {}, npc=True)
    stepped_down = Actor(user_id=carol.user_id)  # the GM role taken from her since
    assert may_read(carol, kept) and may_read(GM, kept)
    assert not may_read(stepped_down, kept) and not may_read(ALICE, kept)
    with pytest.raises(NotAllowed, match="only a GM changes it"):
        await roster.remove(KEY, stepped_down, kept)
    with pytest.raises(NotAllowed, match="only a GM changes it"):
        await roster.edit(KEY, stepped_down, kept, {"stamina": 1})
    assert (await repo.character_by_id(KEY, kept.id)) == kept
    await roster.remove(KEY, GM, kept)  # not the GM who kept it
    assert await repo.list_characters(KEY) == []


async def test_a_kept_npc_remembers_whether_it_fought_hidden_beside_its_systems_lasting_state(
    roster: Roster, repo: Repository
) -> None:
    kept = await repo.add_character(KEY, GM.user_id, "Shade", "rotted-capes", {}, npc=True)
    await repo.set_character_lasting(KEY, kept.id, {"stamina": 28})
    kept = await repo.character_by_id(KEY, kept.id)
    assert kept is not None and not fought_hidden(kept)
    await roster.remember_joining(KEY, kept, True)
    hidden = await repo.character_by_id(KEY, kept.id)
    assert hidden is not None and fought_hidden(hidden)
    assert hidden.lasting == {"stamina": 28, "hidden": True}
    assert system_lasting(hidden) == {"stamina": 28}  # what its system reads when it joins
    await roster.remember_joining(KEY, kept, False)  # a stale record: the stored one is read again
    visible = await repo.character_by_id(KEY, kept.id)
    assert visible is not None and not fought_hidden(visible) and visible.lasting == {"stamina": 28}


async def test_a_hero_never_takes_the_kept_npcs_flag(roster: Roster, repo: Repository) -> None:
    await roster.add(KEY, ALICE, "Nova", "stamina=20", "alice")
    (hero,) = await repo.list_characters(KEY)
    await roster.remember_joining(KEY, hero, True)
    hero = await repo.character_by_id(KEY, hero.id)
    assert hero is not None and hero.lasting == {} and not fought_hidden(hero)
