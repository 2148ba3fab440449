"""Every worked example of the 99 Towers seed, with the seed's numbers."""

from __future__ import annotations

import pytest

from rules.cards import Card
from rules.errors import InvalidInput
from rules.said import english
from rules.systems.towers.damage import Harm, dealt
from rules.systems.towers.flips import Mods, flip
from rules.systems.towers.modifiers import range_mods
from rules.systems.towers.sheet import parse_weapon
from tests.rules.test_towers_helpers import add, begin, command, new, phase_of, texts, who

TONY = 'init=2 ss=2 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 weapons="Heavy Rifle: 7 r12 two-handed"'
BANDIT = 'init=1 ss=1 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons="Club: 2+hs"'


def test_tony_ci_15_first_acts_in_phase_5():
    out = add(new(), "Tony", "KH 4C", TONY)
    assert phase_of(out.state, "Tony") == 5
    entry = out.state.turns.entries[0]
    assert entry.key == (15, 2, 2)
    assert "K♥ 4♣ → keep K = 13 + N 2 = CI 15 → phase 5" in texts(out)[-1]
    started = begin(out.state).state
    assert who(started) == "Tony" and started.turns.phase == 5


def test_surprised_tony_first_acts_in_phase_15():
    out = add(new(), "Tony", "KH 4C", TONY, surprised=True)
    assert phase_of(out.state, "Tony") == 15
    assert "surprised +10 → phase 15" in texts(out)[-1]


def test_ci_of_20_or_more_starts_in_phase_0():
    out = add(new(), "Quick", "AS 2C 3D 4D 5D 6D", "init=6")
    assert phase_of(out.state, "Quick") == 0  # 14 + 6 = 20


def test_shift_position_in_phase_15_next_acts_in_18():
    enc = add(new(), "Tony", "KH 4C", TONY, surprised=True).state
    enc = begin(enc).state
    assert enc.turns.phase == 15
    out = command(enc, "act", action="shift position")
    assert phase_of(out.state, "Tony") == 18
    assert out.state.turns.phase == 18 and who(out.state) == "Tony"


def test_heavy_rifle_two_hearts_against_er_1_deals_8_stun_2_lethal():
    enc = add(new(), "Tony", "KH 4C", TONY).state
    enc = add(enc, "Bandit", "2D", BANDIT).state
    enc = begin(enc).state
    # Tony's PA 4: K♥ 9♥ 3♣ 5♠ (two Hearts); the bandit's PD 2 - SS 1 flat-footed = 1 card: 7♦.
    out = command(enc, "attack", target="Bandit", cards="KH 9H 3C 5S 7D")
    bandit = out.state.find("Bandit")
    assert bandit.stun == 10 - 8
    assert bandit.lethal == 5 - 2
    joined = " | ".join(texts(out))
    assert "7 + 2♥ = 9 − ER 1 = 8 physical STUN, 2 LETHAL" in joined
    assert "critical hit" in joined


@pytest.mark.parametrize(
    "spaces, flip_mod, shift_mod",
    [(0, 0, 0), (8, 0, 0), (9, 0, -1), (16, 0, -1), (17, -1, 0), (24, -1, 0), (25, -1, -1), (32, -1, -1)],
)
def test_range_increment_of_8(spaces, flip_mod, shift_mod):
    weapon = parse_weapon("Rifle: 7 r8")
    mods = range_mods(weapon, spaces)
    assert (mods.flip, mods.shift) == (flip_mod, shift_mod)


def test_range_beyond_four_increments_is_impossible():
    with pytest.raises(InvalidInput, match="beyond"):
        range_mods(parse_weapon("Rifle: 7 r8"), 33)


def test_range_penalty_reaches_the_attack_flip():
    enc = add(new(), "Tony", "KH 4C", TONY).state
    enc = add(enc, "Bandit", "2D", BANDIT).state
    enc = begin(enc).state
    # 40 spaces with range increment 12: increment 4 → (flip−1)(shift−1): 3 cards, kept − 1.
    out = command(enc, "attack", target="Bandit", options="range=40", cards="10S 3C 2D 9D")
    line = texts(out)[0]
    assert "range 40 = increment 4 (flip−1, shift−1)" in line
    assert "10♠ 3♣ 2♦ → keep 10 = 10 − 1 = 9" in line


