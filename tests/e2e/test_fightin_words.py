"""Them's Fightin' Words through real discord.py and the stand-in: the seconds
in the turn message, carry-over, the defence buttons going to the defender's
player (the GM for NPCs), delayed spells and interruptions pinging the right
person (also when a choice times out, and only once a turn), and refusals that only the sender sees."""

from __future__ import annotations

from datetime import timedelta

from tests.e2e.conftest import begin_fight, help_sections, say
from tests.helpers import ids

SYSTEM = "fightin-words"


async def setup_fight(standin):
    """Mauve (alice, initiative 9), Mira (bob, 6), then the Goblin (GM, 4); round 1 begins."""
    mauve = ("alice", "Mauve", "reflex=3 weapon_skill=3 parry=2 block=1 weapons='arming sword:1d8'", {"roll": 6})
    mira = ("bob", "Mira", "reflex=2 magic_skill=2 dodge=1", {"roll": 4})
    goblin = ("Goblin", "weapon_skill=2 parry=1 weapons='spear:1d6'", {"roll": 4})
    await begin_fight(standin, SYSTEM, [mauve, mira], [goblin])


async def turn_message(standin, name, *, after=None):
    """The newest turn message for `name` (it carries the End turn button),
    waiting for one posted after the message `after` if given."""
    return await standin.wait_for(
        lambda: next(
            (
                m
                for m in reversed(standin.messages())
                if f"{name}'s turn" in m.content and m.components and (after is None or m.id > after.id)
            ),
            None,
        ),
        what=f"{name}'s turn message",
    )


async def choice_message(standin, defender):
    return await standin.wait_for(
        lambda: next(
            (
                m
                for m in reversed(standin.messages())
                if m.content.count(f"{defender}: defend against") and m.components
            ),
            None,
        ),
        what=f"{defender}'s defence choice",
    )


def field(message, name):
    (embed,) = message.embeds
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


async def test_the_turn_message_shows_the_seconds_and_an_overrun_carries_into_the_next_turn(standin, bot):
    who = ids(standin)
    await setup_fight(standin)
    first = await turn_message(standin, "Mauve")
    assert set(first.pings.user_ids) == {who["alice"]}
    assert "⏱ 6 of 6 s left" in field(first, "Mauve")

    ran = await say(standin, "alice", "/act", action="run")
    assert "Mauve runs (3 s): 3 s left." in ran.content
    # 4 s with 3 left: the attack (a miss, 1 + 3 against cover) takes the rest and owes 1 s.
    swing = await say(standin, "alice", "/attack", target="Goblin", options="cover=medium", dice="1")
    assert "miss" in swing.content and "0 s left, 1 s carry into the next turn" in swing.content

    mira = await turn_message(standin, "Mira")
    assert set(mira.pings.user_ids) == {who["bob"]}
    await (await standin.click("bob", "End turn", message=mira)).response()
    goblin = await turn_message(standin, "Goblin")
    assert set(goblin.pings.user_ids) == {who["gm"]}
    await (await standin.click("gm", "End turn", message=goblin)).response()

    second = await turn_message(standin, "Mauve", after=first)
    assert "round 2" in second.content
    assert "⏱ 5 of 6 s left" in field(second, "Mauve")
    assert any("Mauve is still busy (attacks Goblin) for 1 s from last turn." in m.content for m in standin.messages())


async def test_the_defence_buttons_go_to_the_defenders_player_and_the_gm_answers_for_npcs(standin, bot):
    who = ids(standin)
    await setup_fight(standin)
    # Mauve hits the Goblin (5 + 3 = 8 vs 4): the GM chooses for the NPC.
    hit = await say(standin, "alice", "/attack", target="Goblin", dice="5 3")
    assert "Goblin may defend" in hit.content and not hit.pings.user_ids
    ask = await choice_message(standin, "Goblin")
    assert set(ask.pings.user_ids) == {who["gm"]}
    refused = await (await standin.click("alice", "Block", message=ask)).response()
    assert refused.ephemeral and "not yours" in refused.content
    await (await standin.click("gm", "No defence", message=ask)).response()
    await (await standin.click("alice", "End turn", message=await turn_message(standin, "Mauve"))).response()
    await (await standin.click("bob", "End turn", message=await turn_message(standin, "Mira"))).response()

    # The Goblin stabs Mauve (6 + 2 = 8 vs 4): Alice, and only Alice, gets the buttons.
    await say(standin, "gm", "/attack", target="Mauve", dice="6 2")
    ask = await choice_message(standin, "Mauve")
    assert set(ask.pings.user_ids) == {who["alice"]}
    labels = [c["label"] for row in ask.components for c in row["components"]]
    assert labels == ["Block", "Dodge", "Parry", "No defence"]
    refused = await (await standin.click("bob", "Parry", message=ask)).response()
    assert refused.ephemeral and "not yours" in refused.content
    parried = await (await standin.click("alice", "Parry", message=ask)).response()
    assert not parried.ephemeral and "Chosen: Parry." in parried.content and "Mauve parries: d6" in parried.content
    assert "vs DC 6" in parried.content  # 4 + the Goblin's weapon skill 2


