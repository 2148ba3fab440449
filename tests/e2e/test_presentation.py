"""The presentation seam through real discord.py and the stand-in: user-typed text is
literal in every kind of message, hand-entered results carry ✍️, long replies are
split and long lists paged (never cut), and the bot enforces its own length limits."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from bot.standin import interactions as ix
from bot.standin.records import iter_components
from tests.e2e.conftest import say
from tests.markup import EMPHASIS, markup_in

LINK = "[Free Nitro](https://evil.example/x)"
FENCE = "```py boom``` **Boss** ||x||"
NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3"


def unescaped(text: str) -> str:
    """What a reader sees: Discord drops the backslash before an escaped character."""
    return re.sub(r"\\(.)", r"\1", text)


async def test_hostile_names_and_notes_are_literal_in_every_message(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    stored = await say(standin, "alice", "/character add", name=LINK, stats=NOVA)
    assert unescaped(LINK) in unescaped(stored.content)
    await say(standin, "gm", "/encounter start")
    joined = await say(standin, "alice", "/initiative join", character=LINK, roll=14)
    assert LINK in unescaped(joined.content)
    await say(standin, "gm", "/initiative add", name=FENCE, roll=3, stats="stamina=5")
    await say(standin, "gm", "/encounter note", text=f"{LINK} said `hi` > to <#1> __all__")
    await say(standin, "gm", "/initiative next")
    await say(standin, "alice", "/attack", target=FENCE, dice="15 3 4")
    await say(standin, "alice", "/character list")
    await say(standin, "gm", "/encounter status")
    await say(standin, "gm", "/initiative order")
    log = await say(standin, "gm", "/encounter log")
    await bot.idle.wait()
    rows = log.attachments[0].data.decode()
    assert "[Free Nitro]" not in rows.replace("\\[", "") and "<@" not in rows  # readable "who", literal names
    assert "/initiative add name:" in rows and "roll:3" in rows  # the command with its options
    assert markup_in(standin.messages()) == []
    tracker = standin.book.pinned_in(standin.channel("combat"))[0]
    assert LINK in unescaped(tracker.embeds[0]["description"])
    turn = next(m for m in standin.messages() if "turn**" in m.content and m.buttons())
    assert "Free Nitro" in turn.content


async def test_hand_entered_results_carry_the_mark(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "gm", "/encounter start")
    entered = await say(standin, "gm", "/initiative add", name="Zombie", count=2, dice="5 12")
    assert "🎲 ✍️ Zombie 1 initiative: d20 5" in entered.content
    assert "🎲 ✍️ Zombie 2 initiative: d20 12" in entered.content
    short = await say(standin, "gm", "/initiative add", name="Wight", count=2, roll=5)
    assert short.ephemeral and "Too few dice" in short.content  # never half entered, half rolled
    rolled = await say(standin, "gm", "/initiative add", name="Ghoul")
    assert "✍️" not in rolled.content
    await say(standin, "gm", "/initiative next")
    log = await say(standin, "gm", "/encounter log")
    rows = log.attachments[0].data.decode()
    assert "✍️ Zombie 1, Zombie 2 join" not in rows  # the joining line used no die


async def test_twenty_rolls_are_split_never_cut(standin, bot):
    await say(standin, "gm", "/campaign setup", system="fightin-words")
    await say(standin, "gm", "/encounter start")
    name = "Ogre of the Very Long and Extremely Tedious Name"
    handle = await standin.invoke("gm", "/initiative add", name=name, count=20)
    await handle.response()
    await bot.idle.wait()
    messages = handle.messages
    text = "\n".join(m.content for m in messages)
    assert len(messages) >= 1 and all(len(m.content) <= 2000 for m in messages)
    assert all(f"{name} {n} initiative" in text for n in range(1, 21)), text
    assert "…" not in text


async def test_a_shared_turn_of_many_long_names_keeps_its_turn_message_whole(standin, bot):
    """Forty NPCs of long names on one initiative share a turn: the turn message names the first ten
    (as its fields show them) and counts the rest, so its heading and round are never cut off."""
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "gm", "/encounter start")
    name = "**Zq** Lieutenant of the Very Long and Rather Tedious Name"
    await say(standin, "gm", "/initiative add", name=name, count=40, dice=" ".join(["7"] * 40))
    await say(standin, "gm", "/initiative next")
    await bot.idle.wait()
    turn = next(m for m in reversed(standin.messages()) if m.buttons())
    assert len(turn.content) <= 2000
    assert turn.content.endswith("and 30 more's turn** · round 1"), turn.content[-200:]
    assert "Name 10" in turn.content and "Name 11" not in turn.content


async def test_sixty_combatants_page_and_the_turn_marker_never_vanishes(standin, bot):
    await say(standin, "gm", "/campaign setup", system="fightin-words")
    await say(standin, "gm", "/encounter start")
    for group in ("Brute", "Ghoul", "Imp"):
        await say(standin, "gm", "/initiative add", name=group, count=20)
    await say(standin, "gm", "/initiative next")
    for _ in range(45):
        answer = await say(standin, "gm", "/initiative next")
        assert not answer.ephemeral, answer.content
    await bot.idle.wait()
    tracker = standin.book.pinned_in(standin.channel("combat"))[0]
    assert "▶️" in tracker.embeds[0]["description"]
    page = int(re.search(r"page (\d+)/(\d+)", tracker.embeds[0]["footer"]["text"]).group(1))
    assert page > 1

    order = await say(standin, "alice", "/initiative order")
    assert "▶️" in order.embeds[0]["description"]
    pages = int(re.search(r"page \d+/(\d+)", order.embeds[0]["footer"]["text"]).group(1))
    seen = set()
    message = order
    for _ in range(pages):  # back to page 1, then forward through all of them
        if message.has_component(label="◀") and not message.find_component(label="◀").get("disabled"):
            message = await (await standin.click("bob", "◀", message=message)).response()
    for number in range(1, pages + 1):
        assert f"page {number}/{pages}" in message.embeds[0]["footer"]["text"]
        seen.update(re.findall(r"(?:Brute|Ghoul|Imp) \d+", message.embeds[0]["description"]))
        if number < pages:
            message = await (await standin.click("bob", "▶", message=message)).response()
    assert len(seen) == 60


async def test_the_character_list_pages(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    for n in range(40):
        await say(standin, "alice" if n % 2 else "bob", "/character add", name=f"Hero {n:02} " + "x" * 50, stats=NOVA)
    listing = await say(standin, "alice", "/character list")
    pages = int(re.search(r"Page 1/(\d+)", listing.content).group(1))
    seen = re.findall(r"Hero (\d\d)", listing.content)
    message = listing
    for _ in range(pages - 1):
        message = await (await standin.click("alice", "▶", message=message)).response()
        seen += re.findall(r"Hero (\d\d)", message.content)
    assert sorted(seen) == [f"{n:02}" for n in range(40)]


async def test_the_bot_refuses_text_longer_than_its_limits_even_from_a_modified_client(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    commands = await standin.wait_for_commands(global_=True)
    add = next(c for c in commands if c["name"] == "character")
    option = next(o for o in add["options"] if o["name"] == "add")
    name_option = next(o for o in option["options"] if o["name"] == "name")
    assert name_option["max_length"] <= 64
    # A client that ignores max_length: the same command with a 4,000-character name.
    user, channel = standin.world.user("alice"), standin.channel("combat")
    _, data = standin._command_data(user, channel, "/character add", {"name": "Short"})
    data["options"][0]["options"][0]["value"] = "N" * 4000
    handle = standin._send_interaction(ix.APPLICATION_COMMAND, user, channel, data, "alice: /character add (long)")
    refusal = await handle.response()
    assert refusal.ephemeral and "limited to" in refusal.content
    listing = await say(standin, "alice", "/character list")
    assert "NNNN" not in listing.content


async def test_a_modified_client_is_held_to_a_commands_own_tighter_limit(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats="dex=2")
    user, channel = standin.world.user("alice"), standin.channel("combat")
    _, data = standin._command_data(user, channel, "/check", {"character": "Nova", "kind": "save"})
    kind = next(o for o in data["options"] if o["name"] == "kind")
    kind["value"] = "k" * 100  # within what other text may hold (200), past the 60 /check declares for it
    handle = standin._send_interaction(ix.APPLICATION_COMMAND, user, channel, data, "alice: /check (long)")
    refusal = await handle.response()
    assert refusal.ephemeral and "`kind` is limited to 60 characters" in refusal.content, refusal.content


async def test_removing_the_last_combatant_is_answered_sensibly(standin, bot):
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Ghoul")
    await say(standin, "gm", "/initiative next")
    answer = await say(standin, "gm", "/initiative remove", combatant="Ghoul")
    assert not answer.ephemeral and "stuck" not in answer.content and "Nobody is left" in answer.content
    back = await say(standin, "gm", "/initiative add", name="Wight")
    assert not back.ephemeral
    again = await say(standin, "gm", "/initiative next")
    assert not again.ephemeral, again.content


async def test_help_is_an_embed_with_a_section_menu(standin, bot):
    answer = await say(standin, "gm", "/help", system="99-towers")
    (select,) = [c for row in answer.components for c in row["components"] if c["type"] == 3]
    assert 2 < len(select["options"]) <= 25 and all(len(o["label"]) <= 100 for o in select["options"])
    shown = await (
        await standin.select("gm", [select["options"][2]["value"]], custom_id=select["custom_id"], message=answer)
    ).response()
    assert shown.embeds[0]["title"].endswith(select["options"][2]["label"])
    assert len(shown.embeds[0]["description"]) <= 4096


@pytest.mark.parametrize("value", ["²", "9" * 5000])
async def test_a_help_section_never_offered_shows_the_first(standin, bot, value):
    answer = await say(standin, "gm", "/help", system="99-towers")
    (menu,) = [c for row in answer.components for c in row["components"] if c["type"] == 3]
    data = {"custom_id": menu["custom_id"], "component_type": 3, "values": [value]}  # as a modified client sends
    shown = await standin._use(standin.world.user("gm"), answer, menu, data, "gm: a section never offered").response()
    assert shown.embeds[0]["title"].endswith(menu["options"][0]["label"]), shown.embeds


async def test_the_sandbox_does_not_talk_about_voice(caplog):
    import io

    import discord

    from bot.sandbox import sandbox

    # As on a machine without PyNaCl and davey: discord.py warns once per process, at the first client.
    discord.VoiceClient.warn_nacl = True
    discord.VoiceClient.warn_dave = True
    out = io.StringIO()
    with caplog.at_level("WARNING"):
        code = await sandbox("gm: /help", system="rotted-capes", seed=1, out=out)
    assert code == 0
    assert "voice" not in caplog.text and "voice" not in out.getvalue()


# --- every free-text option of every system ---------------------------------------------
# A fight per system: `{}` in an option takes a payload (`EMPHASIS`). The commands reach the
# rules (conditions, tags, durations, notes, weapons, zones, reasons, damage types, /act
# text, `options:` values, weapon names in sheets) and the reports and the log repost what
# they stored. A step marked False may be refused (the rules check that text): its refusal
# is checked like any other message.
Step = tuple  # (user, command, options[, must be accepted])
FIGHTS: dict[str, list[Step]] = {
    "rotted-capes": [
        ("gm", "/initiative add", dict(name="Nova", player="alice", roll=14, stats="avoidance=12 stamina=30")),
        ("gm", "/initiative add", dict(name="Bolt", player="bob", roll=13, stats="avoidance=12 stamina=30")),
        ("gm", "/initiative add", dict(name="Ogre", roll=3, stats="avoidance=10 stamina=60 wounds=3")),
        ("gm", "/initiative add", dict(name="Zombie", count=5, dice="2 2 2 2 2", stats="zombie=true avoidance=8")),
        ("gm", "/initiative next", {}),
        ("gm", "/attack", dict(actor="Nova", target="Ogre", weapon="{}", damage="2d6", options="free", dice="15 3 4")),
        ("alice", "/attack", dict(target="Ogre", weapon="{}", defense="{}", options="free", dice="15 3 4"), False),
        ("alice", "/act", dict(action="demanding", options="what={} interruptible")),
        ("alice", "/act", dict(action="{}"), False),
        ("gm", "/act", dict(action="horde", target="Zombie", options="name={}")),
        ("gm", "/condition add", dict(target="Ogre", condition="{}", tags="{}, {}", duration="{}"), False),
        ("gm", "/condition add", dict(target="Ogre", condition="Stunned", tags="{}, {}", duration="2 rounds")),
        (
            "gm",
            "/condition add",
            dict(target="Ogre", condition="Ongoing Damage", tags="{}", options="damage=1d6 dc=12"),
        ),
        (
            "gm",
            "/condition add",
            dict(target="Ogre", condition="Frightened", tags="{}", options="dc=12 save={}"),
            False,
        ),
        (
            "gm",
            "/condition add",
            dict(target="Ogre", condition="Frightened", tags="{}", options="dc=12 save=wis by={}"),
        ),
        ("gm", "/condition remove", dict(target="Ogre", condition="{}"), False),
        ("gm", "/damage", dict(target="Ogre", amount="3", damage_type="{}"), False),
        ("gm", "/save", dict(actor="Ogre", kind="{}", dc=10, dice="12 12"), False),
        ("alice", "/plotpoint spend", dict(use="narrative", actor="Nova", text="{}")),
        ("gm", "/plotpoint award", dict(target="Nova", text="{}")),
        ("gm", "/plotpoint pool", dict(text="{}")),
        ("gm", "/choose", dict(option="{}"), False),
        ("gm", "/condition list", {}),
        ("gm", "/plotpoint show", {}),
        ("alice", "/initiative next", {}),
        ("bob", "/act", dict(action="ready", options="trigger={}")),
        ("bob", "/initiative next", {}),
        ("gm", "/initiative next", {}),
    ],
    "fightin-words": [
        (
            "gm",
            "/initiative add",
            dict(name="Mauve", player="alice", roll=4, stats="reflex=3 weapon_skill=3 weapons='{}:1d8'"),
        ),
        ("gm", "/initiative add", dict(name="Goblin", roll=1, stats="reflex=1 weapons='spear:1d6'")),
        ("gm", "/initiative next", {}),
        ("alice", "/act", dict(action="spend", options="seconds=1 what={}")),
        ("alice", "/act", dict(action="cast", target="Goblin", options="seconds=1 spell={} delay=1")),
        ("alice", "/act", dict(action="{}"), False),
        ("alice", "/attack", dict(target="Goblin", dice="5 4")),
        ("gm", "/choose", dict(option="{}"), False),
        ("gm", "/choose", dict(option="Dodge", dice="1")),
        ("alice", "/attack", dict(target="Goblin", weapon="{}", damage_type="{}", dice="5 4"), False),
        ("gm", "/choose", dict(option="Dodge", dice="1"), False),
        ("alice", "/attack", dict(target="Goblin", options="called={} cover={}", dice="5 4"), False),
        ("gm", "/choose", dict(option="Dodge", dice="1"), False),
        ("gm", "/condition add", dict(target="Goblin", condition="{}", duration="{}"), False),
        ("gm", "/condition add", dict(target="Goblin", condition="staggered", duration="{}"), False),
        ("gm", "/condition remove", dict(target="Goblin", condition="{}"), False),
        ("gm", "/damage", dict(target="Goblin", amount="1", damage_type="{}", options="called={}"), False),
        ("gm", "/damage", dict(target="Goblin", amount="fall", options="height=3 surface={}"), False),
        ("gm", "/save", dict(actor="Goblin", kind="{}", dc=5, roll=4), False),
        ("gm", "/choose", dict(option="{}"), False),
        ("gm", "/initiative next", {}, False),
        ("gm", "/initiative next", {}, False),
    ],
    "99-towers": [
        (
            "gm",
            "/initiative add",
            dict(
                name="Tony", player="alice", cards="KH 4C", stats="init=2 pa=4 pd=3 stun=12 lethal=6 weapons='{}: 4+px'"
            ),
        ),
        (
            "gm",
            "/initiative add",
            dict(name="Bandit", cards="9D", stats="init=1 pa=3 pd=2 stun=10 lethal=3 weapons='Club: 2+hs'"),
        ),
        ("gm", "/initiative next", {}),
        ("alice", "/act", dict(action="talk", options="text={}"), False),
        ("alice", "/attack", dict(target="Bandit", damage_type="{}", cards="KH 9H 3C 5S 7D")),
        ("gm", "/choose", dict(option="{}"), False),
        ("alice", "/attack", dict(target="Bandit", weapon="{}", cards="KH 9H 3C 5S 7D"), False),
        ("gm", "/condition add", dict(target="Bandit", condition="{}", duration="{}", tags="{}"), False),
        (
            "gm",
            "/condition add",
            dict(target="Bandit", condition="{}", duration="2 phases", tags="minor", options="arcane"),
        ),
        ("gm", "/condition remove", dict(target="Bandit", condition="{}"), False),
        ("gm", "/damage", dict(target="Bandit", amount="2", damage_type="{}", options="type={}")),
        ("gm", "/save", dict(actor="Bandit", kind="{}", dc=3), False),
    ],
    "frozen-lands": [
        (
            "gm",
            "/initiative add",
            dict(name="Astrid", player="alice", roll=4, stats="body=3 agility=3 melee=2 weapon=Shortsword"),
        ),
        ("gm", "/initiative add", dict(name="Wolf", stats="initiative=2 damage=3 defense=1 stamina=6")),
        ("gm", "/act", dict(action="zone", options="name={} dim")),
        ("gm", "/act", dict(action="zone", options="name={} {}"), False),
        ("gm", "/act", dict(action="place", target="Wolf", options="zone={}"), False),
        ("gm", "/initiative next", dict(dice="1 1")),  # the players go first
        ("alice", "/act", dict(action="move", options="to={}"), False),
        ("alice", "/act", dict(action="other", options="label={} skill={}"), False),
        ("alice", "/act", dict(action="other", options="label={}")),
        ("alice", "/act", dict(action="{}"), False),
        ("alice", "/attack", dict(target="Wolf", weapon="{}", options="range={} light={}"), False),
        ("gm", "/damage", dict(target="Astrid", amount="8")),  # broken: the next hit is a Wound
        ("gm", "/damage", dict(target="Astrid", amount="8")),
        ("gm", "/condition add", dict(target="Astrid", condition="injury", tags="{}")),
        ("gm", "/condition add", dict(target="Astrid", condition="{}", tags="{}"), False),
        ("gm", "/condition remove", dict(target="Astrid", condition="{}"), False),
        ("gm", "/damage", dict(target="Wolf", amount="1", damage_type="{}"), False),  # only `stress`: refused
        ("gm", "/save", dict(actor="Astrid", kind="{}", roll=4), False),
        ("gm", "/choose", dict(option="{}"), False),
    ],
    "factions": [
        ("gm", "/initiative add", dict(name="Spy", side="{}"), False),  # a faction's name is letters and digits
        ("gm", "/initiative add", dict(name="Balthasar", player="alice", stats="health=12 weapons='{}:d6'")),
        ("gm", "/initiative add", dict(name="Bandit", side="bandits", stats="health=10 weapons='axe:d6, bow:d6:8'")),
        ("gm", "/turn initiative", dict(faction="{}"), False),
        ("gm", "/turn initiative", dict(faction="players")),
        ("gm", "/initiative next", {}),
        ("gm", "/turn first", dict(faction="{}"), False),
        ("alice", "/turn take", dict(character="Balthasar"), False),
        ("alice", "/act", dict(action="bonus", options="text={}"), False),
        ("alice", "/act", dict(action="main", options="text={}"), False),
        ("alice", "/act", dict(action="pick_up", options="weapon={}"), False),
        ("alice", "/act", dict(action="{}"), False),
        ("alice", "/attack", dict(target="Bandit", weapon="{}", options="stunt={} take={}", dice="2"), False),
        ("gm", "/condition add", dict(target="Bandit", condition="{}", options="by={}"), False),
        ("gm", "/condition add", dict(target="Bandit", condition="grabbed", options="by={}"), False),
        ("gm", "/save", dict(actor="Bandit", kind="wit", options="why={}", roll=3), False),
        ("gm", "/damage", dict(target="Bandit", amount="1", damage_type="{}"), False),  # unused in Factions: refused
        ("gm", "/choose", dict(option="{}"), False),
    ],
}
REPORTS: list[Step] = [
    ("gm", "/encounter note", dict(text="{} and {}")),
    ("gm", "/encounter status", {}),
    ("alice", "/initiative order", {}),
    ("gm", "/encounter log", {}),
]
# A payload alone, several run together, or after an ordinary word: never with a space,
# so that it stays one `name=value` in the options.
PAYLOADS = st.one_of(
    st.sampled_from(EMPHASIS),
    st.lists(st.sampled_from(EMPHASIS), min_size=2, max_size=3).map("".join),
    st.tuples(st.sampled_from(["Axe", "Hall", "fire"]), st.sampled_from(EMPHASIS)).map("".join),
)


def filled(value, data, label: str):
    """The option's value with a drawn payload in each `{}`."""
    if not isinstance(value, str):
        return value
    return re.sub(r"\{\}", lambda _: data.draw(PAYLOADS, label=label), value)


