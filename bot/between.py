"""Between fights: rests, GM adjustments, their log and undo.

A stored character's lasting state (``System.lasting``) is written when an encounter
ends and read when the character joins the next one. Here the GM changes it outside
a fight. Every change is one transaction together with its log entry, which keeps
what it replaced so ``/campaign undo`` can put it back.

Nothing here touches Discord.
"""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.commands import flags
from rules.dice import parse_entered
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.randomness import Chance
from rules.said import EMPTY, N_, cut, english, joined_lines, say, say_plural, seq, term
from rules.secrets import secret
from rules.system import Resting, System
from rules.text import Secret, Text, Typed, walk
from rules.usertext import listed, mark, quoted

from .keyed_locks import KeyedLocks
from .repository import CampaignRecord, CharacterRecord, NewChange, Repository
from .seeds import generator_seed

UNDO = "/campaign undo"
# What the GM did between fights and checks that changed what a character carries are undone here;
# a fight's end is undone with /encounter undo.
UNDOABLE = ("/campaign rest", "/campaign adjust", "/check")
IMPORT = "/campaign import"
MAX_VALUE_CHARS = 200
SYSTEM_STATE = "rules"  # where the campaign state keeps the system's part (e.g. the Editor-in-Chief's pool)
# The cards a system's checks flip from (99 Towers), kept in its part. They go on as the dice do: put back
# by an undo, the deck would deal the undone flip's cards again, the cards to come shown to the table.
DECK = "deck"
GOES_ON = ((SYSTEM_STATE, DECK),)
OTHER_SYSTEM = N_("That character belongs to another rule system than this campaign's.")


def describe(system: System, record: CharacterRecord, campaign: CampaignRecord | None) -> list[Text]:
    """What a stored character carries between fights, one line per topic; the campaign's settings fill in
    what the next fight would start it with where nothing is stored (those of its system only: a character
    of a former system reads its own system's defaults)."""
    settings = campaign.settings if campaign is not None and campaign.system == record.system else {}
    lines = system.lasting_lines(record.sheet, dict(record.lasting), record.npc, settings)
    return lines or [say("Nothing carried over: it stands as its sheet says.")]


def resting_of(record: CharacterRecord) -> Resting:
    """A stored character as the rules read it between fights (an NPC a GM kept is no hero)."""
    return Resting(
        name=record.name,
        owner_id=record.owner_id,
        sheet=record.sheet,
        lasting=dict(record.lasting),
        character_id=record.id,
        npc=record.npc,
    )


def of_this_system(system: System, *records: CharacterRecord | None) -> None:
    """Refuse a character stored before /campaign setup switched the campaign to another system:
    its sheet and lasting state are its own system's, which this one cannot read."""
    if any(record is not None and record.system != system.key for record in records):
        raise InvalidInput(say(OTHER_SYSTEM))


def rest_options(system: System, kind: str, text: str | None) -> dict[str, Any]:
    """The GM's answers to a rest's options: `medic="Nova, Max" unfed` → {"medic": "Nova, Max", "unfed": True}."""
    given = flags(text)
    rest = system.rest_kind(kind)
    known = {o.key: o for o in rest.options}
    for key in given:
        if key not in known:
            names = ", ".join(f"`{k}`" for k in known) or say("none")
            raise InvalidInput(
                say(
                    "{rest} has no option {option} (options: {names}).",
                    rest=term(rest.label),
                    option=quoted(key),
                    names=names,
                )
            )
    return given


