"""A hidden NPC's numbers in Fightin' Words: the table reads "?", the GM reads them all.

Every scenario is played twice with the same dice: once with the NPC hidden,
once not. Every text the table could read (events, the outcome's summary, a
pending prompt, the acting fighters' turn summaries) is kept, and:

- the hidden run, as the GM sees it (`reveal`), is word for word the open run;
- the open run carries no marks at all;
- the hidden run, as players see it (`conceal`), shows none of the NPC's numbers.

The NPC's stats are made so that every number they lead to is 100 or more,
while every public number is below 100 except the damage the test itself
enters (`PUBLIC`); the few small secrets (a Target score, a range penalty, a
tied initiative…) are checked one by one.
"""

from __future__ import annotations

import re

import pytest

from rules.actions import AddCombatants
from rules.errors import DiceError
from rules.randomness import Chance
from rules.said import english
from rules.secrets import conceal, has_secrets, reveal
from rules.systems.fightin_words import SYSTEM
from rules.systems.fightin_words.initiative import reroll
from rules.systems.fightin_words.model import Fighter, Sheet
from rules.text import Secret, Text, as_text, walk
from tests.rules.derive import changes, derivable
from tests.rules.test_fightin_words import GM, PLAYER, PLAYER_ID, Fight

MAX_REROLLS = 12

# Toughness 389/383, Will 276/270, Fortitude +701, initiative +930, melee
# damage + 643, attack +249 (Mauve defends against DC 254), ranged +349 (DC 354),
# Block/Dodge/Parry +170/+190/+230.
NEMESIS = {
    "reflex": 410,
    "dex": 520,
    "strength": 640,
    "endurance": 380,
    "spirit": 270,
    "scale": 1,
    "fortitude": 700,
    "weapon_skill": 250,
    "ranged_skill": 350,
    "block": 170,
    "dodge": 190,
    "parry": 230,
    "weapons": "claw:1d6; spit:1d4:15",
}
HERO = {
    "reflex": 3,
    "weapon_skill": 3,
    "ranged_skill": 2,
    "block": 1,
    "dodge": 2,
    "parry": 1,
    "weapons": "arming sword:1d8; crossbow:1d10:15",
}
# Damage the test enters (and what Mauve's Strength 3 makes of it in melee);
# the fear and morale damage the GM deals.
PUBLIC = {381, 384, 441, 444, 999, 272}
BIG = re.compile(r"\d{3,}")


class Table(Fight):
    """A fight that keeps every text anyone at the table could read."""

    def __init__(self, hidden: bool) -> None:
        super().__init__()
        self.hidden = hidden
        self.texts: list[Text] = []
        self.known: list[set[int]] = []  # with each text: what its action did to visible combatants' counts

    def do(self, action):
        before, shown = self.enc, len(self.texts)
        out = super().do(action)
        self.texts += [e.said for e in out.events]
        self.texts.append(as_text(out.summary))
        if out.state.pending is not None:
            self.texts.append(out.state.pending.prompt)
        for cid in out.state.turns.acting:
            self.texts += [as_text(line) for line in SYSTEM.turn_summary(out.state, cid)]
        moved = changes([before, out.state], "wounds", "morale_penalties")
        self.known += [moved] * (len(self.texts) - shown)
        return out

    def add(self, name, init, *, player=False, surprised=False, hidden=False, **sheet):
        """Entered dice must cover every die, so a tie's rerolls are entered too: 6, 5, 4, … as
        many as the ties take (the same in the hidden and the open run)."""
        for rerolls in range(MAX_REROLLS):
            dice = (init, *((6 - i % 6) for i in range(rerolls)))
            try:
                return self.do(
                    AddCombatants(
                        by=GM,
                        name=name,
                        sheet=sheet,
                        npc=not player,
                        controller_id=PLAYER_ID if player else None,
                        surprised=surprised,
                        hidden=hidden and self.hidden,
                        dice=dice,
                    )
                )
            except DiceError as error:
                if "Too few dice" not in str(error):
                    raise
        raise AssertionError(f"{name}'s initiative ties more than {MAX_REROLLS} times")


def setup(table: Table, heroes=("Mauve",)) -> None:
    """Heroes against Nemesis, who goes first (initiative + 930)."""
    for name in heroes:
        table.add(name, 4, player=True, **HERO)
    table.add("Nemesis", 1, hidden=True, **NEMESIS)
    table.next()
    assert table.acting() == ["Nemesis"]


# --- the scenarios -------------------------------------------------------------------
# Each returns (what players read of the hidden run, what only the GM reads):
# small secrets checked one by one.


