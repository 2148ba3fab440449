"""99 Towers through real discord.py and the stand-in: the golden fight with
the clock picture on every turn message, the defender's Flip button going to
the defender's player, real cards entered with /choose, and a hold released
just before someone else's turn."""

from __future__ import annotations

import contextlib
import io
import struct
from pathlib import Path

from PIL import Image

from bot.app import create_bot
from bot.clock_image import SIZE
from bot.config import Settings
from bot.sandbox import settle
from bot.sandbox_text import parse_script_line, run_script_line
from bot.standin.harness import running_client
from tests.e2e.conftest import begin_fight, help_sections, say
from tests.helpers import ids

SYSTEM = "99-towers"
GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "99-towers.script"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
TONY = "init=2 ss=2 hs=2 pa=4 pd=3 id=2 px=1 er=1 endurance=2 stun=12 lethal=6 weapons='Heavy Rifle: 7 r12'"
MIRA = "init=1 ss=2 hs=3 pa=3 pd=3 id=2 px=1 er=1 endurance=3 stun=14 lethal=7 weapons='Longblade: 4+px +1pa'"
KIT = "init=2 ss=2 hs=2 pa=4 pd=3 px=1 er=1 endurance=2 stun=12 lethal=6 weapons='Longblade: 4+px +1pa; Dirk: 2+px'"
BOSS = "init=2 ss=2 hs=3 pa=4 pd=3 px=2 er=1 endurance=2 stun=14 lethal=5 weapons='Axe: 4+px'"


