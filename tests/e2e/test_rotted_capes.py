"""Rotted Capes through real discord.py and the stand-in: attack results with
every step, Plot Point buttons reaching the right player, the death choice,
read-only reports and refusals, a /help that fits one message, and /check's challenges and saves
with a Plot Point reroll."""

from __future__ import annotations

from bot.sandbox import settle
from tests.e2e.conftest import begin_fight, help_sections, say
from tests.helpers import ids

KEY = "rotted-capes"
NOVA = "dex=2 con=1 avoidance=14 fortitude=8 stamina=20 wounds=3 attack=5 damage=2d6+3 damage_type=kinetic"
BOLT = "dex=3 avoidance=15 fortitude=6 stamina=12 wounds=1 attack=5 damage=1d8+2"
BRUTE = "avoidance=15 fortitude=4 stamina=20 wounds=3 dr='energy:5' attack=4 damage=2d6"


def newest(standin, text):
    """The newest message in #combat containing `text`, or None (for wait_for)."""
    return next((m for m in reversed(standin.messages()) if text in m.content), None)


async def turn_of(standin, name):
    """The turn message (with its End turn button) of `name`."""
    return await standin.wait_for(
        lambda: next(
            (m for m in reversed(standin.messages()) if f"**{name}'s turn**" in m.content and m.buttons()), None
        )
    )


async def buttons_with(standin, label):
    """The newest message offering a button `label` (choice messages follow the command's answer)."""
    return await standin.wait_for(
        lambda: next(
            (m for m in reversed(standin.messages()) if any(b.get("label") == label for b in m.buttons())), None
        )
    )


async def fight(standin):
    """Nova (alice, 16) and Bolt (bob, 13) against a Brute (10); round 1 begins on Nova."""
    heroes = [("alice", "Nova", NOVA, {"roll": 14}), ("bob", "Bolt", BOLT, {"roll": 10})]
    await begin_fight(standin, KEY, heroes, [("Brute", BRUTE, {"roll": 10})])
    return await turn_of(standin, "Nova")


async def to_the_brutes_turn(standin):
    await (await standin.click("alice", "End turn", message=await turn_of(standin, "Nova"))).response()
    await (await standin.click("bob", "End turn", message=await turn_of(standin, "Bolt"))).response()
    return await turn_of(standin, "Brute")


async def test_an_attack_shows_every_step_and_each_turn_pings_its_player(standin, bot):
    who = ids(standin)
    turn = await fight(standin)
    assert set(turn.pings.user_ids) == {who["alice"]}
    fields = {f["name"]: f["value"] for f in turn.embeds[0]["fields"]}
    assert "Pace 4 areas left · Action ✅ · Bonus Action ✅ · Reaction ✅" in fields["Nova"]
    answer = await say(standin, "alice", "/attack", target="Brute", damage_type="fire", dice="14 5 6")
    assert not answer.ephemeral
    assert answer.content == (
        "🎲 ✍️ Nova attacks Brute: d20 14 + 5 = 19 vs Avoidance 15: hit; 2d6 (5, 6) + 3 = 14 − DR 5 (energy) = 9 "
        "Stamina; 9 > Fortitude 4 → massive: 1 Wound (Brute: 11/20 Stamina, 2/3 Wounds)"
    )
    brute_turn = await to_the_brutes_turn(standin)
    assert set(brute_turn.pings.user_ids) == {who["gm"]}
    assert set((await turn_of(standin, "Bolt")).pings.user_ids) == {who["bob"]}


