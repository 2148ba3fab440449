"""The factions system: alternating factions, automatic hits, roll-under d20 saves."""

from __future__ import annotations

from typing import Any, ClassVar

from rules.actions import AddCombatants
from rules.errors import InvalidInput
from rules.model import Combatant, Event
from rules.said import N_, joined, say, term
from rules.secrets import secret
from rules.system import FormSection, Option, System
from rules.text import Text
from rules.usertext import user_text

from . import between, checks, economy, manoeuvres, morale, moves, reactions, strike
from .actions import (
    ApplyDamage,
    Attack,
    BonusAction,
    BreakFree,
    FreeAlly,
    Heal,
    MainAction,
    Move,
    OpportunityAttack,
    PickUp,
    Release,
    Reveal,
    RollSave,
    SetCondition,
    Surrender,
)
from .commands import COMMANDS
from .harm import release_holds
from .model import SIDES, TURNS, FactionsEncounter, Fighter, faction_named, fighter
from .sheet import FactionsSheet, parse_weapons


class FactionsSystem(System):
    key = "factions"
    name = N_("Factions")
    summary = N_(
        "Factions alternate moves, no initiative roll. Sides: `players`, `gm` or a `side:`.\n"
        "**Stats**: `str agi wit` (d20 roll-under, 10), `health` (8), `grit` (0), `armour` 0–3, `size` "
        'tiny…massive, `fearless`, `concealed`, `weapons="sword:d6, bow:d6:8, bomb:d6:2:blast, maul:d10:great"`.\n'
        "**Round**: `/turn initiative faction:bandits` (else random), `/initiative next`. "
        "The faction to move (pinged) does `/turn take character:X` or `/turn pass`; all passing in a row "
        "ends the round. `/turn first faction:X`: the holder lets X open a round.\n"
        '**Turn**: 2 zones, or 1 plus a main and a bonus action: `/act action:move options:"zones=1 sprint"`, '
        "`bonus`, `main`, `grapple`, `shove`, `death_blow`, `break_free`, `surrender`…; then End turn.\n"
        '**Attack**: `/attack target:X weapon:bow options:"zones=5"` hits; a WIT save if `unseen`, '
        '`moving` or beyond half range. Also `cover impaired enhanced unaware stunt="…"`, `peek` (out of '
        "cover: a counter meets it); a blast names all targets. Damage − armour (max 3) hits grit, then "
        "health: critical = incapacitated, 0 = dead.\n"
        "**Reactions** (target not yet acted; spends its turn): buttons Dodge, Counter (a weapon — a shot beyond "
        "half range needs a WIT save —, or a grapple, "
        "shove or disarm on a nearby attacker: a non-lethal attack or counter is resolved last), Hide behind, or an "
        "ally Guards (`alone`/`near=A,B`). `/act action:opportunity actor:X target:Y`.\n"
        '**Dice by hand**: `/attack dice:"<WIT save> <damage>"`; `/choose option:Dodge dice:2` for reactions.\n'
        "**Morale** after a round halving a group or a loner's health: WIT saves; "
        "failures Surrender or Flee.\n"
        "**Defaults**: natural 20 fails (`nat20_fails`); `critical_str_save` off; grit back when a fight ends "
        "(`grit_back_after_fight`), health after `/campaign rest` (`health_back_after_rest`); impaired damage d4, "
        "enhanced d12; `/damage options:direct` skips armour and grit; unanswered: no reaction, surrender.\n"
        "**Checks** (a stored character, in a fight or between fights): `/check character:X kind:str` (or `agi`, "
        "`wit`) rolls d20 at or under the attribute, no DC; `kind:chase` (AGI: a pass escapes, a failure is "
        "reached), `kind:morale` (WIT: a failure surrenders or retreats; fearless: immune). "
        '`options:"why=\'to climb\'"`, `dice:"7"`. The dead roll nothing.\n'
        "**GM's call** (README): positions in a zone, stunts' effects, vehicles, gear durability → "
        "`/condition add`, `/encounter note`, `/roll`."
    )
    encounter_type = FactionsEncounter
    combatant_type = Fighter
    sheet_type = FactionsSheet
    turns = TURNS
    commands = COMMANDS
    between = between
    checks = checks
    form: ClassVar[tuple[FormSection, ...]] = (
        FormSection(label=N_("Attributes"), keys=("str", "agi", "wit")),
        FormSection(label=N_("Health and armour"), keys=("health", "grit", "armour")),
        FormSection(label=N_("Size and weapons"), keys=("size", "weapons")),
        FormSection(label=N_("Traits"), keys=("fearless", "concealed")),
    )
    sides = SIDES
    player_side = "players"
    options = {
        "nat20_fails": Option(default=True, help=N_("A natural 20 fails every save.")),
        "critical_str_save": Option(
            default=False, help=N_("A STR save shrugs off critical damage (no incapacitation).")
        ),
        **between.OPTIONS,
    }

    def handlers(self):
        return {
            Attack: strike.declare,
            OpportunityAttack: strike.declare,
            Move: moves.move,
            BonusAction: moves.bonus_action,
            MainAction: moves.main_action,
            PickUp: moves.pick_up,
            BreakFree: self._break_free,
            FreeAlly: self._free_ally,
            Release: manoeuvres.release,
            Surrender: self._settling(lambda enc, a, ch: moves.surrender(self, enc, self._own(enc, a), ch)),
            Reveal: lambda enc, a, ch: moves.reveal(enc, self._own(enc, a), ch),
            RollSave: lambda enc, a, ch: moves.roll_save(enc, self._own(enc, a), ch),
            ApplyDamage: self._settling(moves.apply_damage),
            Heal: self._settling(moves.heal),
            SetCondition: self._settling(moves.set_condition),
        }

    def handler(self, action):
        """After every action, a character taken down in its own turn ends it."""
        run = super().handler(action)

        def sent(enc, act, chance):
            enc, events = run(enc, act, chance)
            enc, more = TURNS.fallen(self, enc, chance)
            return enc, events + more

        return sent

    def _settling(self, handler):
        """Between turns, whoever can move may change: the move passes on if the
        moving faction has nobody left, or reopens if nobody could act before."""

        def run(enc, action, chance):
            enc, events = handler(enc, action, chance)
            enc, more = TURNS.settle(self, enc, chance)
            return enc, events + more

        return run

    def _own(self, enc, action):
        """Off-turn actions without a named actor mean the sender's acting character."""
        if action.actor:
            return action
        active = enc.turns.active
        if active and (action.by.is_gm or enc.get(active).controller_id == action.by.user_id):
            return action.but(actor=enc.get(active).name)
        raise InvalidInput(say("Name the character (the `actor` option)."))

    def _break_free(self, enc, action, chance):
        enc, events = manoeuvres.break_free(enc, action, chance)
        enc, more = TURNS.end_turn(self, enc, chance)
        return enc, events + more

    def _free_ally(self, enc, action, chance):
        manoeuvres_actor = enc.find(action.actor)
        moves.free_hands(manoeuvres_actor)
        enc, events = manoeuvres.free_ally(enc, action, chance)
        enc, let_go = manoeuvres.release_if_busy(enc, enc.get(manoeuvres_actor.id))
        return enc, events + let_go

    # --- characters -----------------------------------------------------------
    side_key = "faction"

    def side_named(self, name: str) -> str:
        return faction_named(name)  # any name the GM gives is a faction of its own

    def side_line(self, side: str) -> Text | None:
        return say("Faction {faction}", faction=user_text(side))

    def combatant_fields(self, sheet: dict[str, Any], action: AddCombatants) -> dict[str, Any]:
        return {
            "strength": sheet["str"],
            "agility": sheet["agi"],
            "wits": sheet["wit"],
            "health": sheet["health"],
            "max_health": sheet["health"],
            "health_at_round_start": sheet["health"],
            "grit": sheet["grit"],
            "max_grit": sheet["grit"],
            "armour": sheet["armour"],
            "size": sheet["size"],
            "weapons": parse_weapons(sheet["weapons"]),
            "fearless": sheet["fearless"],
            "concealed": sheet["concealed"],
        }

    # --- hooks ------------------------------------------------------------------
    def can_act(self, enc, combatant: Combatant) -> bool:
        return fighter(combatant).standing and not manoeuvres.pinned(enc, fighter(combatant))

    def cannot_act_reason(self, enc, combatant: Combatant) -> Text:
        down = fighter(combatant)
        if down.dead:
            return say("dead")
        if down.fled:
            return say("fled")
        if down.out:
            return say("out of the fight")
        if down.incapacitated:
            return say("incapacitated")
        if down.surrendered:
            return say("surrendered")
        holder = enc.get(down.grabbed_by).name if down.grabbed_by else ""
        return say("held by the larger {holder}: only an ally can free them", holder=holder)

    def forget(self, enc, gone: tuple[str, ...]):
        # Whoever a removed grabber held is free.
        for cid in gone:
            enc = release_holds(enc, cid)
        return enc

    def bonus_round(self, enc) -> list[str]:
        return [c.id for c in enc.combatants if c.concealed and c.standing]

    def on_turn_start(self, enc, cid, chance):
        return enc.update(cid, moved=0, sprinting=False, mains=0, bonuses=0, deviated=False), []

    def on_round_start(self, enc, chance):
        return morale.mark_round_start(enc), []

    def on_round_end(self, enc, chance):
        enc, events = morale.check(enc, chance)
        if enc.pending is None:
            events += _last_side_standing(enc)
        return enc, events

    def resume_reaction(self, enc, pending, option, chance):
        return reactions.resume_reaction(enc, pending, option, chance)

    def resume_stunt(self, enc, pending, option, chance):
        return reactions.resume_stunt(enc, pending, option, chance)

    def resume_morale_roll(self, enc, pending, option, chance):
        """The morale saves rolled (or entered) when the round-end choice is answered."""
        return self.resume_morale(enc, pending, option, chance, rolled=morale.resume_roll)

    def resume_morale(self, enc, pending, option, chance, rolled=None):
        """The round's first move waits for the last morale choice."""
        enc, events = (rolled or morale.resume)(enc, pending, option, chance)
        if enc.pending is None:
            events += _last_side_standing(enc)
            enc, more = TURNS.open_round(self, enc, chance)
            events += more
        return enc, events

    # --- what people see ---------------------------------------------------------
    def status_line(self, enc, combatant: Combatant, *, reveal: bool) -> Text:
        return self._status_line(enc, fighter(combatant), reveal=reveal)

    def _status_line(self, enc, combatant: Fighter, *, reveal: bool) -> Text:
        states: list[Text] = []
        if combatant.dead:
            states.append(say("dead"))
        if combatant.fled:
            states.append(say("fled"))
        if combatant.incapacitated:
            states.append(say("incapacitated"))
        if combatant.surrendered:
            states.append(say("surrendered"))
        if combatant.grabbed_by:
            states.append(say("grabbed by {who}", who=enc.get(combatant.grabbed_by).name))
        if combatant.concealed and reveal:  # players do not see who hides
            states.append(say("concealed"))
        if combatant.id == enc.turns.active:
            states.append(say("acting"))
        elif combatant.id in enc.turns.acted:
            states.append(say("acted"))
        if not reveal:
            # A concealed NPC reads as any other hidden one: a blank line would single out who hides.
            if not states:
                hurt = combatant.health < combatant.max_health
                states.append(say("wounded") if hurt else say("unhurt"))
            return joined(", ", states)

        # Revealed lines are the GM's (or a visible character's); a hidden NPC's
        # numbers stay marked in case such a line is ever shown to the channel.
        def shown(value) -> Text:
            return secret(value, combatant)

        health = say("health {left}/{most}", left=shown(combatant.health), most=shown(combatant.max_health))
        numbers: list[Text] = [health]
        if combatant.max_grit:
            numbers.append(say("grit {left}/{most}", left=shown(combatant.grit), most=shown(combatant.max_grit)))
        numbers.append(say("armour {armour}", armour=shown(combatant.armour)))
        if combatant.size != "medium":
            numbers.append(shown(term(combatant.size)))
        if combatant.dropped:
            numbers.append(say("dropped {weapons}", weapons=joined(", ", combatant.dropped)))
        if states:
            numbers.append(joined(", ", states))
        return joined(" · ", numbers)

    def turn_summary(self, enc, cid) -> list[Text]:
        """The acting character's move and actions left; at a faction's move, who carries what."""
        acting = fighter(enc.get(cid))
        # a hidden NPC's dice are secret
        weapons = say("Weapons: {weapons}", weapons=joined(", ", (w.describe(acting) for w in acting.held())))
        if enc.turns.active != cid:
            return [weapons]
        return economy.summary(acting) + [weapons]


def _last_side_standing(enc) -> list[Event]:
    fighting = list(dict.fromkeys(c.side for c in enc.combatants if c.standing))
    if len(fighting) > 1:
        return []
    if fighting:
        text = say(
            "The fight is decided: only {side} still fight. The GM may end it with /encounter end.", side=fighting[0]
        )
    else:
        text = say("The fight is decided: nobody is still fighting. The GM may end it with /encounter end.")
    return [Event(kind="warning", text=text)]
