"""A campaign's set-up, export, import and bindings refuse whoever may not do them,
before they read or change anything."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable

import pytest

from bot import transfer
from bot.campaigns import Campaigns, FightRunning, fits_a_file, may_confirm_import, preview
from bot.core import Core
from bot.keyed_locks import KeyedLocks
from bot.places import Places
from bot.repository import Repository
from rules import registry
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.said import english
from tests.helpers import GM

PLAYER = Actor(user_id=2)
KEY = 10**18
SET_UP = "Only someone with Manage Server or the GM role can set up the campaign."


@pytest.fixture
def campaigns(repo: Repository) -> Campaigns:
    return Campaigns(repo, Places(repo), KeyedLocks())


async def test_a_player_does_not_set_up_the_campaign(campaigns: Campaigns, repo: Repository) -> None:
    with pytest.raises(NotAllowed) as refused:
        await campaigns.setup(KEY, PLAYER, "rotted-capes", settings="no_such_setting=1")
    assert str(refused.value) == SET_UP
    assert await repo.get_campaign(KEY) is None


async def test_the_gm_or_a_server_manager_sets_up_the_campaign(campaigns: Campaigns, repo: Repository) -> None:
    system, role = await campaigns.setup(KEY, GM, "rotted-capes", gm_role_id=77, reminder_minutes=5)
    assert system.key == "rotted-capes" and role == 77
    _, role = await campaigns.setup(KEY, PLAYER, "rotted-capes", manages_server=True, choice_timeout=30)
    assert role == 77  # no role given: the campaign keeps its GM role
    saved = await repo.get_campaign(KEY)
    assert saved.settings == {"reminder_minutes": 5, "choice_timeout_seconds": 30}


async def test_setup_refuses_settings_the_system_does_not_have_or_cannot_hold(campaigns: Campaigns) -> None:
    with pytest.raises(InvalidInput, match="has no setting"):
        await campaigns.setup(KEY, GM, "rotted-capes", settings="no_such_setting=1")
    with pytest.raises(InvalidInput, match="must be a whole number from 0 to 1440"):
        await campaigns.setup(KEY, GM, "rotted-capes", reminder_minutes=5000)


@pytest.mark.parametrize(
    "system, settings, refusal",
    [
        # a misspelt word would play as whichever branch its reader falls through to
        ("99-towers", "defender_flips=player", "`defender_flips` is one of: players, auto."),
        ("rotted-capes", "advantage=counts", "`advantage` is one of: cancel, count."),
        # a hero holds at most 100 Plot Points, and a typed DC is 1 to 60
        ("rotted-capes", "starting_plot_points=101", "`starting_plot_points` must be a whole number from 0 to 100."),
        ("rotted-capes", "ongoing_dc=0", "`ongoing_dc` must be a whole number from 1 to 60."),
        ("rotted-capes", "ongoing_dc=61", "`ongoing_dc` must be a whole number from 1 to 60."),
        # where the seed gives two readings, a setting stays between them
        (
            "fightin-words",
            "stand_from_prone_seconds=6",
            "`stand_from_prone_seconds` must be a whole number from 2 to 4.",
        ),
        ("fightin-words", "first_dying_dc=3", "`first_dying_dc` must be a whole number from 4 to 6."),
        ("fightin-words", "dying_at_toughness=maybe", "`dying_at_toughness` is yes or no."),
    ],
)
async def test_setup_holds_a_setting_to_its_choices_and_range(
    campaigns: Campaigns, repo: Repository, system: str, settings: str, refusal: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        await campaigns.setup(KEY, GM, system, settings=settings)
    assert str(refused.value) == refusal
    assert await repo.get_campaign(KEY) is None


async def test_a_setting_word_is_read_whatever_its_case(campaigns: Campaigns, repo: Repository) -> None:
    await campaigns.setup(KEY, GM, "99-towers", settings="defender_flips=Auto")
    await campaigns.setup(KEY, GM, "99-towers", settings="surprise_phases=4")
    assert (await repo.get_campaign(KEY)).settings == {"defender_flips": "auto", "surprise_phases": 4}


async def test_only_the_gm_exports(campaigns: Campaigns, repo: Repository) -> None:
    with pytest.raises(NotAllowed, match="Only the GM exports the campaign"):
        await campaigns.export(KEY, PLAYER)  # refused before saying there is no campaign
    with pytest.raises(InvalidInput, match="no campaign here to export"):
        await campaigns.export(KEY, GM)
    await repo.save_campaign(KEY, system="rotted-capes")
    with pytest.raises(NotAllowed):
        await campaigns.export(KEY, PLAYER)
    exported, data = await campaigns.export(KEY, GM)
    assert exported.campaign.system == data["system"] == "rotted-capes"


async def test_only_the_gm_imports_and_only_the_gm_who_asked_confirms(campaigns: Campaigns, repo: Repository) -> None:
    await repo.save_campaign(KEY, system="rotted-capes")
    _, data = await campaigns.export(KEY, GM)
    downloads = []

    async def download() -> bytes:
        downloads.append(1)
        return transfer.dumps(data)

    with pytest.raises(NotAllowed, match="Only the GM imports a campaign"):
        await campaigns.incoming(KEY, PLAYER, 10, download)
    assert downloads == []  # refused before the file is even read
    with pytest.raises(InvalidInput, match="larger than"):
        await campaigns.incoming(KEY, GM, transfer.MAX_BYTES + 1, download)
    pending, characters, npcs = await campaigns.incoming(KEY, GM, 10, download)
    assert pending.file.system == pending.current.system == "rotted-capes" and characters == npcs == []
    may_confirm_import(GM.user_id, GM.user_id)
    with pytest.raises(NotAllowed, match="Only the GM who asked for the import can confirm it."):
        may_confirm_import(PLAYER.user_id, GM.user_id)
    with pytest.raises(NotAllowed):
        await campaigns.replace(pending.token, PLAYER)
    await campaigns.replace(pending.token, GM)  # a player's press did not use the preview up


def as_file(data: dict) -> transfer.CampaignFile:
    return transfer.read(transfer.dumps(data), expected_system=None)


def download_of(data: dict):
    async def download() -> bytes:
        return transfer.dumps(data)

    return download


async def switched_to_factions(repo: Repository) -> None:
    """A Rotted Capes campaign with a hero and an NPC template, set up anew for Factions, which keeps them."""
    capes = registry.get("rotted-capes")
    await repo.save_campaign(KEY, system=capes.key)
    await repo.add_character(KEY, 7, "Nova", capes.key, capes.parse_sheet("dex=2 stamina=20 wounds=3"))
    await repo.add_npc(KEY, "Zombie", capes.key, capes.parse_sheet("stamina=8 wounds=1 attack=2"))
    await repo.save_campaign(KEY, system="factions")


async def test_an_export_holds_the_campaigns_system_and_counts_what_it_leaves_out(
    campaigns: Campaigns, repo: Repository
) -> None:
    await switched_to_factions(repo)
    factions = registry.get("factions")
    await repo.add_character(KEY, 8, "Vex", factions.key, factions.parse_sheet("health=7"))
    exported, data = await campaigns.export(KEY, GM)
    assert [c["name"] for c in data["characters"]] == ["Vex"] and data["npcs"] == []
    assert (exported.other_characters, exported.other_npcs) == (1, 1)
    # The file passes its own import, and what was left out stays stored.
    assert as_file(data).system == "factions"
    assert await repo.get_character(KEY, "Nova") is not None and await repo.get_npc(KEY, "Zombie") is not None


async def test_an_import_preview_names_what_of_another_system_it_deletes_and_the_import_does(
    campaigns: Campaigns, repo: Repository
) -> None:
    await switched_to_factions(repo)
    _, data = await campaigns.export(KEY, GM)
    pending, characters, npcs = await campaigns.incoming(KEY, GM, 10, download_of(data))
    shown = english(preview(pending, characters, npcs))
    assert "Now: Factions, 0 characters, 0 NPCs." in shown
    assert (
        "It also deletes what this campaign keeps of a system it played before: 1 character (Nova) and 1 NPC." in shown
    )
    await campaigns.replace(pending.token, GM)
    assert await repo.list_characters(KEY) == [] and await repo.list_npcs(KEY) == []


async def test_a_campaign_larger_than_a_file_holds_is_refused_not_cut_short(
    campaigns: Campaigns, repo: Repository
) -> None:
    factions = registry.get("factions")
    await repo.save_campaign(KEY, system=factions.key)
    sheet = factions.parse_sheet("")
    for n in range(transfer.MAX_ITEMS + 1):
        await repo.add_character(KEY, 7, f"A{n:04d}", factions.key, sheet)
    with pytest.raises(InvalidInput) as refused:
        await campaigns.export(KEY, GM)
    assert str(refused.value) == (
        "This campaign has 1001 characters, more than the 1000 a campaign file holds: nothing was exported."
    )
    with pytest.raises(InvalidInput, match="NPC library holds 1001 NPCs, more than the 1000"):
        fits_a_file(0, transfer.MAX_ITEMS + 1)
    fits_a_file(transfer.MAX_ITEMS, transfer.MAX_ITEMS)
    # A file imports over that campaign: the preview's change check read it all, as the import's does.
    file = {"format": transfer.FORMAT, "version": 2, "system": factions.key, "settings": {}, "state": {}}
    vex = {"name": "Vex", "owner_id": "8", "sheet": sheet, "lasting": {}}
    pending, characters, _ = await campaigns.incoming(
        KEY, GM, 10, download_of(file | {"characters": [vex], "npcs": []})
    )
    await campaigns.replace(pending.token, GM)
    assert [c.name for c in await repo.list_characters(KEY)] == ["Vex"]
    assert len(characters) == transfer.MAX_ITEMS + 1  # what the preview counted as "Now"


async def test_a_campaign_whose_file_would_pass_the_size_an_import_reads_is_refused(
    campaigns: Campaigns, repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await repo.save_campaign(KEY, system="factions")
    await repo.add_character(KEY, 7, "Vex", "factions", registry.get("factions").parse_sheet(""))
    size = len(transfer.dumps((await campaigns.export(KEY, GM))[1]))
    monkeypatch.setattr(transfer, "MAX_BYTES", size - 1)
    with pytest.raises(InvalidInput, match="more than the 0 MB an import reads: nothing was exported"):
        await campaigns.export(KEY, GM)


async def test_the_file_is_read_off_the_event_loop(
    campaigns: Campaigns, repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await repo.save_campaign(KEY, system="rotted-capes")
    _, data = await campaigns.export(KEY, GM)
    read, threads = transfer.read, []

    def reading(*args, **kwargs):
        threads.append(threading.get_ident())
        return read(*args, **kwargs)

    monkeypatch.setattr(transfer, "read", reading)
    await campaigns.incoming(KEY, GM, 10, download_of(data))
    assert threads and threads[0] != threading.get_ident()


async def test_an_import_is_refused_while_a_fight_of_the_campaign_runs(campaigns: Campaigns, repo: Repository) -> None:
    await repo.save_campaign(KEY, system="rotted-capes")
    _, data = await campaigns.export(KEY, GM)
    pending, _, _ = await campaigns.incoming(KEY, GM, 10, download_of(data))
    # A fight of another campaign does not count; one of this one, here or in a bound channel, does.
    await repo.create_encounter(KEY + 1, 55, "rotted-capes", {})
    await repo.create_encounter(KEY, 56, "rotted-capes", {}, campaign_key=KEY + 2)
    await repo.create_encounter(KEY, 57, "rotted-capes", {})
    await repo.create_encounter(KEY + 3, 58, "rotted-capes", {}, campaign_key=KEY)
    with pytest.raises(FightRunning) as refused:
        await campaigns.incoming(KEY, GM, 10, download_of(data))
    assert refused.value.channel_ids == (57, 58)
    assert "running in <#57>, <#58>: its end keeps what happened to its characters" in str(refused.value)
    with pytest.raises(FightRunning):
        await campaigns.replace(pending.token, GM)  # the fight began after the preview
    assert await repo.changes(KEY) == []


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(5):
        while not condition():
            await asyncio.sleep(0.001)


async def test_a_fight_started_while_an_import_replaces_the_campaign_starts_after_it(
    repo: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = Core(repo)
    capes = registry.get("rotted-capes")
    await repo.save_campaign(KEY, system=capes.key)
    await repo.add_character(KEY, 7, "Mira", capes.key, capes.parse_sheet(""))
    _, data = await core.campaigns.export(KEY, GM)
    vex = {"name": "Vex", "owner_id": "7", "sheet": capes.parse_sheet(""), "lasting": {}}
    imported = data | {"characters": [vex], "state": {"rules": {"pool": 7}}}
    pending, _, _ = await core.campaigns.incoming(KEY, GM, 10, download_of(imported))
    checked, go, order, creating = asyncio.Event(), asyncio.Event(), [], []
    replace_campaign, create_encounter = repo.replace_campaign, repo.create_encounter

    async def replacing(*args, **kwargs) -> None:
        checked.set()  # the import found no fight running: the window a start must not slip into
        await go.wait()
        await replace_campaign(*args, **kwargs)
        order.append("import")

    async def creating_encounter(*args, **kwargs):
        creating.append(True)
        record = await create_encounter(*args, **kwargs)
        order.append("start")
        return record

    monkeypatch.setattr(repo, "replace_campaign", replacing)
    monkeypatch.setattr(repo, "create_encounter", creating_encounter)
    importing = asyncio.create_task(core.campaigns.replace(pending.token, GM))
    await checked.wait()
    starting = asyncio.create_task(core.start(9, 56, GM, campaign=KEY))
    # The start either gets through, or waits holding its channel's lock (taken before the campaign's)
    # without having written its encounter.
    await until(lambda: starting.done() or (core.lock(56).locked() and not creating))
    go.set()
    done, started = await asyncio.gather(importing, starting, return_exceptions=True)
    if isinstance(done, FightRunning):
        assert [c.name for c in await repo.list_characters(KEY)] == ["Mira"] and await repo.changes(KEY) == []
    else:
        assert order == ["import", "start"]  # the fight began on the campaign as imported
        assert [c.name for c in await repo.list_characters(KEY)] == ["Vex"]
        assert started.state.pool == 7
    assert await repo.running_fights(KEY) == [56]


async def test_only_a_server_manager_binds_and_unbinds(campaigns: Campaigns, repo: Repository) -> None:
    manage = "Only someone with Manage Server binds channels to campaigns."
    with pytest.raises(NotAllowed, match=manage):
        await campaigns.bind(KEY, 21, manages_server=False)
    assert await repo.places(KEY) == {}
    await campaigns.bind(KEY, 21, manages_server=True)
    assert await repo.places(KEY) == {21: -21}
    with pytest.raises(NotAllowed, match=manage):
        await campaigns.unbind(KEY, 21, manages_server=False)
    assert await repo.places(KEY) == {21: -21}
    await campaigns.unbind(KEY, 21, manages_server=True)
    with pytest.raises(InvalidInput, match="is not bound"):
        await campaigns.unbind(KEY, 21, manages_server=True)


def campaign_file(version: int, system: str, sheet: dict) -> bytes:
    character = {"name": "Mira", "owner_id": "7", "sheet": sheet, "lasting": {}}
    data = {"format": transfer.FORMAT, "version": version, "system": system, "settings": {}, "state": {}}
    return transfer.dumps(data | {"characters": [character], "npcs": [{"name": "Goblin", "sheet": sheet}]})


def test_a_version_1_file_reads_as_it_meant_then() -> None:
    # Version 1 wrote Fightin' Words' Dodge and Parry 0 when nobody gave them: they follow Reflex and
    # Weapon Skill now, while a value given (2) stays; version 2 keeps a 0 as given. A sheet is stored as
    # /character add stores it, every stat written out.
    words, capes = registry.get("fightin-words"), registry.get("rotted-capes")
    sheet = {"reflex": 3, "dodge": 0, "parry": 2}
    old = transfer.read(campaign_file(1, "fightin-words", sheet), expected_system=None)
    then = words.parse_sheet({"reflex": 3, "dodge": None, "parry": 2})
    assert old.characters[0]["sheet"] == old.npcs[0]["sheet"] == then and then["dodge"] is None
    new = transfer.read(campaign_file(2, "fightin-words", sheet), expected_system=None)
    assert new.characters[0]["sheet"] == words.parse_sheet(sheet)
    other = transfer.read(campaign_file(1, "rotted-capes", {"dex": 0}), expected_system=None)
    assert other.characters[0]["sheet"] == capes.parse_sheet({"dex": 0})
    with pytest.raises(InvalidInput, match="versions 1 to 2"):
        transfer.read(campaign_file(3, "fightin-words", sheet), expected_system=None)


@pytest.mark.parametrize(
    "system, settings, refusal",
    [
        ("99-towers", {"defender_flips": "player"}, "`defender_flips` is one of: players, auto."),
        ("rotted-capes", {"starting_plot_points": 150}, "`starting_plot_points` must be a whole number from 0 to 100."),
    ],
)
def test_an_imported_setting_is_held_to_what_setup_allows(system: str, settings: dict, refusal: str) -> None:
    data = {"format": transfer.FORMAT, "version": 2, "system": system, "settings": settings, "state": {}}
    with pytest.raises(InvalidInput) as refused:
        transfer.read(transfer.dumps(data | {"characters": [], "npcs": []}), expected_system=None)
    assert str(refused.value) == refusal


def test_an_editor_in_chiefs_pool_grown_by_a_long_campaign_comes_back_in() -> None:
    # Every spent Plot Point adds one to the pool and nothing empties it: its own export must import.
    data = {"format": transfer.FORMAT, "version": 2, "system": "rotted-capes", "settings": {}}
    state = {"rules": {"pool": 5000}}
    read = transfer.read(transfer.dumps(data | {"state": state, "characters": [], "npcs": []}), expected_system=None)
    assert read.state == state
