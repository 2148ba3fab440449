"""Combat modes (Horde, Unleashed, Danger Zone) and the end of a scene."""

from __future__ import annotations

from ...errors import InvalidInput, NotAllowed
from ...model import Event
from ...said import joined, say, say_plural, seq
from ...secrets import secret
from ...text import EMPTY, Raw, Seq, Text
from ...turns.initiative import Entry
from ...usertext import listed
from . import conditions as cond
from . import damage as dmg
from .model import Condition, RCCombatant, RCEncounter

HORDE_MIN = 5


def _entry(enc: RCEncounter, cid: str) -> Entry:
    return next(e for e in enc.turns.entries if e.cid == cid)


def _full(c: RCCombatant) -> RCCombatant:
    """A fresh member of a horde: whole Stamina and Wounds, no derived conditions."""
    c = c.but(stamina=c.max_stamina, wounds=c.max_wounds, temp_stamina=0, dead=False, out=False, ongoing_total=0)
    for name in cond.DERIVED:
        c = cond.remove(c, name)
    return c


def form_horde(system, enc: RCEncounter, names: list[str], title: str, chance) -> tuple[RCEncounter, list[Event]]:
    members = [enc.find(n) for n in names]
    members = [m for m in members if not m.out and not m.horde]
    if len({m.id for m in members}) < HORDE_MIN:
        raise InvalidInput(
            say("A Horde needs at least {n} identical creatures that are still in the fight.", n=HORDE_MIN)
        )
    if len({m.sheet for m in members}) != 1:
        raise InvalidInput(say("A Horde is made of identical creatures: these stat blocks differ."))
    lowest = min(members, key=lambda m: _entry(enc, m.id).sort_key)
    for m in members:
        if m.id != lowest.id:
            enc, _ = system.turns.leave(system, enc, m.id, chance)
            enc = enc.but(combatants=tuple(c for c in enc.combatants if c.id != m.id))
    horde = _full(enc.get(lowest.id)).but(name=title, horde=tuple(m.name for m in members), horde_name=title)
    # one opportunity attack per member
    horde = horde.but(horde_wear=(), economy=horde.economy.but(reactions=len(members), opportunity=0))
    enc = enc.with_combatant(horde)
    bonus = 2 * (len(members) - 1)
    return enc, [
        Event(
            kind="info",
            text=say(
                "{n} creatures form {horde} at {who}'s initiative: +{bonus} to hit and damage.",
                n=len(members),
                horde=title,
                who=lowest.name,
                bonus=bonus,
            ),
        )
    ]


def member_down(system, enc: RCEncounter, cid: str, chance) -> tuple[RCEncounter, list[Event]]:
    """An attack took out one member: the Horde shrinks, below 5 it splits."""
    horde = enc.get(cid)
    rest = horde.horde[1:]
    enc = enc.with_combatant(_next(horde).but(horde=rest))
    if len(rest) >= HORDE_MIN:
        return enc, [Event(kind="info", text=seq("; ", _left(rest)))]
    enc, more = split(enc, cid)
    return enc, [Event(kind="info", text=seq("; ", say("{n} left, too few for a horde", n=len(rest))))] + more


def _left(rest) -> Text:
    return say("{n} left in the horde, now +{bonus} to hit and damage", n=len(rest), bonus=2 * (len(rest) - 1))


def _next(horde: RCCombatant) -> RCCombatant:
    """The member stepping forward: whole, or as worn as an area attack left the others."""
    c = _full(horde)
    if horde.horde_wear:
        stamina, temp, wounds, total = horde.horde_wear
        c, _ = dmg.settle(c.but(stamina=stamina, temp_stamina=temp, wounds=wounds, ongoing_total=total))
    return c


def _member_text(name: str, text: Text) -> Text:
    return seq(name, ": ", _trimmed(text))


def _trimmed(text: Text) -> Text:
    """`text` without the spaces around it and a leading "; ": `dmg.harm` keeps each piece's
    separator outside its phrase, so trimming it cuts no phrase."""
    parts = list(text.parts) if isinstance(text, Seq) else [text]
    while parts and isinstance(parts[0], Raw) and not parts[0].text.strip():
        parts.pop(0)
    while parts and isinstance(parts[-1], Raw) and not parts[-1].text.strip():
        parts.pop()
    if parts and isinstance(parts[-1], Raw):
        parts[-1] = Raw(parts[-1].text.rstrip())
    if parts and isinstance(parts[0], Raw):
        head = parts[0].text.lstrip()
        parts[0] = Raw(head[2:] if head.startswith("; ") else head)
    return seq(*parts)


