"""Per-server command sets: a server is offered the command groups of the systems it
plays (its campaign's, its running encounters'), and no others."""

import logging

import pytest

from bot.command_sets import groups_for, system_groups
from bot.standin import InvalidInvocation, default_world
from bot.standin.harness import running_standin
from tests import toy
from tests.e2e.conftest import say, turnkeeper


def offered(standin, guild) -> set[str]:
    return {c["name"] for c in standin.commands.visible_in(standin.world.guild(guild).id)}


@pytest.fixture
async def two_servers():
    world = default_world()
    far = world.add_guild("Far Keep", owner="gm", channels=("combat-far",))
    world.add_member(far, "alice")
    async with running_standin(world) as standin:
        yield standin, world.default_guild, far


async def test_a_server_sees_only_its_systems_groups_and_they_follow_the_campaign(two_servers, database_url):
    standin, home, far = two_servers
    async with turnkeeper(standin, database_url):
        assert {"plotpoint", "turn"}.isdisjoint(offered(standin, home)), "not offered before any campaign"
        assert {"encounter", "initiative", "attack"} <= offered(standin, home)
        await say(standin, "gm", "/campaign setup", system="rotted-capes")
        assert "plotpoint" in offered(standin, home) and "turn" not in offered(standin, home)
        assert "plotpoint" not in offered(standin, far), "another server is not affected"
        shown = await say(standin, "gm", "/plotpoint show")  # offered and handled by the bot
        assert shown.content.startswith("🎭 Plot Points:"), shown.content  # between fights: the stored heroes
        # The campaign changes system: Plot Points go, faction turns come.
        await say(standin, "gm", "/campaign setup", system="99-towers")
        assert {"plotpoint", "turn"}.isdisjoint(offered(standin, home))
        with pytest.raises(InvalidInvocation):
            await standin.invoke("gm", "/plotpoint show")
        await say(standin, "gm", "/campaign setup", system="factions")
        assert "turn" in offered(standin, home)


async def test_an_encounter_of_another_system_brings_its_groups(two_servers, database_url):
    standin, home, _far = two_servers
    async with turnkeeper(standin, database_url):
        await say(standin, "gm", "/campaign setup", system="99-towers")
        started = await say(standin, "gm", "/encounter start", system="factions")
        assert not started.ephemeral
        await standin.wait_for(lambda: "turn" in offered(standin, home) or None, 5, "/turn offered in the server")


async def test_start_up_syncs_in_the_background_and_restarts_keep_the_sets(two_servers, database_url):
    standin, home, far = two_servers
    async with turnkeeper(standin, database_url):
        await say(standin, "gm", "/campaign setup", system="rotted-capes")
    global_syncs = sum(
        1 for m, p, _ in standin.requests if m == "PUT" and p.endswith("/commands") and "/guilds/" not in p
    )
    async with turnkeeper(standin, database_url) as bot:
        await bot.command_sets._task
        assert "plotpoint" in offered(standin, home) and "plotpoint" not in offered(standin, far)
    guild_puts = [p for m, p, _ in standin.requests if m == "PUT" and "/guilds/" in p]
    assert all(str(far.id) not in p for p in guild_puts), "a server without system groups costs no request"
    assert global_syncs == 1


async def test_a_campaign_bound_to_a_channel_brings_its_systems_groups_and_takes_them_away(two_servers, database_url):
    standin, home, _far = two_servers
    async with turnkeeper(standin, database_url):
        await say(standin, "gm", "/campaign setup", system="99-towers")
        assert "turn" not in offered(standin, home)
        await say(standin, "gm", "/campaign bind", place="combat-2")
        await say(standin, "gm", "/campaign setup", system="factions", in_channel="combat-2")
        assert "turn" in offered(standin, home), "the bound campaign plays factions"
        await say(standin, "gm", "/campaign unbind", place="combat-2")
        assert "turn" not in offered(standin, home), "no channel plays factions any more"


def test_the_groups_offered_per_system_come_from_what_each_system_declares():
    assert system_groups() == {"plotpoint": {"rotted-capes"}, "turn": {"factions"}}
    assert groups_for(["99-towers", "fightin-words", "frozen-lands"]) == frozenset()
    assert groups_for(["rotted-capes", "factions"]) == {"plotpoint", "turn"}


def test_a_toy_standing_in_for_a_system_leaves_no_groups_of_its_own_behind():
    with toy.standing_in_for("rotted-capes"):
        assert "plotpoint" not in system_groups()  # the toy declares no Plot Points
    assert system_groups() == {"plotpoint": {"rotted-capes"}, "turn": {"factions"}}


async def test_a_server_refusing_its_command_set_is_one_line_in_the_log(two_servers, database_url, caplog):
    """Invited without the applications.commands scope, a server refuses its groups (403 50001): an ordinary
    refusal, logged as one line with Discord's answer, not as a traceback."""
    standin, home, _far = two_servers
    async with turnkeeper(standin, database_url):
        await say(standin, "gm", "/campaign setup", system="rotted-capes")
    home.commands_scope = False
    caplog.set_level(logging.WARNING, logger="bot.command_sets")
    async with turnkeeper(standin, database_url) as bot:
        await bot.command_sets._task
    (warned,) = [r for r in caplog.records if r.name == "bot.command_sets"]
    assert str(home.id) in warned.getMessage() and "Missing Access" in warned.getMessage()
    assert warned.exc_info is None
