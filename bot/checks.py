"""Checks a stored character rolls from its sheet (`/check`), in a fight or between fights.

The rolling is the system's (`System.check`); this module finds the characters and the
campaign, keeps the campaign's generator (and deck) going, and writes every check to the
campaign log. A check that changes what a character carries (a Plot Point spent, Stress
gained) logs what it replaced, so `/campaign undo` takes it back like an adjustment. What a
check offers next (a reroll) is kept in the campaign state until the next check of that
character, and taken by its button (`follow`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from rules.cards import parse_cards
from rules.commands import flags
from rules.dice import parse_entered
from rules.errors import InvalidInput, NotAllowed, Stale
from rules.model import Actor, Choice
from rules.randomness import Chance
from rules.said import EMPTY, N_, joined_lines, say, seq
from rules.system import CheckOutcome, CheckRequest, System
from rules.text import Secret, Text
from rules.usertext import mark

from .between import DECK, SYSTEM_STATE, Between, of_this_system, resting_of, rules_part
from .repository import CharacterRecord, NewChange
from .roster import may_read

CHECK = "/check"
OFFERED = "offered"  # the campaign state's key for what the last checks offer next, by character id
ROLLS = N_("Only {name}'s player or the GM rolls its checks.")
# Shows a private check to whom it is for before anything is saved; raises when it cannot.
Delivery = Callable[["Checked"], Awaitable[Any]]


@dataclass(frozen=True, slots=True)
class Checked:
    """A check as the channel reads it: its lines, whether entered dice or cards decided it, and
    what the checker may do next (`offers`, answered with `follow`)."""

    lines: tuple[Text, ...]
    entered: bool
    offers: tuple[Choice, ...]
    character_id: int
    turn: int  # tells this check's offers from a later check's


class Checks:
    def __init__(self, between: Between) -> None:
        self.between = between
        self.repo = between.repo

    async def check(
        self,
        key: int,
        by: Actor,
        record: CharacterRecord,
        kind: str,
        *,
        dc: int | None = None,
        against: CharacterRecord | None = None,
        options: str | None = None,
        dice: str | None = None,
        cards: str | None = None,
        by_name: str | None = None,
        private: bool = False,
        deliver: Delivery | None = None,
    ) -> Checked:
        """`private`: only the roller and the GM read it, in the log too; `deliver` shows it to them
        before it is saved, so a check that cannot reach them is neither saved nor logged."""
        async with self.between.lock(key):
            record = await self.between.again(key, record)
            against = await self.between.again(key, against) if against is not None else None
            return await self._check(
                key, by, record, kind, dc, against, options, dice, cards, by_name, private, deliver
            )

    async def _check(
        self,
        key: int,
        by: Actor,
        record: CharacterRecord,
        kind: str,
        dc: int | None,
        against: CharacterRecord | None,
        options: str | None,
        dice: str | None,
        cards: str | None,
        by_name: str | None,
        private: bool,
        deliver: Delivery | None,
    ) -> Checked:
        campaign, system = await self.between._campaign(key)
        if not may_read(by, record):
            raise NotAllowed(say(ROLLS, name=mark(record.name)))
        _may_oppose(by, against)
        of_this_system(system, record, against)
        if against is not None and against.id == record.id:
            raise InvalidInput(say("A check is not rolled against the same character."))
        check_kind = system.check_kind(kind)
        request = CheckRequest(
            kind=check_kind.key,
            who=resting_of(record),
            dc=dc,
            against=resting_of(against) if against is not None else None,
            options=flags(options),
            campaign=dict(campaign.state.get(SYSTEM_STATE) or {}),
            settings=system.settings_for(campaign.settings),
        )
        command = seq(
            f"{CHECK} character:",
            mark(record.name),
            f" kind:{check_kind.key}",
            f" dc:{dc}" if dc is not None else EMPTY,
            seq(" against:", mark(against.name)) if against is not None else EMPTY,
            seq(" options:", mark(options)) if options else EMPTY,
        )
        return await self._roll(
            key, campaign, system, request, record, against, command, dice, cards, by, by_name, private, deliver
        )

    async def follow(
        self,
        key: int,
        by: Actor,
        character_id: int,
        turn: int,
        offer: str,
        by_name: str | None = None,
        deliver: Delivery | None = None,
    ) -> Checked:
        """Take what a check offered (its button): only while it is that character's last check.
        `deliver`, as for `check`, shows what follows a private check to the roller and the GM before it
        is saved (a public check's follow-up ignores it)."""
        async with self.between.lock(key):
            return await self._follow(key, by, character_id, turn, offer, by_name, deliver)

    async def _follow(
        self,
        key: int,
        by: Actor,
        character_id: int,
        turn: int,
        offer: str,
        by_name: str | None,
        deliver: Delivery | None,
    ) -> Checked:
        campaign, system = await self.between._campaign(key)
        record = await self.repo.character_by_id(key, character_id)
        kept = dict(campaign.state.get(OFFERED) or {}).get(str(character_id))
        if record is None or kept is None or kept.get("turn") != turn or offer not in kept.get("offers", ()):
            raise Stale(say("That check is over: its offer has passed."))
        if not may_read(by, record):
            raise NotAllowed(say(ROLLS, name=mark(record.name)))
        against = await self.repo.character_by_id(key, kept["against"]) if kept.get("against") else None
        _may_oppose(by, against)
        request = CheckRequest.model_validate(kept["request"]).but(
            who=resting_of(record),
            against=resting_of(against) if against is not None else None,
            campaign=dict(campaign.state.get(SYSTEM_STATE) or {}),
        )
        command = seq(f"{CHECK} ", offer, " character:", mark(record.name))

        def again(chance: Chance) -> CheckOutcome:
            return system.roll_check_again(request, kept["memo"], offer, chance)

        # What a private check offers stays private: its button is on a message only the roller sees, and
        # what it changes reaches the GM like the check did, or is not saved.
        private = bool(kept.get("private"))
        return await self._roll(
            key,
            campaign,
            system,
            request,
            record,
            against,
            command,
            None,
            None,
            by,
            by_name,
            private,
            deliver if private else None,
            roll=again,
        )

    async def _roll(
        self,
        key: int,
        campaign: Any,
        system: System,
        request: CheckRequest,
        record: CharacterRecord,
        against: CharacterRecord | None,
        command: Text,
        dice: str | None,
        cards: str | None,
        by: Actor,
        by_name: str | None,
        private: bool,
        deliver: Delivery | None = None,
        roll=None,
    ) -> Checked:
        state = dict(campaign.state)
        chance = Chance(
            self.between._rng(key, state),
            deck=tuple((state.get(SYSTEM_STATE) or {}).get(DECK) or ()),
            entered_dice=parse_entered(dice) if dice else (),
            entered_cards=parse_cards(cards) if cards else (),
        )
        with chance.reporting():
            outcome = roll(chance) if roll is not None else system.roll_check(request, chance)
        chance.finish()  # entered dice or cards the check did not use: refused, nothing changed
        turn = int(state.get("checks", 0)) + 1
        offered = dict(state.get(OFFERED) or {})
        offered.pop(str(record.id), None)
        if outcome.offers:
            offered[str(record.id)] = {
                "turn": turn,
                "offers": [o.key for o in outcome.offers],
                "memo": outcome.memo,
                "request": request.model_dump(mode="json"),
                "against": against.id if against is not None else None,
                "private": private,
            }
        new_state = state | {"rng": chance.rng_state, "checks": turn, OFFERED: offered}
        if outcome.campaign is not None:
            new_state[SYSTEM_STATE] = dict(outcome.campaign)
        after: dict[int, dict[str, Any]] = {}
        if outcome.lasting is not None:
            after[record.id] = system.fit_lasting(record.sheet, outcome.lasting, record.npc)
        if against is not None and outcome.against_lasting is not None:
            after[against.id] = system.fit_lasting(against.sheet, outcome.against_lasting, against.npc)
        originals = {record.id: record.lasting} | ({against.id: against.lasting} if against is not None else {})
        after = {i: state for i, state in after.items() if state != originals[i]}
        # The deck going on is no change to take back (see DECK).
        touched = outcome.campaign is not None and rules_part(new_state) != rules_part(state)
        before: dict[str, Any] = {}
        if after or touched:
            replaced = {i: originals[i] for i in after}
            rules = {SYSTEM_STATE: state.get(SYSTEM_STATE)} if touched else {}
            before = _undone_by(record.id, turn, replaced, rules, bool(outcome.offers))
        summary = joined_lines(outcome.lines) if outcome.lines else say("nothing rolled")
        if private:
            # The log is anyone's to read: a private check is kept whole as a secret, which the log
            # shows to the GM (and to whoever rolled it).
            command, summary = Secret(command, True), Secret(summary, True)
        checked = Checked(outcome.lines, chance.entered_any, outcome.offers, record.id, turn)
        if deliver is not None:
            await deliver(checked)
        await self.repo.save_lasting(after, NewChange(key, by.user_id, command, summary, before, by_name), new_state)
        return checked


def _undone_by(
    character_id: int, turn: int, replaced: dict[int, dict[str, Any]], rules: dict[str, Any], offered: bool
) -> dict[str, Any]:
    """What `/campaign undo` puts back for a check: what it replaced of the characters and of the rules'
    part of the campaign state (`rules`, empty if untouched), over the campaign state as it is then, and
    the offer the check made, withdrawn. Not the whole campaign state: other characters' checks since keep
    their offers, and the dice go on (rolled back, they would show a player the rolls to come)."""
    before: dict[str, Any] = {
        "characters": {str(i): lasting for i, lasting in replaced.items()},
        "campaign": None,
        "campaign_part": rules,
    }
    if offered:
        before["offer"] = {"key": OFFERED, "character": str(character_id), "turn": turn}
    return before


def _may_oppose(by: Actor, against: CharacterRecord | None) -> None:
    """An opposed check shows the other side's numbers in the channel: a kept NPC's are the GM's
    (it may have fought hidden), so only a GM rolls against it."""
    if against is not None and against.npc and not may_read(by, against):
        raise NotAllowed(
            say("{name} is an NPC the GM kept: only a GM rolls a check against it.", name=mark(against.name))
        )
