"""A hidden NPC's numbers: the channel never reads them, the GM always does.

The Gorgon is a hidden NPC with numbers that no die, zone or player's sheet
here can print (STR 17, AGI 19, WIT 18, health 47, grit 23, a claw d10 and a
spit of range 14; large). Every way a fight prints its numbers is played:
being attacked, each reaction (dodge, counter, hide behind, guard), opportunity
attacks, the GM's damage and healing, its own attacks, saves, manoeuvres,
morale, the turn summary and refusals. Every text (events, summaries, pending
prompts and options, turn summaries, errors) must hide them from the channel
(`conceal`) and show them to the GM (`reveal`); the same fight with the Gorgon
in plain sight prints the same numbers without any mark.
"""

from __future__ import annotations

import re

import pytest

from rules.actions import AddCombatants, Choose
from rules.engine import apply
from rules.errors import RulesError
from rules.said import english
from rules.secrets import conceal, has_secrets, reveal
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import (
    ApplyDamage,
    Attack,
    BreakFree,
    FreeAlly,
    Heal,
    OpportunityAttack,
    RollSave,
    SetCondition,
)
from rules.text import Text
from rules.turns.factions import PassMove
from tests.rules.derive import changes, derivable, equations
from tests.rules.test_factions_helpers import (
    BALTHASAR_ID,
    GM,
    SYBILLA_ID,
    THEOBALD_ID,
    give_turn,
    mark_acted,
    new,
    options,
    pass_move,
    player,
    start,
)

BRUTE_ID = THEOBALD_ID + 1
BALTHASAR, SYBILLA, BRUTE = player(BALTHASAR_ID), player(SYBILLA_ID), player(BRUTE_ID)
GORGON = "str=17 agi=19 wit=18 health=47 grit=23 armour=2 size=large weapons='claw:d10, spit:d8:14'"
# The Gorgon's sheet: none of these may reach the channel.
SHEET_NUMBERS = {"17", "19", "18", "47", "23", "14"}


def _add(enc, name, stats, *, user=None, hidden=False):
    action = AddCombatants(
        by=player(user) if user else GM,
        name=name,
        sheet=SYSTEM.parse_sheet(stats),
        npc=user is None,
        controller_id=user,
        hidden=hidden,
    )
    return apply(enc, action).state


def fight(hidden: bool, **options):
    """Two players, a large player (Brute), the Gorgon and a plain Cultist; the GM's side moves first."""
    enc = new(**options)
    enc = _add(enc, "Balthasar", "weapons='sword:d6' health=12 grit=3", user=BALTHASAR_ID)
    enc = _add(enc, "Sybilla", "weapons='dagger:d4, musket:d8:6' health=10 grit=2", user=SYBILLA_ID)
    enc = _add(enc, "Brute", "weapons='maul:d10:great' health=11 grit=5 size=large", user=BRUTE_ID)
    enc = _add(enc, "Gorgon", GORGON, hidden=hidden)
    enc = _add(enc, "Cultist", "weapons='knife:d4' health=8")
    return start(enc).state


def only(enc, acting, *free):
    """`acting`'s turn; everybody else has acted, except `free` (who may react or guard)."""
    enc = give_turn(enc, acting)
    return mark_acted(enc, *[c.name for c in enc.combatants if c.name not in (acting, *free)])


class Log:
    """Every text an action produces: events, summary, and the choice it waits on."""

    def __init__(self) -> None:
        self.texts: list[Text | str] = []  # as said: `conceal` and `reveal` read their secrets
        self.known: list[set[int]] = []  # with each text: what its action took from or gave visible combatants

    def __call__(self, enc, action):
        out = apply(enc, action)
        shown = len(self.texts)
        self.texts += [e.said for e in out.events] + [out.summary]
        if out.state.pending is not None:
            self.texts += [out.state.pending.prompt, *out.state.pending.labels]
        self.known += [changes([enc, out.state], "health", "grit")] * (len(self.texts) - shown)
        return out

    def choose(self, enc, option, by=GM, dice=()):
        return self(enc, Choose(by=by, pending_id=enc.pending.id, option=option, dice=dice))

    def refused(self, enc, action) -> str:
        with pytest.raises(RulesError) as error:
            apply(enc, action)
        self.texts.append(error.value.said)
        self.known.append(set())
        return str(error.value)