async def test_the_plot_point_offer_reaches_the_defender_alone_and_changes_the_roll(standin, bot):
    who = ids(standin)
    await fight(standin)
    await to_the_brutes_turn(standin)
    waiting = await say(standin, "gm", "/attack", target="Nova", dice="18 3 4 4")
    assert waiting.content.startswith("⏳ Brute attacks Nova: the roll waits") and not waiting.pings.user_ids
    offer = await buttons_with(standin, "Spend a Plot Point: disadvantage")
    assert set(offer.pings.user_ids) == {who["alice"]}
    refused = await (await standin.click("bob", "Spend a Plot Point: disadvantage", message=offer)).response()
    assert refused.ephemeral and "not yours" in refused.content
    chosen = await (await standin.click("alice", "Spend a Plot Point: disadvantage", message=offer)).response()
    assert "🎭 Nova spends a Plot Point: the attack has disadvantage (0 left; pool 1)." in chosen.content
    assert "Brute attacks Nova: d20 dis (18, 3) 3 + 4 = 7 vs Avoidance 14: miss [dis: Plot Point]" in chosen.content
    shown = await say(standin, "bob", "/plotpoint show")
    assert shown.ephemeral and shown.content == "🎭 Plot Points: Nova 0, Bolt 1; the Editor-in-Chief's pool: 1."


async def test_a_dying_hero_and_allies_get_the_death_buttons(standin, bot):
    who = ids(standin)
    await fight(standin)
    await to_the_brutes_turn(standin)
    await say(standin, "gm", "/damage", target="Bolt", amount="20")
    offer = await buttons_with(standin, "Blaze of glory")
    assert set(offer.pings.user_ids) == {who["bob"], who["alice"]}
    labels = [b.get("label") for b in offer.buttons()]
    # Bolt has one Wound at most: none to lose to a flaw
    assert labels == ["Spend own Plot Point", "Nova spends a Plot Point", "Blaze of glory", "Die"]
    saved = await (await standin.click("alice", "Nova spends a Plot Point", message=offer)).response()
    assert "🎭 A Plot Point from Nova saves Bolt from death: 1 Wound, Unconscious (pool 1)." in saved.content
    listed = await say(standin, "carol", "/condition list")
    assert listed.ephemeral and listed.content == "**Bolt**: Unconscious"


async def test_a_fire_and_an_acid_burn_side_by_side_and_one_is_put_out_by_its_tags(standin, bot):
    await fight(standin)
    for tags, kind in (("Engulfed – Fire", "fire"), ("Engulfed – Acid", "acid")):
        added = await say(
            standin,
            "gm",
            "/condition add",
            target="Brute",
            condition="Ongoing Damage",
            tags=tags,
            options=f"damage=1d4 type={kind} dc=12",
        )
        assert "replaces" not in added.content
    listed = await say(standin, "gm", "/condition list")
    assert listed.content == (
        "**Brute**: Ongoing Damage (Engulfed – Fire) — 1d4 fire, until a DC 12 CON save at the end of one of their "
        "turns; Ongoing Damage (Engulfed – Acid) — 1d4 acid, until a DC 12 CON save at the end of one of their turns"
    )
    removed = await say(
        standin, "gm", "/condition remove", target="Brute", condition="Ongoing Damage (Engulfed – Fire)"
    )
    assert removed.content.endswith("Brute is no longer Ongoing Damage (Engulfed – Fire).")
    listed = await say(standin, "gm", "/condition list")
    assert listed.content == (
        "**Brute**: Ongoing Damage (Engulfed – Acid) — 1d4 acid, until a DC 12 CON save at the end of one of their "
        "turns"
    )


async def test_an_interrupted_demanding_action_takes_the_players_own_die(standin, bot):
    await fight(standin)
    begun = await say(standin, "alice", "/act", action="demanding", options='what="Solar Flare" interruptible')
    assert "Nova begins an interruptible demanding action: Solar Flare." in begun.content
    await to_the_brutes_turn(standin)
    await say(standin, "gm", "/attack", target="Nova", dice="12 6 2 3")
    await (await standin.click("alice", "No", message=await buttons_with(standin, "No"))).response()
    ask = await buttons_with(standin, "Roll the Constitution save")
    assert "Nova: Constitution save DC 10 to keep Solar Flare going." in ask.content
    assert set(ask.pings.user_ids) == {ids(standin)["alice"]}
    saved = await say(standin, "alice", "/choose", option="Roll the Constitution save", roll=9)
    assert "Nova CON save to keep Solar Flare: d20 9 + 1 = 10 vs DC 10: success — still going." in saved.content
    await (await standin.click("gm", "End turn", message=await turn_of(standin, "Brute"))).response()
    resolved = await standin.wait_for(lambda: newest(standin, "resolves now"))
    assert "✨ Nova's demanding action resolves now: Solar Flare." in resolved.content and not resolved.pings.user_ids


