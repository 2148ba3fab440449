"""99 Towers' checks out of a fight (`/check`): the seed's "Skill, Aspect, and Attribute Checks".

Every check is a flip against a flip. Against an effect (`dc`: its Attack value, the cards it
flips), the character flips the stat's value in cards and "you only take the value of the flip";
the effect attacks as an attack does, so resisting takes a higher card. Against another character
(`against:`), the one rolling the check acts and wins on a tie, as an attacker hits on one. A
skill check flips the skill's ranks and adds "the matching Aspect score". The cards come from the
campaign's deck, reshuffled when it runs out (the seed has no Jokers).
"""

from __future__ import annotations

from typing import Any

from rules.between import refuse_dead
from rules.commands import integer
from rules.errors import InvalidInput, Stale
from rules.randomness import Chance
from rules.said import N_, Text, say, seq, term
from rules.system import CheckKind, CheckOutcome, CheckRequest, Resting, known_options
from rules.usertext import listed

from .flips import Flip, Mods, described, flip, resist
from .modifiers import user_mods
from .sheet import TowersSheet, stat_label

SKILL = "skill"
ASPECTS = ("ss", "hs", "endurance")  # the Aspects a sheet holds, one of which a skill check adds
# A stat check per value a seed's effect may attack, as `/save` takes them in a fight.
STATS = {
    "endurance": (N_("External Endurance"), N_("External Endurance cards vs a poison's Attack (dc) or another's flip")),
    "ss": (N_("Soft Strength"), N_("Soft Strength cards vs an effect's Attack (dc) or another's flip")),
    "hs": (N_("Hard Strength"), N_("Hard Strength cards vs an effect's Attack (dc) or another's flip")),
    "pd": (N_("Physical Defense"), N_("Physical Defense cards vs an effect's Attack (dc) or another's flip")),
    "id": (N_("Intangible Defense"), N_("Intangible Defense cards vs a spell's Attack (dc) or another's flip")),
    "pa": (N_("Physical Attack"), N_("Physical Attack cards vs a flip of dc cards or another's flip")),
    "sa": (N_("Spell Attack"), N_("Spell Attack cards vs a flip of dc cards or another's flip")),
    "init": (N_("Initiative"), N_("Initiative cards vs a flip of dc cards or another's flip")),
    "er": (N_("External Resilience"), N_("External Resilience cards vs an effect's Attack (dc) or another's flip")),
    "ir": (N_("Internal Resilience"), N_("Internal Resilience cards vs an effect's Attack (dc) or another's flip")),
}
KINDS = (
    *(CheckKind(key=key, label=label, help=help, opposed=True) for key, (label, help) in STATS.items()),
    CheckKind(
        key=SKILL,
        label=N_("Skill"),
        help=N_("the skill's ranks in cards, plus its Aspect: options `ranks=3 aspect=ss`"),
        opposed=True,
    ),
)
# flip/shift: (flip±N)/(shift±N), e.g. a specialization; vs: the other's stat; ranks/aspect: a skill check's,
# vs_ranks/vs_aspect: the other's in an opposed skill check.
OPTIONS = ("flip", "shift", "vs", "ranks", "aspect", "vs_ranks", "vs_aspect")
SKILL_SHOWN = N_("skill")


def check(request: CheckRequest, chance: Chance) -> CheckOutcome:
    known_options(request.options, OPTIONS, say("99 Towers"))
    refuse_dead(request.who.name, request.who.lasting)
    if request.against is not None:
        refuse_dead(request.against.name, request.against.lasting)
        if request.dc is not None:
            raise InvalidInput(say("Give a dc (an effect's Attack) or against (another character), not both."))
        return _opposed(request, request.against, chance)
    if request.dc is None:
        raise InvalidInput(
            say(
                "A {kind} check needs dc: the effect's Attack value (how many cards it flips), "
                "or against: another character.",
                kind=term(_label(request.kind)),
            )
        )
    attack = integer(request.dc, "dc", 1, 30)
    label, cards, mods = _pool(request.who, request.kind, request.options, "ranks", "aspect")
    mods = mods + user_mods(request.options, "flip", "shift", _why())
    effect, mine, resisted = resist(chance, attack, cards, mods)
    theirs = described(label, cards, mods, mine)
    if resisted:
        template = N_("Attack {n}: {cards} vs {who} {flip} → resisted")
    else:
        template = N_("Attack {n}: {cards} vs {who} {flip} → affected")
    line = say(template, n=attack, cards=effect.text(), who=request.who.name, flip=theirs)
    return CheckOutcome(lines=(line,), campaign=_deck(request, chance))


