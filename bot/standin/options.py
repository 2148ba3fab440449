"""Turning test-side option values into the ``options`` + ``resolved`` of an interaction.

Values are checked the way Discord's client constrains them before sending: names
must exist, types must match, required options must be present, choices and
min/max bounds respected.  Users, roles and channels may be given as world objects,
ids or names (``"alice"``, ``"@GM"``, ``"#combat"``).
"""

from __future__ import annotations

from typing import Any

from .commands import OPTION_TYPE_NAMES, CommandPath, InvalidInvocation
from .payloads import channel_payload, member_payload, role_payload, user_payload
from .records import RecordedAttachment
from .world import Channel, Guild, Member, Role, User, World

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11


def _check_bounds(path: str, opt: dict[str, Any], value: Any) -> None:
    name = opt["name"]
    if opt["type"] in (INTEGER, NUMBER):
        if opt.get("min_value") is not None and value < opt["min_value"]:
            raise InvalidInvocation(f"{path} {name}={value!r} is below min_value {opt['min_value']}")
        if opt.get("max_value") is not None and value > opt["max_value"]:
            raise InvalidInvocation(f"{path} {name}={value!r} is above max_value {opt['max_value']}")
    if opt["type"] == STRING:
        if opt.get("min_length") is not None and len(value) < opt["min_length"]:
            raise InvalidInvocation(f"{path} {name} is shorter than min_length {opt['min_length']}")
        if opt.get("max_length") is not None and len(value) > opt["max_length"]:
            raise InvalidInvocation(f"{path} {name} is longer than max_length {opt['max_length']}")
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        allowed = [c["value"] for c in choices]
        raise InvalidInvocation(f"{path} {name}={value!r} is not one of the choices {allowed}")


def _scalar(path: str, opt: dict[str, Any], value: Any) -> Any:
    kind = opt["type"]
    ok = {
        STRING: isinstance(value, str),
        INTEGER: isinstance(value, int) and not isinstance(value, bool),
        BOOLEAN: isinstance(value, bool),
        NUMBER: isinstance(value, (int, float)) and not isinstance(value, bool),
    }[kind]
    if not ok:
        raise InvalidInvocation(
            f"{path} option {opt['name']!r} is a {OPTION_TYPE_NAMES[kind]}, got {type(value).__name__} {value!r}"
        )
    if kind == INTEGER and abs(value) > 2**53:
        raise InvalidInvocation(f"{path} {opt['name']}={value} is outside Discord's integer range")
    return value


