"""Slash commands, components, autocomplete, modals, files and pins over real sockets."""

from __future__ import annotations

import discord
import pytest

from bot.standin import SANDBOX_GUILD, InvalidInvocation, NoBotSession, StandInTimeout
from bot.standin.modals import modal_problems

from .probe_bot import PNG_BYTES, ProbeBot, probe_schemas


async def test_ping_answers_ok(standin, bot: ProbeBot) -> None:
    handle = await standin.invoke("alice", "/probe ping")
    msg = await handle.response()
    assert msg.content == "ok"
    assert handle.response_type == 4
    assert msg.interaction is handle and not msg.ephemeral
    assert msg.channel_id == standin.world.channel("combat").id
    assert standin.messages("combat") == [msg]


async def test_ephemeral_flag_is_recorded_and_hidden_from_channel_api(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("bob", "/probe secret")).response()
    assert msg.ephemeral and msg.flags & 64
    assert standin.messages("combat", include_ephemeral=False) == []
    with pytest.raises(discord.NotFound):
        await bot.get_channel(msg.channel_id).fetch_message(msg.id)


async def test_deferred_then_edited(standin, bot: ProbeBot) -> None:
    handle = await standin.invoke("alice", "/probe slow", in_channel="combat-2")
    assert await handle.acknowledged() == 5
    msg = await handle.response()
    assert msg.content == "done thinking" and not msg.loading
    assert msg.revisions[0].flags & 128  # the "thinking…" placeholder
    assert not msg.edited  # the first edit of a deferral is the answer, not an edit
    assert msg.channel_id == standin.world.channel("combat-2").id


async def test_deferred_ephemeral_keeps_ephemerality(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("alice", "/probe slow", ephemeral=True)).response()
    assert msg.ephemeral and msg.content == "done thinking"


async def test_followups_after_defer(standin, bot: ProbeBot) -> None:
    handle = await standin.invoke("carol", "/probe followups")
    first = await handle.response()
    second = await handle.followup(0)
    assert first.content == "first"  # the first followup replaces the placeholder
    assert second.content == "second" and second.ephemeral and second.is_followup
    assert [m.content for m in handle.messages] == ["first", "second"]


async def test_button_click_updates_message(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("gm", "/probe buttons")).response()
    assert [b["label"] for b in msg.buttons()] == ["End turn", "Next round", "Roll"]
    click = await standin.click("alice", "End turn")
    updated = await click.response()
    assert click.response_type == 7
    assert updated is msg
    assert msg.content == "Turn ended by alice"
    assert msg.find_component(label="End turn")["disabled"] is True
    assert msg.edited and [r.content for r in msg.edit_history] == ["Your turn, alice", "Turn ended by alice"]
    with pytest.raises(InvalidInvocation):
        await standin.click("bob", "End turn")  # disabled now


async def test_deferred_update_then_edit_original(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("gm", "/probe buttons")).response()
    click = await standin.click("gm", "Next round", message=msg)
    assert await click.response() is msg
    assert click.response_type == 6
    assert msg.content == "Round 2"


async def test_button_by_custom_id_gives_ephemeral_reply(standin, bot: ProbeBot) -> None:
    await (await standin.invoke("gm", "/probe buttons")).response()
    reply = await (await standin.click("bob", custom_id="probe:roll")).response()
    assert reply.content == "bob rolled 17" and reply.ephemeral
    assert reply.interaction.user.name == "bob"


async def test_autocomplete_returns_bot_choices(standin, bot: ProbeBot) -> None:
    handle = await standin.autocomplete("alice", "/probe monster", "name", name="o")
    choices = await handle.choices()
    assert [c["value"] for c in choices] == ["Orc", "Ogre", "Owlbear"]
    assert handle.response_type == 8
    msg = await (await standin.invoke("alice", "/probe monster", name="Orc", count=3)).response()
    assert msg.content == "3 x Orc"


async def test_typed_and_resolved_options(standin, bot: ProbeBot) -> None:
    msg = await (
        await standin.invoke("gm", "/probe gm roll", dice=20, bonus=1.5, secret=True, target="@bob")
    ).response()
    assert msg.content == "dice=20 bonus=1.5 secret=True target=bob"
    assert msg.ephemeral
    where = await (await standin.invoke("gm", "/probe where", {"channel": "#combat-3", "role": "@GM"})).response()
    assert where.content == "combat-3 / GM"
    side = await (await standin.invoke("gm", "/probe side", side="monsters")).response()
    assert side.content == "side=monsters"


