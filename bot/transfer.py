"""A whole campaign as one JSON file: `/campaign export` writes it, `/campaign import` reads it.

Format (version 2), documented in the README:

    {"format": "turnkeeper-campaign", "version": 2, "system": "rotted-capes",
     "settings": {...}, "state": {...},
     "characters": [{"name": "Nova", "owner_id": "123", "sheet": {...}, "lasting": {...}, "npc": false}],
     "npcs": [{"name": "Zombie", "sheet": {...}, "notes": ""}]}

Ids are strings: JSON readers in other languages lose precision on 64-bit integers.
The GM role is not in the file: role ids mean nothing on another server. A character's
`npc` (an NPC the GM kept, not a hero) may be left out: files written before it are heroes.
Version 1 files are read too: each system reads their sheets as it did then (System.upgrade_sheet).
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from rules import registry
from rules.between import MAX_ENTRIES
from rules.errors import InvalidInput, RulesError
from rules.said import joined, say
from rules.text import Text
from rules.usertext import listed, mark, name_key, quoted, refuse_controls, visible

from .lengths import NOTE, check_form_fits
from .setting_values import SHARED_OPTIONS, bounded, typed

FORMAT = "turnkeeper-campaign"
VERSION = 2
READS = (1, 2)
MAX_BYTES = 1_000_000  # well under Discord's smallest upload limit (10 MB) and any real campaign
MAX_ITEMS = 1000
MAX_NAME = 60
MAX_NOTES = NOTE
# An export nests five deep (a condition's tags in a character's lasting state); Python's JSON
# reader recurses once per level and fails past about a thousand, so deeper is refused unread.
MAX_DEPTH = 20
SECTIONS = ("settings", "state", "characters", "npcs")
MAX_SNOWFLAKE = 2**63 - 1
MAX_RNG = 2**64 - 1  # the generator's state is one 64-bit word (rules.rng)
# A campaign-wide number only grows by play (the Editor-in-Chief's pool gains every spent Plot Point):
# any count a campaign could reach, within what every database's integer holds.
MAX_CAMPAIGN_VALUE = 2**31 - 1
MAX_ENTRY = 120  # the longest entry /campaign adjust keeps in a lasting list
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


@dataclass(frozen=True)
class CampaignFile:
    system: str
    settings: dict[str, Any]
    state: dict[str, Any]
    characters: list[dict[str, Any]]
    npcs: list[dict[str, Any]]


def export(campaign, characters, npcs, *, fitted: bool = True) -> dict[str, Any]:
    """The campaign's file. `fitted`: a lasting value stored past a sheet edited down (before such values
    were fitted as they are stored) is written as the bot reads it, so the file passes its own import."""
    system = registry.get(campaign.system)
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
                "lasting": system.fit_lasting(c.sheet, c.lasting) if fitted else c.lasting,
                "npc": c.npc,
            }
            for c in sorted(characters, key=lambda c: (c.name_key, c.owner_id))
        ],
        "npcs": [{"name": n.name, "sheet": n.sheet, "notes": n.notes} for n in sorted(npcs, key=lambda n: n.name_key)],
    }


def dumps(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode()


def digest(campaign, characters, npcs) -> str:
    """The campaign an import replaces, as one value: any change to what the file would
    replace (system, settings, state, a character or NPC added, removed or changed) changes it."""
    if campaign is None:
        return ""
    return hashlib.sha256(dumps(export(campaign, characters, npcs, fitted=False))).hexdigest()


def _name(value: Any, what: Text) -> str:
    if not isinstance(value, str) or not visible(value):
        raise InvalidInput(say("The file has {what} without a name.", what=what))
    name = " ".join(value.split())
    if len(name) > MAX_NAME:
        raise InvalidInput(say("The file has {what} whose name is longer than {n} characters.", what=what, n=MAX_NAME))
    refuse_controls(name, say("The name of {what} in the file", what=what))
    return name


def _dict(value: Any, what: Text) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InvalidInput(say("The file's {what} is not an object.", what=what))
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidInput(say("The file's `{what}` is not a list.", what=what))
    if len(value) > MAX_ITEMS:
        raise InvalidInput(say("The file lists more than {n} {what}.", n=MAX_ITEMS, what=what))
    return value


def too_large() -> Text:
    return say("The file is larger than {kb} KB: that is not a Turnkeeper campaign.", kb=MAX_BYTES // 1000)


def _nesting(text: str) -> int:
    """How deep the file's lists and objects nest, counted up to one level past MAX_DEPTH."""
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return depth
        elif token in "]}":
            depth -= 1
    return 0


