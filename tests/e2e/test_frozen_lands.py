"""Frozen Lands through real discord.py and the stand-in: the tie buttons, the
three-action limit, the defense buttons reaching the defender's player, the turn
message's actions and reactions, and /help fitting one message.

The bot rolls the GM's players + 1 initiative dice itself; players who roll a 6
cannot be beaten, so the order below does not depend on that roll."""

from rules.systems.frozen_lands import SYSTEM
from tests.e2e.conftest import help_sections, say
from tests.helpers import ids

SHEETS = {
    "Astrid": ("alice", "body=3 agility=3 awareness=3 soul=2 melee=2 mobility=2 armour=1 weapon=Shortsword"),
    "Bjorn": (
        "bob",
        "body=4 agility=2 awareness=2 soul=2 melee=3 mobility=1 class_stamina=5 armour=2 weapon=Battleaxe shield=true",
    ),
    "Sigrid": ("carol", "agility=3 marksmanship=3 weapon=Dagger ranged='Light Crossbow' loaded=true"),
}


async def begin(standin, **rolls):
    """Characters join with these initiative rolls, a Wolf (score 4) joins, the GM begins."""
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    for name, (user, stats) in SHEETS.items():
        await say(standin, user, "/character add", name=name, stats=stats)
    await say(standin, "gm", "/encounter start")
    for name, roll in rolls.items():
        await say(standin, SHEETS[name][0], "/initiative join", character=name, roll=roll)
    await say(standin, "gm", "/initiative add", name="Wolf", stats="initiative=4 damage=3 defense=1 stamina=6")
    return await say(standin, "gm", "/initiative next")


def newest(standin, predicate, since=0):
    return next((m for m in reversed(standin.messages()[since:]) if predicate(m)), None)


async def turn_message(standin, title, since=0):
    return await standin.wait_for(
        lambda: newest(standin, lambda m: title in m.content and m.components, since), what=title
    )


async def choice_message(standin, words, since=0):
    return await standin.wait_for(
        lambda: newest(standin, lambda m: words in m.content and not m.ephemeral and m.components, since), what=words
    )


async def attack_and_ask(standin, target):
    """The GM's enemy attacks; returns the defense choice the attack opened (not an older one)."""
    since = len(standin.messages())
    await say(standin, "gm", "/attack", target=target)
    return await choice_message(standin, f"hits {target} for", since)


def field_lines(message, name):
    (field,) = [f for f in message.embeds[0]["fields"] if f["name"] == name]
    return field["value"].splitlines()


async def test_tied_players_order_themselves_with_buttons_only_they_can_press(standin, bot):
    who = ids(standin)
    await begin(standin, Astrid=6, Bjorn=6, Sigrid=2)
    tie = await choice_message(standin, "tied on initiative 6")
    assert set(tie.pings.user_ids) == {who["alice"], who["bob"]} and not tie.pings.everyone
    # an order is chosen, not rolled: no word of entering one's own roll
    assert tie.content.endswith("*(default if nobody answers: Astrid)*"), tie.content
    refused = await (await standin.click("carol", "Bjorn", message=tie)).response()
    assert refused.ephemeral and "not yours" in refused.content
    chosen = await (await standin.click("bob", "Bjorn", message=tie)).response()
    assert not chosen.ephemeral and "Bjorn goes first among the tied players" in chosen.content
    first = await turn_message(standin, "Bjorn's turn")
    assert set(first.pings.user_ids) == {who["bob"]}
    order = await say(standin, "carol", "/initiative order")
    lines = order.embeds[0]["description"].splitlines()
    assert [next(n for n in ("Bjorn", "Wolf", "Astrid", "Sigrid") if n in line) for line in lines] == [
        "Bjorn",
        "Wolf",
        "Astrid",
        "Sigrid",
    ]


async def test_undoing_the_tie_answer_that_began_round_1_posts_no_turn_for_nobody(standin, bot):
    await begin(standin, Astrid=6, Bjorn=6, Sigrid=2)
    tie = await choice_message(standin, "tied on initiative 6")
    await (await standin.click("bob", "Bjorn", message=tie)).response()
    first = await turn_message(standin, "Bjorn's turn")
    since = len(standin.messages())
    undone = await say(standin, "gm", "/encounter undo")
    assert "Undid 1 action" in undone.content, undone.content
    asked = await choice_message(standin, "tied on initiative 6", since)
    await bot.idle.wait()
    posted = standin.messages()[since:]
    # Back to choosing the order: the tie is asked again, and nobody's turn is announced.
    assert not [m for m in posted if "'s turn**" in m.content], [m.content for m in posted]
    # The undone turn's End turn button goes, as a later turn's would take it.
    await standin.wait_for(lambda: not first.components or None, what="the undone turn's button gone")
    assert asked.components


