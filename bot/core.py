"""The async facade over the rules: one channel at a time, nothing lost.

Every command on an encounter runs lock → load → apply → save → events. The
per-channel lock orders commands inside one process; the encounter's version
column orders them across processes (a stale save raises VersionConflict and
the command is re-run on the fresh state). State and event are saved in one
transaction, so an acknowledged command is never half-applied.

Nothing here touches Discord: cogs call it and render what it returns.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol, cast

import discord

from rules import carry, registry
from rules.actions import Action, Anytime, Choose, NextTurn
from rules.commands import check_start, check_undo
from rules.engine import acting_for, apply
from rules.errors import InvalidInput, NotRunning, RulesError, Stale
from rules.model import Actor, Combatant, Encounter, Event, Outcome
from rules.rng import seed_from
from rules.said import N_, cut, joined, say, say_plural, seq
from rules.system import System
from rules.text import Text, english, has_secrets
from rules.usertext import listed, mark

from .between import SYSTEM_STATE, Between
from .campaigns import Campaigns
from .checks import Checks
from .db import StoredJSON
from .kept import KeptEncounters
from .keyed_locks import KeyedLocks
from .library import Library
from .places import Places
from .render import hiding_entered, log_cell, words
from .repository import (
    CampaignRecord,
    EncounterExists,
    EncounterRecord,
    NewChange,
    NewEvent,
    Repository,
    VersionConflict,
)
from .roster import Roster
from .seeds import generator_seed
from .setting_values import DEFAULT_CHOICE_SECONDS
from .stages import STAGE_CLOCK, clock
from .turn_posts import waited_on

Build = Callable[[System, Encounter], Action]

MAX_RETRIES = 50
UNDO = "/encounter undo"
START = "/encounter start"
MAX_REMINDERS = 3
CACHE_SIZE = 4096
ENDED_ENCOUNTER = N_("That button belongs to an encounter that is over.")
NO_ENCOUNTER_YET = N_("This channel has had no encounter yet: the GM starts one with /encounter start.")

# Campaign settings every system shares; systems add their own (rules Option).
DEFAULT_SETTINGS: dict[str, Any] = {
    "reminder_minutes": 10,  # idle-turn reminder interval; 0 turns reminders off
    "choice_timeout_seconds": DEFAULT_CHOICE_SECONDS,  # a pending choice takes its default after this
}


def utcnow() -> datetime:
    return datetime.now(UTC)


def turn_open(state: Encounter) -> bool:
    # Undone to before round 1 (tied players choosing the order again), the turn is nobody's: nothing to ping.
    return state.status == "running" and state.round > 0


def posts_turn(before: Encounter | None, state: Encounter, undone: bool) -> bool:
    """Whether a change from ``before`` to ``state`` shows the turn's message, which pings its players."""
    if not turn_open(state):
        return False
    if undone:
        # An undo shows what is open again: the question it reopened, which holds up every move (the turn
        # follows its answer), else the turn, also when only the question in front of it went.
        return state.pending is None and (_turn_moved(before, state) or _question_closed(before, state))
    return _turn_moved(before, state)


def _turn_moved(before: Encounter | None, state: Encounter) -> bool:
    return before is None or before.turn_no != state.turn_no


def _question_closed(before: Encounter | None, state: Encounter) -> bool:
    """The question open before is no longer asked (answered, replaced, or undone)."""
    return before is not None and before.pending is not None and before.pending != state.pending


def posts_choice(before: Encounter | None, state: Encounter) -> bool:
    """Whether a change from ``before`` to ``state`` asks a new question, whose message carries its buttons."""
    return state.pending is not None and (before is None or before.pending != state.pending)


TURN = "turn"
CHOICE = "choice"


def unannounced(version: int, before: Encounter, state: Encounter, undone: bool = False) -> str | None:
    """What the change saved as ``version`` has to post, as ``announce_due`` keeps it ("12:turn+choice"), or
    None. Written with the change itself, and taken off once posted, so a process killed in between leaves
    it for the next to post (``bot.reminders``)."""
    due = {TURN: posts_turn(before, state, undone), CHOICE: posts_choice(before, state)}
    kinds = [kind for kind, posts in due.items() if posts]
    return f"{version}:{'+'.join(kinds)}" if kinds else None


