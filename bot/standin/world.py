"""The stand-in's model of Discord: users, guilds, roles, channels and members.

Everything is addressable by name (``world.user("alice")``, ``world.channel("combat")``)
because tests and sandbox scripts talk about people and places, not ids.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .snowflakes import SnowflakeFactory

# Permission bits the stand-in cares about (server-wide: no channel overwrites). It enforces View Channel, Send
# Messages (in Threads) and Pin Messages (or Manage Messages) on the bot's own requests; Embed Links is only granted.
ADMINISTRATOR = 1 << 3
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
MENTION_EVERYONE = 1 << 17
SEND_MESSAGES_IN_THREADS = 1 << 38
PIN_MESSAGES = 1 << 51
# A plausible @everyone default: view, send, read history, embed, attach, react, app commands.
DEFAULT_EVERYONE_PERMISSIONS = (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
# What an invite link with "send messages (in threads too), manage messages, embed, attach, mention, pin" grants.
PUBLIC_THREAD, PRIVATE_THREAD, GUILD_FORUM = 11, 12, 15
DM = 1
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES | MENTION_EVERYONE | PIN_MESSAGES | SEND_MESSAGES_IN_THREADS
)
ALL_PERMISSIONS = (1 << 53) - 1


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    global_name: str | None = None
    # False: the user has direct messages from server members turned off, and a bot's DM is refused (50007).
    accepts_dms: bool = True

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    mentionable: bool = False
    managed_by_bot: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"


@dataclass(eq=False)
class Channel:
    id: int
    guild_id: int | None  # None: a direct message channel
    name: str
    position: int = 0
    topic: str | None = None
    type: int = 0  # GUILD_TEXT
    # Threads (type 11) and forum posts (threads in a forum, type 15) only:
    parent_id: int | None = None
    archived: bool = False
    locked: bool = False  # a locked thread stays archived unless one may manage threads
    bot_manages_threads: bool = True  # whether the bot may reopen it when locked
    recipient_id: int | None = None  # a direct message channel's user, besides the bot

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)


@dataclass(eq=False)
class Member:
    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_id: int = 0  # a snowflake whose timestamp serves as joined_at

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def display_name(self) -> str:
        return self.nick or self.user.global_name or self.user.name


@dataclass(eq=False)
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    locale: str = "en-US"  # the server's preferred language, sent with every interaction
    # Whether the bot was invited with the `applications.commands` scope: without it Discord
    # refuses the application's commands for this server (403 Missing Access).
    commands_scope: bool = True

    @property
    def everyone_role(self) -> Role:
        return self.roles[self.id]

    def permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        member = self.members.get(user_id)
        if member is None:
            return 0
        value = self.everyone_role.permissions
        for role_id in member.role_ids:
            value |= self.roles[role_id].permissions
        return ALL_PERMISSIONS if value & ADMINISTRATOR else value

    def role_members(self, role_id: int) -> set[int]:
        if role_id == self.id:
            return set(self.members)
        return {uid for uid, m in self.members.items() if role_id in m.role_ids}


UserRef = User | Member | int | str


class World:
    """Mutable registry of every Discord object the stand-in knows."""

    def __init__(self, *, bot_name: str = "Turnkeeper") -> None:
        self.ids = SnowflakeFactory()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.roles: dict[int, Role] = {}
        self.dms: dict[int, Channel] = {}  # user id → the bot's direct message channel with them
        self.bot = self.add_user(bot_name, bot=True)
        # Discord apps created after 2020 share the bot user's id.
        self.application_id = self.bot.id

    # -- creation ---------------------------------------------------------
    def add_user(self, name: str, *, bot: bool = False, global_name: str | None = None) -> User:
        if any(u.name == name for u in self.users.values()):
            raise ValueError(f"user name {name!r} already taken")
        user = User(self.ids.next(), name, bot=bot, global_name=global_name)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: UserRef | None = None,
        shard: tuple[int, int] | None = None,
        channels: Iterable[str] = ("general",),
    ) -> Guild:
        """Create a guild; ``shard=(id, count)`` picks an id served by that shard."""
        gid = self.ids.next_on_shard(*shard) if shard else self.ids.next()
        owner_user = self.user(owner) if owner is not None else self.bot
        guild = Guild(gid, name, owner_user.id)
        self.guilds[gid] = guild
        self._store_role(Role(gid, gid, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, 0))
        bot_role = self.add_role(guild, self.bot.name, permissions=DEFAULT_BOT_PERMISSIONS)
        bot_role.managed_by_bot = self.bot.id
        self.add_member(guild, self.bot, roles=[bot_role])
        if owner_user is not self.bot:
            self.add_member(guild, owner_user)
        for channel_name in channels:
            self.add_channel(guild, channel_name)
        return guild

    def add_channel(self, guild: Guild | str | int, name: str, *, topic: str | None = None, type: int = 0) -> Channel:
        g = self.guild(guild)
        channel = Channel(self.ids.next(), g.id, name, position=len(g.channels), topic=topic, type=type)
        g.channels[channel.id] = channel
        self.channels[channel.id] = channel
        return channel

    def add_forum(self, guild: Guild | str | int, name: str) -> Channel:
        """A forum channel: it holds posts (threads), not messages."""
        return self.add_channel(guild, name, type=GUILD_FORUM)

    def add_thread(self, parent: Channel, name: str, *, archived: bool = False, locked: bool = False) -> Channel:
        """A public thread in a text channel, or a post in a forum channel."""
        g = self.guild(parent.guild_id)
        thread = Channel(
            self.ids.next(),
            g.id,
            name,
            position=0,
            type=PUBLIC_THREAD,
            parent_id=parent.id,
            archived=archived,
            locked=locked,
        )
        g.channels[thread.id] = thread
        self.channels[thread.id] = thread
        return thread

    def dm_channel(self, user: UserRef) -> Channel:
        """The bot's direct message channel with `user`: one per user, as on Discord."""
        u = self.user(user)
        if u.id not in self.dms:
            channel = Channel(self.ids.next(), None, "", type=DM, recipient_id=u.id)
            self.dms[u.id] = channel
            self.channels[channel.id] = channel
        return self.dms[u.id]

    def add_role(self, guild: Guild | str | int, name: str, *, permissions: int = 0, mentionable: bool = False) -> Role:
        g = self.guild(guild)
        return self._store_role(Role(self.ids.next(), g.id, name, permissions, len(g.roles), mentionable))

    def _store_role(self, role: Role) -> Role:
        self.guilds[role.guild_id].roles[role.id] = role
        self.roles[role.id] = role
        return role

    def add_member(
        self,
        guild: Guild | str | int,
        user: UserRef,
        *,
        roles: Iterable[Role | str | int] = (),
        nick: str | None = None,
    ) -> Member:
        """Add a member; a plain name that is not a user yet creates that user."""
        g = self.guild(guild)
        if isinstance(user, str) and self.find_user(user) is None:
            u = self.add_user(user.lstrip("@"))
        else:
            u = self.user(user)
        role_ids = [self.role(r, g).id for r in roles]
        member = Member(u, g.id, role_ids, nick, self.ids.next())
        g.members[u.id] = member
        return member

    # -- lookup -----------------------------------------------------------
    def find_user(self, ref: UserRef) -> User | None:
        if isinstance(ref, User):
            return ref
        if isinstance(ref, Member):
            return ref.user
        if isinstance(ref, int):
            return self.users.get(ref)
        name = str(ref).lstrip("@")
        if name.startswith("<") and name.endswith(">"):
            return self.users.get(int(name.strip("<@!>")))
        return next((u for u in self.users.values() if u.name == name), None)

    def user(self, ref: UserRef) -> User:
        found = self.find_user(ref)
        if found is None:
            raise KeyError(f"no user {ref!r}")
        return found

    @property
    def default_guild(self) -> Guild:
        return next(iter(self.guilds.values()))

    def guild(self, ref: Guild | str | int | None = None) -> Guild:
        if ref is None:
            return self.default_guild
        if isinstance(ref, Guild):
            return ref
        if isinstance(ref, int):
            return self.guilds[ref]
        for g in self.guilds.values():
            if g.name == ref:
                return g
        raise KeyError(f"no guild {ref!r}")

    def channel(self, ref: Channel | str | int | None = None, guild: Guild | str | int | None = None) -> Channel:
        if isinstance(ref, Channel):
            return ref
        if isinstance(ref, int):
            return self.channels[ref]
        g = self.guild(guild)
        if ref is None:
            return next(iter(g.channels.values()))
        name = ref.lstrip("#")
        for c in g.channels.values():
            if c.name == name:
                return c
        if guild is None:
            # Not in the default guild: accept a name that is unique across guilds.
            matches = [c for c in self.channels.values() if c.name == name]
            if len(matches) == 1:
                return matches[0]
        raise KeyError(f"no channel {ref!r} in {g.name!r}")

    def role(self, ref: Role | str | int, guild: Guild | str | int | None = None) -> Role:
        if isinstance(ref, Role):
            return ref
        if isinstance(ref, int):
            return self.roles[ref]
        g = self.guild(guild)
        name = ref if ref == "@everyone" else ref.lstrip("@")
        for r in g.roles.values():
            if r.name == name:
                return r
        raise KeyError(f"no role {ref!r} in {g.name!r}")

    def member(self, guild: Guild | str | int | None, user: UserRef) -> Member | None:
        return self.guild(guild).members.get(self.user(user).id)

    def guild_of_channel(self, channel: Channel) -> Guild:
        if channel.guild_id is None:
            raise KeyError(f"channel {channel.name!r} is a direct message channel, in no server")
        return self.guilds[channel.guild_id]


SANDBOX_GUILD = "Turnkeeper Sandbox"


def default_world(*, extra_channels: int = 0) -> World:
    """One guild "Turnkeeper Sandbox": #combat, #combat-2, #combat-3, #general, a GM role,
    members gm (GM), alice, bob, carol and the bot.  ``extra_channels`` adds
    #combat-4 … for load tests."""
    world = World()
    gm = world.add_user("gm")
    guild = world.add_guild(SANDBOX_GUILD, owner=gm, channels=())
    for name in ("combat", "combat-2", "combat-3", "general"):
        world.add_channel(guild, name)
    for n in range(extra_channels):
        world.add_channel(guild, f"combat-{n + 4}")
    gm_role = world.add_role(guild, "GM", mentionable=True)
    world.add_member(guild, gm, roles=[gm_role])
    for name in ("alice", "bob", "carol"):
        world.add_member(guild, name)
    return world