async def test_undoing_round_1_takes_the_end_turn_button_off_its_first_turn(standin, bot):
    await begin(standin, Astrid=6, Bjorn=3)
    first = await turn_message(standin, "Astrid's turn")
    undone = await say(standin, "gm", "/encounter undo")
    assert "Undid 1 action: /initiative next" in undone.content, undone.content
    await standin.wait_for(lambda: not first.components or None, what="the undone turn's button gone")


async def test_a_fourth_action_in_a_round_is_refused_privately(standin, bot):
    await begin(standin, Astrid=6, Bjorn=3)
    await turn_message(standin, "Astrid's turn")
    for options in (
        {"action": "aim"},
        {"action": "other", "options": "label=Shout"},
        {"action": "move", "options": "to=Ferry"},
    ):
        answer = await say(standin, "alice", "/act", **options)
        assert not answer.ephemeral, answer.content
    refused = await say(standin, "alice", "/attack", target="Wolf", dice="6 6 6 6")
    assert refused.ephemeral and "0 actions left this round" in refused.content
    assert not refused.pings.user_ids
    wolf = await say(standin, "gm", "/encounter status")
    assert "Wolf — Stamina 6/6" in wolf.embeds[0]["description"]


async def test_the_dodge_and_block_buttons_reach_the_defenders_player(standin, bot):
    who = ids(standin)
    await begin(standin, Astrid=6, Bjorn=3)
    await (await standin.click("alice", "End turn", message=await turn_message(standin, "Astrid's turn"))).response()
    await turn_message(standin, "Wolf's turn")
    ask = await attack_and_ask(standin, "Bjorn")
    assert "Wolf hits Bjorn for 3" in ask.content
    assert set(ask.pings.user_ids) == {who["bob"]}
    labels = [c["label"] for row in ask.components for c in row["components"]]
    assert labels == ["Dodge", "Block", "No reaction"]
    refused = await (await standin.click("alice", "Block", message=ask)).response()
    assert refused.ephemeral and "not yours" in refused.content
    blocked = await (await standin.click("bob", "Block", message=ask)).response()
    assert "Bjorn: Block: Melee 3 = 3d6" in blocked.content
    # Astrid has no shield and a Shortsword parries: both buttons; her own dice come with /choose.
    ask = await attack_and_ask(standin, "Astrid")
    assert set(ask.pings.user_ids) == {who["alice"]}
    dodged = await say(standin, "alice", "/choose", option="Dodge", dice="6 6")
    assert (
        "Astrid: Dodge: Mobility 2 = 2d6 (6, 6) → 2 successes → damage 3 − 2 = 1; armour 1: 1 − 1 = 0" in dodged.content
    )


async def test_the_turn_message_shows_actions_and_reactions_left(standin, bot):
    who = ids(standin)
    await begin(standin, Astrid=6, Bjorn=3)
    first = await turn_message(standin, "Astrid's turn")
    assert field_lines(first, "Astrid")[1:3] == ["Actions left: 3 of 3", "Reactions left: 2 of 2"]
    await say(standin, "alice", "/act", action="aim")
    await (await standin.click("alice", "End turn", message=first)).response()
    await turn_message(standin, "Wolf's turn")
    await (await standin.click("alice", "No reaction", message=await attack_and_ask(standin, "Astrid"))).response()
    await (await standin.click("alice", "Dodge", message=await attack_and_ask(standin, "Astrid"))).response()
    await say(standin, "alice", "/act", action="interrupt", dice="6 1 1")
    stepping_in = await turn_message(standin, "Astrid acts out of turn, interrupting Wolf")
    assert set(stepping_in.pings.user_ids) == {who["alice"]}
    assert field_lines(stepping_in, "Astrid")[1:4] == [
        "Out of turn: one action (one of the 3), then Wolf's turn goes on",
        "Actions left: 2 of 3",
        "Reactions left: 1 of 2",
    ]
    # The GM's /attack while Astrid steps in is still the Wolf's, and her one action still waits.
    ask = await attack_and_ask(standin, "Bjorn")
    assert "> Wolf hits Bjorn for 3:" in ask.content
    await (await standin.click("bob", "No reaction", message=ask)).response()
    since = len(standin.messages())
    await say(standin, "alice", "/attack", target="Wolf", dice="1 1 1 1")
    await turn_message(standin, "Wolf's turn", since)


async def test_help_for_frozen_lands_fits_one_message(standin, bot):
    answer, text = await help_sections(standin, "gm", system="frozen-lands")
    assert answer.ephemeral
    assert text.endswith(SYSTEM.help_text().splitlines()[-1])  # nothing cut off
    for needed in (
        "/initiative next",
        "/act action:interrupt",
        "/act action:delay",
        "/act action:release",
        "/choose option:Block",
        "condition:injury",
        "any_failure_critical",
        "/check character:Astrid kind:perception",
        "kind:disengage",
        "broken (cannot act until healed)",
    ):
        assert needed in text, needed