@pytest.mark.parametrize(
    "path, options, problem",
    [
        ("/probe nope", {}, "no subcommand"),
        ("/probe", {}, "needs a subcommand"),
        ("/probe gm roll", {}, "missing required"),
        ("/probe gm roll", {"dice": "20"}, "is a integer"),
        ("/probe gm roll", {"dice": True}, "is a integer"),
        ("/probe gm roll", {"dice": 2, "secret": "yes"}, "is a boolean"),
        ("/probe gm roll", {"dice": 2, "luck": 1}, "no option 'luck'"),
        ("/probe monster", {"name": "Orc", "count": 99}, "above max_value"),
        ("/probe side", {"side": "villains"}, "not one of the choices"),
        ("/probe mention", {"target": "nobody"}, "no user"),
        ("/nothing", {}, "no synced slash command"),
    ],
)
async def test_invalid_invocations_are_refused(standin, path, options, problem) -> None:
    # Validation happens before delivery, so schemas synced offline are enough here.
    standin.commands.replace(standin.world.default_guild.id, probe_schemas())
    with pytest.raises(InvalidInvocation, match=problem):
        await standin.invoke("alice", path, options)
    assert standin.interactions == []


async def test_file_attachments_keep_bytes_and_types(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("gm", "/probe files")).response()
    log, img = msg.attachments
    assert (log.filename, log.data) == ("combat-log.md", b"# Combat log\n- Orc hits\n")
    assert log.content_type.startswith("text/markdown")
    assert (img.filename, img.data, img.content_type) == ("map.png", PNG_BYTES, "image/png")
    fetched = await bot.get_channel(msg.channel_id).fetch_message(msg.id)
    assert await fetched.attachments[1].read() == PNG_BYTES


async def test_pins(standin, bot: ProbeBot) -> None:
    answer = await (await standin.invoke("gm", "/probe pin")).response()
    assert answer.content == "pinned 1"
    note = standin.messages("combat")[0]
    assert note.content == "Initiative: alice, bob" and note.pinned
    assert standin.book.pinned_in(standin.world.channel("combat")) == [note]


async def test_modal_round_trip(standin, bot: ProbeBot) -> None:
    opened = await standin.invoke("alice", "/probe note")
    modal = await opened.modal_data()
    assert modal["title"] == "Add a note"
    submitted = await standin.submit_modal("alice", opened, {"probe:note-text": "orc is bloodied"})
    assert (await submitted.response()).content == "noted: orc is bloodied"


async def test_rest_fetches(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("carol", "/probe info", in_channel="combat-2")).response()
    assert msg.content == f"combat-2|{SANDBOX_GUILD}|carol|carol"
    assert standin.unknown_routes == []


async def test_unknown_route_is_recorded(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("alice", "/probe emojis")).response()
    assert msg.content == "not found"
    guild_id = standin.world.guild(SANDBOX_GUILD).id
    assert standin.unknown_routes == [("GET", f"/guilds/{guild_id}/emojis")]


async def test_wrong_kind_of_answer_is_explained(standin, bot: ProbeBot) -> None:
    handle = await standin.autocomplete("alice", "/probe monster", "name", name="o")
    with pytest.raises(AssertionError, match="autocomplete result, not a message"):
        await handle.response(timeout=1)


async def test_valid_invocation_without_bot_session_fails_fast(standin) -> None:
    standin.commands.replace(standin.world.default_guild.id, probe_schemas())
    with pytest.raises(NoBotSession):
        await standin.invoke("alice", "/probe ping")


async def test_no_answer_times_out_with_explanation(standin, bot: ProbeBot) -> None:
    handle = await standin.invoke("alice", "/probe silent")
    with pytest.raises(StandInTimeout, match="no callback"):
        await handle.response(timeout=0.3)


async def test_a_form_is_read_as_its_fields_and_submitted_by_label(standin, bot: ProbeBot) -> None:
    opened = await standin.invoke("alice", "/probe note")
    assert await opened.acknowledged() == 9
    form = await opened.form()
    assert (form.title, [f.label for f in form.inputs]) == ("Add a note", ["Note"])
    note = form.field("Note")
    assert (note.style, note.value, note.required, note.max_length) == (1, "", True, 4000)
    submitted = await standin.submit("alice", opened, {"Note": "orc is bloodied"})
    assert submitted.type == 5 and submitted.payload["data"]["custom_id"] == form.custom_id
    assert (await submitted.response()).content == "noted: orc is bloodied"