async def test_refusals_are_ephemeral_and_say_why(standin, bot):
    await fight(standin)
    cases = [
        ("bob", "/attack", {"target": "Brute"}, "not your turn"),
        ("alice", "/plotpoint award", {"target": "Nova"}, "Only the GM"),
        ("alice", "/act", {"action": "horde", "target": "Brute"}, "Only the GM changes combat modes"),
        ("alice", "/plotpoint spend", {"use": "reroll"}, "no roll to reroll"),
        ("alice", "/attack", {"target": "Brute", "options": "cover=total"}, "total cover"),
        ("alice", "/condition add", {"target": "Brute", "condition": "Petrified"}, "not a Rotted Capes condition"),
    ]
    for user, command, options, why in cases:
        answer = await say(standin, user, command, **options)
        assert answer.ephemeral and why in answer.content, (command, answer.content)
    assert standin.unknown_routes == []


async def test_a_sheet_number_no_fight_could_hold_is_refused_as_it_is_entered(standin, bot):
    huge = "9" * 400  # was stored, then broke the join with an internal error
    await say(standin, "gm", "/campaign setup", system=KEY)
    for stats, why in (
        (f"dex={huge} stamina=20", "Stat `dex`: Input should be less than or equal to 1000"),
        (NOVA + " plot_points=-3", "Stat `plot_points`: Input should be greater than or equal to 0"),
    ):
        added = await say(standin, "alice", "/character add", name="Nova", stats=stats)
        assert added.ephemeral and why in added.content, added.content
    await say(standin, "gm", "/encounter start")
    npc = await say(standin, "gm", "/initiative add", name="Zed", stats=f"init={huge}")
    assert npc.ephemeral and "Stat `init`: Input should be less than or equal to 1000" in npc.content, npc.content
    joined = await say(standin, "alice", "/initiative join", character="Nova")
    assert joined.ephemeral and "No character called Nova" in joined.content, joined.content


async def test_an_award_past_the_most_plot_points_is_refused_naming_the_balance(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA + " plot_points=95")
    await say(standin, "gm", "/encounter start")
    await say(standin, "alice", "/initiative join", character="Nova", roll=14)
    refused = await say(standin, "gm", "/plotpoint award", target="Nova", amount=6)
    assert refused.ephemeral and "Nova holds 95 Plot Points; a hero holds at most 100." in refused.content
    awarded = await say(standin, "gm", "/plotpoint award", target="Nova", amount=5)
    assert "Nova earns 5 Plot Points: now 100." in awarded.content, awarded.content


async def test_help_fits_one_message_and_names_the_tools(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    answer, text = await help_sections(standin, "alice")
    assert answer.ephemeral and not text.endswith("…")
    tools = ("/attack", "/plotpoint", "/condition add", "horde", "unleash", "**Defaults**", "advantage=count")
    for needed in tools + ("**Checks**", "/check"):
        assert needed in text, needed


async def test_a_hidden_npcs_hit_on_a_hero_lets_nobody_derive_its_bonus(standin, bot):
    """Tank's tracker shows what it lost (39 after DR 3): the public line shows the total too, and hides
    the damage die with the bonus, so nobody can subtract their way to the Shade's +37 or its +41 to hit."""
    from rules.secrets import conceal
    from tests.rules.derive import derivable

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
        stats="avoidance=15 attack=41 damage=1d6+37",
        roll=1,
        hidden=True,
    )
    await say(standin, "gm", "/initiative next")
    await (await standin.click("alice", "End turn", message=await turn_of(standin, "Tank"))).response()
    await turn_of(standin, "Shade")
    answer = await say(standin, "gm", "/attack", target="Tank", dice="12 5")
    if answer.content.startswith("⏳"):  # a Plot Point offer after all: decline it
        offer = await buttons_with(standin, "No")
        answer = await (await standin.click("alice", "No", message=offer)).response()
    line = next(m.content for m in reversed(standin.messages()) if "Shade attacks Tank:" in m.content)
    assert "d20 12 + ? = ? vs Avoidance 14: hit; 1d6 (?) + ? = 42 − DR 3 (kinetic) = 39 Stamina" in line
    public = [conceal(m.content) for m in standin.messages()]
    assert not derivable(public, {39}) & {37, 41, 53}


