"""Who is acting, and spending the turn's Action, Bonus Action, Reaction and Pace."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed, NotYourTurn
from ...secrets import secret
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
        raise NotYourTurn("It is not your turn: name the actor (`actor:`) for a reaction.")
    return real(enc, enc.get(mine[0]))


def may_act(c: RCCombatant) -> None:
    if c.out:
        raise NotAllowed(f"{c.name} is out of the fight.")
    if cond.helpless(c) and not c.blaze:
        raise NotAllowed(f"{c.name} is {'Unconscious' if c.has('Unconscious') else 'Incapacitated'} and cannot act.")


def spend(enc: RCEncounter, c: RCCombatant, what: str) -> RCEncounter:
    """Use the Action, Bonus Action or a Reaction, refusing clearly if it is gone."""
    may_act(c)
    e = c.economy
    if what == "reaction":
        if c.blaze:
            return enc
        if c.demanding:
            raise NotAllowed(f"{c.name} cannot take reactions while performing a demanding action.")
        if c.has("Stunned"):
            raise NotAllowed(f"{c.name} is Stunned and cannot take reactions.")
        if e.reactions <= 0:
            raise NotAllowed(f"{c.name} has no reaction left before their next turn.")
        return enc.update(c.id, economy=e.but(reactions=e.reactions - 1))
    if not acting(enc, c.id):
        raise NotYourTurn(
            f"It is not {c.name}'s turn: off-turn, only an /attack (as a reaction) or a readied action works."
        )
    if what == "action":
        if not e.action:
            raise NotAllowed(f"{c.name} has already used their Action this turn.")
        return enc.update(c.id, economy=e.but(action=False))
    if what == "bonus":
        if not e.bonus:
            raise NotAllowed(f"{c.name} has already used their Bonus Action this turn.")
        if c.demanding:
            raise NotAllowed("A Bonus Action may only come before a demanding action begins.")
        return enc.update(c.id, economy=e.but(bonus=False))
    raise InvalidInput(f"Unknown action cost `{what}`.")


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
        )
    )


def _tick(ok: bool) -> str:
    return "✅" if ok else "❌"


def summary(c: RCCombatant) -> list[str]:
    e = c.economy
    blocked = " (Stunned)" if c.has("Stunned") else " (demanding)" if c.demanding else ""
    if blocked:
        reaction = f"{_tick(False)}{blocked}"
    elif c.horde:
        # one per member, as the member count says; once some are used, how many are left
        reaction = _tick(e.reactions > 0) + (f" ×{e.reactions} left" if e.opportunity and e.reactions else "")
    else:
        reaction = _tick(e.reactions > 0) + (f" ×{e.reactions}" if e.reactions > 1 else "")
    lines = [
        f"Pace {secret(e.pace, c)} area{'s' if e.pace != 1 or c.hidden else ''} left · Action {_tick(e.action)} · "
        f"Bonus Action {_tick(e.bonus)} · Reaction {reaction}"
    ]
    if c.demanding:
        lines.append(
            f"Demanding: {c.demanding.what}{' (interruptible)' if c.demanding.interruptible else ''} — resolves at "
            "the start of the next turn; max 1 area, no reactions"
        )
    if c.dodging:
        lines.append("Dodging: attacks against Avoidance at disadvantage")
    if c.ready:
        lines.append(f"Ready: {c.ready}")
    if c.assisted_by:
        lines.append("Assisted: advantage on the next roll")
    if c.blaze:
        lines.append("Blaze of glory: one last attack, an automatic critical")
    return lines
