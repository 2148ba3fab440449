"""Who a message actually notifies, following Discord's allowed_mentions rules.

Rules implemented (https://discord.com/developers/docs/resources/message#allowed-mentions-object):
* no ``allowed_mentions`` → every user, role and @everyone/@here in the content is parsed;
* ``parse`` lists the mention kinds parsed from content ("users", "roles", "everyone");
* ``users``/``roles`` whitelist ids (only those also present in the content ping);
  combining ``parse: ["users"]`` with a ``users`` list is a 400 error, as on Discord, and so is
  a list (``parse``, ``users``, ``roles``) naming a value twice or more than 100 ids;
* ``replied_user`` controls pinging the author of the replied-to message (default on
  only when allowed_mentions is absent);
* @everyone/@here need the author's MENTION_EVERYONE permission; role pings need the
  role to be mentionable or that same permission;
* the author never notifies themselves; ephemeral messages notify no one.
@here is treated like @everyone because the stand-in has no presence model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .world import MENTION_EVERYONE, Guild

USER_RE = re.compile(r"<@!?(\d+)>")
ROLE_RE = re.compile(r"<@&(\d+)>")
CHANNEL_RE = re.compile(r"<#(\d+)>")


class AllowedMentionsError(ValueError):
    """The allowed_mentions object is one Discord would reject with HTTP 400."""


@dataclass(frozen=True)
class Pings:
    user_ids: frozenset[int] = frozenset()  # everyone notified, roles/@everyone expanded
    direct_user_ids: tuple[int, ...] = ()  # <@id> mentions that pinged (payload "mentions")
    role_ids: tuple[int, ...] = ()  # roles that pinged (payload "mention_roles")
    everyone: bool = False  # @everyone or @here pinged


NO_PINGS = Pings()


def _ordered_unique(values: list[int]) -> list[int]:
    return list(dict.fromkeys(values))


def validate_allowed_mentions(allowed: dict[str, Any] | None) -> None:
    if allowed is None:
        return
    parse = set(allowed.get("parse") or [])
    unknown = parse - {"users", "roles", "everyone"}
    if unknown:
        raise AllowedMentionsError(f"allowed_mentions.parse has unknown values {sorted(unknown)}")
    if len(parse) != len(allowed.get("parse") or []):
        raise AllowedMentionsError("allowed_mentions.parse holds a value twice")
    for kind in ("users", "roles"):
        ids = [str(x) for x in allowed.get(kind) or []]
        if kind in parse and ids:
            raise AllowedMentionsError(f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.')
        if len(ids) > 100:
            raise AllowedMentionsError(f"allowed_mentions.{kind} may hold at most 100 ids")
        if len(set(ids)) != len(ids):
            # The API description holds each list to unique items (uniqueItems).
            raise AllowedMentionsError(f"allowed_mentions.{kind} holds an id twice")


def compute_pings(
    content: str | None,
    allowed: dict[str, Any] | None,
    guild: Guild | None,
    author_id: int,
    *,
    replied_user_id: int | None = None,
    ephemeral: bool = False,
) -> Pings:
    validate_allowed_mentions(allowed)
    if ephemeral:
        return NO_PINGS
    text = content or ""
    if allowed is None:
        parse = {"users", "roles", "everyone"}
        user_whitelist: set[int] = set()
        role_whitelist: set[int] = set()
        ping_replied = True
    else:
        parse = set(allowed.get("parse") or [])
        user_whitelist = {int(x) for x in allowed.get("users") or []}
        role_whitelist = {int(x) for x in allowed.get("roles") or []}
        ping_replied = bool(allowed.get("replied_user", False))

    can_mass_mention = guild is not None and bool(guild.permissions_of(author_id) & MENTION_EVERYONE)

    users = []
    for uid in _ordered_unique([int(x) for x in USER_RE.findall(text)]):
        if guild is not None and uid not in guild.members:
            continue  # non-members cannot see the channel, so they are not notified
        if "users" in parse or uid in user_whitelist:
            users.append(uid)
    if replied_user_id is not None and ping_replied and replied_user_id not in users:
        users.append(replied_user_id)

    roles = []
    if guild is not None:
        for rid in _ordered_unique([int(x) for x in ROLE_RE.findall(text)]):
            role = guild.roles.get(rid)
            if role is None or not ("roles" in parse or rid in role_whitelist):
                continue
            if role.mentionable or can_mass_mention:
                roles.append(rid)

    everyone = ("@everyone" in text or "@here" in text) and "everyone" in parse and can_mass_mention

    notified = set(users)
    if guild is not None:
        for rid in roles:
            notified |= guild.role_members(rid)
        if everyone:
            notified |= set(guild.members)
    notified.discard(author_id)
    return Pings(frozenset(notified), tuple(users), tuple(roles), everyone)
