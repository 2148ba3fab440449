"""Them's Fightin' Words, driven through the engine with hand-entered dice.

The seed's own numbers come first: the combo of 8, 6 and 4 against 9/3, the
11-second delayed spell, the heavy crossbow's range increments, the average
human's Toughness and falling damage.
"""

from __future__ import annotations

import pytest

from rules.actions import AddCombatants, Choose, DelayTurn, NextTurn
from rules.engine import apply
from rules.errors import AwaitingChoice, DiceError, InvalidInput, NotAllowed, RulesError
from rules.model import Actor
from rules.said import english
from rules.systems.fightin_words import SYSTEM
from rules.systems.fightin_words.gm import falling
from rules.systems.fightin_words.sheet import minimum_toughness, toughness, will
from rules.systems.fightin_words.tables import range_penalty
from tests.helpers import GM, answer_by_key

PLAYER_ID = 2
PLAYER = Actor(user_id=PLAYER_ID)


class Fight:
    """An encounter driven only through rules.engine.apply."""

    def __init__(self, settings=None) -> None:
        self.enc = SYSTEM.new_encounter(gm_id=1, rng_state=7, options=settings)
        self.events = ()

    def do(self, action):
        out = apply(self.enc, action)
        self.enc = out.state
        self.events = out.events
        return out

    def add(self, name, init, *, player=False, surprised=False, rerolls=(), **sheet):
        """`init` the initiative die; `rerolls` the dice a tie rerolls (entered dice cover every die)."""
        self.do(
            AddCombatants(
                by=GM,
                name=name,
                sheet=sheet,
                npc=not player,
                surprised=surprised,
                controller_id=PLAYER_ID if player else None,
                dice=(init, *rerolls),
            )
        )

    def command(self, name, by=GM, **options):
        return self.do(SYSTEM.command(name, by, options))

    def act(self, action, by=GM, **options):
        return self.command("act", by=by, action=action, **options)

    def next(self, *dice):
        return self.do(NextTurn(by=GM, dice=dice))

    def choose(self, option, *dice, by=GM):
        return self.do(Choose(by=by, pending_id=self.enc.pending.id, option=option, dice=dice))

    def f(self, name):
        return self.enc.find(name)

    def left(self, name):
        return self.enc.turns.left.get(self.f(name).id, 0)

    def acting(self):
        return [self.enc.get(c).name for c in self.enc.turns.acting]

    def order(self):
        return [self.enc.get(s[0]).name for s in self.enc.turns.slots]

    def text(self):
        return "\n".join(e.text for e in self.events)


def duel(settings=None, **mauve):
    """Mauve (player, Reflex 3 so she goes first) against a Goblin; `settings`: the campaign's."""
    fight = Fight(settings)
    sheet = {"reflex": 3, "weapon_skill": 3, "weapons": "arming sword:1d8"} | mauve
    fight.add("Mauve", 4, player=True, **sheet)
    fight.add("Goblin", 1, parry=1, block=2)
    fight.next()
    assert fight.acting() == ["Mauve"]
    return fight


# --- the seed's own numbers ---------------------------------------------------


def test_an_unarmoured_average_human_has_toughness_9_3():
    fight = Fight()
    fight.add("Jack", 3)
    jack = fight.f("Jack")
    assert (toughness(jack), minimum_toughness(jack)) == (9, 3)
    assert (will(jack), will(jack) - 6) == (9, 3)
    assert english(SYSTEM.status_line(fight.enc, jack, reveal=True)).startswith("T 9/3 · Will 9/3")


def test_the_combo_of_8_6_and_4_against_toughness_9_3_gives_three_wounds():
    fight = duel()
    # three attack dice, then the three d8s: 5+3, 3+3, 1+3 = 8, 6, 4
    fight.command("attack", target="Goblin", options="combo=3", dice="6 6 6 5 3 1")
    assert fight.enc.pending.kind == "defence"
    fight.choose("No defence")
    goblin = fight.f("Goblin")
    assert goblin.wounds == 3
    assert not goblin.dying and not goblin.dead
    assert (toughness(goblin), minimum_toughness(goblin)) == (6, 0)
    text = fight.text()
    for amount in ("= 8 vs Toughness 9/3", "= 6 vs Toughness 9/3", "= 4 vs Toughness 9/3"):
        assert amount in text
    assert "Mauve uses a combo (4 s): 2 s left." in text


def test_a_4_second_cast_with_an_11_second_delay_fires_after_the_first_second_of_the_turn_after_next():
    # The seed's caster has 4 seconds left after casting, which a 6-second turn
    # only gives when the casting began at the end of the previous turn and
    # finished after the first 2 seconds of this one.
    fight = Fight()
    fight.add("Mira", 6, player=True, reflex=3)
    fight.add("Dummy", 1)
    fight.next()
    for _ in range(4):
        fight.act("move")
    fight.act("cast", options="spell=Fireball delay=11")
    assert "2 s carry into the next turn" in fight.text()
    assert fight.acting() == ["Dummy"]
    fight.next()  # Dummy ends; Mira's next turn: 2 s still casting
    assert fight.acting() == ["Mira"] and fight.left("Mira") == 4
    assert "Mira is still busy (casts Fireball) for 2 s from last turn." in fight.text()
    fight.next()  # her remaining 4 seconds pass
    assert fight.f("Mira").effects[0].seconds == 7
    fight.next()  # Dummy
    fight.next()  # Mira's whole next turn passes
    assert fight.f("Mira").effects[0].seconds == 1
    fight.next()  # Dummy
    assert fight.acting() == ["Mira"] and "takes effect" not in fight.text()
    fight.act("move")
    assert (
        "✨ Mira's Fireball takes effect now, after second 1 of Mira's turn (11 s delay): GM, apply what it does."
        in fight.text()
    )
    assert fight.f("Mira").effects == ()


def test_the_2_second_delay_leaves_two_seconds_to_move_before_the_spell():
    fight = Fight()
    fight.add("Mira", 6, reflex=3)
    fight.add("Dummy", 1)
    fight.next()
    fight.act("cast", options="spell=Blast delay=2")
    fight.act("move")
    assert "takes effect" not in fight.text()
    fight.act("move")
    assert (
        "Mira's Blast takes effect now, after second 6 of Mira's turn (2 s delay): GM, apply what it does."
        in fight.text()
    )


@pytest.mark.parametrize(
    "metres, penalty", [(15, 0), (16, 1), (30, 1), (31, 2), (60, 2), (61, 3), (120, 3), (121, 4), (240, 4)]
)
def test_the_heavy_crossbow_range_increments(metres, penalty):
    assert range_penalty(metres, 15) == penalty


def test_the_heavy_crossbow_takes_minus_1_at_16_to_30_m_and_minus_4_at_121_to_240_m():
    fight = duel(ranged_skill=2, weapons="heavy crossbow:1d10:15")
    with pytest.raises(InvalidInput, match="beyond the heavy crossbow's reach"):
        fight.command("attack", target="Goblin", options="range=241", dice="6")
    fight.command("attack", target="Goblin", options="range=30", dice="3 7")
    assert "d6 3 +2 range −1 = 4 vs Goblin's Target 4: hit" in fight.text()
    fight.choose("No defence")
    fight.command("attack", target="Goblin", options="range=240", dice="6 1")
    assert "d6 6 +2 range −4 = 4 vs Goblin's Target 4: hit" in fight.text()
    fight.choose("No defence")
    fight.next()
    fight.command("attack", target="Goblin", options="range=121", dice="5")
    assert "d6 5 +2 range −4 = 3 vs Goblin's Target 4: miss" in fight.text()


def test_falling_20_m_onto_concrete_deals_1d6_plus_4():
    fight = duel()
    assert falling(fight.f("Goblin"), 20, "concrete") == "1d6+4"
    fight.command("damage", target="Goblin", amount="fall", options="height=20 surface=concrete", dice="3")
    # "Falling damage is always Bludgeoning."
    assert "falls 20 m onto concrete: bludgeoning damage 1d6 (3) + 4 = 7 vs Toughness 9/3" in fight.text()
    assert fight.f("Goblin").wounds == 1


