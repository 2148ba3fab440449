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
    ):
        assert needed in text, needed
