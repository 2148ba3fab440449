"""Factions through real discord.py and the stand-in: only the moving faction
takes a turn or passes, turn messages ping exactly its players, reaction
buttons reach the target's player, refusals stay private, and /help fits."""

from __future__ import annotations

from datetime import timedelta

from bot.sandbox import settle
from bot.standin.records import iter_components
from tests.e2e.conftest import help_sections, say
from tests.helpers import ids

CAST = (
    ("alice", "Balthasar", "health=12 grit=3 weapons='sword:d6'"),
    ("bob", "Sybilla", "health=10 grit=2 weapons='dagger:d4, musket:d8:6'"),
    ("carol", "Theobald", "health=12 grit=3 armour=2 weapons='spear:d6, dagger:d4'"),
)


async def begin_fight(standin, bot):
    await say(standin, "gm", "/campaign setup", system="factions")
    for user, name, stats in CAST:
        await say(standin, user, "/character add", name=name, stats=stats)
    await say(standin, "gm", "/encounter start")
    for user, name, _ in CAST:
        await say(standin, user, "/initiative join", character=name)
    await say(standin, "gm", "/initiative add", name="Bandit", count=3, side="bandits", stats="agi=8 weapons='axe:d6'")
    await say(standin, "gm", "/turn initiative", faction="bandits")
    await say(standin, "gm", "/initiative next")
    await settle(standin, bot)


async def act(standin, bot, user, command, **options):
    """Run a command, wait until the bot has posted everything it leads to, and
    return the answer with the messages that followed it."""
    start = len(standin.messages())
    answer = await say(standin, user, command, **options)
    await settle(standin, bot)
    return answer, [m for m in standin.messages()[start:] if m is not answer]


async def click(standin, bot, user, label, message=None):
    start = len(standin.messages())
    answer = await (await standin.click(user, label, message=message)).response()
    await settle(standin, bot)
    return answer, [m for m in standin.messages()[start:] if m is not answer]


async def pick(standin, bot, user, label, message):
    """Choose `label` in the menu a choice with many options shows instead of buttons."""
    (menu,) = [c for c in iter_components(message.components) if c.get("type") == 3]
    value = next(o["value"] for o in menu["options"] if o["label"] == label)
    start = len(standin.messages())
    answer = await (await standin.select(user, [value], custom_id=menu["custom_id"], message=message)).response()
    await settle(standin, bot)
    return answer, [m for m in standin.messages()[start:] if m is not answer]


def menu_labels(message):
    return [o["label"] for c in iter_components(message.components) if c.get("type") == 3 for o in c["options"]]


def turn_message(messages):
    (message,) = [m for m in messages if "· round" in m.content and not m.ephemeral]
    return message


def pinged(message):
    return set(message.pings.user_ids)


def refused(answer, text):
    assert answer.ephemeral and answer.content.startswith("⛔") and text in answer.content, answer.content
    assert not answer.pings.user_ids


async def test_only_the_moving_faction_takes_a_turn_or_passes_and_its_players_are_pinged(standin, bot):
    who = ids(standin)
    await begin_fight(standin, bot)
    opening = next(m for m in reversed(standin.messages()) if "bandits to move" in m.content)
    assert pinged(opening) == {who["gm"]} and not opening.pings.everyone
    assert not opening.components  # a faction's move has no End turn: it takes a turn or passes

    answer, after = await act(standin, bot, "alice", "/turn take", character="Balthasar")
    refused(answer, "The move is with bandits")
    assert after == []
    refused((await act(standin, bot, "alice", "/turn pass"))[0], "Not your move")

    answer, after = await act(standin, bot, "gm", "/turn pass")
    assert not answer.ephemeral and "bandits pass." in answer.content
    players_move = turn_message(after)
    assert "players to move: take a turn with Balthasar, Sybilla, Theobald, or pass" in players_move.content
    assert pinged(players_move) == {who["alice"], who["bob"], who["carol"]}

    refused((await act(standin, bot, "gm", "/turn take", character="Bandit 1"))[0], "The move is with players")
    refused((await act(standin, bot, "bob", "/turn take", character="Balthasar"))[0], "not your character")

    answer, after = await act(standin, bot, "alice", "/turn take", character="Balthasar")
    turn = turn_message(after)
    assert "Balthasar's turn" in turn.content and pinged(turn) == {who["alice"]}
    refused((await click(standin, bot, "bob", "End turn", message=turn))[0], "Only the acting")

    answer, after = await click(standin, bot, "alice", "End turn", message=turn)
    bandits = turn_message(after)
    assert "bandits to move: take a turn with Bandit 1, Bandit 2, Bandit 3, or pass" in bandits.content
    assert pinged(bandits) == {who["gm"]}
    assert standin.unknown_routes == []