@pytest.mark.parametrize("system", sorted(FIGHTS))
@settings(
    max_examples=3,
    deadline=None,
    derandomize=True,
    phases=(Phase.generate,),  # a fight is not replayed to shrink it: the channel has moved on
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
async def test_typed_emphasis_is_literal_in_every_system(standin, bot, system, data):
    # One bot for every example: each draws new payloads for a new fight in the same channel.
    await say(standin, "gm", "/campaign setup", system=system)
    if not (await say(standin, "gm", "/encounter end")).content.startswith("⛔"):  # an example that failed
        await (await standin.click("gm", "End the encounter")).response()
    first = len(standin.book.messages)
    await say(standin, "gm", "/encounter start")
    for user, command, options, *accepted in FIGHTS[system] + REPORTS:
        typed = {k: filled(v, data, f"{command} {k}") for k, v in options.items()}
        answer = await say(standin, user, command, **typed)
        if accepted != [False]:
            assert not answer.content.startswith("⛔"), f"{command} {typed}: {answer.content}"
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()
    await bot.idle.wait()
    problems = markup_in(standin.book.messages[first:])
    assert problems == [], "\n".join(problems)


def menu_labels(message, standin) -> list[str]:
    components = message.payload(standin.world).get("components") or []
    return [option["label"] for c in iter_components(components) for option in c.get("options") or []]


async def test_an_option_naming_a_typed_weapon_is_chosen_as_its_button_reads(standin, bot):
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Theobald", player="alice", stats="health=12 weapons='spear:d6'")
    await say(standin, "gm", "/initiative add", name="Leader", side="bandits", stats="health=10 weapons='**Axe**:d8'")
    await say(standin, "gm", "/turn initiative", faction="players")
    await say(standin, "gm", "/initiative next")
    await say(standin, "alice", "/turn take", character="Theobald")
    await say(standin, "alice", "/attack", target="Leader", weapon="spear", dice="4")
    await bot.idle.wait()
    # Seven reactions (counters with each weapon and each manoeuvre): offered in a menu.
    question = next(m for m in standin.messages() if "Counter: **Axe**" in menu_labels(m, standin))
    assert "React?" in question.content
    chosen = await say(standin, "gm", "/choose", option="Counter: **Axe**", dice="5")
    assert not chosen.ephemeral, chosen.content
    assert "Chosen: Counter: **Axe**." in unescaped(chosen.content)  # read as typed…
    assert "\\*\\*Axe\\*\\*" in chosen.content and "counters with the **Axe**" not in chosen.content  # …never bold
    assert markup_in(standin.messages()) == []
