"""Non-lethal attacks, holds, blasts and size: the seed's grapple and wyrm examples."""

from __future__ import annotations

import re

import pytest

from rules.actions import RemoveCombatant
from rules.engine import apply
from rules.errors import DiceError, InvalidInput, NotAllowed
from rules.said import english
from rules.systems.factions import SYSTEM
from rules.systems.factions.actions import (
    Attack,
    BonusAction,
    BreakFree,
    FreeAlly,
    MainAction,
    Move,
    OpportunityAttack,
    PickUp,
    SetCondition,
    Surrender,
)
from rules.systems.factions.sizing import moved_share
from tests.rules.test_factions_helpers import (
    BALTHASAR,
    BALTHASAR_ID,
    GM,
    SYBILLA_ID,
    THEOBALD,
    THEOBALD_ID,
    add,
    attack,
    choose,
    end,
    give_turn,
    mark_acted,
    new,
    options,
    pass_move,
    player,
    seed_cast,
    start,
    take,
    texts,
)


def test_the_grapple_example():
    enc = seed_cast()
    enc = start(enc.update(enc.find("Bandit 1").id, grit=3, max_grit=3)).state
    enc = end(take(enc, "Bandit Leader").state).state
    enc = take(enc, "Theobald", by=THEOBALD).state
    # Theobald attempts to grab a bandit; the bandit counters with his axe and rolls a 1: just a scratch.
    out = attack(enc, THEOBALD, "Bandit 1", mode="grapple")
    # a grab takes no weapon, so the question names none (Theobald's first is his spear)
    assert english(out.state.pending.prompt).startswith("Theobald tries to grab Bandit 1. React?")
    out = choose(out.state, "Counter: axe", dice=(1, 15))
    lines = texts(out)
    assert "Theobald: 1 damage; − armour 2 = 0; no harm." in lines
    # Theobald is still standing: the bandit's STR save fails and he is grabbed.
    assert "Bandit 1 STR save to resist: d20 15 vs STR 10 → fail." in lines
    enc = out.state
    assert enc.find("Bandit 1").grabbed_by == enc.find("Theobald").id
    assert enc.find("Theobald").health == 12

    # The round plays out; on his next turn Theobald stabs the held bandit with a dagger.
    enc = end(enc, by=THEOBALD).state
    enc = end(take(enc, "Bandit 2").state).state
    enc = pass_move(enc, by=BALTHASAR).state
    out = end(take(enc, "Bandit 3").state)
    enc = pass_move(out.state, by=BALTHASAR).state  # the GM must pass too: round 2
    assert enc.round == 2
    enc = pass_move(enc).state
    enc = take(enc, "Theobald", by=THEOBALD).state
    out = attack(enc, THEOBALD, "Bandit 1", "dagger", dice=(2,))
    # the bandit cannot react since he is grabbed; only his allies could guard him
    assert not {"Dodge", "Counter: axe"} & set(options(out.state.pending))
    out = choose(out.state, "No reaction")
    bandit = out.state.find("Bandit 1")
    assert (bandit.grit, bandit.health, bandit.incapacitated) == (1, 8, False)
    assert bandit.grabbed_by == out.state.find("Theobald").id  # a dagger is one-handed: the hold stays

    # On his turn the bandit can only try to break free: he passes, and his turn is spent.
    enc = end(out.state, by=THEOBALD).state
    enc = take(enc, "Bandit 1").state
    with pytest.raises(NotAllowed):
        attack(enc, GM, "Theobald", "axe")
    with pytest.raises(NotAllowed):
        apply(enc, Move(by=GM, zones=1))
    out = apply(enc, BreakFree(by=GM, dice=(6,)))
    assert "Bandit 1 STR save to break free of Theobald: d20 6 vs STR 10 → pass: free!" in texts(out)
    assert out.state.find("Bandit 1").grabbed_by is None
    assert out.state.turns.active is None and out.state.turns.moving == "players"


def bandit_1_held_by_theobald_on_his_turn():
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id, dropped=("bow",))
    enc = enc.update(enc.find("Bandit 2").id, grabbed_by=enc.find("Balthasar").id)
    return give_turn(enc, "Bandit 1")


GRABBED_ON_THEIR_TURN = {
    "attack": Attack(by=GM, targets=("Theobald",), weapon="axe"),
    "grapple": Attack(by=GM, targets=("Theobald",), mode="grapple"),
    "move": Move(by=GM, zones=1),
    "sprint": Move(by=GM, zones=4, sprint=True),
    "bonus": BonusAction(by=GM, text="shouts"),
    "main": MainAction(by=GM, text="intimidates"),
    "pick_up": PickUp(by=GM, weapon="bow"),
    "free": FreeAlly(by=GM, target="Bandit 2", dice=(1,)),
    "surrender": Surrender(by=GM),
}


