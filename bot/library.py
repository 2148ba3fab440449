"""The campaign's NPC library: stat blocks the GM stores once and adds by template
(/initiative add template:…), and NPCs the GM keeps from fight to fight.

Only the GM reads or changes it: every operation takes the acting `Actor` and refuses
anyone else before it says whether a named stat block exists.

Nothing here touches Discord.
"""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.commands import entered, flags
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.said import say
from rules.system import System
from rules.usertext import mark, quoted, refuse_unshown_name

from .lengths import NOTE
from .repository import CharacterRecord, DuplicateName, NpcRecord, Repository

MAX_NAME = 60
MAX_NOTES = NOTE
GM_USES_LIBRARY = "Only the GM uses the NPC library."
GM_ADDS_NPCS = "Only the GM adds NPCs; players use /initiative join."


def merged_sheet(system: System, npc: NpcRecord | None, stats: str | None) -> dict[str, Any]:
    """The template's stat block with the stats given on this add on top of it."""
    if npc is None:
        return system.parse_sheet(stats or "")
    overrides = flags(stats)
    bare = [k for k, v in overrides.items() if v is True]
    if bare:
        raise InvalidInput(say("Write stats as `name=value` ({name} has no value).", name=quoted(bare[0])))
    return system.sheet_over(npc.sheet, overrides)


def _gm(by: Actor, refusal: str) -> None:
    if not by.is_gm:
        raise NotAllowed(say(refusal))


class Library:
    def __init__(self, repo: Repository) -> None:
        self.repo = repo

    async def _system(self, key: int, by: Actor) -> System:
        _gm(by, GM_USES_LIBRARY)
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput(say("This campaign is not set up yet: the GM runs /campaign setup first."))
        return registry.get(campaign.system)

    async def add(self, key: int, by: Actor, name: str, stats: str | None, notes: str | None) -> str:
        """Store a stat block; returns its name as stored."""
        system = await self._system(key, by)
        clean = " ".join(name.split())
        if not clean or len(clean) > MAX_NAME:
            raise InvalidInput(say("A template name has 1 to 60 characters."))
        refuse_unshown_name(clean)
        if notes and len(notes) > MAX_NOTES:
            raise InvalidInput(say("Notes are limited to {n} characters.", n=MAX_NOTES))
        sheet = system.parse_sheet(stats or "")
        try:
            await self.repo.add_npc(key, clean, system.key, sheet, notes or "")
        except DuplicateName:
            raise InvalidInput(say("The library already has {name}: /npc remove it first.", name=mark(name))) from None
        return clean

    async def entries(self, key: int, by: Actor) -> list[NpcRecord]:
        await self._system(key, by)
        return await self.repo.list_npcs(key, limit=1000)

    async def show(self, key: int, by: Actor, name: str) -> NpcRecord:
        await self._system(key, by)
        record = await self.repo.get_npc(key, name)
        if record is None:
            raise InvalidInput(say("The NPC library has no {name}.", name=mark(name[:MAX_NAME])))
        return record

    async def remove(self, key: int, by: Actor, name: str) -> str:
        """Deletes a stat block; its name as stored."""
        await self._system(key, by)
        removed = await self.repo.remove_npc(key, name)
        if removed is None:
            raise InvalidInput(say("The NPC library has no {name}.", name=mark(name[:MAX_NAME])))
        return removed

    async def suggestions(self, key: int, by: Actor, prefix: str | None) -> list[NpcRecord]:
        """Stat blocks whose names start an autocompletion: none for a player, names included."""
        if not by.is_gm:
            return []
        return await self.repo.list_npcs(key, prefix=prefix or None, limit=25)

    async def template(self, key: int, by: Actor, name: str | None) -> NpcRecord | None:
        """The stat block /initiative add names (None when it names none)."""
        if name is None:
            return None
        _gm(by, GM_ADDS_NPCS)
        record = await self.repo.get_npc(key, name)
        if record is None:
            raise InvalidInput(say("The NPC library has no {name}: /npc list shows it.", name=mark(name[:MAX_NAME])))
        return record

    async def keep(
        self,
        key: int,
        by: Actor,
        name: str | None,
        stats: str | None,
        npc: NpcRecord | None,
        count: int,
        options: dict[str, Any],
        by_name: str | None = None,
    ) -> tuple[CharacterRecord, bool]:
        """keep:true stores the NPC as the GM's character, so the fight's end saves its lasting state.
        Returns the character and whether it was stored just now (to take back if the fight refuses it).
        A kept NPC is the campaign's GMs', not its keeper's: any GM brings it back by its name."""
        _gm(by, GM_ADDS_NPCS)
        if count != 1:
            raise InvalidInput(say("keep:true stores one NPC at a time (count 1)."))
        if not name:
            raise InvalidInput(say("Give the NPC a name, or a template from the NPC library."))
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput(say("keep:true needs a campaign: the GM runs /campaign setup first."))
        found = await self.repo.find_characters(key, name)
        kept = [r for r in found if r.npc]
        if kept:
            # kept before, by this GM or another: it comes back as it left, never a second one from defaults
            return kept[0], False
        existing = next((r for r in found if r.owner_id == by.user_id), None)
        if existing is not None:
            # the GM's own hero stays a hero: keeping would make it an NPC
            raise InvalidInput(
                say("You already have a hero called {name}: give the NPC another name.", name=mark(existing.name))
            )
        clean = " ".join(name.split())
        if not clean or len(clean) > MAX_NAME:
            raise InvalidInput(say("A kept NPC's name has 1 to 60 characters."))
        entered(options)  # entered dice and cards are checked before anything is stored
        sheet = merged_sheet(registry.get(campaign.system), npc, stats)
        try:
            stored = await self.repo.add_character(
                key, by.user_id, clean, campaign.system, sheet, owner_name=by_name, npc=True
            )
        except DuplicateName:
            raise InvalidInput(say("You already have a character called {name}.", name=mark(clean))) from None
        return stored, True