async def test_reaction_buttons_go_to_the_targets_player_and_guards_to_the_allies(standin, bot):
    who = ids(standin)
    await begin_fight(standin, bot)
    await act(standin, bot, "gm", "/turn take", character="Bandit 1")

    # Sybilla has not acted: she may react, and her friends may guard her.
    answer, after = await act(standin, bot, "gm", "/attack", target="Sybilla", weapon="axe", dice="3")
    assert "Sybilla may react or be guarded" in answer.content and not answer.pings.user_ids
    (choice,) = [m for m in after if m.components]
    assert pinged(choice) == {who["bob"], who["alice"], who["carol"]}
    # Nine options: one menu, not nine buttons.
    assert "Dodge" in menu_labels(choice) and "Guard: Theobald" in menu_labels(choice)
    assert not choice.has_component(label="Dodge")
    answer, _ = await pick(standin, bot, "carol", "Guard: Theobald", message=choice)
    assert "Theobald guards Sybilla and becomes the target." in answer.content
    assert "Theobald: 3 damage; − armour 2 = 1; grit soaks 1 (grit 2/3)." in answer.content
    await act(standin, bot, "gm", "/initiative next")
    await act(standin, bot, "bob", "/turn pass")

    # Theobald spent his turn guarding: he cannot react, so only the allies who could guard are asked.
    await act(standin, bot, "gm", "/turn take", character="Bandit 2")
    answer, after = await act(standin, bot, "gm", "/attack", target="Theobald", weapon="axe", dice="1")
    assert "An ally of Theobald may guard" in answer.content
    (choice,) = [m for m in after if m.components]
    assert pinged(choice) == {who["alice"], who["bob"]}
    refused((await click(standin, bot, "carol", "No reaction", message=choice))[0], "not yours")
    answer, _ = await click(standin, bot, "bob", "No reaction", message=choice)
    assert "Theobald: 1 damage; − armour 2 = 0; no harm." in answer.content
    await act(standin, bot, "gm", "/initiative next")
    await act(standin, bot, "alice", "/turn take", character="Balthasar")
    await act(standin, bot, "alice", "/initiative next")

    # A target `alone` has nobody to guard it: the buttons go to its player only.
    await act(standin, bot, "gm", "/turn take", character="Bandit 3")
    answer, after = await act(standin, bot, "gm", "/attack", target="Sybilla", weapon="axe", options="alone", dice="3")
    (choice,) = [m for m in after if m.components]
    assert pinged(choice) == {who["bob"]} and "Guard: Balthasar" not in menu_labels(choice)
    # Alone, with no ally to hide behind: eight options (a weapon, bare hands or a grapple, shove or disarm to
    # counter with), one menu.
    assert not any(label.startswith("Hide behind") for label in menu_labels(choice))
    assert len(menu_labels(choice)) == 8
    refused((await pick(standin, bot, "alice", "Dodge", message=choice))[0], "not yours")
    refused((await act(standin, bot, "alice", "/attack", target="Bandit 2"))[0], "Waiting for a choice")
    answer, _ = await act(standin, bot, "bob", "/choose", option="Dodge", dice="2")
    assert "Sybilla AGI save to dodge: d20 2 vs AGI 10 → pass: the attack misses." in answer.content
    assert not choice.components  # answered: its menu is taken off
    assert standin.unknown_routes == []


