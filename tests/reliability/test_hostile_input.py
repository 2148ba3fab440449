"""Property-based: every slash command of the synced schema, driven through the
stand-in with hostile option values by the GM, players and a member of another
server. Whatever comes in: no unhandled exception, exactly one answer, every
refusal an ephemeral message that says what is wrong and changes nothing, no
ping for anyone the rules did not mean, every message within Discord's limits
(a 60-combatant fight keeps the tracker and the replies big), and no typed
markdown or link rendered as markup in any message, embed, label or file."""

from __future__ import annotations

import asyncio
import math
import re
import zlib
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from bot.app import COGS, create_bot
from bot.config import Settings
from bot.standin import InvalidInvocation
from bot.standin.waiting import UnexpectedResponse
from tests.markup import markup_in

from .hostile import CAMPAIGN_FILES, options_for
from .livebot import LiveBot, without_versions
from .support import FIGURES, NOVA, answered_once, leaf_paths, reliability_world, setup_campaign

# One worker runs the whole module: its bot is started once per module, and its last test counts every case before it.
pytestmark = pytest.mark.xdist_group("hostile")

MIN_CASES = 5000
# Who types commands where: mostly the fight in #combat, also a channel with another
# fight, one with none, and a stranger in another server.
SEATS = [
    ("gm", "combat"),
    ("gm", "combat"),
    ("gm", "combat"),
    ("alice", "combat"),
    ("alice", "combat"),
    ("bob", "combat"),
    ("gm", "combat-2"),
    ("bob", "combat-2"),
    ("alice", "combat-3"),
    ("eve", "far-hall"),
]
GENERIC_FAILURE = "Something went wrong on our side"
INTERNALS = re.compile(r"Traceback|pydantic|sqlalchemy|asyncpg|sqlite3|ValidationError|KeyError|object at 0x|Errno")


def synced_paths() -> list[str]:
    """Every leaf slash command the bot registers, computed offline at collection."""

    async def collect() -> list[str]:
        bot = create_bot(Settings(discord_token="x", database_url="sqlite+aiosqlite:///:memory:"))
        for name in COGS:
            await bot.load_extension(name)
        return leaf_paths([command.to_dict(bot.tree) for command in bot.tree.get_commands()])

    return asyncio.run(collect())


PATHS = synced_paths()


def budget(options: int) -> int:
    """Examples per command: more for commands with more to get wrong."""
    return 60 + 25 * options


@dataclass
class Tally:
    cases: int = 0
    refused: int = 0
    accepted: int = 0
    by_path: dict[str, int] = field(default_factory=dict)


TALLY = Tally()


# --- the world: a 60-combatant fight and its neighbours -------------------------------
async def build_fights(live: LiveBot) -> None:
    standin = live.standin

    async def must(user, path, channel="combat", **options):
        answer = await (await standin.invoke(user, path, in_channel=channel, **options)).response(timeout=30)
        assert not answer.ephemeral, f"set-up {path} refused: {answer.content}"

    await setup_campaign(standin)
    await must("alice", "/character add", name="Spare", stats=NOVA)
    await must("gm", "/encounter start")
    await must("alice", "/initiative join", character="Nova", roll=19)
    await must("bob", "/initiative join", character="Bulwark", roll=5)
    await must(
        "gm",
        "/initiative add",
        name="Shade",
        hidden=True,
        stats="stamina=87 wounds=3 fortitude=9 avoidance=13",
        roll=10,
    )
    await must("gm", "/initiative add", name="Brute", count=50, stats="stamina=1000 fortitude=1000")
    await must("gm", "/initiative add", name="Ogre of the Very Long and Extremely Tedious Name, Third of", count=7)
    await must("gm", "/initiative next")
    await must("gm", "/encounter start", channel="combat-2")
    await must("gm", "/initiative add", channel="combat-2", name="Far Goblin", roll=4)
    await must("faye", "/campaign setup", channel="far-hall", system="factions")
    await must("faye", "/encounter start", channel="far-hall")
    await must("faye", "/initiative add", channel="far-hall", name="Stranger Orc")
    await live.bot.idle.wait()


@pytest.fixture(scope="module")
def live(module_database_url):
    with LiveBot(reliability_world(), module_database_url) as running:
        running.run(build_fights(running))
        running.baseline = running.current = running.run(running.snapshot)
        running.schema = {path: resolve_anywhere(running, path) for path in PATHS}
        yield running
    assert running.errors.records == [], running.errors.describe()