def test_falling_onto_spikes_adds_3_and_is_piercing():
    # "Spikes or similar: +3, and all damage is Piercing"
    fight = duel()
    fight.command("damage", target="Goblin", amount="fall", options="height=20 surface=spikes", dice="3")
    assert "falls 20 m onto spikes: piercing damage 1d6 (3) + 7 = 10 vs Toughness 9/3" in fight.text()


def test_falling_is_capped_at_60_m_and_softened_by_the_surface():
    fight = duel()
    goblin = fight.f("Goblin")
    assert falling(goblin, 200, "hard") == "1d6+12"
    assert falling(goblin, 5, "mattress") == "1d6-2"
    assert falling(goblin, 3, "spikes") == "1d6+4"


# --- initiative ------------------------------------------------------------------


def test_initiative_is_d6_plus_reflex_plus_dex_highest_first():
    fight = Fight()
    fight.add("Slow", 2, reflex=1, dex=1)
    fight.add("Fast", 5, reflex=1, dex=2)
    assert "d6 5 + Reflex 1 + Dex 2 = 8" in fight.text()
    assert fight.order() == ["Fast", "Slow"]


def test_ties_reroll_among_themselves_until_broken_every_reroll_shown():
    fight = Fight()
    # three initiative dice (all 4), a reroll for the three (2, 5, 2), a reroll for the two still tied (3, 1)
    fight.do(AddCombatants(by=GM, name="Zombie", count=3, sheet={}, dice=(4, 4, 4, 2, 5, 2, 3, 1)))
    assert fight.order() == ["Zombie 2", "Zombie 1", "Zombie 3"]
    text = fight.text()
    assert "Initiative tie at 4: reroll Zombie 1 d6 2, Zombie 2 d6 5, Zombie 3 d6 2." in text
    assert "Initiative tie at 4: reroll Zombie 1 d6 3, Zombie 3 d6 1." in text
    ties = {fight.enc.get(e.cid).name: e.tiebreak for e in fight.enc.turns.entries}
    assert ties == {"Zombie 2": (5,), "Zombie 1": (2, 3), "Zombie 3": (2, 1)}


def test_a_settled_tie_stays_settled_when_someone_joins_during_setup():
    fight = Fight()
    fight.do(AddCombatants(by=GM, name="Zombie", count=2, sheet={}, dice=(4, 4, 1, 6)))
    assert fight.order() == ["Zombie 2", "Zombie 1"]
    fight.add("Ghoul", 1)
    assert fight.order() == ["Zombie 2", "Zombie 1", "Ghoul"] and "tie" not in fight.text()


def test_a_late_arrival_is_inserted_by_its_roll_and_rolls_off_a_tie():
    fight = duel()
    fight.add("Wolf", 4, reflex=1)  # 5: between Mauve (7) and the Goblin (1)
    assert fight.order() == ["Mauve", "Wolf", "Goblin"]
    # Bat: 6 + 1 = 7 ties Mauve: both reroll, 4 vs 4, again, 8 vs 3
    fight.do(AddCombatants(by=GM, name="Bat", sheet={"reflex": 1}, dice=(6, 1, 3, 5, 2)))
    assert fight.order() == ["Mauve", "Bat", "Wolf", "Goblin"]
    assert "Initiative tie at 7: reroll Mauve d6 1 + 3 = 4, Bat d6 3 + 1 = 4." in fight.text()
    assert "Initiative tie at 7: reroll Mauve d6 5 + 3 = 8, Bat d6 2 + 1 = 3." in fight.text()
    # Owl ties the settled pair: rolls off from the top, 6 vs Mauve's 4, and goes first
    fight.do(AddCombatants(by=GM, name="Owl", sheet={"reflex": 1}, dice=(6, 5, 1)))
    assert "Initiative tie at 7: Owl d6 5 + 1 = 6 vs Mauve d6 1 + 3 = 4." in fight.text()
    assert fight.order() == ["Owl", "Mauve", "Bat", "Wolf", "Goblin"]
    assert fight.acting() == ["Mauve"]
    fight.next()
    assert fight.acting() == ["Bat"]


def test_a_tie_needing_the_senders_reroll_says_so_when_only_the_initiative_die_was_entered():
    # A player's `roll:` alone ties the Goblin: the Goblin's reroll is the bot's, hers is not, and the
    # refusal names the tie rather than a bare "too few dice".
    fight = Fight()
    fight.add("Goblin", 4)
    mauve = AddCombatants(by=PLAYER, name="Mauve", npc=False, controller_id=PLAYER_ID, dice=(1,), sheet={"reflex": 3})
    with pytest.raises(DiceError) as refused:
        fight.do(mauve)
    assert str(refused.value) == (
        "Too few dice entered: Mauve ties at initiative 4 and rolls again. Enter each reroll's d6 after the "
        "initiative die in `dice:`, in order, or enter no dice and the bot rolls them all."
    )
    fight.do(mauve.model_copy(update={"dice": (1, 5)}))
    assert "Initiative tie at 4: reroll Goblin d6" in fight.text() and "Mauve d6 5 + 3 = 8" in fight.text()


# --- seconds -----------------------------------------------------------------------


def test_actions_spend_seconds_and_the_turn_ends_by_itself():
    fight = duel()
    fight.act("draw")
    assert fight.left("Mauve") == 5
    fight.act("aim")
    assert fight.left("Mauve") == 3 and fight.f("Mauve").aimed
    fight.act("talk")
    assert fight.left("Mauve") == 3
    fight.act("run")
    assert "No seconds" not in fight.text()
    assert fight.acting() == ["Goblin"]
    assert not fight.f("Mauve").aimed  # moving loses the aim
    assert english(SYSTEM.turn_summary(fight.enc, fight.f("Goblin").id)[0]) == "⏱ 6 of 6 s left"


def test_an_attack_with_too_little_time_carries_over():
    fight = duel()
    fight.act("move", options="seconds=3")  # explicit cost overrides the table
    fight.act("spend", options='seconds=1 what="kicks a chair"')
    assert "Mauve kicks a chair (1 s): 2 s left." in fight.text()
    fight.command("attack", target="Goblin", dice="1 5")  # 1 + 3 = 4 vs 4: a hit; the d8 damage 5
    assert "2 s carry into the next turn" in fight.text() or fight.enc.pending
    if fight.enc.pending:
        fight.choose("Parry", 6)
    assert fight.acting() == ["Goblin"]
    fight.next()
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 4


def test_spend_needs_a_cost_and_unknown_actions_are_refused():
    fight = duel()
    with pytest.raises(InvalidInput, match="seconds=N"):
        fight.act("spend")
    with pytest.raises(InvalidInput, match="Unknown action"):
        fight.act("juggle")


def test_posture_costs_stand_from_prone_takes_4_seconds():
    fight = duel()
    fight.act("prone")
    assert fight.f("Mauve").posture == "prone" and fight.left("Mauve") == 5
    fight.act("crouch")
    assert fight.f("Mauve").posture == "crouching" and fight.left("Mauve") == 4
    fight.act("stand")
    assert fight.left("Mauve") == 3
    fight.act("prone")
    fight.act("stand")
    assert "stands up from prone (4 s): 0 s left, 2 s carry into the next turn." in fight.text()


def test_a_mount_costs_2_seconds_every_turn():
    fight = duel()
    fight.act("mount")
    assert fight.left("Mauve") == 4  # "every round": the round the reins are taken too
    fight.next()  # Goblin
    fight.next()  # Mauve again
    assert fight.left("Mauve") == 4
    assert "Mauve loses 2 s (steering the mount)." in fight.text()
    assert "🐎 steering the mount: 2 s every turn" in map(english, SYSTEM.turn_summary(fight.enc, fight.f("Mauve").id))


def test_disabled_characters_have_3_seconds_and_cannot_walk_or_combo():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="disabled")
    fight.next()
    assert fight.acting() == ["Goblin"] and fight.left("Goblin") == 3
    with pytest.raises(NotAllowed, match="crawl"):
        fight.act("move")
    with pytest.raises(NotAllowed, match="no combos"):
        fight.command("attack", target="Mauve", options="combo=2", dice="1 1")
    fight.act("crawl")
    assert "1 s carry into the next turn" in fight.text()


