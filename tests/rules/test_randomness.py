from rules.randomness import Chance


def test_a_flip_that_runs_past_the_decks_end_reshuffles_without_the_cards_it_already_turned():
    chance = Chance(7, deck=("2C", "3D", "4H"))
    cards = [card.code for card in chance.flip(52)]
    assert chance.reshuffled
    assert cards[:3] == ["4H", "3D", "2C"]
    assert len(set(cards)) == 52
    assert chance.deck == []


def test_every_flip_past_the_end_turns_distinct_cards_whatever_the_shuffle():
    for seed in range(200):
        chance = Chance(seed, deck=("AS", "KH"))
        cards = [card.code for card in chance.flip(20)]
        assert len(set(cards)) == 20, (seed, cards)
        assert len(chance.deck) == 52 - 2 - 18  # the two in hand sit out the reshuffle
