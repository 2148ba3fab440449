"""The presentation seam: user-typed text literal everywhere, ✍️ on hand-entered
results, long text split or paged and never cut, every part inside Discord's limits."""

from __future__ import annotations

import re

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import lengths, paging, render, turn_posts
from bot.app import COGS, create_bot
from bot.config import Settings
from rules import registry, usertext
from rules.actions import AddCombatants, NextTurn, Note, RemoveCombatant
from rules.commands import MAX_OPTIONS
from rules.engine import apply
from rules.model import Event
from rules.rng import seed_from
from rules.said import say, seq
from rules.secrets import conceal, secret
from rules.text import Typed, english
from rules.turns.base import join_names
from tests.helpers import GM
from tests.markup import EMPHASIS, renders_markup

LINK = "[Free Nitro](https://evil.example/x)"
HOSTILE = [
    LINK,
    "[Free Nitro](evil.example)",
    "**Bold** ||spoiler||",
    "```py\nboom\n```",
    "# Heading",
    "> quote",
    "-# small",
    "__under__ ~~gone~~",
    "<#123456789012345678>",
    "<t:0:R>",
    "<:custom:123456789012345678>",
    "https://evil.example",
    "`tick`",
    "a_b_c",
    "\\*escaped\\*",
    "*" * 30,
]


def fight(system: str = "rotted-capes", names=("Hero",)):
    sys_ = registry.get(system)
    state = sys_.new_encounter(GM.user_id, seed_from(7))
    for name in names:
        state = apply(state, AddCombatants(by=GM, name=name, sheet={})).state
    return sys_, state


# --- escaping ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_literal_in_every_line_the_rules_write(name):
    system, state = fight(names=(name, "Ogre"))
    state = apply(state, NextTurn(by=GM)).state
    stored = state.combatants[0].name  # whitespace collapsed, as typed otherwise
    outcome = apply(state, RemoveCombatant(by=GM, target=stored))
    for line in render.event_lines(outcome.events).splitlines():
        assert renders_markup(line) == [], line
    for page in render.tracker_pages(system, state, reveal=True):
        assert renders_markup(page) == [], page
    content, embed, view, _, _ = turn_posts.turn_message(system, state, 3)
    for text in [content, *(f["name"] for f in embed.to_dict().get("fields", []))]:
        assert renders_markup(text) == [], text


def test_the_disguised_link_shows_its_characters_and_is_no_link():
    shown = render.shown_name(LINK)
    assert renders_markup(shown) == []
    # Discord drops each backslash before a punctuation mark: the reader sees the name as typed.
    assert re.sub(r"\\(.)", r"\1", shown) == LINK


@given(st.text(st.characters(exclude_categories=("Cs",)), max_size=60))
def test_any_typed_name_reads_back_exactly_as_typed(name):
    name = usertext.scrub(name)
    shown = render.literal(name)
    assert re.sub(r"\\(.)", r"\1", shown) == name


def test_a_name_put_in_a_phrase_stays_typed_text():
    plain = say("{who} attacks", who=usertext.user_text("Dr Rot (Unleashed)"))
    assert render.clean(plain) == "Dr Rot (Unleashed) attacks"
    bold = say("{who} attacks", who=usertext.user_text("**Boss**"))
    assert bold.value("who") == Typed("**Boss**") and render.clean(bold) == "\\*\\*Boss\\*\\* attacks"


def test_typed_text_stays_marked_through_copies_cuts_and_lists():
    system, state = fight()
    renamed = state.combatants[0].but(name="**Boss**")  # a copy skips validation; the type must not
    assert isinstance(renamed.name, usertext.UserText)
    assert isinstance(usertext.one_line("  **spell**   of doom ", 10), usertext.UserText)  # a slice alone would not be
    assert usertext.one_line("a   b") == "a b"
    shown = render.clean(seq("Tags: ", usertext.listed([usertext.user_text("_x_"), "Fire"])))
    assert shown == "Tags: \\_x\\_, Fire"
    assert english(usertext.quoted("`code` here", 8)) == "`'code' …`"  # a backtick cannot end the span early
    assert english(usertext.quoted("`code`", 8)) == "`'code'`"  # cut only when longer, and then seen to be


def test_private_use_characters_are_taken_out_of_typed_text():
    typed = "\ue003**x**\ue002\U000f0001"
    system, state = fight(names=(typed,))
    (combatant,) = state.combatants
    assert combatant.name == "**x**"
    assert renders_markup(render.event_lines([Event(kind="info", text=seq(combatant.name, " waits"))])) == []


def test_notes_and_mentions_in_names_stay_inert():
    system, state = fight()
    outcome = apply(state, Note(by=GM, text=f"{LINK} @everyone <@&5>"))
    line = render.event_lines(outcome.events)
    assert renders_markup(line) == [] and "@everyone" not in line and "<@&5>" not in line