def servers(live: LiveBot) -> list[int]:
    return [live.world.default_guild.id, live.world.guild_of_channel(live.world.channel("far-hall")).id]


def resolve_anywhere(live: LiveBot, path: str):
    """A system's command groups are offered only where the system is played (bot.command_sets)."""
    for guild_id in servers(live):
        try:
            return live.standin.commands.resolve(path, guild_id)
        except InvalidInvocation:
            continue
    raise InvalidInvocation(f"{path} is offered in no server")


# --- one case ------------------------------------------------------------------------
@dataclass
class Case:
    path: str
    user: str
    channel: str
    options: dict[str, Any]

    def __repr__(self) -> str:
        shown = {
            k: (v[:60] + f"…({len(v)})" if isinstance(v, str) and len(v) > 60 else v) for k, v in self.options.items()
        }
        return f"{self.user} in #{self.channel}: {self.path} {shown}"

    __str__ = __repr__


def allowed_pings(live: LiveBot, snapshot: dict[str, Any], channel_id: int) -> set[int]:
    """Who a message in this channel may ping: its fight's GM and its players."""
    users: set[int] = set()
    for row in snapshot["encounters"]:
        if row["channel_id"] == channel_id and row["status"] == "active":
            state = live.state_of(row)
            users.add(state["gm_id"])
            users.update(c["controller_id"] for c in state["combatants"] if c.get("controller_id"))
    return users


def shows_internals(reason: str, case: Case) -> bool:
    """Whether a refusal names the bot's insides. A word the case typed itself is quoted back, not leaked:
    Hypothesis draws text from constants in the loaded code too, such as `asyncpg` for `cards:`."""
    typed = " ".join(str(value) for value in case.options.values())
    return any(found.group(0) not in typed for found in INTERNALS.finditer(reason))


async def run_case(live: LiveBot, case: Case) -> str:
    """Run one command; return what went wrong ('' when nothing did)."""
    standin, bot = live.standin, live.bot
    before = live.current
    first_message = len(standin.book.messages)
    first_event = len(standin.book.events)
    first_error = len(live.errors.records)
    first_rejected = len(standin.rejected)
    try:
        handle = await standin.invoke(case.user, case.path, case.options, in_channel=case.channel)
    except InvalidInvocation:
        return ""  # not offered in this server: Discord lets nobody send it
    try:
        answer = await handle.response(timeout=30)
    except UnexpectedResponse:
        # A form (a sheet to fill in) is an answer too: it stores nothing until it is sent back.
        await handle.form()
        await bot.idle.wait()
        return "" if await live.snapshot() == before else "a form opened and something changed"
    except AssertionError as missing:
        return f"no answer: {missing}"
    await bot.idle.wait()
    await asyncio.sleep(0)
    after = await live.snapshot()
    problems = []
    if live.errors.records[first_error:]:
        problems.append("ERROR logged: " + live.errors.describe(first_error))
    if standin.rejected[first_rejected:]:
        problems.append(f"Discord refused a message: {standin.rejected[first_rejected:]}")
    if not answered_once(handle):
        problems.append(f"answered {len(handle.callbacks)} times with {len(handle.followups)} follow-ups")
    refused = answer.content.startswith("⛔")
    if refused and not answer.ephemeral:
        problems.append(f"a refusal was posted for everyone to see: {answer.content!r}")
    if refused:
        TALLY.refused += 1
        reason = answer.content[1:].strip()
        if len(reason) < 10 or GENERIC_FAILURE in reason:
            problems.append(f"the refusal does not say what is wrong: {answer.content!r}")
        if shows_internals(reason, case):
            problems.append(f"the refusal shows internals: {answer.content!r}")
        if after != before:
            problems.append("a refused command changed the database")
    else:
        TALLY.accepted += 1
    problems += ping_problems(live, before, after, first_message, first_event)
    problems += markup_problems(live, first_message, first_event)
    live.current = after
    if without_versions(after) != without_versions(live.baseline):
        await live.restore(live.baseline)
        live.current = await live.snapshot()
    return "\n".join(problems)


