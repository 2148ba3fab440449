"""Per-server command sets: a server is offered the command groups of the rule systems
it plays and no others (a 99 Towers server does not see ``/plotpoint``).

Every command stays in the bot's command tree, so any interaction is dispatched; only
what Discord *offers* differs. Global commands are synced without the system-specific
groups; each server gets the groups of its campaign's system and of the systems of its
running encounters as guild commands: in the background after start-up (start-up waits
for none of it), and at once when a campaign's system changes or an encounter of
another system starts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

import discord
import sqlalchemy as sa

from rules import registry

from .tables import ACTIVE, campaign_table, encounter_table, place_table

if TYPE_CHECKING:
    from .app import TurnkeeperBot

log = logging.getLogger(__name__)


@cache
def system_groups() -> dict[str, frozenset[str]]:
    """Command group → the systems that use it, for the groups only some systems use;
    read from what each system declares (its ``commands`` module)."""
    users: dict[str, set[str]] = {}
    for key in registry.MODULES:
        for group in registry.get(key).commands.groups():
            users.setdefault(group, set()).add(key)
    return {group: frozenset(keys) for group, keys in users.items() if keys != set(registry.MODULES)}


def groups_for(systems: Iterable[str]) -> frozenset[str]:
    systems = set(systems)
    return frozenset(name for name, users in system_groups().items() if users & systems)


class CommandSets:
    def __init__(self, bot: TurnkeeperBot) -> None:
        self.bot = bot
        self.synced: dict[int, frozenset[str]] = {}  # guild → groups Discord offers there
        self._locks: dict[int, asyncio.Lock] = {}
        self._task: asyncio.Task | None = None
        self._payloads: dict[str, dict] | None = None

    async def _payload(self, names: Iterable[str]) -> list[dict]:
        every = await self._all()
        return [every[name] for name in sorted(names) if name in every]

    async def _all(self) -> dict[str, dict]:
        """Each top-level command as Discord takes it, with its texts in every language the
        tree's translator knows (`bot.translation`); made once, commands do not change."""
        if self._payloads is None:
            tree = self.bot.tree
            payloads = {}
            for command in tree.get_commands():
                if tree.translator is None:
                    payloads[command.name] = command.to_dict(tree)
                else:
                    payloads[command.name] = await command.get_translated_payload(tree, tree.translator)
            self._payloads = payloads
        return self._payloads

    async def sync_global(self) -> None:
        tree = self.bot.tree
        common = [c.name for c in tree.get_commands() if c.name not in system_groups()]
        await self.bot.http.bulk_upsert_global_commands(self._application_id(), payload=await self._payload(common))

    def _application_id(self) -> int:
        """The bot's application, known once it has logged in (commands are synced after)."""
        if self.bot.application_id is None:
            raise RuntimeError("the application id is known only once the bot has logged in")
        return self.bot.application_id

    async def systems_of(self, guild_id: int) -> set[str]:
        """The systems of the server's campaign, of the campaigns bound to its channels and
        categories, and of its running encounters."""
        bound = sa.select(place_table.c.campaign_key).where(place_table.c.guild_id == guild_id)
        campaigns = sa.select(campaign_table.c.system).where(
            sa.or_(campaign_table.c.guild_id == guild_id, campaign_table.c.guild_id.in_(bound))
        )
        encounters = sa.select(encounter_table.c.system).where(
            encounter_table.c.guild_id == guild_id, encounter_table.c.status == ACTIVE
        )
        if self.bot.engine is None:
            raise RuntimeError("the database is not open yet: open_database() first")
        async with self.bot.engine.connect() as conn:  # one round trip
            return set((await conn.execute(sa.union(campaigns, encounters))).scalars())

    async def refresh(self, guild_id: int) -> None:
        """Offer the server exactly the groups of the systems it plays now."""
        await self._set(guild_id, groups_for(await self.systems_of(guild_id)))

    async def refresh_soon(self, guild_id: int, within: float = 1.0) -> None:
        """``refresh``, waited for up to ``within`` seconds (the interaction must be answered
        within 3); a slower sync (Discord rate-limits them) finishes in the background."""
        task = asyncio.ensure_future(self.refresh(guild_id))
        done, _ = await asyncio.wait({task}, timeout=within)
        if not done:
            task.add_done_callback(lambda t: t.cancelled() or t.exception())
            return
        try:
            task.result()
        except discord.HTTPException as error:
            # Discord's refusal (a server invited without applications.commands) is no fault of the bot's.
            log.warning("could not sync the command set of server %s (%s)", guild_id, error)

    async def ensure(self, guild_id: int, system: str) -> None:
        """Offer the server ``system``'s groups too (an encounter of it started there)."""
        wanted = groups_for([system])
        if wanted <= self.synced.get(guild_id, frozenset()):
            return
        await self.refresh(guild_id)

    async def _set(self, guild_id: int, wanted: frozenset[str], *, known_empty: bool = False) -> None:
        lock = self._locks.setdefault(guild_id, asyncio.Lock())
        async with lock:
            current = self.synced.get(guild_id)
            if current == wanted or (current is None and known_empty and not wanted):
                return
            await self.bot.http.bulk_upsert_guild_commands(
                self._application_id(), guild_id, payload=await self._payload(wanted)
            )
            self.synced[guild_id] = wanted

    def start(self) -> None:
        """After start-up, in the background: each server's groups."""
        self._task = asyncio.create_task(self._sync_all(), name="command-sets")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _sync_all(self) -> None:
        await self.bot.wait_until_ready()
        for guild in list(self.bot.guilds):
            try:
                wanted = groups_for(await self.systems_of(guild.id))
                # A server without system groups had none offered before either: no request.
                await self._set(guild.id, wanted, known_empty=True)
            except discord.HTTPException as error:
                log.warning("could not sync the command set of server %s (%s)", guild.id, error)
            except sa.exc.SQLAlchemyError:
                log.warning("could not sync the command set of server %s", guild.id, exc_info=True)
