"""A campaign's set-up, export, import and the places bound to it: who may do each
(what a setting may hold: `setting_values`).

Every operation takes the acting `Actor` (and, where Manage Server counts, whether the
caller has it) and refuses before it reads or changes anything.

Nothing here touches Discord.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from rules import registry
from rules.commands import flags
from rules.errors import InvalidInput, NotAllowed, Stale
from rules.model import Actor
from rules.said import joined, say, say_plural
from rules.system import System
from rules.text import Text
from rules.usertext import listed, listed_first, mark, quoted

from . import transfer
from .between import IMPORT
from .keyed_locks import KeyedLocks
from .places import Places, own_key
from .repository import CampaignChanged, CampaignRecord, CharacterRecord, NewChange, NpcRecord, Repository
from .setting_values import (
    DEFAULT_CHOICE_SECONDS,
    MAX_CHOICE_SECONDS,
    MAX_REMINDER_MINUTES,
    SHARED_OPTIONS,
    bounded,
    typed,
)
from .tables import utcnow

# Previews waiting for their GM's click, each holding its file: the oldest are dropped past this many, or past
# this many bytes of files. A file is held read, at up to ten times its size (one of the largest an import reads,
# its characters' lasting lists full of tags, some 100 MB): fifty of those would be gigabytes, held for good by
# previews that never expire (a choice timeout of 0).
MAX_PENDING_IMPORTS = 50
MAX_PENDING_BYTES = 4 * transfer.MAX_BYTES
# Import's change check reads every stored row, so the preview's digest and the export read them all
# too, however many there are (SQL's LIMIT takes at most a 64-bit count).
EVERY_ROW = 2**63 - 1
# A preview names this many of the records it deletes, then counts the rest.
NAMED = 20

Stored = TypeVar("Stored", CharacterRecord, NpcRecord)


@dataclass(frozen=True)
class Exported:
    """An export's campaign, and how many of its stored characters and NPCs the file leaves out: those
    of a system it played before being set up anew (they stay stored, for fights of their own system)."""

    campaign: CampaignRecord
    other_characters: int
    other_npcs: int


@dataclass(frozen=True)
class PendingImport:
    """A previewed import: its buttons carry `token`, and it is confirmed or cancelled once,
    before `expires_at` (None: the campaign's choices wait for ever, and so does the preview)."""

    token: str
    key: int
    asked_by: int
    file: transfer.CampaignFile
    current: CampaignRecord | None
    replaces: str  # transfer.digest of the campaign the preview described
    expires_at: datetime | None
    size: int  # the file's bytes

    def expired(self, now: datetime) -> bool:
        return self.expires_at is not None and now >= self.expires_at


def no_longer_valid() -> Stale:
    """Pressed twice, after a restart, or too late: the preview is gone; only a new one imports."""
    return Stale(say("This import preview is no longer valid: run /campaign import again."))


def changed_since_preview() -> InvalidInput:
    return InvalidInput(say("The campaign changed since this preview: import again."))


class FightRunning(InvalidInput):
    """An import refused while a fight of the campaign runs: its end saves into the characters it
    took in, which the import would have replaced, so what the fight did would be lost."""

    def __init__(self, channel_ids: Sequence[int]) -> None:
        super().__init__(
            say(
                "A fight of this campaign is running in {channels}: its end keeps what happened to its characters, "
                "which an import replaces. End it with /encounter end, then import. Nothing was changed.",
                channels=listed(f"<#{channel_id}>" for channel_id in channel_ids),
            )
        )
        self.channel_ids = tuple(channel_ids)


def may_confirm_import(user_id: int, asked_by: int) -> None:
    """Only the GM who saw an import's preview confirms it."""
    if user_id != asked_by:
        raise NotAllowed(say("Only the GM who asked for the import can confirm it."))


class Campaigns:
    def __init__(
        self, repo: Repository, places: Places, lock: KeyedLocks, *, now: Callable[[], datetime] = utcnow
    ) -> None:
        self.repo = repo
        self.places = places
        self.lock = lock  # by campaign
        self.now = now
        self._pending: OrderedDict[str, PendingImport] = OrderedDict()

    async def setup(
        self,
        key: int,
        by: Actor,
        system: str,
        *,
        manages_server: bool = False,
        gm_role_id: int | None = None,
        reminder_minutes: Any = None,
        choice_timeout: Any = None,
        settings: str | None = None,
    ) -> tuple[System, int | None]:
        """Save the campaign's rule system, GM role and settings; returns the system and the GM role now."""
        if not (by.is_gm or manages_server):
            raise NotAllowed(say("Only someone with Manage Server or the GM role can set up the campaign."))
        async with self.lock(key):
            return await self._setup(key, system, gm_role_id, reminder_minutes, choice_timeout, settings)

    async def _setup(
        self,
        key: int,
        system: str,
        gm_role_id: int | None,
        reminder_minutes: Any,
        choice_timeout: Any,
        settings: str | None,
    ) -> tuple[System, int | None]:
        rules_system = registry.get(system)
        current = await self.repo.get_campaign(key)
        merged = dict(current.settings) if current and current.system == system else {}
        # Discord's client enforces the declared ranges; a crafted request does not.
        if reminder_minutes is not None:
            merged["reminder_minutes"] = bounded(reminder_minutes, "reminder_minutes", 0, MAX_REMINDER_MINUTES)
        if choice_timeout is not None:
            merged["choice_timeout_seconds"] = bounded(choice_timeout, "choice_timeout", 0, MAX_CHOICE_SECONDS)
        for name, value in flags(settings).items():
            shared = next((s.option for key, s in SHARED_OPTIONS.items() if name in (key, s.option)), None)
            if shared is not None:
                raise InvalidInput(say("Set `{name}` with the `{name}:` option of /campaign setup.", name=shared))
            if name not in rules_system.options:
                known = ", ".join(rules_system.options) or say("none")
                raise InvalidInput(
                    say(
                        "{system} has no setting {name} (settings: {known}).",
                        system=rules_system.name,
                        name=quoted(name),
                        known=known,
                    )
                )
            if value is True:
                raise InvalidInput(say("Give `{name}` a value: `{name}=…`.", name=name))
            merged[name] = typed(value, rules_system.options[name], name)
        role_id = gm_role_id if gm_role_id else (current.gm_role_id if current else None)
        await self.repo.save_campaign(key, system=system, gm_role_id=role_id, settings=merged)
        return rules_system, role_id

    async def export(self, key: int, by: Actor) -> tuple[Exported, dict[str, Any]]:
        """The campaign, with what its file leaves out, and the file's data: the characters and NPCs of
        the system it plays (those of another, which the file's system could not read, stay stored)."""
        if not by.is_gm:
            raise NotAllowed(say("Only the GM exports the campaign (it holds the NPC library)."))
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput(say("There is no campaign here to export."))
        characters, npcs = await self._stored(key)
        heroes, other_heroes = of_system(characters, campaign.system)
        library, other_library = of_system(npcs, campaign.system)
        fits_a_file(len(heroes), len(library))
        data = transfer.export(campaign, heroes, library)
        size = len(transfer.dumps(data))
        if size > transfer.MAX_BYTES:  # Discord would refuse the upload, and the import the file
            raise InvalidInput(
                say(
                    "The campaign's file would be {mb} MB, more than the {most} MB an import reads: nothing was "
                    "exported. Remove NPC templates or characters the campaign no longer needs.",
                    mb=round(size / 2**20, 1),
                    most=transfer.MAX_BYTES // 2**20,
                )
            )
        return Exported(campaign, len(other_heroes), len(other_library)), data

    async def _stored(self, key: int) -> tuple[list[CharacterRecord], list[NpcRecord]]:
        """Every character and NPC the campaign stores, of any system."""
        return await self.repo.list_characters(key, limit=EVERY_ROW), await self.repo.list_npcs(key, limit=EVERY_ROW)

    async def _no_fight_running(self, key: int) -> None:
        running = await self.repo.running_fights(key)
        if running:
            raise FightRunning(running)

    async def incoming(
        self, key: int, by: Actor, size: int, download: Callable[[], Awaitable[bytes]]
    ) -> tuple[PendingImport, list[CharacterRecord], list[NpcRecord]]:
        """A file to import, checked completely, with everything it would replace (of any system: the
        import deletes every stored character and NPC); nothing changes yet. A file fit to import is
        refused while a fight of the campaign runs. The import waits, under its token, for the asker's
        `replace` or `cancel`."""
        if not by.is_gm:
            raise NotAllowed(say("Only the GM imports a campaign."))
        if size > transfer.MAX_BYTES:
            raise InvalidInput(transfer.too_large())
        current = await self.repo.get_campaign(key)
        raw = await download()
        # A large file takes a while to check: the bot's other servers and channels must not wait for it.
        incoming = await asyncio.to_thread(transfer.read, raw, expected_system=current.system if current else None)
        await self._no_fight_running(key)
        characters, npcs = await self._stored(key) if current else ([], [])
        # A preview waits for its GM's click as long as a choice in this campaign waits for an answer.
        seconds = (current.settings if current else {}).get("choice_timeout_seconds", DEFAULT_CHOICE_SECONDS)
        now = self.now()
        expires_at = now + timedelta(seconds=seconds) if seconds else None
        replaces = transfer.digest(current, characters, npcs)
        pending = PendingImport(
            secrets.token_hex(8), key, by.user_id, incoming, current, replaces, expires_at, len(raw)
        )
        for token in [token for token, waiting in self._pending.items() if waiting.expired(now)]:
            del self._pending[token]
        self._pending[pending.token] = pending
        while len(self._pending) > MAX_PENDING_IMPORTS or self._pending_bytes() > MAX_PENDING_BYTES:
            self._pending.popitem(last=False)
        return pending, characters, npcs

    def _pending_bytes(self) -> int:
        return sum(waiting.size for waiting in self._pending.values())

    def _answer(self, token: str, by: Actor, *, confirming: bool) -> PendingImport:
        """The pending import, taken out so that no other click answers it; nothing to await
        between the look-up and the removal, so two presses cannot both find it."""
        pending = self._pending.get(token)
        if pending is None:
            raise no_longer_valid()
        may_confirm_import(by.user_id, pending.asked_by)
        del self._pending[token]
        if confirming and pending.expired(self.now()):
            raise no_longer_valid()
        return pending

    def cancel(self, token: str, by: Actor) -> None:
        self._answer(token, by, confirming=False)

    async def replace(self, token: str, by: Actor, by_name: str | None = None) -> PendingImport:
        """The import, confirmed by the GM who asked: the campaign becomes the file's, in one
        transaction with its log line, if it is still the campaign the preview described (no
        character added, no system set up, no other import since) and no fight of it runs; else
        nothing changes. A name the file holds twice for one owner raises DuplicateName, changing nothing."""
        pending = self._answer(token, by, confirming=True)
        incoming = pending.file
        summary = say(
            "Imported {characters} and {npcs}",
            characters=transfer.characters_counted(len(incoming.characters)),
            npcs=transfer.npcs_counted(len(incoming.npcs)),
        )
        try:
            async with self.lock(pending.key):
                await self._no_fight_running(pending.key)
                await self.repo.replace_campaign(
                    pending.key,
                    system=incoming.system,
                    settings=incoming.settings,
                    state=incoming.state,
                    characters=incoming.characters,
                    npcs=incoming.npcs,
                    change=NewChange(pending.key, by.user_id, IMPORT, summary, {}, by_name),
                    unchanged=lambda *found: transfer.digest(*found) == pending.replaces,
                )
        except CampaignChanged:
            raise changed_since_preview() from None
        return pending

    async def bind(self, guild_id: int, place_id: int, *, manages_server: bool, same_as: Any = None) -> None:
        """`place` gets a campaign of its own, or the campaign of the channel `same_as`."""
        _manager(manages_server)
        # A refusal is shown with mentions escaped, so it names no channel.
        if same_as is not None and getattr(same_as, "id", None) == place_id:
            raise InvalidInput(
                say("That channel is already bound to the campaign it plays: same_as names another channel.")
            )
        key = await self.places.key(guild_id, same_as) if same_as is not None else own_key(place_id)
        if (await self.places.of(guild_id)).get(place_id) == key:
            if same_as is None:
                raise InvalidInput(say("That channel or category is already bound to a campaign of its own."))
            raise InvalidInput(say("That channel or category is already bound to that channel's campaign."))
        await self.repo.bind_place(guild_id, place_id, key)
        self.places.forget(guild_id)

    async def unbind(self, guild_id: int, place_id: int, *, manages_server: bool) -> None:
        _manager(manages_server)
        if not await self.repo.unbind_place(guild_id, place_id):
            raise InvalidInput(say("That channel or category is not bound to a campaign of its own."))
        self.places.forget(guild_id)


def of_system(records: Sequence[Stored], system: str) -> tuple[list[Stored], list[Stored]]:
    """The records of `system`, and those of another (kept since the campaign was set up anew)."""
    return [r for r in records if r.system == system], [r for r in records if r.system != system]


def fits_a_file(characters: int, npcs: int) -> None:
    """A campaign file holds at most transfer.MAX_ITEMS characters and as many NPCs: a larger campaign is
    refused rather than written cut short, which its import would take for the whole campaign."""
    most = transfer.MAX_ITEMS
    if characters > most:
        raise InvalidInput(
            say(
                "This campaign has {n} characters, more than the {most} a campaign file holds: nothing was exported.",
                n=characters,
                most=most,
            )
        )
    if npcs > most:
        raise InvalidInput(
            say(
                "This campaign's NPC library holds {n} NPCs, more than the {most} a campaign file holds: "
                "nothing was exported.",
                n=npcs,
                most=most,
            )
        )


def preview(
    pending: PendingImport,
    characters: Sequence[CharacterRecord],
    npcs: Sequence[NpcRecord],
    strangers: Collection[int] = (),
) -> Text:
    """What an import will change. It deletes every stored character and NPC, those of a system the
    campaign played before too, so those are named apart; `strangers`: owners who are not members of
    the server, whose characters in the file nobody here could play."""
    heroes, other_heroes = of_system(characters, pending.file.system)
    library, other_library = of_system(npcs, pending.file.system)
    lines = [transfer.preview(pending.file, pending.current, heroes, library)]
    if other_heroes or other_library:
        lines.append(
            say(
                "It also deletes what this campaign keeps of a system it played before: "
                "{characters} ({names}) and {npcs}.",
                characters=transfer.characters_counted(len(other_heroes)),
                names=_names(other_heroes),
                npcs=transfer.npcs_counted(len(other_library)),
            )
        )
    unplayable = sum(1 for c in pending.file.characters if not c["npc"] and c["owner_id"] in strangers)
    if unplayable:
        lines.append(
            say_plural(
                "{n} character in the file belongs to someone who is not a member of this server: "
                "nobody can play it here until they join.",
                "{n} characters in the file belong to people who are not members of this server: "
                "nobody can play them here until their owners join.",
                unplayable,
                n=unplayable,
            )
        )
    return joined("\n", lines)


def _names(records: Sequence[CharacterRecord]) -> Text:
    return listed_first((mark(r.name) for r in records), NAMED) or say("none")


def _manager(manages_server: bool) -> None:
    if not manages_server:
        raise NotAllowed(say("Only someone with Manage Server binds channels to campaigns."))
