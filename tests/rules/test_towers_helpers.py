"""Building 99 Towers encounters for tests, driven only through the engine."""

from __future__ import annotations

from rules.actions import AddCombatants, Choose, NextTurn
from rules.engine import apply
from rules.model import Actor
from rules.systems.towers import SYSTEM

GM = Actor(user_id=1, is_gm=True)
PLAYER = Actor(user_id=2)


def new():
    return SYSTEM.new_encounter(gm_id=1, rng_state=12345)


def add(enc, name, cards, stats="", *, player=False, surprised=False, by=None):
    """Add one combatant; `cards` are its initiative flip (then any flip-off)."""
    action = AddCombatants(
        by=by or (PLAYER if player else GM), name=name, sheet=SYSTEM.parse_sheet(stats),
        npc=not player, controller_id=PLAYER.user_id if player else None,
        surprised=surprised, cards=tuple(cards.split()),
    )
    return apply(enc, action)


def run(enc, action):
    return apply(enc, action)


def command(enc, name, by=GM, **options):
    return apply(enc, SYSTEM.command(name, by, options))


def begin(enc):
    return apply(enc, NextTurn(by=GM))


def choose(enc, option="Flip", cards="", by=PLAYER):
    return apply(enc, Choose(by=by, pending_id=enc.pending.id, option=option, cards=tuple(cards.split())))


def who(enc):
    return enc.get(enc.turns.current).name if enc.turns.current else None


def texts(outcome):
    return [e.text for e in outcome.events]


def phase_of(enc, name):
    cid = enc.find(name).id
    return next(e.phase for e in enc.turns.entries if e.cid == cid)


# --- a whole fight, for the golden transcript and the clock pictures -------------------
TONY = ("init=2 ss=2 hs=3 pa=4 pd=3 id=2 er=1 px=1 stun=12 lethal=6 endurance=2 "
        "weapons=\"Heavy Rifle: 7 r12 two-handed; Knife: 2+px\"")
BANDIT = "init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=3 endurance=1 weapons=\"Club: 2+hs\""
BOSS = "init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=5 endurance=2 weapons=\"Axe: 4+hs\""


def fight_steps():
    """(label, step) pairs; a step takes the encounter and returns an Outcome."""
    return [
        ("Tony joins", lambda e: add(e, "Tony", "KH 4C", TONY, player=True)),
        ("Bandit joins", lambda e: add(e, "Bandit", "9D", BANDIT)),
        ("Boss joins", lambda e: add(e, "Boss", "QS 5D", BOSS)),
        ("begin", begin),
        ("Tony holds", lambda e: command(e, "act", PLAYER, action="hold")),
        ("Tony steps in before the Boss", lambda e: command(e, "act", PLAYER, action="release", target="Boss")),
        ("Tony shoots the Bandit: a critical", lambda e: command(
            e, "attack", PLAYER, target="Bandit", options="range=10", cards="KH 9H 3C 5S 7D")),
        ("the Boss swings at Tony", lambda e: command(e, "attack", target="Tony", cards="10C 4C 3D 2S")),
        ("Tony flips his defence", lambda e: choose(e, cards="QC 5H 2D")),
        ("Tony's opportunity attack on the fleeing Bandit", lambda e: command(
            e, "act", PLAYER, action="opportunity attack", actor="Tony", target="Bandit",
            options="weapon=knife", cards="AH 2H 3C 4C 5D")),
        ("the Boss power-attacks Tony", lambda e: command(e, "act", action="power attack", target="Tony",
                                                          cards="JH 4D 2C")),
        ("Tony flips his defence", lambda e: choose(e, cards="9C 3S 2H")),
        ("Tony recovers", lambda e: command(e, "act", PLAYER, action="recover")),
        ("the Boss attacks again", lambda e: command(e, "attack", target="Tony", cards="5C 4C 3C 2C")),
        ("Tony flips his defence", lambda e: choose(e, cards="KC 2D 3D")),
        ("Tony shoots the Boss", lambda e: command(
            e, "attack", PLAYER, target="Boss", options="range=3", cards="QH 10S 4S 3D 8C 7C 6C")),
        ("the Boss goes on Full Defense", lambda e: command(e, "act", action="full defense")),
        ("Tony aims", lambda e: command(e, "act", PLAYER, action="aim")),
        ("Tony fires at the defending Boss", lambda e: command(
            e, "attack", PLAYER, target="Boss", options="range=3", cards="AS 2C 3C 4C 5C 9D 8D 7D")),
    ]


def full_fight():
    """Run the fight; yields (label, outcome) after each step."""
    enc = new()
    for label, step in fight_steps():
        outcome = step(enc)
        enc = outcome.state
        yield label, outcome