async def test_a_hidden_npcs_defence_question_does_not_name_its_best_defence_as_the_default(standin, bot):
    """The default is the defender's best bonus: named in the channel, it would rank a hidden NPC's numbers."""
    mauve = ("alice", "Mauve", "reflex=3 weapon_skill=3 weapons='arming sword:1d8'", {"roll": 6})
    orc = ("Orc", "reflex=2 parry=1 block=1 weapons='axe:1d10'", {"roll": 1, "hidden": True})
    await begin_fight(standin, SYSTEM, [mauve], [orc])
    await say(standin, "alice", "/attack", target="Orc", dice="5 3")
    ask = await choice_message(standin, "Orc")
    assert "Block ?, Dodge ?, Parry ?" in ask.content
    assert "default if nobody answers: ?;" in ask.content and "Dodge;" not in ask.content
    # A visible defender's question names its default as before.
    await (await standin.click("gm", "No defence", message=ask)).response()
    await say(standin, "alice", "/initiative next")
    await say(standin, "gm", "/attack", target="Mauve", dice="6 2")
    ask = await choice_message(standin, "Mauve")
    assert "default if nobody answers: Dodge;" in ask.content


async def test_a_delayed_spell_going_off_pings_the_gm_and_a_delayer_stepping_in_pings_the_interrupted(standin, bot):
    who = ids(standin)
    await setup_fight(standin)
    await say(standin, "alice", "/initiative delay")  # an untouched turn: Mauve steps out
    mira = await turn_message(standin, "Mira")
    assert set(mira.pings.user_ids) == {who["bob"]}
    cast = await say(standin, "bob", "/act", action="cast", target="Goblin", options="spell=Blast delay=1")
    assert "Mira casts Blast at Goblin (4 s): 2 s left." in cast.content and not cast.pings.user_ids
    went_off = await say(standin, "bob", "/act", action="move")
    assert "✨ Mira's Blast on Goblin takes effect now, after second 5 of Mira's turn (1 s delay)" in went_off.content
    assert set(went_off.pings.user_ids) == {who["gm"]}

    back = await say(standin, "alice", "/initiative delay")  # Mauve interrupts Mira's last second
    assert "Mauve steps back in, interrupting Mira." in back.content
    assert set(back.pings.user_ids) == {who["bob"]}
    mauve = await turn_message(standin, "Mauve", after=mira)
    assert set(mauve.pings.user_ids) == {who["alice"]} and "⏱ 6 of 6 s left" in field(mauve, "Mauve")


async def test_a_delayed_spell_going_off_when_a_defence_times_out_pings_the_gm(standin, bot):
    """The timed-out answer pings whom its events mean, as a click's would; the new turn's
    player is pinged by the turn message alone."""
    who = ids(standin)
    await say(standin, "gm", "/campaign setup", system=SYSTEM)
    await say(standin, "bob", "/character add", name="Mira", stats="reflex=2 magic_skill=2 dodge=1")
    await say(standin, "alice", "/character add", name="Mauve", stats="reflex=1")
    await say(standin, "gm", "/encounter start")
    await say(standin, "bob", "/initiative join", character="Mira", roll=6)
    await say(standin, "alice", "/initiative join", character="Mauve", roll=3)
    await say(
        standin, "gm", "/initiative add", name="Goblin", stats="weapon_skill=2 parry=1 weapons='spear:1d6'", roll=1
    )
    await say(standin, "gm", "/initiative next")
    await say(standin, "bob", "/act", action="cast", target="Goblin", options="spell=Blast delay=1")
    await say(standin, "bob", "/attack", target="Goblin", dice="6 2")
    await choice_message(standin, "Goblin")
    await bot.idle.wait()
    since = len(standin.book.messages)
    record = await bot.core.repo.active_encounter(standin.world.channel("combat").id)
    bot.core.now = lambda: record.pending_deadline + timedelta(seconds=1)
    await bot.reminders.tick()
    await bot.idle.wait()
    posted = standin.book.messages[since:]
    (timed_out,) = [m for m in posted if "no answer in time" in m.content]
    assert "Blast on Goblin takes effect now" in timed_out.content
    assert set(timed_out.pings.user_ids) == {who["gm"]}
    assert timed_out.current.allowed_mentions.get("users") == [who["gm"]]
    (mauve,) = [m for m in posted if "Mauve's turn" in m.content]
    assert [m.id for m in posted if m.pings.user_ids] == [timed_out.id, mauve.id]
    assert set(mauve.pings.user_ids) == {who["alice"]}


