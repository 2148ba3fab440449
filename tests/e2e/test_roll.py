"""/roll through Discord: any channel, any system, in a fight or between fights; private
rolls reach the roller and the GM only; refusals are private and show nothing."""

from __future__ import annotations

import pytest

from bot.standin import interactions as ix
from tests.e2e.conftest import help_sections, say


def public(standin, since=0):
    """What the channel sees of the rolls (the fight's own tracker aside)."""
    return [m for m in standin.messages()[since:] if not m.ephemeral and ("rolls" in m.content or "⛔" in m.content)]


async def test_a_public_roll_shows_each_die_the_total_and_the_reason(standin, bot):
    answer = await say(standin, "alice", "/roll", expression="4d6kh3", reason="Strength score", dice="3 6 1 5")
    assert not answer.ephemeral
    assert answer.content == ("🎲 ✍️ alice rolls `4d6kh3`: 4d6kh3 (3, 6, ~~1~~, 5) = **14**\nReason: Strength score")
    assert not answer.pings.user_ids and not answer.pings.everyone and not answer.pings.role_ids


@pytest.mark.parametrize("expression", ["2d20kh1", "(2d20)kh1", "(1d20, 1d20)kh1", "(2d20 [stealth])kh1"])
async def test_every_way_to_write_advantage_reads_the_natural_it_keeps(standin, bot, expression):
    answer = await say(standin, "alice", "/roll", expression=expression, dice="20 5")
    assert answer.content.endswith("= **20** 💥 natural 20!"), answer.content


async def test_the_bot_rolls_without_entered_dice_and_inside_a_fight(standin, bot):
    await say(standin, "gm", "/campaign setup", system="99-towers")
    await say(standin, "gm", "/encounter start")
    answer = await say(standin, "bob", "/roll", expression="2d20kh1+3")
    assert not answer.ephemeral and answer.content.startswith("🎲 bob rolls `2d20kh1+3`: 2d20kh1 (")
    assert "✍️" not in answer.content and " = **" in answer.content


async def test_a_typed_reason_is_shown_as_typed_and_pings_nobody(standin, bot):
    answer = await say(standin, "alice", "/roll", expression="1d4", reason="@everyone [Nitro](https://x.y) **b**")
    assert not answer.pings.everyone and not answer.pings.user_ids
    assert "\\*\\*b\\*\\*" in answer.content and "](https" not in answer.content


async def test_a_label_in_the_expression_changes_nothing_and_is_shown_only_where_typed(standin, bot):
    answer = await say(standin, "alice", "/roll", expression="(2d6 [@everyone <@123> **x**])kh1", dice="4 5")
    assert not answer.pings.everyone and not answer.pings.user_ids
    assert answer.content.endswith("`: (2d6)kh1 (~~4~~, 5) = **5**"), answer.content


async def test_a_private_roll_reaches_the_roller_and_the_encounters_gm_only(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "gm", "/encounter start")
    before = len(standin.messages())
    answer = await say(standin, "alice", "/roll", expression="1d20+2", private=True, reason="Sneak", dice="20")
    assert answer.ephemeral
    assert "Only you and the GM see this roll" in answer.content
    assert "🎲 ✍️ alice rolls `1d20+2`: 1d20 (20) + 2 = **22** 💥 natural 20!\nReason: Sneak" in answer.content
    assert public(standin, before) == []
    (dm,) = standin.direct_messages("gm")
    assert "A private roll in" in dm.content and "alice rolls `1d20+2`" in dm.content and "**22**" in dm.content
    assert not dm.pings.user_ids and standin.direct_messages("bob") == []


async def test_a_private_roll_after_the_fight_goes_to_the_last_encounters_gm(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "gm", "/encounter start")
    ask = await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", ask.buttons()[0]["label"], message=ask)).response()
    answer = await say(standin, "bob", "/roll", expression="1d6", private=True)
    assert answer.ephemeral and "bob rolls `1d6`" in answer.content
    assert len(standin.direct_messages("gm")) == 1