async def checks_campaign(standin):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA + " saves='wis:2'")
    await say(standin, "bob", "/character add", name="Bolt", stats=BOLT)


async def test_a_challenge_and_a_save_roll_from_the_sheet_and_what_the_hero_carries(standin, bot):
    await checks_campaign(standin)
    challenge = await say(
        standin, "alice", "/check", character="Nova", kind="challenge", dc=15, options="dex", dice="13"
    )
    assert not challenge.ephemeral and challenge.content.startswith(
        "🎲 ✍️ Nova DEX challenge: d20 13 + 2 = 15 vs DC 15: success"
    ), challenge.content
    await say(standin, "gm", "/campaign adjust", character="Nova", key="wounds", value="2")
    hurt = await say(standin, "alice", "/check", character="Nova", kind="challenge", dc=15, options="dex", dice="13")
    assert hurt.content.startswith(
        "🎲 ✍️ Nova DEX challenge: d20 13 + 2 − 1 wounds/exhaustion = 14 vs DC 15: failure"
    ), hurt.content
    # the Wounded penalty falls on challenges and attacks, not on saves
    save = await say(standin, "alice", "/check", character="Nova", kind="save", dc=15, dice="14")
    assert save.content.startswith("🎲 ✍️ Nova CON save: d20 14 + 1 = 15 vs DC 15: success"), save.content
    wis = await say(
        standin, "alice", "/check", character="Nova", kind="save", dc=12, options="wis dis bonus=5", dice="15 9"
    )
    assert wis.content.startswith("🎲 ✍️ Nova WIS save: d20 dis (15, 9) 9 + 2 + 5 situational = 16 vs DC 12: success"), (
        wis.content
    )
    log = (await say(standin, "gm", "/campaign log")).attachments[0].data.decode()
    assert "/check character:Nova kind:challenge dc:15" in log and "Nova WIS save" in log
    missing = await say(standin, "alice", "/check", character="Nova", kind="challenge", dc=15)
    assert missing.ephemeral and "Name the ability" in missing.content, missing.content
    unknown = await say(standin, "alice", "/check", character="Nova", kind="save", dc=15, options="stress=2")
    assert unknown.ephemeral and "`adv`" in unknown.content, unknown.content
    no_dc = await say(standin, "alice", "/check", character="Nova", kind="save")
    assert no_dc.ephemeral and "needs a DC" in no_dc.content, no_dc.content


async def test_a_plot_point_rerolls_a_check_and_undo_gives_it_back(standin, bot):
    await checks_campaign(standin)
    shown = await say(standin, "alice", "/check", character="Nova", kind="challenge", dc=15, options="dex", dice="4")
    assert "Nova DEX challenge: d20 4 + 2 = 6 vs DC 15: failure" in shown.content, shown.content
    assert [b["label"] for b in shown.buttons()] == ["Spend a Plot Point: reroll"], shown.buttons()
    again = await (await standin.click("alice", "Spend a Plot Point: reroll", message=shown)).response()
    assert "🎭 Nova spends a Plot Point to reroll the d20 (0 left; pool 1)." in again.content, again.content
    assert "Nova DEX challenge: d20" in again.content and again.buttons() == []
    nova = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert nova.lasting == {"plot_points": 0}
    campaign = await bot.core.repo.get_campaign(standin.world.default_guild.id)
    assert campaign.state["rules"]["pool"] == 1
    broke = await say(standin, "alice", "/check", character="Nova", kind="save", dc=15, dice="4")
    assert broke.buttons() == []  # no Plot Point left: nothing offered
    undone = await say(standin, "gm", "/campaign undo")
    assert "Undid" in undone.content and "/check reroll" in undone.content, undone.content
    nova = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert nova.lasting == {}
    campaign = await bot.core.repo.get_campaign(standin.world.default_guild.id)
    assert not (campaign.state.get("rules") or {}).get("pool")