# --- delay -------------------------------------------------------------------------


def test_delay_and_interrupt_the_interrupted_finishes_their_turn():
    fight = duel()
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    assert fight.acting() == ["Goblin"]
    fight.act("move")
    fight.act("move")
    out = fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    interrupt = next(e for e in out.events if "interrupting" in e.text)
    assert interrupt.text == "Mauve steps back in, interrupting Goblin." and interrupt.ping == (1,)
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 6
    fight.next()
    assert fight.acting() == ["Goblin"] and fight.left("Goblin") == 4
    assert "Goblin's turn continues" in fight.text()
    fight.next()
    assert fight.enc.round == 2 and fight.acting() == ["Mauve"]


def test_only_an_untouched_turn_can_be_delayed():
    fight = duel()
    fight.act("move")
    with pytest.raises(InvalidInput, match="untouched"):
        fight.do(DelayTurn(by=PLAYER, actor="Mauve"))


def test_a_delay_lasts_until_the_delayers_next_turn_even_into_the_next_round():
    fight = duel()
    fight.next()  # Goblin's turn
    fight.do(DelayTurn(by=GM, actor="Goblin"))
    assert fight.enc.round == 2 and fight.acting() == ["Mauve"]
    fight.do(DelayTurn(by=GM, actor="Goblin"))  # steps in before Mauve's next action
    assert fight.acting() == ["Goblin"]
    fight.next()
    assert fight.acting() == ["Mauve"] and "Mauve's turn continues" in fight.text()


def test_an_unused_delay_runs_out_at_the_delayers_own_turn():
    fight = duel()
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    fight.next()  # Goblin ends, round 2
    assert fight.acting() == ["Mauve"] and "Mauve's delay runs out" in fight.text()


def trio():
    """Mauve, the Goblin, then the Kobold; round 1, Mauve acting."""
    fight = duel()
    fight.add("Kobold", 1, reflex=-1)
    assert fight.order() == ["Mauve", "Goblin", "Kobold"]
    return fight


def test_a_delayer_who_steps_back_in_keeps_their_place_in_the_order():
    # "At any time after his skipped turn but before his next turn, he can take his turn": the skipped turn is
    # taken late, and the next one comes where it always did.
    fight = trio()
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    fight.next()  # the Goblin's turn, then the Kobold's
    fight.act("move")
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))  # interrupting the Kobold
    assert fight.acting() == ["Mauve"]
    fight.next()
    assert fight.acting() == ["Kobold"] and fight.left("Kobold") == 5
    fight.next()
    assert fight.enc.round == 2 and fight.acting() == ["Mauve"]
    assert fight.order() == ["Mauve", "Goblin", "Kobold"]


def test_a_turn_put_off_into_the_next_round_is_taken_there_and_the_next_turn_still_comes_in_its_place():
    fight = trio()
    fight.next()  # the Goblin's turn
    fight.do(DelayTurn(by=GM, actor="Goblin"))
    fight.next()  # the Kobold ends; round 2
    assert fight.enc.round == 2 and fight.acting() == ["Mauve"]
    fight.act("move")
    fight.do(DelayTurn(by=GM, actor="Goblin"))  # the turn put off in round 1, before its next turn
    assert fight.acting() == ["Goblin"] and fight.left("Goblin") == 6
    fight.act("move")
    fight.next()
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 5
    fight.next()  # the Goblin's own turn of round 2
    assert fight.acting() == ["Goblin"] and fight.left("Goblin") == 6 and "Goblin's turn" in fight.text()
    fight.next()
    fight.next()
    assert fight.enc.round == 3 and fight.acting() == ["Mauve"]


def test_a_delayer_stepping_in_on_another_who_stepped_in_lets_each_finish_in_turn():
    fight = trio()
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    fight.do(DelayTurn(by=GM, actor="Goblin"))
    fight.act("move")  # the Kobold moves
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    fight.act("move", by=PLAYER)
    fight.do(DelayTurn(by=GM, actor="Goblin"))
    assert fight.acting() == ["Goblin"]
    fight.next()
    assert fight.acting() == ["Mauve"] and fight.left("Mauve") == 5
    fight.next()
    assert fight.acting() == ["Kobold"] and fight.left("Kobold") == 5
    fight.next()
    assert fight.enc.round == 2 and fight.order() == ["Mauve", "Goblin", "Kobold"] and fight.acting() == ["Mauve"]


def test_a_delay_that_runs_out_still_counts_the_turns_seconds_down_on_a_delayed_spell():
    # "A delay is an activity that takes time": the seconds of a turn put off and never taken still pass.
    fight = Fight()
    fight.add("Mira", 6, player=True, reflex=3)
    fight.add("Dummy", 1)
    fight.next()
    fight.act("cast", options="spell=Fireball delay=8")  # 4 s casting + 8 s: 6 left once her turn ends
    fight.next()
    fight.next()  # round 2: Mira puts her turn off and never steps back in
    fight.do(DelayTurn(by=PLAYER, actor="Mira"))
    fight.next()  # round 3: her delay runs out
    text = fight.text()
    assert "Mira's delay runs out" in text
    assert "✨ Mira's Fireball takes effect now, after second 6 of Mira's turn (8 s delay)" in text
    assert fight.f("Mira").effects == () and fight.acting() == ["Mira"] and fight.left("Mira") == 6


# --- attacks -------------------------------------------------------------------------


def test_a_successful_defence_negates_and_the_dc_is_4_plus_skill_plus_y():
    fight = duel()
    fight.command("attack", target="Goblin", options="mod=+1/+1", dice="2 8")  # 2 + 3 + 1 = 6 vs 4
    assert "d6 2 +3 +1 = 6 vs Goblin's Target 4: hit" in fight.text()
    pending = fight.enc.pending
    assert "DC 8" in english(pending.prompt) and pending.default == "block" and pending.users == ()
    fight.choose("Block", 6)  # 6 + 2 = 8 ≥ 8
    assert "Goblin blocks: d6 6 +2 = 8 vs DC 8: negated" in fight.text()
    assert fight.f("Goblin").wounds == 0
    assert fight.left("Mauve") == 2


def test_a_defence_is_answered_by_its_key_whatever_its_label_reads():
    fight = duel()
    fight.command("attack", target="Goblin", dice="3 8")
    assert fight.enc.pending.keys == ("block", "dodge", "parry", "none")
    out = answer_by_key(fight.enc, "parry")
    assert any("Goblin parries: " in e.text for e in out.events)


def test_a_failed_parry_lets_the_hit_through():
    fight = duel()
    fight.command("attack", target="Goblin", dice="3 8")
    fight.choose("Parry", 2)
    assert "Goblin parries: d6 2 +1 = 3 vs DC 7: fails" in fight.text()
    # 8 + 3 Strength = 11 ≥ 9: wound and Dying
    goblin = fight.f("Goblin")
    assert goblin.wounds == 1 and goblin.dying


def test_a_miss_asks_nobody():
    fight = duel()
    fight.command("attack", target="Goblin", options="cover=heavy", dice="3")  # 6 vs 4 + 3
    assert "vs Goblin's Target 7 (4 cover +3): miss" in fight.text()
    assert fight.enc.pending is None and fight.left("Mauve") == 2


def test_players_answer_their_own_defence_and_flanked_defends_at_minus_1():
    fight = duel()
    fight.next()  # the Goblin attacks Mauve
    fight.command("attack", target="Mauve", options="flanked", dice="6 1")
    pending = fight.enc.pending
    assert pending.users == (PLAYER_ID,) and "flanked" in english(pending.prompt)
    with pytest.raises(AwaitingChoice):
        fight.act("move")
    fight.choose("Dodge", 1, by=PLAYER)  # Dodge is her Reflex 3, −1 flanked
    assert "Mauve dodges: d6 1 +2 = 3 vs DC 4: fails" in fight.text()


