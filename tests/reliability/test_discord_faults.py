"""Discord-side trouble mid-encounter: a gateway disconnect and RESUME, REST 429s
with Retry-After and 5xx answers. No command is lost or doubled: each is answered
once, logged once, and each turn is announced once."""

from __future__ import annotations

import re

from bot.standin import running_standin
from rules import registry
from rules.said import english

from .support import (
    CALLBACK,
    EDIT_BY_WEBHOOK,
    FIGURES,
    FOLLOWUP,
    Commander,
    answered_once,
    assert_tracker_current,
    check_replay,
    last_seq,
    pinned_tracker,
    reliability_world,
    running_bot,
    say,
    settle,
    setup_campaign,
    setup_fight,
)


def round_of_commands(tag: str) -> list[tuple[str, str, dict]]:
    return [
        ("gm", "/damage", {"target": "Brute 1", "amount": "1d6"}),
        ("alice", "/encounter note", {"text": f"{tag} a"}),
        ("gm", "/initiative next", {}),
        ("bob", "/encounter note", {"text": f"{tag} b"}),
        ("gm", "/heal", {"target": "Brute 2", "amount": "1"}),
        ("gm", "/initiative next", {}),
    ]


def turns_announced_once(standin) -> None:
    """Every turn message is for a different turn: a retried post never doubles one."""
    turns = [
        re.search(r"tk:end:\d+:(\d+)", b["custom_id"]).group(1)
        for m in standin.messages("combat")
        for b in m.buttons()
        if b.get("label") == "End turn"
    ]
    assert turns and len(turns) == len(set(turns)), turns


async def test_gateway_disconnect_and_resume_mid_encounter(database_url, errors):
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=3) as bot:
            repo = bot.core.repo
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            channel = standin.channel("combat").id
            setup_end = await last_seq(repo, channel)
            (session,) = standin.gateway.live_sessions()
            commander = Commander(standin)

            before = [await commander.send(u, p, **o) for u, p, o in round_of_commands("before")]
            await standin.disconnect_gateway(wait_for_resume=False)
            await standin.wait_for(lambda: (not session.connected) or None, 5, "the socket to drop")
            # Sent while the bot is away: the session keeps them for the RESUME.
            during = [await commander.send(u, p, **o) for u, p, o in round_of_commands("during")]
            await standin.wait_for(lambda: (session.resumes == 1 and session.connected) or None, 10, "the RESUME")
            after = [await commander.send(u, p, **o) for u, p, o in round_of_commands("after")]
            await commander.answers(before + during + after)
            await bot.idle.wait()

            assert standin.gateway.identify_count == 1, "the bot resumed instead of identifying again"
            assert "INTERACTION_CREATE" in session.replayed
            sent = before + during + after
            assert all(answered_once(s.handle) for s in sent)
            assert all(s.applied for s in sent), [s.handle for s in sent if not s.applied]
            replay = await check_replay(repo, channel, commander.sent, after_seq=setup_end)
            assert replay.checked == replay.events == len(sent)
            turns_announced_once(standin)
            await assert_tracker_current(standin, repo, "combat")
        assert standin.rejected == []
        assert errors.records == [], errors.describe()
    FIGURES["commands checked against the event log"] += len(sent)


async def test_rate_limits_and_server_errors_lose_and_double_nothing(database_url, errors):
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=4) as bot:
            repo = bot.core.repo
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            channel = standin.channel("combat").id
            setup_end = await last_seq(repo, channel)
            commander = Commander(standin)
            faults = [
                standin.fail_next(CALLBACK, times=3, retry_after=0.05),
                standin.fail_next(FOLLOWUP, times=2, retry_after=0.05),
                standin.fail_next(EDIT_BY_WEBHOOK, times=2, retry_after=0.05),
                # discord.py waits a second or more before retrying a 5xx: one of each kind.
                standin.fail_next(CALLBACK, status=502),
                standin.fail_next(FOLLOWUP, status=500),
                standin.fail_next(EDIT_BY_WEBHOOK, status=504),
            ]
            sent = [await commander.send(u, p, **o) for u, p, o in round_of_commands("faults") * 2]
            await commander.answers(sent)
            await bot.idle.wait()

            assert [f.hits for f in faults] == [3, 2, 2, 1, 1, 1], "every injected fault was met"
            assert all(answered_once(s.handle) for s in sent)
            assert all(s.applied for s in sent), [s.handle for s in sent if not s.applied]
            replay = await check_replay(repo, channel, commander.sent, after_seq=setup_end)
            assert replay.checked == replay.events == len(sent)
            turns_announced_once(standin)
            assert pinned_tracker(standin, "combat")
            await assert_tracker_current(standin, repo, "combat")
        assert standin.rejected == []
        assert errors.records == [], errors.describe()
    FIGURES["commands checked against the event log"] += len(sent)


async def test_a_503_does_not_swallow_the_turn_ping_or_the_tracker(database_url, errors):
    """discord.py retries 500, 502 and 504 but raises on 503 ("upstream unavailable"),
    which Discord answers now and then: the next player must still be pinged, and
    the tracker still updated."""
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=5) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            fault = standin.fail_next(FOLLOWUP, status=503)
            await say(standin, "gm", "/initiative next")
            await settle(bot)
            assert fault.hits == 1
            record = await bot.core.repo.active_encounter(standin.channel("combat").id)
            system = registry.get(record.system)
            waiting = system.turns.waiting(system, system.load(record.state))
            turn = standin.last_message("combat")
            assert turn.has_component(label="End turn") and english(waiting.title) in turn.content, (
                f"{english(waiting.title)} began without a turn message"
            )
            assert set(turn.pings.user_ids) == set(waiting.users)
            await assert_tracker_current(standin, bot.core.repo, "combat")


async def test_a_slow_reply_never_leaves_the_tracker_behind(database_url, errors):
    """Two commands in a row; Discord holds the first one's reply back with a 429.
    The second one's tracker edit comes first: the first one's must not then put
    the older state back on the pinned tracker."""
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=6) as bot:
            await setup_campaign(standin)
            await setup_fight(standin)
            await settle(bot)
            fault = standin.fail_next(CALLBACK, retry_after=0.3)
            commander = Commander(standin)
            first = await commander.send("gm", "/damage", target="Brute 1", amount="5")
            second = await commander.send("gm", "/initiative next")
            await commander.answers([first, second])
            await settle(bot)
            assert fault.hits == 1 and first.applied and second.applied
            await assert_tracker_current(standin, bot.core.repo, "combat")
        assert errors.records == [], errors.describe()
