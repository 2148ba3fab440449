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
import sys
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from rules import registry
from rules.between import MAX_ENTRIES
from rules.cards import full_deck
from rules.errors import InvalidInput, RulesError
from rules.said import N_, joined, say, say_plural, term
from rules.text import Text
from rules.usertext import control_character, listed_first, mark, name_key, quoted, refuse_controls, visible

from .between import DECK
from .lengths import NOTE, OTHER, check_form_fits
from .roster import HIDDEN
from .setting_values import SHARED_OPTIONS, bounded, typed

FORMAT = "turnkeeper-campaign"
VERSION = 2
READS = (1, 2)
MAX_ITEMS = 1000
# The largest file an import reads. The limits on what a campaign holds allow far more: 1000 characters and
# 1000 NPCs (MAX_ITEMS each), every sheet up to the 5 form fields of 4,000 characters that /character edit
# opens (lengths.check_form_fits), names of 60 and notes of 500 characters, at up to 4 bytes a character in
# UTF-8: some 160 MB of sheets alone. The file travels as a Discord attachment, which a server without boosts
# limits to 10 MiB, the bot's export as much as the GM's upload: no file past that goes through every server.
MAX_BYTES = 10 * 2**20
MAX_NAME = 60
MAX_NOTES = NOTE
# An export nests five deep (a condition's tags in a character's lasting state); Python's JSON
# reader recurses once per level and fails past about a thousand, so deeper is refused unread.
MAX_DEPTH = 20
SECTIONS = ("settings", "state", "characters", "npcs")
SHOWN = 20  # names a preview lists of the characters it adds or deletes; it counts the rest
MAX_SNOWFLAKE = 2**63 - 1
MAX_SNOWFLAKE_DIGITS = len(str(MAX_SNOWFLAKE))
MAX_RNG = 2**64 - 1  # the generator's state is one 64-bit word (rules.rng)
# A campaign-wide number only grows by play (the Editor-in-Chief's pool gains every spent Plot Point):
# any count a campaign could reach, within what every database's integer holds.
MAX_CAMPAIGN_VALUE = 2**31 - 1
# The longest text play writes into a lasting list: a Frozen Lands injury, typed in /condition add's tags:
# (other text, 200 characters); a condition's name (64) and a Rotted Capes tag (30) are shorter.
MAX_ENTRY = OTHER
# The longest lasting list: a Frozen Lands hero keeps at most 50 Wounds, each with its critical injury; a
# combatant holds at most rules.common.MAX_CONDITIONS (50) conditions, however play names or tags them;
# /campaign adjust sets 20.
MAX_LIST = 50
# The campaign state a file carries: the generator and the system's campaign-wide state. A check also keeps
# its count (`checks`) and what it offers next by this database's character ids (`offered`): they mean
# nothing in another campaign, so an export leaves them out and an import drops them (older exports hold them).
STATE = ("rng", "rules")
LOCAL_STATE = ("checks", "offered")
CARDS = frozenset(full_deck())
# The campaign-wide values a system keeps (the state's `rules`): what a fight's end hands back to the campaign
# (the Editor-in-Chief's pool), and the deck 99 Towers' checks flip from. Those of every system: a campaign set
# up anew for another system keeps its former system's, and its export holds them.
RULES_STATE = frozenset({DECK}).union(
    *(registry.get(key).campaign_out(registry.get(key).new_encounter(0, 0)) for key in registry.MODULES)
)
NOT_JSON = N_("The file is not valid JSON: attach a file made by /campaign export.")
# The most lists and objects a file holds: itself, its settings, state, state's rules, the deck, characters
# and npcs; each character itself, its sheet, its lasting state and its lasting lists (MOST_LISTS, the most
# a system keeps), each entry an object with a list of tags; each NPC itself and its sheet. Sheets and
# settings hold none. JSON reads more only into memory the import refuses anyway.
MOST_LISTS = max(
    sum(spec.kind == "list" for spec in registry.get(key).adjustable().values()) for key in registry.MODULES
)
MAX_CONTAINERS = 7 + MAX_ITEMS * (3 + MOST_LISTS * (1 + 2 * MAX_LIST)) + MAX_ITEMS * 2
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


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
        "state": {key: value for key, value in campaign.state.items() if key in STATE},
        "characters": [
            {
                "name": c.name,
                "owner_id": str(c.owner_id),
                "owner_name": c.owner_name,
                "sheet": c.sheet,
                "lasting": system.fit_lasting(c.sheet, c.lasting, c.npc) if fitted else c.lasting,
                "npc": c.npc,
            }
            for c in sorted(characters, key=lambda c: (c.name_key, c.owner_id))
        ],
        "npcs": [{"name": n.name, "sheet": n.sheet, "notes": n.notes} for n in sorted(npcs, key=lambda n: n.name_key)],
    }


