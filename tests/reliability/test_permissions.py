"""Who may do what: every slash command × the GM, the acting player, another
player and a member of another server, as the README's command table says
(with Rotted Capes' reactions: a player may attack with their own character off
turn). A player never acts for another player's character, never reads a hidden
NPC's numbers, and nothing a stranger types touches this server's fight."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from bot.standin import InvalidInvocation, RecordedAttachment
from bot.standin.waiting import UnexpectedResponse
from rules import registry

from .livebot import LiveBot, without_versions
from .support import NOVA, leaf_paths, reliability_world, setup_campaign

# One worker runs the whole module: its bot is started once per module.
pytestmark = pytest.mark.xdist_group("permissions")

Y, N = True, False
SEATS = {"gm": "combat", "alice": "combat", "bob": "combat", "eve": "far-hall"}  # eve: another server
SHADE = "stamina=737 wounds=3 fortitude=19 avoidance=17"  # a hidden NPC with numbers nobody could guess


@dataclass(frozen=True)
class Row:
    path: str
    options: dict[str, Any]
    gm: bool
    acting: bool  # alice: Nova's turn
    other: bool  # bob: Bulwark waits
    stranger: bool  # eve, in Far Keep
    channel: str | None = None  # default: #combat (far-hall for eve)

    def expected(self, user: str) -> bool:
        return {"gm": self.gm, "alice": self.acting, "bob": self.other, "eve": self.stranger}[user]


# A file attached to /campaign import that cannot be downloaded (a closed port).
UNREADABLE = RecordedAttachment(1, "campaign.json", "application/json", b"{}", "http://127.0.0.1:9/campaign.json")

TABLE = [
    Row("/campaign setup", {"system": "rotted-capes"}, Y, N, N, N),
    Row("/campaign show", {}, Y, Y, Y, Y),
    Row("/character add", {"name": "Newcomer"}, Y, Y, Y, N),  # opens the sheet's form
    Row("/character edit", {"name": "Nova"}, Y, Y, N, N),  # its owner or the GM
    Row("/character list", {}, Y, Y, Y, Y),
    Row("/character show", {"name": "Nova"}, Y, Y, Y, N),
    Row("/character remove", {"name": "Nova"}, Y, Y, N, N),
    Row("/character remove", {"name": "Bulwark"}, Y, N, Y, N),
    Row("/encounter start", {}, Y, N, N, N, channel="combat-3"),
    Row("/encounter end", {}, Y, N, N, N),
    Row("/encounter status", {}, Y, Y, Y, N),
    Row("/encounter undo", {}, Y, N, N, N),
    Row("/encounter log", {}, Y, Y, Y, N),
    Row("/encounter note", {"text": "the lights go out"}, Y, Y, Y, N),
    Row("/encounter share", {}, N, N, N, N),  # the web page is off in this bot (no WEB_PORT): refused for all
    Row("/initiative join", {"character": "Spare"}, N, Y, N, N),
    Row("/initiative add", {"name": "Goblin"}, Y, N, N, N),
    Row("/initiative order", {}, Y, Y, Y, N),
    Row("/initiative next", {}, Y, Y, N, N),
    Row("/initiative delay", {}, Y, Y, N, N),
    Row("/initiative delay", {"combatant": "Nova"}, Y, Y, N, N),
    Row("/initiative remove", {"combatant": "Brute 1"}, Y, N, N, N),
    Row("/attack", {"target": "Brute 1"}, Y, Y, N, N),
    Row("/attack", {"target": "Brute 1", "actor": "Nova"}, Y, Y, N, N),
    Row("/attack", {"target": "Brute 1", "actor": "Bulwark"}, Y, N, Y, N),  # off turn: Bulwark's reaction
    Row("/act", {"action": "dodge"}, Y, Y, N, N),
    Row("/act", {"action": "dodge", "actor": "Nova"}, Y, Y, N, N),
    Row("/damage", {"target": "Brute 1", "amount": "3"}, Y, N, N, N),
    Row("/heal", {"target": "Brute 1", "amount": "1"}, Y, N, N, N),
    Row("/save", {"kind": "con", "actor": "Nova", "dc": 10}, Y, Y, N, N),
    Row("/save", {"kind": "con", "actor": "Bulwark", "dc": 10}, Y, N, Y, N),
    # Rotted Capes lets the acting player apply the conditions their own actions cause.
    Row("/condition add", {"target": "Brute 1", "condition": "Prone"}, Y, Y, N, N),
    Row("/condition remove", {"target": "Brute 2", "condition": "Prone"}, Y, Y, N, N),
    Row("/condition list", {}, Y, Y, Y, N),
    Row("/plotpoint show", {}, Y, Y, Y, N),
    Row("/plotpoint spend", {"use": "narrative", "actor": "Nova", "text": "a lucky break"}, Y, Y, N, N),
    Row("/plotpoint award", {"target": "Nova"}, Y, N, N, N),
    Row("/plotpoint pool", {"text": "the villain escapes"}, Y, N, N, N),
    Row("/plotpoint issue", {}, Y, N, N, N),
    # Faction turns and choices do not exist in a Rotted Capes fight with nothing to choose.
    Row("/turn take", {"character": "Nova"}, N, N, N, N),
    Row("/turn pass", {}, N, N, N, N),
    Row("/turn first", {"faction": "heroes"}, N, N, N, N),
    Row("/turn initiative", {"faction": "heroes"}, N, N, N, N),
    Row("/choose", {"option": "yes"}, N, N, N, N),
    Row("/help", {}, Y, Y, Y, Y),
    # Anyone rolls, in or out of a fight; a private roll needs a GM to show it to (eve's far-hall had no fight).
    Row("/roll", {"expression": "4d6kh3", "reason": "Strength"}, Y, Y, Y, Y),
    Row("/roll", {"expression": "1d20+2", "private": True}, Y, Y, Y, N),
    # A stored character's check: its player or the GM (Nova is alice's; eve's server has no Nova).
    Row("/check", {"character": "Nova", "kind": "save", "dc": 12}, Y, Y, N, N),
    # Between fights: the GM rests, adjusts, undoes, exports, imports and keeps the NPC library.
    Row("/campaign rest", {"kind": "end_scene"}, Y, N, N, N),
    Row("/campaign adjust", {"character": "Spare", "key": "plot_points", "value": "3"}, Y, N, N, N),
    Row("/campaign undo", {}, N, N, N, N),  # nothing to undo yet, for anyone
    Row("/campaign log", {}, Y, Y, Y, Y),
    Row("/campaign export", {}, Y, N, N, N),
    Row("/campaign import", {"file": UNREADABLE}, N, N, N, N),  # refused for all (the GM: it cannot be read)
    Row("/campaign bind", {"place": "general"}, Y, N, N, N),  # both servers have a #general
    Row("/campaign unbind", {"place": "general"}, N, N, N, N),  # nothing bound yet
    Row("/npc add", {"name": "Zombie", "stats": "stamina=8"}, Y, N, N, N),
    Row("/npc list", {}, Y, N, N, N),
    Row("/npc show", {"name": "Zombie"}, N, N, N, N),  # the library is empty: refused, for the GM too
    Row("/npc remove", {"name": "Zombie"}, N, N, N, N),
]


async def build_fight(live: LiveBot) -> None:
    standin = live.standin

    async def must(user, path, **options):
        answer = await (await standin.invoke(user, path, in_channel="combat", **options)).response(timeout=30)
        assert not answer.ephemeral, f"set-up {path} refused: {answer.content}"

    await setup_campaign(standin)
    await must("alice", "/character add", name="Spare", stats=NOVA)
    await must("gm", "/encounter start")
    await must("alice", "/initiative join", character="Nova", roll=19)
    await must("bob", "/initiative join", character="Bulwark", roll=5)
    await must("gm", "/initiative add", name="Brute", count=2, stats="stamina=1000 fortitude=1000", dice="10 9")
    await must("gm", "/initiative add", name="Shade", hidden=True, stats=SHADE, roll=7)
    await must("gm", "/condition add", target="Brute 2", condition="Prone")
    await must("gm", "/plotpoint award", target="Bulwark")
    await must("bob", "/plotpoint spend", use="narrative", actor="Bulwark", text="a point for the GM's pool")
    await must("gm", "/initiative next")
    await live.bot.idle.wait()


@pytest.fixture(scope="module")
def live(module_database_url):
    with LiveBot(reliability_world(extra_channels=len(registry.MODULES)), module_database_url) as running:
        running.run(build_fight(running))
        running.baseline = running.run(running.snapshot)
        yield running
    assert running.errors.records == [], running.errors.describe()


async def attempt(live: LiveBot, row: Row, user: str) -> tuple[bool, str, bool]:
    """(went through, what the bot said, whether the database changed); a refusal
    that is not ephemeral counts as going through, as everyone saw it."""
    if without_versions(await live.snapshot()) != without_versions(live.baseline):
        await live.restore(live.baseline)
    before = await live.snapshot()
    channel = SEATS[user] if user == "eve" else row.channel or SEATS[user]
    try:
        handle = await live.standin.invoke(user, row.path, row.options, in_channel=channel)
    except InvalidInvocation:
        # A system's commands are offered only in servers that play it (bot.command_sets).
        return False, "not offered in this server", False
    try:
        answer = await handle.response(timeout=30)
    except UnexpectedResponse:  # a form opened (a sheet to fill in): allowed, and nothing is stored yet
        form = await handle.form()
        await live.bot.idle.wait()
        return True, form.title, without_versions(await live.snapshot()) != without_versions(before)
    await live.bot.idle.wait()
    after = await live.snapshot()
    refused = answer.content.startswith("⛔") and answer.ephemeral
    return (
        not refused,
        answer.content or (answer.embeds[0].get("description", "") if answer.embeds else ""),
        after != before,
    )


def test_every_command_for_every_kind_of_member(live):
    synced = set(leaf_paths(live.standin.commands.list(None)))
    assert synced <= {row.path for row in TABLE}, (
        f"commands missing from the table: {synced - {row.path for row in TABLE}}"
    )
    wrong = []
    for row in TABLE:
        for user in ("gm", "alice", "bob", "eve"):
            allowed, said, changed = live.run(attempt(live, row, user))
            typed = " ".join(str(v) for v in row.options.values())
            if user == "eve" and any(
                name in said and name not in typed for name in ("Nova", "Bulwark", "Spare", "Shade", "Brute")
            ):
                wrong.append(f"eve, from another server, was shown this server's fight: {said[:150]!r}")
            if allowed != row.expected(user):
                wrong.append(
                    f"{user}: {row.path} {row.options} → {'allowed' if allowed else 'refused'}: {said[:150]!r}"
                )
            elif not allowed and changed:
                wrong.append(f"{user}: {row.path} was refused but changed the database")
    assert not wrong, "\n".join(wrong)
    assert live.standin.rejected == []


# --- the GM's commands, in every rule system -----------------------------------------------
# Commands the GM runs, that a system also lets the acting player run (documented in the README).
PLAYERS_TOO = {("rotted-capes", "/condition add")}

GM_ONLY = [
    ("/damage", {"target": "Ogre", "amount": "2"}),
    ("/heal", {"target": "Ogre", "amount": "1"}),
    ("/initiative add", {"name": "Goblin"}),
    ("/initiative remove", {"combatant": "Ogre"}),
    ("/condition add", {"target": "Ogre", "condition": "Prone"}),
    ("/encounter undo", {}),
    ("/encounter end", {}),
]


async def start_every_system(live: LiveBot) -> dict[str, str]:
    """A fight per system in its own channel: an Ogre, and alice's Ally."""
    channels = {}
    for n, key in enumerate(registry.MODULES):
        channel = f"combat-{n + 4}"
        for user, path, options in [
            ("gm", "/encounter start", {"system": key}),
            ("gm", "/initiative add", {"name": "Ogre"}),
            ("gm", "/initiative add", {"name": "Ally", "player": "alice"}),
            ("gm", "/initiative next", {}),
        ]:
            answer = await (await live.standin.invoke(user, path, options, in_channel=channel)).response(timeout=30)
            assert not answer.ephemeral, f"{key}: set-up {path} refused: {answer.content}"
        channels[key] = channel
    await live.bot.idle.wait()
    return channels