async def test_a_confused_characters_turn_pings_their_player_once(standin, bot):
    """The Confusion roll at the turn's start asks for its player, whom the turn message pings anyway."""
    who = ids(standin)
    await say(standin, "gm", "/campaign setup", system=SYSTEM)
    await say(standin, "alice", "/character add", name="Mauve", stats="reflex=3")
    await say(standin, "bob", "/character add", name="Mira", stats="reflex=2")
    await say(standin, "gm", "/encounter start")
    await say(standin, "bob", "/initiative join", character="Mira", roll=6)
    await say(standin, "alice", "/initiative join", character="Mauve", roll=1)
    await say(standin, "gm", "/condition add", target="Mauve", condition="confused", duration="10 rounds")
    await say(standin, "gm", "/initiative next")
    await bot.idle.wait()
    since = len(standin.book.messages)
    ended = await say(standin, "bob", "/initiative next")
    mauve = await turn_message(standin, "Mauve")
    await bot.idle.wait()
    assert "Confusion" in ended.content and not ended.pings.user_ids
    assert ended.current.allowed_mentions.get("users") == []
    assert [m.id for m in standin.book.messages[since:] if m.pings.user_ids] == [mauve.id]
    assert set(mauve.pings.user_ids) == {who["alice"]}


async def test_refusals_are_ephemeral_and_change_nothing(standin, bot):
    await setup_fight(standin)
    not_yours = await say(standin, "bob", "/act", action="run")
    assert not_yours.ephemeral and "not your turn" in not_yours.content.lower()
    unknown = await say(standin, "alice", "/act", action="juggle")
    assert unknown.ephemeral and "Unknown action" in unknown.content
    no_cost = await say(standin, "alice", "/act", action="spend")
    assert no_cost.ephemeral and "seconds=N" in no_cost.content
    gm_only = await say(standin, "alice", "/damage", target="Goblin", amount="5")
    assert gm_only.ephemeral and "Only the GM" in gm_only.content
    too_many = await say(standin, "alice", "/attack", target="Goblin", dice="1 2 3")
    assert too_many.ephemeral and "not needed" in too_many.content
    # Nothing was spent: the whole turn is still there.
    ran = await say(standin, "alice", "/act", action="run")
    assert not ran.ephemeral and "Mauve runs (3 s): 3 s left." in ran.content


async def test_help_fits_one_message_and_names_what_a_gm_needs(standin, bot):
    answer, text = await help_sections(standin, "gm", system=SYSTEM)
    assert answer.ephemeral and not text.endswith("…")
    for needed in (
        "/act action:",
        "spend options:",
        "delay=11",
        "/attack",
        "combo=3",
        "mod=+X/+Y",
        "Block/Dodge/Parry",
        "/choose option:Parry",
        "/damage",
        "damage_type:fear",
        "/condition add|remove",
        "Broken",
        "/check character:",
        "options:veto",
        "kind:skill",
        "stand_from_prone_seconds",
        "first_dying_dc",
    ):
        assert needed in text, needed


async def stored_characters(standin):
    """Jack (alice, Will 8) and Bal-Ziggaroth (the GM's, Will 11), as in the seed's veto example."""
    await say(standin, "gm", "/campaign setup", system=SYSTEM)
    await say(standin, "alice", "/character add", name="Jack", stats="reflex=2 dex=1 spirit=2 fortitude=1")
    await say(standin, "gm", "/character add", name="Bal-Ziggaroth", stats="reflex=1 dex=1 spirit=5")