async def test_the_gms_private_roll_is_only_theirs(standin, bot):
    before = len(standin.messages())
    answer = await say(standin, "gm", "/roll", expression="1d6", private=True)
    assert answer.ephemeral and "you are the GM" in answer.content
    assert public(standin, before) == [] and standin.direct_messages("gm") == []


async def test_a_private_roll_without_a_gm_to_see_it_is_refused(standin, bot):
    answer = await say(standin, "alice", "/roll", expression="1d6", private=True)
    assert answer.ephemeral and answer.content.startswith("⛔ A private roll is shown to the GM")
    assert public(standin) == [] and standin.direct_messages("gm") == []


async def test_a_private_roll_the_gm_cannot_receive_is_refused_and_shown_to_nobody(standin, bot):
    await say(standin, "gm", "/encounter start", system="factions")
    standin.world.user("gm").accepts_dms = False
    before = len(standin.messages())
    answer = await say(standin, "alice", "/roll", expression="1d6", private=True)
    assert answer.ephemeral and "does not accept direct messages" in answer.content and "rolls" not in answer.content
    assert public(standin, before) == [] and standin.direct_messages("gm") == []


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"expression": "fireball"}, "is not a dice expression"),
        ({"expression": "101d6"}, "At most 100 dice"),
        ({"expression": "1d1000001"}, "at most 1,000,000 faces"),
        ({"expression": "1d1e1"}, "too many dice"),
        ({"expression": "2d6", "dice": "3"}, "Too few dice entered"),
        ({"expression": "2d6", "dice": "3 4 5"}, "not needed"),
        ({"expression": "1d6", "dice": "7"}, "7 cannot be rolled on a d6"),
        ({"expression": "1d6", "dice": "six"}, "is not a die result"),
    ],
)
async def test_refusals_are_private_and_show_nothing(standin, bot, options, refusal):
    answer = await say(standin, "alice", "/roll", **options)
    assert answer.ephemeral and answer.content.startswith("⛔") and refusal in answer.content
    assert public(standin) == [] and standin.direct_messages("gm") == []


async def test_an_expression_too_long_is_refused_even_from_a_modified_client(standin, bot):
    commands = await standin.wait_for_commands(global_=True)
    (expression,) = [o for c in commands if c["name"] == "roll" for o in c["options"] if o["name"] == "expression"]
    assert expression["max_length"] == 200
    user, channel = standin.world.user("alice"), standin.channel("combat")
    _, data = standin._command_data(user, channel, "/roll", {"expression": "1d6"})
    data["options"][0]["value"] = "1+" * 150 + "1"
    handle = standin._send_interaction(ix.APPLICATION_COMMAND, user, channel, data, "alice: /roll (long)")
    refusal = await handle.response()
    assert refusal.ephemeral and "limited to 200 characters" in refusal.content
    assert public(standin) == []


async def test_help_tells_everyone_about_roll(standin, bot):
    _, text = await help_sections(standin, "alice")
    assert "`/roll 4d6kh3`" in text and "`private:true` shows it only to you and the GM" in text


async def test_the_longest_roll_is_one_message_for_the_roller_and_one_for_the_gm(standin, bot):
    await say(standin, "gm", "/encounter start", system="frozen-lands")
    expression = "100d1000000ro<1000000+" + "1+" * 38 + "1"
    handle = await standin.invoke("alice", "/roll", expression=expression, private=True, reason="*_" * 250)
    answer = await handle.response()
    assert answer.ephemeral and len(handle.followups) + len(handle.callbacks) <= 2, "one answer, not several"
    (dm,) = standin.direct_messages("gm")
    for message in (answer, dm):
        assert len(message.content) <= 2000 and ", …) = **" in message.content
        assert message.content.count("\\*\\_") == 250
    assert standin.rejected == []