def attack(targets, weapon=None, by=GM, dice=(), **extra):
    targets = tuple(targets) if isinstance(targets, (list, tuple)) else (targets,)
    return Attack(by=by, targets=targets, weapon=weapon, dice=dice, **extra)


# --- the scenarios: each plays one path and names the Gorgon's numbers it prints ---------


def attacked_without_reaction(log, hidden):
    enc = only(fight(hidden), "Balthasar", "Gorgon")
    out = log(enc, attack("Gorgon", "sword", by=BALTHASAR, dice=(6,)))
    assert options(out.state.pending)[:3] == ("No reaction", "Dodge", "Counter: claw")
    out = log.choose(out.state, "No reaction")
    assert out.state.find("Gorgon").grit == 22
    return {"22", "23"}


def attacked_to_the_bone(log, hidden):
    enc = only(fight(hidden), "Balthasar")
    enc = enc.update(enc.find("Gorgon").id, grit=0)
    out = log(enc, attack("Gorgon", "sword", by=BALTHASAR, dice=(6,)))
    assert out.state.find("Gorgon").health == 46 and out.state.find("Gorgon").incapacitated
    return {"47", "46"}


def dodges(log, hidden):
    enc = only(fight(hidden), "Balthasar", "Gorgon")
    out = log(enc, attack("Gorgon", "sword", by=BALTHASAR))
    out = log.choose(out.state, "Dodge", dice=(5,))
    assert out.state.find("Gorgon").grit == 23
    out = log(enc, attack("Gorgon", "sword", by=BALTHASAR, dice=(6,)))
    out = log.choose(out.state, "Dodge", dice=(20,))  # a natural 20: hit anyway
    assert out.state.find("Gorgon").grit == 22
    return {"19", "22", "23"}


def counters(log, hidden):
    enc = only(fight(hidden), "Balthasar", "Gorgon")
    out = log(enc, attack("Gorgon", "sword", by=BALTHASAR, dice=(6,)))
    # Balthasar's d6 6 halved to 3 (1 after armour); the Gorgon's 2d10 (1, 1) = 2 hits him first.
    out = log.choose(out.state, "Counter: claw", dice=(1, 1))
    assert out.state.find("Balthasar").grit == 1 and out.state.find("Gorgon").grit == 22
    return {"22", "23"}


def hides_behind_and_is_hidden_behind(log, hidden):
    enc = only(fight(hidden), "Balthasar", "Gorgon", "Cultist")
    out = log(enc, attack("Gorgon", "sword", by=BALTHASAR, dice=(4,)))
    out = log.choose(out.state, "Hide behind: Cultist")
    out = log.choose(out.state, "No reaction")
    assert out.state.find("Cultist").health == 4 and out.state.find("Gorgon").grit == 23
    # The Cultist hides behind the Gorgon, who has acted: it takes the blow at once.
    enc = only(fight(hidden), "Balthasar", "Cultist")
    out = log(enc, attack("Cultist", "sword", by=BALTHASAR, dice=(6,)))
    out = log.choose(out.state, "Hide behind: Gorgon")
    assert out.state.pending is None and out.state.find("Gorgon").grit == 22
    return {"22", "23"}


def guards(log, hidden):
    enc = only(fight(hidden), "Balthasar", "Gorgon")
    out = log(enc, attack("Cultist", "sword", by=BALTHASAR, dice=(6,)))
    assert options(out.state.pending) == ("No reaction", "Guard: Gorgon")
    out = log.choose(out.state, "Guard: Gorgon")
    assert out.state.find("Gorgon").grit == 22 and out.state.find("Cultist").health == 8
    return {"22", "23"}