async def test_a_counter_on_a_bandit_peeking_from_cover_meets_the_cover(standin, bot):
    # Seed: "If a character peaks behind cover to attack, they can be still countered and the barrier only
    # counts as cover."
    await begin_fight(standin, bot)
    await act(standin, bot, "gm", "/turn take", character="Bandit 1")
    await act(standin, bot, "gm", "/attack", target="Sybilla", weapon="axe", options="alone peek", dice="3")
    answer, _ = await act(standin, bot, "bob", "/choose", option="Counter: dagger", dice="4")
    assert "A tie: both are hit at once." in answer.content  # the dagger's 4 − cover 1 = 3 against 3
    assert "Bandit 1: 4 damage; − armour 1 (cover) = 3;" in answer.content
    assert standin.unknown_routes == []


async def test_help_lets_a_gm_run_the_fight_in_one_message(standin, bot):
    await say(standin, "gm", "/campaign setup", system="factions")
    answer, text = await help_sections(standin, "gm")
    assert answer.ephemeral and not text.endswith("…")
    for needed in (
        "/turn initiative",
        "/turn take",
        "/turn pass",
        "/turn first",
        "/attack",
        "Dodge",
        "Counter",
        "Guards",
        "alone",
        "peek",
        "Morale",
        "/choose",
        "weapons=",
        "**Defaults**",
        "grit_back_after_fight",
        "health_back_after_rest",
        "impaired damage d4, enhanced d12",
        "options:direct` skips armour and grit",
        "**Checks**",
        "kind:chase",
    ):
        assert needed in text, needed


async def test_a_players_pass_that_ends_the_round_leaves_the_bandits_morale_dice_to_the_gm(standin, bot):
    who = ids(standin)
    await begin_fight(standin, bot)
    for name in ("Bandit 1", "Bandit 2"):
        await act(standin, bot, "gm", "/condition add", target=name, condition="incapacitated")
    await act(standin, bot, "gm", "/turn pass")

    # Bob's pass ends the round: his dice cannot roll the bandits' morale, and nothing changes.
    answer, after = await act(standin, bot, "bob", "/turn pass", dice="3")
    refused(answer, "your own characters")
    assert after == []
    answer, after = await act(standin, bot, "bob", "/turn pass")
    assert "Every faction passed in a row: the round ends." in answer.content
    (choice,) = [m for m in after if m.has_component(label="Roll")]
    assert pinged(choice) == {who["gm"]}
    refused((await click(standin, bot, "bob", "Roll", message=choice))[0], "not yours")
    answer, _ = await act(standin, bot, "gm", "/choose", option="Roll", dice="3")
    assert "Bandit 3 WIT save (morale): d20 3 vs WIT 10 → pass: immune to morale for the rest of the fight." in (
        answer.content
    )
    assert standin.unknown_routes == []


def live(standin):
    """The channel's messages whose buttons still answer something."""
    return [m for m in standin.messages() if m.buttons() and not m.ephemeral and not m.deleted]


async def test_undoing_a_timed_out_morale_choice_asks_it_again_and_the_round_waits_for_the_answer(standin, bot):
    await begin_fight(standin, bot)
    for name in ("Bandit 1", "Bandit 2"):
        await act(standin, bot, "gm", "/condition add", target=name, condition="incapacitated")
    await act(standin, bot, "gm", "/turn pass")
    await act(standin, bot, "bob", "/turn pass")
    _, after = await act(standin, bot, "gm", "/choose", option="Roll", dice="13")
    (asked,) = [m for m in after if m.has_component(label="Surrender")]
    record = await bot.core.repo.active_encounter(standin.world.channel("combat").id)
    bot.core.now = lambda: record.pending_deadline + timedelta(seconds=1)
    await bot.reminders.tick()
    await settle(standin, bot)
    assert not asked.components  # answered by its default: nothing left to click

    answer, after = await act(standin, bot, "gm", "/encounter undo")
    assert "Undid 1 action: (choice timed out)" in answer.content
    # The question holds up every move: no turn is announced before it is answered.
    assert not [m for m in after if "to move" in m.content], [m.content for m in after]
    (again,) = [m for m in after if m.has_component(label="Surrender")]
    assert live(standin) == [again]

    _, after = await act(standin, bot, "gm", "/choose", option="Flee")
    assert "players to move" in turn_message(after).content
    assert live(standin) == []  # a faction's move has no End turn button


