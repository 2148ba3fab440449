"""Transcript rendering and script-line parsing (bot/sandbox_text.py)."""

from __future__ import annotations

import pytest

from bot.sandbox_text import (
    ScriptError,
    parse_script,
    parse_script_line,
    render_content,
    render_message,
    run_script_line,
    transcript_of,
)
from bot.standin import default_world
from bot.standin.commands import CommandRegistry
from bot.standin.messages import MessageBody, MessageBook, UploadedFile
from bot.standin.waiting import Notifier

from .probe_bot import ProbeBot

INITIATIVE_SCHEMA = [
    {
        "name": "initiative",
        "description": "turn order",
        "options": [
            {
                "type": 1,
                "name": "join",
                "description": "join",
                "options": [
                    {"type": 3, "name": "character", "description": "who", "required": True},
                    {"type": 4, "name": "roll", "description": "d20", "required": False},
                    {"type": 10, "name": "bonus", "description": "mod"},
                    {"type": 5, "name": "hidden", "description": "secret"},
                    {"type": 6, "name": "player", "description": "player"},
                    {"type": 7, "name": "channel", "description": "where"},
                ],
            },
            {
                "type": 1,
                "name": "note",
                "description": "free text",
                "options": [{"type": 3, "name": "text", "description": "text"}],
            },
        ],
    }
]


@pytest.fixture
def world():
    return default_world()


@pytest.fixture
def registry(world):
    reg = CommandRegistry(world.ids, world.application_id)
    reg.replace(world.default_guild.id, INITIATIVE_SCHEMA)
    return reg


@pytest.fixture
def book(world):
    return MessageBook(world, Notifier(), lambda channel_id, att_id, name: f"http://standin/{name}")


# -- transcripts -------------------------------------------------------------------
def test_mentions_render_as_names(world) -> None:
    alice, gm_role, combat = world.user("alice"), world.role("GM"), world.channel("combat")
    text = f"<@{alice.id}> <@!{alice.id}> {gm_role.mention} {combat.mention} @everyone <@1>"
    assert render_content(text, world) == "@alice @alice @GM #combat @everyone @unknown-user"


def test_message_with_embed_buttons_and_files(world, book) -> None:
    embed = {
        "title": "Round 2",
        "description": f"<@{world.user('bob').id}> is up",
        "fields": [{"name": "Orc", "value": "12 HP"}, {"name": "Silver Star", "value": "30 HP"}],
        "footer": {"text": "turn 5"},
    }
    row = {
        "type": 1,
        "components": [
            {"type": 2, "style": 1, "label": "End turn", "custom_id": "end"},
            {"type": 2, "style": 2, "label": "Delay", "custom_id": "delay", "disabled": True},
        ],
    }
    body = MessageBody(
        {"content": "Combat continues", "embeds": [embed], "components": [row]},
        [UploadedFile(0, "log.md", "application/octet-stream", b"# log")],
    )
    msg = book.create(world.channel("combat"), world.bot.id, body)
    assert render_message(msg, world) == "\n".join(
        [
            "Turnkeeper: Combat continues",
            "  | **Round 2**",
            "  | @bob is up",
            "  | Orc: 12 HP",
            "  | Silver Star: 30 HP",
            "  | — turn 5",
            "  [End turn] [Delay (disabled)]",
            "  [attachment: log.md]",
        ]
    )


def test_multiline_content_is_indented(world, book) -> None:
    msg = book.create(world.channel("combat"), world.bot.id, MessageBody({"content": "line one\nline two"}))
    assert render_message(msg, world) == "Turnkeeper: line one\n  line two"


async def test_transcript_of_a_session(standin, bot: ProbeBot) -> None:
    start = len(standin.book.events)
    await (await standin.invoke("alice", "/probe ping")).response()
    await (await standin.invoke("gm", "/probe buttons")).response()
    await (await standin.click("alice", "End turn")).response()
    await (await standin.invoke("bob", "/probe secret")).response()
    await (await standin.invoke("gm", "/probe mention", target="alice")).response()
    await (await standin.invoke("gm", "/probe files")).response()
    await (await standin.invoke("alice", "/probe slow")).response()
    await (await standin.invoke("gm", "/probe gm roll", dice=20, bonus=1.5, target="bob")).response()
    await (await standin.invoke("gm", "/probe pin")).response()
    assert transcript_of(standin, since=start) == "\n".join(
        [
            "alice: /probe ping",
            "Turnkeeper: ok",
            "gm: /probe buttons",
            "Turnkeeper: Your turn, alice",
            "  [End turn] [Next round] [Roll]",
            'alice: click "End turn"',
            "Turnkeeper (edited): Turn ended by alice",
            "  [End turn (disabled)] [Next round] [Roll]",
            "bob: /probe secret",
            "(only bob sees this) Turnkeeper: only you",
            "gm: /probe mention target:@alice",
            "Turnkeeper: @everyone @alice @GM",
            "gm: /probe files",
            "Turnkeeper: log attached",
            "  [attachment: combat-log.md]",
            "  [attachment: map.png]",
            "alice: /probe slow",
            "Turnkeeper is thinking…",
            "Turnkeeper: done thinking",
            "gm: /probe gm roll dice:20 bonus:1.5 target:@bob",
            "Turnkeeper: dice=20 bonus=1.5 secret=False target=bob",
            "gm: /probe pin",
            "Turnkeeper: Initiative: alice, bob",
            '(Turnkeeper pinned a message: "Initiative: alice, bob")',
            "Turnkeeper: pinned 1",
        ]
    )