async def campaign_with_astrid(standin, bot, stress=None):
    """A Frozen Lands campaign with Astrid stored (SOUL 2); `stress`: what the GM says she carries."""
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    await say(standin, "alice", "/character add", name="Astrid", stats=SHEETS["Astrid"][1])
    if stress is not None:
        await say(standin, "gm", "/campaign adjust", character="Astrid", key="stress", value=str(stress))


async def astrid(bot, standin):
    return (await bot.core.repo.get_character(standin.world.default_guild.id, "Astrid")).lasting


async def test_check_rolls_a_skill_or_an_attribute_from_the_stored_sheet_and_logs_it(standin, bot):
    await campaign_with_astrid(standin, bot)
    shown = await say(standin, "alice", "/check", character="Astrid", kind="mobility", dc=2, dice="6 3")
    assert not shown.ephemeral and shown.buttons() == []  # the seed has no push
    assert shown.content == "🎲 ✍️ Astrid rolls Mobility 2 = 2d6 (6, 3) → 1 success, needs 2 → failure.", shown.content
    shown = await say(standin, "alice", "/check", character="Astrid", kind="awareness", dice="2 6 4")
    assert shown.content == "🎲 ✍️ Astrid rolls AWARENESS 3 = 3d6 (2, 6, 4) → 1 success, needs 1 → success."
    dim = await say(
        standin, "alice", "/check", character="Astrid", kind="perception", options="dim modifier=3", dice="6"
    )
    assert "Perception 0 − dimly lit zone 2 + modifier 3 = 1d6 (6) → 1 success" in dim.content, dim.content
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check character:Astrid kind:mobility dc:2" in log and "needs 2 → failure" in log
    nothing = await say(standin, "gm", "/campaign undo")  # the checks changed nothing Astrid carries
    assert nothing.ephemeral and "no rest, adjustment or check to undo" in nothing.content, nothing.content


async def test_stress_dice_of_the_stress_carried_give_wp_and_a_condition_that_undo_takes_back(standin, bot):
    await campaign_with_astrid(standin, bot, stress=4)  # SOUL 2: two stress dice
    shown = await say(standin, "alice", "/check", character="Astrid", kind="melee", dice="6 2 1 6")
    assert shown.content == (
        "🎲 ✍️ Astrid rolls Melee 2 = 2d6 (6, 2) + stress 2d6 (1, 6) → 1 success, needs 1 → success; "
        "stress success → +1 WP; 1 critical failure > Exhaustion 0 → Exhaustion 1 (BODY: −1 action a round)."
    ), shown.content
    carried = await astrid(bot, standin)
    assert (carried["stress"], carried["wp"], carried["exhaustion"]) == (4, 1, 1), carried
    card = await say(standin, "alice", "/character show", name="Astrid")
    assert "Conditions: Exhaustion 1" in str(card.embeds), card.embeds
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid" in undone.content and "/check character:Astrid kind:melee" in undone.content, undone.content
    carried = await astrid(bot, standin)
    assert carried.get("exhaustion", 0) == 0 and carried.get("wp", 0) == 0 and carried["stress"] == 4, carried


async def test_a_failed_disengage_adds_a_stress_and_undo_takes_it_back(standin, bot):
    await campaign_with_astrid(standin, bot, stress=2)
    missing = await say(standin, "alice", "/check", character="Astrid", kind="disengage", dice="6 6")
    assert missing.ephemeral and "needs dc" in missing.content, missing.content
    shown = await say(standin, "alice", "/check", character="Astrid", kind="disengage", dc=2, dice="6 4")
    assert shown.content == (
        "🎲 ✍️ Astrid disengages from 2 close enemies: Mobility 2 = 2d6 (6, 4) → 1 success, needs 2 → failure; "
        "+1 Stress (3); an extra action to move."
    ), shown.content
    assert (await astrid(bot, standin))["stress"] == 3
    # Stress 3 is one above SOUL 2: the next check rolls a stress die, and its 1 dazes her.
    again = await say(standin, "alice", "/check", character="Astrid", kind="out_of_turn", dice="5 1 2 1")
    assert again.content == (
        "🎲 ✍️ Astrid tries to act out of turn: AWARENESS 3 = 3d6 (5, 1, 2) + stress 1d6 (1) → 0 successes; "
        "1 critical failure > Dazed 0 → Dazed 1 (AWARENESS: −1 reaction a round); failure: +1 Stress (4)."
    ), again.content
    assert (await astrid(bot, standin))["stress"] == 4
    await say(standin, "gm", "/campaign undo")
    carried = await astrid(bot, standin)
    assert carried["stress"] == 3 and carried.get("dazed", 0) == 0, carried
    await say(standin, "gm", "/campaign undo")
    assert (await astrid(bot, standin))["stress"] == 2


