"""What a fight hands back to its campaign: only what it changed."""

from __future__ import annotations

from rules.carry import after, changed, handed_back, written


def test_a_value_the_fight_left_as_it_found_it_is_not_written():
    assert changed({"stamina": 20, "plot_points": 1}, {"stamina": 12, "plot_points": 1}) == {"stamina": 12}
    assert changed({"stamina": 20}, {"stamina": 20, "wounds": 2}) == {"wounds": 2}  # a key it added counts
    assert changed(None, {"stamina": 20}) == {"stamina": 20}  # not known how it joined: all of it


def test_a_campaign_count_takes_the_fights_change_on_top_of_the_changes_meanwhile():
    # the pool was 2 as the fight began; a check between fights put one in; the fight spent two
    assert handed_back({"pool": 3}, {"pool": 2}, {"pool": 0}) == {"pool": 1}
    assert handed_back({"pool": 0}, {"pool": 2}, {"pool": 0}) == {"pool": 0}  # never below none
    assert handed_back({"pool": 3}, {"pool": 2}, {"pool": 2}) == {}  # untouched by the fight: stays 3
    assert handed_back({"mode": "a"}, {"mode": "a"}, {"mode": "b"}) == {"mode": "b"}  # not a count: the fight's
    assert handed_back({"pool": 3}, None, {"pool": 0}) == {"pool": 0}


def test_a_characters_value_not_stored_yet_is_written_as_the_fight_left_it():
    # shown from then on, as any fight's end shows it; a stored one the fight left alone stays
    assert written({"stamina": 20}, {"stamina": 12, "plot_points": 1}, {"stamina": 12, "plot_points": 1}) == {
        "plot_points": 1
    }


def test_a_value_the_fight_took_away_is_gone_from_the_stored_ones():
    # dying as it joined, with its DC; stable and no longer dying at the end: the DC is not kept
    stored = {"wounds": 3, "dying": True, "dying_dc": 8, "notes": "x"}
    assert after(stored, {"wounds": 3, "dying": True, "dying_dc": 8}, {"wounds": 3, "dying": False}) == {
        "wounds": 3,
        "dying": False,
        "notes": "x",
    }
    # a value stored meanwhile that the fight never held stays; not known how it joined: nothing is taken away
    assert after({"wounds": 1, "dying_dc": 7}, None, {"wounds": 2}) == {"wounds": 2, "dying_dc": 7}