def opportunity_attacks(log, hidden):
    enc = only(fight(hidden), "Balthasar", "Gorgon")
    out = log(enc, OpportunityAttack(by=GM, actor="Gorgon", targets=("Balthasar",), weapon="claw", dice=(3, 4)))
    assert out.state.find("Balthasar").health == 8
    enc = only(fight(hidden), "Gorgon", "Balthasar")
    out = log(enc, OpportunityAttack(by=BALTHASAR, actor="Balthasar", targets=("Gorgon",), weapon="sword", dice=(6,)))
    assert out.state.find("Gorgon").grit == 22
    return {"22", "23"}


def gm_damage_and_healing(log, hidden):
    enc = fight(hidden)
    out = log(enc, ApplyDamage(by=GM, target="Gorgon", amount="30"))
    gorgon = out.state.find("Gorgon")
    assert (gorgon.grit, gorgon.health, gorgon.incapacitated) == (0, 42, True)
    out = log(out.state, Heal(by=GM, target="Gorgon", amount="3"))
    out = log(out.state, Heal(by=GM, target="Gorgon", amount="5", grit=True))
    out = log(out.state, ApplyDamage(by=GM, target="Gorgon", amount="2", direct=True))
    gorgon = out.state.find("Gorgon")
    assert (gorgon.grit, gorgon.health) == (5, 43)
    return {"28", "23", "47", "42", "45", "43"}


def resists_critical_damage(log, hidden):
    enc = fight(hidden, critical_str_save=True)
    enc = enc.update(enc.find("Gorgon").id, grit=0)
    out = log(enc, ApplyDamage(by=GM, target="Gorgon", amount="9", dice=(4,)))
    gorgon = out.state.find("Gorgon")
    assert (gorgon.health, gorgon.incapacitated) == (40, False)
    return {"17", "47", "40"}


def attacks_a_player(log, hidden):
    enc = only(fight(hidden), "Gorgon", "Balthasar")
    out = log(enc, attack("Balthasar", "claw"))
    out = log.choose(out.state, "Dodge", by=BALTHASAR, dice=(4,))
    assert out.state.find("Balthasar").grit == 3
    out = log(enc, attack("Balthasar", "claw", dice=(1, 1)))
    # The Gorgon's 2d10 (1, 1) = 2; Balthasar's d6 6 halved to 3, 1 after armour: he is hit first.
    out = log.choose(out.state, "Counter: sword", by=BALTHASAR, dice=(6,))
    assert out.state.find("Balthasar").grit == 1 and out.state.find("Gorgon").grit == 22
    return {"22", "23"}


def shoots_beyond_half_range(log, hidden):
    enc = only(fight(hidden), "Gorgon")
    out = log(enc, attack("Balthasar", "spit", zones=5, dice=(5, 2, 3)))
    assert out.state.find("Balthasar").health == 10
    out = log(enc, attack("Balthasar", "spit", zones=5, dice=(20,)))
    assert out.state.find("Balthasar").health == 12
    return {"18", "14"}


def saves(log, hidden):
    enc = fight(hidden)
    for kind, die in (("str", 4), ("agi", 20), ("wit", 16)):
        enc = log(enc, RollSave(by=GM, actor="Gorgon", attribute=kind, why="against the gas", dice=(die,))).state
    return {"17", "19", "18"}


def manoeuvres(log, hidden):
    enc = only(fight(hidden), "Brute", "Gorgon")
    out = log(enc, attack("Gorgon", "maul", by=BRUTE, mode="disarm"))
    out = log.choose(out.state, "No reaction", dice=(3,))
    assert out.state.find("Gorgon").dropped == ()
    out = log(enc, attack("Gorgon", "maul", by=BRUTE, mode="grapple"))
    out = log.choose(out.state, "Counter: claw", dice=(2, 16))  # the claw first, then the STR save
    assert out.state.find("Brute").grit == 3 and out.state.find("Gorgon").grabbed_by is None
    # Held by the Brute, the Gorgon breaks free; then it frees the Cultist.
    enc = fight(hidden)
    enc = apply(enc, SetCondition(by=GM, target="Gorgon", condition="grabbed", by_whom="Brute")).state
    enc = apply(enc, SetCondition(by=GM, target="Cultist", condition="grabbed", by_whom="Balthasar")).state
    out = log(give_turn(enc, "Gorgon"), BreakFree(by=GM, actor="Gorgon", dice=(4,)))
    assert out.state.find("Gorgon").grabbed_by is None
    enc = give_turn(out.state, "Gorgon")
    out = log(enc, FreeAlly(by=GM, actor="Gorgon", target="Cultist", dice=(20,)))
    assert out.state.find("Cultist").grabbed_by is not None
    return {"17"}