def dumps(data: dict[str, Any]) -> bytes:
    # Compact: the file is for the import to read (the README shows its format); indentation and spaces made
    # up a third of a campaign's file.
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


def digest(campaign, characters, npcs) -> str:
    """The campaign an import replaces, as one value: any change to what the file would
    replace (system, settings, state, a character or NPC added, removed or changed) changes it."""
    if campaign is None:
        return ""
    return hashlib.sha256(dumps(export(campaign, characters, npcs, fitted=False))).hexdigest()


def _name(value: Any, what: Text) -> str:
    """A name as play stores it. Its length is checked before it is compared: the comparison keeps the names
    it saw, and a file's name may run to its whole size."""
    name = " ".join(value.split()) if isinstance(value, str) else ""
    if len(name) > MAX_NAME:
        raise InvalidInput(say("The file has {what} whose name is longer than {n} characters.", what=what, n=MAX_NAME))
    if not visible(name):
        raise InvalidInput(say("The file has {what} without a name.", what=what))
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
    return say("The file is larger than {mb} MB: that is not a Turnkeeper campaign.", mb=MAX_BYTES // 2**20)


def _refuse_shape(text: str) -> None:
    """Refuse, before JSON reads it, a file whose lists and objects no campaign has: more of them than
    MAX_CONTAINERS, or nested deeper than MAX_DEPTH (the reader recurses once a level)."""
    outside = _outside_strings(text)
    if outside.count("[") + outside.count("{") > MAX_CONTAINERS:
        raise InvalidInput(
            say("The file holds more than {n} lists and objects: that is not a Turnkeeper campaign.", n=MAX_CONTAINERS)
        )
    if _nesting(outside) > MAX_DEPTH:
        raise InvalidInput(
            say("The file nests lists or objects more than {n} deep: that is not a Turnkeeper campaign.", n=MAX_DEPTH)
        )


def _outside_strings(text: str) -> str:
    """The file's text outside its strings, as JSON reads them, in a few passes over the text, each linear
    whatever it holds (a string never closed, escaped quotes by the thousand)."""
    # Escaped backslashes out first (`\\\\"` ends a string), then escaped quotes: every quote left opens or
    # closes a string.
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    # Between quotes, every other piece is inside a string; a string never closed runs to the end.
    return "".join(unescaped.split('"')[::2])


def _nesting(outside: str) -> int:
    """How deep the lists and objects of text outside strings nest."""
    brackets = _NOT_A_BRACKET.sub("", outside)
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)), default=0)


def _refuse_lone_surrogates(data: Any) -> None:
    """JSON may escape half of a UTF-16 pair (`\\ud800`), which is no character: such text could be
    neither shown nor stored."""
    try:
        json.dumps(data, ensure_ascii=False).encode()
    except UnicodeEncodeError:
        raise InvalidInput(
            say("The file holds text that is not valid Unicode (half of a surrogate pair): nothing was changed.")
        ) from None


