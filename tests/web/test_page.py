"""The fight's page and its event stream, read through aiohttp's test client: what they show, what they never
show (a hidden NPC's numbers), escaping of hostile names, headers, links that no longer work, limits."""

from __future__ import annotations

import asyncio
import html
import re
import time
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest

from bot import translation
from bot.clock_image import MAX_TOKENS
from bot.tables import utcnow
from bot.web import server
from bot.web.page import clock_svg, view
from bot.web.server import MAX_STREAMS_PER_VISITOR, PAGE_BURST, document
from bot.web.shares import Share
from rules import registry, usertext
from rules.numbers import MINUS
from rules.systems.factions import SYSTEM as FACTIONS
from rules.systems.fightin_words import SYSTEM as FIGHTIN_WORDS
from rules.systems.towers import SYSTEM as TOWERS
from rules.text import english
from tests.catalogs import pseudo_language
from tests.e2e.conftest import say
from tests.rules.test_factions_helpers import SYBILLA, seed_cast, start, take
from tests.rules.test_fightin_words_conditions import sleeper
from tests.rules.test_towers_helpers import BANDIT, add, begin, command, new
from tests.web.conftest import next_state, page_server, shared

KEY = "rotted-capes"
# The hidden Shade's numbers: none may reach a page.
SECRETS = ("937", "59", "47")
HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "\u202eevil\u202c",
    "</li></ol><h1>x</h1>",
    "<svg onload=alert(1)>",
    "javascript:alert(1)",
    "&lt;b&gt;",
    "</script><script>alert(1)</script>",
    'x" onmouseover="alert(1)',
    "**bold** ~~gone~~ `code` ||spoiler||",
    "zero\u200bwidth \u2066open",
    'Tom & "Jerry\'s" <script>**x**</script>',
]
# Every tag a page is made of; anything else came from someone's text.
TAGS = {
    "html", "head", "meta", "title", "link", "script", "noscript", "body", "main", "header", "h1", "h2", "p",
    "div", "ol", "ul", "li", "span", "s", "strong", "bdi", "section", "svg", "rect", "text", "circle", "b",
}  # fmt: skip


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag, attrs):
        self.seen.append((tag, attrs))