def morale(log, hidden):
    enc = apply(fight(hidden), SetCondition(by=GM, target="Cultist", condition="incapacitated")).state
    enc = pass_move(enc).state
    out = log(enc, PassMove(by=GM, dice=(20,)))  # the GM passes for the players: the Gorgon's morale breaks
    assert out.state.pending.kind == "morale"
    out = log.choose(out.state, "Flee")
    assert out.state.find("Gorgon").fled
    enc = apply(fight(hidden), SetCondition(by=GM, target="Cultist", condition="incapacitated")).state
    out = log(pass_move(enc).state, PassMove(by=GM, dice=(9,)))  # the GM passes for the players
    assert out.state.find("Gorgon").morale_immune
    return {"18"}


def turn_summary(log, hidden):
    enc = fight(hidden)
    enc = give_turn(enc, "Gorgon")
    log.texts += SYSTEM.turn_summary(enc, enc.find("Gorgon").id)
    log.texts += SYSTEM.turn_summary(enc.but(turns=enc.turns.but(active=None)), enc.find("Gorgon").id)
    return {"14"}


def refusals(log, hidden):
    enc = only(fight(hidden), "Sybilla", "Gorgon")
    assert "zones" in log.refused(enc, attack("Gorgon", "musket", by=SYBILLA, zones=13))
    enc = only(fight(hidden), "Brute", "Gorgon")
    assert "Too many dice" in log.refused(enc, attack("Gorgon", "maul", by=BRUTE, dice=(1, 2, 3)))
    enc = enc.update(enc.find("Brute").id, size="massive")
    assert "share out" in log.refused(enc, attack(["Gorgon", "Cultist"], "maul", by=BRUTE, split=(1, 1)))
    return set()  # only size-derived numbers here: the exact lines are checked below


SCENARIOS = {
    f.__name__: f
    for f in (
        attacked_without_reaction,
        attacked_to_the_bone,
        dodges,
        counters,
        hides_behind_and_is_hidden_behind,
        guards,
        opportunity_attacks,
        gm_damage_and_healing,
        resists_critical_damage,
        attacks_a_player,
        shoots_beyond_half_range,
        saves,
        manoeuvres,
        morale,
        turn_summary,
        refusals,
    )
}


def play(name: str, hidden: bool) -> tuple[list[Text | str], set[str]]:
    log = Log()
    numbers = SCENARIOS[name](log, hidden)
    return log.texts, numbers


def shows(number: str, text: str) -> bool:
    return re.search(rf"(?<!\d){number}(?!\d)", text) is not None


# --- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", SCENARIOS)
def test_players_never_read_the_hidden_gorgons_numbers(name):
    texts, numbers = play(name, hidden=True)
    for text in texts:
        public = conceal(text)
        leaked = {n for n in numbers | SHEET_NUMBERS if shows(n, public)}
        assert not leaked, f"{sorted(leaked)} shown to the channel in: {public!r}"


@pytest.mark.parametrize("name", SCENARIOS)
def test_players_cannot_derive_a_hidden_number(name):
    """No sum, difference or margin of the public lines, nor what a visible combatant lost, gives one of
    the Gorgon's numbers away."""
    log = Log()
    numbers = SCENARIOS[name](log, True)
    known = log.known + [set()] * (len(log.texts) - len(log.known))  # texts read without an action: turn summaries
    derived = {str(n) for n in derivable([(conceal(t), moved) for t, moved in zip(log.texts, known, strict=True)])}
    assert not derived & (numbers | SHEET_NUMBERS), sorted(derived & (numbers | SHEET_NUMBERS))


