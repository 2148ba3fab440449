"""/check through the local Discord, with a toy system's checks: the bot's part of a check (the
campaign's dice, the log, undo, what a check offers next, private checks, permissions), whatever
the system's rules. Each system's own checks are tested beside its rules and its other e2e tests."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.standin.world import default_world
from rules.model import Choice
from rules.said import say as said
from rules.system import CheckKind, CheckOutcome
from tests.e2e.conftest import say, serving, turnkeeper
from tests.toy import standing_in_for

KEY = "rotted-capes"  # the toy stands in under a real key: slash options accept only those


def luck_check(request, chance) -> CheckOutcome:
    """d20 + the sheet's init against the DC; a point of luck (lasting) buys a reroll."""
    roll = chance.die(20) + int(request.who.sheet.get("init", 0))
    luck = int(request.who.lasting.get("luck", 1))
    line = said("{who} rolls luck: {roll} vs {dc}", who=request.who.name, roll=roll, dc=request.dc)
    offers = (Choice(key="reroll", label=said("Spend luck to reroll")),) if luck > 0 and request.kind == "luck" else ()
    return CheckOutcome(lines=(line,), offers=offers, memo={"roll": roll})


def luck_again(request, memo, offer, chance) -> CheckOutcome:
    luck = int(request.who.lasting.get("luck", 1))
    roll = chance.die(20) + int(request.who.sheet.get("init", 0))
    line = said("{who} spends luck and rerolls: {roll} (was {was})", who=request.who.name, roll=roll, was=memo["roll"])
    return CheckOutcome(lines=(line,), lasting=request.who.lasting | {"luck": luck - 1})


CHECKS = SimpleNamespace(
    KINDS=(
        CheckKind(key="luck", label="Luck", help="d20 + init against a DC"),
        CheckKind(key="plain", label="Plain", help="the same roll, with nothing to offer after it"),
    ),
    check=luck_check,
    check_again=luck_again,
)


@pytest.fixture
async def standin():
    with standing_in_for(KEY) as toy:
        toy.checks = CHECKS
        async with serving(default_world()) as server:
            yield server


@pytest.fixture
async def bot(standin, migrated_database_url):
    async with turnkeeper(standin, migrated_database_url) as client:
        yield client


async def campaign(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Nova", stats="init=3")
    await say(standin, "bob", "/character add", name="Bolt", stats="init=1")


async def test_a_check_is_shown_with_its_dice_and_written_to_the_campaign_log(standin, bot):
    await campaign(standin)
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, dice="14", options="why=tide")
    assert not shown.ephemeral and shown.content == "🎲 ✍️ Nova rolls luck: 17 vs 12", shown.content
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check character:Nova kind:luck dc:12 options:why=tide" in log and "Nova rolls luck: 17 vs 12" in log
    nothing = await say(standin, "gm", "/campaign undo")  # a check that changed nothing is not undone
    assert nothing.ephemeral and "no rest, adjustment or check to undo" in nothing.content, nothing.content


async def test_a_reroll_offered_by_a_check_spends_what_it_costs_and_undo_gives_it_back(standin, bot):
    await campaign(standin)
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, dice="5")
    assert [b["label"] for b in shown.buttons()] == ["Spend luck to reroll"], shown.buttons()
    refused = await (await standin.click("bob", "Spend luck to reroll", message=shown)).response()
    assert refused.ephemeral and "Nova" in refused.content
    again = await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    assert "Nova spends luck and rerolls" in again.content and "(was 8)" in again.content, again.content
    assert again.buttons() == []
    spent = await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    assert spent.ephemeral and "over" in spent.content  # an offer is taken once
    nova = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert nova.lasting == {"luck": 0}
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid" in undone.content and "/check reroll" in undone.content, undone.content
    nova = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert nova.lasting == {}


async def test_an_undo_takes_back_its_own_check_and_leaves_later_checks_and_the_dice_alone(standin, bot):
    await campaign(standin)
    key = standin.world.default_guild.id
    nova = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, dice="5")
    await (await standin.click("alice", "Spend luck to reroll", message=nova)).response()  # Nova's luck spent
    bolt = await say(standin, "bob", "/check", character="Bolt", kind="luck", dc=12, dice="4")
    state = (await bot.core.repo.get_campaign(key)).state
    undone = await say(standin, "gm", "/campaign undo")  # takes back Nova's reroll
    assert "Undid /check reroll character:Nova" in undone.content, undone.content
    assert (await bot.core.repo.get_character(key, "Nova")).lasting == {}
    now = (await bot.core.repo.get_campaign(key)).state
    assert (now["rng"], now["checks"]) == (state["rng"], state["checks"])  # no roll comes again
    revived = await (await standin.click("alice", "Spend luck to reroll", message=nova)).response()
    assert revived.ephemeral and "over" in revived.content, revived.content
    taken = await (await standin.click("bob", "Spend luck to reroll", message=bolt)).response()
    assert not taken.ephemeral and "Bolt spends luck and rerolls" in taken.content, taken.content


