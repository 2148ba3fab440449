"""✍️ sits on a line only when a value it shows was entered by hand: a die the bot rolls after a choice
(a defence nobody answered, a die the answer added) does not take the mark of dice entered before it."""

from __future__ import annotations

from rules.actions import Choose
from rules.engine import apply
from rules.secrets import conceal
from tests.helpers import GM
from tests.rules.test_fightin_words import PLAYER, Fight
from tests.rules.test_rotted_capes import ALICE, cmd, texts, who
from tests.rules.test_rotted_capes_table import brutes_turn, table


def _line(fight, start):
    return next(e for e in fight.events if e.text.startswith(start))


def _shields():
    """Mira (a player) against two Orcs whose Block of +9 negates whatever the bot rolls."""
    fight = Fight()
    fight.add("Mira", 4, player=True, reflex=3, ranged_skill=2, weapons="bomb:2d6:10;sword:1d8")
    fight.add("Orc 1", 2, block=9)
    fight.add("Orc 2", 1, block=9)
    fight.next()
    return fight


def test_an_area_attacks_entered_damage_marks_the_damage_line_not_a_defence_the_bot_rolled():
    fight = _shields()
    fight.command("attack", by=PLAYER, target="Orc 1, Orc 2", options="area", dice="6 6 6")
    assert _line(fight, "Mira makes an area attack").entered
    fight.do(Choose(by=GM, pending_id=fight.enc.pending.id, option="block", timed_out=True))
    assert "Orc 1 blocks: " in fight.text() and "negated" in fight.text()
    assert not any(e.entered for e in fight.events)
    fight.choose("No defence")
    assert _line(fight, "Orc 2: 2d6 (6, 6) = 12").entered
    assert [e.entered for e in fight.events].count(True) == 1


def test_a_hit_the_bots_defence_negates_shows_no_mark_after_the_choice():
    fight = _shields()
    fight.command("attack", by=PLAYER, target="Orc 1", weapon="sword", dice="6 5")
    assert _line(fight, "Mira makes an attack").entered
    fight.choose("Block")
    assert "negated" in fight.text()
    assert not any(e.entered for e in fight.events)


def test_a_die_the_plot_points_disadvantage_adds_is_the_bots_and_said_so():
    # The GM enters one d20 for a hidden Brute; Nova's point then wants a second: the bot rolls it
    # (refusing it would leave her point unspendable by its button), and says so beside the roll.
    enc = brutes_turn(table())
    enc = enc.update(who(enc, "Brute").id, hidden=True)
    out = cmd(enc, "attack", GM, target="Nova", damage="1d6", roll=1)
    pending = out.state.pending
    assert pending.kind == "plot_disadvantage"
    out = apply(out.state, Choose(by=ALICE, pending_id=pending.id, option="Spend a Plot Point: disadvantage"))
    roll = next(e for e in out.events if e.kind == "roll")
    added = roll.text.split("d20 dis (1, ")[1].split(")")[0]
    assert roll.entered  # it shows the 1 that was entered
    note = out.events[-1]
    assert not note.entered
    assert (
        note.text == f"Dice not entered, needed after “Spend a Plot Point: disadvantage”: {added} (rolled by the bot)."
    )
    assert (
        conceal(note.said)
        == "Dice not entered, needed after “Spend a Plot Point: disadvantage”: ? (rolled by the bot)."
    )


def test_a_plot_point_answered_with_the_missing_die_says_nothing_of_the_bot():
    enc = brutes_turn(table())
    out = cmd(enc, "attack", GM, target="Nova", damage="1d6", roll=1)
    pending = out.state.pending
    out = apply(
        out.state, Choose(by=ALICE, pending_id=pending.id, option="Spend a Plot Point: disadvantage", dice=(9,))
    )
    assert "d20 dis (1, 9)" in texts(out)[-1]
    assert not any("rolled by the bot" in line for line in texts(out))