def mauve_attacks_with_every_defence(t: Table):
    setup(t)
    t.next()  # Mauve's turn
    free = "cost=0"
    # d6 6 + 3 = 9 vs Target 3 (4 − scale 1): hits; Nemesis's defences cannot fail.
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options=free, dice="6")
    t.choose("Block", 1)
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options=f"{free} flanked", dice="5")
    t.choose("Dodge", 2)
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options=f"{free} combo=2", dice="6 4")
    t.choose("Parry", 3, 4)
    t.command("condition_add", target="Nemesis", condition="held")
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options=free, dice="6")
    assert tuple(map(english, t.enc.pending.labels)) == ("Dodge", "No defence")
    t.choose("Dodge", 5)
    t.command("condition_remove", target="Nemesis", condition="held")
    # 384 > Minimum 383: a wound; then 444 ≥ Toughness 388: wound and Dying.
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options=free, dice="6")
    t.choose("No defence")
    t.command("attack", by=PLAYER, target="Nemesis", damage="441", options=free, dice="6")
    t.choose("No defence")
    assert t.f("Nemesis").dying
    t.next(3, 2)  # round 2: Nemesis's dying check, d10 3, d6 2; its turn passes; Mauve's turn
    # Helpless: melee hits without a roll, and wounded while dying it dies.
    t.command("attack", by=PLAYER, target="Nemesis", damage="441", options=free)
    assert t.f("Nemesis").dead
    return (
        [
            "Target ?",
            "Nemesis blocks: d6 1 ? = ? vs DC 7: negated",
            "Nemesis dodges: d6 2 ? = ? vs DC 7",
            "Nemesis parries: d6 3 ? = ? vs DC 7: negated; d6 4 ? = ? vs DC 7",
            "Block ?, Dodge ?, Parry ?",
            "Dodge ?",
            "vs Toughness ?: > Minimum: wound",
            "1 wound → ? in all, Toughness ?",
            "Endurance d6 2 ? = ? vs DC 4: holds on",
            "Nemesis is helpless: melee hits automatically",
            "was wounded while dying and dies",
        ],
        ["Target 3 (4 − scale 1)", "Nemesis's Target 3", "→ 1 in all", "→ 3 in all", "+ 380 − 2 wounds"],
    )


def mauve_shoots_and_calls_her_shots(t: Table):
    setup(t)
    t.next()
    t.command("condition_add", target="Nemesis", condition="prone")
    # Ranged at the head, behind light cover: 381 > Minimum 380 (383 − 3) → wound, Fortitude.
    t.command(
        "attack",
        by=PLAYER,
        target="Nemesis",
        weapon="crossbow",
        damage="381",
        options="cost=0 range=10 cover=light called=head mod=+3/0",
        dice="6",
    )
    t.choose("No defence", 1)
    t.command("condition_remove", target="Nemesis", condition="prone")
    # Melee at a leg: 444 ≥ 387 → wound, a Fortitude check against falling prone.
    t.command("attack", by=PLAYER, target="Nemesis", damage="441", options="cost=0 called=leg", dice="6")
    t.choose("No defence", 2)
    # At a hand: 384 > Minimum 379 (381 − 2): no wound, a Fortitude check against dropping.
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options="cost=0 called=hand", dice="6")
    t.choose("No defence", 3)
    # Concealed and fast, in the open.
    t.command("attack", by=PLAYER, target="Nemesis", damage="381", options="cost=0 concealed speed=60", dice="1")
    return (
        [
            "Target ? (? head +3 prone behind cover cover +3)",
            "Fortitude d6 1 ? = ? vs DC 381: passes",
            "Fortitude d6 2 ? = ? vs DC 444: passes",
            "Fortitude d6 3 ? = ? vs DC 384: passes",
            "Target ? (? concealed +1 speed +2)",
        ],
        ["Target 9 (4 − scale 1 head +3", "vs Toughness 386/380 (head)", "+ 701 = 702"],
    )


