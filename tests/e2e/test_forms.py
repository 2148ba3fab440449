"""A character's sheet through Discord forms (modals), in every system: /character add without
stats opens one, /character edit opens it filled with the sheet, a wrong value is refused naming
its field with a button that opens the form again as it was typed, and /character show lays the
sheet out in the form's sections."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot import sheet_forms
from bot.sheet_forms import Draft, Drafts, blank_texts
from bot.standin import interactions as ix
from bot.standin.commands import InvalidInvocation
from bot.standin.modals import form_of
from rules import registry
from tests.e2e.conftest import say
from tests.markup import markup_in
from tests.reliability.hostile import MARKUP

SYSTEMS = ["rotted-capes", "fightin-words", "factions", "99-towers", "frozen-lands"]


def numeric_key(system) -> tuple[str, str, int]:
    """The first whole-number key of the sheet (its section's label) and a value it takes other than its default."""
    for section in system.sheet_form():
        for key in section.keys:
            info = system.sheet_type.model_fields[key]
            if info.annotation is not int:
                continue
            low = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
            high = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
            for value in (info.default + 1, info.default - 1, low, high):
                if value is not None and value != info.default and (low is None or value >= low):
                    if high is None or value <= high:
                        return section.label, key, value
    raise AssertionError(f"{system.key} has no whole-number key")


def with_value(text: str, key: str, value: object) -> str:
    return "\n".join(f"{key}={value}" if line.partition("=")[0] == key else line for line in text.splitlines())


def shown_sheet(message) -> dict[str, str]:
    (embed,) = message.embeds
    return {field["name"]: field["value"] for field in embed.get("fields", [])}


@pytest.mark.parametrize("key", SYSTEMS)
async def test_a_character_is_created_and_edited_through_the_form(standin, bot, key) -> None:
    system = registry.get(key)
    await say(standin, "gm", "/campaign setup", system=key)
    opened = await standin.invoke("alice", "/character add", name="Nova")
    form = await opened.form()
    assert [field.label for field in form.inputs] == [section.label for section in system.sheet_form()]
    for field, section in zip(form.inputs, system.sheet_form(), strict=True):
        assert field.style == 2 and field.value == blank_texts(system)[section.label]
        assert all(line.partition("=")[0] in section.keys for line in field.value.splitlines())
        assert "key=value" in field.placeholder and section.keys[0] in field.placeholder
        assert f"{section.keys[0]}=2" not in field.placeholder  # no example a weapon list or yes/no would refuse
    label, stat, value = numeric_key(system)
    typed = with_value(form.field(label).value, stat, value)
    stored = await (await standin.submit("alice", opened, {label: typed})).response()
    assert "Nova" in stored.content and "is stored" in stored.content
    record = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert record.sheet[stat] == value

    edit = await standin.invoke("alice", "/character edit", name="Nova")
    filled = await edit.form()
    assert f"{stat}={value}" in filled.field(label).value.splitlines()
    again = value + 1 if value + 1 != system.sheet_type.model_fields[stat].default else value - 1
    edited = await standin.submit("alice", edit, {label: with_value(filled.field(label).value, stat, again)})
    assert "is updated" in (await edited.response()).content
    record = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert record.sheet[stat] == again
    shown = shown_sheet(await say(standin, "alice", "/character show", name="Nova"))
    assert f"`{stat}` = {again}" in shown[label].splitlines()


async def test_two_players_filling_in_forms_at_once_each_store_their_own(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    alices = await standin.invoke("alice", "/character add", name="Nova")
    bobs = await standin.invoke("bob", "/character add", name="Bolt")
    await alices.form()
    await bobs.form()
    assert (await (await standin.submit("alice", alices, {})).response()).content.count("Nova") == 1
    assert "Bolt" in (await (await standin.submit("bob", bobs, {})).response()).content
    guild = standin.world.default_guild.id
    nova, bolt = [await bot.core.repo.get_character(guild, n) for n in ("Nova", "Bolt")]
    assert (nova.owner_id, bolt.owner_id) == (standin.world.user("alice").id, standin.world.user("bob").id)


async def test_a_wrong_value_is_refused_naming_its_field_and_the_form_reopens_as_typed(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    form = await opened.form()
    typed = with_value(form.field("Attributes").value, "body", "lots")
    refused = await (await standin.submit("alice", opened, {"Attributes": typed})).response()
    assert refused.ephemeral and "Attributes" in refused.content and "body" in refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
    reopened = await standin.click("alice", "Fix the form", message=refused)
    again = await reopened.form()
    assert again.field("Attributes").value == typed
    assert again.field("Skills").value == form.field("Skills").value
    fixed = with_value(typed, "body", "3")
    stored = await (await standin.submit("alice", reopened, {"Attributes": fixed})).response()
    assert "is stored" in stored.content
    record = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert record.sheet["body"] == 3


async def test_a_sheet_is_only_stored_from_a_form_if_it_opens_again_in_one(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    # Any key may be typed in any field: this one comes back in another, beside its defaults.
    long = "companion_of=" + "x" * 3980
    refused = await (await standin.submit("alice", opened, {"Abilities": long})).response()
    assert refused.ephemeral and "Zombies and companions" in refused.content and "4000" in refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
    reopened = await standin.click("alice", "Fix the form", message=refused)
    assert (await reopened.form()).field("Abilities").value == long
    fits = "companion_of=" + "x" * 3900
    assert "is stored" in (await (await standin.submit("alice", reopened, {"Abilities": fits})).response()).content
    form = await (await standin.invoke("alice", "/character edit", name="Nova")).form()
    assert all(len(form.field(label).value) <= 4000 for label in ("Abilities", "Zombies and companions"))


async def test_a_stored_sheet_too_long_for_a_form_is_not_opened_in_one(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    assert not (await say(standin, "alice", "/character add", name="Nova", stats="dex=1")).ephemeral
    guild = standin.world.default_guild.id
    record = await bot.core.repo.get_character(guild, "Nova")
    await bot.core.repo.set_character_sheet(guild, record.id, record.sheet | {"companion_of": "x" * 4000})
    refused = await (await standin.invoke("alice", "/character edit", name="Nova")).response()
    assert refused.ephemeral and "Zombies and companions" in refused.content, refused.content


async def test_only_the_owner_or_the_gm_edits_a_sheet(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "alice", "/character add", name="Nova", stats="str=12")
    refused = await (await standin.invoke("bob", "/character edit", name="Nova")).response()
    assert refused.ephemeral and "⛔" in refused.content
    by_gm = await (await standin.invoke("gm", "/character edit", name="Nova")).form()
    assert "str=12" in by_gm.field("Attributes").value.splitlines()


async def test_stats_autocomplete_suggests_the_next_key_with_its_meaning_and_range(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    system = registry.get("frozen-lands")
    body, agility = system.key_help("body"), system.key_help("agility")
    assert body == ("BODY: toughness; adds to Stamina", "0–10")  # the sheet's own words

    async def typing(stats: str) -> list[dict]:
        handle = await standin.autocomplete("alice", "/character add", "stats", name="Nova", stats=stats)
        return await handle.choices()

    agility_line = f"agility= {agility[0]} ({agility[1]})"
    assert await typing("body=3 ag") == [{"name": agility_line, "value": "body=3 agility="}]
    first = await typing("")
    body_line = "body= BODY: toughness; adds to Stamina (0–10)"
    assert first[0] == {"name": body_line, "value": "body="} and len(first) == 25
    assert await typing("body=") == [{"name": body_line, "value": "body="}]
    after = await typing("body=3 agility=2 ")
    assert after[0]["value"] == "body=3 agility=2 mind="
    assert not any(c["value"].endswith(("body=", "agility=")) for c in after)
    # A suggestion repeats all that was typed: offered only while it fits a choice's 100 characters.
    typed = "body=3 " + "x" * 88
    near = await typing(typed + " ")
    assert [c["value"] for c in near] == [f"{typed} {key}=" for key in system.sheet_type.model_fields if len(key) <= 3]


def test_typed_forms_are_kept_for_a_while_and_in_bounded_number(monkeypatch) -> None:
    drafts = Drafts(size=3, seconds=60)
    draft = Draft(guild=1, user_id=2, system="factions", texts={"Attributes": "str=x"}, name="Nova")
    tokens = [drafts.keep(draft) for _ in range(5)]
    assert len(drafts) == 3 and drafts.get(tokens[0]) is None and drafts.get(tokens[-1]) == draft
    assert all(len(token) == 16 for token in tokens) and len(set(tokens)) == 5
    now = time.monotonic()
    monkeypatch.setattr(time, "monotonic", lambda: now + 61)
    assert drafts.get(tokens[-1]) is None
    drafts.keep(draft)
    assert len(drafts) == 1


async def test_show_is_an_embed_in_the_sheets_sections(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    await say(standin, "alice", "/character add", name="Nova", stats="body=3 stealth=2")
    shown = await say(standin, "alice", "/character show", name="Nova")
    fields = shown_sheet(shown)
    sections = [section.label for section in registry.get("frozen-lands").sheet_form()]
    assert list(fields) == ["Between fights", *sections] and sections[:2] == ["Attributes", "Skills"]
    assert "`body` = 3" in fields["Attributes"].splitlines() and "`stealth` = 2" in fields["Skills"].splitlines()
    hidden = await say(standin, "bob", "/character show", name="Nova")
    assert shown_sheet(hidden) == {} and "body" not in hidden.embeds[0].get("description", "")


@pytest.mark.parametrize("payload", [MARKUP[0], MARKUP[5], "<@123456789012345678> @everyone"])
async def test_markup_typed_in_the_form_is_shown_literally(standin, bot, payload) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    name = f"Nova {payload}"[:60]
    opened = await standin.invoke("alice", "/character add", name=name)
    form = await opened.form()
    assert form.title.startswith("Sheet of Nova")
    typed = with_value(form.field("Attributes").value, "str", payload)
    refused = await (await standin.submit("alice", opened, {"Attributes": typed})).response()
    assert refused.ephemeral and "Attributes" in refused.content and "str" in refused.content
    fixing = await standin.click("alice", "Fix the form", message=refused)
    assert (await fixing.form()).field("Attributes").value == typed
    weapon = with_value(form.field("Size and weapons").value, "weapons", f"sword {payload}:d6")
    fields = {"Attributes": form.field("Attributes").value, "Size and weapons": weapon}
    unread = await (await standin.submit("alice", fixing, fields)).response()
    assert unread.ephemeral and "Size and weapons" in unread.content and "weapons" in unread.content
    fixing = await standin.click("alice", "Fix the form", message=unread)
    assert (await fixing.form()).field("Size and weapons").value == weapon
    plain = {"Size and weapons": form.field("Size and weapons").value}
    stored = await (await standin.submit("alice", fixing, plain)).response()
    assert "is stored" in stored.content
    shown = await say(standin, "alice", "/character show", name=name)
    said = [refused, unread, stored, shown]
    assert markup_in(said) == []
    assert all(not m.current.mentions.user_ids and not m.current.mentions.everyone for m in said)


async def test_a_form_is_only_sent_as_discords_client_would(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    with pytest.raises(InvalidInvocation, match="no field"):
        await standin.submit("alice", opened, {"Stats": "str=3"})
    with pytest.raises(InvalidInvocation, match="opened for alice"):
        await standin.submit("bob", opened, {"Attributes": "str=3"})
    with pytest.raises(InvalidInvocation, match="4000"):
        await standin.submit("alice", opened, {"Attributes": "x" * 4001})


async def test_a_form_no_longer_kept_asks_for_the_command_again(standin, bot, monkeypatch) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    refused = await (await standin.submit("alice", opened, {"Attributes": "str=lots"})).response()
    monkeypatch.setattr(sheet_forms, "DRAFTS", Drafts())  # as after a restart
    gone = await (await standin.click("alice", "Fix the form", message=refused)).response()
    assert gone.ephemeral and gone.content == "⛔ This form was not kept: run the command again."


def forged_submit(standin, user, opened, values: dict[str, str]):
    """A modified client's submit: any user, any lengths, fields named by label."""
    form = form_of(opened.modal)
    row = [{"type": 4, "custom_id": t.custom_id, "value": values.get(t.label, t.value)} for t in form.inputs]
    data = {"custom_id": form.custom_id, "components": [{"type": 1, "components": [c]} for c in row]}
    u = standin.world.user(user)
    return standin._send_interaction(
        ix.MODAL_SUBMIT, u, opened.channel, data, f"{u.name}: forged submit", custom_id=form.custom_id
    )


async def test_a_modified_clients_form_is_held_to_what_discord_would_take(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    stranger = await forged_submit(standin, "bob", opened, {"Attributes": "str=12"}).response()
    assert stranger.ephemeral and "not yours" in stranger.content, stranger.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
    long = await forged_submit(standin, "alice", opened, {"Attributes": "str=12\n" + "x" * 5000}).response()
    assert long.ephemeral and "Attributes" in long.content and "4000" in long.content, long.content
    reopened = await standin.click("alice", "Fix the form", message=long)
    assert len((await reopened.form()).field("Attributes").value) == 4000


async def test_a_form_fixed_and_stored_cannot_be_reopened_from_its_old_button(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    refused = await (await standin.submit("alice", opened, {"Attributes": "str=lots"})).response()
    reopened = await standin.click("alice", "Fix the form", message=refused)
    await reopened.form()
    stored = await (await standin.submit("alice", reopened, {"Attributes": "str=12"})).response()
    assert "is stored" in stored.content
    again = await (await standin.click("alice", "Fix the form", message=refused)).response()
    assert again.ephemeral and "not kept" in again.content, again.content


async def test_a_form_opened_before_the_campaign_changed_system_stores_nothing(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    await say(standin, "gm", "/campaign setup", system="frozen-lands")
    refused = await (await standin.submit("alice", opened, {"Abilities": "dex=3"})).response()
    assert refused.ephemeral and "Frozen Lands now" in refused.content, refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None


async def test_of_two_edit_forms_open_at_once_the_later_cannot_undo_the_earlier(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "alice", "/character add", name="Nova", stats="str=12")
    forms = [await standin.invoke(user, "/character edit", name="Nova") for user in ("alice", "gm")]
    for opened in forms:
        await opened.form()
    first = await (await standin.submit("alice", forms[0], {"Attributes": "str=14"})).response()
    assert "updated" in first.content, first.content
    second = await (await standin.submit("gm", forms[1], {"Attributes": "str=9"})).response()
    assert second.ephemeral and "changed since" in second.content and not second.buttons(), second.content
    record = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert record.sheet["str"] == 14


async def test_a_control_character_typed_in_the_form_is_refused_as_the_stats_option_refuses_it(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    form = await opened.form()
    typed = with_value(form.field("Attack").value, "damage_type", "fire\x1b[31m")
    refused = await forged_submit(standin, "alice", opened, {"Attack": typed}).response()
    assert refused.ephemeral and "Attack" in refused.content and "U+001B" in refused.content, refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
    reopened = await standin.click("alice", "Fix the form", message=refused)
    assert (await reopened.form()).field("Attack").value == typed


async def test_a_form_line_is_read_as_the_stats_option_reads_it_or_refused_never_dropped(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    typed = "str:12\nagi 9\nwit=3"
    refused = await (await standin.submit("alice", opened, {"Attributes": typed})).response()
    assert refused.ephemeral and "Attributes" in refused.content and "agi 9" in refused.content, refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
    reopened = await standin.click("alice", "Fix the form", message=refused)
    assert (await reopened.form()).field("Attributes").value == typed
    stored = await (await standin.submit("alice", reopened, {"Attributes": "str:12\nagi:9\nwit=3"})).response()
    assert "is stored" in stored.content, stored.content
    record = await bot.core.repo.get_character(standin.world.default_guild.id, "Nova")
    assert (record.sheet["str"], record.sheet["agi"], record.sheet["wit"]) == (12, 9, 3)
    # A key typed in another field than its own, which still gives it, is refused rather than overwritten.
    opened = await standin.invoke("alice", "/character add", name="Mira")
    await opened.form()
    typed = "str=10\nagi=10\nwit=10\nhealth=15"
    refused = await (await standin.submit("alice", opened, {"Attributes": typed})).response()
    assert refused.ephemeral and "Attributes" in refused.content and "Health and armour" in refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Mira") is None


@pytest.mark.parametrize("name", ["Nova", "nova", "   "])
async def test_a_name_that_cannot_be_stored_is_refused_before_the_form_opens(standin, bot, name) -> None:
    # The form cannot change its name: filled in first, it could only be refused again and again.
    await say(standin, "gm", "/campaign setup", system="rotted-capes")
    await say(standin, "alice", "/character add", name="Nova", stats="dex=3")
    opened = await standin.invoke("alice", "/character add", name=name)
    refused = await opened.response()
    assert opened.modal is None and refused.ephemeral and "⛔" in refused.content
    assert [r.name for r in await bot.core.repo.list_characters(standin.world.default_guild.id)] == ["Nova"]
    # Another player's Nova is theirs to store.
    assert (await (await standin.invoke("bob", "/character add", name="Nova")).form()) is not None


async def test_a_form_sent_after_the_bot_stopped_waiting_for_it_is_refused_not_left_unanswered(standin, bot) -> None:
    # Discord keeps a form open as long as the player likes; the bot waits 30 minutes, and not across a restart.
    await say(standin, "gm", "/campaign setup", system="factions")
    opened = await standin.invoke("alice", "/character add", name="Nova")
    await opened.form()
    sheet_forms.close_forms()  # as a restart or the wait's end does
    late = await (await standin.submit("alice", opened, {"Attributes": "str=12"})).response()
    assert late.ephemeral and late.content == "⛔ This form is no longer open: run the command again.", late.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
    opened = await standin.invoke("alice", "/character add", name="Nova")
    form = await opened.form()
    (waiting,) = [f for f in sheet_forms.OPEN_FORMS if f.custom_id == form.custom_id]
    waiting._dispatch_timeout()  # discord.py's own end of the 30 minutes
    await asyncio.sleep(0)
    late = await (await standin.submit("alice", opened, {"Attributes": "str=12"})).response()
    assert late.ephemeral and "no longer open" in late.content, late.content
    answered = await standin.invoke("alice", "/character add", name="Nova")
    await answered.form()
    assert "is stored" in (await (await standin.submit("alice", answered, {})).response()).content


async def test_an_edit_form_sent_after_its_character_was_removed_is_refused_as_other_refusals_are(standin, bot) -> None:
    await say(standin, "gm", "/campaign setup", system="factions")
    await say(standin, "alice", "/character add", name="Nova", stats="str=12")
    opened = await standin.invoke("alice", "/character edit", name="Nova")
    await opened.form()
    await say(standin, "alice", "/character remove", name="Nova")
    refused = await (await standin.submit("alice", opened, {"Attributes": "str=14"})).response()
    assert refused.ephemeral and refused.content.startswith("⛔") and "no longer stored" in refused.content
    assert await bot.core.repo.get_character(standin.world.default_guild.id, "Nova") is None