def area_harm(
    system, enc: RCEncounter, cid: str, h: dmg.Harm, chance
) -> tuple[RCEncounter, Text, list[Event], dmg.Report, bool]:
    """An area attack on a Horde: the same damage on every member, each against
    its own Fortitude and Wounds. The horde tracks its front member; the others
    are identical, so one result stands for each of them. Returns the text, the
    events of a break-up, the front member's report and whether any member fell."""
    horde = enc.get(cid)
    names = horde.horde
    other_before = _next(horde).but(horde=())
    enc, text, report = dmg.harm(enc, cid, h)
    parts = [_member_text(names[0], text)]
    gone = [names[0]] if report.taken_out else []
    front = enc.get(cid)
    other = None
    for name in names[1:]:
        scratch = enc.with_combatant(other_before.but(name=name))
        scratch, text, r = dmg.harm(scratch, cid, h)
        parts.append(_member_text(name, text))
        if r.taken_out:
            gone.append(name)
        else:
            other = scratch.get(cid)
    summary = seq("; ", say("area, every member: {members}", members=joined(" · ", parts)))
    wear = (other.stamina, other.temp_stamina, other.wounds, other.ongoing_total) if other else ()
    if not gone:
        enc = enc.with_combatant(front.but(horde_wear=wear))
        return enc, summary, [], report, False
    rest = tuple(n for n in names if n not in gone)
    state = front if names[0] not in gone else (other or _full(horde))
    enc = enc.with_combatant(state.but(name=horde.name, horde=rest, horde_wear=wear))
    report.dying, report.interrupt_dc = False, None
    if len(rest) >= HORDE_MIN:
        return (
            enc,
            seq(summary, "; ", _left(rest)),
            [],
            report,
            True,
        )
    enc, more = split(enc, cid)
    too_few = seq("; ", say("{n} left, too few for a horde", n=len(rest))) if rest else EMPTY
    return enc, seq(summary, too_few), more, report, True


def split(enc: RCEncounter, cid: str) -> tuple[RCEncounter, list[Event]]:
    """Back to individuals on the horde's own initiative (one shared slot)."""
    horde = enc.get(cid)
    names = horde.horde
    if not names:
        return enc.with_combatant(horde.but(out=True, dead=True)), [
            Event(kind="info", text=say("{horde} is wiped out.", horde=horde.name))
        ]
    # individuals again: one reaction each, no more per member
    economy = horde.economy.but(reactions=min(horde.economy.reactions, 1), opportunity=0)
    first = horde.but(name=names[0], horde=(), horde_name="", horde_wear=(), economy=economy)
    enc = enc.with_combatant(first)
    entry = _entry(enc, cid)
    state = enc.turns
    slots = [list(s) for s in state.slots]
    slot = next(s for s in slots if cid in s)
    entries = list(state.entries)
    combatants = list(enc.combatants)
    next_id = enc.next_id
    for name in names[1:]:
        new = first.but(id=f"c{next_id}", name=name)
        next_id += 1
        combatants.append(new)
        entries.append(entry.but(cid=new.id))
        slot.append(new.id)
    state = state.but(entries=tuple(entries), slots=tuple(tuple(s) for s in slots))
    enc = enc.but(combatants=tuple(combatants), turns=state, next_id=next_id)
    return enc, [
        Event(
            kind="info", text=say("The horde breaks up: {names} act on its initiative, together.", names=listed(names))
        )
    ]


def unleash(system, enc: RCEncounter, c: RCCombatant, chance) -> tuple[RCEncounter, list[Event]]:
    if c.unleashed:
        raise InvalidInput(say("{who} is already Unleashed.", who=c.name))
    if c.is_hero:
        raise NotAllowed(say("Only villains are Unleashed."))
    if c.echo_of:
        raise InvalidInput(
            say("{who} is the extra turn of an Unleashed villain: it cannot be Unleashed itself.", who=c.name)
        )
    if c.zombie:
        c = c.but(wounds=c.wounds + 2, max_wounds=c.max_wounds + 2)
        boost = say("+2 Wounds")
    elif c.sheet.brute:
        boost = say("no Stamina change (brute)")
    else:
        c = c.but(stamina=c.stamina * 2, max_stamina=c.max_stamina * 2)
        boost = say("Stamina doubled")
    c = c.but(unleashed=True, economy=c.economy.but(reactions=c.economy.reactions + 1))
    enc = enc.with_combatant(c)
    key = _entry(enc, c.id).key[0] - 10
    echo = type(c)(
        id=f"c{enc.next_id}",
        name=f"{c.name} (Unleashed)",
        controller_id=c.controller_id,
        side=c.side,
        npc=c.npc,
        hidden=c.hidden,
        echo_of=c.id,
        fixed_init=key,
        sheet=c.sheet,
    )
    enc = enc.but(combatants=enc.combatants + (echo,), next_id=enc.next_id + 1)
    enc, events = system.turns.enter(system, enc, [echo.id], chance)
    # the extra turn's place is the villain's initiative − 10
    text = say(
        "{who} is Unleashed: an extra turn at initiative {key}, an extra reaction, {boost}, once-per-round advantage "
        "(`unleashed` option), a second wind once per encounter.",
        who=c.name,
        key=secret(f"{key:g}", c),
        boost=boost,
    )
    return enc, [Event(kind="info", text=seq("💥 ", text))] + events