def test_a_secret_inside_a_name_line_stays_hidden_and_the_name_literal():
    line = Event(
        kind="info",
        text=say("{who} has {n} Stamina", who=usertext.user_text("**Shade**"), n=secret(87, True)),
    )
    public = render.event_lines([line])
    assert "87" not in public and "?" in public and renders_markup(public) == []
    assert "87" in render.event_lines([line], gm=True)


def test_a_line_wholly_secret_is_the_gms_alone():
    """A line that is one hidden number would read "?" alone: it tells players only that it happened
    (a flip-off with a hidden NPC: that its initiative equals someone's), so they do not get it."""
    tie = Event(kind="roll", text=secret(say("Tie at CI {ci}", ci=15), True))
    joined = Event(kind="info", text=say("{who} joins the encounter.", who="Kit"))
    assert render.event_lines([joined, tie]) == "Kit joins the encounter."
    assert render.event_lines([joined, tie], gm=True) == "Kit joins the encounter.\n🎲 Tie at CI 15"
    assert "Tie at CI 15" in render.gm_view([joined, tie])


def test_labels_are_plain_text_within_discords_sizes():
    text = seq("Guard: ", usertext.user_text("**" + "x" * 200))
    assert len(render.label(text)) == lengths.BUTTON_LABEL
    assert render.label(text).startswith("Guard: **xx") and render.label(text).endswith("…")
    assert len(render.select_label(text)) == lengths.SELECT_LABEL
    assert render.label(seq("PD ", secret(3, True))) == "PD ?"


def test_the_log_shows_typed_text_literally_in_its_table():
    cell = render.log_cell(seq("/initiative add name:", usertext.mark(LINK + " | x")))
    assert renders_markup(cell) == [] and " | " not in cell.replace("\\|", "")
    assert render.log_cell("Bob's | turn") == "Bob's \\| turn"


# --- marks ------------------------------------------------------------------------------
def test_an_entered_roll_carries_the_mark_and_a_generated_one_does_not():
    system, state = fight(names=())
    entered = apply(state, AddCombatants(by=GM, name="Zombie", count=3, dice=(5, 7, 9), sheet={}))
    assert [e.entered for e in entered.events if e.kind == "roll"] == [True, True, True]
    shown = render.event_lines(entered.events)
    assert shown.count(render.ENTERED) == 3 and "🎲 ✍️ Zombie 1 initiative" in shown
    rolled = apply(state, AddCombatants(by=GM, name="Ghoul", count=2, sheet={}))
    assert render.ENTERED not in render.event_lines(rolled.events)
    assert not any(e.entered for e in rolled.events)


def test_the_log_summary_carries_the_mark():
    system, state = fight(names=())
    outcome = apply(state, AddCombatants(by=GM, name="Zombie", dice=(5,), sheet={}))
    assert not english(outcome.summary).startswith(render.ENTERED)  # "Zombie joins" used no die
    first_roll = next(e for e in outcome.events if e.kind == "roll")
    assert first_roll.entered


# --- splitting and paging -----------------------------------------------------------------
def test_split_keeps_every_character_and_every_line():
    lines = [f"🎲 Zombie {n} initiative: d20 {n % 20 + 1} + 0 = {n % 20 + 1}" for n in range(1, 201)]
    text = "\n".join(lines)
    chunks = render.split(text)
    assert len(chunks) > 1 and all(len(c) <= lengths.CONTENT_LIMIT for c in chunks)
    assert "\n".join(chunks) == text


def test_split_cuts_an_overlong_line_without_losing_it():
    line = "word " * 1000
    chunks = render.split(line.strip())
    assert all(len(c) <= lengths.CONTENT_LIMIT for c in chunks)
    assert " ".join(chunks).split() == line.split()


def test_sixty_combatants_the_tracker_opens_on_the_current_turn():
    # Fightin' Words rerolls ties: sixty combatants, sixty lines.
    system, state = fight("fightin-words", names=[f"Brute {n}" for n in range(60)])
    state = apply(state, NextTurn(by=GM)).state
    pages = render.tracker_pages(system, state)
    assert len(pages) >= 3
    for _ in range(45):
        state = apply(state, NextTurn(by=GM)).state
    embed = render.tracker_embed(system, state, 1)
    assert "▶️" in embed.description
    page = render.current_page(system, state)
    assert page > 1 and f"page {page}/" in embed.footer.text
    assert len(embed) <= 6000 and all(len(p) <= lengths.EMBED_DESCRIPTION for p in pages)


