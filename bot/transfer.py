"""A whole campaign as one JSON file: `/campaign export` writes it, `/campaign import` reads it.

Format (version 1), documented in the README:

    {"format": "turnkeeper-campaign", "version": 1, "system": "rotted-capes",
     "settings": {...}, "state": {...},
     "characters": [{"name": "Nova", "owner_id": "123", "sheet": {...}, "lasting": {...}}],
     "npcs": [{"name": "Zombie", "sheet": {...}, "notes": ""}]}

Ids are strings: JSON readers in other languages lose precision on 64-bit integers.
The GM role is not in the file: role ids mean nothing on another server.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rules import registry
from rules.errors import InvalidInput, RulesError
from rules.said import say
from rules.usertext import mark, quoted

from .lengths import NOTE

FORMAT = "turnkeeper-campaign"
VERSION = 1
MAX_BYTES = 1_000_000  # well under Discord's smallest upload limit (10 MB) and any real campaign
MAX_ITEMS = 1000
MAX_NAME = 60
MAX_NOTES = NOTE


@dataclass(frozen=True)
class CampaignFile:
    system: str
    settings: dict[str, Any]
    state: dict[str, Any]
    characters: list[dict[str, Any]]
    npcs: list[dict[str, Any]]


def export(campaign, characters, npcs) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "system": campaign.system,
        "settings": campaign.settings,
        "state": campaign.state,
        "characters": [
            {
                "name": c.name,
                "owner_id": str(c.owner_id),
                "owner_name": c.owner_name,
                "sheet": c.sheet,
                "lasting": c.lasting,
            }
            for c in sorted(characters, key=lambda c: (c.name_key, c.owner_id))
        ],
        "npcs": [{"name": n.name, "sheet": n.sheet, "notes": n.notes} for n in sorted(npcs, key=lambda n: n.name_key)],
    }


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode()


def _name(value: Any, what: str) -> str:
    if not isinstance(value, str) or not " ".join(value.split()):
        raise InvalidInput(say("The file has {what} without a name.", what=what))
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise InvalidInput(say("The file has {what} whose name is longer than {n} characters.", what=what, n=MAX_NAME))
    return name


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(say("The file's {what} is not an object.", what=what))
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidInput(say("The file's `{what}` is not a list.", what=what))
    if len(value) > MAX_ITEMS:
        raise InvalidInput(say("The file lists more than {n} {what}.", n=MAX_ITEMS, what=what))
    return value


def too_large() -> str:
    return say("The file is larger than {kb} KB: that is not a Turnkeeper campaign.", kb=MAX_BYTES // 1000)


def read(raw: bytes, *, expected_system: str | None) -> CampaignFile:
    """Check a campaign file completely before anything is changed; InvalidInput says what is wrong."""
    if len(raw) > MAX_BYTES:
        raise InvalidInput(too_large())
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise InvalidInput("The file is not valid JSON: attach a file made by /campaign export.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput("The file is not a Turnkeeper campaign export.")
    if data.get("version") != VERSION:
        raise InvalidInput(
            say(
                "The file is format version {found}; this bot reads version {version}.",
                found=mark(str(data.get("version"))[:10]),
                version=VERSION,
            )
        )
    system_key = data.get("system")
    if system_key not in registry.MODULES:
        raise InvalidInput(say("The file is for an unknown rule system {system}.", system=quoted(system_key)))
    if expected_system is not None and system_key != expected_system:
        raise InvalidInput(
            say(
                "The file is a {system} campaign; this one plays {expected}. "
                "Nothing was changed (set the campaign up for that system first to replace it).",
                system=system_key,
                expected=expected_system,
            )
        )
    system = registry.get(system_key)
    settings = _dict(data.get("settings", {}), say("settings"))
    shared = ("reminder_minutes", "choice_timeout_seconds")
    unknown = [k for k in settings if k not in system.options and k not in shared]
    if unknown:
        raise InvalidInput(say("The file has an unknown setting {name}.", name=quoted(unknown[0])))
    characters, seen = [], set()
    for item in _list(data.get("characters", []), "characters"):
        item = _dict(item, say("character"))
        name = _name(item.get("name"), say("a character"))
        try:
            owner = int(item.get("owner_id"))
        except (TypeError, ValueError):
            raise InvalidInput(say("Character {name} has no valid owner id.", name=mark(name))) from None
        sheet = _sheet(system, item.get("sheet", {}), name)
        lasting = _dict(item.get("lasting", {}), say("lasting state of {name}", name=mark(name)))
        key = (name.casefold(), owner)
        if key in seen:
            raise InvalidInput(say("The file lists {name} twice for the same player.", name=mark(name)))
        seen.add(key)
        owner_name = item.get("owner_name")
        if owner_name is not None and (not isinstance(owner_name, str) or len(owner_name) > 100):
            raise InvalidInput(
                say("Character {name}'s owner name is not text of at most {n} characters.", name=mark(name), n=100)
            )
        characters.append(
            {"name": name, "owner_id": owner, "owner_name": owner_name, "sheet": sheet, "lasting": lasting}
        )
    npcs, seen_npcs = [], set()
    for item in _list(data.get("npcs", []), "npcs"):
        item = _dict(item, say("NPC"))
        name = _name(item.get("name"), say("an NPC"))
        notes = item.get("notes", "")
        if not isinstance(notes, str) or len(notes) > MAX_NOTES:
            raise InvalidInput(
                say("NPC {name}'s notes are not text of at most {n} characters.", name=mark(name), n=MAX_NOTES)
            )
        if name.casefold() in seen_npcs:
            raise InvalidInput(say("The file lists the NPC {name} twice.", name=mark(name)))
        seen_npcs.add(name.casefold())
        npcs.append({"name": name, "sheet": _sheet(system, item.get("sheet", {}), name), "notes": notes})
    state = _dict(data.get("state", {}), say("state"))
    return CampaignFile(system_key, settings, state, characters, npcs)


def _sheet(system, sheet: Any, name: str) -> dict[str, Any]:
    sheet = _dict(sheet, say("sheet of {name}", name=mark(name)))
    try:
        system.parse_sheet(sheet)
    except RulesError as error:
        raise InvalidInput(say("{name}'s sheet: {error}", name=mark(name), error=error.said)) from None
    return sheet


def preview(incoming: CampaignFile, current, current_characters, current_npcs) -> str:
    """What an import will change, in a few lines."""
    system = registry.get(incoming.system)
    lines = [
        say(
            "**Import a {system} campaign?** It replaces this campaign's settings, characters and NPC library.",
            system=system.name,
        )
    ]
    if current is None:
        lines.append(say("This channel has no campaign yet."))
    else:
        lines.append(
            say(
                "Now: {system}, {characters} characters, {npcs} NPCs.",
                system=registry.get(current.system).name,
                characters=len(current_characters),
                npcs=len(current_npcs),
            )
        )
    names = ", ".join(mark(c["name"]) for c in incoming.characters[:20]) or say("none")
    if len(incoming.characters) > 20:
        names += say(" and {n} more", n=len(incoming.characters) - 20)
    lines.append(
        say(
            "From the file: {characters} characters ({names}), {npcs} NPCs.",
            characters=len(incoming.characters),
            names=names,
            npcs=len(incoming.npcs),
        )
    )
    gone = {c.name for c in current_characters} - {c["name"] for c in incoming.characters}
    if gone:
        names = ", ".join(mark(name) for name in sorted(gone)[:20])
        lines.append(say("Characters not in the file are deleted: {names}.", names=names))
    return "\n".join(lines)
