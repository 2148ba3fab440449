"""Races a busy table makes: the same button clicked by two people at once, an interaction Discord
delivers twice, a choice's time running out as it is answered."""

import asyncio

from rules.text import english
from tests.e2e.conftest import say
from tests.e2e.test_stale_buttons import asking_toy, new_fight, newest, setup_campaign  # noqa: F401


async def logged(bot, standin):
    record = await bot.core.repo.active_encounter(standin.channel().id)
    return [english(e.summary) for e in await bot.core.repo.events(record.id)]


async def test_two_clicks_on_one_end_turn_button_at_once_end_one_turn(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    turn = await newest(standin, lambda m: "Silver Star's turn" in m.content and m.components)
    clicks = [await standin.click(user, "End turn", message=turn) for user in ("alice", "gm")]
    done, refused = [await click.response() for click in clicks]

    assert not done.ephemeral and "Bulwark's turn" in done.content, done.content
    assert refused.ephemeral and "already over" in refused.content, refused.content
    await bot.idle.wait()
    record = await bot.core.repo.active_encounter(standin.channel().id)
    assert bot.core._load(record).turn_no == 2


async def test_an_interaction_delivered_twice_is_applied_and_answered_once(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    handle = await standin.invoke("alice", "/encounter note", text="once only")
    await handle.response()
    # As after a gateway RESUME that replays it: the same interaction, id and token, again.
    handle.session.dispatch("INTERACTION_CREATE", handle.payload)
    await asyncio.sleep(0.3)
    await bot.idle.wait()

    assert sum("once only" in summary for summary in await logged(bot, standin)) == 1
    assert len([m for m in standin.messages() if "once only" in m.content]) == 1
    assert standin.rejected == []


async def test_a_choice_answered_by_its_player_and_the_gm_at_once_is_answered_once(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:fire,ice")
    question = await newest(standin, lambda m: m.components and "fire" in str(m.components))
    clicks = [
        await standin.click("alice", "fire", message=question),
        await standin.click("gm", "ice", message=question),
    ]
    answers = [await click.response() for click in clicks]

    assert "Picked fire" in answers[0].content and not answers[0].ephemeral
    assert answers[1].ephemeral and answers[1].content.startswith("⛔"), answers[1].content
    assert sum(s.startswith("Chosen") for s in await logged(bot, standin)) == 1


async def test_a_choice_timing_out_as_its_player_answers_takes_one_answer(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:fire,ice")
    record = await bot.core.repo.active_encounter(standin.channel().id)
    chosen = await standin.invoke("alice", "/choose", option="ice")
    timed_out = asyncio.ensure_future(bot.core.answer_default(record))
    answer = await chosen.response()
    default = await timed_out

    picked = [s for s in await logged(bot, standin) if s.startswith("Chosen")]
    assert len(picked) == 1, picked
    if default is None:
        assert "Picked ice" in answer.content
    else:
        assert answer.ephemeral and answer.content.startswith("⛔"), answer.content


async def test_two_confirmations_of_the_end_pressed_at_once_end_the_fight_once(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    questions = [await say(standin, "gm", "/encounter end") for _ in range(2)]
    clicks = [await standin.click("gm", "End the encounter", message=question) for question in questions]
    ended, refused = [await click.response() for click in clicks]

    assert "over" in ended.content and not ended.ephemeral, ended.content
    assert refused.ephemeral and "encounter that is over" in refused.content, refused.content
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert log.count("/encounter end") == 1, log


async def test_a_deadline_read_before_an_undo_reopened_its_question_does_not_answer_it(standin, bot):
    await setup_campaign(standin)
    await new_fight(standin)
    await say(standin, "alice", "/attack", target="Bulwark", damage="ask:fire,ice")
    # The reminders' pass read the question as due; before it acts, the question is answered, and the
    # GM's undo asks it again, with a fresh deadline.
    read_when_due = await bot.core.repo.active_encounter(standin.channel().id)
    await say(standin, "alice", "/choose", option="ice")
    await say(standin, "gm", "/encounter undo")

    assert await bot.core.answer_default(read_when_due) is None
    record, state = await bot.core.current(standin.channel().id)
    assert state.pending is not None and record.pending_deadline > read_when_due.pending_deadline
    assert await bot.core.answer_default(record) is not None  # read anew, it is answered when due