def test_a_held_defender_is_offered_dodge_at_the_minus_1_it_rolls_with():
    fight = duel(reflex=3)
    fight.next()  # the Goblin attacks Mauve, who is held
    fight.command("condition_add", target="Mauve", condition="held")
    fight.command("attack", target="Mauve", dice="6 1")
    assert english(fight.enc.pending.prompt).endswith("? Dodge +2")  # Reflex 3, −1 held
    fight.choose("Dodge", 1, by=PLAYER)
    assert "Mauve dodges: d6 1 +2 = 3 vs DC 4: fails" in fight.text()


def test_flat_footed_and_helpless_targets_cannot_defend_and_melee_hits_the_helpless():
    fight = Fight()
    fight.add("Mauve", 4, player=True, reflex=3, weapon_skill=3)
    fight.add("Guard", 1, surprised=True)
    fight.next()
    fight.command("attack", target="Guard", dice="1 1")  # 1 + 3 = 4 hits; unarmed 1d4 + 3 = 4
    assert "Guard cannot defend (flat-footed)" in fight.text() and fight.enc.pending is None
    assert fight.f("Guard").wounds == 1
    fight.command("condition_add", target="Guard", condition="sleeping")
    fight.command("attack", target="Guard", dice="1")  # no attack die: only the damage die
    assert "Guard is helpless: melee hits automatically" in fight.text()
    assert "Guard cannot defend (helpless)" in fight.text()


def test_the_surprised_are_flat_footed_until_their_first_turn():
    fight = Fight()
    fight.add("Mauve", 4, reflex=3)
    fight.add("Guard", 1, surprised=True)
    fight.next()
    assert any(c.name == "flat-footed" for c in fight.f("Guard").conditions)
    fight.next()
    assert "Guard is no longer flat-footed." in fight.text()


def test_prone_targets_are_harder_to_shoot_and_easier_to_stab():
    fight = duel(ranged_skill=0, weapons="arming sword:1d8; bow:1d6:20")
    fight.command("condition_add", target="Goblin", condition="prone")
    fight.command("attack", target="Goblin", weapon="arming sword", dice="1 1")  # 1 + 3 = 4 vs 4 − 2 = 2
    assert "Target 2 (4 prone −2): hit" in fight.text()
    fight.choose("No defence")
    fight.command("attack", target="Goblin", weapon="bow", options="range=10", dice="5")
    assert "Target 6 (4 prone +2): miss" in fight.text()


def test_negative_parts_of_a_roll_are_written_with_the_minus_sign_as_the_rest():
    # As "range −1" and the checks' "− 1": called shot, posture, X and the bonuses use "−", never "-".
    fight = duel(weapon_skill=-1)
    fight.command("condition_add", target="Goblin", condition="crouching")
    fight.command("attack", target="Goblin", options="called=wings mod=-1/0", dice="6 1")
    assert "d6 6 −1 −1 = 4 vs Goblin's Target 2 (4 wings −1 crouching −1): hit." in fight.text()
    assert "-1" not in fight.text()
    # A value below zero is written as Toughness writes it ("4/−2"): a cat's scale too.
    fight = Fight()
    fight.add("Mauve", 4, player=True, reflex=3, weapon_skill=3, weapons="arming sword:1d8")
    fight.add("Cat", 1, scale=-1)
    fight.next()
    fight.command("attack", target="Cat", dice="1")
    assert "Cat's Target 5 (4 − scale −1): miss." in fight.text()


def test_crouching_behind_light_cover_counts_as_medium_cover():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="crouching")
    fight.command("attack", target="Goblin", options="cover=light", dice="2")
    assert "Target 6 (4 crouching behind cover cover +2): miss" in fight.text()


def test_crouching_or_prone_behind_total_cover_adds_nothing_to_invisible():
    # "ignore the bonus (and penalty) from crouching or prone, and instead increase the cover value":
    # total cover cannot grow, so the target is invisible (+4) and no more, against a shot as a stab.
    fight = duel(ranged_skill=0, weapons="arming sword:1d8; bow:1d6:20")
    fight.command("condition_add", target="Goblin", condition="crouching")
    fight.command("attack", target="Goblin", weapon="bow", options="range=10 cover=total", dice="5")
    assert "Target 8 (4 crouching behind cover invisible +4): miss" in fight.text()
    fight.command("condition_add", target="Goblin", condition="prone")
    fight.command("attack", target="Goblin", weapon="arming sword", options="cost=0 cover=total", dice="5 2")
    assert "Target 8 (4 prone behind cover invisible +4): hit" in fight.text()


def test_aiming_eases_the_range_penalty_by_one():
    fight = duel(ranged_skill=1, weapons="heavy crossbow:1d10:15")
    fight.act("aim")
    fight.command("attack", target="Goblin", options="range=40", dice="1")
    assert "d6 1 +1 range −2 aimed +1 = 1" in fight.text()


def test_an_aimed_spell_says_it_cannot_be_aimed():
    # "Ranged magical attacks otherwise work like ranged attacks, except the caster cannot aim": the two
    # seconds spent aiming buy nothing, and the roll says why rather than leaving the +1 out unexplained.
    fight = duel(magic_skill=2, weapons="firebolt:1d6:10:magic")
    fight.act("aim")
    fight.command("attack", target="Goblin", options="range=15", dice="1")
    assert "d6 1 +2 range −1 (a spell cannot be aimed) = 2" in fight.text()


def test_a_called_shot_to_the_head_is_harder_to_hit_and_easier_to_hurt():
    fight = duel()
    # Target 4 + 3; damage 4 + 3 = 7 vs Toughness 9 − 3 = 6: starts Dying
    fight.command("attack", target="Goblin", options="called=head", dice="5 4")
    assert "Target 7 (4 head +3): hit" in fight.text()
    fight.choose("No defence")
    assert "7 vs Toughness 6/0 (head): ≥ Toughness: wound and Dying" in fight.text()
    assert fight.f("Goblin").dying


def test_a_head_graze_can_stagger():
    fight = duel()
    # 1 + 3 = 4 damage > head Minimum 0: wound, Fortitude d6 2 vs DC 4 fails → staggered
    fight.command("attack", target="Goblin", options="called=head", dice="4 1")
    fight.choose("No defence", 2)
    assert "Fortitude d6 2 + 0 = 2 vs DC 4: fails → be Staggered for one round" in fight.text()
    assert any(c.name == "staggered" for c in fight.f("Goblin").conditions)


def test_a_leg_hit_past_toughness_does_not_kill_but_may_floor():
    fight = duel()
    fight.command("attack", target="Goblin", options="called=leg", dice="6 6")  # 6 + 3 = 9 ≥ 8
    fight.choose("No defence", 1)
    goblin = fight.f("Goblin")
    assert goblin.wounds == 1 and not goblin.dying and goblin.posture == "prone"


def test_damage_entered_with_the_attack_carries_the_hand_mark_once_the_defender_answers():
    fight = duel()
    fight.command("attack", by=PLAYER, target="Goblin", dice="6 5")
    fight.choose("No defence")
    damage = next(e for e in fight.events if "vs Toughness" in e.text)
    assert damage.text.startswith("Goblin: 1d8 (5) + Strength 3 = 8") and damage.entered
    assert [e.entered for e in fight.events].count(True) == 1


def test_damage_the_bot_rolls_carries_no_hand_mark():
    fight = duel()
    fight.command("attack", target="Goblin")
    while fight.enc.pending is not None:
        fight.choose("No defence")
    assert not any(e.entered for e in fight.events)


def test_healing_a_located_wound_in_the_fight_heals_its_effect_unlocated_wounds_first():
    fight = duel()
    fight.command("attack", target="Goblin", options="called=arm", dice="6 6")  # 6 + 3 = 9 ≥ 8: the arm
    fight.choose("No defence")
    fight.command("damage", target="Goblin", amount="4")  # > 3: an unlocated wound
    assert fight.f("Goblin").wounds == 2 and fight.f("Goblin").notes[0].startswith("arm:")
    fight.command("heal", target="Goblin", amount="1")
    assert fight.f("Goblin").notes[0].startswith("arm:") and fight.text() == "Goblin heals 1 wound: Toughness 8/2."
    fight.command("heal", target="Goblin", amount="1")
    assert fight.f("Goblin").notes == () and fight.f("Goblin").wounds == 0
    assert fight.text() == (
        "Goblin heals 1 wound: Toughness 9/3; healed: arm: the arm cannot carry objects, weapons or shields, "
        "nor attack unarmed, until healed."
    )
    kept = SYSTEM.lasting(fight.enc, fight.f("Goblin"))
    assert kept["locations"] == []


