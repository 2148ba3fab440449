"""Campaign files no export writes (bot/transfer.py): a string never closed full of escaped quotes, half of a
surrogate pair, lasting lists the systems could not read. Each is refused, saying what and where, before
anything is stored; what play itself writes passes."""

from __future__ import annotations

import json

import pytest

from bot import transfer
from rules.errors import InvalidInput

RC, TOWERS, FROZEN, WORDS = "rotted-capes", "99-towers", "frozen-lands", "fightin-words"


def campaign(system=RC, characters=(), npcs=(), **sections) -> dict:
    data = {"format": transfer.FORMAT, "version": 2, "system": system, "settings": {}, "state": {}}
    return data | {"characters": list(characters), "npcs": list(npcs)} | sections


def nova(lasting=None, **more) -> dict:
    return {"name": "Nova", "owner_id": "7", "sheet": {}, "lasting": lasting or {}} | more


def read(raw: bytes | str | dict) -> transfer.CampaignFile:
    if isinstance(raw, dict):
        raw = json.dumps(raw)
    return transfer.read(raw.encode() if isinstance(raw, str) else raw, expected_system=None)


def refusal(raw: bytes | str | dict) -> str:
    with pytest.raises(InvalidInput) as refused:
        read(raw)
    return str(refused.value)


# --- the shape check before JSON reads the file ---------------------------------------------------------
def test_a_string_never_closed_holds_every_bracket_after_it():
    """The brackets after a string's opening quote are inside the string, however many escaped quotes come
    between: the file is not JSON (a scan that counted them would call it nested too deep)."""
    assert "not valid JSON" in refusal('"' + '\\"' * 50 + "[" * (transfer.MAX_DEPTH + 10))