def read(raw: bytes, *, expected_system: str | None) -> CampaignFile:
    """Check a campaign file completely before anything is changed; InvalidInput says what is wrong."""
    if len(raw) > MAX_BYTES:
        raise InvalidInput(too_large())
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InvalidInput("The file is not valid JSON: attach a file made by /campaign export.") from None
    if _nesting(text) > MAX_DEPTH:
        raise InvalidInput(
            say("The file nests lists or objects more than {n} deep: that is not a Turnkeeper campaign.", n=MAX_DEPTH)
        )
    try:
        data = json.loads(text)
    except ValueError:
        raise InvalidInput("The file is not valid JSON: attach a file made by /campaign export.") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput("The file is not a Turnkeeper campaign export.")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise InvalidInput(
            say("The file's format version is not a whole number: this bot reads version {version}.", version=VERSION)
        )
    if version not in READS:
        raise InvalidInput(
            say(
                "The file is format version {found}; this bot reads versions 1 to {version}.",
                found=mark(str(version)[:10]),
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
    # An import replaces every section: one left out would be read as empty and delete what it replaces.
    missing = [section for section in SECTIONS if section not in data]
    if missing:
        missed = say("The file has no {section} section: attach a file made by /campaign export.", section=missing[0])
        raise InvalidInput(missed)
    system = registry.get(system_key)
    settings = _settings(system, _dict(data["settings"], say("settings")))
    state = _state(_dict(data["state"], say("state")))
    characters, seen = [], set()
    for item in _list(data["characters"], "characters"):
        item = _dict(item, say("character"))
        name = _name(item.get("name"), say("a character"))
        owner = _owner(item.get("owner_id"))
        if owner is None:
            raise InvalidInput(say("Character {name} has no valid owner id.", name=mark(name)))
        sheet = _sheet(system, item.get("sheet", {}), name, version)
        lasting = _lasting(system, sheet, item.get("lasting", {}), name)
        key = (name_key(name), owner)
        if key in seen:
            raise InvalidInput(say("The file lists {name} twice for the same player.", name=mark(name)))
        seen.add(key)
        owner_name = item.get("owner_name")
        if owner_name is not None and (not isinstance(owner_name, str) or len(owner_name) > 100):
            raise InvalidInput(
                say("Character {name}'s owner name is not text of at most {n} characters.", name=mark(name), n=100)
            )
        if owner_name is not None:
            refuse_controls(owner_name, say("Character {name}'s owner name", name=mark(name)))
        npc = item.get("npc", False)
        if not isinstance(npc, bool):
            raise InvalidInput(say("Character {name}'s `npc` is not true or false.", name=mark(name)))
        characters.append(
            {"name": name, "owner_id": owner, "owner_name": owner_name, "sheet": sheet, "lasting": lasting, "npc": npc}
        )
    npcs, seen_npcs = [], set()
    for item in _list(data["npcs"], "npcs"):
        item = _dict(item, say("NPC"))
        name = _name(item.get("name"), say("an NPC"))
        notes = item.get("notes", "")
        if not isinstance(notes, str) or len(notes) > MAX_NOTES:
            raise InvalidInput(
                say("NPC {name}'s notes are not text of at most {n} characters.", name=mark(name), n=MAX_NOTES)
            )
        refuse_controls(notes, say("NPC {name}'s notes", name=mark(name)), lines=True)
        if name_key(name) in seen_npcs:
            raise InvalidInput(say("The file lists the NPC {name} twice.", name=mark(name)))
        seen_npcs.add(name_key(name))
        npcs.append({"name": name, "sheet": _sheet(system, item.get("sheet", {}), name, version), "notes": notes})
    return CampaignFile(system_key, settings, state, characters, npcs)


def _owner(value: Any) -> int | None:
    """A Discord user id: written as digits, it fits the database's 64-bit column."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    if not (str(value).isascii() and str(value).isdigit()):
        return None
    owner = int(value)
    return owner if 0 < owner <= MAX_SNOWFLAKE else None


def _settings(system, settings: dict[str, Any]) -> dict[str, Any]:
    """The settings as `/campaign setup` would have stored them, each in its type and range."""
    checked = {}
    for key, value in settings.items():
        if key in SHARED_OPTIONS:
            checked[key] = bounded(value, key, 0, SHARED_OPTIONS[key].most)
            continue
        if key not in system.options:
            raise InvalidInput(say("The file has an unknown setting {name}.", name=quoted(key)))
        option = system.options[key]
        default = option.default
        # setup reads typed text; a file holds the stored value, which must already be of the default's type.
        if isinstance(default, bool) and not isinstance(value, bool):
            raise InvalidInput(say("`{key}` is yes or no.", key=key))
        if isinstance(default, int) and not isinstance(default, bool):
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidInput(say("`{key}` must be a whole number.", key=key))
        elif isinstance(default, str) and not isinstance(value, str):
            raise InvalidInput(say("The file's setting {name} is not text.", name=quoted(key)))
        checked[key] = typed(value, option, key)
    return checked


def _state(state: dict[str, Any]) -> dict[str, Any]:
    """The campaign state: the generator rests roll with and the system's campaign-wide numbers."""
    unknown = [key for key in state if key not in ("rng", "rules")]
    if unknown:
        raise InvalidInput(say("The file's state has an unknown entry {name}.", name=quoted(unknown[0])))
    if "rng" in state:
        bounded(state["rng"], "rng", 0, MAX_RNG)
    for key, value in _dict(state.get("rules", {}), say("state")).items():
        bounded(value, str(key)[:40], 0, MAX_CAMPAIGN_VALUE)
    return state


def _sheet(system, sheet: Any, name: str, version: int) -> dict[str, Any]:
    sheet = system.upgrade_sheet(_dict(sheet, say("sheet of {name}", name=mark(name))), version)
    try:
        system.parse_sheet(sheet)
        check_form_fits(system, sheet)
    except RulesError as error:
        raise InvalidInput(say("{name}'s sheet: {error}", name=mark(name), error=error.said)) from None
    return sheet


def _lasting(system, sheet: dict[str, Any], lasting: Any, name: str) -> dict[str, Any]:
    """A character's lasting state: each value of the type the system keeps, each number passing
    the checks `/campaign adjust` makes (its range, the sheet's maximum)."""
    lasting = _dict(lasting, say("lasting state of {name}", name=mark(name)))
    adjustable = system.adjustable()
    try:
        # Every type first: the range checks read the other values (flaws lower the most Wounds).
        for key, value in lasting.items():
            spec = adjustable.get(key)
            if spec is None or spec.kind == "bool":
                # Flags the fight sets and the GM does not (unconscious) are yes or no too.
                if not isinstance(value, bool):
                    raise InvalidInput(say("`{key}` takes yes or no.", key=str(key)[:40]))
            elif spec.kind == "list":
                if not isinstance(value, list) or len(value) > MAX_ENTRIES or not all(map(_entry, value)):
                    raise InvalidInput(
                        say("`{key}` is a list of at most {n} entries, each a name.", key=key, n=MAX_ENTRIES)
                    )
            elif not isinstance(value, int) or isinstance(value, bool):
                raise InvalidInput(say("`{key}` takes a whole number.", key=key))
        for key, value in lasting.items():
            spec = adjustable.get(key)
            if spec is not None and spec.kind == "int":
                system.adjust(sheet, lasting, key, str(value))
    except RulesError as error:
        raise InvalidInput(say("{name}'s lasting state: {error}", name=mark(name), error=error.said)) from None
    return lasting


def _entry(entry: Any) -> bool:
    """A lasting list's entry as the systems write them: a name, or a condition (its name, tags, flags)."""
    if isinstance(entry, str):
        return len(entry) <= MAX_ENTRY
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
        return False
    return all(_flag_or_text(v) for v in entry.values())


def _flag_or_text(value: Any) -> bool:
    if isinstance(value, list):
        return len(value) <= MAX_ENTRIES and all(isinstance(v, str) and len(v) <= MAX_ENTRY for v in value)
    return isinstance(value, bool) or (isinstance(value, str) and len(value) <= MAX_ENTRY)


def preview(incoming: CampaignFile, current, current_characters, current_npcs) -> Text:
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
    names: Text = listed(mark(c["name"]) for c in incoming.characters[:20]) or say("none")
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
        names = listed(mark(name) for name in sorted(gone)[:20])
        lines.append(say("Characters not in the file are deleted: {names}.", names=names))
    return joined("\n", lines)