class OptionBuilder:
    """Accumulates interaction options and the ``resolved`` map for one invocation."""

    def __init__(self, world: World, guild: Guild, channel: Channel) -> None:
        self.world = world
        self.guild = guild
        self.channel = channel
        self.resolved: dict[str, dict[str, Any]] = {}

    def _add_user(self, user: User) -> None:
        self.resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
        member = self.guild.members.get(user.id)
        if member is not None:
            perms = self.guild.permissions_of(user.id)
            self.resolved.setdefault("members", {})[str(user.id)] = member_payload(
                member, with_user=False, permissions=perms
            )

    def _add_role(self, role: Role) -> None:
        self.resolved.setdefault("roles", {})[str(role.id)] = role_payload(role)

    def _add_channel(self, channel: Channel) -> None:
        perms = self.guild.permissions_of(self.world.bot.id)
        self.resolved.setdefault("channels", {})[str(channel.id)] = channel_payload(channel, permissions=perms)

    def _entity(self, path: str, opt: dict[str, Any], value: Any) -> str:
        kind = opt["type"]
        try:
            if kind == USER or (kind == MENTIONABLE and not _looks_like_role(value, self)):
                user = self.world.user(value)
                self._add_user(user)
                return str(user.id)
            if kind in (ROLE, MENTIONABLE):
                role = self.world.role(value, self.guild)
                self._add_role(role)
                return str(role.id)
            if kind == CHANNEL:
                channel = self.world.channel(value, self.guild)
                allowed_types = opt.get("channel_types")
                if allowed_types and channel.type not in allowed_types:
                    raise InvalidInvocation(f"{path} {opt['name']}: channel type {channel.type} not in {allowed_types}")
                self._add_channel(channel)
                return str(channel.id)
            if kind == ATTACHMENT and isinstance(value, RecordedAttachment):
                # A file the user uploads with the command (StandIn.upload) or one already posted.
                self.resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
                return str(value.id)
        except KeyError as exc:
            raise InvalidInvocation(f"{path} option {opt['name']!r}: {exc.args[0]}") from None
        raise InvalidInvocation(
            f"{path} option {opt['name']!r}: {OPTION_TYPE_NAMES.get(kind, kind)} options are not supported"
        )

    def build(self, cmd: CommandPath, values: dict[str, Any], *, focused: str | None = None) -> list[dict[str, Any]]:
        """Value options for the leaf; ``focused`` marks an autocomplete request."""
        out = []
        for name, value in values.items():
            opt = cmd.option(name)
            if value is None:
                continue
            entry: dict[str, Any] = {"name": name, "type": opt["type"]}
            if name == focused:
                if not opt.get("autocomplete"):
                    raise InvalidInvocation(f"{cmd.path} option {name!r} has no autocomplete")
                entry["value"] = str(value)  # the partially typed text, always a string
                entry["focused"] = True
            elif opt["type"] in (STRING, INTEGER, BOOLEAN, NUMBER):
                entry["value"] = _scalar(cmd.path, opt, value)
                if not opt.get("autocomplete"):  # autocomplete values are free text
                    _check_bounds(cmd.path, opt, entry["value"])
            else:
                entry["value"] = self._entity(cmd.path, opt, value)
            out.append(entry)
        if focused is None:
            missing = [o["name"] for o in cmd.value_options if o.get("required") and values.get(o["name"]) is None]
            if missing:
                raise InvalidInvocation(f"{cmd.path} is missing required option(s) {missing}")
        elif focused not in values:
            raise InvalidInvocation(f"focused option {focused!r} needs a (partial) value")
        return out


def _looks_like_role(value: Any, builder: OptionBuilder) -> bool:
    if isinstance(value, Role):
        return True
    if isinstance(value, (User, Member)):
        return False
    if isinstance(value, int):
        return value in builder.guild.roles
    return builder.world.find_user(value) is None


def nest_options(cmd: CommandPath, leaf_options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Wrap leaf options in subcommand / group layers as Discord sends them."""
    options = leaf_options
    node = cmd.top
    chain = []
    for name in cmd.names[1:]:
        node = next(o for o in node["options"] if o["name"] == name)
        chain.append(node)
    for node in reversed(chain):
        options = [{"name": node["name"], "type": node["type"], "options": options}]
    return options


def format_value(opt_type: int, value: Any, world: World, guild: Guild | None = None) -> str:
    """Script-style rendering of one option value: ``"Silver Star"``, ``15``, ``true``, ``@alice``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    try:
        if opt_type == USER or (opt_type == MENTIONABLE and world.find_user(value) is not None):
            return "@" + world.user(value).name
        if opt_type in (ROLE, MENTIONABLE):
            return "@" + world.role(value, guild).name.lstrip("@")
        if opt_type == CHANNEL:
            return "#" + world.channel(value, guild).name
    except KeyError:
        pass
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return repr(value) if isinstance(value, float) else str(value)


def describe_invocation(
    user_name: str,
    path: str,
    values: dict[str, Any],
    world: World,
    cmd: CommandPath | None = None,
    guild: Guild | None = None,
) -> str:
    parts = [f"{user_name}: {path}"]
    for name, value in values.items():
        if value is None:
            continue
        opt_type = cmd.option(name)["type"] if cmd is not None else STRING
        parts.append(f"{name}:{format_value(opt_type, value, world, guild)}")
    return " ".join(parts)
