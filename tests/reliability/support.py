"""Shared by the reliability tests: the bot under test, its error log, commands
that remember how the cogs build their actions, and the check that an
encounter's event log replays to its saved state.

The event log stores each command's name and the state before it, not the action
itself. ``ACTIONS`` rebuilds the action the way the cog does from the options the
test sent, so the log can be replayed with the pure rules engine: if the saved
state and every logged step are consistent, no command was lost, doubled or
half-applied.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bot import render
from bot.app import TurnkeeperBot, create_bot
from bot.config import Settings
from bot.repository import EventRecord, Repository
from bot.standin import InteractionHandle, StandIn, World, default_world, running_client
from rules import registry
from rules.actions import AddCombatants, Choose, EndTurn, NextTurn, Note
from rules.commands import entered
from rules.engine import apply
from rules.errors import RulesError
from rules.model import Actor, Encounter
from rules.system import System
from rules.text import english

TOKEN = "standin.bot.token"
SYSTEM = "rotted-capes"
UNDO = "/encounter undo"
TIMED_OUT = "(choice timed out)"
# Discord's routes the bot's answers take, as the stand-in's faults name them.
CALLBACK = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP = "POST /webhooks/{application_id}/{token}"  # turn pings: followups of the interaction that changed the turn
EDIT_BY_WEBHOOK = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"  # the tracker's edits
DELETE_BY_WEBHOOK = "DELETE /webhooks/{application_id}/{token}/messages/{message_id}"
PIN = "PUT /channels/{channel_id}/messages/pins/{message_id}"

# The closing figures CI prints (conftest's terminal summary).
FIGURES: Counter[str] = Counter()


# --- the world -----------------------------------------------------------------
def reliability_world(*, extra_channels: int = 0) -> World:
    """The sandbox world plus a second server, Far Keep (#far-hall), owned by
    faye, where eve is a plain member: a stranger to the sandbox."""
    world = default_world(extra_channels=extra_channels)
    world.add_user("faye")
    far = world.add_guild("Far Keep", owner="faye", channels=("far-hall", "general"))
    world.add_member(far, "eve")
    return world


def user_id(standin: StandIn, name: str) -> int:
    return standin.world.user(name).id


def leaf_paths(schemas: list[dict[str, Any]]) -> list[str]:
    """What users type, e.g. "/initiative add", for every command in synced schemas."""
    paths: list[str] = []

    def walk(node: dict[str, Any], names: list[str]) -> None:
        subs = [o for o in node.get("options") or [] if o["type"] in (1, 2)]  # subcommands and groups
        if not subs:
            paths.append("/" + " ".join(names))
        for sub in subs:
            walk(sub, names + [sub["name"]])

    for schema in schemas:
        walk(schema, [schema["name"]])
    return sorted(paths)


# --- the bot -------------------------------------------------------------------
def make_bot(database_url: str, *, seed: int | None = None, **settings: Any) -> TurnkeeperBot:
    """`settings`: any of `Settings`' fields besides the token and the database."""
    return create_bot(
        Settings(discord_token=TOKEN, database_url=database_url, **settings), seed=seed, guild_ready_timeout=0.05
    )


@contextlib.asynccontextmanager
async def running_bot(standin: StandIn, database_url: str, *, seed: int | None = None, **settings: Any):
    async with running_client(standin, lambda: make_bot(database_url, seed=seed, **settings)) as bot:
        try:
            yield bot
        finally:
            await settle(bot)


async def settle(bot: TurnkeeperBot, rounds: int = 3) -> None:
    """Wait until no command is in progress (its pings and tracker edit included)."""
    for _ in range(rounds):
        await asyncio.wait_for(bot.idle.wait(), 30)
        await asyncio.sleep(0.01)


class ErrorLog(logging.Handler):
    """Every ERROR record from any logger: the bot logs unexpected failures as
    "command failed", discord.py and asyncio log what escapes the bot."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def describe(self, start: int = 0) -> str:
        lines = []
        for record in self.records[start:]:
            text = f"{record.name}: {record.getMessage()}"
            if record.exc_info and record.exc_info[1] is not None:
                text += f" ({type(record.exc_info[1]).__name__}: {record.exc_info[1]})"
            lines.append(text)
        return "\n".join(lines)

    @contextlib.contextmanager
    def installed(self):
        root = logging.getLogger()
        root.addHandler(self)
        try:
            yield self
        finally:
            root.removeHandler(self)


# --- commands and how the cogs turn them into actions ------------------------------
Build = Callable[[Actor, System, Encounter, dict[str, Any]], Any]


def _forward(name: str) -> Build:
    def build(by, system, state, options):
        return system.command(name, by, {k: v for k, v in options.items() if v is not None})

    return build


def _add(by, system, state, o):
    return AddCombatants(
        by=by,
        name=o["name"],
        sheet=system.parse_sheet(o.get("stats") or ""),
        count=o.get("count", 1),
        side=o.get("side"),
        hidden=o.get("hidden", False),
        npc=True,
        surprised=o.get("surprised", False),
        **entered(o),
    )


# Keyed by the command name the event log records.
ACTIONS: dict[str, Build] = {
    "/encounter note": lambda by, system, state, o: Note(by=by, text=o["text"]),
    "/initiative next": lambda by, system, state, o: NextTurn(by=by, **entered(o)),
    "/initiative add": _add,
    "End turn (button)": lambda by, system, state, o: EndTurn(by=by, turn_no=o["turn_no"]),
    "/attack": _forward("attack"),
    "/damage": _forward("damage"),
    "/heal": _forward("heal"),
}


def logged_name(path: str, options: dict[str, Any]) -> str:
    return f"/act {options['action'][:40]}" if path == "/act" else path


@dataclass(eq=False)
class Sent:
    """One interaction the test sent, with what the log should say about it."""

    handle: InteractionHandle
    user_id: int
    is_gm: bool
    command: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def channel_id(self) -> int:
        return self.handle.channel.id

    @property
    def acknowledged(self) -> bool:
        return bool(self.handle.callbacks)

    @property
    def applied(self) -> bool:
        """The bot answered and did not refuse (refusals are ephemeral ⛔ messages; a command
        acknowledged late says privately that it is done and posts its result in the channel;
        a stale button's click is refused in a followup while its message loses the button)."""
        messages = self.handle.messages
        if not (self.acknowledged and messages):
            return False
        return not any(m.ephemeral and m.content.startswith("⛔") for m in messages)

    def action(self, system: System, state: Encounter):
        if self.command.startswith("/act "):
            return _forward("act")(self.by, system, state, self.options)
        return ACTIONS[self.command](self.by, system, state, self.options)

    @property
    def by(self) -> Actor:
        return Actor(user_id=self.user_id, is_gm=self.is_gm)


class Commander:
    """Sends commands through the stand-in and remembers them for the replay check."""

    def __init__(self, standin: StandIn, gm: str = "gm") -> None:
        self.standin = standin
        self.gms = {user_id(standin, gm)}
        self.sent: list[Sent] = []

    async def send(self, user: str, path: str, *, in_channel: str | None = None, **options) -> Sent:
        handle = await self.standin.invoke(user, path, in_channel=in_channel, **options)
        uid = user_id(self.standin, user)
        sent = Sent(handle, uid, uid in self.gms, logged_name(path, options), options)
        self.sent.append(sent)
        return sent

    async def click_end_turn(self, user: str, message) -> Sent:
        button = next(b for b in message.buttons() if b.get("label") == "End turn")
        turn_no = int(button["custom_id"].rsplit(":", 1)[1])
        handle = await self.standin.click(user, "End turn", message=message)
        uid = user_id(self.standin, user)
        sent = Sent(handle, uid, uid in self.gms, "End turn (button)", {"turn_no": turn_no})
        self.sent.append(sent)
        return sent

    async def answers(self, sents: list[Sent], timeout: float = 30.0) -> None:
        # One waiter at a time: the stand-in wakes every waiter on every change.
        for s in sents:
            await s.handle.response(timeout=timeout)


# --- the replay check ------------------------------------------------------------------
@dataclass
class Replay:
    events: int
    checked: int  # acknowledged, applied commands found exactly once in the log


def is_tracker(message) -> bool:
    return any((embed.get("footer") or {}).get("text", "").startswith("Encounter #") for embed in message.embeds)


def answered_once(handle: InteractionHandle) -> bool:
    """One callback and one visible message: not answered twice, not left hanging.
    Followups may only be the channel's announcements (a new turn's or a choice's ping,
    the pinned tracker), after a private "✅ Done" for a slow command its public result, and
    the GM's own private copy of what the answer hides (🔒)."""
    if len(handle.callbacks) != 1 or handle.original is None:
        return False
    gm_copies = [f for f in handle.followups if f.ephemeral and f.content.startswith("🔒")]
    if len(gm_copies) > 1:
        return False
    public = [f for f in handle.followups if f not in gm_copies]
    unpinged = [f for f in public if not f.pings.user_ids and not is_tracker(f)]
    allowed_unpinged = 1 if handle.original.ephemeral and handle.original.content.startswith("✅ Done") else 0
    return all(not f.ephemeral for f in public) and len(unpinged) <= allowed_unpinged


def _undo_target(events: list[EventRecord], index: int, after: dict[str, Any]) -> bool:
    return any(e.undone and e.state_before == after for e in events[:index])


async def check_replay(
    repo: Repository, channel_id: int, sent: list[Sent], *, after_seq: int = 0, allow_unacknowledged: bool = False
) -> Replay:
    """The saved state of the channel's encounter is the replay of its event log,
    and every command the bot acknowledged as done is in the log exactly once.

    Each event is matched to a sent command whose action, applied to the event's
    state_before, yields the next event's state_before (the last one: the saved
    state) and the logged summary. ``allow_unacknowledged`` lets a logged command
    be one the bot never answered (it was killed between commit and reply).
    Events up to ``after_seq`` are the test's set-up and are only chained, not matched.
    """
    record = await repo.active_encounter(channel_id)
    assert record is not None, f"no encounter in channel {channel_id}"
    events = await repo.events(record.id)
    system = registry.get(record.system)
    pool = [s for s in sent if s.channel_id == record.channel_id]
    used: set[int] = set()
    for index, event in enumerate(events):
        before = system.load(event.state_before)
        after_data = events[index + 1].state_before if index + 1 < len(events) else record.state
        if event.seq <= after_seq:
            continue
        if english(event.command) == UNDO:
            assert _undo_target(events, index, after_data), f"undo #{event.seq} did not restore an undone event's state"
            candidates = [s for s in pool if s.command == UNDO and s.user_id == event.user_id and id(s) not in used]
            match = next((s for s in sorted(candidates, key=lambda s: not s.applied)), None)
            assert match is not None and (match.applied or allow_unacknowledged), f"undo #{event.seq} was never sent"
            used.add(id(match))
            continue
        after = system.load(after_data)
        if english(event.command) == TIMED_OUT:
            pending = before.pending
            assert pending is not None, f"event #{event.seq} answered a choice nobody was asked"
            action = Choose(
                by=Actor(user_id=before.gm_id, is_gm=True),
                pending_id=pending.id,
                option=pending.default,
                timed_out=True,
            )
            assert apply(before, action).state == after, f"timed-out choice #{event.seq} does not replay"
            continue
        match = _match(system, event, before, after, pool, used, allow_unacknowledged)
        used.add(id(match))
    for s in pool:
        if s.applied:
            assert id(s) in used, f"{s.handle.label!r} was answered as done but is not in the event log"
    checked = sum(1 for s in pool if s.applied)
    return Replay(events=len(events) - after_seq, checked=checked)


def _match(
    system,
    event: EventRecord,
    before: Encounter,
    after: Encounter,
    pool: list[Sent],
    used: set[int],
    allow_unacknowledged: bool,
) -> Sent:
    # The log records the command with its options ("/heal target:Brute amount:1d4").
    candidates = [
        s
        for s in pool
        if id(s) not in used
        and s.user_id == event.user_id
        and (english(event.command) == s.command or english(event.command).startswith(s.command + " "))
    ]
    # Commands the bot confirmed first: a lookalike that was never answered must not take their place.
    candidates.sort(key=lambda s: not s.applied)
    for s in candidates:
        if not (s.applied or (allow_unacknowledged and not s.acknowledged)):
            continue
        try:
            outcome = apply(before, s.action(system, before))
        except RulesError:
            continue
        if outcome.state == after and outcome.summary == event.summary:
            return s
    raise AssertionError(
        f"event #{event.seq} ({event.command} by {event.user_id}: {event.summary!r}) is not the replay of any "
        f"command the bot acknowledged ({len(candidates)} candidates)"
    )


async def last_seq(repo: Repository, channel_id: int) -> int:
    record = await repo.active_encounter(channel_id)
    events = await repo.last_events(record.id, 1) if record else []
    return events[0].seq if events else 0


# --- a fight to run commands in --------------------------------------------------------
NOVA = "dex=2 con=1 avoidance=14 fortitude=8 willpower=10 stamina=20 wounds=3 attack=6 damage=1d8+4"
BULWARK = "dex=1 avoidance=12 fortitude=9 stamina=30 wounds=3 attack=4 damage=1d6+2"
# Threats that soak anything the tests throw at them: no death, no choice to wait on.
BRUTE = "stamina=1000 wounds=3 fortitude=1000 avoidance=12 attack=3 damage=1d6"


async def say(standin: StandIn, user: str, path: str, *, in_channel: str | None = None, **options):
    handle = await standin.invoke(user, path, in_channel=in_channel, **options)
    return await handle.response(timeout=30)


async def must(standin: StandIn, user: str, path: str, *, in_channel: str | None = None, **options):
    """A set-up step that has to go through."""
    answer = await say(standin, user, path, in_channel=in_channel, **options)
    assert not answer.ephemeral, f"{user}: {path} {options} was refused: {answer.content}"
    return answer


async def setup_campaign(standin: StandIn) -> None:
    """Rotted Capes without the plot-point question, so attacks never wait on a choice;
    alice plays Nova, bob plays Bulwark."""
    await must(standin, "gm", "/campaign setup", system=SYSTEM, settings="offer_plot_disadvantage=false")
    await must(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await must(standin, "bob", "/character add", name="Bulwark", stats=BULWARK)


async def setup_fight(standin: StandIn, channel: str = "combat", *, brutes: int = 3) -> None:
    """Nova (initiative 21) and Bulwark (6) against Brutes (10, 9, …), round 1 begun: Nova acts."""
    await must(standin, "gm", "/encounter start", in_channel=channel)
    await must(standin, "alice", "/initiative join", in_channel=channel, character="Nova", roll=19)
    await must(standin, "bob", "/initiative join", in_channel=channel, character="Bulwark", roll=5)
    dice = " ".join(str(10 - i % 9) for i in range(brutes))
    await must(standin, "gm", "/initiative add", in_channel=channel, name="Brute", count=brutes, stats=BRUTE, dice=dice)
    await must(standin, "gm", "/initiative next", in_channel=channel)


def public_pings(standin: StandIn) -> list:
    """(message, pings) of every message that notified anyone."""
    return [(m, m.pings) for m in standin.book.messages if m.pings.user_ids or m.pings.role_ids or m.pings.everyone]


def pinned_tracker(standin: StandIn, channel: str):
    pinned = standin.book.pinned_in(standin.channel(channel))
    assert len(pinned) == 1, f"#{channel} has {len(pinned)} pinned trackers"
    return pinned[0]


async def assert_tracker_current(standin: StandIn, repo: Repository, channel: str) -> None:
    """The pinned tracker shows the saved state, as the bot renders it."""
    record = await repo.active_encounter(standin.channel(channel).id)
    state = registry.get(record.system).load(record.state)
    want = render.tracker_embed(registry.get(record.system), state, record.id).to_dict()
    shown = pinned_tracker(standin, channel).embeds[0]
    assert (shown.get("title"), shown.get("description")) == (want.get("title"), want.get("description")), (
        f"#{channel}'s pinned tracker is stale:\n{shown.get('description')}\n--- saved state renders "
        f"---\n{want.get('description')}"
    )
