"""Who is acting, and spending the turn's Action, Bonus Action, Reaction and Pace."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed, NotYourTurn
from ...model import Actor
from ...said import say, say_plural, seq, term
from ...secrets import secret
from ...text import EMPTY, Text
from . import conditions as cond
from .model import RCCombatant, RCEncounter


def real(enc: RCEncounter, c: RCCombatant) -> RCCombatant:
    """An Unleashed villain's extra turn acts as the villain itself."""
    return enc.get(c.echo_of) if c.echo_of else c


def acting(enc: RCEncounter, cid: str) -> bool:
    if enc.status != "running":
        return False
    return any(a == cid or enc.get(a).echo_of == cid for a in enc.turns.acting)


def actor_of(enc: RCEncounter, action) -> RCCombatant:
    """The named actor, else the sender's combatant whose turn it is."""
    if action.actor:
        return real(enc, enc.find(action.actor))
    mine = [c for c in enc.turns.acting if action.by.is_gm or enc.get(c).controller_id == action.by.user_id]
    if not mine:
        # a blaze of glory is "taken immediately as a Reaction", whoever's turn it is
        mine = [c.id for c in enc.combatants if c.blaze and c.controller_id == action.by.user_id]
    if not mine:
        raise NotYourTurn(say("It is not your turn: name the actor (`actor:`) for a reaction."))
    return real(enc, enc.get(mine[0]))


def may_act(c: RCCombatant) -> None:
    if c.out:
        raise NotAllowed(say("{who} is out of the fight.", who=c.name))
    if cond.helpless(c) and not c.blaze:
        raise NotAllowed(say("{who} is {condition} and cannot act.", who=c.name, condition=term(helpless_as(c))))


def may_go_free(enc: RCEncounter, c: RCCombatant, by: Actor) -> None:
    """A player's attack costs no Action only as the effect of a demanding action that resolved at the start of
    this turn; anything else free is the GM's ruling, theirs to enter."""
    if by.is_gm or c.economy.resolved == enc.turn_no:
        return
    raise NotAllowed(
        say(
            "`free` is for the effect of a demanding action that resolved at the start of {who}'s turn; "
            "anything else that costs no Action is the GM's call.",
            who=c.name,
        )
    )


def helpless_as(c: RCCombatant) -> str:
    """The condition that keeps a helpless combatant from acting."""
    return "Unconscious" if c.has("Unconscious") else "Incapacitated"


def spend(enc: RCEncounter, c: RCCombatant, what: str) -> RCEncounter:
    """Use the Action, Bonus Action or a Reaction, refusing clearly if it is gone."""
    may_act(c)
    e = c.economy
    if what == "reaction":
        if c.blaze:
            return enc
        if c.demanding:
            raise NotAllowed(say("{who} cannot take reactions while performing a demanding action.", who=c.name))
        if c.has("Stunned"):
            raise NotAllowed(say("{who} is Stunned and cannot take reactions.", who=c.name))
        if e.reactions <= 0:
            raise NotAllowed(say("{who} has no reaction left before their next turn.", who=c.name))
        return enc.update(c.id, economy=e.but(reactions=e.reactions - 1))
    if not acting(enc, c.id):
        raise NotYourTurn(
            say(
                "It is not {who}'s turn: off-turn, only an /attack (as a reaction) or a readied action works.",
                who=c.name,
            )
        )
    if what == "action":
        if not e.action:
            raise NotAllowed(say("{who} has already used their Action this turn.", who=c.name))
        return enc.update(c.id, economy=e.but(action=False))
    if what == "bonus":
        # beginning a demanding action takes the Bonus Action away: that, not its use, is the reason
        if c.demanding:
            raise NotAllowed(say("A Bonus Action may only come before a demanding action begins."))
        if not e.bonus:
            raise NotAllowed(say("{who} has already used their Bonus Action this turn.", who=c.name))
        return enc.update(c.id, economy=e.but(bonus=False))
    raise InvalidInput(say("Unknown action cost `{what}`.", what=what))


def no_opportunity_attack(enc: RCEncounter, target: RCCombatant) -> None:
    """Refuse an opportunity attack on a combatant who disengaged this turn."""
    if target.economy.disengaged and acting(enc, target.id):
        raise NotAllowed(
            say(
                "{who} disengaged this turn: their movement provokes no opportunity attacks until the turn ends.",
                who=target.name,
            )
        )


def fresh(c: RCCombatant) -> RCCombatant:
    """A new turn: Pace, Action, Bonus Action and reactions come back."""
    # a Horde may make one opportunity attack per member
    reactions = (len(c.horde) if c.horde else 1) + (1 if c.unleashed else 0)
    return c.but(
        economy=c.economy.but(
            pace=cond.pace(c),
            action=True,
            bonus=True,
            reactions=reactions,
            opportunity=0,
            dashed=False,
            disengaged=False,
            triggered=None,
            split_target=None,
            split_left=0,
        )
    )


def _tick(ok: bool) -> str:
    return "✅" if ok else "❌"


def summary(c: RCCombatant) -> list[Text]:
    e = c.economy
    blocked = say("(Stunned)") if c.has("Stunned") else say("(demanding)") if c.demanding else None
    if blocked is not None:
        reaction = seq(_tick(False), " ", blocked)
    elif c.horde:
        # one per member, as the member count says; once some are used, how many are left
        left = e.opportunity and e.reactions
        reaction = seq(_tick(e.reactions > 0), seq(" ", say("×{n} left", n=e.reactions)) if left else EMPTY)
    else:
        reaction = seq(_tick(e.reactions > 0), f" ×{e.reactions}" if e.reactions > 1 else "")
    turn = dict(pace=secret(e.pace, c), action=_tick(e.action), bonus=_tick(e.bonus), reaction=reaction)
    line = say_plural(
        "Pace {pace} area left · Action {action} · Bonus Action {bonus} · Reaction {reaction}",
        "Pace {pace} areas left · Action {action} · Bonus Action {bonus} · Reaction {reaction}",
        None if c.hidden else e.pace,
        **turn,
    )
    lines: list[Text] = [line]
    if c.demanding:
        what = c.demanding.what
        if c.demanding.interruptible:
            lines.append(
                say(
                    "Demanding: {what} (interruptible) — resolves at the start of the next turn; max 1 area, "
                    "no reactions",
                    what=what,
                )
            )
        else:
            lines.append(
                say("Demanding: {what} — resolves at the start of the next turn; max 1 area, no reactions", what=what)
            )
    if c.dodging:
        lines.append(say("Dodging: attacks against Avoidance at disadvantage"))
    if c.ready:
        lines.append(say("Ready: {trigger}", trigger=c.ready))
    if c.horde and e.split_target and e.split_left:
        lines.append(
            say_plural(
                "Split attack: {n} member left to attack a second target (no Action)",
                "Split attack: {n} members left to attack a second target (no Action)",
                e.split_left,
                n=e.split_left,
            )
        )
    if c.assisted_by:
        lines.append(say("Assisted: advantage on the next roll"))
    if c.blaze:
        lines.append(say("Blaze of glory: one last attack, an automatic critical"))
    return lines
