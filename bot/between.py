"""Between fights: rests, GM adjustments, their log and undo.

A stored character's lasting state (``System.lasting``) is written when an encounter
ends and read when the character joins the next one. Here the GM changes it outside
a fight. Every change is one transaction together with its log entry, which keeps
what it replaced so ``/campaign undo`` can put it back.

Nothing here touches Discord.
"""

from __future__ import annotations

import json
import os
from typing import Any

from rules import registry
from rules.actions import AddCombatants
from rules.dice import parse_entered
from rules.errors import InvalidInput, NotAllowed
from rules.model import Actor
from rules.randomness import Chance
from rules.rng import seed_from
from rules.system import Resting, System

from .repository import CharacterRecord, NewChange, Repository

UNDO = "/campaign undo"
# Only what the GM did between fights is undone here; a fight's end is undone with /encounter undo.
UNDOABLE = ("/campaign rest", "/campaign adjust")
MAX_VALUE_CHARS = 200


def fresh_lasting(system: System, record: CharacterRecord) -> dict[str, Any]:
    """The lasting state of a character who has not fought yet: that of its fresh sheet."""
    enc = system.new_encounter(0, 0, {})
    by = Actor(user_id=record.owner_id, is_gm=True)
    action = AddCombatants(by=by, name=record.name, sheet=record.sheet, npc=False,
                           controller_id=record.owner_id, character_id=record.id)
    try:
        combatant = system.make_combatant(enc, action, "c0", record.name)
    except (ValueError, LookupError):
        return {}  # a sheet the system no longer reads: nothing to show until it fights
    return system.lasting(enc, combatant)


def lasting_of(system: System, record: CharacterRecord) -> dict[str, Any]:
    return dict(record.lasting) if record.lasting else fresh_lasting(system, record)


def parse_value(text: str, current: Any, key: str) -> Any:
    """A GM-entered value in the type the lasting state already holds there."""
    text = text.strip()
    if len(text) > MAX_VALUE_CHARS:
        raise InvalidInput(f"Values are limited to {MAX_VALUE_CHARS} characters.")
    if isinstance(current, bool):
        if text.lower() in ("1", "true", "yes", "on"):
            return True
        if text.lower() in ("0", "false", "no", "off"):
            return False
        raise InvalidInput(f"`{key}` is yes or no.")
    if isinstance(current, int):
        try:
            number = int(text)
        except ValueError:
            raise InvalidInput(f"`{key}` must be a whole number.") from None
        if not -10_000 <= number <= 10_000:
            raise InvalidInput(f"`{key}` must be between -10000 and 10000.")
        return number
    if isinstance(current, (list, dict)):
        try:
            value = json.loads(text)
        except ValueError:
            raise InvalidInput(f"`{key}` holds a list: write it as JSON, e.g. {json.dumps(current)[:60]}.") from None
        if type(value) is not type(current):
            raise InvalidInput(f"`{key}` holds a {type(current).__name__}.")
        return value
    return text


def describe(lasting: dict[str, Any]) -> str:
    if not lasting:
        return "nothing carried over yet"
    return ", ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in lasting.items())


class Between:
    def __init__(self, repo: Repository, *, seed: int | None = None) -> None:
        self.repo = repo
        self.seed = seed  # fixed in the sandbox and tests: rests replay the same

    async def _campaign(self, key: int):
        campaign = await self.repo.get_campaign(key)
        if campaign is None:
            raise InvalidInput("This campaign is not set up yet: the GM runs /campaign setup first.")
        return campaign, registry.get(campaign.system)

    def _rng(self, key: int, state: dict[str, Any]) -> int:
        if "rng" in state:
            return int(state["rng"])
        if self.seed is not None:
            return seed_from(self.seed + key)
        return seed_from(int.from_bytes(os.urandom(8), "little"))

    async def rest(self, key: int, by: Actor, kind: str, *, character: CharacterRecord | None = None,
                   dice: str | None = None, command: str = "/campaign rest") -> tuple[str, list[str]]:
        """Apply one kind of rest to every stored character (or one); returns the summary and event lines."""
        if not by.is_gm:
            raise NotAllowed("Only the GM decides when the characters rest.")
        campaign, system = await self._campaign(key)
        rests = system.rests()
        if kind not in rests:
            known = ", ".join(f"`{k}`" for k in rests) or "none"
            raise InvalidInput(f"{system.name} has no rest called `{kind[:30]}` (rests: {known}).")
        if character is not None:
            records = [character]
        else:
            records = [r for r in await self.repo.list_characters(key, limit=1000) if r.system == system.key]
        if not records:
            raise InvalidInput("There are no stored characters to rest.")
        entered = parse_entered(dice) if dice else ()
        state = dict(campaign.state)
        chance = Chance(self._rng(key, state), entered_dice=entered)
        resting = tuple(Resting(name=r.name, owner_id=r.owner_id, sheet=r.sheet, lasting=lasting_of(system, r))
                        for r in records)
        options = system.default_options() | campaign.settings
        outcome = system.rest(kind, resting, dict(state.get("rules") or {}), options, chance)
        if chance.entered_dice_left():
            raise InvalidInput(f"The rest did not use {chance.entered_dice_left()} of the entered dice: nothing changed.")
        after = {r.id: dict(c.lasting) for r, c in zip(records, outcome.characters)}
        lines = [e.text for e in outcome.events]
        summary = f"{rests[kind].label}: " + ("; ".join(lines) if lines else "nothing changed")
        new_state = state | {"rng": chance.rng_state, "rules": dict(outcome.campaign)}
        before = {"characters": {str(r.id): r.lasting for r in records}, "campaign": campaign.state}
        target = f" character:{character.name}" if character else ""
        change = NewChange(key, by.user_id, f"{command} kind:{kind}{target}", summary, before)
        await self.repo.save_lasting(after, change, new_state)
        return summary, lines

    async def adjust(self, key: int, by: Actor, record: CharacterRecord, what: str, value: str) -> str:
        if not by.is_gm:
            raise NotAllowed("Only the GM adjusts what a character carries between fights.")
        _, system = await self._campaign(key)
        lasting = lasting_of(system, record)
        what = what.strip()
        if what not in lasting:
            known = ", ".join(f"`{k}`" for k in lasting) or "none yet"
            raise InvalidInput(f"{record.name} carries no `{what[:30]}` ({system.name} keeps: {known}).")
        new = parse_value(value, lasting[what], what)
        if new == lasting[what]:
            raise InvalidInput(f"{record.name}'s `{what}` is already {json.dumps(new)[:60]}.")
        summary = f"{record.name}: {what} {json.dumps(lasting[what])[:60]} → {json.dumps(new)[:60]}"
        change = NewChange(key, by.user_id, f"/campaign adjust character:{record.name} {what}",
                           summary, {"characters": {str(record.id): record.lasting}, "campaign": None})
        await self.repo.save_lasting({record.id: lasting | {what: new}}, change)
        return summary

    async def undo(self, key: int, by: Actor) -> str:
        if not by.is_gm:
            raise NotAllowed("Only the GM can undo between-fight changes.")
        for change in await self.repo.changes(key, limit=200):
            if change.undone or not change.command.startswith(UNDOABLE):
                continue
            summary = f"Undid {change.command}: {change.summary}"[:500]
            log = NewChange(key, by.user_id, UNDO, summary, {})
            if await self.repo.undo_change(change.id, log):
                return summary
        raise InvalidInput("There is no rest or adjustment to undo.")
