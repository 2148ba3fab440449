"""Hostile option values for any slash command, drawn from its synced schema.

Values stay inside what Discord's client lets a user send (types, choices,
min/max, lengths), and inside that go for what breaks bots: huge and negative
numbers, dice bombs, deep nesting, empty and 4,000-character strings, Unicode,
markdown and mention injection, and names of combatants that live in another
channel or another server.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

from bot.standin import RecordedAttachment, World
from tests.markup import EMPHASIS

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
DISCORD_INTEGER = 2**53

DICE_BOMBS = [
    "1000000d1000000",
    "999999999999d6",
    "1d999999999999",
    "100d1000000",
    "101d6",
    "0d0",
    "1d0",
    "d",
    "d%",
    "1d-5",
    "(" * 25 + "1d6" + ")" * 25,
    "(" * 200 + "1" + ")" * 200,
    "((((1d6",
    "1d6)))))",
    "1d6" * 70,
    "+".join(["1d6"] * 101),
    "10d10!!",
    "4d6e6",
    "1d2rr<3",
    "1d2ra<3",
    "100d6e1",
    "2d6kh999",
    "1d6*1d6*1d6*1000000*1000000",
    "9" * 300,
    "-9" * 150,
    "1/0",
    "1//0",
    "1%0",
    "1d6>3",
    "1e309",
    "NaN",
    "inf",
    "-0",
    "0x10",
    "½",
    "٣d٦",
]
NUMBERS = [
    "0",
    "-1",
    "-100",
    "-2147483648",
    "2147483647",
    "9007199254740993",
    "1" + "0" * 50,
    "-" + "9" * 40,
    "3.5",
    "1,000",
]
MARKUP = [
    "**bold** __under__ ~~gone~~ ||spoiler|| `code`",
    "```py\nimport os\n```",
    "> quoted\n>>> all",
    "# Heading",
    "-# small",
    "[click](https://example.com)",
    "<https://example.com>",
    ":skull: <:custom:123456789012345678>",
    "<t:0:R>",
    "\\@everyone",
    "\\",
    '"',
    "'",
    "`",
    "|",
    "||",
    "~~~~",
    "*" * 100,
    "[Free Nitro](https://evil.example/x)",
    "[Nova](<https://evil.example>)",
    "https://evil.example/x",
    "<#123456789012345678>",
    "</help:123456789012345678>",
    "<a:dance:123456789012345678>",
    "__**x**__",
    # Emphasis the oracle can tell from the bot's own bold (tests/markup.py), alone and together.
    *EMPHASIS,
    " ".join(EMPHASIS),
    "what=**zqbold** text=_zqund_ weapon=*zqital* name=~~zqstrike~~",  # `options:` values the rules repost
]
UNICODE = [
    "Ω≈ç√∫˜µ≤",
    "🧟\u200d♂️🧟\u200d♀️",
    "\u202eevil\u202c",
    "zero\u200bwidth",
    "Z̵̡̢̛̙̼̟̭͍͑̅a̷̢̬̍l̸̞̈g̵͉̀o̵̧̚",
    "مرحبا",
    "日本語のキャラクター",
    "\t",
    "\n\n\n",
    " ",
    "   padded   ",
    "\r\n",
    "\x1b[31mred",
    "\ufeffbom",
    "𝕿𝖚𝖗𝖓",
    "ℌ𝔢𝔩𝔩𝔬",
    "İstanbul",
    "ß",
    "ﬀ",
]
INJECTION = [
    "'; DROP TABLE encounter; --",
    '" OR 1=1 --',
    "%s%s%s%n",
    "{0}{1}{__class__}",
    "${jndi:ldap://x}",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "null",
    "None",
    "true",
    "[]",
    "{}",
    "__proto__",
]


def _campaign(**changes: Any) -> bytes:
    """A Rotted Capes campaign file as /campaign export writes it, with `changes`; None leaves a key out."""
    nova = {"name": "Nova", "owner_id": "1", "owner_name": "alice", "sheet": {"stamina": 20, "wounds": 3}}
    lasting = changes.pop("lasting", {})
    data = {
        "format": "turnkeeper-campaign",
        "version": 1,
        "system": "rotted-capes",
        "settings": changes.pop("settings", {}),
        "state": changes.pop("state", {}),
        "characters": [nova | {"lasting": lasting}],
        "npcs": [],
    } | changes
    return json.dumps({k: v for k, v in data.items() if v is not None}).encode()


# Campaign files for /campaign import: (what, file, what the refusal must name).
CAMPAIGN_FILES = [
    ("wounds below zero", _campaign(lasting={"wounds": -5}), "wounds"),
    ("stamina of 10^30", _campaign(lasting={"stamina": 10**30}), "stamina"),
    ("plot points below zero", _campaign(lasting={"plot_points": -1}), "plot_points"),
    ("a number as text", _campaign(lasting={"wounds": "2"}), "wounds"),
    ("negative reminders", _campaign(settings={"reminder_minutes": -10}), "reminder_minutes"),
    ("true as a choice timeout", _campaign(settings={"choice_timeout_seconds": True}), "choice_timeout_seconds"),
    ("10^30 plot points to start", _campaign(settings={"starting_plot_points": 10**30}), "starting_plot_points"),
    ("a random state that is text", _campaign(state={"rng": "abc"}), "rng"),
    ("a random state that is a fraction", _campaign(state={"rng": 1.5}), "rng"),
    ("a pool below zero", _campaign(state={"rules": {"pool": -3}}), "pool"),
    ("a pool past what a database integer holds", _campaign(state={"rules": {"pool": 2**31}}), "pool"),
    ("an owner id past 64 bits", _campaign(characters=[{"name": "Nova", "owner_id": "1" + "0" * 30}]), "owner id"),
    ("an owner id that is true", _campaign(characters=[{"name": "Nova", "owner_id": True}]), "owner id"),
    ("npc as text", _campaign(characters=[{"name": "Nova", "owner_id": "1", "npc": "true"}]), "`npc`"),
    ("npc as a number", _campaign(characters=[{"name": "Nova", "owner_id": "1", "npc": 1}]), "`npc`"),
    ("version true", _campaign(version=True), "version"),
    ("version as text", _campaign(version="1"), "version is not a whole number"),
    ("no sections", _campaign(settings=None, state=None, characters=None, npcs=None), "settings"),
    ("no NPC library", _campaign(npcs=None), "npcs"),
    (
        "a sheet too long to open in a form",
        _campaign(characters=[{"name": "Nova", "owner_id": "1", "sheet": {"companion_of": "x" * 4000}}]),
        "Zombies and companions",
    ),
    (
        "100,000 nested lists",
        b'{"format": "turnkeeper-campaign", "version": 1, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        "nest",
    ),
    ("100,000 nested objects", b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "nest"),
]


def mention_injection(world: World) -> list[str]:
    carol = world.user("carol").id
    role = world.role("GM").id
    everyone = world.default_guild.id
    return [
        "@everyone",
        "@here",
        f"<@&{role}>",
        f"<@&{everyone}>",
        f"<@{carol}>",
        f"<@!{carol}>",
        "@carol",
        "@GM",
        f"hey @everyone and <@&{role}> and <@{carol}>",
        "@\u200beveryone",
        "＠everyone",
        "@ everyone",
        "@everyone" * 100,
    ]


def known_names() -> list[str]:
    """Names that exist somewhere in the test world, so some commands go through;
    Far Goblin lives in another channel, Stranger Orc in another server."""
    return [
        "Nova",
        "nova",
        " NOVA ",
        "Bulwark",
        "Shade",
        "Brute 1",
        "Brute 50",
        "Brute 51",
        "Ogre",
        "Spare",
        "Far Goblin",
        "Stranger Orc",
        "c1",
        "c999",
        "dodge",
        "dash",
        "hide",
        "swap",
        "horde",
        "unleash",
        "end scene",
        "con",
        "dex",
        "dying",
        "Stunned",
        "Prone",
        "Ongoing Damage",
        "2d6+3",
        "1d6",
        "5",
        "adv",
        "dis",
        "cover=half",
        "crit wounds=1",
        "temp",
        "split=2",
        "players",
        "gm",
        "threats",
        "heroes",
        "reroll",
        "3 rounds",
        "end of Nova's next turn",
        "save",
        "14",
        "4 6 2",
        "20 20 20 20 20",
        "KH 4C",
        "AS",
        "dex=3 avoidance=15",
        "stamina=1000 wounds=1000",
        "stamina=-1",
        "dex=99999999999999999999",
        "dr='fire:10'",
        "zombie=true zombie_level=omega",
        "damage=1000000d1000000",
    ]


def string_pool(world: World) -> list[str]:
    return (
        DICE_BOMBS
        + NUMBERS
        + MARKUP
        + UNICODE
        + INJECTION
        + mention_injection(world)
        + known_names()
        + ["", "x" * 4000, "🧟" * 2000]
    )


def _fit(value: str, option: dict[str, Any]) -> str:
    high = option.get("max_length") or 4000
    low = option.get("min_length") or 0
    value = value[:high]
    return value if len(value) >= low else (value + "x" * low)[: max(low, 1)]


def text_for(option: dict[str, Any], pool: list[str]) -> st.SearchStrategy[str]:
    pieces = st.sampled_from(pool)
    names = st.sampled_from(known_names())
    free = st.text(st.characters(exclude_categories=("Cs",), exclude_characters="\x00"), max_size=80)
    joined = st.lists(pieces, min_size=2, max_size=4).map(" ".join)
    # Markdown and links around a name that exists, so that some get through to the rules.
    marked = st.tuples(st.sampled_from(MARKUP), names).map(lambda pair: f"{pair[1]} {pair[0]}")
    return st.one_of(pieces, names, names, free, joined, marked, st.sampled_from(MARKUP)).map(lambda v: _fit(v, option))


def integer_for(option: dict[str, Any]) -> st.SearchStrategy[int]:
    low = option.get("min_value")
    high = option.get("max_value")
    low = -DISCORD_INTEGER if low is None else int(low)
    high = DISCORD_INTEGER if high is None else int(high)
    edges = [v for v in (low, high, 0, 1, -1, 20, 21, 100, -100, 2**31, -(2**31), 10**9) if low <= v <= high]
    return st.one_of(st.sampled_from(edges), st.integers(low, high))


def value_for(option: dict[str, Any], world: World, pool: list[str], guild) -> st.SearchStrategy[Any]:
    if option.get("choices"):
        return st.sampled_from([c["value"] for c in option["choices"]])
    kind = option["type"]
    if kind == STRING:
        return text_for(option, pool)
    if kind == INTEGER:
        return integer_for(option)
    if kind == NUMBER:
        return st.floats(
            allow_nan=False, allow_infinity=False, min_value=option.get("min_value"), max_value=option.get("max_value")
        )
    if kind == BOOLEAN:
        return st.booleans()
    if kind == USER:
        # carol never plays, so she is the one nobody may ever ping; eve is from another server.
        return st.sampled_from(["gm", "alice", "bob", "eve", "faye"])
    if kind == ROLE:
        return st.sampled_from([role.name for role in guild.roles.values()])
    if kind == CHANNEL:
        return st.sampled_from([channel.name for channel in guild.channels.values()])
    if kind == ATTACHMENT:
        # Files nobody can download (a closed port): whatever they say, the bot must refuse cleanly.
        return st.builds(
            lambda name, data: RecordedAttachment(
                world.ids.next(), name, "application/json", data, f"http://127.0.0.1:9/{world.ids.next()}/x.json"
            ),
            st.sampled_from(pool + ["campaign.json"]).map(lambda n: (n or "x")[:40]),
            st.binary(max_size=64),
        )
    raise AssertionError(f"no hostile values for option type {kind} ({option['name']}): extend hostile.py")


def options_for(leaf_options: list[dict[str, Any]], world: World, guild) -> st.SearchStrategy[dict[str, Any]]:
    """Every required option, and any subset of the optional ones (each left out
    two times in three, so that some commands get through to the rules)."""
    pool = string_pool(world)
    fields = {}
    for option in leaf_options:
        value = value_for(option, world, pool, guild)
        fields[option["name"]] = value if option.get("required") else st.one_of(st.none(), st.none(), value)
    return st.fixed_dictionaries(fields).map(lambda d: {k: v for k, v in d.items() if v is not None})