async def tried(live: LiveBot, user: str, path: str, options: dict, channel: str) -> tuple[bool, str, bool]:
    if without_versions(await live.snapshot()) != without_versions(live.every_system):
        await live.restore(live.every_system)
    before = await live.snapshot()
    answer = await (await live.standin.invoke(user, path, options, in_channel=channel)).response(timeout=30)
    await live.bot.idle.wait()
    return not answer.content.startswith("⛔"), answer.content, await live.snapshot() != before


def test_only_the_gm_runs_the_gms_commands_in_every_system(live):
    live.run(live.restore(live.baseline))
    channels = live.run(start_every_system(live))
    live.every_system = live.run(live.snapshot)
    wrong, checked = [], 0
    for key, channel in channels.items():
        for path, options in GM_ONLY:
            if (key, path) in PLAYERS_TOO:
                continue
            gm_allowed, said, _ = live.run(tried(live, "gm", path, options, channel))
            if not gm_allowed:
                continue  # the command means something else in this system; the table covers Rotted Capes
            for player in ("alice", "bob"):
                allowed, said, changed = live.run(tried(live, player, path, options, channel))
                checked += 1
                if allowed or changed:
                    wrong.append(f"{key}: {player} ran the GM's {path} {options}: {said[:120]!r}")
    live.run(live.restore(live.baseline))
    print(f"GM-only commands: {checked} player attempts over {len(channels)} systems")
    assert checked >= 2 * len(channels) * 4, f"only {checked} player attempts were meaningful"
    assert not wrong, "\n".join(wrong)