def _loaded(text: str) -> tuple[Any, str | None]:
    """The file's JSON, and the first key it gives twice in one object (None when it gives none): of such a
    key JSON's reader keeps the last value, where whoever reads or edits the file may see the first."""
    doubled: list[str] = []

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(pairs)
        if len(found) < len(pairs) and not doubled:
            doubled.append(next(key for key, n in Counter(key for key, _ in pairs).items() if n > 1))
        return found

    try:
        return json.loads(text, object_pairs_hook=unique), next(iter(doubled), None)
    except json.JSONDecodeError:
        raise InvalidInput(NOT_JSON) from None
    except ValueError:  # JSON's numbers have any length: Python reads none past its limit of digits
        raise InvalidInput(
            say(
                "The file holds a number of more than {n} digits: that is not a Turnkeeper campaign.",
                n=sys.get_int_max_str_digits(),
            )
        ) from None


def read(raw: bytes, *, expected_system: str | None) -> CampaignFile:
    """Check a campaign file completely before anything is changed; InvalidInput says what is wrong."""
    if len(raw) > MAX_BYTES:
        raise InvalidInput(too_large())
    try:
        # Some editors save a byte-order mark first; JSON's standard lets a reader ignore it.
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(NOT_JSON) from None
    _refuse_shape(text)
    data, doubled = _loaded(text)
    _refuse_lone_surrogates(data)
    if doubled is not None:
        raise InvalidInput(say("The file gives {key} twice in one object: nothing was changed.", key=quoted(doubled)))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InvalidInput(say("The file is not a Turnkeeper campaign export."))
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
    if not isinstance(system_key, str) or system_key not in registry.MODULES:
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
    characters, seen, kept = [], set(), set()
    for item in _list(data["characters"], "characters"):
        item = _dict(item, say("character"))
        name = _name(item.get("name"), say("a character"))
        owner = _owner(item.get("owner_id"))
        if owner is None:
            raise InvalidInput(say("Character {name} has no valid owner id.", name=mark(name)))
        npc = item.get("npc", False)
        if not isinstance(npc, bool):
            raise InvalidInput(say("Character {name}'s `npc` is not true or false.", name=mark(name)))
        sheet = _sheet(system, item.get("sheet", {}), name, version)
        lasting = _lasting(system, sheet, item.get("lasting", {}), name, npc=npc)
        key = (name_key(name), owner)
        if key in seen:
            raise InvalidInput(say("The file lists {name} twice for the same player.", name=mark(name)))
        seen.add(key)
        if npc:  # every GM's, brought back by its name alone
            if key[0] in kept:
                raise InvalidInput(say("The file lists the kept NPC {name} twice.", name=mark(name)))
            kept.add(key[0])
        owner_name = item.get("owner_name")
        if owner_name is not None and (not isinstance(owner_name, str) or len(owner_name) > 100):
            raise InvalidInput(
                say("Character {name}'s owner name is not text of at most {n} characters.", name=mark(name), n=100)
            )
        if owner_name is not None:
            refuse_controls(owner_name, say("Character {name}'s owner name", name=mark(name)))
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
    """A Discord user id: written as digits, it fits the database's 64-bit column. Digits are counted
    before they are read: Python reads no number of thousands of them."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    if isinstance(value, str):
        if not (value.isascii() and value.isdigit()) or len(value) > MAX_SNOWFLAKE_DIGITS:
            return None
        value = int(value)
    return value if 0 < value <= MAX_SNOWFLAKE else None


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
    """The campaign state: the generator rests roll with and the system's campaign-wide numbers (and the
    99 Towers deck its checks flip from)."""
    unknown = [key for key in state if key not in STATE + LOCAL_STATE]
    if unknown:
        raise InvalidInput(say("The file's state has an unknown entry {name}.", name=quoted(unknown[0])))
    if "rng" in state:
        bounded(state["rng"], "rng", 0, MAX_RNG)
    for key, value in _dict(state.get("rules", {}), say("state")).items():
        if key not in RULES_STATE:
            raise InvalidInput(say("The file's state has an unknown entry {name}.", name=quoted(key)))
        if key == DECK:
            _deck(value)
        else:
            bounded(value, str(key)[:40], 0, MAX_CAMPAIGN_VALUE)
    return {key: value for key, value in state.items() if key in STATE}


def _deck(deck: Any) -> None:
    """The cards left to flip, in order: each card of the 52 at most once."""
    if (
        not isinstance(deck, list)
        or not all(isinstance(card, str) and card in CARDS for card in deck)
        or len(set(deck)) != len(deck)
    ):
        raise InvalidInput(
            say(
                "`deck` is not a list of different cards, each written as a code such as `KH` or `10S` (at most {n}).",
                n=len(CARDS),
            )
        )


def _sheet(system, sheet: Any, name: str, version: int) -> dict[str, Any]:
    """The sheet as /character add stores it: every stat, each of its own type."""
    sheet = system.upgrade_sheet(_dict(sheet, say("sheet of {name}", name=mark(name))), version)
    try:
        _refuse_controls_in_stats(system, sheet)
        read_in = system.parse_sheet(sheet)
        for key, value in sheet.items():
            _typed_as_read(key, value, read_in[key])
        check_form_fits(system, read_in)
    except RulesError as error:
        raise InvalidInput(say("{name}'s sheet: {error}", name=mark(name), error=error.said)) from None
    return read_in


def _refuse_controls_in_stats(system, sheet: dict[str, Any]) -> None:
    """A stat's text holds no control character, as the form's may not (a line break, which `stats:` takes
    in quotes, is none): checked before the sheet is read, whose refusals quote what they cannot read."""
    for key, value in sheet.items():
        if key in system.sheet_type.model_fields and isinstance(value, str):
            refuse_controls(value, say("Stat `{stat}`", stat=key), lines=True)


def _typed_as_read(key: str, value: Any, read_in: Any) -> None:
    """A stat written as the type it is read as: the sheet's reader takes `true` as the number 1, `20.0` as 20
    and "no" as no, where an export writes each as the bot stores it."""
    if isinstance(read_in, bool):
        if not isinstance(value, bool):
            raise InvalidInput(say("`{key}` takes yes or no.", key=key))
    elif isinstance(read_in, int) and (not isinstance(value, int) or isinstance(value, bool)):
        raise InvalidInput(say("`{key}` takes a whole number.", key=key))


def _lasting(system, sheet: dict[str, Any], lasting: Any, name: str, *, npc: bool = False) -> dict[str, Any]:
    """A character's lasting state: each key one the system keeps, each value of its type, each number passing
    the checks `/campaign adjust` makes (its range, the sheet's maximum), each list's entries those the system
    keeps, each name one the system reads (a kept NPC's side), and the values fitting together as an adjustment
    leaves them (no more critical injuries than Wounds)."""
    lasting = _dict(lasting, say("lasting state of {name}", name=mark(name)))
    adjustable = system.adjustable()
    flags = _flags(system, npc)
    try:
        # Every type first: the range checks read the other values (flaws lower the most Wounds).
        checked = {
            key: _value(system, sheet, adjustable.get(key), key in flags, key, value) for key, value in lasting.items()
        }
        # What the bot keeps for no such character (a kept NPC's Plot Points, stored before they were the players'
        # heroes' alone) is left out, as storing it would leave it out.
        kept = system.fit_lasting(sheet, checked, npc)
        checked = {key: value for key, value in checked.items() if key in kept}
        for key, value in checked.items():
            spec = adjustable.get(key)
            if spec is not None and spec.kind == "int":
                system.adjust(sheet, checked, key, str(value), npc)
        # A name is kept as the system reads it typed (`GM` is the side `gm`): one it refuses is refused.
        checked |= {
            key: system.adjust(sheet, checked, key, value, npc)[key]
            for key, value in checked.items()
            if key in adjustable and adjustable[key].kind == "text"
        }
        system.check_lasting(sheet, checked, npc)
    except RulesError as error:
        raise InvalidInput(say("{name}'s lasting state: {error}", name=mark(name), error=error.said)) from None
    # Stored as the bot stores every state (System.fit_lasting): values that together say more are read so
    # (Exhaustion 6 is death), and a form an earlier version wrote as it reads now (a counted penalty).
    return system.fit_lasting(sheet, checked, npc)


def _flags(system, npc: bool) -> frozenset[str]:
    """The yes/no keys a lasting state holds that the GM does not set: the system's (a hero left Unconscious),
    and the bot's own beside them in a kept NPC's (whether it last fought hidden)."""
    return system.lasting_flags() | ({HIDDEN} if npc else set())


def _value(system, sheet: dict[str, Any], spec: Any, flag: bool, key: Any, value: Any) -> Any:
    if spec is None and not flag:
        # Kept, a key nothing reads would go into every later export: a file could add any number of them.
        raise InvalidInput(
            say("{system} keeps no lasting value called {key}.", system=term(system.name), key=quoted(str(key), 40))
        )
    if spec is None or spec.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidInput(say("`{key}` takes yes or no.", key=str(key)[:40]))
        return value
    if spec.kind == "list":
        return _entries(system, sheet, key, value)
    if spec.kind == "text":
        if not isinstance(value, str):
            raise InvalidInput(say("`{key}` takes a name.", key=key))
        return value
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(say("`{key}` takes a whole number.", key=key))
    return value


def _entries(system, sheet: dict[str, Any], key: str, entries: Any) -> list[Any]:
    if not isinstance(entries, list):
        raise InvalidInput(say("`{key}` is not a list.", key=key))
    if len(entries) > MAX_LIST:
        raise InvalidInput(say("`{key}` holds more than {n} entries.", key=key, n=MAX_LIST))
    return [_entry(system, sheet, key, entry) for entry in entries]


def _entry(system, sheet: dict[str, Any], key: str, entry: Any) -> Any:
    """One entry of a lasting list, read as /campaign adjust reads it typed: a name it refuses (a condition
    that does not last, one the system does not know) is refused, one it spells its own way ("stunned") is
    kept so. Text it would cut or split (an injury of 200 characters, a located wound's effect with commas in
    it) is kept whole, as play writes it. The entry keeps the form the system stores: text, or an object
    with its name and the fields the system gives it (a condition's tags, whether it is minor)."""
    text = entry.get("name") if isinstance(entry, dict) else entry
    if not isinstance(text, str):
        raise InvalidInput(say("`{key}` holds an entry that is neither text nor an object with a name.", key=key))
    if len(text) > MAX_ENTRY:
        raise InvalidInput(
            say("`{key}` holds {entry}, longer than {n} characters.", key=key, entry=_shown(text), n=MAX_ENTRY)
        )
    if not text.isprintable():  # a control character is not; most text is, and is read at once
        refuse_controls(text, say("`{key}` entry {entry}", key=key, entry=_shown(text)))
    made = _adjusted(system, sheet, key, text)
    spelt = made[0] if len(made) == 1 else None
    if all(isinstance(m, str) for m in made):
        if isinstance(entry, dict):
            raise InvalidInput(
                say("`{key}` holds {entry} as an object: each of its entries is text.", key=key, entry=_shown(text))
            )
        return _spelling(text, spelt)
    if not isinstance(entry, dict) or not all(isinstance(m, dict) for m in made):
        raise InvalidInput(
            say(
                "`{key}` holds {entry} as text: each of its entries is an object with a name.",
                key=key,
                entry=_shown(text),
            )
        )
    for field, value in entry.items():
        _field(key, text, field, value, made[0])
    return made[0] | entry | {"name": _spelling(text, spelt["name"] if spelt else None)}


def _adjusted(system, sheet: dict[str, Any], key: str, text: str) -> list[Any]:
    """What /campaign adjust stores for `text` typed as the list's value: one entry, or more at commas."""
    try:
        adjusted = system.adjust(sheet, {}, key, text)
    except RulesError as error:
        refused = say(
            "`{key}` holds {entry}, which /campaign adjust refuses: {error}",
            key=key,
            entry=_shown(text),
            error=error.said,
        )
        raise InvalidInput(refused) from None
    made = adjusted[key]
    if not made and any(other != key for other in adjusted):
        # Kept as another value (a mobility penalty is counted), as an earlier version listed it: fitted so.
        return [text]
    if not made:
        raise InvalidInput(say("`{key}` holds {entry}, which names nothing.", key=key, entry=_shown(text)))
    return made


def _shown(text: str) -> Text:
    return quoted(text, 40)


def _spelling(text: str, spelt: str | None) -> str:
    """The system's spelling of a name it knows ("stunned" → "Stunned"), else the text as written: what
    /campaign adjust keeps of typed text is where it begins (cut shorter than play writes it, split at commas)."""
    return spelt if spelt is not None and not text.startswith(spelt) else text


def _field(key: str, text: str, field: Any, value: Any, fields: dict[str, Any]) -> None:
    """A field of an object entry, of the type the system gives it (yes or no, or a list of short texts)."""
    if field == "name":
        return

    def named() -> dict[str, Any]:  # only for a refusal: an import reads thousands of fields
        return dict(key=key, entry=_shown(text), field=quoted(field))

    if field not in fields:
        raise InvalidInput(say("`{key}` entry {entry} has an unknown field {field}.", **named()))
    like = fields[field]
    if isinstance(like, bool):
        if not isinstance(value, bool):
            raise InvalidInput(say("`{key}` entry {entry}: {field} takes yes or no.", **named()))
    elif isinstance(like, list):
        if not isinstance(value, list) or len(value) > MAX_ENTRIES or not all(map(_short_text, value)):
            raise InvalidInput(
                say(
                    "`{key}` entry {entry}: {field} is not a list of at most {n} texts of at most {most} characters.",
                    n=MAX_ENTRIES,
                    most=MAX_ENTRY,
                    **named(),
                )
            )
    elif not _short_text(value):
        raise InvalidInput(
            say("`{key}` entry {entry}: {field} is not a text of at most {most} characters.", most=MAX_ENTRY, **named())
        )


def _short_text(value: Any) -> bool:
    if not isinstance(value, str) or len(value) > MAX_ENTRY:
        return False
    return value.isprintable() or control_character(value) is None


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
                "Now: {system}, {characters}, {npcs}.",
                system=registry.get(current.system).name,
                characters=characters_counted(len(current_characters)),
                npcs=npcs_counted(len(current_npcs)),
            )
        )
    names = _some([mark(c["name"]) for c in incoming.characters]) or say("none")
    lines.append(
        say(
            "From the file: {characters} ({names}), {npcs}.",
            characters=characters_counted(len(incoming.characters)),
            names=names,
            npcs=npcs_counted(len(incoming.npcs)),
        )
    )
    gone = _deleted(incoming, current_characters)
    if gone:
        lines.append(say("Characters not in the file are deleted: {names}.", names=_some(gone)))
    return joined("\n", lines)


def characters_counted(n: int) -> Text:
    return say_plural("{n} character", "{n} characters", n, n=n)


def npcs_counted(n: int) -> Text:
    return say_plural("{n} NPC", "{n} NPCs", n, n=n)


def _some(names: list[Text]) -> Text:
    return listed_first(names, SHOWN)


def _deleted(incoming: CampaignFile, current_characters) -> list[Text]:
    """The characters the import deletes: a character is one player's, so another player's of the same name
    in the file does not keep it. One of a name another character has too names its player."""
    kept = {(name_key(c["name"]), c["owner_id"]) for c in incoming.characters}
    gone = sorted(
        (c for c in current_characters if (c.name_key, c.owner_id) not in kept), key=lambda c: (c.name_key, c.owner_id)
    )
    named = Counter(c.name_key for c in current_characters)
    return [_whose(c) if named[c.name_key] > 1 else mark(c.name) for c in gone]


def _whose(character) -> Text:
    return say(
        "{name} ({player})", name=mark(character.name), player=mark(character.owner_name or str(character.owner_id))
    )