# -- script lines --------------------------------------------------------------------
def test_parse_without_schema_guesses_types() -> None:
    line = parse_script_line('alice: /initiative join character:"Silver Star" roll:15 bonus:1.5 hidden:true who:@bob')
    assert line.user == "alice" and line.kind == "command"
    assert line.command == "/initiative join"
    assert line.options == {"character": "Silver Star", "roll": 15, "bonus": 1.5, "hidden": True, "who": "@bob"}


def test_parse_with_schema_uses_option_types(world, registry) -> None:
    gid = world.default_guild.id
    line = parse_script_line(
        "alice: /initiative join character:15 roll:15 bonus:2 hidden:no player:@bob channel:#combat", registry, gid
    )
    assert line.options == {
        "character": "15",
        "roll": 15,
        "bonus": 2,
        "hidden": False,
        "player": "bob",
        "channel": "combat",
    }
    single = parse_script_line("gm: /initiative note text:'it is fine'", registry, gid)
    assert single.options == {"text": "it is fine"}


def test_quoted_strings_keep_escapes(world, registry) -> None:
    line = parse_script_line(r'gm: /initiative note text:"say \"hi\" twice"', registry, world.default_guild.id)
    assert line.options == {"text": 'say "hi" twice'}


@pytest.mark.parametrize(
    "text, problem",
    [
        ("alice: /initiative join character:Bo roll:high", "needs a number"),
        ("alice: /initiative join character:Bo hidden:maybe", "needs true/false"),
        ("alice: /initiative join character:Bo luck:3", "no option 'luck'"),
        ("alice: /initiative leave", "no subcommand 'leave'"),
        ("alice: /initiative join character:Bo character:Al", "given twice"),
        ("just some words", "expected 'user: action'"),
        ("alice: /", "missing command name"),
        ("alice: click", "needs a button label"),
    ],
)
def test_parse_errors_name_the_line(world, registry, text, problem) -> None:
    with pytest.raises(ScriptError, match=problem) as info:
        parse_script("# header\n\n" + text, registry, world.default_guild.id)
    assert str(info.value).startswith("line 3:")


def test_script_with_comments_clicks_and_chat() -> None:
    script = """
    # a fight
    gm: /encounter start

    bob: click "End turn"
    carol: I hide behind the barrel
    """
    lines = parse_script(script)
    assert [(line.user, line.kind) for line in lines] == [("gm", "command"), ("bob", "click"), ("carol", "say")]
    assert lines[0].command == "/encounter start" and lines[0].options == {}
    assert lines[1].label == "End turn"
    assert lines[2].text == "I hide behind the barrel"
    assert [line.line_no for line in lines] == [3, 5, 6]


async def test_script_lines_drive_the_bot(standin, bot: ProbeBot) -> None:
    gid = standin.world.default_guild.id
    script = 'gm: /probe gm roll dice:4 bonus:2 secret:false target:@carol\ngm: /probe buttons\nbob: click "End turn"'
    results = []
    for line in parse_script(script, standin.commands, gid):
        results.append([m.content for m in await run_script_line(standin, line)])
    assert results == [["dice=4 bonus=2.0 secret=False target=carol"], ["Your turn, alice"], ["Turn ended by bob"]]


async def test_run_script_returns_transcript(standin, bot: ProbeBot) -> None:
    from bot.sandbox_text import run_script

    script = """
    # sandbox demo
    gm: /probe monster name:Ogre count:2
    carol: ready when you are
    """
    text = await run_script(standin, script, in_channel="combat-2")
    assert text == 'gm: /probe monster name:"Ogre" count:2\nTurnkeeper: 2 x Ogre\ncarol: ready when you are'
    await standin.say("bob", "elsewhere", in_channel="combat-3")
    assert transcript_of(standin, in_channel="combat-3") == "bob: elsewhere"
    assert transcript_of(standin, in_channel="combat-2") == text
