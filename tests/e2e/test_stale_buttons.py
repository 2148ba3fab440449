"""Every button acts only on the encounter, turn and question it was made for.

Turn numbers and choice numbers restart at 1 in every encounter and come back
after an undo: a click on an old message must be refused privately, change
nothing, and leave that message without buttons.
"""

import asyncio

import pytest

from bot import command_sets
from rules import registry, said
from rules.model import Choice, Event, Pending
from tests import toy
from tests.e2e.conftest import say

KEY = "rotted-capes"  # a real key so the command choices accept it; the toy stands in


class AskingToy(toy.ToyBase):
    """`/attack damage:ask:a,b` asks the attacker's player to pick a or b."""

    key = KEY
    name = "Toy"
    turns = toy.Initiative()
    encounter_type = toy.encounter_for(toy.Initiative())

    def hit(self, enc, action, chance):
        if not action.damage.startswith("ask:"):
            return super().hit(enc, action, chance)
        options = tuple(Choice(key=word, label=word) for word in action.damage[4:].split(","))
        asker = enc.find(action.actor)
        pending = Pending(
            id=enc.next_pending,
            kind="ask",
            prompt=said.say("{who}: which one?", who=asker.name),
            options=options,
            default=options[0].key,
            chooser=asker.id,
            users=(asker.controller_id,),
        )
        return enc.but(pending=pending, next_pending=enc.next_pending + 1), []

    def resume_ask(self, enc, pending, option, chance):
        picked = pending.option(option).label
        who = enc.get(pending.chooser).name
        return enc, [Event(kind="info", text=said.say("Picked {picked} for {who}.", picked=picked, who=who))]


@pytest.fixture(autouse=True)
def asking_toy():
    registry.register(AskingToy())
    # Which command groups each system uses is read once per process: not from the toy.
    command_sets.system_groups.cache_clear()
    yield
    registry.unregister(KEY)
    command_sets.system_groups.cache_clear()


async def new_fight(standin, *, first_roll=15):
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Silver Star", roll=first_roll)
    await say(standin, "bob", "/initiative join", character="Bulwark", roll=3)
    await say(standin, "gm", "/initiative next")


