"""Who is actually pinged: allowed_mentions rules, unit-level and end to end."""

from __future__ import annotations

import pytest

from bot.standin import compute_pings, default_world
from bot.standin.mentions import AllowedMentionsError

from .probe_bot import ProbeBot


@pytest.fixture
def world():
    return default_world()


def ids(world, *names):
    return frozenset(world.user(n).id for n in names)


def pings(world, content, allowed=None, author=None, **kw):
    guild = world.default_guild
    return compute_pings(content, allowed, guild, (author or world.bot).id, **kw)


def test_no_allowed_mentions_parses_everything(world) -> None:
    gm_role = world.role("GM")
    alice = world.user("alice")
    p = pings(world, f"<@{alice.id}> {gm_role.mention}")
    assert p.user_ids == ids(world, "alice", "gm")
    assert p.role_ids == (gm_role.id,) and not p.everyone


def test_everyone_expands_to_all_members_but_author(world) -> None:
    p = pings(world, "@everyone fight!")
    assert p.everyone
    assert p.user_ids == ids(world, "gm", "alice", "bob", "carol")


def test_here_counts_as_everyone(world) -> None:
    assert pings(world, "@here").everyone


def test_restricted_users_whitelist(world) -> None:
    alice, bob = world.user("alice"), world.user("bob")
    allowed = {"parse": [], "users": [str(alice.id)]}
    p = pings(world, f"@everyone <@{alice.id}> <@!{bob.id}> {world.role('GM').mention}", allowed)
    assert p.user_ids == ids(world, "alice")
    assert not p.everyone and p.role_ids == ()
    assert p.direct_user_ids == (alice.id,)


def test_parse_users_and_whitelist_are_exclusive(world) -> None:
    with pytest.raises(AllowedMentionsError):
        pings(world, "x", {"parse": ["users"], "users": ["1"]})


@pytest.mark.parametrize(
    "allowed, problem",
    [
        ({"parse": [], "users": ["1", "2", "1"]}, "allowed_mentions.users holds an id twice"),
        ({"parse": [], "roles": [5, 5]}, "allowed_mentions.roles holds an id twice"),
        ({"parse": ["everyone", "everyone"]}, "allowed_mentions.parse holds a value twice"),
        ({"parse": [], "users": [str(i) for i in range(101)]}, "allowed_mentions.users may hold at most 100 ids"),
    ],
)
def test_lists_are_unique_and_at_most_100_ids(world, allowed, problem) -> None:
    with pytest.raises(AllowedMentionsError, match=problem):
        pings(world, "x", allowed)


def test_empty_parse_pings_nobody(world) -> None:
    alice = world.user("alice")
    assert pings(world, f"@everyone <@{alice.id}>", {"parse": []}).user_ids == frozenset()


def test_roles_need_mentionable_or_permission(world) -> None:
    quiet = world.add_role(world.default_guild, "Quiet", mentionable=False)
    world.add_member(world.default_guild, "dave", roles=[quiet])
    alice = world.user("alice")
    # alice has no MENTION_EVERYONE permission: a non-mentionable role does not ping.
    assert pings(world, quiet.mention, author=alice).role_ids == ()
    assert pings(world, quiet.mention).user_ids == ids(world, "dave")  # the bot may
    assert not pings(world, "@everyone", author=alice).everyone


def test_replied_user(world) -> None:
    bob = world.user("bob")
    assert pings(world, "hi", replied_user_id=bob.id).user_ids == ids(world, "bob")
    assert pings(world, "hi", {"parse": []}, replied_user_id=bob.id).user_ids == frozenset()
    assert pings(world, "hi", {"parse": [], "replied_user": True}, replied_user_id=bob.id).user_ids == ids(world, "bob")


def test_non_members_and_ephemeral_are_not_pinged(world) -> None:
    outsider = world.add_user("outsider")
    assert pings(world, f"<@{outsider.id}>").user_ids == frozenset()
    alice = world.user("alice")
    assert pings(world, f"<@{alice.id}>", ephemeral=True).user_ids == frozenset()


async def test_restricted_mention_end_to_end(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("gm", "/probe mention", target="alice")).response()
    alice = standin.world.user("alice")
    assert msg.content.startswith(f"@everyone <@{alice.id}>")
    assert msg.allowed_mentions["parse"] == [] and msg.allowed_mentions["users"] == [alice.id]
    assert msg.pinged_user_ids == {alice.id}
    assert not msg.pinged_everyone and msg.pinged_role_ids == ()


async def test_default_allowed_mentions_ping_everyone(standin, bot: ProbeBot) -> None:
    msg = await (await standin.invoke("gm", "/probe echo", text="@everyone roll initiative")).response()
    assert msg.allowed_mentions is None
    assert msg.pinged_everyone
    assert msg.pinged_user_ids == {standin.world.user(n).id for n in ("gm", "alice", "bob", "carol")}


async def test_edits_do_not_ping(standin, bot: ProbeBot) -> None:
    await (await standin.invoke("gm", "/probe buttons")).response()
    msg = await (await standin.click("alice", "End turn")).response()
    assert msg.pinged_user_ids == frozenset()  # "Your turn, alice" has no mention markup
