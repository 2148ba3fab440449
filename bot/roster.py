"""The campaign's stored characters: players store their sheets once and join fights with them.

Anyone stores a character of their own; a character's sheet and what it carries between
fights are for its owner and the GM to read, and only they remove it. An NPC a GM kept is every
GM's, and no one else's (it may have fought hidden, and comes back hidden until a GM brings it back
visible). Nothing here touches Discord.
"""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.commands import check_owner_or_gm
from rules.errors import InvalidInput
from rules.model import Actor, Encounter
from rules.said import say
from rules.system import System
from rules.text import Text
from rules.usertext import mark, refuse_unshown_name

from .keyed_locks import KeyedLocks
from .repository import CharacterRecord, DuplicateName, Repository

# The bot's own key in a kept NPC's lasting state, beside its system's: stored there, it needs no
# column of its own and goes through an export and its import as a flag (true or false).
HIDDEN = "hidden"


def fought_hidden(record: CharacterRecord) -> bool:
    """Whether a kept NPC last fought hidden: a GM who does not say otherwise brings it back hidden."""
    return record.npc and record.lasting.get(HIDDEN) is True


def system_lasting(record: CharacterRecord) -> dict[str, Any]:
    """The lasting state its system reads: the bot's own key left out."""
    return {key: value for key, value in record.lasting.items() if key != HIDDEN}


def may_read(by: Actor, record: CharacterRecord) -> bool:
    """Whether `by` reads the sheet and the lasting state of a stored character. A kept NPC is the
    GMs', not its keeper's: a keeper who is no longer a GM reads it no more than any player."""
    return by.is_gm or (record.owner_id == by.user_id and not record.npc)


class Roster:
    def __init__(self, repo: Repository, lock: KeyedLocks | None = None) -> None:
        self.repo = repo
        # by campaign: the one a fight's end, a rest and an adjustment write lasting states under
        self.lock = lock if lock is not None else KeyedLocks()

    async def system(self, key: int) -> System:
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput(say("This server has no campaign yet: the GM runs /campaign setup first."))
        return registry.get(campaign.system)

    async def add(self, key: int, by: Actor, name: str, stats: str | None, owner_name: str) -> tuple[str, System]:
        """Store `by`'s character; returns its name as stored and the campaign's system."""
        system = await self.system(key)
        return await self.store(key, by, name, system.parse_sheet(stats or ""), owner_name), system

    async def store(
        self, key: int, by: Actor, name: str, sheet: dict[str, Any], owner_name: str, read_as: str | None = None
    ) -> str:
        """Store `by`'s character with a sheet already read (from a form, by the rules of system `read_as`);
        returns its name as stored."""
        system = await self.system(key)
        if read_as is not None and read_as != system.key:
            raise InvalidInput(
                say(
                    "This campaign plays {system} now, not the system the form was for: run /character add again.",
                    system=system.name,
                )
            )
        clean = _stored_name(name)
        try:
            await self.repo.add_character(key, by.user_id, clean, system.key, sheet, owner_name=owner_name)
        except DuplicateName:
            raise InvalidInput(_taken(name)) from None
        return clean

    async def new_name(self, key: int, by: Actor, name: str) -> str:
        """The name `by`'s new character would be stored under, asked before a form opens (a form cannot change
        the name it was opened for): refuses one that shows nothing or that `by` already has."""
        clean = _stored_name(name)
        if await self.repo.get_character(key, clean, owner_id=by.user_id) is not None:
            raise InvalidInput(_taken(name))
        return clean

    async def edit(self, key: int, by: Actor, record: CharacterRecord, sheet: dict[str, Any]) -> None:
        """Replace a stored character's sheet (its owner or the GM), its lasting state fitted to it."""
        check_owner_or_gm(by, record)
        async with self.lock(key):
            # Stamina left above a sheet edited down is read as the sheet's: stored so, an export holds
            # what the bot shows, and its import takes it.
            now = await self.repo.character_by_id(key, record.id)
            if now is None:
                return  # removed meanwhile
            lasting = registry.get(now.system).fit_lasting(sheet, now.lasting, now.npc)
            await self.repo.set_character_sheet(key, now.id, sheet, lasting=lasting if lasting != now.lasting else None)

    async def remove(self, key: int, by: Actor, record: CharacterRecord) -> None:
        check_owner_or_gm(by, record)
        await self.repo.remove_character_id(key, record.id)

    async def remember_joining(
        self, key: int, record: CharacterRecord, hidden: bool, joined: dict[str, Any] | None = None
    ) -> None:
        """A kept NPC the fight just took in remembers whether it fights hidden, and what else joining
        decided (`joined`, `System.joined_lasting`: its side), for the next time a GM brings it back.
        Neither changes during a fight, so this is how it fought."""
        if not record.npc:
            return
        async with self.lock(key):
            now = await self.repo.character_by_id(key, record.id)
            if now is None:
                return  # removed meanwhile
            # Kept only when hidden, so that a visible NPC's lasting state stays as its system wrote it.
            flag = {HIDDEN: True} if hidden else {}
            lasting = system_lasting(now) | (joined or {}) | flag
            if lasting != now.lasting:  # else another fight took it in so
                await self.repo.set_character_lasting(key, now.id, lasting)


def joined_lasting(state: Encounter, record: CharacterRecord) -> dict[str, Any]:
    """What the fight that just took `record` in decided of its lasting state by taking it in (its side)."""
    taken = next(c for c in state.combatants if c.character_id == record.id)
    return registry.get(state.system).joined_lasting(state, taken)


def _stored_name(name: str) -> str:
    """The name as stored, its spaces tidied; refuses one that shows nothing."""
    clean = " ".join(name.split())
    if not clean:
        raise InvalidInput(say("A character needs a name."))
    refuse_unshown_name(clean)
    return clean


def _taken(name: str) -> Text:
    return say("You already have a character called {name} here.", name=mark(name))