HAND_GRAZE = "hand: −1 to attacks made with this hand"


def test_a_located_effect_that_came_with_no_wound_ends_with_healing():
    # the hand's Minimum deals no wound: without a wound to heal, /heal once refused and the −1 stayed for ever
    fight = duel()
    fight.command("damage", target="Goblin", amount="4", options="called=hand", dice="6")  # > 1, < 7
    assert fight.f("Goblin").notes == (HAND_GRAZE,) and fight.f("Goblin").wounds == 0
    fight.command("heal", target="Goblin", amount="1")
    assert fight.text() == f"Goblin has no wounds to heal; healed: {HAND_GRAZE}."
    goblin = fight.f("Goblin")
    assert goblin.notes == () and goblin.wounds == 0
    assert SYSTEM.lasting(fight.enc, goblin)["locations"] == []
    assert english(SYSTEM.status_line(fight.enc, goblin, reveal=True)) == "T 9/3 · Will 9/3"
    assert english(SYSTEM.status_line(fight.enc, goblin, reveal=False)) == "unhurt"
    with pytest.raises(InvalidInput, match="Goblin has no wound."):
        fight.command("heal", target="Goblin", amount="1")


def test_healing_one_wound_ends_an_effect_that_came_with_none_and_keeps_the_located_wound():
    fight = duel()
    fight.command("attack", target="Goblin", options="called=arm", dice="6 6")  # 9 ≥ 8: the arm
    fight.choose("No defence")
    fight.command("damage", target="Goblin", amount="4")  # > 2: an unlocated wound
    fight.command("damage", target="Goblin", amount="3", options="called=hand", dice="6")  # > −1, < 5: no wound
    assert fight.f("Goblin").wounds == 2 and fight.f("Goblin").notes[1] == HAND_GRAZE
    fight.command("heal", target="Goblin", amount="1")
    assert fight.text() == f"Goblin heals 1 wound: Toughness 8/2; healed: {HAND_GRAZE}."
    goblin = fight.f("Goblin")
    assert goblin.wounds == 1 and [note.partition(":")[0] for note in goblin.notes] == ["arm"]


def test_a_combo_can_split_its_attacks_between_targets():
    fight = duel()
    fight.add("Orc", 1, dodge=1, rerolls=(6, 1))  # ties the Goblin, rerolls lower: joins after it
    fight.command("attack", target="Goblin, Orc", dice="5 5 2 2")
    assert fight.enc.pending.chooser == fight.f("Goblin").id
    fight.choose("No defence")
    assert fight.enc.pending.chooser == fight.f("Orc").id
    fight.choose("Dodge", 6)
    assert fight.f("Goblin").wounds == 1 and fight.f("Orc").wounds == 0
    assert fight.left("Mauve") == 2


# --- dying --------------------------------------------------------------------------


def dying_goblin():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    assert fight.f("Goblin").dying
    fight.next()  # the Goblin is unconscious: its turn is skipped, round 2 begins with Mauve
    return fight


def test_dying_checks_each_round_with_rising_dc_then_stabilising_on_a_10():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    fight.next(3, 1)  # round 2: d10 3, Endurance d6 1 + 3 − 1 = 3 < 4 → DC 5
    assert "Goblin dying: d10 3 (no 10); Endurance d6 1 + 3 − 1 wound = 3 vs DC 4: fails → DC 5." in fight.text()
    assert fight.f("Goblin").dying_dc == 5 and fight.acting() == ["Mauve"]
    fight.next(5, 3)  # Mauve ends; round 3: 3 + 2 = 5 ≥ 5 holds
    assert "holds on" in fight.text()
    fight.next(10)  # round 4: stabilises
    goblin = fight.f("Goblin")
    assert goblin.stable and not goblin.dying and not goblin.dead


def test_a_dying_character_dies_when_the_dc_is_out_of_reach():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    for dc in (5, 6, 7, 8):
        fight.next(1, 1)
        assert fight.f("Goblin").dying_dc == dc
    fight.next(1, 1)  # DC 9 > 6 + 3 − 1
    assert fight.f("Goblin").dead and "out of reach → dies" in fight.text()


def test_with_the_conditions_list_s_dc_6_the_dc_is_out_of_reach_past_6_plus_endurance():
    # "If the DC becomes too high for the character to be able to succeed (ex., the character has Endurance 3
    # and the DC is higher than 9), then the character dies": the wound does not lower the reach.
    fight = duel({"first_dying_dc": 6})
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    for dc in (7, 8, 9):
        fight.next(1, 1)
        assert fight.f("Goblin").dying_dc == dc and not fight.f("Goblin").dead
    fight.next(1, 1)  # DC 10 > 6 + 3
    assert fight.f("Goblin").dead and "fails; DC 10 is out of reach → dies." in fight.text()


def test_wounded_while_dying_dies():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    fight.command("damage", target="Goblin", amount="4")
    goblin = fight.f("Goblin")
    assert goblin.dead and goblin.out and "wounded while dying and dies" in fight.text()


def test_medicine_stabilises_by_removing_dying():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    fight.command("condition_remove", target="Goblin", condition="dying")
    assert fight.f("Goblin").stable
    fight.next()
    fight.next()  # no dying check is rolled any more
    assert "dying" not in fight.text()


@pytest.mark.parametrize("command, condition", [("condition_remove", "dying"), ("condition_add", "stable")])
def test_removing_dying_and_adding_stable_both_stabilise_only_the_dying(command, condition):
    fight = duel()
    with pytest.raises(InvalidInput, match="Goblin is not dying"):
        fight.command(command, target="Goblin", condition=condition)
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    fight.command(command, target="Goblin", condition=condition)
    goblin = fight.f("Goblin")
    assert goblin.stable and not goblin.dying and "Goblin is stabilised (still unconscious)." in fight.text()


# --- morale ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, amount, penalties, condition",
    [
        ("morale", "3", 0, None),
        ("morale", "4", 1, None),
        ("fear", "10", 1, "panicked"),
        ("insanity", "10", 1, "confused"),
        ("rage", "10", 1, "raging"),
        ("morale", "10", 2, None),
    ],
)
def test_morale_damage_outcomes(kind, amount, penalties, condition):
    fight = duel()
    fight.command("damage", target="Goblin", amount=amount, damage_type=kind)
    goblin = fight.f("Goblin")
    assert goblin.morale_penalties == penalties
    assert [c.name for c in goblin.conditions] == ([condition] if condition else [])


def test_insanity_confusion_ends_when_a_morale_penalty_is_removed():
    fight = duel()
    fight.command("damage", target="Goblin", amount="10", damage_type="insanity")
    fight.command("heal", target="Goblin", amount=1, options="morale")
    assert fight.f("Goblin").conditions == () and fight.f("Goblin").morale_penalties == 0
    # the table needs telling: without it they would still roll the confusion chart next turn
    assert "Goblin recovers 1 morale penalty: Will 9/3.\nGoblin is no longer confused." in fight.text()


def test_recovering_a_morale_penalty_at_zero_will_says_the_character_is_no_longer_broken():
    fight = duel()
    for _ in range(5):
        fight.command("damage", target="Goblin", amount="12", damage_type="morale")
    assert any(c.name == "broken" for c in fight.f("Goblin").conditions)
    fight.command("heal", target="Goblin", amount=1, options="morale")
    assert fight.f("Goblin").conditions == ()
    assert "Goblin recovers 1 morale penalty: Will 1/−5.\nGoblin is no longer broken." in fight.text()


