"""What Fightin' Words tells the table: who is pinged, how numbers are shown,
and what the tracker and the turn message say about seconds."""

from __future__ import annotations

import pytest

from rules.actions import Choose
from rules.errors import InvalidInput
from rules.said import english
from rules.systems.fightin_words import SYSTEM
from tests.rules.test_fightin_words import GM, PLAYER, PLAYER_ID, Fight, duel


def test_a_delayed_spell_going_off_pings_the_gm_who_resolves_it():
    fight = duel()
    fight.act("cast", by=PLAYER, target="Goblin", options="spell=Blast delay=1")
    assert fight.events[-1].ping == ()  # casting pings nobody
    fight.act("move", by=PLAYER)
    fired = next(e for e in fight.events if "takes effect" in e.text)
    assert fired.ping == (GM.user_id,) and "GM, apply what it does" in fired.text


def test_the_defence_prompt_line_pings_nobody_the_choice_goes_to_the_defenders_player():
    fight = duel()
    fight.next()  # the Goblin attacks Mauve
    fight.command("attack", target="Mauve", dice="6 1")
    line = next(e for e in fight.events if e.text.startswith("🛡️"))
    assert line.text == "🛡️ Mauve may defend against a hit (DC 4): waiting for the choice." and line.ping == ()
    assert fight.enc.pending.users == (PLAYER_ID,)


def test_a_defence_answered_with_dice_rolled_at_the_table_uses_them_and_refuses_extras():
    fight = duel()
    fight.command("attack", target="Goblin", options="combo=2", dice="6 6 1 1")
    pending = fight.enc.pending
    with pytest.raises(Exception, match="not needed"):
        fight.do(Choose(by=GM, pending_id=pending.id, option="Parry", dice=(6, 6, 6)))
    assert fight.enc.pending == pending  # refused: still waiting
    fight.do(Choose(by=GM, pending_id=pending.id, option="Parry", dice=(6, 2)))
    assert "Goblin parries: d6 6 +1 = 7 vs DC 7: negated; d6 2 +1 = 3 vs DC 7: fails." in fight.text()


def test_turns_of_those_who_cannot_act_pass_with_the_reason():
    fight = duel()
    fight.add("Orc", 1, rerolls=(6, 1))
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")  # 8 + 3 ≥ 9: dying
    fight.command("damage", target="Orc", amount="12", damage_type="morale")
    fight.command("damage", target="Orc", amount="12", damage_type="morale")
    fight.command("damage", target="Orc", amount="12", damage_type="morale")
    fight.command("damage", target="Orc", amount="12", damage_type="morale")
    fight.command("damage", target="Orc", amount="5", damage_type="morale")
    assert "Orc is Broken" in fight.text()
    fight.next(3, 6, 1)  # round 2: the Goblin's d10 3 and d6 6 hold on; the Orc's Spirit d6 1 fails
    assert "Goblin's turn passes (dying)." in fight.text() and "Orc's turn passes (Broken)." in fight.text()
    fight.command("condition_remove", target="Goblin", condition="dying")
    fight.next(1)  # round 3: the Orc's Spirit check fails
    assert "Goblin's turn passes (stable but unconscious)." in fight.text()


def test_a_dead_combatant_passes_silently():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    fight.command("damage", target="Goblin", amount="4")  # wounded while dying: dead
    fight.next()
    assert "Goblin" not in fight.text()


def test_the_tracker_line_shows_owed_seconds_and_a_pending_spell_and_the_turn_message_the_seconds_left():
    fight = Fight()
    fight.add("Mira", 6, player=True, reflex=3)
    fight.add("Dummy", 1)
    fight.next()
    fight.act("run", by=PLAYER)
    fight.act("cast", by=PLAYER, target="Dummy", options="spell=Fireball delay=11")
    mira = fight.f("Mira")
    line = english(SYSTEM.status_line(fight.enc, mira, reveal=True))
    assert "↪ 1 s owed to the next turn" in line and "✨ Fireball on Dummy in 12 of Mira's seconds" in line
    fight.next()  # Dummy ends; Mira carries 1 s of casting
    assert [english(line) for line in SYSTEM.turn_summary(fight.enc, mira.id)] == ["⏱ 5 of 6 s left"]
    assert "↪" not in english(SYSTEM.status_line(fight.enc, fight.f("Mira"), reveal=True))