def test_initiative_order_pages_with_buttons():
    system, state = fight("fightin-words", names=[f"Brute {n}" for n in range(60)])
    embed, view = paging.tracker_page(system, state, 9, 2)
    ids = [item.custom_id for item in view.children]
    assert ids[0] == "tk:page:order:9:1" and ids[-1] == "tk:page:order:9:3"
    assert "page 2/" in embed.footer.text


class Record:
    def __init__(self, name, owner=5):
        self.name, self.owner_id, self.system = name, owner, "rotted-capes"


def test_a_long_name_never_hides_the_characters_after_it():
    records = [Record("x" * 4000), *(Record(f"Hero {n}") for n in range(40))]
    shown = []
    content, view = paging.character_page(records, None, 1)
    pages = int(re.search(r"Page 1/(\d+)", content).group(1))
    for page in range(1, pages + 1):
        content, _ = paging.character_page(records, None, page)
        assert len(content) <= lengths.CONTENT_LIMIT
        shown += re.findall(r"Hero \d+", content)
    assert shown == [f"Hero {n}" for n in range(40)]


# --- limits --------------------------------------------------------------------------------
def test_embeds_are_cut_to_discords_limits():
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for _ in range(30):
        embed.add_field(name="n" * 300, value="v" * 2000)
    render.fit_embed(embed)
    assert len(embed.title) <= 256 and len(embed.description) <= 4096 and len(embed.fields) <= 25
    assert all(len(f.name) <= 256 and len(f.value) <= 1024 for f in embed.fields) and len(embed) <= 6000


def test_the_bot_checks_text_lengths_itself():
    assert lengths.too_long([("name", "x" * 64), ("text", "y" * 500), ("stats", "z" * 1000)]) is None
    problem = lengths.too_long([("name", "x" * 65)])
    assert problem and "64" in english(problem)
    assert lengths.too_long([("dice", "1 " * 201)]) and lengths.too_long([("whatever", "w" * 201)])
    nested = {"options": [{"type": 1, "name": "add", "options": [{"name": "name", "value": "x" * 4000}]}]}
    assert lengths.too_long(lengths.typed_options(nested))


async def test_every_text_option_declares_its_limit():
    bot = create_bot(Settings(discord_token="x", database_url="sqlite+aiosqlite:///:memory:"))
    for name in COGS:
        await bot.load_extension(name)
    lengths.declare(bot.tree.get_commands())
    missing = []

    def walk(options, path):
        for option in options:
            if option["type"] in (1, 2):
                walk(option.get("options", []), f"{path} {option['name']}")
            elif option["type"] == 3 and not option.get("choices"):
                if option.get("max_length") is None or option["max_length"] > lengths.limit_for(option["name"]):
                    missing.append(f"{path} {option['name']}")

    for command in bot.tree.get_commands():
        data = command.to_dict(bot.tree)
        walk(data.get("options", []), f"/{data['name']}")
    assert missing == []


async def test_the_client_counts_down_to_what_the_rules_read_of_options_and_settings():
    bot = create_bot(Settings(discord_token="x", database_url="sqlite+aiosqlite:///:memory:"))
    for name in COGS:
        await bot.load_extension(name)
    lengths.declare(bot.tree.get_commands())
    declared = {}

    def walk(options, path):
        for option in options:
            if option["type"] in (1, 2):
                walk(option.get("options", []), f"{path} {option['name']}")
            elif option["name"] in ("options", "settings"):
                declared[f"{path} {option['name']}"] = option.get("max_length")

    for command in bot.tree.get_commands():
        data = command.to_dict(bot.tree)
        walk(data.get("options", []), f"/{data['name']}")
    assert "/campaign setup settings" in declared and "/attack options" in declared
    assert set(declared.values()) == {MAX_OPTIONS}, declared


@pytest.mark.parametrize("system", ["rotted-capes", "fightin-words", "factions", "99-towers", "frozen-lands"])
def test_emphasis_in_a_name_is_escaped_in_the_turn_ping_and_tracker(system):
    rules_system, state = fight(system, names=("**Boss** _x_",))
    state = apply(state, AddCombatants(by=GM, name="Hero", sheet={}, npc=False, controller_id=2)).state
    state = apply(state, NextTurn(by=GM)).state
    content, embed, *_ = turn_posts.turn_message(rules_system, state, 1)
    tracker = render.tracker_embed(rules_system, state, 1).description
    for text in (tracker, *(f["name"] for f in embed.to_dict().get("fields", []) if "Boss" in f["name"])):
        assert "\\*\\*Boss\\*\\* \\_x\\_" in text, text
    if "Boss" in content:
        assert "\\*\\*Boss\\*\\*" in content, content