def unleashed_advantage(enc: RCEncounter, c: RCCombatant) -> RCEncounter:
    """The villain's one advantage a round "on any attack, defense, or saving throw", spent: an /attack's or a
    /save's (a defense check is a /save against Avoidance or Willpower)."""
    if not c.unleashed:
        raise NotAllowed(say("{who} is not Unleashed.", who=c.name))
    if c.unleashed_adv_round == enc.round:
        raise NotAllowed(say("{who} already used this round's Unleashed advantage.", who=c.name))
    return enc.update(c.id, unleashed_adv_round=enc.round)


def second_wind(enc: RCEncounter, c: RCCombatant, chance) -> tuple[RCEncounter, list[Event]]:
    """1d4 Wounds back, once per encounter, as the Action."""
    if not c.unleashed:
        raise NotAllowed(say("Only an Unleashed villain has a second wind; {who} is not Unleashed.", who=c.name))
    if c.second_wind_used:
        raise NotAllowed(say("{who} has already used their second wind.", who=c.name))
    roll = chance.roll("1d4")
    healed = min(roll.total, c.max_wounds - c.wounds)
    c, _ = dmg.settle(c.but(wounds=c.wounds + healed, second_wind_used=True))
    enc = enc.with_combatant(c)
    wind = dict(who=c.name, roll=roll.total, healed=secret(healed, c), status=dmg.status(c))
    text = say_plural(
        "{who} catches a second wind: 1d4 ({roll}) → {healed} Wound back ({status}).",
        "{who} catches a second wind: 1d4 ({roll}) → {healed} Wounds back ({status}).",
        None if c.hidden else healed,
        **wind,
    )
    return enc, [Event(kind="roll", text=text)]


def danger_zone(system, enc: RCEncounter, where: list[str], chance) -> tuple[RCEncounter, list[Event]]:
    keys = sorted((e.key[0] for e in enc.turns.entries), reverse=True)
    if not keys:
        raise InvalidInput(
            say("Roll initiative for everyone first: the Danger Zone goes in the middle and/or at the end.")
        )
    events = [Event(kind="warning", text=say("Danger Zone: the environment takes turns as a threat."))]
    taken = {c.name for c in enc.combatants if c.environment}
    for spot in where:
        if f"Danger Zone ({spot})" in taken:
            raise InvalidInput(
                say(
                    "The Danger Zone already has its `{spot}` turn (the seed gives it one or two a round): remove "
                    "“Danger Zone ({spot})” with /initiative remove to place it again.",
                    spot=spot,
                )
            )
    for spot in where:
        if spot == "middle":
            upper = (len(keys) - 1) // 2
            key = (keys[upper] + keys[upper + 1]) / 2 if len(keys) > 1 else keys[0] - 0.5
        elif spot == "end":
            key = keys[-1] - 1
        else:
            raise InvalidInput(say("A Danger Zone acts in the `middle` and/or at the `end` of the round."))
        env = system.combatant_type(
            id=f"c{enc.next_id}",
            name=f"Danger Zone ({spot})",
            side="threats",
            npc=True,
            environment=True,
            fixed_init=key,
        )
        enc = enc.but(combatants=enc.combatants + (env,), next_id=enc.next_id + 1)
        enc, more = system.turns.enter(system, enc, [env.id], chance)
        events.extend(more)
    return enc, events


def end_scene(enc: RCEncounter) -> tuple[RCEncounter, list[Event]]:
    """All Stamina back (half if Unconscious); scene effects and limits reset."""
    lines: list[Text] = []
    combatants = []
    for c in enc.combatants:
        if c.out or c.environment or c.echo_of:
            combatants.append(c.but(aided_this_scene=False, ongoing_total=0))
            continue
        c = _scene_over(c)
        if c.zombie:
            combatants.append(c)  # no Stamina to recover, but what lasted the scene ends for it too
            continue
        stamina = cond.scene_stamina(c.max_stamina, cond.knocked_out(c))
        if c.horde_wear:
            c = c.but(horde_wear=(c.max_stamina, 0, c.horde_wear[2], 0))
        c = c.but(stamina=max(c.stamina, stamina), temp_stamina=0)
        c, _ = dmg.settle(c)
        combatants.append(c)
        lines.append(seq(c.name, " ", dmg.status(c)))
    enc = enc.but(combatants=tuple(combatants))
    head = say("End of scene: Stamina recovers (half if Unconscious); once-per-scene limits reset.")
    return enc, [Event(kind="info", text=seq("🎬 ", head, " ", joined("; ", lines)))]


def _scene_over(c: RCCombatant) -> RCCombatant:
    """What ends with a scene for anyone, zombie or not: conditions lasting the scene, the continuous-damage
    count, once-per-scene limits and what was under way."""
    if c.horde_wear:
        c = c.but(horde_wear=c.horde_wear[:3] + (0,))
    return c.but(
        conditions=tuple(x for x in c.conditions if x.until != "scene"),
        aided_this_scene=False,
        ongoing_total=0,
        demanding=None,
        dodging=False,
        ready="",
        assisted_by=(),
    )


def surprise() -> Condition:
    return Condition(name="Stunned", tags=("Lesser", "Surprise"), until="turn_end", owner=None, since_turn=0)