async def test_a_form_is_sent_only_as_discords_client_would(standin, bot: ProbeBot) -> None:
    opened = await standin.invoke("alice", "/probe note")
    await opened.form()
    with pytest.raises(InvalidInvocation, match="required"):
        await standin.submit("alice", opened, {})
    with pytest.raises(InvalidInvocation, match="no field 'Notes'"):
        await standin.submit("alice", opened, {"Notes": "x"})
    with pytest.raises(InvalidInvocation, match="opened for alice"):
        await standin.submit("bob", opened, {"Note": "x"})
    with pytest.raises(InvalidInvocation, match="did not open a modal"):
        await standin.submit("alice", await standin.invoke("alice", "/probe ping"), {"Note": "x"})


async def test_a_form_is_no_answer_to_a_form(standin, bot: ProbeBot) -> None:
    opened = await standin.invoke("alice", "/probe chain")
    await opened.form()
    answer = await (await standin.submit("alice", opened, {"Note": "again"})).response()
    assert answer.content == "refused: 400 50035"


@pytest.mark.outside_contract  # the form breaks Discord's API description on purpose
async def test_a_form_over_discords_limits_is_refused(standin, bot: ProbeBot) -> None:
    answer = await (await standin.invoke("alice", "/probe longlabel")).response()
    assert answer.content.startswith("refused: 400 50035") and "label must be 1 to 45" in answer.content


def rows(*inputs: dict) -> list[dict]:
    return [{"type": 1, "components": [text_input]} for text_input in inputs]


FIELD = {"type": 4, "custom_id": "f", "style": 2, "label": "Attributes"}


@pytest.mark.parametrize(
    ("modal", "problem"),
    [
        ({"custom_id": "m", "title": "T" * 46, "components": rows(FIELD)}, "title must be 1 to 45"),
        ({"custom_id": "m" * 101, "title": "T", "components": rows(FIELD)}, "custom_id must be 1 to 100"),
        ({"custom_id": "m", "title": "T", "components": []}, "1 to 5 components"),
        (
            {"custom_id": "m", "title": "T", "components": rows(*({**FIELD, "custom_id": str(n)} for n in range(6)))},
            "1 to 5 components, not 6",
        ),
        ({"custom_id": "m", "title": "T", "components": rows(FIELD, FIELD)}, "share a custom_id"),
        (
            {"custom_id": "m", "title": "T", "components": [{"type": 1, "components": [FIELD, FIELD]}]},
            "exactly one text input",
        ),
        ({"custom_id": "m", "title": "T", "components": rows({**FIELD, "label": "L" * 46})}, "label must be 1 to 45"),
        ({"custom_id": "m", "title": "T", "components": rows({**FIELD, "value": "v" * 4001})}, "at most 4000"),
        ({"custom_id": "m", "title": "T", "components": rows({**FIELD, "style": 3})}, "style must be 1"),
        ({"custom_id": "m", "title": "T", "components": rows({**FIELD, "max_length": 4001})}, "max_length must be"),
        (
            {"custom_id": "m", "title": "T", "components": rows({**FIELD, "min_length": 9, "max_length": 3})},
            "min_length is more",
        ),
        ({"custom_id": "m", "title": "T", "components": rows({**FIELD, "placeholder": "p" * 101})}, "at most 100"),
        ({"custom_id": "m", "title": "T", "components": [{"type": 2, "custom_id": "b"}]}, "action row or a label"),
    ],
)
def test_modals_discord_would_refuse(modal, problem) -> None:
    assert problem in (modal_problems(modal) or "")


def test_modals_discord_opens() -> None:
    labelled = {"type": 18, "label": "Attributes", "component": {k: v for k, v in FIELD.items() if k != "label"}}
    assert modal_problems({"custom_id": "m", "title": "T", "components": rows(FIELD)}) is None
    assert modal_problems({"custom_id": "m", "title": "T" * 45, "components": [labelled]}) is None
    full = {**FIELD, "value": "v" * 4000, "placeholder": "p" * 100, "min_length": 0, "max_length": 4000}
    assert modal_problems({"custom_id": "m" * 100, "title": "T", "components": rows(full)}) is None