@pytest.mark.parametrize("name", SCENARIOS)
def test_nobody_can_count_how_many_dice_a_hidden_size_gives_or_how_often_it_halves(name):
    texts, _ = play(name, hidden=True)
    assert not equations([conceal(t) for t in texts]).counted


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_gm_reads_every_hidden_number(name):
    texts, numbers = play(name, hidden=True)
    gm = "\n".join(reveal(t) for t in texts)
    assert all(has_secrets(t) is False for t in map(reveal, texts))
    missing = {n for n in numbers if not shows(n, gm)}
    assert not missing, f"the GM cannot read {sorted(missing)}"
    assert any(has_secrets(t) for t in texts), "nothing was marked secret"


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_same_fight_in_plain_sight_has_no_marks(name):
    texts, numbers = play(name, hidden=False)
    marked = [t for t in texts if has_secrets(t)]
    assert not marked
    plain = "\n".join(map(english, texts))
    assert all(shows(n, plain) for n in numbers)  # the path really prints these numbers


def lines(name: str, hidden: bool = True) -> list[str]:
    return [conceal(t) for t in play(name, hidden)[0]]


def test_each_result_line_as_the_channel_reads_it():
    assert "Balthasar → Gorgon: ?d6 (?) halved ×? (smaller attacker) ? → 3." in lines("attacked_without_reaction")
    assert "Gorgon: 3 damage; − armour ? = ?; grit soaks ? (grit ?/?)." in lines("attacked_without_reaction")
    assert (
        "Gorgon: 3 damage; − armour ? = ?; grit soaks ? (grit ?/?); health ? → ?; critical damage: incapacitated."
        in lines("attacked_to_the_bone")
    )
    assert "Gorgon AGI save to dodge: d20 5 vs AGI ? → pass: the attack misses." in lines("dodges")
    assert "Gorgon AGI save to dodge: d20 20 vs AGI ? → natural 20: fail: hit anyway." in lines("dodges")
    # the faces and the sum halved are secret too: counting the faces, or 6 → 3, would tell the sizes
    assert (
        "Balthasar rolls ?d6 (?) halved ×? (smaller attacker) ? → 3 → ? after armour for Gorgon; "
        "Gorgon counters with ?d? (?) → 2 after armour for Balthasar."
    ) in lines("counters")
    assert "Balthasar: 2 damage; grit soaks 2 (grit 1/3)." in lines("counters")  # his own numbers stay
    assert "Balthasar → Cultist: d6 4." in lines("hides_behind_and_is_hidden_behind")
    assert "Gorgon guards Cultist and becomes the target." in lines("guards")
    opportunity = lines("opportunity_attacks")
    assert "Gorgon makes an opportunity attack on Balthasar with claw (d?)." in opportunity
    assert "Gorgon → Balthasar: ?d? (?)." in opportunity
    assert "Balthasar: 7 damage; grit soaks 3 (grit 0/3); health 12 → 8; critical damage: incapacitated." in opportunity
    gm = lines("gm_damage_and_healing")
    assert gm[0] == (
        "Gorgon: 30 damage; − armour ? = ?; grit soaks ? (grit ?/?); health ? → ?; critical damage: incapacitated."
    )
    assert "Gorgon heals: health ? → ?/?." in gm
    assert "Gorgon recovers grit: ? → ?/?." in gm
    assert "Gorgon: 2 damage; direct; health ? → ?." in gm
    assert (
        "Gorgon: 9 damage; − armour ? = ?; grit soaks ? (grit ?/?); health ? → ?; critical damage resisted "
        "(Gorgon STR save against critical damage: d20 4 vs STR ? → pass)."
    ) in lines("resists_critical_damage")
    player_side = lines("attacks_a_player")
    assert "Balthasar AGI save to dodge: d20 4 vs AGI 10 → pass: the attack misses." in player_side
    assert (
        "Gorgon rolls ?d? (?) → 2 after armour for Balthasar; Balthasar counters with ?d6 (?) halved ×? "
        "(smaller attacker) ? → 3 → ? after armour for Gorgon."
    ) in player_side
    shots = lines("shoots_beyond_half_range")
    assert (
        "Gorgon attacks Balthasar with spit (d?, range ?): Gorgon WIT save to hit (beyond half range): "
        "d20 5 vs WIT ? → pass."
    ) in shots
    assert "Gorgon → Balthasar: ?d? (?)." in shots and "Gorgon misses." in shots
    assert lines("saves")[0] == "Gorgon STR save against the gas: d20 4 vs STR ? → pass."
    moves = lines("manoeuvres")
    assert "Gorgon STR save to resist: d20 3 vs STR ? → pass." in moves
    assert "Gorgon counters first (non-lethal attacks resolve last): ?d? (?)." in moves
    assert "Gorgon STR save to break free of Brute: d20 4 vs STR ? → pass: free!" in moves
    assert "Gorgon STR save to free Cultist: d20 20 vs STR ? → natural 20: fail: Cultist is still held." in moves
    assert "Gorgon WIT save (morale): d20 20 vs WIT ? → natural 20: fail: breaks." in lines("morale")
    assert "Gorgon failed the morale check: surrender or flee?" in lines("morale")
    assert "Weapons: claw (d?), spit (d?, range ?), unarmed (d4)" in lines("turn_summary")
    refused = lines("refusals")
    assert refused[0] == "Gorgon is beyond the musket's range (? zones)."
    assert "this attack rolls ? dice of its own" in refused[1]
    assert "(Gorgon ?, Cultist 4)" in refused[2]