def check_again(request: CheckRequest, memo: dict[str, Any], offer: str, chance: Chance) -> CheckOutcome:
    """A 99 Towers check offers nothing to take afterwards."""
    raise Stale(say("That check is over: its offer has passed."))


def _opposed(request: CheckRequest, other: Resting, chance: Chance) -> CheckOutcome:
    label, cards, mods = _pool(request.who, request.kind, request.options, "ranks", "aspect")
    mods = mods + user_mods(request.options, "flip", "shift", _why())
    vs = str(request.options.get("vs") or request.kind).strip().casefold()
    if vs not in STATS and vs != SKILL:
        raise InvalidInput(say("`vs`: one of {stats}.", stats=listed(f"`{key}`" for key in (*STATS, SKILL))))
    other_label, other_cards, other_mods = _pool(other, vs, request.options, "vs_ranks", "vs_aspect")
    mine = flip(chance, cards, mods)
    theirs = flip(chance, other_cards, other_mods)
    lines = (
        _shown(request.who, label, cards, mods, mine),
        _shown(other, other_label, other_cards, other_mods, theirs),
        _verdict(request.who, other, mine, theirs),
    )
    return CheckOutcome(lines=lines, campaign=_deck(request, chance))


def _pool(who: Resting, kind: str, options: dict[str, Any], ranks_key: str, aspect_key: str) -> tuple[Text, int, Mods]:
    """What a character flips for a check: (label, cards, the Aspect a skill adds)."""
    sheet = TowersSheet(**who.sheet)
    if kind != SKILL:
        return stat_label(kind), getattr(sheet, kind), Mods()
    if options.get(ranks_key) in (None, True):
        raise InvalidInput(
            say("A skill check needs {who}'s ranks in the skill: `{key}=N`.", who=who.name, key=ranks_key)
        )
    ranks = integer(options[ranks_key], ranks_key, 0, 30)
    aspect = str(options.get(aspect_key) or "").strip().casefold()
    if aspect not in ASPECTS:
        raise InvalidInput(
            say(
                "A skill check adds the matching Aspect: `{key}=` one of {aspects}.",
                key=aspect_key,
                aspects=listed(f"`{a}`" for a in ASPECTS),
            )
        )
    added = getattr(sheet, aspect)
    return term(SKILL_SHOWN), ranks, Mods().plus(shift=added, why=stat_label(aspect))


def _shown(who: Resting, label: Text, cards: int, mods: Mods, result: Flip) -> Text:
    return seq(who.name, " ", described(label, cards, mods, result))


def _verdict(who: Resting, other: Resting, mine: Flip, theirs: Flip) -> Text:
    if mine.total > theirs.total:
        return say(
            "{mine} vs {theirs}: {who} wins by {n}.",
            mine=mine.total,
            theirs=theirs.total,
            who=who.name,
            n=mine.total - theirs.total,
        )
    if mine.total == theirs.total:
        return say(
            "{mine} vs {theirs}: a tie goes to {who}, who acts (as an attack hits on a tie).",
            mine=mine.total,
            theirs=theirs.total,
            who=who.name,
        )
    return say(
        "{mine} vs {theirs}: {who} wins by {n}.",
        mine=mine.total,
        theirs=theirs.total,
        who=other.name,
        n=theirs.total - mine.total,
    )


def _why() -> Text:
    return say("modifier")


def _label(kind: str) -> str:
    return next(k.label for k in KINDS if k.key == kind)


def _deck(request: CheckRequest, chance: Chance) -> dict[str, Any] | None:
    """The campaign's deck after the flip; None when no card came from it (all entered)."""
    before = list(request.campaign.get("deck") or ())
    if chance.deck == before:
        return None
    return request.campaign | {"deck": list(chance.deck)}