async def test_in_brutal_continuity_a_heros_save_takes_the_exhaustion_penalty(standin, bot):
    """The book's optional rule: "When playing in the Brutal Continuity, the penalty also applies to the Hero's
    saves, defenses, and burnout threshold"."""
    nova, brute = ("alice", "Nova", NOVA, {"roll": 14}), ("Brute", BRUTE, {"roll": 10})
    await begin_fight(standin, KEY, [nova], [brute], settings="brutal_continuity=true")
    await turn_of(standin, "Nova")
    tired = await say(standin, "gm", "/condition add", target="Nova", condition="Exhaustion 2")
    assert not tired.ephemeral, tired.content
    saved = await say(standin, "alice", "/save", kind="con", dc=10, dice="10")
    assert not saved.ephemeral, saved.content
    assert "Nova CON save: d20 10 + 1 − 2 exhaustion = 9 vs DC 10: failure" in saved.content, saved.content
    brute = await say(standin, "gm", "/condition add", target="Brute", condition="Exhaustion 2")
    assert not brute.ephemeral, brute.content
    spared = await say(standin, "gm", "/save", actor="Brute", kind="con", dc=10, dice="10")
    assert "Brute CON save: d20 10 + 0 = 10 vs DC 10: success" in spared.content, spared.content  # heroes only


ROT = "con=1 avoidance=12 fortitude=30 stamina=30 wounds=3 attack=4 damage=2d6"


async def test_an_unleashed_villains_save_to_keep_its_demanding_action_offers_its_advantage_and_auto_success(
    standin, bot
):
    """ "Once per round, the villain may roll with Advantage on any attack, defense, or saving throw"; "Once per
    round, the Editor-in-Chief may use a plot point to have the villain automatically succeed in a saving throw"."""
    who = ids(standin)
    await begin_fight(standin, KEY, [("alice", "Nova", NOVA, {"roll": 14})], [("Dr Rot", ROT, {"roll": 18})])
    await turn_of(standin, "Dr Rot")
    unleashed = await say(standin, "gm", "/act", action="unleash", target="Dr Rot")
    assert not unleashed.ephemeral, unleashed.content
    begun = await say(standin, "gm", "/act", action="demanding", options='what="Doom Ray" interruptible')
    assert "Dr Rot begins an interruptible demanding action: Doom Ray." in begun.content, begun.content
    spent = await say(standin, "alice", "/plotpoint spend", use="narrative", text="a lucky break")
    assert "pool 1" in spent.content, spent.content  # the point the villain's automatic success needs
    await (await standin.click("gm", "End turn", message=await turn_of(standin, "Dr Rot"))).response()
    await turn_of(standin, "Nova")

    # Nova hits (15 + 5 against Avoidance 12, with advantage against the busy villain) for 2d6 (3, 4) + 3 = 10:
    # a DC 10 save for the villain, the GM's.
    await say(standin, "alice", "/attack", target="Dr Rot", dice="15 15 3 4")
    ask = await buttons_with(standin, "Succeed automatically (a Plot Point from the pool)")
    assert "Dr Rot: Constitution save DC 10 to keep Doom Ray going." in ask.content, ask.content
    assert set(ask.pings.user_ids) == {who["gm"]}
    assert [b["label"] for b in ask.buttons()] == [
        "Roll the Constitution save",
        "Roll it with the Unleashed advantage",
        "Succeed automatically (a Plot Point from the pool)",
    ]
    refused = await (
        await standin.click("alice", "Succeed automatically (a Plot Point from the pool)", message=ask)
    ).response()
    assert refused.ephemeral and "not yours" in refused.content, refused.content
    kept = await (
        await standin.click("gm", "Succeed automatically (a Plot Point from the pool)", message=ask)
    ).response()
    assert (
        "🎭 The Editor-in-Chief spends a Plot Point from the pool: Dr Rot's CON save to keep Doom Ray (DC 10) "
        "succeeds automatically — still going (pool 0)."
    ) in kept.content, kept.content

    # A second hit the same round: the automatic success is spent, the advantage is still there.
    await say(standin, "gm", "/damage", target="Dr Rot", amount="4")
    first = ask
    ask = await standin.wait_for(
        lambda: next((m for m in reversed(standin.messages()) if m.id > first.id and m.buttons()), None)
    )
    assert "Dr Rot: Constitution save DC 10 to keep Doom Ray going." in ask.content, ask.content
    assert [b["label"] for b in ask.buttons()] == ["Roll the Constitution save", "Roll it with the Unleashed advantage"]
    rolled = await (await standin.click("gm", "Roll it with the Unleashed advantage", message=ask)).response()
    assert "Dr Rot CON save to keep Doom Ray: d20 adv (" in rolled.content, rolled.content
    assert "[adv: Unleashed]" in rolled.content, rolled.content