# --- hidden NPCs ------------------------------------------------------------------------
def shade_line(text: str) -> str:
    return next(line for line in text.splitlines() if "Shade" in line)


def numbers_after_name(line: str) -> list[str]:
    return re.findall(r"\d+", line.split("Shade", 1)[1])


async def look(live: LiveBot, user: str, path: str, **options):
    return await (await live.standin.invoke(user, path, in_channel="combat", **options)).response(timeout=30)


def test_players_never_read_a_hidden_npcs_numbers(live):
    live.run(live.restore(live.baseline))
    for player in ("alice", "bob"):
        status = live.run(look(live, player, "/encounter status"))
        # Not even its initiative total (it rolled 7) shows in the order.
        assert re.findall(r"\d+", shade_line(status.embeds[0]["description"])) == [], status.embeds[0]["description"]
    gm_status = live.run(look(live, "gm", "/encounter status"))
    assert "737" in shade_line(gm_status.embeds[0]["description"]), "the GM sees the hidden NPC's numbers"
    assert "`       7`" in shade_line(gm_status.embeds[0]["description"]), "and its initiative"
    order = live.run(look(live, "alice", "/initiative order"))
    assert not order.ephemeral and numbers_after_name(shade_line(order.embeds[0]["description"])) == []

    # The GM plays on until Shade's turn: its turn message is public too.
    for _ in range(5):
        live.run(look(live, "gm", "/damage", target="Shade", amount="5"))
        live.run(look(live, "gm", "/initiative next"))
        live.run(live.bot.idle.wait())
        pinned = [m for m in live.standin.messages("combat") if m.pinned]
        assert len(pinned) == 1 and numbers_after_name(shade_line(pinned[0].embeds[0]["description"])) == []
    turns = [
        m
        for m in live.standin.messages("combat")
        if m.embeds and any(f["name"] == "Shade" for f in m.embeds[0].get("fields", []))
    ]
    assert turns, "Shade had a turn"
    for message in turns:
        field = next(f for f in message.embeds[0]["fields"] if f["name"] == "Shade")
        assert "737" not in field["value"] and not re.search(r"\d+/\d+", field["value"]), field["value"]
    live.run(live.restore(live.baseline))