async def test_a_stat_check_and_a_skill_check_from_a_stored_sheet(standin, bot):
    await stored_characters(standin)
    ledge = await say(standin, "alice", "/check", character="Jack", kind="reflex", dc=4, dice="2")
    assert not ledge.ephemeral and "Jack Reflex check: d6 2 +2 = 4 vs DC 4: success." in ledge.content, ledge.content
    poison = await say(standin, "alice", "/check", character="Jack", kind="fortitude", dc=6, dice="4")
    assert "Jack Fortitude check: d6 4 +1 = 5 vs DC 6: failure." in poison.content, poison.content
    for kind in ("dex", "strength", "endurance", "spirit"):
        shown = await say(standin, "alice", "/check", character="Jack", kind=kind, dc=3, options="bonus=1", dice="2")
        assert not shown.ephemeral and "vs DC 3" in shown.content, shown.content
    medicine = await say(
        standin, "alice", "/check", character="Jack", kind="skill", dc=7, options="skill=medicine bonus=2", dice="5"
    )
    assert "Jack Medicine (skill) check: d6 5 +2 = 7 vs DC 7: success." in medicine.content, medicine.content
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check character:Jack kind:reflex dc:4" in log


async def test_checks_without_their_dc_or_with_unknown_options_are_refused(standin, bot):
    await stored_characters(standin)
    missing = await say(standin, "alice", "/check", character="Jack", kind="spirit", dice="3")
    assert missing.ephemeral and "needs a DC" in missing.content, missing.content
    unknown = await say(standin, "alice", "/check", character="Jack", kind="will", dc=8, options="advantage")
    assert unknown.ephemeral and "bonus" in unknown.content and "veto" in unknown.content, unknown.content
    log = await say(standin, "gm", "/campaign log")
    assert "/check" not in "".join([log.content] + [a.data.decode() for a in log.attachments])


async def test_a_failed_veto_costs_a_morale_penalty_that_undo_gives_back(standin, bot):
    await stored_characters(standin)
    # the seed: "Jack only got 12, while Bal-Ziggaroth got 14. Jack fails his veto, takes a morale penalty"
    shown = await say(
        standin, "alice", "/check", character="Jack", kind="will", against="Bal-Ziggaroth", options="veto", dice="4 3"
    )
    assert not shown.ephemeral and "Jack's veto fails (12 to 14)" in shown.content, shown.content
    jack = await bot.core.repo.get_character(standin.world.default_guild.id, "Jack")
    assert jack.lasting == {"morale_penalties": 1}
    weaker = await say(standin, "alice", "/check", character="Jack", kind="will", dc=10, dice="3")
    assert "d6 3 +7 = 10 vs DC 10: success." in weaker.content, weaker.content  # Will 8 − 1
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid" in undone.content, undone.content
    jack = await bot.core.repo.get_character(standin.world.default_guild.id, "Jack")
    assert jack.lasting == {}


async def test_an_opposed_check_that_ties_rolls_again(standin, bot):
    await stored_characters(standin)
    # "In cases of a tie, roll again."
    shown = await say(
        standin, "alice", "/check", character="Jack", kind="will", against="Bal-Ziggaroth", dice="6 3 1 2"
    )
    assert "Tie at 14: both roll again." in shown.content, shown.content
    assert shown.content.index("Tie at 14") < shown.content.index("Bal-Ziggaroth wins (13 to 9).")
    first = await say(
        standin, "alice", "/check", character="Jack", kind="initiative", against="Bal-Ziggaroth", dice="3 4 5 2"
    )
    assert "Tie at 6: both roll again." in first.content and "Jack wins (8 to 4)." in first.content, first.content
    jack = await bot.core.repo.get_character(standin.world.default_guild.id, "Jack")
    assert jack.lasting == {}  # an opposed check without a veto changes nothing


async def test_the_gm_resolves_a_collision_with_dodges_and_damage_from_the_entered_dice(standin, bot):
    """`/damage amount:collision`: the seed's DC 4 + the scales' difference, 1d6 + 3×the smallest scale + 1 per
    5 squares/second; it spends none of the acting character's seconds."""
    await setup_fight(standin)
    await say(standin, "gm", "/initiative add", name="Ogre", stats="scale=2 reflex=1", roll=1)
    # Mauve (Reflex 3) fails, d6 2 + 3 = 5 against DC 6; the Ogre evades, 6 + 1; Mauve takes 1d6 (4) + 2.
    hit = await say(
        standin, "gm", "/damage", target="Mauve", amount="collision", options="speed=12 with=Ogre", dice="2 6 4"
    )
    assert not hit.ephemeral, hit.content
    for line in (
        "💥 Mauve collides with Ogre at 12 squares/s: Dodge DC 6.",
        "Mauve dodges: d6 2 +3 = 5 vs DC 6: fails.",
        "Ogre dodges: d6 6 +1 = 7 vs DC 6: evades.",
        "Mauve: collision damage 1d6 (4) + 2 = 6 vs Toughness 9/3: > Minimum: wound.",
    ):
        assert line in hit.content, hit.content
    turn = await turn_message(standin, "Mauve")
    assert "⏱ 6 of 6 s left" in field(turn, "Mauve")
    stray = await say(standin, "gm", "/damage", target="Mauve", amount="collision", options="speed=12 called=head")
    assert stray.ephemeral and "`called` does not go with `amount:collision`" in stray.content, stray.content
    not_gm = await say(standin, "alice", "/damage", target="Ogre", amount="collision", options="speed=5 object=1")
    assert not_gm.ephemeral and "Only the GM" in not_gm.content, not_gm.content