def test_fall_of_20_feet_deals_20_stun_and_flips_8_cards():
    enc = add(new(), "Climber", "2D", "er=0 stun=30 lethal=5").state
    out = command(enc, "damage", target="Climber", amount="20 ft", cards="2C 3C 4C 5C 6S 7S 8D 9D")
    climber = out.state.find("Climber")
    assert climber.stun == 30 - 20 and climber.lethal == 5
    assert "Fall of 20 feet: 20 physical STUN and 8 damage flips" in texts(out)[0]


DECK = [f"{rank}{suit}" for suit in "SHDC" for rank in ("A", *map(str, range(2, 11)), "J", "Q", "K")]


def test_a_fall_past_one_deck_flips_the_next_cards_from_a_fresh_deck():
    # 200 feet: 200 STUN and 80 flips, a whole deck (13 hearts) then 28 cards of the next (3 hearts)
    enc = add(new(), "Climber", "2D", "er=0 stun=400 lethal=400").state
    second = ["AH", "2H", "3H"] + [card for card in DECK if not card.endswith("H")][:25]
    out = command(enc, "damage", target="Climber", amount="200 ft", cards=" ".join(DECK + second))
    climber = out.state.find("Climber")
    assert (climber.stun, climber.lethal) == (400 - 200 - 16, 400 - 16)
    assert "Fall of 200 feet: 200 physical STUN and 80 damage flips" in texts(out)[0]
    # one deck's worth holds each card once, wherever its reshuffle falls
    twice = DECK[:51] + ["AS"] + second
    with pytest.raises(InvalidInput, match="entered again too soon"):
        command(enc, "damage", target="Climber", amount="200 ft", cards=" ".join(twice))


def test_a_fall_entered_by_hand_may_reshuffle_where_the_tables_deck_ran_out():
    # 100 feet: 40 flips. The table's deck had 30 cards left: the 31st card comes from a fresh deck, so
    # cards of the first 30 may come again within 52.
    enc = add(new(), "Climber", "2D", "er=0 stun=400 lethal=400").state
    out = command(enc, "damage", target="Climber", amount="100 ft", cards=" ".join(DECK[22:] + DECK[22:32]))
    assert "40 damage flips" in texts(out)[0]
    # the same card three times in a row fits no deck (twice does: the table's deck had one card left)
    command(enc, "damage", target="Climber", amount="100 ft", cards=" ".join(["2C", "2C"] + DECK[:38]))
    with pytest.raises(InvalidInput, match="2♣ was entered again too soon"):
        command(enc, "damage", target="Climber", amount="100 ft", cards=" ".join(["2C", "2C", "2C"] + DECK[:37]))
    # each of two cards again 10 later: one reshuffle cannot fall between both pairs; the card named is
    # where the reading that goes furthest breaks down
    close = DECK[:40]
    close[10], close[30] = close[0], close[20]
    with pytest.raises(InvalidInput, match="entered again too soon") as refused:
        command(enc, "damage", target="Climber", amount="100 ft", cards=" ".join(close))
    assert "8♥" in str(refused.value)  # the 21st card of the deck, close[30]


def test_the_highest_fall_the_command_takes_is_dealt():
    enc = add(new(), "Climber", "2D", "er=0 stun=400 lethal=400").state
    out = command(enc, "damage", target="Climber", amount="1000 ft")
    line = str(texts(out)[0])
    assert "Fall of 1000 feet: 1000 physical STUN and 400 damage flips" in line
    hearts = int(line.split(" → ")[1].split("♥")[0])
    assert hearts == line.split(" → ")[0].count("♥") > 13  # more than one deck holds
    assert out.state.find("Climber").lethal == 400 - hearts