def test_public_results_never_show_a_hidden_npcs_numbers(live):
    live.run(live.restore(live.baseline))

    async def both(user, path, **options):
        handle = await live.standin.invoke(user, path, in_channel="combat", **options)
        answer = await handle.response(timeout=30)
        private = await handle.followup(0, timeout=30) if user == "gm" else None
        return answer, private

    said = [
        live.run(both("gm", "/damage", target="Shade", amount="5")),
        live.run(both("gm", "/heal", target="Shade", amount="1")),
        live.run(both("alice", "/attack", target="Shade", roll=15, dice="8")),
    ]
    log, gm_log = live.run(both("gm", "/encounter log"))
    player_log = live.run(look(live, "alice", "/encounter log"))
    live.run(live.bot.idle.wait())
    live.run(live.restore(live.baseline))
    secrets = ("737", "Avoidance 17", "Fortitude 19")
    for answer, private in said:
        assert not answer.ephemeral
        assert not any(s in answer.content for s in secrets), answer.content
        if private is not None:  # the GM reads the numbers in a reply only they see
            assert private.ephemeral and "737" in private.content, private.content
    public_files = [log.attachments[0], player_log.attachments[0]]
    for attachment in public_files:
        text = attachment.data.decode()
        assert "Shade" in text and "737" not in text, text
    assert gm_log.ephemeral and "737" in gm_log.attachments[0].data.decode()