def nemesis_attacks_the_heroes(t: Table):
    setup(t, heroes=("Mauve", "Bram", "Cole", "Dana", "Enid"))
    # Claw, +1/+2, flanked: d6 1 + 249 + 1 = 251 vs Target 4; Mauve parries against DC 256.
    t.command("attack", target="Mauve", options="cost=0 mod=+1/+2 flanked", dice="1 4")
    t.choose("Parry", 3, by=PLAYER)
    # Spit at 40 m (range −2): Bram blocks against DC 354.
    t.command("attack", target="Bram", weapon="spit", options="cost=0 range=40", dice="2 3")
    t.choose("Block", 5, by=PLAYER)
    # A combo of two on Cole, who dodges.
    t.command("attack", target="Cole", options="cost=0 combo=2", dice="3 4 5 6")
    t.choose("Dodge", 1, 2, by=PLAYER)
    # At Dana's leg, by surprise: no defence; her Fortitude against the claw's damage.
    t.command("attack", target="Dana", options="cost=0 called=leg surprised", dice="4 2 1")
    # A damage override still adds Strength and scale.
    t.command("attack", target="Enid", damage="2", options="cost=0", dice="5")
    t.choose("No defence", by=PLAYER)
    return (
        [
            "d6 1 ? +1 = ? vs Mauve's Target 4: hit",
            "(DC ?, flanked: −1)",
            "Mauve parries: d6 3 +0 = 3 vs DC ?: fails",
            "d6 2 ? range −? = ? vs Bram's Target 4",
            "Bram blocks: d6 5 +1 = 6 vs DC ?: fails",
            "Cole dodges: d6 1 +2 = 3 vs DC ?: fails; d6 2 +2 = 4 vs DC ?: fails",
            "Mauve: 1d6 (4) ? vs Toughness 9/3: ≥ Toughness: wound and Dying",
            "Fortitude d6 1 + 0 = 1 vs DC ?: fails → fall prone",
            "Enid: 2 ? vs Toughness 9/3",
        ],
        ["range −2", "DC 256", "DC 354", "DC 254", "+ Strength 640 + 3×scale 3 = 647", "vs DC 645: fails"],
    )


def the_gm_hurts_heals_and_tests_nemesis(t: Table):
    setup(t)
    t.command("damage", target="Nemesis", amount="384")
    t.command("heal", target="Nemesis", amount="5")
    t.command("damage", target="Nemesis", amount="fall", options="height=20 surface=concrete", dice="4")
    t.command("condition_add", target="Nemesis", condition="wound")
    t.command("condition_remove", target="Nemesis", condition="wound")
    t.command("save", actor="Nemesis", kind="will", dc=5)
    t.command("save", actor="Nemesis", kind="fortitude")
    t.command("save", actor="Nemesis", kind="dex", dc=3)
    t.command("save", actor="Nemesis", kind="stealth", options="bonus=17", dc=12)
    t.command("damage", target="Nemesis", amount="444", options="nonlethal")
    return (
        [
            "Nemesis: 384 vs Toughness ?: > Minimum: wound",
            "Nemesis heals ?: Toughness ?",
            "falls 20 m onto concrete: bludgeoning damage 1d6 (4) ? vs Toughness ?: ≤ Minimum: no wound",
            "a wound (GM) vs Toughness ?",
            "Will check: d6",
            "? = ? vs DC 5: success",
            "Stealth (skill) check: d6",
            "? = ? vs DC 12: success",
            "knocked unconscious (nonlethal)",
        ],
        ["heals 1 wound:", "1d6 (4) + 7 = 11", "+17 ="],
    )


def the_gm_breaks_nemesis_and_lets_it_die(t: Table):
    setup(t)
    t.command("damage", target="Nemesis", amount="999", damage_type="fear")
    t.command("damage", target="Nemesis", amount="272", damage_type="morale")
    t.command("condition_add", target="Nemesis", condition="morale penalty")
    t.command("heal", target="Nemesis", amount="9", options="morale")
    t.command("condition_add", target="Nemesis", condition="broken")
    t.command("condition_add", target="Nemesis", condition="morale penalty")
    t.next()
    t.next(4)  # round 2: Nemesis's Spirit check passes
    t.command("condition_add", target="Nemesis", condition="dying")
    t.next()
    t.next(2, 6)  # round 3: a dying check
    t.next(10)  # round 4: d10 10 stabilises
    return (
        [
            "Fear morale damage 999 vs Will ?: Will beaten → morale penalty and Panicked",
            "Will is now ?",
            "takes a morale penalty: Will ?",
            "Nemesis recovers ?: Will ?",
            "Spirit d6 4 ? = ? vs DC 10",
            "Endurance d6 6 ? = ? vs DC 4: holds on",
            "d10 10 → stabilises",
        ],
        ["recovers 3 morale penalties", "+ 270 = 274"],
    )