def test_a_long_fall_turns_whole_decks_and_replays_from_the_stored_state():
    enc = add(new(), "Climber", "2D", "er=0 stun=400 lethal=400").state
    assert not enc.deck  # the first card shuffles a fresh deck
    out = command(enc, "damage", target="Climber", amount="1000 ft")
    shown = str(texts(out)[0]).split("400 damage flips: ")[1].split(" → ")[0].split()
    whole = {str(Card.parse(code)) for code in DECK}
    # 400 = 7 decks and 36 cards: each deck turned holds every card once, and the last one's
    # other 16 cards are what the encounter keeps for its next flip
    assert all(set(shown[at : at + 52]) == whole for at in range(0, 364, 52))
    rest = [str(Card.parse(code)) for code in out.state.deck]
    assert len(rest) == 16 and set(shown[364:]) | set(rest) == whole
    # the same stored random state deals the same fall
    again = command(enc, "damage", target="Climber", amount="1000 ft")
    assert texts(again) == texts(out) and again.state == out.state


def test_a_long_fall_goes_on_from_a_deck_partly_turned_before_it():
    enc = add(new(), "Climber", "2D", "er=0 stun=400 lethal=400").state
    enc = command(enc, "damage", target="Climber", amount="0", options="flips=20").state
    left = [str(Card.parse(code)) for code in reversed(enc.deck)]
    out = command(enc, "damage", target="Climber", amount="200 ft")
    shown = str(texts(out)[0]).split("80 damage flips: ")[1].split(" → ")[0].split()
    whole = {str(Card.parse(code)) for code in DECK}
    # the 32 cards left come first, then the other 20, shuffled when they ran out (the first 52 are one flip,
    # a whole deck); then a deck shuffled anew gives the last 28, keeping 24 for the encounter's next flip
    assert len(left) == 32 and shown[:32] == left and set(shown[:52]) == whole
    rest = {str(Card.parse(code)) for code in out.state.deck}
    assert len(rest) == 24 and set(shown[52:]) | rest == whole


def test_fall_hearts_add_stun_and_lethal_and_er_reduces():
    enc = add(new(), "Climber", "2D", "er=1 stun=30 lethal=5").state
    out = command(enc, "damage", target="Climber", amount="fall 20", cards="AH 3H 4C 5C 6S 7S 8D 9D")
    climber = out.state.find("Climber")
    assert climber.stun == 30 - (20 + 2 - 1)
    assert climber.lethal == 5 - 2


def test_external_endurance_3_dies_at_minus_6_lethal():
    enc = add(new(), "Guard", "2D", "endurance=3 lethal=4 stun=20").state
    out = command(enc, "damage", target="Guard", amount="9", options="lethal=9")
    guard = out.state.find("Guard")
    assert guard.lethal == -5 and guard.dying and not guard.out
    out = command(out.state, "damage", target="Guard", amount="1", options="lethal=1")
    guard = out.state.find("Guard")
    assert guard.lethal == -6 and guard.out
    assert "dead" in texts(out)[0]


def test_susceptibility_doubles_after_resilience():
    # Berhardt Potter: 8 Arcane (cold), IR 2 → 6, doubled → 12.
    enc = add(new(), "Berhardt", "2D", "ir=2 stun=30 immune=fire susceptible=cold").state
    out = command(enc, "damage", target="Berhardt", amount="8", damage_type="arcane cold")
    assert out.state.find("Berhardt").stun == 30 - 12
    assert "8 − IR 2 = 6 ×2 susceptible = 12" in texts(out)[0]
    out = command(out.state, "damage", target="Berhardt", amount="8", damage_type="arcane fire", options="lethal=3")
    assert out.state.find("Berhardt").stun == 18 and out.state.find("Berhardt").lethal == 5
    assert "immune to fire" in texts(out)[0]


def test_minimum_one_stun_and_lethal_never_more_than_stun():
    target = add(new(), "Ogre", "2D", "er=10 stun=30").state.find("Ogre")
    amount = dealt(Harm(base=3, hearts=3, category="physical"), target)
    assert (amount.stun, amount.lethal) == (1, 1)