def ping_problems(live: LiveBot, before, after, first_message: int, first_event: int) -> list[str]:
    standin = live.standin
    carol = standin.world.user("carol").id
    problems = []
    for message in standin.book.messages[first_message:]:
        pings = message.pings
        allowed = allowed_pings(live, before, message.channel_id) | allowed_pings(live, after, message.channel_id)
        if pings.everyone or pings.role_ids:
            problems.append(f"pinged @everyone or a role: {message.content[:200]!r}")
        if not set(pings.user_ids) <= allowed:
            problems.append(
                f"pinged {set(pings.user_ids) - allowed}, not a player of this fight: {message.content[:200]!r}"
            )
    for event in standin.book.events[first_event:]:
        text = event.message.current.content if event.message is not None else ""
        if "@everyone" in text or "@here" in text or f"<@{carol}>" in text or f"<@!{carol}>" in text:
            problems.append(f"an unescaped mention reached the channel: {text[:200]!r}")
    return problems


def markup_problems(live: LiveBot, first_message: int, first_event: int) -> list[str]:
    """No message, edit, embed, label or file the command produced renders typed text as markup."""
    book = live.standin.book
    touched = {id(m): m for m in book.messages[first_message:]}
    touched.update({id(e.message): e.message for e in book.events[first_event:] if e.message is not None})
    channels = list(live.world.channels)  # the bot names real channels itself (/campaign bind)
    return [f"typed text rendered as markup: {problem}" for problem in markup_in(touched.values(), channels)]


# --- the properties ----------------------------------------------------------------------
def seats_and_options(live: LiveBot, path: str):
    command = live.schema[path]
    by_guild = {}

    @st.composite
    def draw(draw_from):
        user, channel = draw_from(st.sampled_from(SEATS))
        guild = live.world.guild_of_channel(live.world.channel(channel))
        if guild.id not in by_guild:
            by_guild[guild.id] = options_for(command.value_options, live.world, guild)
        return Case(path, user, channel, draw_from(by_guild[guild.id]))

    return draw()


def check_cases(live: LiveBot, path: str, examples: int, round_: int = 0) -> None:
    # A fixed seed per command (and top-up round): CI runs the same cases every time.
    @seed(zlib.crc32(f"{path}#{round_}".encode()))
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        print_blob=False,
        phases=(Phase.explicit, Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
    )
    @given(case=seats_and_options(live, path))
    def hostile(case: Case) -> None:
        TALLY.cases += 1
        FIGURES["hostile input cases tried"] += 1
        TALLY.by_path[path] = TALLY.by_path.get(path, 0) + 1
        problems = live.run(run_case(live, case))
        assert not problems, f"{case}\n{problems}"

    hostile()


@pytest.mark.parametrize("path", PATHS)
def test_hostile_input(live, path):
    check_cases(live, path, budget(len(live.schema[path].value_options)))


@pytest.mark.parametrize("content, refusal", [pytest.param(c, r, id=what) for what, c, r in CAMPAIGN_FILES])
def test_hostile_campaign_files(live, content, refusal):
    """Files the option strategy cannot send (it attaches files nobody can download): each is
    refused by name, privately and at once, under the same checks as every other case."""
    case = Case("/campaign import", "gm", "combat", {"file": live.standin.upload("campaign.json", content)})
    problems = live.run(run_case(live, case))
    assert not problems, f"{case}\n{problems}"
    answer = live.standin.interactions[-1].messages[0]
    assert answer.content.startswith("⛔") and refusal in answer.content and not answer.buttons(), answer.content


def test_every_synced_command_is_driven(live):
    offered = set(leaf_paths(live.standin.commands.list(None)))
    for guild_id in servers(live):
        offered |= set(leaf_paths(live.standin.commands.list(guild_id)))
    assert offered == set(PATHS)


def test_at_least_5000_cases(live):
    """Runs last: tops the count up to MIN_CASES with the commands that take the most options."""
    missing = MIN_CASES - TALLY.cases
    if missing > 0:
        rich = sorted(PATHS, key=lambda p: -len(live.schema[p].value_options))[:4]
        for path in rich:
            check_cases(live, path, math.ceil(missing / len(rich)), round_=1)
    print(
        f"hostile input: {TALLY.cases} cases over {len(PATHS)} commands, {TALLY.refused} refused, {TALLY.accepted} "
        "accepted"
    )
    assert TALLY.cases >= MIN_CASES