def test_the_largest_file_of_escaped_quotes_in_a_string_never_closed_is_refused():
    """A scan that looked for each quote's closing quote again from every quote took 32 s for 80 KB (quadratic).
    The check is a fixed number of passes over the text, each linear: this file of the largest size an
    import reads is refused as not JSON, from one look at it."""
    hostile = ('"' + '\\"' * (transfer.MAX_BYTES // 2))[: transfer.MAX_BYTES]
    assert transfer._outside_strings(hostile) == ""  # one string, never closed: no structure at all
    assert "not valid JSON" in refusal(hostile)


def test_brackets_quotes_and_backslashes_inside_strings_are_no_structure():
    notes = '\\"' + "[" * 30 + '\\\\"{' * 30 + "\\"
    assert read(campaign(npcs=[{"name": "Zombie", "sheet": {}, "notes": notes}])).npcs[0]["notes"] == notes
    # An escaped backslash ends the string where its quote stands: what follows is structure again.
    deep = '{"notes": "\\\\", "x": ' + "[" * (transfer.MAX_DEPTH + 1) + "]" * (transfer.MAX_DEPTH + 1) + "}"
    assert "nests lists or objects more than 20 deep" in refusal(deep)


def test_a_file_of_more_lists_and_objects_than_a_campaign_holds_is_refused_before_it_is_read():
    flat = '{"settings": [' + "{}," * transfer.MAX_CONTAINERS + "{}]}"
    assert f"more than {transfer.MAX_CONTAINERS} lists and objects" in refusal(flat)


# --- text that is not Unicode -------------------------------------------------------------------------
@pytest.mark.parametrize(
    "data",
    [
        campaign(characters=[nova(name="Nova\ud800")]),
        campaign(characters=[nova(owner_name="al\ud800ice")]),
        campaign(npcs=[{"name": "Zombie", "sheet": {}, "notes": "slow\udfff"}]),
        campaign(characters=[nova({"weaknesses": ["Weak\ud800"]})]),
        campaign(characters=[nova(sheet={"companion_of": "Bolt\ud800"})]),
        campaign(settings={"\ud800": 1}),
        campaign(system="\udfff"),
    ],
    ids=["name", "owner name", "notes", "lasting list", "sheet", "setting's name", "system"],
)
def test_half_of_a_surrogate_pair_is_refused_wherever_it_stands(data):
    """`\\ud800` is valid JSON but no character: nothing could show or store it (the preview, the database,
    every later export would fail), so the file is refused as soon as it is read, naming nothing of it."""
    raw = json.dumps(data, ensure_ascii=True)
    assert "\\ud800" in raw or "\\udfff" in raw
    assert (
        refusal(raw) == "The file holds text that is not valid Unicode (half of a surrogate pair): nothing was changed."
    )


def test_a_whole_surrogate_pair_is_a_character():
    raw = json.dumps(campaign(characters=[nova(name="Nova 🧟")]), ensure_ascii=True)
    assert "\\ud83e\\udddf" in raw and read(raw).characters[0]["name"] == "Nova 🧟"


# --- lasting lists --------------------------------------------------------------------------------------
WEAKENED = {"name": "Weakened", "tags": ["Strength", "Mild"]}


@pytest.mark.parametrize(
    ("system", "lasting", "said"),
    [
        (RC, {"conditions": ["Stunned"]}, "`conditions` holds `Stunned` as text: each of its entries is an object"),
        (TOWERS, {"conditions": ["cursed"]}, "`conditions` holds `cursed` as text: each of its entries is an object"),
        (WORDS, {"locations": [{"name": "arm"}]}, "`locations` holds `arm` as an object: each of its entries is text"),
        (FROZEN, {"injuries": [{"name": "broken arm"}]}, "`injuries` holds `broken arm` as an object"),
        (
            RC,
            {"conditions": [{"name": "Unconscious", "tags": []}]},
            "`conditions` holds `Unconscious`, which /campaign adjust refuses: Unconscious does not last",
        ),
        (
            RC,
            {"conditions": [{"name": "Exhaustion", "tags": []}]},
            "refuses: Exhaustion does not last between fights: set `exhaustion` instead.",
        ),
        (RC, {"conditions": [{"name": "Banana", "tags": []}]}, "`Banana` is not a Rotted Capes condition"),
        (RC, {"attribute_losses": ["Luck"]}, "`Luck` is not an attribute"),
        (WORDS, {"conditions": ["exploded"]}, "Unknown condition `exploded`"),
        (RC, {"conditions": [WEAKENED | {"level": "abc"}]}, "entry `Weakened` has an unknown field `level`"),
        (RC, {"conditions": [WEAKENED | {"tags": "Strength"}]}, "entry `Weakened`: `tags` is not a list of at most"),
        (TOWERS, {"conditions": [{"name": "cursed", "minor": "yes"}]}, "entry `cursed`: `minor` takes yes or no"),
        (RC, {"weaknesses": ["Limp\x07"]}, "`weaknesses` entry `Limp"),
        (RC, {"weaknesses": [","]}, "`weaknesses` holds `,`, which names nothing"),
        (RC, {"weaknesses": [7]}, "`weaknesses` holds an entry that is neither text nor an object with a name"),
        (RC, {"weaknesses": "Limp"}, "`weaknesses` is not a list"),
    ],
    ids=[
        "RC condition as text",
        "Towers condition as text",
        "FW location as an object",
        "FL injury as an object",
        "RC Unconscious",
        "RC Exhaustion",
        "RC unknown condition",
        "RC unknown attribute",
        "FW unknown condition",
        "RC unknown field",
        "RC tags as text",
        "Towers minor as text",
        "control character",
        "nothing named",
        "a number",
        "not a list",
    ],
)
def test_a_lasting_list_entry_the_system_could_not_read_is_refused_naming_it(system, lasting, said):
    """Each entry is read as /campaign adjust reads it typed, in the form the system stores it: an import
    took these, then /character show and /initiative join failed on them, or a fight never ended them."""
    refused = refusal(campaign(system, [nova(lasting)]))
    assert refused.startswith("Nova's lasting state: ") and said in refused, refused


def test_a_name_the_system_spells_its_own_way_is_stored_so():
    lasting = {"conditions": [{"name": "stunned", "tags": []}], "attribute_losses": ["constitution"]}
    read_in = read(campaign(RC, [nova(lasting)])).characters[0]["lasting"]
    assert read_in == {"conditions": [{"name": "Stunned", "tags": []}], "attribute_losses": ["Constitution"]}
    # An entry written without a field the system gives it is read with the field's own value.
    towers = read(campaign(TOWERS, [nova({"conditions": [{"name": "cursed"}]})])).characters[0]["lasting"]
    assert towers == {"conditions": [{"name": "cursed", "minor": False}]}


def test_what_play_writes_in_a_lasting_list_is_read_as_written():
    """Longer than /campaign adjust keeps, with commas it would split at, or names past its 40 characters."""
    located = "arm: the arm cannot carry objects, weapons or shields, nor attack unarmed, until healed"
    injury = ("Shattered left knee: " + "the leg buckles under any weight, " * 5)[:200]
    files = {
        WORDS: {"locations": [located], "conditions": ["unconscious", "confused"]},
        FROZEN: {"wounds": 1, "injuries": [injury]},
        TOWERS: {"conditions": [{"name": "Cursed by the Lich of the Ninety-Ninth Tower", "minor": True}]},
        RC: {"conditions": [WEAKENED], "weaknesses": ["Physical Condition (Wound Recovery)"]},
    }
    for system, lasting in files.items():
        assert read(campaign(system, [nova(lasting)])).characters[0]["lasting"] == lasting