def nemesis_collides_with_mauve_and_a_wall(t: Table):
    setup(t)
    # Scales 1 and 0: DC 5. Mauve's Dodge d6 1 + 2 fails, Nemesis's + 190 cannot; Mauve, crushed against
    # a hard surface, takes 1d6 (4) + 3×1 + 10 squares/s 2 = 9.
    t.command("damage", target="Mauve", amount="collision", options="speed=10 with=Nemesis crushed", dice="1 1 4")
    # Flat-footed into a scale 3 wall: no dodge; 1d6 (5) + 3×1 + 2 = 10.
    t.command("condition_add", target="Nemesis", condition="flat-footed")
    t.command("damage", target="Nemesis", amount="collision", options="speed=10 object=3", dice="5")
    return (
        [
            "💥 Mauve collides with Nemesis at 10 squares/s, crushed against a hard surface: Dodge DC ?.",
            "Mauve dodges: d6 1 +2 = 3 vs DC ?: fails.",
            "Nemesis dodges: d6 1 ? = ? vs DC ?: evades.",
            "Mauve: collision damage 1d6 (4) ? vs Toughness 9/3: ≥ Toughness: wound and Dying.",
            "💥 Nemesis collides with an object of scale 3 at 10 squares/s: Dodge DC ?.",
            "Nemesis cannot defend (flat-footed).",
            "Nemesis: collision damage 1d6 (5) ? vs Toughness ?: ≤ Minimum: no wound.",
        ],
        ["Dodge DC 5", "Dodge DC 6", "+190 = 191", "1d6 (4) + 5 = 9", "1d6 (5) + 5 = 10"],
    )


def nemesis_spits_on_an_area_and_charges(t: Table):
    setup(t, heroes=("Mauve", "Bram"))
    # One spit on the square of Mauve, Bram and Nemesis itself: d6 1 + 349 vs the area's Target 3 (4 − scale 1);
    # one 1d4 (3) for all. Mauve's and Nemesis's dodges fail against DC 354.
    t.command("attack", target="Mauve, Bram, Nemesis", weapon="spit", options="cost=0 area", dice="1 3")
    t.choose("Dodge", 6, by=PLAYER)
    t.choose("No defence", by=PLAYER)
    t.choose("Dodge", 1)
    # A charge at 18 squares/s: claw 1d6 (2) + 3 + Strength and scale.
    t.command("attack", target="Mauve", options="cost=0 fast=18", dice="4 2")
    t.choose("No defence", by=PLAYER)
    return (
        [
            "Nemesis makes an area attack with spit on Mauve, Bram, Nemesis: d6 1 ? = ? vs the area's Target ?: hit.",
            "Mauve dodges: d6 6 +2 = 8 vs DC ?: fails.",
            "Nemesis dodges: d6 1 ? = ? vs DC ?: fails.",
            "Bram: 1d4 (3) = 3 vs Toughness 9/3: ≤ Minimum: no wound.",
            "Nemesis: 1d4 (3) = 3 vs Toughness ?: ≤ Minimum: no wound.",
            "Mauve: 1d6 (2) + 3 (18 squares/s) ? vs Toughness 9/3: ≥ Toughness: wound and Dying.",
        ],
        ["Target 3 (4 − scale 1)", "DC 354", "+ 3 (18 squares/s) + Strength 640 + 3×scale 3 = 648"],
    )


def hidden_initiative_ties(t: Table):
    """Nemesis and its double Shade tie; a third, Wraith, joins the settled tie."""
    t.add("Mauve", 4, player=True, **HERO)
    t.add("Nemesis", 3, hidden=True, **NEMESIS)
    t.add("Shade", 3, hidden=True, **NEMESIS)
    t.add("Wraith", 3, hidden=True, **NEMESIS)
    t.next()
    return (
        ["Initiative tie at ?: reroll Nemesis d6", "Nemesis initiative: d6 3 + Reflex ? + Dex ? = ?"],
        ["Initiative tie at 933", "+ 930 = "],
    )


def a_hidden_npc_ties_with_a_hero(t: Table):
    """Small numbers: the tie shows Mauve's public total, but not as a hidden total."""
    t.add("Mauve", 3, player=True, **(HERO | {"reflex": 1}))
    t.add("Wraith", 3, hidden=True, reflex=37, dex=-36)
    t.add("Imp", 3, reflex=1)
    t.next()
    return (
        [
            "Initiative tie at ?: reroll",
            "Wraith initiative: d6 3 + Reflex ? + Dex ? = ?",
            "Wraith d6",
            "Initiative tie at ?: Imp d6",
        ],
        ["Initiative tie at 4", "Reflex 37 + Dex −36 = 4"],
    )


SCENARIOS = [
    mauve_attacks_with_every_defence,
    mauve_shoots_and_calls_her_shots,
    nemesis_attacks_the_heroes,
    the_gm_hurts_heals_and_tests_nemesis,
    the_gm_breaks_nemesis_and_lets_it_die,
    nemesis_collides_with_mauve_and_a_wall,
    nemesis_spits_on_an_area_and_charges,
    hidden_initiative_ties,
    a_hidden_npc_ties_with_a_hero,
]


