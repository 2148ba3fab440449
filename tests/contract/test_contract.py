"""The stand-in holds every REST request to Discord's published API description."""

from __future__ import annotations

import discord
import pytest
from discord.http import Route

from bot.standin import SANDBOX_GUILD, running_client, running_standin
from bot.standin.contract import marks_in
from tests.contract.spec import discord_contract
from tests.standin.probe_bot import ProbeBot

pytestmark = pytest.mark.outside_contract  # these tests break the contract on purpose and check it is noticed


def test_routes_and_methods_come_from_the_description() -> None:
    spec = discord_contract()
    assert spec.check("POST", "/channels/1/messages", {"content": "hi"}) == []
    assert spec.check("PUT", "/channels/1/pins/2") == []
    assert spec.check("GET", "/webhooks/1/token/messages/@original") == []
    (wrong_method,) = spec.check("PUT", "/channels/1/messages")
    assert "no PUT on /channels/{channel_id}/messages" in wrong_method.problem
    (unknown,) = spec.check("GET", "/channels/1/teleport")
    assert "no such route" in unknown.problem


def test_a_private_use_code_point_that_reaches_discord_is_noticed() -> None:
    leaked = {"content": "ok", "embeds": [{"fields": [{"name": "x", "value": "3 left \ue000"}]}]}
    (problem,) = marks_in("POST", "/channels/1/messages", leaked)
    assert problem.problem.startswith("embeds/0/fields/0/value: a private-use code point reached Discord")
    (plane_16,) = marks_in("POST", "/channels/1/messages", {"content": "\U00100001"})
    assert plane_16.problem.startswith("content: a private-use code point")
    assert marks_in("POST", "/channels/1/messages", {"content": "3 left ✍️ ⚔️"}) == []


def test_bodies_validate_with_discords_own_liberties() -> None:
    spec = discord_contract()
    # Snowflakes as numbers (discord.py sends allowed users that way) and attachment indexes as ids.
    good = {
        "content": "hi",
        "allowed_mentions": {"parse": [], "users": [123456789012345678]},
        "attachments": [{"id": 0, "filename": "clock.png"}],
    }
    assert spec.check("POST", "/channels/1/messages", good) == []
    (bad,) = spec.check("POST", "/channels/1/messages", {"content": 5})
    assert bad.problem.startswith("content:")
    assert spec.check("POST", "/channels/1/messages", {"embeds": [{"title": "t" * 257}]})
    assert spec.check("POST", "/interactions/1/tok/callback", {"type": 4, "data": {"content": "x", "flags": 64}}) == []
    assert spec.check("POST", "/interactions/1/tok/callback", {"type": 4, "data": {"content": 5}})


def test_validators_are_compiled_once() -> None:
    spec = discord_contract()
    spec.check("PATCH", "/channels/1/messages/2", {"content": "a"})
    compiled = dict(spec._validators)
    spec.check("PATCH", "/channels/3/messages/4", {"content": "b"})
    assert spec._validators == compiled and discord_contract() is spec


async def test_a_bad_request_from_a_client_is_recorded_against_the_test() -> None:
    async with running_standin() as standin:
        guild_id = standin.world.guild(SANDBOX_GUILD).id
        async with running_client(standin, lambda: ProbeBot([guild_id])) as bot:
            channel = standin.world.channel("combat")
            await bot.http.request(
                Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
                json={"content": "ok", "tts": "loudly"},
            )
            with pytest.raises(discord.NotFound):
                await bot.http.request(Route("POST", "/channels/{channel_id}/teleport", channel_id=channel.id))
        problems = [str(v) for v in standin.contract_violations]
    assert any("tts: 'loudly'" in p for p in problems), problems
    assert any("/teleport: Discord has no such route" in p for p in problems), problems


def test_a_modal_and_its_submit_answer_are_held_to_the_description() -> None:
    spec = discord_contract()
    text_input = {"type": 4, "custom_id": "tk:sheet:0", "style": 2, "label": "Sheet", "value": "dex=2"}
    modal = {
        "custom_id": "tk:sheet-form",
        "title": "Sheet of Nova",
        "components": [{"type": 1, "components": [text_input]}],
    }
    assert spec.check("POST", "/interactions/1/tok/callback", {"type": 9, "data": modal}) == []
    long_label = {**modal, "components": [{"type": 1, "components": [{**text_input, "label": "L" * 46}]}]}
    assert spec.check("POST", "/interactions/1/tok/callback", {"type": 9, "data": long_label})
    long_value = {**modal, "components": [{"type": 1, "components": [{**text_input, "value": "v" * 4001}]}]}
    assert spec.check("POST", "/interactions/1/tok/callback", {"type": 9, "data": long_value})
    assert spec.check("POST", "/interactions/1/tok/callback", {"type": 9, "data": {**modal, "title": "T" * 46}})