async def test_only_the_owner_or_the_gm_rolls_a_characters_check_and_bad_input_changes_nothing(standin, bot):
    await campaign(standin)
    refused = await say(standin, "bob", "/check", character="Nova", kind="luck", dc=10)
    assert refused.ephemeral and "Nova" in refused.content
    assert not (await say(standin, "gm", "/check", character="Nova", kind="luck", dc=10)).ephemeral
    unknown = await say(standin, "alice", "/check", character="Nova", kind="charm", dc=10)
    assert unknown.ephemeral and "`luck`, `plain`" in unknown.content, unknown.content
    opposed = await say(standin, "alice", "/check", character="Nova", kind="luck", against="Bolt")
    assert opposed.ephemeral and "against" in opposed.content, opposed.content
    extra = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=10, dice="3 4")
    assert extra.ephemeral and "not needed" in extra.content, extra.content
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert log.count("/check") == 1  # the GM's, and no refused one


async def test_a_private_check_is_shown_to_the_roller_and_sent_to_the_gm(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/encounter start")  # the channel's GM, whom a private roll reaches
    await say(standin, "gm", "/encounter end")
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True, dice="10")
    assert shown.ephemeral and "Nova rolls luck: 13 vs 12" in shown.content, shown.content
    public = standin.messages("combat", include_ephemeral=False)
    assert not any("rolls luck" in m.content for m in public)
    (sent,) = standin.direct_messages("gm")
    assert "A private roll in" in sent.content and "Nova rolls luck: 13 vs 12" in sent.content, sent.content


async def test_a_private_checks_reroll_is_sent_to_the_gm_too(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/encounter end")
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True, dice="10")
    again = await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    assert again.ephemeral and "Only you and the GM see this roll" in again.content, again.content
    assert "Nova spends luck and rerolls" in again.content and "(was 13)" in again.content, again.content
    first, sent = standin.direct_messages("gm")
    assert "A private roll in" in sent.content and "Nova spends luck and rerolls" in sent.content, sent.content
    assert "(was 13)" in sent.content, sent.content
    public = standin.messages("combat", include_ephemeral=False)
    assert not any("rerolls" in m.content for m in public)


async def test_a_private_checks_reroll_the_gm_cannot_receive_is_refused_and_not_saved(standin, bot):
    await campaign(standin)
    key = standin.world.default_guild.id
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/encounter end")
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True, dice="10")
    before = (await bot.core.repo.get_campaign(key)).state
    standin.world.user("gm").accepts_dms = False
    refused = await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    assert refused.ephemeral and "does not accept direct messages" in refused.content, refused.content
    assert "rerolls" not in refused.content and refused.buttons() == []
    assert (await bot.core.repo.get_campaign(key)).state == before  # the campaign's dice did not move
    nova = await bot.core.repo.get_character(key, "Nova")
    assert nova.lasting == {}  # no luck spent
    standin.world.user("gm").accepts_dms = True  # the offer still stands: nothing was taken
    again = await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    assert "Nova spends luck and rerolls" in again.content, again.content
    assert any("rerolls" in m.content for m in standin.direct_messages("gm"))


async def test_a_check_that_offers_nothing_is_answered_once_and_without_buttons(standin, bot):
    await campaign(standin)
    shown = await say(standin, "alice", "/check", character="Nova", kind="plain", dc=12, dice="10")
    assert shown.content == "🎲 ✍️ Nova rolls luck: 13 vs 12" and shown.buttons() == []
    channel_messages = standin.messages("combat")
    assert not any("went wrong" in m.content for m in channel_messages), [m.content for m in channel_messages]


