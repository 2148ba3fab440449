"""A campaign's set-up, export, import and the places bound to it: who may do each
(what a setting may hold: `setting_values`).

Every operation takes the acting `Actor` (and, where Manage Server counts, whether the
caller has it) and refuses before it reads or changes anything.

Nothing here touches Discord.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from rules import registry
from rules.commands import flags
from rules.errors import InvalidInput, NotAllowed, Stale
from rules.model import Actor
from rules.said import say
from rules.system import System
from rules.usertext import quoted

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

# Previews waiting for their GM's click, each holding its file: the oldest are dropped past this.
MAX_PENDING_IMPORTS = 50


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

    def expired(self, now: datetime) -> bool:
        return self.expires_at is not None and now >= self.expires_at


def no_longer_valid() -> Stale:
    """Pressed twice, after a restart, or too late: the preview is gone; only a new one imports."""
    return Stale(say("This import preview is no longer valid: run /campaign import again."))


def changed_since_preview() -> InvalidInput:
    return InvalidInput(say("The campaign changed since this preview: import again."))


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

    async def export(self, key: int, by: Actor) -> tuple[CampaignRecord, dict[str, Any]]:
        """The campaign and its file's data."""
        if not by.is_gm:
            raise NotAllowed(say("Only the GM exports the campaign (it holds the NPC library)."))
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput("There is no campaign here to export.")
        data = transfer.export(
            campaign,
            await self.repo.list_characters(key, limit=transfer.MAX_ITEMS),
            await self.repo.list_npcs(key, limit=transfer.MAX_ITEMS),
        )
        return campaign, data

    async def incoming(
        self, key: int, by: Actor, size: int, download: Callable[[], Awaitable[bytes]]
    ) -> tuple[PendingImport, list[CharacterRecord], list[NpcRecord]]:
        """A file to import, checked completely, with what it would replace; nothing changes yet.
        The import waits, under its token, for the asker's `replace` or `cancel`."""
        if not by.is_gm:
            raise NotAllowed(say("Only the GM imports a campaign."))
        if size > transfer.MAX_BYTES:
            raise InvalidInput(transfer.too_large())
        current = await self.repo.get_campaign(key)
        incoming = transfer.read(await download(), expected_system=current.system if current else None)
        characters = await self.repo.list_characters(key, limit=transfer.MAX_ITEMS) if current else []
        npcs = await self.repo.list_npcs(key, limit=transfer.MAX_ITEMS) if current else []
        # A preview waits for its GM's click as long as a choice in this campaign waits for an answer.
        seconds = (current.settings if current else {}).get("choice_timeout_seconds", DEFAULT_CHOICE_SECONDS)
        now = self.now()
        expires_at = now + timedelta(seconds=seconds) if seconds else None
        replaces = transfer.digest(current, characters, npcs)
        pending = PendingImport(secrets.token_hex(8), key, by.user_id, incoming, current, replaces, expires_at)
        for token in [token for token, waiting in self._pending.items() if waiting.expired(now)]:
            del self._pending[token]
        self._pending[pending.token] = pending
        while len(self._pending) > MAX_PENDING_IMPORTS:
            self._pending.popitem(last=False)
        return pending, characters, npcs

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
        character added, no system set up, no other import since); else nothing changes. A name
        the file holds twice for one owner raises DuplicateName, changing nothing."""
        pending = self._answer(token, by, confirming=True)
        incoming = pending.file
        summary = say(
            "Imported {characters} characters and {npcs} NPCs",
            characters=len(incoming.characters),
            npcs=len(incoming.npcs),
        )
        try:
            async with self.lock(pending.key):
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


def _manager(manages_server: bool) -> None:
    if not manages_server:
        raise NotAllowed(say("Only someone with Manage Server binds channels to campaigns."))