async def test_undoing_the_end_turn_that_ended_the_round_shows_that_turn_again_and_drops_the_morale_question(
    standin, bot
):
    await begin_fight(standin, bot)
    for name in ("Bandit 1", "Bandit 2"):
        await act(standin, bot, "gm", "/condition add", target=name, condition="incapacitated")
    await act(standin, bot, "gm", "/turn pass")
    for user, name in (("alice", "Balthasar"), ("gm", "Bandit 3"), ("bob", "Sybilla")):
        await act(standin, bot, user, "/turn take", character=name)
        await act(standin, bot, "gm", "/initiative next")
    _, after = await act(standin, bot, "carol", "/turn take", character="Theobald")
    old_turn = turn_message(after)
    _, after = await click(standin, bot, "carol", "End turn", message=old_turn)
    (question,) = [m for m in after if m.has_component(label="Roll")]

    _, after = await act(standin, bot, "gm", "/encounter undo")
    turn = turn_message(after)
    assert "Theobald's turn" in turn.content and turn.has_component(label="End turn")
    assert not question.components and not old_turn.components
    assert live(standin) == [turn]
    _, after = await click(standin, bot, "carol", "End turn", message=turn)
    assert [m for m in after if m.has_component(label="Roll")]


async def stored_characters(standin):
    """A campaign with Sybilla (AGI 8, WIT 12, STR 20) and a fearless Theobald, outside any fight."""
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "bob", "/character add", name="Sybilla", stats="agi=8 wit=12 str=20")
    await say(standin, "carol", "/character add", name="Theobald", stats="fearless=yes")


async def test_check_rolls_a_stored_characters_saves_equal_to_the_attribute_passes(standin, bot):
    # "He rolls a 2 on a d20, lower than their AGI [8], so the attack misses": at or under the attribute passes.
    await stored_characters(standin)
    passed = await say(standin, "bob", "/check", character="Sybilla", kind="agi", dice="8")
    assert not passed.ephemeral and passed.content == "🎲 ✍️ Sybilla AGI save: d20 8 vs AGI 8 → pass.", passed.content
    failed = await say(standin, "bob", "/check", character="Sybilla", kind="agi", dice="9")
    assert failed.content == "🎲 ✍️ Sybilla AGI save: d20 9 vs AGI 8 → fail.", failed.content
    wit = await say(standin, "bob", "/check", character="Sybilla", kind="wit", dice="12", options="why='to climb'")
    assert wit.content == "🎲 ✍️ Sybilla WIT save to climb: d20 12 vs WIT 12 → pass.", wit.content
    # "He rolls a 20 on the d20, a miss": a natural 20 fails even under STR 20.
    natural = await say(standin, "bob", "/check", character="Sybilla", kind="str", dice="20")
    assert natural.content == "🎲 ✍️ Sybilla STR save: d20 20 vs STR 20 → natural 20: fail.", natural.content
    assert natural.buttons() == []  # the seed offers nothing after a save
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check character:Sybilla kind:agi" in log and "d20 9 vs AGI 8 → fail" in log
    nothing = await say(standin, "gm", "/campaign undo")  # a save changes nothing a character carries
    assert nothing.ephemeral and "no rest, adjustment or check to undo" in nothing.content, nothing.content