def test_insanity_makes_a_timed_confusion_last_until_a_morale_penalty_is_removed():
    # "If a character's Will is beaten by an insanity effect, he is treated as Confused until at least one
    # morale penalty has been removed": a confusion with rounds to run no longer runs out on its own.
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="confused", duration="1 rounds")
    fight.command("damage", target="Goblin", amount="10", damage_type="insanity")
    (confused,) = fight.f("Goblin").conditions
    assert confused.rounds is None and confused.note == "until a morale penalty is removed"
    fight.command("heal", target="Goblin", amount=1, options="morale")
    assert fight.f("Goblin").conditions == ()


def test_will_zero_breaks_and_the_spirit_check_dc_falls_each_round():
    fight = duel()
    for _ in range(4):
        fight.command(
            "damage", target="Goblin", amount="12", damage_type="morale"
        )  # untyped, beats Will: two penalties
    goblin = fight.f("Goblin")
    assert will(goblin) == 1
    fight.command("damage", target="Goblin", amount="5", damage_type="morale")
    assert will(fight.f("Goblin")) == 0 and "Goblin is Broken" in fight.text()
    fight.command("attack", target="Goblin", dice="1")  # helpless: auto-hit, no defence
    assert "cannot defend (helpless)" in fight.text()
    fight.next(2)  # Goblin cannot act; round 2: Spirit 2 + 3 = 5 vs 10
    assert "still Broken; DC falls to 9" in fight.text()
    fight.next(6)  # 6 + 3 = 9 ≥ 9
    goblin = fight.f("Goblin")
    assert "no longer Broken" in fight.text() and will(goblin) == 1


# --- conditions --------------------------------------------------------------------------


def test_staggered_rolls_its_stunned_seconds_each_turn():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="staggered", duration="2 rounds")
    fight.next(4)  # Goblin's turn: d6 4 stunned
    assert "Goblin is Staggered: d6 4 → stunned 4 s." in fight.text()
    assert fight.left("Goblin") == 2
    fight.next()  # round 1 ends: 1 round left
    fight.next(6)  # Goblin stunned the whole turn: ends by itself
    assert fight.acting() == ["Mauve"] and "No seconds left this turn." in fight.text()
    assert fight.f("Goblin").conditions == ()


def test_staggered_without_a_duration_rolls_d6_rounds():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="staggered", dice="3")
    assert fight.f("Goblin").conditions[0].rounds == 3


def test_a_d6_of_rounds_counts_one_round_as_one():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="staggered", dice="1")
    assert "Staggered lasts d6 1 round." in fight.text()
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="confused", duration="3 rounds")
    fight.next(19, 1)
    assert "regains control for 1 round" in fight.text() and "1 rounds" not in fight.text()


def test_stunned_takes_seconds_from_the_current_turn():
    fight = duel()
    fight.command("condition_add", target="Mauve", condition="stunned", duration="3 seconds")
    assert fight.left("Mauve") == 3 and "Mauve loses 3 s (stunned)." in fight.text()


@pytest.mark.parametrize("duration", ["0 seconds", "61 s"])
def test_a_stun_of_no_seconds_or_past_ten_rounds_is_refused_not_changed(duration):
    fight = duel()
    with pytest.raises(InvalidInput, match="Stunned lasts 1 to 60 seconds"):
        fight.command("condition_add", target="Goblin", condition="stunned", duration=duration)
    fight.command("condition_add", target="Goblin", condition="stunned", duration="60 s")
    assert "Goblin is stunned: loses 60 s of their next turn." in fight.text()


@pytest.mark.parametrize("duration", ["0 rounds", "101 rounds"])
def test_a_duration_of_no_rounds_or_past_a_hundred_is_refused_not_changed(duration):
    fight = duel()
    with pytest.raises(InvalidInput, match="A condition lasts 1 to 100 rounds"):
        fight.command("condition_add", target="Goblin", condition="confused", duration=duration)
    assert not fight.enc.find("Goblin").conditions


def test_confused_rolls_the_d20_chart_every_turn_and_posts_it():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="confused", duration="3 rounds")
    fight.next(14)
    assert "🌀 Confusion: d20 14: Goblin falls prone." in fight.text()
    fight.next()
    fight.next(6, 5, 9)  # scream, ignore the 5, drop what it holds
    assert "d20 6, 5, 9: Goblin drops what they are holding, screaming" in fight.text()
    fight.next()
    fight.next(19, 2)
    assert "regains control for 2 rounds" in fight.text()


def test_confusion_result_1_rerolls_and_lengthens_the_confusion():
    fight = duel()
    fight.command("condition_add", target="Goblin", condition="confused", duration="2 rounds")
    fight.next(1, 3, 1, 10)  # 1 → +3 rounds; the next 1 is ignored; 10 stares
    assert "Goblin stares off into space" in fight.text()
    assert next(c for c in fight.f("Goblin").conditions if c.name == "confused").rounds == 5


# --- whose dice a player enters ----------------------------------------------------------------


def test_a_players_dice_do_not_roll_the_dying_check_their_turn_ends_into():
    fight = duel()
    fight.command("damage", target="Goblin", amount="9")  # the Goblin is dying
    fight.act("run")
    ends = SYSTEM.command("act", PLAYER, {"action": "run"})
    bots = apply(fight.enc, ends)  # what the bot's own dice make of it
    assert "Goblin dying: d10" in "\n".join(e.text for e in bots.events)
    with pytest.raises(RulesError, match="1 entered die was not needed"):
        fight.command("act", by=PLAYER, action="run", dice="10")
    fight.do(ends)
    assert fight.text() == "\n".join(e.text for e in bots.events)
    assert not any(e.entered for e in fight.events)


def test_a_players_dice_do_not_roll_a_confused_npcs_chart():
    fight = duel(weapon_skill=0)
    fight.command("condition_add", target="Goblin", condition="confused")
    fight.act("move", by=PLAYER)
    fight.act("move", by=PLAYER)
    with pytest.raises(RulesError, match="1 entered die was not needed"):
        fight.command("attack", by=PLAYER, target="Goblin", dice="1 20")
    fight.command("attack", by=PLAYER, target="Goblin", dice="1")  # the bot rolls the Goblin's d20
    confusion = [e for e in fight.events if "Confusion" in e.text]
    assert len(confusion) == 1 and not confusion[0].entered
    assert "d6 1 +0 = 1 vs Goblin's Target 4: miss" in fight.text() and fight.events[0].entered


def test_the_gms_dice_still_roll_the_npcs_dying_check():
    fight = duel()
    fight.command("damage", target="Goblin", amount="9")
    fight.act("run")
    fight.act("run", dice="10")
    assert "Goblin dying: d10 10 → stabilises" in fight.text()


def test_a_players_dice_reroll_only_their_own_character_in_an_initiative_tie():
    fight = Fight()
    fight.add("Gob", 4, reflex=4)
    join = dict(by=PLAYER, name="Mauve", sheet={"reflex": 3, "dex": 1}, npc=False, controller_id=PLAYER_ID)
    with pytest.raises(RulesError, match="1 entered die was not needed"):
        fight.do(AddCombatants(**join, dice=(4, 6, 1)))
    fight.do(AddCombatants(**join, dice=(4, 6)))
    reroll = next(e.text for e in fight.events if "tie" in e.text)
    assert "Mauve d6 6 + 4 = 10" in reroll and "Gob d6 6 + 4" not in reroll


# --- commands -------------------------------------------------------------------------------


def test_commands_refuse_bad_input_clearly():
    with pytest.raises(InvalidInput, match=r"\+X/\+Y"):
        SYSTEM.command("attack", GM, {"target": "Goblin", "options": "mod=3"})
    with pytest.raises(RulesError, match="not used"):
        SYSTEM.command("plotpoint_spend", GM, {})
    fight = duel()
    with pytest.raises(InvalidInput, match="Called shots"):
        fight.command("attack", target="Goblin", options="called=nose", dice="1")
    with pytest.raises(InvalidInput, match="no weapon called"):
        fight.command("attack", target="Goblin", weapon="laser", dice="1")
    with pytest.raises(InvalidInput, match="Unknown condition"):
        fight.command("condition_add", target="Goblin", condition="sparkly")


