"""Ending an encounter asks the GM to confirm; the finished fight's log, and every
earlier one of the channel, stays readable."""

from __future__ import annotations

import pytest

from tests import toy
from tests.e2e.conftest import say

KEY = "rotted-capes"  # a real key so the command choices accept it; the toy stands in


@pytest.fixture(autouse=True)
def toy_system():
    with toy.standing_in_for(KEY) as system:
        yield system


async def fight(standin, *names):
    await say(standin, "gm", "/encounter start")
    for name in names:
        await say(standin, "gm", "/initiative add", name=name, roll=10)
    await say(standin, "gm", "/initiative next")


async def log_text(standin, user, **options):
    answer = await say(standin, user, "/encounter log", **options)
    assert not answer.ephemeral, answer.content
    (attachment,) = answer.attachments
    return attachment.data.decode()


async def test_end_asks_the_gm_to_confirm_and_only_the_button_ends_the_fight(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await fight(standin, "Goblin")

    question = await say(standin, "gm", "/encounter end")
    assert question.ephemeral and "End the encounter" in question.content and not question.pings.user_ids
    assert question.has_component(label="End the encounter")
    status = await say(standin, "gm", "/encounter status")  # nothing has ended yet
    assert not status.content.startswith("⛔")

    refused = await say(standin, "alice", "/encounter end")
    assert refused.ephemeral and refused.content.startswith("⛔") and "Only the GM" in refused.content

    over = await (await standin.click("gm", "End the encounter", message=question)).response()
    assert not over.ephemeral and "The encounter is over" in over.content
    gone = await say(standin, "gm", "/encounter status")
    assert gone.ephemeral and gone.content.startswith("⛔")
    # A second click on the same question is stale: nothing left to end.
    again = await (await standin.click("gm", "End the encounter", message=question)).response()
    assert again.ephemeral and "encounter that is over" in again.content


async def test_the_log_of_the_last_ended_fight_and_of_older_ones_by_number(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    none_yet = await say(standin, "gm", "/encounter log")
    assert none_yet.ephemeral and "no encounter yet" in none_yet.content

    await fight(standin, "Goblin")
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()
    first = await log_text(standin, "alice")
    assert "encounter 1 of this channel" in first and "ended" in first and "Goblin" in first

    await fight(standin, "Troll")
    running = await log_text(standin, "gm")
    assert "encounter 2 of this channel" in running and "Troll" in running and "Goblin" not in running
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()

    assert "Troll" in await log_text(standin, "gm")
    older = await log_text(standin, "bob", number=1)
    assert "encounter 1 of this channel" in older and "Goblin" in older
    wrong = await say(standin, "gm", "/encounter log", number=3)
    assert wrong.ephemeral and "from 1 to 2" in wrong.content