def announce_meta(version: int, before: Encounter, state: Encounter, undone: bool = False) -> dict[str, Any]:
    """The ``announce_due`` a change writes: what it has to post; an ending fight posts nothing more."""
    due = unannounced(version, before, state, undone)
    if due is None and state.status == "ended":
        return {"announce_due": None}
    return {} if due is None else {"announce_due": due}


def campaign_of(record: EncounterRecord) -> int:
    """The key of the campaign an encounter belongs to."""
    return record.campaign_key if record.campaign_key is not None else record.guild_id


@dataclass(frozen=True, slots=True)
class Result:
    """What a command did: the new state and what the channel should see."""

    encounter_id: int
    version: int
    before: Encounter | None
    state: Encounter
    events: tuple[Event, ...]
    summary: Text
    record: EncounterRecord | None = None
    undone: bool = False  # /encounter undo restored `state`
    announce: str | None = None  # the `announce_due` it wrote: what it has to post

    @property
    def turn_changed(self) -> bool:
        return _turn_moved(self.before, self.state)

    @property
    def pending_closed(self) -> bool:
        return _question_closed(self.before, self.state)


def _hidden_took_part(before: Encounter, action: Action, outcome: Outcome) -> bool:
    """Whether a hidden combatant acted, was a target or joined; or the result hides a number, which the
    values entered may tell too (a choice answered for a hidden NPC, a round that rolled for one)."""
    if not any(c.hidden for c in before.combatants) and not any(c.hidden for c in outcome.state.combatants):
        return False  # nobody in the fight is hidden: the common case, decided without walking any text
    present = {c.id for c in before.combatants}
    taking_part = [*_named(before, action), *(c for c in outcome.state.combatants if c.id not in present)]
    # An action that may also come off turn (a Rotted Capes attack) is the sender's acting combatant's when it
    # names no actor; bookkeeping, a GM tool and ending a turn act for nobody.
    for_turn = action.on_turn or not (action.gm_only or isinstance(action, (Anytime, NextTurn)))
    if action.actor is None and for_turn:
        taking_part += [before.get(cid) for cid in acting_for(registry.get(before.system), before, action.by)[:1]]
    return any(c.hidden for c in taking_part) or any(has_secrets(event.said) for event in outcome.events)


def _named(state: Encounter, action: Action) -> list[Combatant]:
    """The combatants the action names as actor and targets (`/act target:door` names none)."""
    targets = getattr(action, "targets", ())
    names = [action.actor, getattr(action, "target", None), *([targets] if isinstance(targets, str) else targets)]
    found = (state.maybe(name) for name in names if isinstance(name, str))
    return [combatant for combatant in found if combatant is not None]


class Moved(Exception):
    """The encounter changed since the caller read it (``Core.act``'s ``version``)."""