def play(scenario, hidden: bool):
    table = Table(hidden)
    expected = scenario(table)
    return table.texts, expected


def big_numbers(text: str) -> set[int]:
    return {int(n) for n in BIG.findall(text)}


@pytest.fixture(params=SCENARIOS, ids=lambda s: s.__name__)
def runs(request):
    hidden, expected = play(request.param, True)
    open_, same = play(request.param, False)
    assert same == expected
    return hidden, open_, expected


def test_the_gm_reads_the_hidden_fight_word_for_word_as_the_open_one(runs):
    hidden, open_, _ = runs
    assert len(hidden) == len(open_)
    for secret_text, open_text in zip(hidden, open_):
        assert reveal(secret_text) == english(open_text)


def test_the_open_fight_carries_no_marks_and_the_hidden_one_does(runs):
    hidden, open_, _ = runs
    assert not any(has_secrets(text) for text in open_)
    assert any(has_secrets(text) for text in hidden)


def test_players_read_none_of_the_hidden_npcs_numbers(runs):
    hidden, _, (players_read, only_the_gm_reads) = runs
    shown = "\n".join(conceal(text) for text in hidden)
    leaked = big_numbers(shown) - PUBLIC
    assert not leaked, f"hidden numbers shown to players: {sorted(leaked)}"
    for fragment in players_read:
        assert fragment in shown
    for fragment in only_the_gm_reads:
        assert fragment not in shown


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
def test_players_cannot_derive_a_hidden_number(scenario):
    """No sum, difference or margin of the public lines, nor what visible combatants' counts did,
    gives one of Nemesis's big numbers away."""
    table = Table(True)
    scenario(table)
    public = [conceal(text) for text in table.texts]
    secret = set().union(*(big_numbers(reveal(t)) for t in table.texts)) - set().union(*map(big_numbers, public))
    secret -= PUBLIC
    derived = derivable(list(zip(public, table.known, strict=True)))
    assert not derived & secret, sorted(derived & secret)


def test_the_open_fight_shows_those_numbers_so_the_check_can_fail(runs):
    hidden, open_, (_, only_the_gm_reads) = runs
    everything = "\n".join(english(text) for text in open_)
    for fragment in only_the_gm_reads:
        assert fragment in everything
    assert "\n".join(reveal(text) for text in hidden) == everything


def test_no_public_number_is_also_a_secret_one(runs):
    """Otherwise a leak of that number would go unnoticed."""
    hidden, _, _ = runs
    for text in hidden:
        secrets = set()
        for node in walk(text):
            if isinstance(node, Secret) and node.hidden:
                secrets |= big_numbers(english(node.value))
        assert not secrets & big_numbers(conceal(text)), english(text)


def test_every_scenario_prints_big_hidden_numbers_in_the_open():
    """The check on big numbers is not empty: an open fight shows them."""
    for scenario in SCENARIOS[:-1]:
        texts, _ = play(scenario, False)
        assert big_numbers("\n".join(english(text) for text in texts)) - PUBLIC, scenario.__name__


def test_a_hidden_tie_breaker_with_no_modifier_does_not_show_that_it_has_none():
    chance = Chance(1, entered_dice=[4, 4])
    plain = Fighter(id="a", name="Wraith", sheet=Sheet(reflex=2, dex=-2))
    total, text = reroll(plain, chance)
    assert (total, english(text)) == (4, "Wraith d6 4")
    total, text = reroll(plain.but(hidden=True), chance)
    assert total == 4 and conceal(text) == "Wraith d6 4 ?" and reveal(text) == "Wraith d6 4 = 4"


def test_a_hidden_npcs_defence_prompt_hides_its_bonuses_and_a_hidden_attackers_dc():
    table = Table(True)
    setup(table)
    table.next()  # Mauve's turn
    table.command("attack", by=PLAYER, target="Nemesis", dice="6 1")
    assert (
        conceal(table.enc.pending.prompt)
        == "Nemesis: defend against a hit from Mauve (DC 7)? Block ?, Dodge ?, Parry ?"
    )
    assert reveal(table.enc.pending.prompt).endswith("Block +170, Dodge +190, Parry +230")
    table.choose("No defence")
    table.next()  # round 2: Nemesis's turn
    table.command("attack", target="Mauve", dice="6 1")
    assert (
        conceal(table.enc.pending.prompt)
        == "Mauve: defend against a hit from Nemesis (DC ?)? Block +1, Dodge +2, Parry +1"
    )
    assert reveal(table.enc.pending.prompt).startswith("Mauve: defend against a hit from Nemesis (DC 254)?")