async def test_check_rolls_the_seeds_chase_and_morale(standin, bot):
    await stored_characters(standin)
    # "those who pass escape, those who fail are reached by the pursuers"
    escaped = await say(standin, "bob", "/check", character="Sybilla", kind="chase", dice="8")
    assert escaped.content.splitlines() == [
        "🎲 ✍️ Sybilla AGI save to escape: d20 8 vs AGI 8 → pass.",
        "🎲 ✍️ Sybilla escapes.",
    ]
    reached = await say(standin, "bob", "/check", character="Sybilla", kind="chase", dice="9")
    assert "Sybilla is reached by the pursuers." in reached.content, reached.content
    # "those who fail must surrender or retreat"; "Characters who are immune to fear are also immune to morale."
    broke = await say(standin, "gm", "/check", character="Sybilla", kind="morale", dice="13")
    assert "d20 13 vs WIT 12 → fail" in broke.content and "Sybilla breaks: surrenders or retreats." in broke.content
    held = await say(standin, "gm", "/check", character="Sybilla", kind="morale", dice="12")
    assert "Sybilla holds" in held.content, held.content
    fearless = await say(standin, "carol", "/check", character="Theobald", kind="morale")
    assert fearless.content == "🎲 Theobald is immune to fear, hence to morale: no save.", fearless.content


async def test_check_refuses_a_dc_an_unknown_option_and_the_dead(standin, bot):
    await stored_characters(standin)
    with_dc = await say(standin, "bob", "/check", character="Sybilla", kind="agi", dc=10, dice="3")
    refused(with_dc, "takes no DC")
    unknown = await say(standin, "bob", "/check", character="Sybilla", kind="agi", options="advantage", dice="3")
    refused(unknown, "`why=…`")
    await say(standin, "gm", "/campaign adjust", character="Sybilla", key="dead", value="yes")
    dead = await say(standin, "bob", "/check", character="Sybilla", kind="agi", dice="3")
    refused(dead, "dead")
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check" not in log  # refused checks are not written


async def test_check_rolls_a_fighters_save_in_the_middle_of_a_fight(standin, bot):
    await begin_fight(standin, bot)
    answer, _ = await act(standin, bot, "alice", "/check", character="Balthasar", kind="str", dice="10")
    assert answer.content == "🎲 ✍️ Balthasar STR save: d20 10 vs STR 10 → pass.", answer.content


async def test_a_save_that_offers_nothing_is_followed_by_nothing(standin, bot):
    await stored_characters(standin)
    answer, after = await act(standin, bot, "bob", "/check", character="Sybilla", kind="agi", dice="3")
    assert "d20 3 vs AGI 8 → pass" in answer.content
    assert [m.content for m in after] == []


async def faction_of(standin, bot, name):
    _, state = await bot.core.current(standin.world.channel("combat").id)
    return state.find(name).side


async def end_fight(standin, bot):
    question = await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter", message=question)).response()
    await bot.idle.wait()


async def test_a_kept_npc_comes_back_to_the_faction_it_was_kept_with(standin, bot):
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "alice", "/character add", name="Balthasar", stats="health=12 weapons='sword:d6'")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Balthasar")
    added = await say(standin, "gm", "/initiative add", name="Chief", side="bandits", keep=True, stats="agi=8")
    assert not added.ephemeral and "Faction: bandits." in added.content, added.content
    await end_fight(standin, bot)
    shown = await say(standin, "gm", "/character show", name="Chief")
    assert "Faction bandits" in str(shown.embeds), shown.embeds
    # The next fight: brought back with /initiative join, Chief fights for the bandits again, not the GM.
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Balthasar")
    joined = await say(standin, "gm", "/initiative join", character="Chief")
    assert not joined.ephemeral and "Faction: bandits." in joined.content, joined.content
    assert await faction_of(standin, bot, "Chief") == "bandits"
    assert await faction_of(standin, bot, "Balthasar") == "players"
    await end_fight(standin, bot)
    # Brought back with /initiative add keep:true, likewise; a side the GM names there wins, and is kept.
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Chief", keep=True)
    assert await faction_of(standin, bot, "Chief") == "bandits"
    await end_fight(standin, bot)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Chief", keep=True, side="wolves")
    assert await faction_of(standin, bot, "Chief") == "wolves"
    await end_fight(standin, bot)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Chief")
    assert await faction_of(standin, bot, "Chief") == "wolves"