def test_poison_check_flips_attack_5_against_endurance_2():
    enc = add(new(), "Tony", "KH 4C", TONY).state
    out = command(enc, "save", actor="Tony", kind="endurance", dc=5, cards="2C 3C 4C 5C 9D KS 2S")
    assert "vs Tony Endurance 2: K♠ 2♠ → keep K = 13 → resisted" in texts(out)[0]


def test_a_reckless_mover_resists_a_check_at_flip_minus_1():
    # Reckless Move: "You take a (flip-1) for all opposed combat checks until the start of your next activation."
    enc = add(new(), "Tony", "KH 4C", TONY).state
    enc = add(enc, "Bandit", "9D", BANDIT).state
    enc = command(begin(enc).state, "act", action="reckless move").state
    assert who(enc) == "Bandit"
    out = command(enc, "save", actor="Tony", kind="endurance", dc=5, cards="2C 3C 4C 5C 9D KS")
    assert "vs Tony Endurance 2 (reckless move (flip−1)): K♠ → keep K = 13 → resisted" in texts(out)[0]


def test_save_takes_real_cards_in_its_options_since_save_has_no_cards_field():
    enc = add(new(), "Tony", "KH 4C", TONY).state
    out = command(enc, "save", actor="Tony", kind="endurance", dc=5, options="cards='2C 3C 4C 5C 9D KS 2S'")
    assert "vs Tony Endurance 2: K♠ 2♠ → keep K = 13 → resisted" in texts(out)[0]


def test_flip_keeps_highest_and_shifts():
    from rules.cards import parse_cards
    from rules.randomness import Chance

    result = flip(Chance(1, (), (), parse_cards("KH 4C")), 2, Mods().plus(shift=-1))
    assert english(result.text()) == "K♥ 4♣ → keep K = 13 − 1 = 12"
    assert result.hearts == 1


def test_large_shadow_revenant_attacks_at_shift_minus_1_and_jimmy_gets_nothing():
    enc = add(new(), "Shadow Revenant", "KH 4C", 'init=2 pa=3 size=1 weapons="Claws: 3 melee"').state
    enc = add(enc, "Jimmy Arkham", "2D", "init=1 pd=2 ss=0").state
    enc = begin(enc).state
    out = command(enc, "attack", target="Jimmy Arkham", cards="9C 5C 2C 8D 3D")
    assert texts(out)[0].endswith("PA 3 (size +1 (shift−1)): 9♣ 5♣ 2♣ → keep 9 = 9 − 1 = 8")
    assert texts(out)[1] == "Jimmy Arkham PD 2: 8♦ 3♦ → keep 8 = 8 → 8 vs 8: hit"


def test_longblade_does_four_plus_px_plus_hearts():
    enc = add(new(), "Knight", "KH 4C", 'init=2 pa=3 px=2 weapons="Longblade: 1+pa 4+px knight blade"').state
    enc = add(enc, "Bandit", "2D", "init=1 pd=1 ss=0 er=0 stun=20").state
    enc = begin(enc).state
    out = command(enc, "attack", target="Bandit", cards="9H 5C 2C 3S 8D")  # PA 3 + 1 = 4 cards
    assert texts(out)[2].startswith("Longblade 4 + PX 2 = 6 + 1♥ = 7 physical STUN, 1 LETHAL")
    assert out.state.find("Bandit").stun == 13


def test_lethal_alone_with_no_stun_is_refused_for_it_could_do_nothing():
    # the seed: "A target cannot take more LETHAL damage than he takes STUN damage"
    enc = add(new(), "Brute", "2D", "er=0 stun=20 lethal=10").state
    with pytest.raises(InvalidInput, match="LETHAL is never more than the STUN dealt"):
        command(enc, "damage", target="Brute", amount="0", options="lethal=2")
    flipped = command(enc, "damage", target="Brute", amount="0", options="lethal=2 flips=3", cards="AH 2H 3C")
    assert flipped.state.find("Brute").lethal == 10 - 2