class Between:
    def __init__(self, repo: Repository, lock: KeyedLocks, *, seed: int | None = None) -> None:
        self.repo = repo
        self.lock = lock  # by campaign: each change reads, under it, the state it writes whole
        self.seed = seed  # fixed in the sandbox and tests: rests replay the same

    async def _campaign(self, key: int):
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput(say("This campaign is not set up yet: the GM runs /campaign setup first."))
        return campaign, registry.get(campaign.system)

    def _rng(self, key: int, state: dict[str, Any]) -> int:
        if "rng" in state:
            return int(state["rng"])
        return generator_seed(self.seed, key)

    async def report(self, key: int, name: str) -> Text | None:
        """A read-only command's answer between fights (`/plotpoint show`); None where it needs a fight."""
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            return None
        system = registry.get(campaign.system)
        # Characters of the campaign's former system are left out, as they are of its rests.
        records = [r for r in await self.repo.list_characters(key, limit=1000) if r.system == system.key]
        part = (campaign.state or {}).get(SYSTEM_STATE) or {}
        return system.report_between(name, [resting_of(r) for r in records], part, campaign.settings)

    async def rest(
        self,
        key: int,
        by: Actor,
        kind: str,
        *,
        character: CharacterRecord | None = None,
        dice: str | None = None,
        options: str | None = None,
        by_name: str | None = None,
    ) -> tuple[Text, list[Text], list[Text]]:
        """Apply one kind of rest to every stored character (or one); returns its label, the
        lines everyone may read and the lines about the GM's kept NPCs."""
        if not by.is_gm:
            raise NotAllowed(say("Only the GM decides when the characters rest."))
        async with self.lock(key):
            return await self._rest(key, by, kind, character, dice, options, by_name)

    async def _rest(
        self,
        key: int,
        by: Actor,
        kind: str,
        character: CharacterRecord | None,
        dice: str | None,
        options: str | None,
        by_name: str | None,
    ) -> tuple[Text, list[Text], list[Text]]:
        campaign, system = await self._campaign(key)
        rest = system.rest_kind(kind)
        answers = rest_options(system, rest.key, options)
        if character is not None:
            records = [await self.again(key, character)]
            of_this_system(system, *records)
        else:
            # Characters of the campaign's former system sit this rest out, as they sit out its fights.
            records = [r for r in await self.repo.list_characters(key, limit=1000) if r.system == system.key]
        if not records:
            raise InvalidInput(say("There are no stored characters to rest."))
        entered = parse_entered(dice) if dice else ()
        state = dict(campaign.state)
        chance = Chance(self._rng(key, state), entered_dice=entered)
        # NPCs kept from fights are not heroes, and their numbers may be hidden from the players.
        kept = {r.id for r in records if r.npc}
        resting = tuple(resting_of(r) for r in records)
        outcome = system.rest(
            rest.key,
            resting,
            dict(state.get(SYSTEM_STATE) or {}),
            answers,
            chance,
            system.settings_for(campaign.settings),
        )
        chance.finish()  # entered dice the rest did not use: refused, nothing changed
        after = {r.id: system.fit_lasting(r.sheet, c.lasting, r.npc) for r, c in zip(records, outcome.characters)}
        lines = [e.said for e in outcome.events]
        # a kept NPC's lines are for the GM alone, in the log that anyone reads too
        names = {r.name for r in records if r.id in kept}
        private = [line for line in lines if any(isinstance(n, Typed) and n.text in names for n in walk(line))]
        logged = [Secret(line, True) if line in private else line for line in lines]
        label = term(rest.label)  # the rules' own word for the rest, said with the lines around it
        # A rest's first line names it (and says whether dice were entered): it heads the logged summary.
        head, told = (logged[0], logged[1:]) if logged else (seq(label, ":"), [])
        summary = seq(head, " ", joined_lines(told) if told else say("nothing changed"))
        new_state = state | {"rng": chance.rng_state, SYSTEM_STATE: dict(outcome.campaign)}
        # What an undo puts back: the characters and the rules' part of the campaign, not the dice or the
        # offers of checks rolled since (see Repository.undo_change).
        before = {
            "characters": {str(r.id): r.lasting for r in records},
            "campaign": None,
            "campaign_part": {SYSTEM_STATE: state.get(SYSTEM_STATE)},
        }
        target = seq(" character:", mark(character.name)) if character else EMPTY
        change = NewChange(key, by.user_id, seq("/campaign rest kind:", rest.key, target), summary, before, by_name)
        await self.repo.save_lasting(after, change, new_state)
        public = [line for line in lines if line not in private]
        if private and len(public) == 1:
            # only NPCs the GM kept rested: the channel hears that, not a heading with nothing under it
            public.append(say("Only NPCs the GM kept rested: what changed is the GM's to read."))
        return label, public, private

    async def adjust(
        self, key: int, by: Actor, record: CharacterRecord, what: str, value: str, by_name: str | None = None
    ) -> Text:
        if not by.is_gm:
            raise NotAllowed(say("Only the GM adjusts what a character carries between fights."))
        async with self.lock(key):
            return await self._adjust(key, by, await self.again(key, record), what, value, by_name)

    async def _still_stands(self, key: int, command: Text | str, written: dict[str, Any] | None) -> None:
        """Refuse to undo a change when what it wrote was changed since (a fight's end, another check):
        putting back what it replaced would silently lose that."""
        if not written:
            return  # logged before changes kept what they wrote
        ids = [int(i) for i in written.get("characters") or {}]
        now = {r.id: r for r in await self.repo.characters_by_ids(ids)}
        moved: list[Text] = [
            mark(now[i].name) for i in ids if i in now and now[i].lasting != written["characters"][str(i)]
        ]
        gone = sum(1 for i in ids if i not in now)  # removed, or replaced by an import
        if gone:
            moved.append(say_plural("{n} character no longer stored", "{n} characters no longer stored", gone, n=gone))
        campaign = written.get("campaign")
        if campaign is not None:
            current = await self.repo.get_campaign(key)
            if current is not None and rules_part(current.state) != rules_part(campaign):
                moved.append(say("the campaign's own state"))
        if moved:
            raise InvalidInput(
                say(
                    "{command} cannot be undone: {what} changed since. Set what should change with /campaign adjust.",
                    command=command,
                    what=listed(moved),
                )
            )

    async def again(self, key: int, record: CharacterRecord) -> CharacterRecord:
        """The character as stored now (read under the campaign's lock)."""
        found = await self.repo.character_by_id(key, record.id)
        if found is None:
            raise InvalidInput(say("{name} is no longer stored.", name=mark(record.name)))
        return found

    async def _adjust(
        self, key: int, by: Actor, record: CharacterRecord, what: str, value: str, by_name: str | None
    ) -> Text:
        campaign, system = await self._campaign(key)
        of_this_system(system, record)
        if len(value) > MAX_VALUE_CHARS:
            raise InvalidInput(say("Values are limited to {n} characters.", n=MAX_VALUE_CHARS))
        what = " ".join(what.split())
        if what not in system.adjustable():
            known = ", ".join(f"`{k}`" for k in system.adjustable()) or say("none")
            raise InvalidInput(
                say(
                    "{system} keeps no lasting value {what} the GM sets (values: {known}).",
                    system=system.name,
                    what=quoted(what),
                    known=known,
                )
            )
        if what == system.side_key and not record.npc:
            # A player's character joins the players' side each time (`System.side_of`): only a kept NPC keeps one.
            raise InvalidInput(
                say(
                    "{name} is a player's character and always joins {side}: only an NPC the GM kept keeps {key}.",
                    name=mark(record.name),
                    side=quoted(system.player_side),
                    key=quoted(what),
                )
            )
        # Fitted as well as checked: more flaws lower the most Wounds, and the Wounds held come down with it. The
        # stored state is read as the bot reads it first: one stored before a check (more critical injuries than
        # Wounds) takes a change to another value rather than failing that check.
        current = system.fit_lasting(record.sheet, dict(record.lasting), record.npc)
        adjusted = system.adjust(record.sheet, current, what, value, record.npc)
        system.check_lasting(record.sheet, adjusted, record.npc)
        new = system.fit_lasting(record.sheet, adjusted, record.npc)
        if new == record.lasting:
            raise InvalidInput(say("That is what {name} already carries: nothing changed.", name=mark(record.name)))
        shown = cut(joined_lines(system.lasting_lines(record.sheet, new, record.npc, campaign.settings)), 300)
        # A kept NPC's numbers are the GM's: the log, which anyone reads, keeps them as secrets.
        value_said = secret(mark(value.strip()[:40]), record.npc)
        summary = say("{name}: {what} set to {value}", name=mark(record.name), what=what, value=value_said) + (
            seq(" (", secret(shown, record.npc), ")") if shown else EMPTY
        )
        change = NewChange(
            key,
            by.user_id,
            seq("/campaign adjust character:", mark(record.name), " ", what),
            summary,
            {"characters": {str(record.id): record.lasting}, "campaign": None},
            by_name,
        )
        await self.repo.save_lasting({record.id: new}, change)
        return summary

    async def undo(self, key: int, by: Actor, by_name: str | None = None) -> Text:
        if not by.is_gm:
            raise NotAllowed(say("Only the GM can undo between-fight changes."))
        async with self.lock(key):
            return await self._undo(key, by, by_name)

    async def _undo(self, key: int, by: Actor, by_name: str | None) -> Text:
        for change in await self.repo.changes(key, limit=200):
            if english(change.command).startswith(IMPORT):
                break  # what came before an import was replaced whole: nothing of it is left to take back
            # A check that changed nothing (most do) has nothing to take back.
            if change.undone or not english(change.command).startswith(UNDOABLE) or not change.before:
                continue
            await self._still_stands(key, change.command, change.before.get("after"))
            summary = cut(say("Undid {command}: {summary}", command=change.command, summary=change.summary), 500)
            log = NewChange(key, by.user_id, UNDO, summary, {}, by_name)
            if await self.repo.undo_change(change.id, log, _fit, GOES_ON):
                return summary
        raise InvalidInput(say("There is no rest, adjustment or check to undo."))


def rules_part(state: dict[str, Any]) -> dict[str, Any]:
    """The system's part of a campaign state that an undo puts back: all of it but the deck."""
    return {k: v for k, v in (state.get(SYSTEM_STATE) or {}).items() if k != DECK}


def _fit(system: str, sheet: dict[str, Any], lasting: dict[str, Any], npc: bool) -> dict[str, Any]:
    """What an undo puts back, fitted to the sheet as stored now (edited since, perhaps)."""
    return registry.get(system).fit_lasting(sheet, lasting, npc)