async def grenadier_fight(standin):
    """Mira (bob: a fire vial, Ranged Skill 2) against a Goblin (Reflex 2, Block 1) and Mauve (alice)."""
    mira = ("bob", "Mira", "reflex=3 ranged_skill=2 weapons='fire vial:1d6+4:10;dagger:1d4'", {"roll": 6})
    mauve = ("alice", "Mauve", "reflex=2 block=1 parry=2", {"roll": 1})
    await begin_fight(standin, SYSTEM, [mira, mauve], [("Goblin", "reflex=2 block=1", {"roll": 2})])


async def test_an_area_attack_asks_each_target_in_turn_with_block_dodge_or_no_defence(standin, bot):
    who = ids(standin)
    await grenadier_fight(standin)
    # 2 + 2 = 4 against the area's Target 4: a hit; one damage die, 3 + 4 = 7, for both.
    thrown = await say(
        standin, "bob", "/attack", target="Goblin, Mauve", weapon="fire vial", options="area", dice="2 3"
    )
    assert not thrown.ephemeral, thrown.content
    assert "Mira makes an area attack with fire vial on Goblin, Mauve: d6 2 +2 = 4 vs the area's Target 4: hit." in (
        thrown.content
    )
    ask = await choice_message(standin, "Goblin")
    assert set(ask.pings.user_ids) == {who["gm"]}
    assert [b["label"] for b in ask.buttons()] == ["Block", "Dodge", "No defence"]
    refused = await (await standin.click("alice", "Dodge", message=ask)).response()
    assert refused.ephemeral and "not yours" in refused.content
    dodged = await (await standin.click("gm", "Dodge", message=ask)).response()
    assert "Chosen: Dodge." in dodged.content and "Goblin dodges: d6" in dodged.content, dodged.content

    ask = await choice_message(standin, "Mauve")
    assert set(ask.pings.user_ids) == {who["alice"]}
    assert [b["label"] for b in ask.buttons()] == ["Block", "Dodge", "No defence"]
    taken = await (await standin.click("alice", "No defence", message=ask)).response()
    assert "Mauve: 1d6 (3) + 4 = 7 vs Toughness 9/3: > Minimum: wound." in taken.content, taken.content
    assert any("Mira makes an area attack (4 s): 2 s left." in m.content for m in standin.messages())

    dagger = await say(standin, "bob", "/attack", target="Goblin, Mauve", weapon="dagger", options="area", dice="6 6")
    assert dagger.ephemeral and "ranged or magic weapon" in dagger.content, dagger.content


async def test_a_fast_movers_melee_hit_adds_1_damage_per_5_squares_a_second(standin, bot):
    """The seed's charging mount: 18 squares/s → +3 (on top of an average human's Strength 3)."""
    await setup_fight(standin)
    hit = await say(standin, "alice", "/attack", target="Goblin", options="fast=18", dice="6 5")
    assert not hit.ephemeral, hit.content
    ask = await choice_message(standin, "Goblin")
    taken = await (await standin.click("gm", "No defence", message=ask)).response()
    assert "Goblin: 1d8 (5) + 3 (18 squares/s) + Strength 3 = 11 vs Toughness 9/3" in taken.content, taken.content


async def test_a_dying_dc_the_fight_ended_is_not_stored_after_it(standin, bot):
    # Jack joins dying at DC 8 and is stabilised: his next dying, set between fights, starts at the first DC.
    await stored_characters(standin)
    for key, value in (("dying", "yes"), ("dying_dc", "8")):
        await say(standin, "gm", "/campaign adjust", character="Jack", key=key, value=value)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Jack")
    stabilised = await say(standin, "gm", "/condition remove", target="Jack", condition="dying")
    assert "Jack is stabilised" in stabilised.content, stabilised.content
    question = await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter", message=question)).response()
    jack = await bot.core.repo.get_character(standin.world.default_guild.id, "Jack")
    assert jack.lasting["dying"] is False and "dying_dc" not in jack.lasting, jack.lasting