def test_negative_minimums_are_written_with_a_minus_sign():
    fight = duel()
    fight.add("Kobold", 1, spirit=-2, rerolls=(6, 1))
    assert "Will 4/−2" in english(SYSTEM.status_line(fight.enc, fight.f("Kobold"), reveal=True))
    fight.command("damage", target="Kobold", amount="5", damage_type="morale")
    assert "Untyped morale damage 5 vs Will 4/−2: Will beaten → two morale penalties." in fight.text()
    assert "Kobold's Will is now 2/−4." in fight.text()


def test_melee_damage_names_what_it_adds():
    fight = duel(strength=2, scale=1)
    fight.command("attack", target="Goblin", dice="6 5")
    fight.choose("No defence")
    assert "1d8 (5) + Strength 2 + 3×scale 3 = 10 vs Toughness 9/3" in fight.text()


def test_aiming_shows_as_a_bonus_against_the_range_penalty():
    fight = duel(ranged_skill=2, weapons="heavy crossbow:1d10:15")
    fight.act("aim")
    fight.command("attack", target="Goblin", options="range=20", dice="2 7")
    assert "d6 2 +2 range −1 aimed +1 = 4 vs Goblin's Target 4: hit" in fight.text()


def test_the_dying_check_names_endurance_and_the_wounds():
    fight = duel()
    fight.command("attack", target="Goblin", dice="6 8")
    fight.choose("No defence")
    fight.next(3, 6)
    assert "Goblin dying: d10 3 (no 10); Endurance d6 6 + 3 − 1 wound = 8 vs DC 4: holds on." in fight.text()


def test_a_tie_reroll_shows_each_die_and_modifier():
    fight = Fight()
    fight.add("Goblin", 3, reflex=2, dex=1)
    fight.add("Kobold", 4, reflex=1, dex=1, rerolls=(2, 5))  # 6 each; the tie rerolls 2 and 5
    reroll = next(e.text for e in fight.events if e.text.startswith("Initiative tie"))
    goblin, kobold = reroll.removeprefix("Initiative tie at 6: reroll ").rstrip(".").split(", ")
    assert goblin.endswith("d6 2 + 3 = 5") and kobold.endswith("d6 5 + 2 = 7")


def test_a_skill_check_takes_its_bonus_from_the_options():
    fight = duel()
    fight.command("save", by=PLAYER, actor="Mauve", kind="medicine", dc=5, options="bonus=2", roll=3)
    assert "Mauve Medicine (skill) check: d6 3 +2 = 5 vs DC 5: success." in fight.text()
    fight.command("save", actor="Goblin", kind="first aid", roll=1)
    assert "Goblin First aid (skill) check: d6 1 +0 = 1." in fight.text()
    with pytest.raises(InvalidInput, match="a stat .* or a skill"):
        fight.command("save", actor="Goblin", kind="2+2", roll=1)


def test_checks_the_bot_rolls_itself_are_not_taken_for_skills():
    fight = duel()
    with pytest.raises(InvalidInput, match="rolls itself as each round opens"):
        fight.command("save", actor="Goblin", kind="dying", roll=3)


def test_a_flanked_defender_is_told_in_the_prompt():
    fight = duel()
    fight.next()
    fight.command("attack", target="Mauve", options="flanked", dice="6 1")
    assert (
        english(fight.enc.pending.prompt)
        == "Mauve: defend against a hit from Goblin (DC 4, flanked: −1)? Block +0, Dodge +3, Parry +3"
    )
    assert "🛡️ Mauve may defend against a hit (DC 4, flanked: −1): waiting for the choice." in fight.text()