async def test_encounter_status_shows_what_is_left_of_the_turn_after_acting(standin, bot):
    await fight(standin)
    before = await say(standin, "alice", "/encounter status")
    assert [f["name"] for f in before.embeds[0]["fields"]] == ["Nova"], before.embeds
    assert "Action ✅" in before.embeds[0]["fields"][0]["value"]
    await say(standin, "alice", "/act", action="dodge")
    after = await say(standin, "alice", "/encounter status")
    assert after.ephemeral
    (field,) = after.embeds[0]["fields"]
    assert field["name"] == "Nova" and "Action ❌" in field["value"], field


async def test_plotpoint_show_between_fights_reads_the_stored_heroes_and_the_pool(standin, bot):
    await say(standin, "gm", "/campaign setup", system=KEY)
    await say(standin, "alice", "/character add", name="Nova", stats=NOVA)
    await say(standin, "bob", "/character add", name="Bolt", stats=BOLT + " plot_points=3")
    shown = await say(standin, "alice", "/plotpoint show")
    assert shown.ephemeral
    assert shown.content == "🎭 Plot Points: Bolt 3, Nova 1; the Editor-in-Chief's pool: 0."
    refused = await say(standin, "alice", "/condition list")  # a fight's conditions need a fight
    assert refused.ephemeral and "There is no encounter in this channel" in refused.content


def live(standin):
    """The channel's messages whose buttons still answer something."""
    return [m for m in standin.messages() if m.buttons() and not m.ephemeral and not m.deleted]


async def test_an_undo_back_into_a_question_asks_it_alone_and_the_turn_comes_back_with_the_answer(standin, bot):
    await fight(standin)
    await to_the_brutes_turn(standin)
    await say(standin, "gm", "/attack", target="Nova", dice="18 3 4 4")
    offer = await buttons_with(standin, "Spend a Plot Point: disadvantage")
    await (await standin.click("alice", "Spend a Plot Point: disadvantage", message=offer)).response()
    await say(standin, "gm", "/initiative next")
    novas = await standin.wait_for(lambda: newest(standin, "**Nova's turn** · round 2"))

    undone = await say(standin, "gm", "/encounter undo", count=2)
    assert "Undid 2 actions" in undone.content, undone.content
    await settle(standin, bot)
    # The question holds up the Brute's turn: it alone has buttons, Nova's turn is over again.
    (again,) = live(standin)
    assert again is not offer and again.has_component(label="Spend a Plot Point: disadvantage")
    assert not novas.components

    await say(standin, "alice", "/choose", option="Spend a Plot Point: disadvantage")
    await settle(standin, bot)
    brutes = newest(standin, "**Brute's turn** · round 1")
    assert live(standin) == [brutes] and brutes.has_component(label="End turn")
    await (await standin.click("gm", "End turn", message=brutes)).response()
    await standin.wait_for(lambda: newest(standin, "**Nova's turn** · round 2"))
