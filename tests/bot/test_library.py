"""The NPC library refuses anyone but the GM, before it says whether a stat block exists."""

from __future__ import annotations

import pytest

from bot.library import Library
from bot.repository import NewChange, Repository
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from tests.helpers import GM

PLAYER = Actor(user_id=2)
KEY = 10**18
LIBRARY = "Only the GM uses the NPC library."
ADDS = "Only the GM adds NPCs; players use /initiative join."


@pytest.fixture
async def library(repo: Repository) -> Library:
    await repo.save_campaign(KEY, system="rotted-capes")
    await repo.add_npc(KEY, "Zombie", "rotted-capes", {"stamina": 8}, "slow")
    return Library(repo)


async def test_a_player_neither_reads_nor_changes_the_library(library: Library, repo: Repository) -> None:
    for attempt in (
        library.add(KEY, PLAYER, "Ghoul", "stamina=5", None),
        library.entries(KEY, PLAYER),
        library.show(KEY, PLAYER, "Zombie"),
        library.show(KEY, PLAYER, "Nobody"),  # refused as a player, not as a missing name
        library.remove(KEY, PLAYER, "Zombie"),
    ):
        with pytest.raises(NotAllowed) as refused:
            await attempt
        assert str(refused.value) == LIBRARY
    assert [n.name for n in await repo.list_npcs(KEY)] == ["Zombie"]
    assert await library.suggestions(KEY, PLAYER, "Zo") == []


async def test_the_gm_keeps_the_library(library: Library, repo: Repository) -> None:
    assert await library.add(KEY, GM, "  Ghoul  ", "stamina=5", "fast") == "Ghoul"
    assert [n.name for n in await library.entries(KEY, GM)] == ["Ghoul", "Zombie"]
    assert (await library.show(KEY, GM, "ghoul")).notes == "fast"
    assert [n.name for n in await library.suggestions(KEY, GM, "Zo")] == ["Zombie"]
    assert await library.remove(KEY, GM, "zombie") == "Zombie"  # as stored, for the answer to name it
    with pytest.raises(InvalidInput, match="The NPC library has no Zombie."):
        await library.show(KEY, GM, "Zombie")
    with pytest.raises(InvalidInput, match="already has Ghoul"):
        await library.add(KEY, GM, "Ghoul", None, None)


async def test_the_library_needs_a_campaign_once_the_gm_asks(repo: Repository) -> None:
    library = Library(repo)
    with pytest.raises(NotAllowed):
        await library.entries(KEY, PLAYER)
    with pytest.raises(InvalidInput, match="not set up yet"):
        await library.entries(KEY, GM)


async def test_only_the_gm_adds_from_a_template_or_keeps_an_npc(library: Library, repo: Repository) -> None:
    assert await library.template(KEY, PLAYER, None) is None  # no template: nothing to refuse
    for attempt in (
        library.template(KEY, PLAYER, "Zombie"),
        library.template(KEY, PLAYER, "Nobody"),
        library.keep(KEY, PLAYER, "Rex", "stamina=5", None, 1, {}),
    ):
        with pytest.raises(NotAllowed) as refused:
            await attempt
        assert str(refused.value) == ADDS
    assert await repo.list_characters(KEY) == []

    zombie = await library.template(KEY, GM, "zombie")
    assert zombie.name == "Zombie"
    kept, stored_now = await library.keep(KEY, GM, "Rex", "stamina=5", zombie, 1, {}, by_name="The GM")
    assert stored_now and kept.owner_id == GM.user_id and kept.sheet["stamina"] == 5 and kept.npc
    again, stored_now = await library.keep(KEY, GM, "rex", None, None, 1, {})
    assert again.id == kept.id and not stored_now
    with pytest.raises(InvalidInput, match="one NPC at a time"):
        await library.keep(KEY, GM, "Rex", None, None, 2, {})


async def test_keeping_an_npc_never_turns_the_gms_own_hero_into_one(library: Library, repo: Repository) -> None:
    hero = await repo.add_character(KEY, GM.user_id, "Paragon", "rotted-capes", {"stamina": 12})
    with pytest.raises(InvalidInput, match="You already have a hero called Paragon"):
        await library.keep(KEY, GM, "paragon", "stamina=5", None, 1, {})
    assert await repo.list_characters(KEY) == [hero] and not hero.npc


async def test_npc_notes_are_limited_to_500_characters(library: Library, repo: Repository) -> None:
    await library.add(KEY, GM, "Ghoul", "stamina=5", "n" * 500)
    with pytest.raises(InvalidInput, match="Notes are limited to 500 characters."):
        await library.add(KEY, GM, "Wight", "stamina=5", "n" * 501)
    assert [n.name for n in await repo.list_npcs(KEY)] == ["Ghoul", "Zombie"]


async def test_a_kept_npc_comes_back_to_any_gm_and_is_never_kept_twice(library: Library, repo: Repository) -> None:
    carol = Actor(user_id=4, is_gm=True)
    kept, new = await library.keep(KEY, carol, "Doctor Vile", "stamina=8", None, 1, {})
    assert new and kept.npc and kept.owner_id == carol.user_id
    await repo.save_lasting({kept.id: {"stamina": 5}}, NewChange(KEY, carol.user_id, "/encounter end", "", {}))
    # another GM brings back the one carol kept, as it left, whatever stats or name case they give
    again, new = await library.keep(KEY, GM, "doctor vile", "stamina=99", None, 1, {})
    assert not new and again.id == kept.id and again.lasting == {"stamina": 5}
    assert [(r.name, r.owner_id) for r in await repo.list_characters(KEY)] == [("Doctor Vile", carol.user_id)]
    # a GM's own hero of that name stays a hero, and still no second NPC is stored
    await repo.add_character(KEY, GM.user_id, "Paragon", "rotted-capes", {})
    with pytest.raises(InvalidInput, match="You already have a hero called Paragon"):
        await library.keep(KEY, GM, "Paragon", None, None, 1, {})


async def test_a_template_name_must_show(library: Library, repo: Repository) -> None:
    # a template named only by a zero-width space or a Hangul filler would list as a blank line
    for unseen in ("\u200b", "\u3164", "Gh\x00oul"):
        with pytest.raises(InvalidInput):
            await library.add(KEY, GM, unseen, "stamina=5", None)
    assert [n.name for n in await repo.list_npcs(KEY)] == ["Zombie"]  # the fixture's template alone