async def test_two_checks_at_once_keep_their_offers_and_an_offer_clicked_twice_at_once_is_taken_once(standin, bot):
    await campaign(standin)
    asked = [
        await standin.invoke(user, "/check", character=name, kind="luck", dc=12)
        for user, name in (("alice", "Nova"), ("bob", "Bolt"))
    ]
    nova, bolt = [await handle.response() for handle in asked]
    clicks = [await standin.click("alice", "Spend luck to reroll", message=nova) for _ in range(2)]
    answers = [await click.response() for click in clicks]
    assert sorted(a.ephemeral for a in answers) == [False, True], [a.content for a in answers]
    taken = await (await standin.click("bob", "Spend luck to reroll", message=bolt)).response()
    assert not taken.ephemeral and "Bolt spends luck and rerolls" in taken.content, taken.content
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert log.count("spends luck and rerolls") == 2


async def test_a_private_check_is_in_the_log_for_the_gm_and_its_roller_only(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/encounter end")
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True, dice="10")
    again = await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    assert again.ephemeral and "Nova spends luck and rerolls" in again.content, again.content
    for_bob = (await say(standin, "bob", "/campaign log")).attachments[0].data.decode()
    assert "Nova" not in for_bob and "luck" not in for_bob, for_bob
    rows = [line for line in for_bob.splitlines() if line.startswith("| 20")]
    assert len(rows) == 2 and all("| alice | (private) | (private) |" in row for row in rows), rows
    for reader in ("gm", "alice"):
        log = (await say(standin, reader, "/campaign log")).attachments[0].data.decode()
        assert "/check character:Nova kind:luck dc:12" in log and "Nova rolls luck: 13 vs 12" in log, log
        assert "Nova spends luck and rerolls" in log, log
    undone = await say(standin, "gm", "/campaign undo")  # said in the channel: still private
    assert not undone.ephemeral and "Nova" not in undone.content and "Undid" in undone.content, undone.content


async def test_an_undone_private_check_is_named_as_one_in_the_channel_and_shown_whole_to_the_gm(standin, bot):
    await campaign(standin)
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/encounter end")
    shown = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True, dice="10")
    await (await standin.click("alice", "Spend luck to reroll", message=shown)).response()
    handle = await standin.invoke("gm", "/campaign undo")
    undone, opened = [await handle.response(), await handle.followup()]
    assert not undone.ephemeral and undone.content == "↩️ Undid a private check.", undone.content
    assert opened.ephemeral and opened.content.startswith("🔒 ↩️ Undid /check reroll character:Nova: "), opened.content
    assert "Nova spends luck and rerolls" in opened.content and "(was 13)" in opened.content, opened.content
    assert (await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")).lasting == {}


async def test_a_private_check_nobody_can_be_shown_is_neither_rolled_nor_saved_nor_logged(standin, bot):
    await campaign(standin)
    key = standin.world.default_guild.id
    before = (await bot.core.repo.get_campaign(key)).state
    # no encounter in this channel yet: no GM to show it to
    refused = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True)
    assert refused.ephemeral and "none yet" in refused.content, refused.content
    # a GM who takes no direct messages
    await say(standin, "gm", "/encounter start")
    await say(standin, "gm", "/encounter end")
    standin.world.user("gm").accepts_dms = False
    refused = await say(standin, "alice", "/check", character="Nova", kind="luck", dc=12, private=True)
    assert refused.ephemeral and "does not accept direct messages" in refused.content, refused.content
    assert "rolls luck" not in refused.content and refused.buttons() == []
    assert (await bot.core.repo.get_campaign(key)).state == before  # the campaign's dice did not move
    log = await say(standin, "gm", "/campaign log")
    assert not log.attachments and "Nothing has changed" in log.content, log.content
    assert not any("rolls luck" in m.content for m in standin.messages())


async def test_only_a_gm_rolls_a_check_against_a_kept_npc(standin, bot):
    await campaign(standin)
    key, gm = standin.world.default_guild.id, standin.world.user("gm").id
    await bot.core.repo.add_character(key, gm, "Vile", KEY, {"init": 9}, npc=True)
    refused = await say(standin, "alice", "/check", character="Nova", kind="luck", against="Vile")
    assert refused.ephemeral and "only a GM rolls a check against it" in refused.content, refused.content
    # the GM is not refused for it (this toy's luck is then refused as never opposed)
    theirs = await say(standin, "gm", "/check", character="Nova", kind="luck", against="Vile")
    assert theirs.ephemeral and "not rolled against another character" in theirs.content, theirs.content
    # against another player's hero the check goes on to the rules, as before
    hero = await say(standin, "alice", "/check", character="Nova", kind="luck", against="Bolt")
    assert "not rolled against another character" in hero.content, hero.content