def test_the_plain_lines_are_unchanged():
    assert "Balthasar → Gorgon: d6 6 halved (smaller attacker) 6 → 3." in lines("attacked_without_reaction", False)
    assert "Gorgon: 3 damage; − armour 2 = 1; grit soaks 1 (grit 22/23)." in lines("attacked_without_reaction", False)
    assert "Gorgon → Balthasar: 2d10 (3, 4)." in lines("opportunity_attacks", False)
    assert "Weapons: claw (d10), spit (d8, range 14), unarmed (d4)" in lines("turn_summary", False)
    assert lines("refusals", False)[0] == "Gorgon is beyond the musket's range (12 zones)."
    assert "this attack rolls 1 die of its own" in lines("refusals", False)[1]


def test_the_gm_reads_the_size_and_the_sheet_die():
    gm = [reveal(t) for t in play("opportunity_attacks", True)[0]]
    assert "Gorgon → Balthasar: 2d10 (3, 4)." in gm
    assert "Gorgon makes an opportunity attack on Balthasar with claw (d10)." in gm
    gm = [reveal(t) for t in play("attacked_without_reaction", True)[0]]
    assert "Balthasar → Gorgon: 1d6 (6) halved ×1 (smaller attacker) 6 → 3." in gm


def test_status_lines_mark_the_hidden_numbers():
    enc = fight(True)
    gorgon = enc.find("Gorgon")
    full = SYSTEM.status_line(enc, gorgon, reveal=True)
    assert reveal(full) == "health 47/47 · grit 23/23 · armour 2 · large"
    assert conceal(full) == "health ?/? · grit ?/? · armour ? · ?"
    assert not has_secrets(SYSTEM.status_line(enc, gorgon, reveal=False))
    plain = fight(False)
    assert not has_secrets(SYSTEM.status_line(plain, plain.find("Gorgon"), reveal=True))


def test_a_concealed_hidden_npc_reads_as_any_other_hidden_npc():
    """Players do not see who hides: the channel's line for a hidden NPC that is concealed is the one
    any other hidden NPC reads (unhurt, wounded), not a blank that singles out whoever hides."""
    enc = fight(True)
    gorgon = enc.find("Gorgon")
    seen = english(SYSTEM.status_line(enc, gorgon, reveal=False))
    enc = apply(enc, SetCondition(by=GM, target="Gorgon", condition="concealed")).state
    assert english(SYSTEM.status_line(enc, enc.find("Gorgon"), reveal=False)) == seen == "unhurt"
    enc = enc.update(gorgon.id, health=40)
    assert english(SYSTEM.status_line(enc, enc.find("Gorgon"), reveal=False)) == "wounded"
    assert "concealed" in english(SYSTEM.status_line(enc, enc.find("Gorgon"), reveal=True))