@contextlib.asynccontextmanager
async def seeded_bot(standin, database_url: str, seed: int = 1):
    """The bot as the golden test runs it: the same seed, so the same deck."""
    settings = Settings(discord_token="standin.bot.token", database_url=database_url)
    async with running_client(standin, lambda: create_bot(settings, seed=seed, guild_ready_timeout=0.05)) as bot:
        yield bot


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from the IHDR chunk, which a PNG must open with."""
    assert data[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", data[8:16])
    assert (length, kind) == (13, b"IHDR")
    return struct.unpack(">II", data[16:24])


def turn_messages(standin):
    return [m for m in standin.messages() if "'s turn — phase" in m.content]


async def newest(standin, needle: str, *, after=None):
    return await standin.wait_for(
        lambda: next(
            (
                m
                for m in reversed(standin.messages())
                if needle in m.content and m.components and (after is None or m.id > after.id)
            ),
            None,
        ),
        what=needle,
    )


async def test_every_turn_message_of_the_golden_fight_carries_the_clock_as_a_png_of_the_right_size(
    standin, database_url
):
    who = ids(standin)
    async with seeded_bot(standin, database_url) as bot:
        await say(standin, "gm", "/campaign setup", system=SYSTEM)
        channel = standin.channel("combat")
        for number, raw in enumerate(GOLDEN.read_text(encoding="utf-8").splitlines(), start=1):
            line = parse_script_line(raw, standin.commands, channel.guild_id, number)
            if line is not None:
                answers = await run_script_line(standin, line, in_channel=channel, timeout=10)
                # The only private answer in the script is the question confirming /encounter end.
                assert not any(a.ephemeral for a in answers) or raw == "gm: /encounter end", (
                    raw,
                    [a.content for a in answers],
                )
                await settle(standin, bot)

    turns = turn_messages(standin)
    assert len(turns) == 14  # every turn of the three rounds, each with its own picture
    pictures = []
    for message in turns:
        (attachment,) = message.attachments
        assert attachment.filename == "clock.png" and attachment.content_type == "image/png"
        # Alt text for whoever cannot see the picture: whose turn it is and who stands where.
        acting = message.content.split("**")[1].split("'s turn")[0]
        assert attachment.description.startswith("Combat Clock, round ")
        assert f"{acting} acts now." in attachment.description, attachment.description
        assert png_size(attachment.data) == (SIZE, SIZE) == (600, 600)
        image = Image.open(io.BytesIO(attachment.data))
        image.verify()  # a whole, uncorrupted PNG, not just a valid header
        (embed,) = message.embeds
        assert embed["image"]["url"] == "attachment://clock.png"
        pictures.append(attachment.data)
    assert len(set(pictures)) == len(pictures)  # the clock moves, so every picture differs

    # The pings follow the clock: the player for a player character, the GM for NPCs.
    owner = {"Tony": who["alice"], "Mira": who["bob"], "Bandit": who["gm"], "Boss": who["gm"]}
    for message in turns:
        name = message.content.split("**")[1].split("'s turn")[0]
        assert set(message.pings.user_ids) == {owner[name]}, message.content
    titles = [m.content.split("**")[1] for m in turns]
    assert titles[:3] == ["Tony's turn — phase 5", "Boss's turn — phase 6", "Tony's turn — phase 6"]
    assert "Mira's turn — phase 20" in titles and titles[-1] == "Mira's turn — phase 25"

    # Alice's real cards for Tony's defence, and the Bandit bleeding at the zero phase.
    texts = [m.content for m in standin.messages()]
    assert any("Tony PD 3: 9♣ 3♠ 2♥ → keep 9 = 9 → 11 vs 9: critical hit" in t for t in texts)
    assert any("Phase 20 (zero phase): Bandit is dying and loses 1 LETHAL." in t for t in texts)
    assert standin.unknown_routes == []


async def setup_duel(standin):
    """Tony (alice, phase 5), the Boss (GM, phase 6), Mira (bob, phase 8); round 1 begins."""
    await say(standin, "gm", "/campaign setup", system=SYSTEM)
    await say(standin, "alice", "/character add", name="Tony", stats=TONY)
    await say(standin, "bob", "/character add", name="Mira", stats=MIRA)
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Tony", cards="KH 4C")
    await say(standin, "bob", "/initiative join", character="Mira", cards="JD")
    await say(standin, "gm", "/initiative add", name="Boss", stats=BOSS, cards="QS 5D")
    await say(standin, "gm", "/initiative next")


async def test_the_flip_button_goes_to_the_defenders_player_only(standin, bot):
    who = ids(standin)
    await setup_duel(standin)
    tony = await newest(standin, "Tony's turn — phase 5")
    ended = await (await standin.click("alice", "End turn", message=tony)).response()
    assert "Tony takes a Forced Delay (5): Tony next acts in phase 10." in ended.content
    boss = await newest(standin, "Boss's turn — phase 6")
    assert set(boss.pings.user_ids) == {who["gm"]}

    swing = await say(standin, "gm", "/attack", target="Mira", cards="KH 9C 3S 2D")
    assert "Mira flips PD 3" in swing.content and not swing.pings.user_ids
    ask = await newest(standin, "Mira: Boss's Axe comes in at 13")
    assert set(ask.pings.user_ids) == {who["bob"]}
    assert '/choose option:Flip cards:"…"' in ask.content
    labels = [c["label"] for row in ask.components for c in row["components"]]
    assert labels == ["Flip"]
    refused = await (await standin.click("alice", "Flip", message=ask)).response()
    assert refused.ephemeral and "not yours" in refused.content
    flipped = await (await standin.click("bob", "Flip", message=ask)).response()
    assert not flipped.ephemeral and "Chosen: Flip." in flipped.content
    assert "Mira PD 3 − SS 2 flat-footed = 1: " in flipped.content  # she has not acted yet
    assert "Attack (5): Boss next acts in phase 11." in flipped.content

    # Real cards instead of the button: /choose with cards:, refused for anyone but the defender.
    mira = await newest(standin, "Mira's turn — phase 8")
    await (await standin.click("bob", "End turn", message=mira)).response()
    await newest(standin, "Tony's turn — phase 10")
    await say(standin, "alice", "/act", action="aim")
    await newest(standin, "Boss's turn — phase 11")
    await say(standin, "gm", "/attack", target="Tony", cards="10C 4C 3D 2S")
    ask = await newest(standin, "Tony: Boss's Axe comes in at 10")
    assert set(ask.pings.user_ids) == {who["alice"]}
    not_hers = await say(standin, "bob", "/choose", option="Flip", cards="AS KS QS")
    assert not_hers.ephemeral and "not yours" in not_hers.content
    chosen = await say(standin, "alice", "/choose", option="Flip", cards="QC 5H 2D")
    assert "Tony PD 3: Q♣ 5♥ 2♦ → keep Q = 12 → 10 vs 12: miss" in chosen.content
    await settle(standin, bot)  # let the last turn message go out before the bot stops


async def test_a_hold_is_released_just_before_the_next_in_a_later_phase(standin, bot):
    who = ids(standin)
    await setup_duel(standin)
    await newest(standin, "Tony's turn — phase 5")
    held = await say(standin, "alice", "/act", action="hold")
    assert "Tony holds (from phase 5)" in held.content
    boss = await newest(standin, "Boss's turn — phase 6")
    assert set(boss.pings.user_ids) == {who["gm"]}
    tracker = await standin.wait_for(
        lambda: next((m for m in standin.messages() if m.pinned and "holding" in m.embeds[0]["description"]), None),
        what="the tracker showing the hold",
    )
    assert "since phase 5" in tracker.embeds[0]["description"]

    not_holding = await say(standin, "bob", "/act", action="release", target="Boss")
    assert not_holding.ephemeral and "None of your combatants is holding" in not_holding.content
    released = await say(standin, "alice", "/act", action="release", target="Boss")
    assert "Tony stops holding and acts before Boss." in released.content
    tony = await newest(standin, "Tony's turn — phase 6", after=boss)
    assert set(tony.pings.user_ids) == {who["alice"]}
    shot = await say(standin, "alice", "/attack", target="Boss", options="range=3", cards="2C 3C 4C 5C 6D")
    assert (
        "Boss PD 3 − SS 2 flat-footed = 1: 6♦" in shot.content
        and "Attack (5): Tony next acts in phase 11." in shot.content
    )
    again = await newest(standin, "Boss's turn — phase 6", after=tony)  # the Boss's own turn, as before
    assert set(again.pings.user_ids) == {who["gm"]}
    await settle(standin, bot)


async def test_help_fits_one_message_and_lets_a_gm_run_the_fight(standin, bot):
    answer, text = await help_sections(standin, "gm", system=SYSTEM)
    assert answer.ephemeral and not text.endswith("…")
    for needed in (
        'cards:"KH 4C"',
        "20−CI",
        "surprised:true",
        "/act action:",
        "hold",
        "release target:",
        "options:after",
        "/attack target:",
        "range=",
        "cover=",
        'target:"A, B"',
        "action:oa",
        "/choose option:Flip cards:",
        "/damage",
        "/heal",
        "/condition add",
        "/save",
        "defender_flips=auto",
        "Forced Delay",
        "stance options:aggressive",
        "**Checks**",
        "/check character:Tony kind:endurance dc:5",
        "against:Mira",
        "kind:skill",
        "52 cards, no jokers, A 14, reshuffled when empty",
        "(at least one)",
        "dying cannot",
        "kind:five_minutes` restores STUN and mana",
    ):
        assert needed in text, needed


async def test_a_dual_wielder_takes_an_aggressive_stance_with_act_and_attacks_with_one_more_card(standin, bot):
    kit, boss = ("alice", "Kit", KIT, {"cards": "KH 4C"}), ("Boss", BOSS, {"cards": "QS 5D"})
    await begin_fight(standin, SYSTEM, [kit], [boss])
    await newest(standin, "Kit's turn — phase 5")
    offered = await (await standin.autocomplete("alice", "/act", "action", action="stance")).choices()
    assert {"name": "Dual-Wield Stance (free)", "value": "stance"} in offered

    chosen = await say(standin, "alice", "/act", action="stance", options="aggressive")
    assert not chosen.ephemeral
    assert "Kit fights aggressively with two weapons: PA +1, PD −1 until changed." in chosen.content
    # PA 4 + Longblade 1 + aggressive 1 = 6 cards, then the flat-footed Boss's PD 3 − SS 2 = 1.
    swing = await say(standin, "alice", "/attack", target="Boss", weapon="Longblade", cards="2C 3C QS 5D 6D 7C 9H")
    assert (
        "Kit: Attack with Longblade on Boss — PA 4 (Longblade (flip+1); aggressive stance (flip+1)): "
        "2♣ 3♣ Q♠ 5♦ 6♦ 7♣ → keep Q = 12" in swing.content
    )
    assert "Attack (5): Kit next acts in phase 10." in swing.content
    await settle(standin, bot)


async def characters(standin):
    await say(standin, "gm", "/campaign setup", system=SYSTEM)
    await say(standin, "alice", "/character add", name="Tony", stats=TONY)
    await say(standin, "bob", "/character add", name="Mira", stats=MIRA)


async def test_check_flips_a_stat_against_an_effects_attack_with_entered_cards_and_logs_it(standin, bot):
    # The seed's poison: "an Attack value of 5 ... 5 cards will be drawn"; Tony's External Endurance 2: two cards.
    await characters(standin)
    shown = await say(
        standin, "alice", "/check", character="Tony", kind="endurance", dc=5, cards="QC 7D 3H 2S 9C AH 4C"
    )
    assert not shown.ephemeral
    assert shown.content == (
        "🎲 ✍️ Attack 5: Q♣ 7♦ 3♥ 2♠ 9♣ → keep Q = 12 vs Tony Endurance 2: A♥ 4♣ → keep A = 14 → resisted"
    ), shown.content
    affected = await say(standin, "alice", "/check", character="Tony", kind="endurance", dc=1, cards="KC KH 4C")
    assert affected.content.endswith("K♥ 4♣ → keep K = 13 → affected"), affected.content  # the effect wins a tie
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check character:Tony kind:endurance dc:5" in log and "→ resisted" in log
    nothing = await say(standin, "gm", "/campaign undo")  # entered cards leave the deck as it was
    assert nothing.ephemeral and "no rest, adjustment or check to undo" in nothing.content, nothing.content


async def test_check_against_another_character_is_an_opposed_flip_with_entered_cards(standin, bot):
    await characters(standin)
    shown = await say(standin, "alice", "/check", character="Tony", kind="hs", against="Mira", cards="JC 4D QH 3S 2C")
    assert shown.content.splitlines() == [
        "🎲 ✍️ Tony HS 2: J♣ 4♦ → keep J = 11",
        "🎲 ✍️ Mira HS 3: Q♥ 3♠ 2♣ → keep Q = 12",
        "🎲 ✍️ 11 vs 12: Mira wins by 1.",
    ], shown.content
    duel = await say(
        standin,
        "bob",
        "/check",
        character="Mira",
        kind="skill",
        against="Tony",
        options="ranks=2 aspect=ss vs_ranks=1 vs_aspect=ss",
        cards="9C 2D 10H",
    )
    assert duel.content.splitlines() == [
        "🎲 ✍️ Mira skill 2 (SS (shift+2)): 9♣ 2♦ → keep 9 = 9 + 2 = 11",
        "🎲 ✍️ Tony skill 1 (SS (shift+2)): 10♥ → keep 10 = 10 + 2 = 12",
        "🎲 ✍️ 11 vs 12: Tony wins by 1.",
    ], duel.content


async def test_a_check_flips_from_the_campaigns_deck_which_an_undo_leaves_going_on(standin, bot):
    await characters(standin)
    guild = standin.world.default_guild.id
    await say(standin, "gm", "/campaign adjust", character="Tony", key="stun", value="4")
    rested = await say(standin, "gm", "/campaign rest", kind="five_minutes")
    assert "Tony" in rested.content, rested.content
    first = await say(standin, "alice", "/check", character="Tony", kind="pd", dc=2)
    assert not first.ephemeral and "✍️" not in first.content and "Tony PD 3:" in first.content, first.content
    deck = (await bot.core.repo.get_campaign(guild)).state["rules"]["deck"]
    assert len(deck) == 52 - 5  # two cards for the effect, three for Tony's PD
    second = await say(standin, "alice", "/check", character="Tony", kind="pd", dc=2)
    after = (await bot.core.repo.get_campaign(guild)).state["rules"]["deck"]
    assert after == deck[:-5], second.content  # the next cards off the same deck
    # The checks changed nothing but the deck, which goes on as the dice do: the undo takes back the rest
    # (the deck moving since does not stand in its way), and the next flip deals new cards.
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid /campaign rest kind:five_minutes" in undone.content, undone.content
    assert (await bot.core.repo.get_campaign(guild)).state["rules"]["deck"] == after
    (tony,) = [c for c in await bot.core.repo.list_characters(guild) if c.name == "Tony"]
    assert tony.lasting["stun"] == 4
    assert "Undid /campaign adjust" in (await say(standin, "gm", "/campaign undo")).content
    nothing = await say(standin, "gm", "/campaign undo")
    assert nothing.ephemeral and "no rest, adjustment or check to undo" in nothing.content, nothing.content


async def test_a_check_refuses_a_missing_attack_value_and_an_unknown_option_and_logs_nothing(standin, bot):
    await characters(standin)
    missing = await say(standin, "alice", "/check", character="Tony", kind="endurance")
    assert missing.ephemeral and "dc: the effect's Attack value" in missing.content, missing.content
    unknown = await say(standin, "alice", "/check", character="Tony", kind="endurance", dc=3, options="advantage")
    assert unknown.ephemeral and "`advantage`" in unknown.content and "`flip`" in unknown.content, unknown.content
    skill = await say(standin, "alice", "/check", character="Tony", kind="skill", dc=3)
    assert skill.ephemeral and "ranks=N" in skill.content, skill.content
    log = await say(standin, "gm", "/campaign log")
    assert "/check" not in log.content + "".join(a.data.decode() for a in log.attachments), log.content


async def test_the_highest_fall_is_dealt_and_its_cards_all_reach_the_channel(standin, bot):
    await setup_duel(standin)
    fell = await say(standin, "gm", "/damage", target="Boss", amount="1000 ft")
    assert not fell.ephemeral, fell.content
    said = "".join(m.content for m in standin.messages()[-3:])
    assert "Fall of 1000 feet: 1000 physical STUN and 400 damage flips" in said, said
    line = said.split("400 damage flips: ")[1]
    assert len(line.split(" → ")[0].split()) == 400  # no card cut off
    assert all(len(m.content) <= 2000 for m in standin.messages())


def tracker(standin):
    """The pinned tracker's list of combatants."""
    (pinned,) = [m for m in standin.messages() if m.pinned]
    return pinned.embeds[0]["description"]