@pytest.mark.parametrize(
    "command, options, typo",
    [
        ("attack", {"target": "Goblin", "options": "flankd"}, "flankd"),
        ("attack", {"target": "Goblin", "options": "range=20 bonsu=4"}, "bonsu"),
        ("save", {"actor": "Goblin", "kind": "reflex", "dc": 4, "options": "bonsu=4"}, "bonsu"),
        ("damage", {"target": "Goblin", "amount": "fall", "options": "height=20 surfce=concrete"}, "surfce"),
        ("heal", {"target": "Goblin", "options": "moral"}, "moral"),
        ("act", {"action": "cast", "options": "spell=Fireball dealy=11"}, "dealy"),
    ],
)
def test_an_unknown_option_word_is_refused_with_the_known_ones(command, options, typo):
    with pytest.raises(InvalidInput, match=f"Unknown option `{typo}` for /{command}. Options: `"):
        SYSTEM.command(command, GM, options)


@pytest.mark.parametrize(
    "command, options",
    [
        (
            "attack",
            "combo=2 mod=+1/0 range=20 distance=20 weapon=sword called=arm cover=light concealed invisible speed=30 "
            "flanked flat-footed flatfooted surprised surprise cost=4 nonlethal",
        ),
        ("save", "bonus=2"),
        ("damage", "height=20 surface=concrete type=fear morale called=leg nonlethal"),
        ("heal", "morale"),
        ("act", "seconds=3 what='picks the lock' spell=Fireball delay=11 larger=1"),
    ],
)
def test_every_option_word_a_command_reads_is_taken(command, options):
    given = {
        "attack": {"target": "Goblin", "actor": "Goblin"},
        "save": {"actor": "Goblin", "kind": "reflex"},
        "damage": {"target": "Goblin", "amount": "2"},
        "heal": {"target": "Goblin", "amount": "2"},
        "act": {"actor": "Goblin", "action": "cast"},
    }[command]
    SYSTEM.command(command, GM, given | {"options": options})


def test_every_option_word_a_collision_reads_is_taken():
    given = {"target": "Goblin", "amount": "collision"}
    SYSTEM.command("damage", GM, given | {"options": "with=Orc speed=10 crushed nonlethal"})
    SYSTEM.command("damage", GM, given | {"options": "object=2 speed=10"})


def test_condition_add_reads_no_option_word_and_refuses_one_changing_nothing():
    fight = duel()
    before = fight.enc
    with pytest.raises(InvalidInput, match="/condition add takes no options: `rounds` is not one."):
        fight.command("condition_add", target="Goblin", condition="held", options="rounds=2")
    assert fight.enc == before
    fight.command("condition_add", target="Goblin", condition="held", duration="2 rounds")
    assert [c.name for c in fight.f("Goblin").conditions] == ["held"]


def test_a_check_rolls_d6_plus_the_stat():
    fight = duel()
    fight.command("save", actor="Goblin", kind="reflex", dc=4, roll=4)
    assert "Goblin Reflex check: d6 4 +0 = 4 vs DC 4: success." in fight.text()


def test_weapons_are_validated_on_the_sheet():
    with pytest.raises(RulesError, match="needs a damage"):
        SYSTEM.parse_sheet('weapons="sword"')
    sheet = SYSTEM.parse_sheet('weapons="arming sword:1d8;heavy crossbow:1d10:15" reflex=2')
    assert sheet["reflex"] == 2


@pytest.mark.parametrize(
    ("weapons", "refusal"),
    [
        ("club:fireball", "`fireball` is not a dice expression"),
        ("club:1d6+", "is not a dice expression"),
        ("club:1d1000001", "faces"),
        ("club:1d6:²", "`²` in weapon `club` is neither a reach"),
    ],
)
def test_a_weapon_that_could_never_be_rolled_is_refused_with_the_sheet(weapons, refusal):
    # not on its first hit: the NPC would be in the fight by then
    with pytest.raises(InvalidInput, match=refusal):
        SYSTEM.parse_sheet(f'weapons="{weapons}"')
    assert SYSTEM.parse_sheet('weapons="club:(2d6)kh1:2"')["weapons"] == "club:(2d6)kh1:2"


@pytest.mark.parametrize(
    ("weapons", "refusal"),
    [
        ("club:fireball", "Stat `weapons`: `fireball` is not a dice expression (try `2d6+3` or `4d6kh3`)."),
        ("club", "Stat `weapons`: Weapon `club` needs a damage expression"),
    ],
)
def test_a_refused_weapon_reads_as_one_sentence(weapons, refusal):
    # the sheet's refusal is said once: no second full stop after the rules' own
    with pytest.raises(InvalidInput) as refused:
        SYSTEM.parse_sheet(f'weapons="{weapons}"')
    said = english(refused.value.said)
    assert said.startswith(refusal)
    assert not said.endswith("..")


def test_a_fight_stored_before_weapon_damage_was_checked_still_loads():
    # its next command reads it again: the check is for sheets entered, not for fights already running
    fight = Fight()
    fight.add("Orc", 3, weapons="club:1d6")
    data = fight.enc.model_dump(mode="json")
    data["combatants"][0]["sheet"]["weapons"] = "club:fireball"
    assert SYSTEM.load(data).combatants[0].sheet.weapons == "club:fireball"


# --- a whole fight ----------------------------------------------------------------------------


def test_a_full_fight_carry_over_delayed_spell_combo_parry_dying_stabilised_and_a_morale_break():
    fight = Fight()
    log: list[str] = []

    def step(action_or_name, *args, **kwargs):
        if isinstance(action_or_name, str):
            getattr(fight, action_or_name)(*args, **kwargs)
        else:
            fight.do(action_or_name)
        log.extend(e.text for e in fight.events)

    step(
        AddCombatants(
            by=GM,
            name="Mauve",
            npc=False,
            controller_id=PLAYER_ID,
            dice=(6,),
            sheet={"reflex": 3, "weapon_skill": 3, "weapons": "arming sword:1d8"},
        )
    )
    step(
        AddCombatants(by=GM, name="Mira", npc=False, controller_id=3, dice=(5,), sheet={"reflex": 3, "magic_skill": 2})
    )
    step(AddCombatants(by=GM, name="Goblin", dice=(5,), sheet={"parry": 1}))
    step(AddCombatants(by=GM, name="Orc", dice=(3,), sheet={"spirit": 0}))
    step("next")
    assert fight.acting() == ["Mauve"]
    # a combo of two on the Goblin: both hit (5 and 4 + 3 vs 4), d8s 6 and 2 → 9 and 5
    step("command", "attack", target="Goblin", options="combo=2", dice="5 4 6 2")
    step("choose", "Parry", 6, 1)  # 7 vs DC 7 negates the first; 2 lets the second through
    assert fight.f("Goblin").wounds == 1 and fight.left("Mauve") == 2
    # a second attack with 2 s left: 2 s carry over; 8 + 3 = 11 ≥ Toughness 8 → Dying
    step("command", "attack", target="Goblin", dice="6 8")
    step("choose", "Parry", 1)
    assert fight.f("Goblin").dying and fight.acting() == ["Mira"]
    for _ in range(4):
        step("act", "move", by=Actor(user_id=3))
    step("act", "cast", by=Actor(user_id=3), target="Orc", options="spell=Fireball delay=11")
    assert fight.acting() == ["Orc"]  # the dying Goblin's turn is skipped
    step("command", "damage", target="Orc", amount="7", damage_type="morale")
    step("command", "damage", target="Orc", amount="7", damage_type="morale")
    assert will(fight.f("Orc")) == 2
    step("command", "damage", target="Orc", amount="3", damage_type="fear")
    step("command", "damage", target="Orc", amount="1", damage_type="morale")
    assert will(fight.f("Orc")) == 0
    step("next", 10, 3)  # round 2: the Goblin's d10 is a 10; the Orc's Spirit d6 3 vs 10
    assert fight.f("Goblin").stable and fight.acting() == ["Mauve"] and fight.left("Mauve") == 4
    step("next")
    assert fight.acting() == ["Mira"] and fight.left("Mira") == 4
    step("next", 2)  # Mira's 4 s pass; round 3, Orc's Spirit d6 2 vs 9
    assert fight.f("Mira").effects[0].seconds == 7
    step("next")
    step("next", 1)  # Mira's whole turn; round 4, Orc 1 vs 8
    assert fight.f("Mira").effects[0].seconds == 1
    step("next")
    step("act", "move", by=Actor(user_id=3))
    step("command", "damage", target="Orc", amount="2d6", dice="4 5")

    expected = [
        "Mauve initiative: d6 6 + Reflex 3 + Dex 0 = 9",
        "Mira initiative: d6 5 + Reflex 3 + Dex 0 = 8",
        "Round 1",
        "Mauve makes a combo of 2 attacks with arming sword: d6 5 +3 = 8 vs Goblin's Target 4: hit; "
        "d6 4 +3 = 7 vs Goblin's Target 4: hit.",
        "🛡️ Goblin may defend against 2 hits (DC 7): waiting for the choice.",
        "Goblin parries: d6 6 +1 = 7 vs DC 7: negated; d6 1 +1 = 2 vs DC 7: fails.",
        "Goblin: 1d8 (2) + Strength 3 = 5 vs Toughness 9/3: > Minimum: wound.",
        "Mauve uses a combo (4 s): 2 s left.",
        "Goblin: 1d8 (8) + Strength 3 = 11 vs Toughness 8/2: ≥ Toughness: wound and Dying.",
        "Mauve attacks Goblin (4 s): 0 s left, 2 s carry into the next turn.",
        "Mira casts Fireball at Orc (4 s): 0 s left, 2 s carry into the next turn.",
        "Orc: Untyped morale damage 7 vs Will 6/0: Will beaten → two morale penalties.",
        "Orc: Fear morale damage 3 vs Will 2/−4: Will beaten → morale penalty and Panicked.",
        "Orc: Untyped morale damage 1 vs Will 1/−5: morale penalty.",
        "Orc is Broken: gives up, helpless, no actions or defence; a Spirit check each round (DC 10).",
        "Round 2",
        "Goblin dying: d10 10 → stabilises (still unconscious).",
        "Orc (Broken): Spirit d6 3 + 0 = 3 vs DC 10: still Broken; DC falls to 9.",
        "Mauve is still busy (attacks Goblin) for 2 s from last turn.",
        "Mira is still busy (casts Fireball at Orc) for 2 s from last turn.",
        "Round 3",
        "Round 4",
        "✨ Mira's Fireball on Orc takes effect now, after second 1 of Mira's turn (11 s delay): GM, apply what it "
        "does.",
        "Orc: 2d6 (4, 5) = 9 vs Toughness 9/3: ≥ Toughness: wound and Dying.",
    ]
    position = 0
    for line in expected:
        found = next((i for i in range(position, len(log)) if log[i] == line), None)
        assert found is not None, f"missing or out of order: {line}\n\n" + "\n".join(log)
        position = found + 1


