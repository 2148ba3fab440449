"""Application command schemas as synced by the bot (bulk overwrite), and path lookup.

A "path" is what a user types: ``"/initiative add"`` → command ``initiative``,
subcommand ``add``; groups add one more level (``"/gm monster add"``).
"""

from __future__ import annotations

import builtins
import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .snowflakes import SnowflakeFactory

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
OPTION_TYPE_NAMES = {
    1: "subcommand",
    2: "subcommand group",
    3: "string",
    4: "integer",
    5: "boolean",
    6: "user",
    7: "channel",
    8: "role",
    9: "mentionable",
    10: "number",
    11: "attachment",
}
CHAT_INPUT = 1


class InvalidInvocation(ValueError):
    """A test asked for something Discord's client would never send (unknown command,
    wrong option type, missing required option…)."""


@dataclass
class CommandPath:
    top: dict[str, Any]  # the synced top-level command
    names: list[str]  # e.g. ["initiative", "add"]
    leaf: dict[str, Any]  # the schema node whose options are the values
    guild_id: int | None  # set when the command is a guild command

    @property
    def path(self) -> str:
        return "/" + " ".join(self.names)

    @property
    def value_options(self) -> list[dict[str, Any]]:
        return [o for o in self.leaf.get("options") or [] if o.get("type") not in (SUB_COMMAND, SUB_COMMAND_GROUP)]

    def option(self, name: str) -> dict[str, Any]:
        for opt in self.value_options:
            if opt["name"] == name:
                return opt
        known = ", ".join(o["name"] for o in self.value_options) or "none"
        raise InvalidInvocation(f"{self.path} has no option {name!r} (options: {known})")


def split_path(path: str | Sequence[str]) -> list[str]:
    if isinstance(path, str):
        return path.strip().lstrip("/").split()
    return list(path)


class CommandRegistry:
    def __init__(self, ids: SnowflakeFactory, application_id: int) -> None:
        self._ids = ids
        self._application_id = application_id
        self._scopes: dict[int | None, list[dict[str, Any]]] = {}
        self._stable_ids: dict[tuple[int | None, str, int], int] = {}
        self.sync_count = 0

    def replace(self, guild_id: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite, like ``PUT .../commands``; ids survive re-syncs as on Discord."""
        stored = []
        for raw in commands:
            cmd = copy.deepcopy(raw)
            cmd.setdefault("type", CHAT_INPUT)
            cmd.setdefault("description", "")
            cmd.setdefault("options", [])
            key = (guild_id, cmd["name"], cmd["type"])
            if key not in self._stable_ids:
                self._stable_ids[key] = self._ids.next()
            cmd["id"] = str(self._stable_ids[key])
            cmd["application_id"] = str(self._application_id)
            cmd["version"] = str(self._ids.next())
            cmd.setdefault("default_member_permissions", None)
            cmd.setdefault("nsfw", False)
            if guild_id is not None:
                cmd["guild_id"] = str(guild_id)
            stored.append(cmd)
        self._scopes[guild_id] = stored
        self.sync_count += 1
        return copy.deepcopy(stored)

    def list(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """Commands synced to exactly this scope (None = global)."""
        return copy.deepcopy(self._scopes.get(guild_id, []))

    def is_synced(self, guild_id: int | None = None) -> bool:
        return guild_id in self._scopes

    # `list` below names the method: the builtin is `builtins.list` in this class.
    def visible_in(self, guild_id: int | None) -> builtins.list[dict[str, Any]]:
        """Guild commands first, then global ones — the order Discord's picker shows."""
        scoped = self._scopes.get(guild_id, []) if guild_id is not None else []
        return scoped + self._scopes.get(None, [])

    def resolve(self, path: str | Sequence[str], guild_id: int | None) -> CommandPath:
        names = split_path(path)
        if not names:
            raise InvalidInvocation("empty command path")
        top = next(
            (c for c in self.visible_in(guild_id) if c["name"] == names[0] and c["type"] == CHAT_INPUT),
            None,
        )
        if top is None:
            known = sorted({c["name"] for c in self.visible_in(guild_id)})
            raise InvalidInvocation(f"no synced slash command /{names[0]} here (synced: {known})")
        node = top
        for depth, name in enumerate(names[1:], start=1):
            subs = {
                o["name"]: o for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            }
            if name not in subs:
                raise InvalidInvocation(f"/{' '.join(names[:depth])} has no subcommand {name!r} (has: {sorted(subs)})")
            node = subs[name]
        remaining = [o["name"] for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if remaining:
            raise InvalidInvocation(f"/{' '.join(names)} needs a subcommand: one of {sorted(remaining)}")
        scope = int(top["guild_id"]) if top.get("guild_id") else None
        return CommandPath(top, names, node, scope)

    def all_paths(self, guild_id: int | None = None) -> builtins.list[str]:
        """Every invocable path, for help texts and error messages."""
        out: list[str] = []

        def walk(node: dict[str, Any], prefix: list[str]) -> None:
            subs = [o for o in node.get("options") or [] if o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            if not subs:
                out.append("/" + " ".join(prefix))
            for sub in subs:
                walk(sub, prefix + [sub["name"]])

        for cmd in self.visible_in(guild_id):
            if cmd["type"] == CHAT_INPUT:
                walk(cmd, [cmd["name"]])
        return out