@pytest.mark.parametrize("act", sorted(GRABBED_ON_THEIR_TURN))
def test_a_grabbed_character_can_only_spend_its_turn_trying_to_break_free(act):
    # Seed: "Grabbed characters can't act, and can only spend their turn to attempt to break free by
    # passing a STR save." Surrendering too is spending the turn ("Characters can spend their turn to
    # surrender"): not while held.
    enc = bandit_1_held_by_theobald_on_his_turn()
    with pytest.raises(NotAllowed, match="Bandit 1 is grabbed and can only try to break free"):
        apply(enc, GRABBED_ON_THEIR_TURN[act])
    freed = apply(enc, BreakFree(by=GM, dice=(6,))).state
    assert freed.find("Bandit 1").grabbed_by is None and freed.turns.active is None


def test_a_grabbed_character_may_end_its_turn_without_acting_but_not_surrender_or_strike_out_of_turn():
    enc = bandit_1_held_by_theobald_on_his_turn()
    ended = end(enc).state
    assert ended.turns.active is None and ended.find("Bandit 1").grabbed_by == ended.find("Theobald").id
    theirs = give_turn(start(seed_cast()).state, "Theobald")
    theirs = theirs.update(theirs.find("Bandit 1").id, grabbed_by=theirs.find("Balthasar").id)
    with pytest.raises(NotAllowed, match="Bandit 1 is grabbed"):
        apply(theirs, Surrender(by=GM, actor="Bandit 1"))  # out of turn, as a reaction would be
    with pytest.raises(NotAllowed, match="Bandit 1 is grabbed"):
        apply(theirs, OpportunityAttack(by=GM, actor="Bandit 1", targets=("Theobald",), weapon="axe"))
    assert not theirs.find("Bandit 1").surrendered


def test_removing_a_grabber_frees_whoever_it_held():
    enc = seed_cast()
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    out = apply(enc, RemoveCombatant(by=GM, target="Theobald"))
    bandit = out.state.find("Bandit 1")
    assert bandit.grabbed_by is None
    assert "grabbed" not in english(SYSTEM.status_line(out.state, bandit, reveal=True))


def test_an_ally_frees_a_grabbed_character_with_a_str_save():
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Sybilla").id, grabbed_by=enc.find("Bandit 1").id)
    enc = give_turn(enc, "Balthasar")
    out = apply(enc, FreeAlly(by=BALTHASAR, target="Sybilla", dice=(3,)))
    assert out.state.find("Sybilla").grabbed_by is None and out.state.find("Balthasar").mains == 1