async def test_check_refuses_unknown_options_and_checks_with_the_list_and_logs_nothing(standin, bot):
    await campaign_with_astrid(standin, bot)
    unknown = await say(standin, "alice", "/check", character="Astrid", kind="mobility", options="advantage")
    assert unknown.ephemeral and "Options: `modifier`" in unknown.content, unknown.content
    kind = await say(standin, "alice", "/check", character="Astrid", kind="charm")
    assert kind.ephemeral and "`perception`" in kind.content and "`out_of_turn`" in kind.content, kind.content
    dc = await say(standin, "alice", "/check", character="Astrid", kind="out_of_turn", dc=2)
    assert dc.ephemeral and "no dc" in dc.content, dc.content
    log = await say(standin, "gm", "/campaign log")
    assert not log.attachments and "Nothing has changed" in log.content, log.content


async def test_a_kept_enemy_keeps_its_own_stamina_through_show_adjust_rest_and_the_next_fight(standin, bot):
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    await say(standin, "gm", "/encounter start")
    troll = "initiative=4 damage=3 defense=1 stamina=12"
    await say(standin, "gm", "/initiative add", name="Troll", stats=troll, keep=True)
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/damage", target="Troll", amount="3")  # 3 − defense 1: Stamina 10/12
    question = await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter", message=question)).response()
    await bot.idle.wait()
    shown = await say(standin, "gm", "/character show", name="Troll")
    assert shown.embeds[0]["fields"][0]["value"] == "Stamina 10/12", shown.embeds
    refused = await say(standin, "gm", "/campaign adjust", character="Troll", key="stamina", value="13")
    assert refused.ephemeral and "at most 12" in refused.content, refused.content
    rest = await standin.invoke("gm", "/campaign rest", kind="rest")
    only_kept = "Only NPCs the GM kept rested: what changed is the GM's to read."
    assert (await rest.response()).content == "🛌 Resting:\n" + only_kept
    private = await rest.followup()
    assert private.ephemeral and private.content == "🔒 Troll: Stamina 10 → 12/12.", private.content
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative join", character="Troll")
    _, state = await bot.core.current(standin.world.channel("combat").id)
    assert (state.find("Troll").stamina, state.find("Troll").stamina_max) == (12, 12)


async def test_npc_show_writes_the_stats_as_character_show_does(standin, bot):
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    await say(standin, "gm", "/npc add", name="Raider", stats="initiative=3 damage=5 shield=true weapon=Mace")
    shown = (await say(standin, "gm", "/npc show", name="Raider")).embeds[0]["description"].splitlines()
    assert {"`shield` = yes", "`loaded` = no", "`offhand` = —", "`weapon` = Mace"} <= set(shown), shown


async def test_a_tie_among_more_heroes_than_a_menu_holds_says_so_and_reaches_every_one(standin, bot):
    """Thirty heroes tie: the menu holds Discord's 25, the question says how many more there are and how to
    reach them, and /choose (with its autocomplete, which searches every option) picks one past the menu."""
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    await say(standin, "gm", "/encounter start")
    for n in range(1, 31):
        await say(standin, "alice", "/character add", name=f"Hero {n}", stats="agility=2")
        joined = await say(standin, "alice", "/initiative join", character=f"Hero {n}", roll=6)
        assert not joined.ephemeral, joined.content
    await say(standin, "gm", "/initiative next")
    tie = await choice_message(standin, "tied on initiative 6")
    (menu,) = [c for row in tie.components for c in row["components"] if c["type"] == 3]
    assert [o["label"] for o in menu["options"]] == [f"Hero {n}" for n in range(1, 26)]
    assert "25 of the 30 options" in tie.content and "/choose" in tie.content, tie.content
    assert len(tie.content) <= 2000
    everyone = await (await standin.autocomplete("alice", "/choose", "option", option="")).choices()
    assert len(everyone) == 25
    typed = await (await standin.autocomplete("alice", "/choose", "option", option="hero 27")).choices()
    assert [c["name"] for c in typed] == ["Hero 27"]
    chosen = await say(standin, "alice", "/choose", option=typed[0]["value"])
    assert not chosen.ephemeral and "Hero 27 goes first among the tied players" in chosen.content, chosen.content
    # The next question (29 left) says so too, with the numbers it has now.
    again = await choice_message(standin, "tied on initiative 6", standin.messages().index(chosen))
    assert "25 of the 29 options" in again.content, again.content