async def test_a_players_character_has_no_faction_for_the_gm_to_set(standin, bot):
    # "Players' characters [...] are faction `players`" (README): only a kept NPC keeps a faction of its own.
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "alice", "/character add", name="Balthasar", stats="health=12 weapons='sword:d6'")
    answer = await say(standin, "gm", "/campaign adjust", character="Balthasar", key="faction", value="bandits")
    refused(answer, "Balthasar is a player's character and always joins `players`")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Balthasar")
    assert await faction_of(standin, bot, "Balthasar") == "players"


async def test_an_ally_may_guard_an_incapacitated_friend_against_a_death_blow(standin, bot):
    """Seed: a death blow is made in an attack, and "A character who is nearby the target of an attack can react
    by guarding them. They become the new target of the attack." Nobody guarding, the blow kills."""
    who = ids(standin)
    await begin_fight(standin, bot)
    await act(standin, bot, "gm", "/condition add", target="Sybilla", condition="incapacitated")
    await act(standin, bot, "gm", "/turn take", character="Bandit 1")

    answer, after = await act(standin, bot, "gm", "/act", action="death_blow", target="Sybilla", dice="3")
    assert not answer.ephemeral, answer.content
    assert "a death blow on Sybilla, who is incapacitated." in answer.content, answer.content
    (choice,) = [m for m in after if m.components]
    assert pinged(choice) == {who["alice"], who["carol"]}  # the allies' players, not the fallen's
    assert "moves to deliver a death blow to Sybilla" in choice.content, choice.content
    assert [b["label"] for b in choice.buttons()] == ["No reaction", "Guard: Balthasar", "Guard: Theobald"]
    refused((await click(standin, bot, "bob", "Guard: Theobald", message=choice))[0], "not yours")
    answer, _ = await click(standin, bot, "carol", "Guard: Theobald", message=choice)
    assert "Theobald guards Sybilla and becomes the target." in answer.content, answer.content
    assert "Theobald: 3 damage; − armour 2 = 1; grit soaks 1 (grit 2/3)." in answer.content, answer.content
    assert "Sybilla" not in answer.content.split("becomes the target.")[1]  # she lives
    await act(standin, bot, "gm", "/initiative next")
    await act(standin, bot, "bob", "/turn pass")

    # Theobald spent his turn guarding: only Balthasar may guard, and he does not.
    await act(standin, bot, "gm", "/turn take", character="Bandit 2")
    answer, after = await act(standin, bot, "gm", "/act", action="death_blow", target="Sybilla", dice="5")
    (choice,) = [m for m in after if m.components]
    assert pinged(choice) == {who["alice"]}
    assert [b["label"] for b in choice.buttons()] == ["No reaction", "Guard: Balthasar"]
    answer, _ = await click(standin, bot, "alice", "No reaction", message=choice)
    assert "Nobody guards Sybilla: the death blow kills them." in answer.content, answer.content
    assert standin.unknown_routes == []


async def test_grit_comes_back_when_the_fight_ends_even_when_it_began_the_fight_short(standin, bot):
    """SYSTEMS.md's default where the seed is silent, `grit_back_after_fight`: grit back at the end of the
    fight, a grit the GM set lower between fights included (the fight itself need not change it)."""
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "alice", "/character add", name="Balthasar", stats="health=12 grit=3 weapons='sword:d6'")
    await say(standin, "gm", "/campaign adjust", character="Balthasar", key="grit", value="1")
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "alice", "/initiative join", character="Balthasar")
    assert not joined.ephemeral, joined.content
    await end_fight(standin, bot)
    shown = await say(standin, "alice", "/character show", name="Balthasar")
    assert "Grit 3/3" in str(shown.embeds), shown.embeds