def test_joined_names_stay_marked():
    names = [usertext.user_text("**A**"), usertext.user_text("B"), usertext.user_text("[C](https://x.y)")]
    shown = render.clean(say("{names}'s turn", names=join_names(names)))
    assert "\\*\\*A\\*\\*" in shown and renders_markup(shown) == []
    assert render.clean(say("{names}'s turn", names=join_names(names[:1]))) == "\\*\\*A\\*\\*'s turn"


class Interaction:
    type = discord.InteractionType.application_command

    def __init__(self, data):
        self.data = data


def test_the_logged_command_keeps_its_options_and_hides_a_hidden_npcs_sheet():
    options = [
        {"name": "name", "type": 3, "value": "Shade"},
        {"name": "hidden", "type": 5, "value": True},
        {"name": "stats", "type": 3, "value": "stamina=737 fortitude=19"},
        {"name": "roll", "type": 4, "value": 7},
    ]
    data = {"name": "initiative", "options": [{"type": 1, "name": "add", "options": options}]}
    line = render.command_line(Interaction(data), "/initiative add")
    assert conceal(render.log_cell(line)) == "/initiative add name:Shade hidden:True stats:(hidden) roll:7"
    shown = render.command_line(
        Interaction(
            {
                "name": "encounter",
                "options": [{"type": 1, "name": "note", "options": [{"name": "text", "type": 3, "value": LINK}]}],
            }
        ),
        "/encounter note",
    )
    assert renders_markup(conceal(render.log_cell(shown))) == []


def test_the_values_entered_in_a_logged_command_hide_when_a_hidden_combatant_took_part():
    options = [
        {"name": "target", "type": 3, "value": "Nova"},
        {"name": "modifier", "type": 4, "value": 2},
        {"name": "damage", "type": 3, "value": "2d6+3"},
        {"name": "dice", "type": 3, "value": "12 3 4"},
        {"name": "cards", "type": 3, "value": "QS 5D"},
    ]
    line = render.command_line(Interaction({"name": "attack", "options": options}), "/attack")
    typed = '/attack target:Nova modifier:2 damage:2d6+3 dice:"12 3 4" cards:"QS 5D"'
    assert render.log_cell(line, command=True) == typed  # nobody hidden: as typed
    hidden = render.hiding_entered(line)
    assert render.log_cell(hidden, command=True) == "/attack target:Nova modifier:? damage:? dice:? cards:?"
    assert render.log_cell(hidden, command=True, gm=True) == typed
    assert render.hiding_entered("End turn (button)") == "End turn (button)"


@pytest.mark.parametrize("text", HOSTILE)
def test_cleaning_twice_changes_nothing_more(text):
    once = render.clean(text)
    assert render.clean(once) == once and renders_markup(once) == []


# --- the oracle for typed emphasis (tests/markup.py) -----------------------------------------
@pytest.mark.parametrize("payload", EMPHASIS)
def test_the_oracle_flags_a_typed_emphasis_shown_raw_and_passes_it_shown_literally(payload):
    line = f"Ogre takes 3 {payload} damage"
    assert renders_markup(line) == ["emphasis"]
    shown = render.clean(seq("Ogre takes 3 ", usertext.mark(payload), " damage"))
    assert renders_markup(f"**Round 1** {shown}") == []
    assert renders_markup(f"Could not read {english(usertext.quoted(payload))}") == []  # a code span shows it as typed
    # A button shows no markup: there the payload must read as typed, never with backslashes.
    assert renders_markup(payload, shows="plain") == []
    assert renders_markup(render.literal(payload), shows="plain") == ["backslashes in plain text"]


@given(st.lists(st.sampled_from(EMPHASIS), min_size=1, max_size=3).map("".join), st.sampled_from(["", "Axe", "fire "]))
def test_any_typed_emphasis_the_rules_mark_is_shown_literally(payload, before):
    text = f"{before}{payload}"
    assert "emphasis" in renders_markup(text)
    shown = render.clean(seq(usertext.user_text(text), " breaks"))
    assert renders_markup(shown) == [] and shown.replace("\\", "") == f"{text} breaks"


def test_a_typed_at_sign_is_broken_once():
    # One zero-width space keeps a mention from forming; a second is one more invisible character copied along.
    shown = render.clean(Typed("@everyone and <@123456789012345678>"))
    assert "@\u200beveryone" in shown and "@\u200b123456789012345678" in shown and shown.count("\u200b") == 2


@pytest.mark.parametrize("text", ["a" * 9 + "\\*bold", "a" * 8 + "\\\\\\*x"])
def test_a_cut_never_leaves_a_lone_backslash_before_its_ellipsis(text):
    cut = render.fit(text, 11)
    assert cut.endswith("…") and len(cut) <= 11
    trailing = len(cut[:-1]) - len(cut[:-1].rstrip("\\"))
    assert trailing % 2 == 0