def test_a_players_dice_roll_only_their_own_characters_str_saves():
    # Nobody can react or guard: the grab resolves at once. The bandit's STR save is the GM's to enter
    # (the GM's dice roll anyone's), else the bot's: never Balthasar's player's, as with morale saves.
    enc = mark_acted(
        give_turn(start(seed_cast()).state, "Balthasar"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader"
    )
    with pytest.raises(DiceError, match="not needed"):
        attack(enc, BALTHASAR, "Bandit 1", mode="grapple", dice=(20,))
    rolled = attack(enc, BALTHASAR, "Bandit 1", mode="grapple")
    assert "Bandit 1 STR save to resist: d20" in texts(rolled)[1]
    by_gm = attack(enc, GM, "Bandit 1", mode="grapple", dice=(20,))
    assert texts(by_gm)[1] == "Bandit 1 STR save to resist: d20 20 vs STR 10 → natural 20: fail."
    # A player still enters their own character's save when a bandit grabs it.
    enc = mark_acted(give_turn(start(seed_cast()).state, "Bandit 1"), "Balthasar", "Sybilla", "Theobald")
    own = attack(enc, GM, "Balthasar", mode="grapple", dice=(3,))
    assert texts(own)[1] == "Balthasar STR save to resist: d20 3 vs STR 10 → pass."


def test_disarm_drops_a_weapon_until_picked_up():
    enc = mark_acted(give_turn(start(seed_cast()).state, "Balthasar"), "Bandit 2", "Bandit 3", "Bandit Leader")
    enc = mark_acted(enc, "Bandit 1")
    out = attack(enc, GM, "Bandit 1", mode="disarm", take="bow", dice=(18,))  # the GM rolls the bandit's save
    bandit = out.state.find("Bandit 1")
    assert bandit.dropped == ("bow",)
    with pytest.raises(InvalidInput, match="dropped the bow"):
        bandit.weapon("bow")
    enc = give_turn(out.state, "Bandit 1")
    picked = apply(enc, PickUp(by=GM, weapon="bow")).state
    assert picked.find("Bandit 1").dropped == () and picked.find("Bandit 1").bonuses == 1


def test_a_disarming_attacker_with_a_free_hand_may_grab_the_weapon():
    # Seed 002 l.107: "drop a weapon chosen by the attacker. If the attacker has a free hand, they can
    # grab the weapon." Hands are not tracked: `grab` says the attacker has one free.
    enc = mark_acted(give_turn(start(seed_cast()).state, "Balthasar"), "Bandit 1", "Bandit 2", "Bandit 3")
    enc = mark_acted(enc, "Bandit Leader")
    command = SYSTEM.command("attack", BALTHASAR, {"target": "Bandit 1", "options": "disarm take=bow grab"})
    assert command.grab and command.take == "bow"
    out = attack(enc, GM, "Bandit 1", mode="disarm", take="bow", grab=True, dice=(18,))
    assert texts(out)[-1] == "Bandit 1 drops the bow: Balthasar grabs it."
    bandit, balthasar = out.state.find("Bandit 1"), out.state.find("Balthasar")
    assert [w.name for w in bandit.weapons] == ["axe"] and bandit.dropped == ()
    assert balthasar.weapon("bow").range == 8
    with pytest.raises(InvalidInput, match="has dropped nothing"):
        apply(give_turn(out.state, "Bandit 1"), PickUp(by=GM, weapon="bow"))
    with pytest.raises(InvalidInput, match="`grab` goes with a disarm"):
        attack(enc, BALTHASAR, "Bandit 1", "sword", grab=True)
    # One weapon name per sheet: a second sword cannot be told apart from Balthasar's own, so it falls.
    enc = add(seed_cast(), "Duellist", "weapons='sword:d8'")
    enc = mark_acted(give_turn(start(enc).state, "Balthasar"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    out = attack(mark_acted(enc, "Duellist"), GM, "Duellist", mode="disarm", grab=True, dice=(18,))
    assert texts(out)[-1] == (
        "Duellist drops the sword: Balthasar already carries a weapon of that name and cannot grab it."
    )
    assert out.state.find("Duellist").dropped == ("sword",) and out.state.find("Balthasar").weapon("sword").die == 6


def test_a_shove_moves_half_a_zone_and_a_larger_shover_deals_d4_direct_damage():
    enc = add(seed_cast(), "Ogre", "size=large health=20 weapons='club:d8:great'")
    enc = start(enc).state
    enc = mark_acted(give_turn(enc, "Balthasar"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader", "Ogre")
    out = attack(enc, GM, "Bandit 1", mode="shove", dice=(11,))  # the GM rolls the bandit's save
    assert "half a zone" in texts(out)[-1]
    with pytest.raises(InvalidInput, match="larger"):
        attack(enc, BALTHASAR, "Ogre", mode="shove")
    enc = mark_acted(give_turn(out.state, "Ogre"), "Sybilla", "Theobald")
    out = attack(enc, GM, "Balthasar", mode="shove", dice=(3,))
    assert "cannot resist with a STR save" in texts(out)[1]
    assert "hurls Balthasar 1 zone(s)" in texts(out)[2]
    balthasar = out.state.find("Balthasar")
    assert (balthasar.grit, balthasar.health, balthasar.incapacitated) == (3, 9, True)


def wyrm_fight():
    enc = new()
    enc = add(enc, "Wyrm", "size=large health=40 grit=10 weapons='bite:d8, breath:d6:blast'")
    enc = add(enc, "Knight", "health=30", user=BALTHASAR_ID)
    enc = add(enc, "Squire", "health=30", user=SYBILLA_ID)
    enc = add(enc, "Halfling", "size=small health=30", user=THEOBALD_ID)
    enc = add(enc, "Gnome", "size=small health=30", user=THEOBALD_ID + 1)
    enc = add(enc, "Sprite", "size=small health=30", user=THEOBALD_ID + 2)
    enc = add(enc, "Hunter", "weapons='sword:d6, bow:d6:8, firebomb:d6:2:blast' health=30", user=THEOBALD_ID + 3)
    enc = start(enc).state
    everyone = [c.name for c in enc.combatants]
    return enc, everyone


def lost(out, name):
    return 30 - out.state.find(name).health


def test_the_wyrms_bite_doubles_its_dice_per_size_and_splits_among_smaller_targets():
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Wyrm"), *everyone)
    out = attack(enc, GM, "Knight", "bite", dice=(3, 5))  # 2d8 against a medium character
    assert lost(out, "Knight") == 8
    out = attack(enc, GM, "Halfling", "bite", dice=(1, 2, 3, 4))  # 4d8 against a small one
    assert lost(out, "Halfling") == 10
    out = attack(enc, GM, ["Knight", "Squire"], "bite", dice=(7, 6))  # two medium: d8 each
    assert (lost(out, "Knight"), lost(out, "Squire")) == (7, 6)
    out = attack(enc, GM, ["Halfling", "Gnome", "Sprite"], "bite", split=(1, 1, 2), dice=(1, 2, 3, 4))
    assert (lost(out, "Halfling"), lost(out, "Gnome"), lost(out, "Sprite")) == (1, 2, 7)
    out = attack(enc, GM, ["Knight", "Halfling"], "bite", split=(1, 2), dice=(8, 2, 2))
    assert (lost(out, "Knight"), lost(out, "Halfling")) == (8, 4)
    with pytest.raises(InvalidInput, match="add up to 1"):
        attack(enc, GM, ["Knight", "Halfling"], "bite", split=(2, 2))
    with pytest.raises(InvalidInput, match="split"):
        attack(enc, GM, ["Halfling", "Gnome", "Sprite"], "bite")


def test_a_share_of_the_wyrms_bite_keeps_its_part_of_the_attack_on_whoever_takes_it_instead():
    # The wyrm gives half its bite to the Halfling (2d8 of a small target's 4d8), who hides behind the
    # Squire: half the bite against a medium character is d8, not 2d8 (which would be the whole bite).
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Wyrm"), *(n for n in everyone if n not in ("Halfling", "Squire")))
    out = attack(enc, GM, ["Halfling", "Knight"], "bite", split=(2, 1), dice=(1, 2, 3))
    out = choose(out.state, "Hide behind: Squire", by=player(THEOBALD_ID))
    while out.state.pending:
        out = choose(out.state, "No reaction")
    assert (lost(out, "Squire"), lost(out, "Knight"), lost(out, "Halfling")) == (1, 2, 0)
    assert "Wyrm's damage die 3 is not used: the attack changed target." in texts(out)
    alone = attack(enc, GM, "Halfling", "bite", dice=(1, 2, 3, 4))  # 4d8 against the small Halfling
    alone = choose(alone.state, "Hide behind: Squire", by=player(THEOBALD_ID))
    alone = choose(alone.state, "No reaction")
    assert lost(alone, "Squire") == 3  # 2d8 against the medium Squire
    assert "Wyrm's damage dice 3, 4 are not used: the attack changed target." in texts(alone)


def test_a_share_that_was_one_die_on_a_larger_target_moves_to_a_smaller_one_whole():
    # A human's share on the Wyrm was one die (halved); if the Halfling takes it instead, it is the human's
    # one die against a smaller target: two dice, as the human's whole attack on a small target.
    enc, _ = wyrm_fight()
    human, wyrm, halfling = (enc.find(name) for name in ("Hunter", "Wyrm", "Halfling"))
    assert moved_share(human, wyrm, halfling, 1) == (2, 0)
    assert moved_share(wyrm, halfling, enc.find("Squire"), 2) == (1, 0)


def test_a_counter_that_drops_the_wyrm_first_says_the_dice_of_the_bite_that_never_lands():
    enc, everyone = wyrm_fight()
    enc = enc.update(enc.find("Wyrm").id, health=1, grit=0)
    enc = mark_acted(give_turn(enc, "Wyrm"), *(n for n in everyone if n != "Knight"))
    out = attack(enc, GM, ["Knight", "Squire"], "bite", dice=(1, 6))
    out = choose(out.state, "Counter: unarmed", by=BALTHASAR, dice=(4,))  # halved: 2, more than the 1 bitten
    assert out.state.find("Wyrm").dead and lost(out, "Squire") == 0
    said = texts(out)
    never = said.index("Wyrm is down: the attack on Squire never lands.")
    assert said[never + 1] == "Wyrm's damage die 6 is not used: the attack never landed."


def test_the_wyrms_fire_breath_is_a_blast_unmodified_by_size():
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Wyrm"), *everyone)
    out = attack(enc, GM, ["Knight", "Halfling", "Hunter"], "breath", dice=(4,))
    assert (lost(out, "Knight"), lost(out, "Halfling"), lost(out, "Hunter")) == (4, 4, 4)


def test_a_human_against_the_wyrm_halves_damage_doubles_range_and_blasts_stay_whole():
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Hunter"), *everyone)
    out = attack(enc, GM, "Wyrm", "sword", dice=(3,))
    assert out.state.find("Wyrm").grit == 8  # a roll of 3 only inflicts 2
    out = attack(enc, GM, "Wyrm", "bow", zones=16, dice=(7, 3))  # range 8 doubled to 16, beyond half: WIT save
    assert out.state.find("Wyrm").grit == 8
    with pytest.raises(InvalidInput, match="range"):
        attack(enc, GM, "Wyrm", "bow", zones=17)
    out = attack(enc, GM, "Wyrm", "firebomb", zones=1, dice=(5,))
    assert out.state.find("Wyrm").grit == 5


def test_a_missed_ranged_blast_lands_in_a_random_neighbouring_zone():
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Hunter"), *everyone)
    out = attack(enc, GM, "Wyrm", "firebomb", zones=2, neighbours=4, dice=(15, 3))
    assert "lands in neighbouring zone 3" in texts(out)[-1]
    assert out.state.find("Wyrm").grit == 10
    landed = attack(enc, GM, "Knight", "firebomb", zones=2, landed=True, dice=(2,))
    assert lost(landed, "Knight") == 2


def test_the_gm_resolves_a_deviated_blast_where_it_landed_in_the_throwers_turn():
    """The miss spends the throw's main action; `landed` finishes that same throw (as the bot's
    line says), once: it needs no second main action, and a second `landed` is refused."""
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Hunter"), *everyone)
    missed = attack(enc, GM, "Wyrm", "firebomb", zones=2, neighbours=4, dice=(15, 3)).state
    landed = attack(missed, GM, "Knight", "firebomb", zones=2, landed=True, dice=(2,))
    assert lost(landed, "Knight") == 2
    with pytest.raises(InvalidInput, match="already used its main action"):
        attack(landed.state, GM, "Knight", "firebomb", zones=2, landed=True, dice=(2,))
    with pytest.raises(InvalidInput, match="already used its main action"):
        attack(missed, GM, "Knight", "firebomb", zones=2, dice=(2,))  # only the deviated blast lands


def test_smaller_characters_cannot_grab_larger_ones_and_larger_grabbers_keep_hold():
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Knight"), *everyone)
    with pytest.raises(InvalidInput, match="larger"):
        attack(enc, BALTHASAR, "Wyrm", mode="grapple")
    enc = mark_acted(give_turn(enc, "Wyrm"), *everyone)
    out = attack(enc, GM, "Knight", mode="grapple")
    assert out.state.find("Knight").grabbed_by == out.state.find("Wyrm").id
    held = give_turn(out.state, "Knight")
    with pytest.raises(NotAllowed, match="cannot break free"):
        apply(held, BreakFree(by=BALTHASAR, dice=(1,)))


def test_a_smaller_character_held_by_a_larger_one_has_no_turn_to_take_until_freed():
    # Seed: "Grabbed characters can't act, and can only spend their turn to attempt to break free by passing
    # a STR save", and smaller characters "can't free themselves from a grab with a STR save": such a
    # character has nothing to spend a turn on, so it is not offered one; one held by an equal still is.
    enc, everyone = wyrm_fight()
    enc = enc.update(enc.find("Halfling").id, grabbed_by=enc.find("Wyrm").id)
    enc = enc.update(enc.find("Knight").id, grabbed_by=enc.find("Squire").id)
    enc = pass_move(enc).state  # the Wyrm's faction passes: the players move
    halfling = enc.find("Halfling")
    assert not SYSTEM.can_act(enc, halfling)
    assert halfling.id not in SYSTEM.turns.waiting(SYSTEM, enc).cids
    assert enc.find("Knight").id in SYSTEM.turns.waiting(SYSTEM, enc).cids
    with pytest.raises(InvalidInput, match="Halfling cannot act \\(held by the larger Wyrm: only an ally can free"):
        take(enc, "Halfling", by=player(THEOBALD_ID))
    freed = apply(
        take(enc, "Gnome", by=player(THEOBALD_ID + 1)).state,
        FreeAlly(by=player(THEOBALD_ID + 1), target="Halfling", dice=(3,)),
    )
    assert freed.state.find("Halfling").id in SYSTEM.turns.ready(SYSTEM, freed.state, "players")
    # grabbed by the larger one during its own turn, the rest of that turn is lost
    acting = give_turn(end(freed.state, by=player(THEOBALD_ID + 1)).state, "Sprite")
    held = apply(acting, SetCondition(by=GM, target="Sprite", condition="grabbed", by_whom="Wyrm"))
    assert "Sprite can no longer act: their turn ends." in texts(held)
    assert "Sprite is now grabbed by Wyrm." in texts(held)  # the GM's line names the holder it was told
    assert held.state.turns.active is None


def test_a_larger_grabber_keeps_hold_with_its_free_hand_but_lets_go_to_swing_a_great_weapon():
    # Seed: "Larger characters need only one hand (or any other appendage) to grab a smaller target, and
    # besides having that hand occupied they can perform any action while keeping hold." A two-handed
    # weapon needs the occupied hand too.
    enc = add(new(), "Ogre", "size=large health=40 weapons='maul:d10:great, club:d6'")
    enc = add(enc, "Knight", "health=30", user=BALTHASAR_ID)
    enc = add(enc, "Squire", "health=30", user=SYBILLA_ID)
    enc = start(enc).state
    enc = enc.update(enc.find("Knight").id, grabbed_by=enc.find("Ogre").id)
    enc = mark_acted(give_turn(enc, "Ogre"), "Knight", "Squire")
    clubbed = attack(enc, GM, "Squire", "club", dice=(2, 2))  # a larger attacker's dice doubled
    assert clubbed.state.find("Knight").grabbed_by == clubbed.state.find("Ogre").id
    assert not any("lets go" in line for line in texts(clubbed))
    door = apply(enc, BonusAction(by=GM, text="opens the door")).state
    assert door.find("Knight").grabbed_by == door.find("Ogre").id
    swung = attack(enc, GM, "Squire", "maul", dice=(2, 2))
    assert texts(swung)[:2] == ["Ogre lets go of Knight.", "Ogre attacks Squire with maul (d10, great)."]
    assert swung.state.find("Knight").grabbed_by is None
    # countering with the great weapon lets go as well
    enc = add(new(), "Ogre", "size=large health=40 weapons='maul:d10:great, club:d6'")
    enc = add(enc, "Knight", "health=30", user=BALTHASAR_ID)
    enc = add(enc, "Squire", "weapons='sword:d6' health=30", user=SYBILLA_ID)
    enc = start(enc).state
    enc = enc.update(enc.find("Knight").id, grabbed_by=enc.find("Ogre").id)
    enc = mark_acted(give_turn(enc, "Squire"), "Knight")
    asked = attack(enc, player(SYBILLA_ID), "Ogre", "sword").state
    countered = choose(asked, "Counter: maul")
    assert "Ogre lets go of Knight." in texts(countered)
    assert countered.state.find("Knight").grabbed_by is None
    kept = choose(asked, "Counter: club")
    assert kept.state.find("Knight").grabbed_by == kept.state.find("Ogre").id


def test_any_other_action_frees_the_held_character_but_a_dagger_keeps_hold():
    from rules.systems.factions.actions import BonusAction

    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    enc = mark_acted(give_turn(enc, "Theobald"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    kept = attack(enc, THEOBALD, "Bandit 2", "dagger", dice=(1,)).state
    assert kept.find("Bandit 1").grabbed_by == kept.find("Theobald").id
    freed = apply(enc, BonusAction(by=THEOBALD, text="opens the door")).state
    assert freed.find("Bandit 1").grabbed_by is None
    great = add(seed_cast(), "Brute", "weapons='maul:d10:great'", user=THEOBALD_ID + 5)
    great = start(great).state
    great = great.update(great.find("Bandit 1").id, grabbed_by=great.find("Brute").id)
    great = mark_acted(give_turn(great, "Brute"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    swung = attack(great, GM, "Bandit 2", "maul", dice=(2,)).state
    assert swung.find("Bandit 1").grabbed_by is None


def test_a_grabber_keeps_hold_disarming_the_one_held_but_not_someone_else():
    # Seed: the grabber keeps hold "attempting to disarm them" (the grabbed character); "Any other
    # action frees the grabbed character."
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    enc = mark_acted(give_turn(enc, "Theobald"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    held = attack(enc, THEOBALD, "Bandit 1", mode="disarm")
    assert held.state.find("Bandit 1").grabbed_by == held.state.find("Theobald").id
    other = attack(enc, THEOBALD, "Bandit 2", mode="disarm")
    assert texts(other)[0] == "Theobald lets go of Bandit 1."
    assert other.state.find("Bandit 1").grabbed_by is None


def test_a_grabber_who_lets_go_by_another_action_says_the_hold_ends():
    # Seed: "The grabbing character can keep hold while moving together with the grabbed character, attempting
    # to disarm them, hiding behind them as reaction to an attack, or attacking with a one-handed weapon or an
    # unarmed attack. Any other action frees the grabbed character."
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    enc = mark_acted(give_turn(enc, "Theobald"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    out = apply(enc, BonusAction(by=THEOBALD, text="opens the door"))
    assert texts(out) == ["Theobald: opens the door.", "Theobald lets go of Bandit 1."]
    out = attack(enc, THEOBALD, "Bandit 2", mode="shove")
    assert texts(out)[0] == "Theobald lets go of Bandit 1."
    assert out.state.find("Bandit 1").grabbed_by is None
    out = apply(enc, Surrender(by=THEOBALD))
    assert "Theobald lets go of Bandit 1." in texts(out)
    kept = attack(enc, THEOBALD, "Bandit 2", "dagger", dice=(1,))
    assert not any("lets go" in line for line in texts(kept))
    great = add(seed_cast(), "Brute", "weapons='maul:d10:great'", user=THEOBALD_ID + 5)
    great = start(great).state
    great = great.update(great.find("Bandit 1").id, grabbed_by=great.find("Brute").id)
    great = mark_acted(give_turn(great, "Brute"), "Bandit 1", "Bandit 2", "Bandit 3", "Bandit Leader")
    swung = attack(great, GM, "Bandit 2", "maul", dice=(2,))
    assert texts(swung)[:2] == ["Brute lets go of Bandit 1.", "Brute attacks Bandit 2 with maul (d10, great)."]
    freeing = start(seed_cast()).state
    freeing = freeing.update(freeing.find("Sybilla").id, grabbed_by=freeing.find("Bandit 1").id)
    freeing = freeing.update(freeing.find("Bandit 2").id, grabbed_by=freeing.find("Balthasar").id)
    freed = apply(give_turn(freeing, "Balthasar"), FreeAlly(by=BALTHASAR, target="Sybilla", dice=(3,)))
    assert texts(freed)[-1] == "Balthasar lets go of Bandit 2."


def test_a_grabber_the_gm_marks_surrendered_lets_go_as_one_who_surrenders_does():
    # Seed: "Characters can spend their turn to surrender, throwing their weapons away, putting their hands
    # up, etc." Hands up, a grabber holds nobody, whether it surrenders on its turn or the GM marks it so;
    # surrendering does not free one held itself.
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    enc = enc.update(enc.find("Theobald").id, grabbed_by=enc.find("Bandit 2").id)
    out = apply(enc, SetCondition(by=GM, target="Theobald", condition="surrendered"))
    assert texts(out) == ["Theobald is now surrendered.", "Theobald lets go of Bandit 1."]
    assert out.state.find("Bandit 1").grabbed_by is None
    assert out.state.find("Theobald").grabbed_by == out.state.find("Bandit 2").id
    back = apply(out.state, SetCondition(by=GM, target="Theobald", condition="surrendered", on=False))
    assert texts(back) == ["Theobald is no longer surrendered."]


def test_a_held_character_stays_held_when_incapacitated_by_a_blow_or_by_the_gm():
    # Seed: only the grabber's "other action", breaking free ("passing a STR save") or an ally's STR save
    # ends a hold; going down does not. Both ways of being incapacitated keep the hold, and both free
    # whoever the one who went down held itself.
    enc = start(seed_cast()).state
    enc = enc.update(enc.find("Bandit 1").id, grabbed_by=enc.find("Theobald").id)
    enc = enc.update(enc.find("Bandit 2").id, grabbed_by=enc.find("Bandit 1").id)
    enc = mark_acted(give_turn(enc, "Theobald"), "Bandit 2", "Bandit 3", "Bandit Leader")
    struck = attack(enc, THEOBALD, "Bandit 1", "dagger", dice=(4,)).state
    marked = apply(enc, SetCondition(by=GM, target="Bandit 1", condition="incapacitated")).state
    for out in (struck, marked):
        bandit = out.find("Bandit 1")
        assert bandit.incapacitated and bandit.grabbed_by == out.find("Theobald").id
        assert out.find("Bandit 2").grabbed_by is None


# `/act`'s attacking actions, and one way to write each word an attack reads.
ATTACKING_ACTS = ("disarm", "shove", "grapple", "death_blow", "opportunity")
ATTACK_OPTIONS = {
    "zones": "zones=1",
    "distance": "distance=1",
    "moving": "moving",
    "unseen": "unseen",
    "dark": "dark",
    "cover": "cover",
    "peek": "peek",
    "impaired": "impaired",
    "enhanced": "enhanced",
    "unaware": "unaware",
    "alone": "alone",
    "near": "near='Sybilla, Theobald'",
    "neighbours": "neighbours=4",
    "stunt": "stunt='drops his axe'",
    "split": "split=1",
    "landed": "landed",
    "death_blow": "death_blow",
    "deathblow": "deathblow",
    "take": "take=axe",
    "weapon": "weapon=sword",
}


def act_command(enc, act, options):
    """Balthasar's `/act action:<act> target:"Bandit 1" options:…`, applied."""
    given = {"action": act, "target": "Bandit 1", "options": options}
    return apply(enc, SYSTEM.command("act", BALTHASAR, given, enc))


@pytest.mark.parametrize("act", ATTACKING_ACTS)
@pytest.mark.parametrize("typo", ["zonse", "opportunity", "grapple"])  # /attack's words for its kind of attack
def test_an_attacking_action_refuses_a_word_it_does_not_read_with_the_list_and_does_nothing(act, typo):
    enc = give_turn(start(seed_cast()).state, "Balthasar")
    refusal = (
        f"Unknown option `{typo}` for /act action:{act.replace('_', ' ')}. Options: `zones`, `distance`, `moving`, "
        "`unseen`, `dark`, `cover`, `peek`, `impaired`, `enhanced`, `unaware`, `alone`, `near`, `neighbours`, "
        "`stunt`, `split`, `landed`, `death_blow`, `deathblow`, `take`, `grab`, `weapon`."
    )
    with pytest.raises(InvalidInput, match=re.escape(refusal)):
        enc = act_command(enc, act, f"alone {typo}").state
    assert enc.pending is None and enc.find("Balthasar").mains == 0


@pytest.mark.parametrize("act", ATTACKING_ACTS)
@pytest.mark.parametrize("word", sorted(ATTACK_OPTIONS))
def test_an_attacking_action_takes_every_word_an_attack_reads(act, word):
    given = {"action": act, "target": "Bandit 1"}
    attack = SYSTEM.command("act", BALTHASAR, given | {"options": ATTACK_OPTIONS[word]})
    assert isinstance(attack, Attack) and attack.targets == ("Bandit 1",)
    assert attack.mode == (act if act in ("disarm", "shove", "grapple") else "damage")
    if not (act == "death_blow" and word in ("death_blow", "deathblow")):  # that one says what the action says
        assert attack != SYSTEM.command("act", BALTHASAR, given)  # the word is read, not ignored


@pytest.mark.parametrize("size, zones", [("large", 1), ("medium", 2), ("small", 4), ("tiny", 8)])
def test_a_larger_shover_hurls_the_smaller_one_farther_for_each_size_between_them(size, zones):
    # Seed 002 l.157: "Larger characters shoving a smaller one inflict d4 direct damage and double the
    # range of the shove for each category of difference (1, 2, 4, or 8 zones if the target is
    # respectively 1, 2, 3, or 4 sizes smaller)."
    enc = add(new(), "Titan", "size=massive health=40")
    enc = add(enc, "Victim", f"size={size} health=20", user=BALTHASAR_ID)
    enc = mark_acted(give_turn(start(enc).state, "Titan"), "Victim")
    out = attack(enc, GM, "Victim", mode="shove", dice=(3,))  # no STR save for the smaller: the d4 only
    assert "Victim is smaller than Titan and cannot resist with a STR save." in texts(out)
    assert f"Titan hurls Victim {zones} zone(s) away (into any hazard there)." in texts(out)
    assert out.state.find("Victim").health == 17  # d4 3, direct


def test_a_massive_character_strikes_in_melee_up_to_one_zone_away():
    # Seed 002 l.153: "Massive characters can make melee attacks up to range 1."
    enc = add(new(), "Colossus", "size=massive health=40 weapons='fist:d6'")
    enc = add(enc, "Ogre", "size=large health=40 weapons='club:d8'")
    enc = add(enc, "Giant", "size=massive health=40", user=BALTHASAR_ID)
    enc = start(enc).state
    enc = mark_acted(give_turn(enc, "Colossus"), "Ogre", "Giant")
    out = attack(enc, GM, "Giant", "fist", zones=1, dice=(5,))
    assert out.state.find("Giant").health == 35
    with pytest.raises(InvalidInput, match="nearby"):
        attack(enc, GM, "Giant", "fist", zones=2)
    enc = mark_acted(give_turn(enc, "Ogre"), "Colossus", "Giant")
    with pytest.raises(InvalidInput, match="nearby"):
        attack(enc, GM, "Giant", "club", zones=1)  # a large one still strikes only nearby


def test_a_ranged_weapons_range_halves_for_each_size_the_target_is_smaller():
    # Seed 002 l.153: "When targeting a character of different size with a ranged attack, the maximum
    # range is halved for each size of difference if the target is smaller".
    enc = add(new(), "Archer", "weapons='bow:d6:8' health=20")
    enc = add(enc, "Halfling", "size=small health=20", user=BALTHASAR_ID)
    enc = add(enc, "Pixie", "size=tiny health=20", user=SYBILLA_ID)
    enc = mark_acted(give_turn(start(enc).state, "Archer"), "Halfling", "Pixie")
    with pytest.raises(InvalidInput, match=r"beyond the bow's range \(4 zones\)"):
        attack(enc, GM, "Halfling", "bow", zones=5)
    # beyond half of 4: a WIT save to hit; then 2d6, as the larger attacker doubles its dice
    out = attack(enc, GM, "Halfling", "bow", zones=4, dice=(7, 1, 3))
    assert "Archer WIT save to hit (beyond half range): d20 7 vs WIT 10 → pass" in texts(out)[0]
    assert out.state.find("Halfling").health == 16
    out = attack(enc, GM, "Halfling", "bow", zones=2, dice=(1, 3))  # within half range: no save
    assert out.state.find("Halfling").health == 16
    with pytest.raises(InvalidInput, match=r"beyond the bow's range \(2 zones\)"):
        attack(enc, GM, "Pixie", "bow", zones=3)


def test_a_melee_blast_hits_the_attackers_zone_spares_the_attacker_and_cannot_miss():
    # Seed 002 l.92: "Melee blast attacks hit the attacker's zone and don't target the attacker
    # themselves. They can't miss."
    enc, everyone = wyrm_fight()
    enc = mark_acted(give_turn(enc, "Wyrm"), *everyone)
    with pytest.raises(InvalidInput, match="cannot attack itself"):
        attack(enc, GM, ["Knight", "Wyrm"], "breath")
    with pytest.raises(InvalidInput, match="own zone"):
        attack(enc, GM, "Knight", "breath", zones=1)
    out = attack(enc, GM, ["Knight", "Squire"], "breath", unseen=True, dice=(5,))  # no WIT save, even unseen
    assert not any("WIT save" in line for line in texts(out))
    assert (lost(out, "Knight"), lost(out, "Squire")) == (5, 5)
