"""The reminder pass: a channel the bot can no longer see must not block the others."""

import asyncio
from datetime import timedelta
from types import SimpleNamespace

from bot.core import Core
from bot.delivery import Pacer, TurnButtons
from bot.reminders import CATCH_UP_AFTER, Reminders
from tests import toy
from tests.bot.test_core import CHANNEL
from tests.bot.test_core import started as begun
from tests.helpers import GM

GONE = 777


async def started(core: Core, channel=CHANNEL) -> None:
    """A fight begun, its turn's message posted (the bot's ``announce`` takes its ``announce_due`` off)."""
    await begun(core, channel=channel)
    record, _ = await core.current(channel)
    await core.repo.set_meta(record.id, announce_due=None)


class SeenChannel:
    def __init__(self) -> None:
        self.sent: list[str] = []
        self.id = CHANNEL

    async def send(self, content, **kwargs) -> SimpleNamespace:
        self.sent.append(content)
        return SimpleNamespace(id=len(self.sent))


def bot_seeing(core: Core, channels: dict, unavailable_guilds=()):
    async def fetch_channel(channel_id):  # what Discord knows beyond the cache: the same channels
        return channels.get(channel_id)

    return SimpleNamespace(
        core=core,
        turn_buttons=TurnButtons(Pacer(None)),
        shard_count=None,
        shard_ids=None,
        guilds=[],
        get_channel=channels.get,
        fetch_channel=fetch_channel,
        get_guild=lambda gid: SimpleNamespace(unavailable=True) if gid in unavailable_guilds else None,
    )


async def test_a_vanished_channel_stops_being_due_and_a_seen_one_is_reminded(repo):
    core = Core(repo)
    await started(core)
    await started(core, channel=GONE)
    gone, _ = await core.current(GONE)
    core.now = lambda: gone.reminder_due + timedelta(minutes=1)
    seen = SeenChannel()
    done = await Reminders(bot_seeing(core, {CHANNEL: seen})).tick()
    assert done == 1 and len(seen.sent) == 1 and "Still waiting" in seen.sent[0]
    assert [r.channel_id for r in await core.due()] == []
    gone, _ = await core.current(GONE)
    assert gone.reminder_due is None and gone.pending_deadline is None


async def test_a_server_in_an_outage_keeps_its_reminders(repo):
    core = Core(repo)
    await started(core)
    record, _ = await core.current(CHANNEL)
    core.now = lambda: record.reminder_due + timedelta(minutes=1)
    await Reminders(bot_seeing(core, {}, unavailable_guilds={record.guild_id})).tick()
    assert [r.channel_id for r in await core.due()] == [CHANNEL]


class BrokenChannel:
    async def send(self, content, **kwargs) -> None:
        raise RuntimeError("a channel the bot trips over")


async def test_a_channel_that_fails_does_not_end_the_pass(repo):
    core = Core(repo)
    await started(core, channel=GONE)
    await started(core)
    broken, _ = await core.current(GONE)
    seen_record, _ = await core.current(CHANNEL)
    assert broken.reminder_due <= seen_record.reminder_due  # the broken one comes first
    core.now = lambda: seen_record.reminder_due + timedelta(minutes=1)
    seen = SeenChannel()
    assert await Reminders(bot_seeing(core, {GONE: BrokenChannel(), CHANNEL: seen})).tick() == 1
    assert len(seen.sent) == 1 and "Still waiting" in seen.sent[0]


async def test_acting_after_a_turns_three_reminders_brings_no_fourth(repo):
    """An action by whoever the turn waits on puts their reminder off; once the turn's three are sent
    it must not bring one more."""
    core = Core(repo)
    await started(core)
    seen = SeenChannel()
    reminders = Reminders(bot_seeing(core, {CHANNEL: seen}))
    for _ in range(3):
        record, _ = await core.current(CHANNEL)
        core.now = lambda r=record: r.reminder_due + timedelta(seconds=1)
        assert await reminders.tick() == 1
    assert len(seen.sent) == 3
    await core.act(CHANNEL, toy.Hit(by=GM, target="Alice", damage="1"), "/attack")  # the Orc's turn: the GM's
    record, _ = await core.current(CHANNEL)
    core.now = lambda: record.reminder_due + timedelta(seconds=1)
    await reminders.tick()
    assert len(seen.sent) == 3
    assert await core.due() == []


def serving(core: Core, channels: dict, *, shard_count: int, shard_ids: list[int], guilds: int):
    """A process running ``shard_ids`` of ``shard_count`` shards, with ``guilds`` servers of its own."""
    bot = bot_seeing(core, channels)
    bot.shard_count, bot.shard_ids = shard_count, shard_ids
    bot.get_guild = lambda gid: SimpleNamespace(unavailable=False)
    own = [(n << 22) for n in range(guilds * shard_count) if n % shard_count in shard_ids][:guilds]
    mine = [9] if (9 >> 22) % shard_count in shard_ids else []
    bot.guilds = [SimpleNamespace(id=g) for g in [*mine, *own]]
    return bot


async def test_a_process_serving_tens_of_thousands_of_servers_still_finds_their_reminders(repo):
    # Past 2,500 servers a shard; one process may run many. Naming each server in the query broke PostgreSQL's
    # 32,767 query arguments, and every reminder and choice deadline of the process failed, pass after pass.
    core = Core(repo)
    await started(core)
    record, _ = await core.current(CHANNEL)
    core.now = lambda: record.reminder_due + timedelta(minutes=1)
    seen = SeenChannel()
    bot = serving(core, {CHANNEL: seen}, shard_count=16, shard_ids=list(range(14)), guilds=34_000)
    assert await Reminders(bot).tick() == 1
    assert len(seen.sent) == 1 and "Still waiting" in seen.sent[0]


async def test_a_reminder_of_another_shards_server_is_left_to_that_process(repo):
    core = Core(repo)
    await started(core)  # in server 9, which is on shard 0
    record, _ = await core.current(CHANNEL)
    core.now = lambda: record.reminder_due + timedelta(minutes=1)
    seen = SeenChannel()
    assert await Reminders(serving(core, {CHANNEL: seen}, shard_count=2, shard_ids=[1], guilds=3)).tick() == 0
    assert seen.sent == [] and [r.channel_id for r in await core.due()] == [CHANNEL]
    assert await Reminders(serving(core, {CHANNEL: seen}, shard_count=2, shard_ids=[0], guilds=3)).tick() == 1


async def test_a_turn_left_unposted_by_a_killed_process_is_posted_once_whoever_looks(repo):
    """The turn moved on and the process died before posting its message: the next pass after CATCH_UP_AFTER
    posts it, pinging its player; two processes looking at once (a shard hand-over) post it once."""
    core = Core(repo)
    await begun(core)  # saved, never announced
    record, _ = await core.current(CHANNEL)
    assert record.announce_due is not None
    seen = SeenChannel()
    core.now = lambda: record.updated_at + CATCH_UP_AFTER - timedelta(seconds=1)
    assert await Reminders(bot_seeing(core, {CHANNEL: seen})).catch_up(core.now()) == 0  # a live one may be at it
    core.now = lambda: record.updated_at + CATCH_UP_AFTER
    two = [Reminders(bot_seeing(core, {CHANNEL: seen})) for _ in range(2)]
    assert sorted(await asyncio.gather(*(r.catch_up(core.now()) for r in two))) == [0, 1]
    assert seen.sent == ["<@1> **Orc's turn** · round 1"]
    assert await two[0].catch_up(core.now()) == 0 and len(seen.sent) == 1
