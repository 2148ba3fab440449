"""Many commands at once through the stand-in: into one channel, and over 50
channels. Nothing lost, nothing doubled, every interaction answered exactly once,
and each channel's saved state is the replay of its event log."""

from __future__ import annotations

import random

from bot.standin import running_standin

from .support import (
    FIGURES,
    Commander,
    answered_once,
    assert_tracker_current,
    check_replay,
    last_seq,
    public_pings,
    reliability_world,
    running_bot,
    setup_campaign,
    setup_fight,
    user_id,
)

PATIENT = 60.0


def burst_for_one_channel(rng: random.Random) -> list[tuple[str, str, dict]]:
    """200 commands of every kind, in a shuffled order; many will be refused
    (not your turn, action already used), which must change nothing."""
    commands: list[tuple[str, str, dict]] = []
    for n in range(60):
        commands.append((rng.choice(["alice", "bob", "carol", "gm"]), "/encounter note", {"text": f"note {n}"}))
    for _ in range(40):
        commands.append(("gm", "/damage", {"target": f"Brute {rng.randint(1, 3)}", "amount": "1d6"}))
    for _ in range(20):
        commands.append(("gm", "/heal", {"target": f"Brute {rng.randint(1, 3)}", "amount": "1d4"}))
    for _ in range(30):
        commands.append(("gm", "/initiative next", {}))
    for _ in range(30):
        commands.append((rng.choice(["alice", "bob"]), "/attack", {"target": f"Brute {rng.randint(1, 3)}"}))
    for _ in range(20):
        commands.append((rng.choice(["alice", "bob"]), "/initiative next", {}))
    rng.shuffle(commands)
    return commands


async def test_200_commands_at_once_in_one_channel(database_url, errors):
    async with running_standin(reliability_world()) as standin:
        async with running_bot(standin, database_url, seed=9) as bot:
            repo = bot.core.repo
            await setup_campaign(standin)
            await setup_fight(standin)
            channel = standin.channel("combat").id
            setup_end = await last_seq(repo, channel)
            commander = Commander(standin)

            burst = [
                await commander.send(user, path, **options)
                for user, path, options in burst_for_one_channel(random.Random(200))
            ]
            await commander.answers(burst)
            await bot.idle.wait()

            assert all(answered_once(s.handle) for s in burst), [s.handle for s in burst if not answered_once(s.handle)]
            replay = await check_replay(repo, channel, commander.sent, after_seq=setup_end)
            applied = sum(s.applied for s in burst)
            assert replay.checked == applied == replay.events
            assert 0 < applied < len(burst), "the burst should mix accepted and refused commands"
            await assert_tracker_current(standin, repo, "combat")
        assert standin.rejected == []
        assert errors.records == [], errors.describe()
        carol = user_id(standin, "carol")
        for message, pings in public_pings(standin):
            assert not pings.everyone and not pings.role_ids and carol not in pings.user_ids, message.content
    FIGURES["commands checked against the event log"] += len(burst)
    print(
        f"one channel: {len(burst)} commands at once, {applied} applied, {len(burst) - applied} refused, all answered "
        "once"
    )


def burst_over_channels(channels: list[str], rng: random.Random) -> list[tuple[str, str, str, dict]]:
    commands = []
    for channel in channels:
        commands += [
            ("alice", channel, "/encounter note", {"text": f"{channel} a"}),
            ("gm", channel, "/damage", {"target": "Brute 1", "amount": "2d6"}),
            ("gm", channel, "/initiative next", {}),
            ("bob", channel, "/encounter note", {"text": f"{channel} b"}),
        ]
    rng.shuffle(commands)
    return commands


async def test_commands_over_50_channels_at_once(database_url, errors):
    async with running_standin(reliability_world(extra_channels=47)) as standin:
        guild = standin.world.default_guild
        channels = [c.name for c in guild.channels.values() if c.name.startswith("combat")]
        assert len(channels) == 50
        # Every command of this burst must be carried out: the bot waits as long as it takes instead of
        # answering "busy" (on a loaded machine a command can wait longer than the usual second in line;
        # shedding is bot.admission's, tested in tests/bot/test_admission.py).
        async with running_bot(standin, database_url, seed=50, busy_after_seconds=PATIENT) as bot:
            repo = bot.core.repo
            await setup_campaign(standin)
            # The set-up itself runs in every channel at once.
            starts = [await standin.invoke("gm", "/encounter start", in_channel=c) for c in channels]
            for handle in starts:
                assert not (await handle.response(timeout=30)).ephemeral
            adds = [
                await standin.invoke(
                    "gm",
                    "/initiative add",
                    in_channel=c,
                    name="Brute",
                    count=2,
                    stats="stamina=1000 fortitude=1000",
                    dice="12 7",
                )
                for c in channels
            ]
            for handle in adds:
                assert not (await handle.response(timeout=30)).ephemeral, (await handle.response()).content
            begins = [await standin.invoke("gm", "/initiative next", in_channel=c) for c in channels]
            for handle in begins:
                assert not (await handle.response(timeout=30)).ephemeral, (await handle.response()).content
            await bot.idle.wait()
            setup_ends = {c: await last_seq(repo, standin.channel(c).id) for c in channels}

            commander = Commander(standin)
            burst = [
                await commander.send(user, path, in_channel=channel, **options)
                for user, channel, path, options in burst_over_channels(channels, random.Random(50))
            ]
            await commander.answers(burst)
            await bot.idle.wait()

            assert all(answered_once(h) for h in starts + adds + begins)
            assert all(answered_once(s.handle) for s in burst)
            assert all(s.applied for s in burst), [s.handle for s in burst if not s.applied]
            checked = 0
            for channel in channels:
                replay = await check_replay(
                    repo, standin.channel(channel).id, commander.sent, after_seq=setup_ends[channel]
                )
                assert replay.checked == replay.events == 4
                checked += replay.checked
                await assert_tracker_current(standin, repo, channel)
        assert standin.rejected == []
        assert errors.records == [], errors.describe()
    FIGURES["commands checked against the event log"] += checked
    print(f"50 channels: {checked} commands at once, each channel replays to its saved state")
