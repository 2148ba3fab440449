"""Building 99 Towers encounters for tests, driven only through the engine."""

from __future__ import annotations

from rules.actions import AddCombatants, Choose, NextTurn
from rules.engine import apply
from rules.model import Actor
from rules.systems.towers import SYSTEM
from tests.helpers import GM

PLAYER = Actor(user_id=2)


def new():
    return SYSTEM.new_encounter(gm_id=1, rng_state=12345)


def add(enc, name, cards, stats="", *, player=False, surprised=False, by=None):
    """Add one combatant; `cards` are its initiative flip (then any flip-off)."""
    action = AddCombatants(
        by=by or (PLAYER if player else GM),
        name=name,
        sheet=SYSTEM.parse_sheet(stats),
        npc=not player,
        controller_id=PLAYER.user_id if player else None,
        surprised=surprised,
        cards=tuple(cards.split()),
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


# --- a whole fight: the story of tests/golden/99-towers.script, step for step -----------
BOB = Actor(user_id=3)
TONY = 'init=2 ss=2 hs=2 pa=4 pd=3 id=2 px=1 er=1 endurance=2 stun=12 lethal=6 weapons="Heavy Rifle: 7 r12 two-handed"'
MIRA = (
    'init=1 ss=2 hs=3 pa=3 pd=3 id=2 px=1 er=1 endurance=3 stun=14 lethal=7 weapons="Longblade: 4+px +1pa knight blade"'
)
BANDIT = 'init=1 ss=1 hs=2 pa=3 pd=2 er=1 endurance=2 stun=10 lethal=3 weapons="Club: 2+hs"'
BOSS = 'init=2 ss=2 hs=3 pa=4 pd=3 px=2 er=1 endurance=2 stun=14 lethal=5 weapons="Axe: 4+px"'


def join(enc, name, cards, stats, player):
    action = AddCombatants(
        by=player,
        name=name,
        sheet=SYSTEM.parse_sheet(stats),
        npc=False,
        controller_id=player.user_id,
        cards=tuple(cards.split()),
    )
    return apply(enc, action)


def fight_steps():
    """(label, step) pairs; a step takes the encounter and returns an Outcome."""
    return [
        ("Tony joins", lambda e: join(e, "Tony", "KH 4C", TONY, PLAYER)),
        ("Mira joins", lambda e: join(e, "Mira", "JD", MIRA, BOB)),
        ("Bandit joins", lambda e: add(e, "Bandit", "9D", BANDIT)),
        ("Boss joins", lambda e: add(e, "Boss", "QS 5D", BOSS)),
        ("begin", begin),
        ("Tony holds", lambda e: command(e, "act", PLAYER, action="hold")),
        ("Tony steps in before the Boss", lambda e: command(e, "act", PLAYER, action="release", target="Boss")),
        (
            "Tony shoots the Bandit: a critical",
            lambda e: command(e, "attack", PLAYER, target="Bandit", options="range=10", cards="KH 9H 3C 5S 7D"),
        ),
        (
            "the Boss power-attacks Tony",
            lambda e: command(e, "act", action="power attack", target="Tony", cards="JH 4D 2C"),
        ),
        ("Tony flips real cards", lambda e: choose(e, cards="9C 3S 2H")),
        ("Mira cuts the Boss", lambda e: command(e, "attack", BOB, target="Boss", cards="10S 8H 2C 3D 7C 5S")),
        (
            "Tony's opportunity attack on the fleeing Bandit",
            lambda e: command(e, "act", PLAYER, action="oa", target="Bandit", cards="AH 2H 3C 4C 5D"),
        ),
        ("the Boss attacks Mira", lambda e: command(e, "attack", target="Mira", cards="KH 9C 3S 2D")),
        ("the bot flips Mira's defence", lambda e: choose(e, by=BOB)),
        (
            "Mira steps and attacks",
            lambda e: command(e, "attack", BOB, target="Boss", options="step", cards="6S 4H 3C 2C 8D 2D 9C"),
        ),
        ("Tony recovers", lambda e: command(e, "act", PLAYER, action="recover")),
        ("the Boss goes on Full Defense", lambda e: command(e, "act", action="full defense")),
        ("Tony aims", lambda e: command(e, "act", PLAYER, action="aim")),
        (
            "Mira attacks the defending Boss",
            lambda e: command(e, "attack", BOB, target="Boss", cards="QD 5C 4S 3S 9H 8S 7S 2S"),
        ),
        (
            "Tony fires from 14 spaces",
            lambda e: command(
                e, "attack", PLAYER, target="Boss", options="range=14", cards="AS 2C 3C 4C 5C JD 8D 7D 2D"
            ),
        ),
    ]


def full_fight():
    """Run the fight; yields (label, outcome) after each step."""
    enc = new()
    for label, step in fight_steps():
        outcome = step(enc)
        enc = outcome.state
        yield label, outcome