@pytest.mark.parametrize("stats", ["reflex=1001", "dex=-1001", "strength=1000000000000000000", "scale=11"])
def test_a_sheet_number_past_any_creature_is_refused_naming_it(stats):
    with pytest.raises(InvalidInput, match=stats.partition("=")[0]):
        SYSTEM.parse_sheet(stats)


@pytest.mark.parametrize("stats", ["reflex=3 reflex=4", "reflex=3 Reflex=3", "will_bonus=1 will-bonus=2"])
def test_a_stat_given_twice_is_refused_naming_it(stats):
    key = stats.split("=")[0].casefold().replace("-", "_")
    with pytest.raises(InvalidInput, match=f"Stat `{key}` is given twice: keep one of them."):
        SYSTEM.parse_sheet(stats)
    assert SYSTEM.parse_sheet("reflex=3 dex=4")["reflex"] == 3


# --- the campaign settings where the seed contradicts itself ------------------------


@pytest.mark.parametrize("settings, cost", [(None, 4), ({"stand_from_prone_seconds": 2}, 2)])
def test_standing_from_prone_takes_the_time_table_s_4_seconds_or_the_prose_s_2(settings, cost):
    fight = duel(settings)
    fight.act("prone")
    fight.act("stand")
    assert f"stands up from prone ({cost} s): {5 - cost} s left." in fight.text()


@pytest.mark.parametrize("settings, left", [(None, 4), ({"aim_seconds": 1}, 5)])
def test_aiming_takes_2_seconds_or_the_time_table_s_other_1(settings, left):
    fight = duel(settings, ranged_skill=1, weapons="heavy crossbow:1d10:15")
    fight.act("aim")
    assert fight.left("Mauve") == left and fight.f("Mauve").aimed


@pytest.mark.parametrize(
    "settings, dc, starts, check",
    [
        (None, 4, "(DC 4, −1 per wound)", "Endurance d6 1 + 3 − 1 wound = 3 vs DC 4: fails → DC 5."),
        # The conditions' list: "must make a DC 6 endurance check every round", no penalty for wounds.
        ({"first_dying_dc": 6}, 6, "(DC 6)", "Endurance d6 1 + 3 = 4 vs DC 6: fails → DC 7."),
    ],
)
def test_the_first_dying_check_is_dc_4_less_wounds_or_the_conditions_list_s_dc_6(settings, dc, starts, check):
    fight = duel(settings)
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    assert f"Goblin is Dying: unconscious, an Endurance check each round {starts}." in fight.text()
    fight.next(3, 1)  # round 2: d10 3, Endurance d6 1
    assert check in fight.text()
    fight.command("condition_remove", target="Goblin", condition="dying")
    fight.command("condition_add", target="Goblin", condition="dying")
    assert fight.f("Goblin").dying_dc == dc and f"Goblin is Dying (DC {dc})." in fight.text()


@pytest.mark.parametrize("settings, dying", [(None, True), ({"dying_at_toughness": False}, False)])
def test_damage_equal_to_toughness_starts_dying_unless_only_more_than_toughness_does(settings, dying):
    fight = duel(settings)
    fight.command("attack", target="Goblin", dice="6 6")  # 6 + 3 = 9 against Toughness 9/3
    fight.choose("No defence")
    goblin = fight.f("Goblin")
    assert goblin.wounds == 1 and goblin.dying == dying


@pytest.mark.parametrize(
    "settings, verdict, wounds",
    [(None, "≤ Minimum: no wound", 0), ({"called_shot_meets_minimum": True}, "≥ Minimum: wound", 1)],
)
def test_a_called_shot_meeting_its_minimum_toughness_wounds_only_if_meeting_beats(settings, verdict, wounds):
    fight = duel(settings, strength=0)
    fight.command("attack", target="Goblin", options="called=arm", dice="6 2")  # 2 against the arm's 8/2
    fight.choose("No defence")
    assert f"2 vs Toughness 8/2 (arm): {verdict}" in fight.text() and fight.f("Goblin").wounds == wounds


def test_an_encounter_saved_with_the_round_each_turn_was_put_off_in_still_loads():
    fight = trio()
    fight.do(DelayTurn(by=PLAYER, actor="Mauve"))
    stored = fight.enc.model_dump(mode="json")
    stored["turns"]["put_off"] = {fight.f("Mauve").id: 1}
    loaded = type(fight.enc).model_validate(stored)
    assert loaded == fight.enc


def test_only_a_rider_can_dismount_and_only_once_mounted():
    fight = duel()
    with pytest.raises(InvalidInput, match="Mauve is not mounted"):
        fight.act("dismount")
    fight.act("mount")
    with pytest.raises(InvalidInput, match="Mauve is already mounted"):
        fight.act("mount")
    assert fight.left("Mauve") == 4  # the reins taken once: 2 s, not 4
    fight.act("dismount")
    assert "Mauve lets go of the reins (0 s)" in fight.text()
    assert not fight.f("Mauve").mounted


def test_a_tie_rerolls_negative_modifier_and_total_are_written_with_the_minus_sign():
    fight = Fight()
    fight.add("Slug", 5, reflex=-4)  # 5 − 4 = 1
    fight.add("Newt", 1, rerolls=(1, 2))  # 1, a tie: Slug rerolls 1 − 4 = −3, Newt 2
    assert "Initiative tie at 1: reroll Slug d6 1 − 4 = −3, Newt d6 2." in fight.text()
