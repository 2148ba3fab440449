"""JSON shapes of world objects, as Discord API v10 sends them.

discord.py indexes some keys without ``.get`` (member ``flags``, channel ``position``,
role ``name``…); a missing one raises KeyError inside the gateway reader and silently
kills the client, so these builders always emit the full shape.
"""

from __future__ import annotations

from typing import Any

from .snowflakes import iso_time
from .world import DM, Channel, Guild, Member, Role, User, World


def user_payload(user: User) -> dict[str, Any]:
    return {
        "id": str(user.id),
        "username": user.name,
        "discriminator": "0",
        "global_name": user.global_name,
        "avatar": None,
        "bot": user.bot,
        "system": False,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def me_payload(user: User) -> dict[str, Any]:
    return {**user_payload(user), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}


def member_payload(member: Member, *, with_user: bool = True, permissions: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in member.role_ids],
        "joined_at": iso_time(member.joined_id),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
        "avatar_decoration_data": None,
    }
    if with_user:
        data["user"] = user_payload(member.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def role_payload(role: Role) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(role.id),
        "name": role.name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": role.position,
        "permissions": str(role.permissions),
        "managed": role.managed_by_bot is not None,
        "mentionable": role.mentionable,
        "flags": 0,
    }
    if role.managed_by_bot is not None:
        data["tags"] = {"bot_id": str(role.managed_by_bot)}
    return data


def channel_payload(
    channel: Channel, *, permissions: int | None = None, last_message_id: int | None = None, world=None
) -> dict[str, Any]:
    if channel.type == DM:
        recipients = [user_payload(world.users[channel.recipient_id])] if world is not None else []
        return {
            "id": str(channel.id),
            "type": DM,
            "last_message_id": str(last_message_id) if last_message_id else None,
            "flags": 0,
            "last_pin_timestamp": None,
            "recipients": recipients,
        }
    data: dict[str, Any] = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "topic": channel.topic,
        "nsfw": False,
        "parent_id": None,
        "permission_overwrites": [],
        "rate_limit_per_user": 0,
        "last_message_id": str(last_message_id) if last_message_id else None,
        "flags": 0,
    }
    if channel.is_thread:
        data.update(
            {
                "parent_id": str(channel.parent_id),
                "owner_id": str(channel.guild_id),
                "member_count": 1,
                "message_count": 0,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": channel.archived,
                    "locked": channel.locked,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": iso_time(channel.id),
                    "create_timestamp": iso_time(channel.id),
                },
            }
        )
        del data["topic"], data["permission_overwrites"], data["position"]
    elif channel.type == 15:
        data.update(
            {
                "available_tags": [],
                "default_reaction_emoji": None,
                "default_sort_order": None,
                "default_forum_layout": 0,
                "default_thread_rate_limit_per_user": 0,
            }
        )
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


GUILD_MEMBERS_INTENT = 1 << 1


def guild_payload(
    guild: Guild, *, full: bool = True, intents: int = GUILD_MEMBERS_INTENT, bot_id: int = 0
) -> dict[str, Any]:
    """``full`` gives the GUILD_CREATE shape; like Discord, the member list holds only
    the bot itself unless the session has the GUILD_MEMBERS intent."""
    data: dict[str, Any] = {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "premium_progress_bar_enabled": False,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "preferred_locale": guild.locale,
        "features": [],
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "unavailable": False,
    }
    if full:
        # GUILD_CREATE extras: member_count == len(members) tells discord.py the guild
        # is already chunked, so it never waits on member chunking.
        data.update(
            {
                "joined_at": iso_time(guild.id),
                "large": False,
                "member_count": len(guild.members),
                "members": [
                    member_payload(m)
                    for m in guild.members.values()
                    if intents & GUILD_MEMBERS_INTENT or m.id == bot_id
                ],
                "channels": [channel_payload(c) for c in guild.channels.values() if not c.is_thread],
                # Only active threads come with the server; archived ones must be fetched.
                "threads": [channel_payload(c) for c in guild.channels.values() if c.is_thread and not c.archived],
                "voice_states": [],
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
                "soundboard_sounds": [],
            }
        )
    return data


def application_payload(world: World) -> dict[str, Any]:
    return {
        "id": str(world.application_id),
        "name": world.bot.name,
        "icon": None,
        "description": "Local Discord stand-in application",
        "rpc_origins": [],
        "bot_public": True,
        "bot_require_code_grant": False,
        "bot": user_payload(world.bot),
        "owner": user_payload(world.bot),
        "team": None,
        "verify_key": "0" * 64,
        "flags": 0,
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "approximate_guild_count": len(world.guilds),
    }