GRIP = "init=2 ss=2 hs=3 pa=4 pd=3 er=1 stun=12 lethal=6 endurance=2 size=1"
BANDIT = "init=1 ss=1 hs=2 pa=3 pd=2 er=1 stun=10 lethal=5 endurance=1 weapons='Club: 2+hs'"


async def test_a_grappler_hit_with_knockback_makes_the_grapple_test_after_the_players_flip(standin, bot):
    """The seed: "If the attacker is hit by any attack with Knockback, for example, another Grapple Test must be
    made to hold onto his target while being thrown about." Alice's Grip (size 1) holds the Bandit."""
    who = ids(standin)
    grip, bandit = ("alice", "Grip", GRIP, {"cards": "KH 4C"}), ("Bandit", BANDIT, {"cards": "9D"})
    await begin_fight(standin, SYSTEM, [grip], [bandit])
    await newest(standin, "Grip's turn — phase 5")
    grabbed = await say(standin, "alice", "/act", action="grapple", target="Bandit", cards="9C 2C 3C 4C 9D")
    assert "Bandit is grappled" in grabbed.content, grabbed.content
    await newest(standin, "Grip's turn — phase 10")
    restrained = await say(standin, "alice", "/act", action="restrain")
    assert "Grip restrains Bandit" in restrained.content, restrained.content
    await newest(standin, "Bandit's turn — phase 10")
    await settle(standin, bot)
    assert "Bandit — STUN 10/10 · LETHAL 5/5 · CI 10 · grappled by Grip (restrained)" in tracker(standin)

    # The Bandit's club (PA 3, held: flip−1): K♣ 2♣ → 13, with Knockback; Alice flips Grip's PD.
    swung = await say(standin, "gm", "/attack", target="Grip", options="knockback", cards="KC 2C")
    assert not swung.ephemeral, swung.content
    ask = await newest(standin, "Grip: Bandit's Club comes in at 13")
    assert set(ask.pings.user_ids) == {who["alice"]}
    assert [b["label"] for b in ask.buttons()] == ["Flip"]
    # Her PD flip, then the Grapple Test's: Grip's PA 4 (size and restrain shift+1 each), the Bandit's PD 2.
    chosen = await say(standin, "alice", "/choose", option="Flip", cards="2D 3D 4D 5S 6S 7S 8S JD 2H")
    assert not chosen.ephemeral, chosen.content
    assert "Grip is knocked back (how far is the GM's call)." in chosen.content, chosen.content
    assert (
        "Grip: Grapple Test to hold on to Bandit: Grip PA 4 (size (shift+1); restrain (shift+1)): "
        "5♠ 6♠ 7♠ 8♠ → keep 8 = 8 + 2 = 10; Bandit PD 2: J♦ 2♥ → keep J = 11; "
        "10 vs 11: Grip loses hold: the grapple on Bandit breaks."
    ) in chosen.content, chosen.content
    await settle(standin, bot)
    assert "grappled" not in tracker(standin)