class Core:
    def __init__(self, repo: Repository, *, now=utcnow, seed: int | None = None, cache_size: int = CACHE_SIZE) -> None:
        self.repo = repo
        self.now = now
        # A fixed seed makes every encounter replay the same (the sandbox uses it).
        self.seed = seed
        # A campaign's changes one at a time, each reading what it changes inside: rests, adjustments,
        # checks, set-up and a fight's end (all a campaign's channels are in its server, so one process
        # serves them all).
        self.campaign_lock = KeyedLocks()
        self.between = Between(repo, self.campaign_lock, seed=seed)
        self.checks = Checks(self.between)
        self.places = Places(repo)
        self.library = Library(repo)
        self.roster = Roster(repo, self.campaign_lock)
        # Read through self: whoever sets `now` later (a test's clock) sets the previews' clock too.
        self.campaigns = Campaigns(repo, self.places, self.campaign_lock, now=lambda: self.now())
        self.lock = KeyedLocks()  # a channel's commands one at a time
        self._latest = KeptEncounters(cache_size)

    # --- campaigns ---------------------------------------------------------
    async def campaign(self, guild_id: int) -> CampaignRecord | None:
        return await self.repo.get_campaign(guild_id)

    async def settings(self, guild_id: int) -> tuple[str | None, dict[str, Any]]:
        campaign = await self.repo.get_campaign(guild_id)
        if campaign is None:
            return None, dict(DEFAULT_SETTINGS)
        return campaign.system, DEFAULT_SETTINGS | campaign.settings

    # --- loading -------------------------------------------------------------
    def _load(self, record: EncounterRecord) -> Encounter:
        return registry.get(record.system).load(record.state)

    def _saved(self, channel_id: int, record: EncounterRecord | None, state: Encounter | None = None) -> None:
        """What the channel's encounter is now, as this process wrote it (None: no encounter),
        and its state parsed, when the caller has it."""
        self._latest.keep(channel_id, record, state)

    async def newest(
        self, channel_id: int, encounter_id: int, version: int, saved: Encounter | None = None
    ) -> tuple[EncounterRecord, Encounter] | None:
        """The encounter as this process saved it last, if that is at least ``version``, else as
        stored (None: it is gone). ``saved``: the state saved at ``version``, if the caller holds it;
        a version is saved once, so while it is still the newest its text need not be parsed again."""
        record = self._latest.record(channel_id)
        if record is not None and record.id == encounter_id and record.version >= version:
            if saved is not None and record.version == version:
                return record, saved
            return record, self._latest.state(channel_id, record, self._load)
        read = await self.repo.get_encounter(encounter_id)
        if read is None:
            return None
        return read, saved if saved is not None and read.version == version else self._load(read)

    async def _acting_on(self, channel_id: int) -> tuple[EncounterRecord, Encounter]:
        record = self._latest.record(channel_id)
        if record is None:
            return await self.current(channel_id)
        return record, self._latest.state(channel_id, record, self._load)

    async def current(self, channel_id: int) -> tuple[EncounterRecord, Encounter]:
        record = await self.repo.active_encounter(channel_id)
        if record is None:
            raise NotRunning(say("There is no encounter in this channel: the GM starts one with /encounter start."))
        return record, self._load(record)

    async def channel_gm(self, channel_id: int) -> int | None:
        """The GM of the channel's running encounter, else of its last one; None before its first."""
        record = await self.repo.active_encounter(channel_id)
        if record is None:
            ids = await self.repo.channel_encounter_ids(channel_id)
            record = await self.repo.get_encounter(ids[-1]) if ids else None
        return None if record is None else self._load(record).gm_id

    async def system_here(self, channel_id: int, campaign_key: int) -> str | None:
        """The system a channel plays: its running encounter's, else its campaign's (None: not set up)."""
        record = await self.repo.active_encounter(channel_id)
        if record is not None:
            return record.system
        campaign_system, _ = await self.settings(campaign_key)
        return campaign_system

    async def fighting_for(self, channel_id: int, key: int) -> int:
        """The campaign whose characters and NPCs join the channel's running fight: the one it began in,
        though the channel was bound to another since (its end saves them there); else `key`."""
        record = await self.repo.active_encounter(channel_id)
        return key if record is None else campaign_of(record)

    async def peek(self, channel_id: int) -> tuple[EncounterRecord, Encounter] | None:
        record = await self.repo.active_encounter(channel_id)
        return None if record is None else (record, self._load(record))

    # --- starting ------------------------------------------------------------
    async def start(
        self,
        guild_id: int,
        channel_id: int,
        by: Actor,
        *,
        system: str | None = None,
        seed: int | None = None,
        campaign: int | None = None,
    ) -> Result:
        """``campaign``: the key of the campaign the channel belongs to (default: the server's)."""
        key_of_campaign = guild_id if campaign is None else campaign
        # An import checks that no fight of the campaign runs and replaces it under the campaign's lock:
        # a fight begins before it (and refuses it) or after it, on the campaign as imported. The channel's
        # lock is taken first, as a fight's end takes them.
        async with self.lock(channel_id), self.campaign_lock(key_of_campaign):
            record, state, rules_system = await self._begin(guild_id, channel_id, by, system, seed, key_of_campaign)
        event = Event(
            kind="info",
            text=say(
                "A {system} encounter begins. Add combatants with /initiative join and /initiative add; "
                "the GM starts round 1 with /initiative next.",
                system=rules_system.name,
            ),
        )
        self._saved(channel_id, replace(record, state=StoredJSON(state.model_dump_json())), state)
        return Result(record.id, record.version, None, state, (event,), event.said, record)

    async def _begin(
        self, guild_id: int, channel_id: int, by: Actor, system: str | None, seed: int | None, key_of_campaign: int
    ) -> tuple[EncounterRecord, Encounter, System]:
        """The channel's new encounter, stored, with the campaign's settings and state as they are now."""
        campaign_record = await self.repo.get_campaign(key_of_campaign)
        campaign_system, settings = await self.settings(key_of_campaign)
        key = check_start(by, system or campaign_system)
        rules_system = registry.get(key)
        start = generator_seed(self.seed, channel_id) if seed is None else seed_from(seed)
        options = {k: v for k, v in settings.items() if k in rules_system.options or k in DEFAULT_SETTINGS}
        state = rules_system.new_encounter(by.user_id, start, options)
        if campaign_record is not None and campaign_record.system == key:
            # Campaign-level state, e.g. the Editor-in-Chief's pool, carries into the fight.
            state = rules_system.campaign_in(state, dict(campaign_record.state.get(SYSTEM_STATE) or {}))
        bound = None if key_of_campaign == guild_id else key_of_campaign
        try:
            record = await self.repo.create_encounter(
                guild_id, channel_id, key, state.model_dump(mode="json"), campaign_key=bound
            )
        except EncounterExists:
            raise InvalidInput(say("This channel already has an encounter: /encounter end it first.")) from None
        return record, state, rules_system

    # --- acting --------------------------------------------------------------
    async def act(
        self,
        channel_id: int,
        action: Action | Build,
        command: Text | str,
        *,
        encounter_id: int | None = None,
        by_name: str | None = None,
        version: int | None = None,
    ) -> Result:
        """Apply an action (or build one from the channel's system and state).

        `encounter_id`: the encounter a button was made for; any other is refused.
        `version`: the version the caller read the encounter at; if it changed since, Moved is raised.
        `by_name`: the sender's display name, for the campaign log if the action ends the fight."""
        stages = STAGE_CLOCK
        started = clock()
        async with self.lock(channel_id):
            started = stages.add("lock", started)
            for _ in range(MAX_RETRIES):
                remembered = channel_id in self._latest
                try:
                    record, state = await self._acting_on(channel_id)
                    started = stages.add("load", started)
                except NotRunning:
                    if encounter_id is None:
                        raise
                    raise Stale(ENDED_ENCOUNTER) from None
                if encounter_id is not None and record.id != encounter_id:
                    if remembered:  # this process's copy may be older than the button
                        self._latest.forget(channel_id)
                        continue
                    raise Stale(ENDED_ENCOUNTER)
                if version is not None and record.version != version:
                    if remembered and record.version < version:  # this process's copy is older than the caller's
                        self._latest.forget(channel_id)
                        continue
                    raise Moved(record.id)
                try:
                    todo = action if isinstance(action, Action) else action(registry.get(record.system), state)
                    outcome = apply(state, todo)
                except RulesError:
                    if not remembered:
                        raise
                    self._latest.forget(channel_id)  # a refusal must hold against the stored state
                    continue
                started = stages.add("apply", started)
                new_state = outcome.state
                data = StoredJSON(new_state.model_dump_json())
                meta = self._timers(record, state, new_state, todo.by.user_id)
                meta |= announce_meta(record.version + 1, state, new_state)
                status = "ended" if new_state.status == "ended" else None
                logged = hiding_entered(command) if _hidden_took_part(state, todo, outcome) else command
                event = NewEvent(todo.by.user_id, logged, outcome.summary, record.state)
                ending = status is not None and state.status != "ended"
                # A fight's end writes what its characters and campaign carry on, read under the campaign's lock.
                guard = self.campaign_lock(campaign_of(record)) if ending else contextlib.nullcontext()
                async with guard:
                    lasting, change, campaign_state = (None, None, None)
                    if ending:
                        lasting, change, campaign_state = await self._lasting(record, new_state, todo.by, by_name)
                    try:
                        version = await self.repo.commit(
                            record.id,
                            record.version,
                            state=data,
                            events=[event],
                            status=status,
                            meta=meta,
                            lasting=lasting,
                            change=change,
                            campaign_state=campaign_state,
                        )
                    except VersionConflict:
                        self._latest.forget(channel_id)
                        continue
                stages.add("save", started)
                if status == "ended":
                    self._saved(channel_id, None)
                else:
                    self._saved(channel_id, replace(record, state=data, version=version), new_state)
                return Result(
                    record.id,
                    version,
                    state,
                    new_state,
                    outcome.events,
                    outcome.summary,
                    record,
                    announce=meta.get("announce_due"),
                )
        raise InvalidInput(say("The channel is very busy: please try again."))

    async def _lasting(self, record: EncounterRecord, state: Encounter, by: Actor, by_name: str | None = None):
        """What an ending fight hands to its campaign, saved in the same transaction as the end:
        each stored character's lasting state, and the system's campaign-level state.

        Only combatants tied to a stored character count: NPCs the GM added are
        forgotten unless added with keep:true (which stores them as the GM's characters)."""
        system = registry.get(record.system)
        key = campaign_of(record)
        fought = {c.character_id: c for c in state.combatants if c.character_id is not None}
        stored = [
            r for r in await self.repo.characters_by_ids(fought) if r.system == record.system and r.guild_id == key
        ]
        joined, begun = await self._as_joined(record, system, {r.id for r in stored})
        # Keys the fight does not own (attribute losses, a hiatus count), and those it left as it found
        # them (a rest or an adjustment made meanwhile), stay as stored. The sheet may have been edited
        # since the character joined: what is written fits the sheet as stored now.
        lasting = {
            r.id: system.fit_lasting(
                r.sheet,
                carry.after(r.lasting, joined.get(r.id), system.lasting(state, fought[r.id])),
                r.npc,
            )
            for r in stored
        }
        ended_with = system.campaign_out(state)
        campaign = await self.repo.get_campaign(key) if ended_with else None
        campaign_state = None
        if campaign is not None and campaign.system == record.system:
            own = dict(campaign.state.get(SYSTEM_STATE) or {})
            began_with = system.campaign_out(begun) if begun is not None else None
            campaign_state = campaign.state | {SYSTEM_STATE: own | carry.handed_back(own, began_with, ended_with)}
        if not lasting and campaign_state is None:
            return None, None, None
        names = listed(mark(r.name) for r in stored) or say("no stored characters")
        change = NewChange(
            key,
            by.user_id,
            seq("/encounter end ", say("(encounter #{id})", id=record.id)),
            say("Saved from the fight: {names}", names=names),
            {
                "characters": {str(r.id): r.lasting for r in stored},
                "campaign": campaign.state if campaign is not None and campaign_state is not None else None,
            },
            by_name,
        )
        return lasting, change, campaign_state

    async def _as_joined(
        self, record: EncounterRecord, system: System, ids: set[int]
    ) -> tuple[dict[int, dict[str, Any]], Encounter | None]:
        """Each stored character's lasting state as it joined the fight (by character id), and the fight
        as it began: read from the states its log kept, the newest being the one before this command."""
        kept: list[Any] = [e.state_before for e in await self.repo.events(record.id)] + [record.state]
        states = [json.loads(data) if isinstance(data, str) else data for data in kept]
        joined: dict[int, dict[str, Any]] = {}
        for data in states:
            new = {c.get("character_id") for c in data.get("combatants", ())} & ids - joined.keys()
            if new:
                fight = system.load(data)
                joined |= {
                    c.character_id: system.lasting(fight, c)
                    for c in fight.combatants
                    if c.character_id is not None and c.character_id in new
                }
        return joined, system.load(states[0])

    def _timers(
        self, record: EncounterRecord, before: Encounter, after: Encounter, by: int | None = None
    ) -> dict[str, Any]:
        """Reminder and choice deadlines that follow from a state change (``by``: who made it)."""
        meta: dict[str, Any] = {}
        now = self.now()
        if after.status != "running":
            return {"reminder_due": None, "reminders_sent": 0, "pending_deadline": None}
        minutes = after.options.get("reminder_minutes", DEFAULT_SETTINGS["reminder_minutes"])
        if after.turn_no != before.turn_no:
            meta["reminder_due"] = now + timedelta(minutes=minutes) if minutes else None
            meta["reminders_sent"] = 0
        elif minutes and (
            posts_choice(before, after) or (by is not None and by in waited_on(registry.get(before.system), before))
        ):
            # Only an idle wait is reminded: whoever the fight waited on has just acted, or was just asked.
            # (A turn's reminders all sent, ``Reminders.remind`` sends no more.)
            meta["reminder_due"] = now + timedelta(minutes=minutes)
        if after.pending != before.pending:
            seconds = after.options.get("choice_timeout_seconds", DEFAULT_SETTINGS["choice_timeout_seconds"])
            meta["pending_deadline"] = now + timedelta(seconds=seconds) if after.pending and seconds else None
        return meta

    async def answer_default(self, record: EncounterRecord) -> Result | None:
        """A pending choice whose time ran out takes its default."""
        state = self._load(record)
        pending = state.pending
        if pending is None:
            await self.repo.set_meta(
                record.id, pending_deadline=None, still={"pending_deadline": record.pending_deadline}
            )
            return None
        action = Choose(
            by=Actor(user_id=state.gm_id, is_gm=True), pending_id=pending.id, option=pending.default, timed_out=True
        )
        try:
            return await self.act(record.channel_id, action, "(choice timed out)", version=record.version)
        except Moved:
            # Changed since the deadline was read: an undo may have asked the question again, with a deadline
            # of its own. The next pass reads it anew.
            return None
        except RulesError:  # answered meanwhile: a newer question keeps its own deadline
            await self.repo.set_meta(
                record.id, pending_deadline=None, still={"pending_deadline": record.pending_deadline}
            )
            return None

    # --- undo and log ----------------------------------------------------------
    async def undo(self, channel_id: int, by: Actor, count: int) -> Result:
        count = check_undo(by, count)
        async with self.lock(channel_id):
            for _ in range(MAX_RETRIES):
                record, current = await self.current(channel_id)
                recent = await self.repo.last_events(record.id, count + 200)
                undoable = [e for e in recent if english(e.command) not in (UNDO, START)][:count]
                if not undoable:
                    raise InvalidInput(say("There is nothing to undo."))
                target = undoable[-1]
                system = registry.get(record.system)
                restored = system.load(target.state_before)
                commands = joined("; ", [e.command for e in reversed(undoable)])
                summary = say_plural(
                    "Undid {n} action: {commands}",
                    "Undid {n} actions: {commands}",
                    len(undoable),
                    n=len(undoable),
                    commands=commands,
                )
                event = NewEvent(by.user_id, UNDO, cut(summary, 200), record.state)
                meta = self._timers(record, current, restored) | announce_meta(
                    record.version + 1, current, restored, undone=True
                )
                try:
                    version = await self.repo.commit(
                        record.id,
                        record.version,
                        state=target.state_before,
                        events=[event],
                        undo_seqs=[e.seq for e in undoable],
                        meta=meta,
                    )
                except VersionConflict:
                    continue
                self._saved(channel_id, None)  # re-read next time: undo may revive an ended encounter
                return Result(
                    record.id,
                    version,
                    current,
                    restored,
                    (Event(kind="info", text=summary),),
                    summary,
                    record,
                    undone=True,
                    announce=meta.get("announce_due"),
                )
        raise InvalidInput(say("The channel is very busy: please try again."))

    async def trial(self, channel_id: int, action: Action) -> EncounterRecord:
        """Would the rules take this action now? Raises their refusal; saves nothing.
        For commands that ask the user to confirm before they act."""
        record, state = await self.current(channel_id)
        apply(state, action)
        return record

    async def logged_encounter(self, channel_id: int, number: int | None = None) -> tuple[int, EncounterRecord]:
        """The channel's `number`th encounter (1 = its first); by default the running
        one, else the last that ended. Returns (number, record)."""
        ids = await self.repo.channel_encounter_ids(channel_id)
        if not ids:
            raise NotRunning(NO_ENCOUNTER_YET)
        if number is None:
            active = await self.repo.active_encounter(channel_id)
            number = ids.index(active.id) + 1 if active is not None else len(ids)
        if not 1 <= number <= len(ids):
            raise InvalidInput(
                say_plural(
                    "This channel has had {n} encounter: choose a number from 1 to {n}.",
                    "This channel has had {n} encounters: choose a number from 1 to {n}.",
                    len(ids),
                    n=len(ids),
                )
            )
        record = await self.repo.get_encounter(ids[number - 1])
        if record is None:  # gone since its id was read
            raise NotRunning(NO_ENCOUNTER_YET)
        return number, record

    async def log_markdown(
        self, channel_id: int, number: int | None = None, who: dict[int, str] | None = None
    ) -> tuple[str, str, str | None]:
        """The encounter's log as a Markdown table, its file name, and the same table with a hidden NPC's
        numbers shown, for the GM (None when nothing was hidden); `who`: readable names for user ids."""
        number, record = await self.logged_encounter(channel_id, number)
        state = self._load(record)
        events = await self.repo.events(record.id, states=False)
        system = registry.get(record.system)
        who = who or {}
        title = say(
            "{system} encounter {number} of this channel (#{id}, {status})",
            system=system.name,
            number=number,
            id=record.id,
            status=say(record.status),
        )
        started = say_plural(
            "Started {when} UTC · round {round} · {n} combatant",
            "Started {when} UTC · round {round} · {n} combatants",
            len(state.combatants),
            when=f"{record.created_at:%Y-%m-%d %H:%M}",
            round=state.round,
            n=len(state.combatants),
        )
        head = " | ".join(words(cell) for cell in (N_("when (UTC)"), N_("who"), N_("command"), N_("what happened")))

        def table(gm: bool) -> str:
            lines = [f"# {words(title)}", "", words(started), "", f"| # | {head} |", "|---|---|---|---|---|"]
            for event in events:
                mark = "~~" if event.undone else ""
                name = who.get(event.user_id)
                person = log_cell(name, typed=True) if name else log_cell(say("user {id}", id=event.user_id))
                command = log_cell(event.command, command=True, gm=gm)
                summary = log_cell(event.summary, gm=gm)
                when = f"{event.created_at:%H:%M:%S}"
                lines.append(f"| {event.seq} | {when} | {person} | {mark}{command}{mark} | {mark}{summary}{mark} |")
            if any(e.undone for e in events):
                lines += ["", words("Struck-through lines were undone.")]
            return "\n".join(lines) + "\n"

        hidden = any(has_secrets(e.summary) or has_secrets(e.command) for e in events)
        return f"encounter-{record.id}-log.md", table(gm=False), table(gm=True) if hidden else None

    async def log_users(self, channel_id: int, number: int | None = None) -> list[int]:
        """Who issued the logged encounter's commands (for readable names in the log)."""
        _, record = await self.logged_encounter(channel_id, number)
        return list(dict.fromkeys(e.user_id for e in await self.repo.events(record.id, states=False)))

    # --- reminders ---------------------------------------------------------------
    async def due(self, shards: tuple[int, Collection[int]] | None = None) -> list[EncounterRecord]:
        return await self.repo.due_encounters(self.now(), shards=shards)

    async def reminder_sent(self, record: EncounterRecord) -> None:
        state = self._load(record)
        sent = record.reminders_sent + 1
        minutes = state.options.get("reminder_minutes", DEFAULT_SETTINGS["reminder_minutes"])
        due = self.now() + timedelta(minutes=minutes) if sent < MAX_REMINDERS and minutes else None
        await self.repo.set_meta(
            record.id, reminders_sent=sent, reminder_due=due, still={"reminder_due": record.reminder_due}
        )


class Served(Protocol):
    """The bot as a click, a form or a private roll reaches it: by its core. (The bot's own class imports
    the modules that answer those, so they name this instead of it.)"""

    core: Core


def core_of(interaction: discord.Interaction) -> Core:
    """The core of the bot an interaction reached."""
    return cast(Served, interaction.client).core