def tags_of(markup: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = Tags()
    parser.feed(markup)
    return parser.seen


def assert_harmless(markup: str) -> None:
    for tag, attrs in tags_of(markup):
        assert tag in TAGS, (tag, markup)
        assert not any(name.startswith("on") for name, _ in attrs), (tag, attrs)
        if tag == "script":
            assert dict(attrs).get("src") == "../static/page.js"


async def setup_fight(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(
        standin,
        "alice",
        "/character add",
        name="Tank",
        stats="dex=1 avoidance=14 fortitude=8 stamina=200 wounds=3 dr='kinetic:3' plot_points=0",
    )
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Tank", roll=14)
    await say(
        standin,
        "gm",
        "/initiative add",
        name="Shade",
        stats="stamina=937 avoidance=15 attack=59 damage=1d6+47",
        roll=1,
        hidden=True,
    )
    await say(standin, "gm", "/initiative next")


async def test_the_page_shows_the_order_round_and_acting_hero_in_the_servers_language(standin, bot, web):
    await setup_fight(standin)
    token = await shared(standin)
    page = await web.get(f"/f/{token}")
    text = await page.text()
    assert page.status == 200 and page.content_type == "text/html"
    assert '<html lang="en-US"' in text and "Tank" in text and "Shade" in text and "round 1" in text.lower()
    assert 'aria-live="polite"' in text and "Acting now: <bdi>Tank</bdi>" in text
    assert '<li class="slot current" aria-current="true">' in text
    assert '<noscript><meta http-equiv="refresh"' in text
    overlay = await (await web.get(f"/f/{token}?overlay")).text()
    assert '<body class="overlay">' in overlay and "Tank" in overlay


async def test_a_hidden_npcs_numbers_reach_neither_the_page_nor_the_stream(standin, bot, web):
    await setup_fight(standin)
    _, state = await bot.core.current(_channel(standin))
    shade = next(c for c in state.combatants if c.name == "Shade")
    assert "937" in english(registry.get(KEY).status_line(state, shade, reveal=True))  # the GM would see it
    token = await shared(standin)
    stream = await web.get(f"/f/{token}/events")
    first = await next_state(stream)
    await say(standin, "gm", "/initiative next")  # the Shade's turn
    await say(standin, "gm", "/attack", target="Tank", dice="12 5")
    seen = [first]
    deadline = time.monotonic() + 3
    while "Avoidance 14: hit" not in seen[-1]["results"] and time.monotonic() < deadline:
        seen.append(await asyncio.wait_for(next_state(stream), 3))
    assert "<bdi>Shade</bdi> attacks <bdi>Tank</bdi>: d20 12 + ? = ?" in seen[-1]["results"]
    stream.close()
    page = await (await web.get(f"/f/{token}")).text()
    main = page[page.index("<main>") :]  # the head carries the link's token, random characters
    for shown in [main, *(str(state) for state in seen)]:
        for number in SECRETS:
            assert number not in shown


async def test_an_undone_command_on_the_page_hides_the_dice_entered_for_a_hidden_npc(standin, bot, web):
    await setup_fight(standin)
    await say(standin, "gm", "/initiative next")  # the Shade's turn
    hit = await say(standin, "gm", "/attack", target="Tank", dice="12 3")
    assert "1d6 (?) + ? = 50" in hit.content  # the face would tell the Shade's damage bonus
    await say(standin, "gm", "/encounter undo")
    await bot.idle.wait()
    page = await (await web.get(f"/f/{await shared(standin)}")).text()
    results = page[page.index('<ul id="results">') :]
    assert "Undid 1 action: /attack target:<bdi>Tank</bdi> dice:?</li>" in results[: results.index("</ul>")]


def _channel(standin) -> int:
    return next(m.channel_id for m in standin.messages() if "Tank" in m.content)


@pytest.mark.parametrize("payload", HOSTILE)
async def test_every_typed_text_is_escaped_on_the_page_and_in_the_stream(standin, bot, web, payload):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name=payload, stats="stamina=10", roll=5)
    await say(standin, "gm", "/initiative add", name="Goblin", stats="stamina=10", roll=3)
    await say(standin, "gm", "/initiative next")
    token = await shared(standin)
    stream = await web.get(f"/f/{token}/events")
    first = await next_state(stream)
    await say(standin, "gm", "/encounter note", text=payload)
    state = await asyncio.wait_for(next_state(stream), 3)
    while state["v"] == first["v"]:
        state = await asyncio.wait_for(next_state(stream), 3)
    assert usertext.scrub(payload) in html.unescape(state["results"])  # the note arrived, shown as typed
    stream.close()
    page = await (await web.get(f"/f/{token}")).text()
    assert_harmless(page)
    for fragment in state.values():
        assert_harmless(str(fragment))
    assert "<bdi>" in page  # the typed name kept apart from the sentence around it
    assert "<strong>" not in page + state["results"]  # Discord's markup typed is no markup here either
    if "<" in payload:
        assert payload not in page


async def test_headers_allow_no_inline_script_set_no_cookie_and_cache_nothing(standin, bot, web):
    await setup_fight(standin)
    token = await shared(standin)
    for path in (f"/f/{token}", f"/f/{token}?overlay", "/f/nope"):
        response = await web.get(path)
        policy = response.headers["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "default-src 'none'" in policy
        assert "frame-ancestors 'none'" in policy and response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cache-Control"] == "no-store"
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["X-Robots-Tag"] == "noindex, nofollow"
        assert "Set-Cookie" not in response.headers
    page = await (await web.get(f"/f/{token}")).text()
    assert all(dict(attrs).get("src") for tag, attrs in tags_of(page) if tag == "script")
    stream = await web.get(f"/f/{token}/events")
    assert stream.headers["Content-Type"] == "text/event-stream" and stream.headers["Cache-Control"] == "no-store"
    stream.close()
    script = await web.get("/static/page.js")
    assert script.status == 200 and "EventSource" in await script.text()
    assert (await web.get("/static/..%2fserver.py")).status == 404


async def test_unknown_and_malformed_tokens_are_refused_alike(standin, bot, web):
    await setup_fight(standin)
    token = await shared(standin)
    for wrong in (token[:-1] + ("A" if token[-1] != "A" else "B"), "short", "x" * 200, "<script>"):
        response = await web.get(f"/f/{wrong}")
        assert response.status == 404 and "unknown or was revoked" in await response.text()
        assert (await web.get(f"/f/{wrong}/events")).status == 404


async def test_a_page_shows_the_final_state_after_the_end_then_expires_a_day_later(standin, bot):
    await setup_fight(standin)
    token = await shared(standin)
    async with page_server(bot.settings.database_url, now=lambda: utcnow() + timedelta(days=30)) as later:
        assert (await later.get(f"/f/{token}")).status == 200  # a running fight never expires
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()
    await bot.idle.wait()  # a click answered "thinking…" under load is carried out after its answer
    async with page_server(bot.settings.database_url) as now:
        final = await (await now.get(f"/f/{token}")).text()
        assert "The encounter is over." in final and "Tank" in final and "ended" in final
    async with page_server(bot.settings.database_url, now=lambda: utcnow() + timedelta(hours=23)) as next_day:
        assert (await next_day.get(f"/f/{token}")).status == 200
    async with page_server(bot.settings.database_url, now=lambda: utcnow() + timedelta(days=1, minutes=1)) as gone:
        response = await gone.get(f"/f/{token}")
        assert response.status == 410 and "more than a day ago" in await response.text()
        assert (await gone.get(f"/f/{token}/events")).status == 410


async def test_an_open_page_of_an_ended_fight_closes_when_its_day_is_over(standin, bot):
    await setup_fight(standin)
    token = await shared(standin)
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()
    later = [timedelta(0)]
    async with page_server(bot.settings.database_url, now=lambda: utcnow() + later[0]) as web:
        stream = await web.get(f"/f/{token}/events")
        assert "Tank" in (await next_state(stream))["order"]
        later[0] = timedelta(days=1, minutes=1)  # nothing changes any more: the day runs out all the same
        assert "more than a day ago" in (await asyncio.wait_for(next_state(stream), 2))["said"]
        assert web.page.streams == 0


async def test_one_visitor_keeps_only_so_many_pages_open_at_once(standin, bot):
    await setup_fight(standin)
    token = await shared(standin)
    ticks = iter(range(0, 10**6, 60))  # a minute between requests: the request rate never stops them
    async with page_server(bot.settings.database_url, clock=lambda: float(next(ticks))) as web:
        streams = [await web.get(f"/f/{token}/events") for _ in range(MAX_STREAMS_PER_VISITOR + 1)]
        assert [s.status for s in streams] == [200] * MAX_STREAMS_PER_VISITOR + [429]
        streams[0].close()
        await asyncio.sleep(0.2)
        again = await web.get(f"/f/{token}/events")
        assert again.status == 200
        for stream in [*streams, again]:
            stream.close()


async def test_a_change_reaches_an_open_stream_within_a_second(standin, bot, web):
    await setup_fight(standin)
    token = await shared(standin)
    stream = await web.get(f"/f/{token}/events")
    before = await next_state(stream)
    assert "Tank" in before["now"]
    started = time.monotonic()
    await say(standin, "gm", "/initiative next")
    after = await asyncio.wait_for(next_state(stream), 1)
    while "Shade" not in after["now"]:
        after = await asyncio.wait_for(next_state(stream), 1)
    assert time.monotonic() - started < 1 and after["v"] > before["v"]
    stream.close()


async def test_requests_per_address_are_limited_and_a_page_writes_nothing(standin, bot):
    await setup_fight(standin)
    token = await shared(standin)
    async with page_server(bot.settings.database_url, clock=lambda: 0.0) as web:
        answers = [await web.get(f"/f/{token}") for _ in range(PAGE_BURST + 1)]
        assert [a.status for a in answers] == [200] * PAGE_BURST + [429]
        # A refused page asks again by itself, with or without its script.
        assert answers[-1].headers["Retry-After"] == "5"
        assert '<meta http-equiv="refresh" content="5">' in await answers[-1].text()
        streams = [await web.get(f"/f/{token}/events") for _ in range(11)]
        assert [s.status for s in streams] == [200] * 10 + [429]
        for s in streams:
            s.close()
        assert web.written == []


async def test_one_poller_serves_every_open_page_of_a_fight_and_stops_with_the_last(standin, bot, web):
    await setup_fight(standin)
    token = await shared(standin)
    streams = [await web.get(f"/f/{token}/events") for _ in range(3)]
    for stream in streams:
        await next_state(stream)
    assert len(web.page.watches) == 1 and len(next(iter(web.page.watches.values())).pages) == 3
    for stream in streams:
        stream.close()
    await asyncio.sleep(0.2)
    assert web.page.watches == {} and web.page.streams == 0


async def test_a_99_towers_page_draws_the_combat_clock_with_each_token_on_its_phase(standin, bot, web):
    tony = "init=2 ss=2 hs=2 pa=4 pd=3 id=2 px=1 er=1 endurance=2 stun=12 lethal=6 weapons='Heavy Rifle: 7 r12'"
    boss = "init=2 ss=2 hs=3 pa=4 pd=3 px=2 er=1 endurance=2 stun=14 lethal=5 weapons='Axe: 4+px'"
    await say(standin, "gm", "/campaign setup", system="99-towers")
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Tony Vance", stats=tony)
    await say(standin, "gm", "/initiative add", name="<b>Boss</b>", stats=boss)
    await say(standin, "gm", "/initiative next")
    _, state = await bot.core.current(next(m.channel_id for m in standin.messages() if "Tony" in m.content))
    token = await shared(standin)
    page = await (await web.get(f"/f/{token}")).text()
    clock = page[page.index('<div id="clock">') : page.index('<ol id="order">')]
    # Who acts first, and so the round the clock is in, depends on the encounter's dice.
    assert f'aria-label="Combat Clock · round {state.round} · phase {state.turns.phase}"' in clock
    assert clock.count('class="cell now"') == 1 and clock.count("<rect") == 30
    assert clock.count("<circle") == 2 and "acting" in clock  # both tokens, one of them acting now
    assert "<b>TV</b> <bdi>Tony Vance</bdi>" in clock and "&lt;b&gt;Boss&lt;/b&gt;" in clock
    assert_harmless(page)


def test_a_crowded_phase_of_the_combat_clock_counts_the_tokens_it_cannot_draw():
    fight = new()
    for number, card in enumerate(("9D", "8D", "7D", "6D", "5D", "4D"), start=1):
        fight = add(fight, f"Bandit {number}", card, BANDIT).state
    fight = begin(fight).state
    clock = fight.turns
    crowded = fight.but(turns=clock.but(entries=tuple(entry.but(phase=clock.phase) for entry in clock.entries)))
    drawn = clock_svg(crowded)
    assert drawn.count("<circle") == MAX_TOKENS - 1 and '<text x="68" y="35" class="more">+3</text>' in drawn
    assert drawn.count("<li>") == 6  # the legend names all six


def test_a_companion_stands_on_its_masters_phase_of_the_combat_clock():
    fight = add(new(), "Tony", "KH 4C", "init=2", player=True).state
    fight = begin(add(fight, "Rex", "", "companion_of=Tony").state).state
    drawn = clock_svg(fight)
    labels = re.findall(r'class="l">([^<]+)<', drawn)
    assert labels == ["To", "Re"]  # both tokens, in the master's cell
    assert drawn.count("<li>") == 2 and "Rex" in drawn


async def test_a_head_request_opens_no_event_stream(standin, bot, web):
    await setup_fight(standin)
    token = await shared(standin)
    assert (await web.head(f"/f/{token}")).status == 200
    head = await web.head(f"/f/{token}/events")
    assert head.status == 405 and web.page.streams == 0 and web.page.watches == {}
    assert (await web.get(f"/f/{token}")).status == 200  # nothing was left on the connection to misread


# Each system: a hero's sheet and how it joins; a hidden NPC's sheet and how it is added; the NPC's numbers
# (and what damage leaves of them), none of which the hero's sheet, the dice or the clock's phases show.
HIDDEN_FIGHTS = {
    "rotted-capes": (
        "dex=1 avoidance=14 fortitude=8 stamina=200 wounds=3 plot_points=0",
        {"roll": 14},
        "stamina=937 avoidance=15 attack=59 damage=1d6+47",
        {"roll": 1},
        ("937", "932", "59", "47"),
    ),
    "fightin-words": (
        "reflex=3 dex=1 weapon_skill=3 parry=2 block=1 dodge=1 weapons='arming sword:1d8'",
        {"roll": 4},
        "reflex=410 dex=520 strength=640 endurance=380 spirit=270 fortitude=700 weapon_skill=250 "
        "ranged_skill=350 block=170 dodge=190 parry=230 weapons='claw:1d6'",
        {"roll": 1},
        ("410", "520", "640", "380", "270", "700", "250", "350", "170", "190", "230", "389", "276", "931"),
    ),
    "frozen-lands": (
        "body=3 agility=3 mind=2 awareness=3 soul=2 melee=2 marksmanship=3 mobility=2 athletics=1 armour=1 "
        "weapon=Shortsword",
        {"roll": 4},
        "initiative=19 damage=37 defense=14 stamina=187",
        {},
        ("19", "37", "14", "187"),
    ),
    "factions": (
        "health=12 grit=3 weapons='sword:d6'",
        {},
        "str=17 agi=19 wit=18 health=47 grit=23 armour=2 size=large weapons='claw:d10, spit:d8:14'",
        {},
        ("17", "19", "18", "47", "23", "14"),
    ),
    "99-towers": (
        "init=2 ss=2 hs=2 pa=4 pd=3 id=2 px=1 er=1 endurance=2 stun=12 lethal=6 weapons='Heavy Rifle: 7 r12'",
        {"cards": "KH 4C"},
        "init=21 ss=18 hs=16 pa=24 sa=28 pd=26 id=28 px=22 er=17 ir=29 endurance=19 stun=97 lethal=41 "
        "weapons='Claws: 3+px'",
        {},
        ("97", "92", "41", "38"),
    ),
}
WORDS = ("round", "now", "order", "results")  # the clock numbers its phases: read apart, in its own test


def words_of(state: dict) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", " ".join(str(state[part]) for part in WORDS)))


async def state_where(stream, seen: list[dict], shows) -> dict:
    """The first state the stream sends that `shows` (every one read on the way kept in `seen`)."""
    while not shows(seen[-1]):
        seen.append(await asyncio.wait_for(next_state(stream), 3))
    return seen[-1]


@pytest.mark.parametrize("system", list(HIDDEN_FIGHTS))
async def test_in_every_system_the_page_follows_a_hidden_npc_damaged_undone_and_the_end_but_never_its_numbers(
    standin, bot, web, system
):
    hero, joining, npc, adding, secrets = HIDDEN_FIGHTS[system]
    await say(standin, "gm", "/campaign setup", system=system)
    await say(standin, "alice", "/character add", name="Hero", stats=hero)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Hero", **joining)
    await say(standin, "gm", "/initiative add", name="Wraith", stats=npc, hidden=True, **adding)
    await say(standin, "gm", "/initiative next")
    token = await shared(standin)
    stream = await web.get(f"/f/{token}/events")
    seen = [await next_state(stream)]
    assert "Wraith" in seen[0]["order"] and "Hero" in seen[0]["order"]
    await say(standin, "gm", "/damage", target="Wraith", amount="5")
    before = seen[-1]["v"]
    damaged = await state_where(stream, seen, lambda state: state["v"] > before)
    assert "<bdi>Wraith</bdi>" in damaged["results"].rsplit("<li>", 1)[-1]
    await say(standin, "gm", "/encounter undo")
    await state_where(stream, seen, lambda state: "Undid 1 action" in state["results"])
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()
    await state_where(stream, seen, lambda state: "The encounter is over." in state["now"])
    stream.close()
    page = await (await web.get(f"/f/{token}")).text()
    main = page[page.index("<main>") : page.index('<div id="clock">')] + page[page.index('<ol id="order">') :]
    assert "The encounter is over." in main
    for text in [html.unescape(re.sub(r"<[^>]+>", " ", main)), *map(words_of, seen)]:
        for number in secrets:
            assert not re.search(rf"(?<!\d){number}(?!\d)", text), (number, text)


async def test_a_result_from_dice_entered_by_hand_carries_its_mark_on_the_page(standin, bot, web):
    await setup_fight(standin)
    await say(standin, "gm", "/initiative next")  # the Shade's turn
    await say(standin, "gm", "/attack", target="Tank", dice="12 3")
    page = await (await web.get(f"/f/{await shared(standin)}")).text()
    results = page[page.index('<ul id="results">') :]
    assert "<li>✍️ <bdi>Shade</bdi> attacks <bdi>Tank</bdi>" in results[: results.index("</ul>")]


async def test_a_new_fight_in_the_channel_gets_its_own_link_and_the_old_one_keeps_the_old_fight(standin, bot, web):
    await setup_fight(standin)
    old = await shared(standin)
    stream = await web.get(f"/f/{old}/events")
    await next_state(stream)
    await say(standin, "gm", "/encounter end")
    await (await standin.click("gm", "End the encounter")).response()
    ended = await asyncio.wait_for(next_state(stream), 2)
    assert "The encounter is over." in ended["now"]
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name="Newcomer", stats="stamina=10", roll=5)
    new_link = await shared(standin)
    assert new_link != old
    assert "Newcomer" in await (await web.get(f"/f/{new_link}")).text()
    final = await (await web.get(f"/f/{old}")).text()
    assert "The encounter is over." in final and "Tank" in final and "Newcomer" not in final
    with pytest.raises(TimeoutError):  # the new fight changes nothing on the old fight's open page
        await asyncio.wait_for(next_state(stream), 1)
    stream.close()


def test_a_99_towers_page_says_which_conditions_are_minor_and_writes_a_number_below_zero_with_the_minus_sign():
    fight = add(new(), "Tony", "KH", "stun=10 lethal=5", player=True).state
    fight = begin(add(fight, "Bandit", "9D", BANDIT).state).state
    fight = command(fight, "condition_add", target="Tony", condition="blinded", tags="minor").state
    fight = command(fight, "damage", target="Tony", amount="14", options="lethal=7").state
    order = view(TOWERS, fight, 1, []).order
    assert f"LETHAL {MINUS}2/5" in order and "<bdi>blinded</bdi> (minor)" in order


def test_a_fightin_words_page_counts_mobility_penalties():
    fight = sleeper()
    for _ in range(2):
        fight.command("condition_add", target="Goblin", condition="mobility penalty")
    assert "T 9/3 · Will 9/3 · 2 mobility penalties" in view(FIGHTIN_WORDS, fight.enc, 1, []).order


async def test_the_page_says_while_the_fight_waits_on_a_choice_as_the_tracker_does_without_a_hidden_npcs_numbers(
    standin, bot, web
):
    name = "<i>Shade</i> **x**"
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/initiative add", name=name, stats="stamina=937 avoidance=15", roll=5, hidden=True)
    await say(standin, "gm", "/initiative add", name="Goblin", stats="stamina=10", roll=3)
    await say(standin, "gm", "/initiative next")
    await say(standin, "gm", "/act", action="demanding", options='what="Dark Rite" interruptible')
    token = await shared(standin)
    stream = await web.get(f"/f/{token}/events")
    seen = [await next_state(stream)]
    assert seen[0]["waiting"] == ""
    await say(standin, "gm", "/damage", target=name, amount="86")  # a Constitution save DC 25 to keep it going
    _, state = await bot.core.current(next(m.channel_id for m in standin.messages() if "Goblin" in m.content))
    assert state.pending is not None and "DC 25" in english(state.pending.prompt)
    asked = await state_where(stream, seen, lambda shown: shown["waiting"])
    prompt = "<bdi>&lt;i&gt;Shade&lt;/i&gt; **x**</bdi>: Constitution save DC ? to keep <bdi>Dark Rite</bdi> going."
    assert asked["waiting"] == f"<h2>Waiting for a choice</h2><p>{prompt}</p>"
    page = await (await web.get(f"/f/{token}")).text()
    assert (
        f'<section id="waiting" role="status" aria-live="polite"><h2>Waiting for a choice</h2><p>{prompt}</p>' in page
    )
    assert_harmless(page)
    main = page[page.index("<main>") :]
    for text in (main, asked["waiting"]):
        for number in ("25", "937", "851"):
            assert not re.search(rf"(?<!\d){number}(?!\d)", text), (number, text)
    await (await standin.click("gm", "Roll the Constitution save")).response()
    answered = await state_where(stream, seen, lambda shown: shown["v"] > asked["v"] and not shown["waiting"])
    assert "Constitution save" in answered["results"]
    stream.close()
    page = await (await web.get(f"/f/{token}")).text()
    assert '<section id="waiting" role="status" aria-live="polite"></section>' in page


async def test_the_script_fills_every_fragment_of_the_page(standin, bot, web):
    script = await (await web.get("/static/page.js")).text()
    parts = re.search(r"var parts = \[([^\]]*)\]", script)
    assert parts is not None
    fragments = view(FIGHTIN_WORDS, sleeper().enc, 1, []).fragments()
    assert sorted(re.findall(r'"(\w+)"', parts.group(1))) == sorted(set(fragments) - {"v"})


def test_the_page_names_the_language_it_is_written_in(monkeypatch, tmp_path):
    fragments = view(FIGHTIN_WORDS, sleeper().enc, 1, [])

    def lang(locale: str | None) -> str:
        page = document(fragments, Share(token="t" * 43, encounter_id=1, channel_id=1, locale=locale))
        return re.search(r'<html lang="([^"]*)"', page).group(1)

    # No language ships: a German server's page reads English, and says so (a screen reader, a browser's offer
    # to translate go by it).
    assert [lang(locale) for locale in ("de", "pt-BR", None, "en-GB")] == ["en", "en", "en", "en-GB"]
    monkeypatch.setattr(translation, "CATALOG", pseudo_language(tmp_path, "pt"))
    assert [lang(locale) for locale in ("pt-BR", "de")] == ["pt", "en"]


def css_colour(css: str, selector: str, prop: str) -> str:
    """The colour a rule of page.css gives `prop` (a `var(--name)` read from `:root`)."""
    rule = re.search(rf"(?m)^{re.escape(selector)} {{([^}}]*)}}", css)
    assert rule is not None, selector
    value = re.search(rf"(?<![-\w]){prop}: ([^;]+);", rule.group(1)).group(1).strip()
    named = re.fullmatch(r"var\((--[\w-]+)\)", value)
    return re.search(rf"{named.group(1)}: (#\w+);", css).group(1) if named else value


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two colours, #rrggbb or #rgb."""

    def luminance(colour: str) -> float:
        if len(colour) == 4:  # #rgb
            colour = "#" + "".join(2 * digit for digit in colour[1:])
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        r, g, b = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_text_of_the_page_reads_at_a_contrast_of_4_5_to_1_on_what_it_is_drawn_on():
    css = (Path(server.STATIC) / "page.css").read_text()
    # (the text's rule and property, the background's): small text needs 4.5:1 (WCAG AA).
    pairs = [
        ((":root", "--ink"), ("body", "background")),
        ((":root", "--faint"), (":root", "--panel")),
        ((":root", "--faint"), ("#order > li.current", "background")),
        ((":root", "--accent"), ("body", "background")),
        (("#clock .n", "fill"), ("#clock .cell", "fill")),
        (("#clock .n", "fill"), ("#clock .cell.now", "fill")),
        (("#clock .r", "fill"), ("body", "background")),
        (("#clock .l", "fill"), ("#clock .t", "fill")),
        (("#clock .l", "fill"), ("#clock .t.heroes", "fill")),
        (("#clock .l", "fill"), ("#clock .t.down", "fill")),
        (("#clock .more", "fill"), ("#clock .cell.now", "fill")),
    ]
    for text, background in pairs:
        ink, ground = css_colour(css, *text), css_colour(css, *background)
        assert contrast(ink, ground) >= 4.5, (text, ink, background, ground, round(contrast(ink, ground), 2))


def test_a_factions_page_says_who_the_move_is_with_and_then_who_takes_the_turn():
    fight = start(seed_cast(), holder="players").state
    shown = view(FACTIONS, fight, 1, [])
    # Nobody acts yet: the players choose whom to take the turn with, as the turn message says.
    assert shown.now == (
        "<bdi>players</bdi> to move: take a turn with <bdi>Balthasar</bdi>, <bdi>Sybilla</bdi>, "
        "<bdi>Theobald</bdi>, or pass"
    ), shown.now
    assert shown.order.count('aria-current="true"') == 3  # the three the move may go to, as the tracker marks them
    taken = take(fight, "Sybilla", by=SYBILLA).state
    assert view(FACTIONS, taken, 2, []).now == "Acting now: <bdi>Sybilla</bdi>"


def test_the_combat_clock_greys_who_cannot_act_as_the_channels_picture_does():
    fight = add(new(), "Tony", "KH 4C", "init=2 stun=12 lethal=6", player=True).state
    fight = add(add(fight, "Bandit", "9D", BANDIT).state, "Guard", "8D", BANDIT).state
    fight = begin(fight).state
    fight = command(fight, "damage", target="Bandit", amount="30").state
    assert not TOWERS.can_act(fight, fight.find("Bandit"))
    tokens = re.findall(r'<circle [^>]*class="t ([\w-]+)[^"]*"/><text [^>]*class="l">(\w+)<', clock_svg(fight))
    assert sorted((label, kind) for kind, label in tokens) == [("Ba", "down"), ("Gu", "others"), ("To", "heroes")]
    css = (Path(server.STATIC) / "page.css").read_text()
    assert "#clock .t.down {" in css