async def setup_campaign(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Silver Star", stats="init=2 hp=12")
    await say(standin, "bob", "/character add", name="Bulwark", stats="init=1")


async def end_encounter(standin):
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()


def newest(standin, predicate):
    return standin.wait_for(lambda: next((m for m in reversed(standin.messages()) if predicate(m)), None))


def assert_stale_refusal(answer, text):
    assert answer.ephemeral and answer.content.startswith("⛔") and text in answer.content, answer.content
    assert not answer.pings.user_ids


async def click_stale(standin, user, label, message, text):
    answer = await (await standin.click(user, label, message=message)).response()
    assert_stale_refusal(answer, text)
    await standin.wait_for(lambda: not message.components or None)
    with pytest.raises(LookupError):  # the message has no buttons left to click
        await standin.click(user, label, message=message)


async def forget_turn_messages(standin, bot, message):
    """As after a restart: the bot no longer knows which turn message to take the
    End-turn button off when the turn moves on, so the old button stays clickable.
    The bot learns of `message` once its post returns, after the stand-in shows it: wait for that first (the
    bot's own bookkeeping wakes no waiter of the stand-in's, so this looks again every few milliseconds)."""
    async with asyncio.timeout(5):
        while not any(kept[0] == message.id for kept in bot.turn_buttons._newest.values()):
            await asyncio.sleep(0.005)
    bot.turn_buttons._newest.clear()


async def forget_questions(standin, bot, message):
    """As `forget_turn_messages`, for the question `message` asks: it keeps its buttons when it is no longer asked."""
    async with asyncio.timeout(5):
        while not any(kept[0] == message.id for kept in bot.turn_buttons._asked.values()):
            await asyncio.sleep(0.005)
    bot.turn_buttons._asked.clear()


def tracker_text(standin):
    pinned = [m for m in standin.messages() if m.pinned and not m.deleted]
    return pinned[0].embeds[0]["description"] if pinned else ""


async def test_an_end_turn_button_from_an_ended_encounter_does_not_end_a_turn_in_the_next(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    old_turn = await newest(standin, lambda m: "Silver Star's turn" in m.content and m.components)
    await forget_turn_messages(standin, bot, old_turn)
    await end_encounter(standin)
    await new_fight(standin)
    current = await newest(standin, lambda m: "Silver Star's turn" in m.content and m.components and m is not old_turn)
    events_before = len(standin.messages())

    await click_stale(standin, "alice", "End turn", old_turn, "encounter that is over")

    assert not [m for m in standin.messages()[events_before:] if not m.ephemeral and "Bulwark's turn" in m.content]
    # The current turn's own button still works.
    await (await standin.click("alice", "End turn", message=current)).response()
    await newest(standin, lambda m: "Bulwark's turn" in m.content and m.components)


async def test_an_old_choice_button_does_not_answer_a_new_question_in_the_next_encounter(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:fire,ice")
    old_choice = await newest(standin, lambda m: m.components and "which one" in m.content)
    await forget_questions(standin, bot, old_choice)
    await end_encounter(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:left,right")
    await newest(standin, lambda m: m.components and "which one" in m.content and m is not old_choice)

    await click_stale(standin, "alice", "fire", old_choice, "encounter that is over")

    answer = await say(standin, "alice", "/choose", option="right")
    assert "Picked right" in answer.content


async def test_a_choice_button_from_before_an_undo_does_not_answer_the_question_asked_after_it(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:fire,ice")
    old_choice = await newest(standin, lambda m: m.components and "fire" in str(m.components))
    await forget_questions(standin, bot, old_choice)
    await say(standin, "gm", "/encounter undo")
    # The same choice number comes back, for a different question.
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:left,right")
    await newest(standin, lambda m: m.components and "left" in str(m.components))

    await click_stale(standin, "alice", "fire", old_choice, "no longer asked")

    answer = await say(standin, "alice", "/choose", option="left")
    assert "Picked left" in answer.content


async def test_an_old_turn_button_in_the_same_encounter_is_refused_and_loses_its_button(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    first = await newest(standin, lambda m: "Silver Star's turn" in m.content and m.components)
    await forget_turn_messages(standin, bot, first)
    await (await standin.click("alice", "End turn", message=first)).response()
    await newest(standin, lambda m: "Bulwark's turn" in m.content and m.components)
    tracker = await standin.wait_for(
        lambda: next(
            (
                t
                for t in [tracker_text(standin)]
                if any(line.startswith("▶️") and "Bulwark" in line for line in t.splitlines())
            ),
            None,
        )
    )

    await click_stale(standin, "alice", "End turn", first, "already over")

    assert tracker_text(standin) == tracker


@pytest.mark.parametrize("value", ["²", "9" * 5000, "-1", "6", "00", "٣"])
async def test_a_menu_value_never_offered_is_refused_and_the_question_keeps_its_menu(standin, bot, value):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:a,b,c,d,e,f")
    question = await newest(standin, lambda m: "which one?" in m.content and m.components)
    (menu,) = [c for row in question.components for c in row["components"]]
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}  # as a modified client sends
    forged = standin._use(standin.world.user("alice"), question, menu, data, "alice: a value never offered")
    answer = await forged.response()
    assert answer.ephemeral and "Choose one of" in answer.content, answer.content
    assert question.components  # the question is still asked, with its menu
    picked = await (await standin.select("alice", ["1"], custom_id=menu["custom_id"], message=question)).response()
    assert not picked.ephemeral, picked.content


async def test_a_question_answered_or_undone_loses_its_buttons(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:fire,ice")
    answered = await newest(standin, lambda m: m.components and "fire" in str(m.components))
    await say(standin, "alice", "/choose", option="ice")
    await standin.wait_for(lambda: not answered.components or None)

    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:left,right")
    undone = await newest(standin, lambda m: m.components and "left" in str(m.components))
    await say(standin, "gm", "/encounter undo")
    await standin.wait_for(lambda: not undone.components or None)
