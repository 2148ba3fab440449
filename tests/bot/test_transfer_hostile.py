"""Campaign files no export writes (bot/transfer.py): a string never closed full of escaped quotes, half of a
surrogate pair, lasting lists the systems could not read, lasting values no system keeps. Each is refused,
saying what and where, before anything is stored; what play itself writes passes."""

from __future__ import annotations

import json
import sys

import pytest

import bot.campaigns
from bot import transfer
from bot.campaigns import Campaigns
from bot.keyed_locks import KeyedLocks
from bot.places import Places
from bot.repository import NewChange, Repository
from bot.roster import HIDDEN, Roster
from rules import registry
from rules.errors import InvalidInput, Stale
from rules.usertext import name_key
from tests.helpers import GM

RC, TOWERS, FROZEN, WORDS, FACTIONS = "rotted-capes", "99-towers", "frozen-lands", "fightin-words", "factions"
KEY = 10**18


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
def test_a_file_an_editor_saved_with_a_byte_order_mark_is_read():
    data = campaign(characters=[nova()])
    assert read(b"\xef\xbb\xbf" + json.dumps(data).encode()).system == RC
    assert "not valid JSON" in refusal(b"\xef\xbb\xbf\xef\xbb\xbf" + json.dumps(data).encode())


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


# --- lasting values no system keeps -------------------------------------------------------------------
@pytest.mark.parametrize("system", [RC, TOWERS, FROZEN, WORDS, FACTIONS])
def test_a_yes_or_no_lasting_value_the_system_does_not_keep_is_refused_naming_it(system):
    """Any key was taken as long as its value was yes or no, since the fight writes flags the GM does not
    set: a file could put any number of made-up keys into every character, and every later export kept them."""
    refused = refusal(campaign(system, [nova({"dead": False, "possessed": True})]))
    name = registry.get(system).name
    assert refused == f"Nova's lasting state: {name} keeps no lasting value called `possessed`.", refused


def test_a_long_made_up_key_is_named_cut_short():
    refused = refusal(campaign(RC, [nova({"x" * 10_000: True})]))
    assert refused == "Nova's lasting state: Rotted Capes keeps no lasting value called `" + "x" * 39 + "…`.", refused


def test_the_flags_play_writes_are_read_and_the_bots_own_only_for_a_kept_npc():
    """Rotted Capes writes `unconscious` (fallen from Stamina loss), which the GM does not set; the bot keeps
    `hidden` in a kept NPC's lasting state, not in a hero's."""
    assert read(campaign(RC, [nova({"unconscious": True})])).characters[0]["lasting"] == {"unconscious": True}
    kept = nova({"hidden": True}, npc=True)
    assert read(campaign(TOWERS, [kept])).characters[0]["lasting"] == {"hidden": True}
    assert "99 Towers keeps no lasting value called `hidden`" in refusal(campaign(TOWERS, [kept | {"npc": False}]))
    assert "`unconscious` takes yes or no" in refusal(campaign(RC, [nova({"unconscious": 1})]))


async def test_an_import_with_made_up_flags_is_refused_and_changes_nothing(repo: Repository) -> None:
    campaigns = Campaigns(repo, Places(repo), KeyedLocks())
    capes = registry.get(RC)
    await repo.save_campaign(KEY, system=RC)
    nova_id = (await repo.add_character(KEY, 7, "Nova", RC, capes.parse_sheet("stamina=20 wounds=3"))).id
    fallen = {"stamina": 0, "unconscious": True, "wounds": 2}
    await repo.save_lasting({nova_id: fallen}, NewChange(KEY, 1, "/encounter end", "fight", {}))
    _, exported = await campaigns.export(KEY, GM)
    hostile = json.loads(transfer.dumps(exported))
    hostile["characters"][0]["lasting"] |= {f"cursed_{n}": True for n in range(500)}
    with pytest.raises(InvalidInput, match="Rotted Capes keeps no lasting value called `cursed_0`"):
        await campaigns.incoming(KEY, GM, 10, download_of(hostile))
    assert (await repo.character_by_id(KEY, nova_id)).lasting == fallen
    assert (await campaigns.export(KEY, GM))[1] == exported
    # The bot's own file, its flag and all, imports.
    pending, _, _ = await campaigns.incoming(KEY, GM, 10, download_of(exported))
    assert pending.file.characters[0]["lasting"] == fallen


async def test_a_kept_npc_that_fought_hidden_exports_a_file_its_import_reads(repo: Repository) -> None:
    """The bot keeps `hidden` beside the system's values in a kept NPC's lasting state (bot.roster): no system
    declares it, and the import takes it for a kept NPC alone."""
    campaigns = Campaigns(repo, Places(repo), KeyedLocks())
    await repo.save_campaign(KEY, system=RC)
    shade = await repo.add_character(KEY, GM.user_id, "Shade", RC, registry.get(RC).parse_sheet(""), npc=True)
    await Roster(repo).remember_joining(KEY, shade, True)
    _, exported = await campaigns.export(KEY, GM)
    assert exported["characters"][0]["lasting"] == {HIDDEN: True}
    pending, _, _ = await campaigns.incoming(KEY, GM, 10, download_of(exported))
    assert pending.file.characters[0]["lasting"] == {HIDDEN: True}


def download_of(data: dict):
    async def download() -> bytes:
        return transfer.dumps(data)

    return download


# --- what the JSON reader takes that no export writes ---------------------------------------------------
def test_a_number_of_more_digits_than_python_reads_is_refused_saying_so():
    """JSON's numbers have any length, Python reads none of more than 4,300 digits: the file is JSON, and the
    refusal says what in it no campaign holds."""
    refused = refusal('{"format": "turnkeeper-campaign", "version": ' + "9" * 10_000 + "}")
    most = sys.get_int_max_str_digits()
    assert refused == f"The file holds a number of more than {most} digits: that is not a Turnkeeper campaign.", refused


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        (json.dumps(campaign())[:-1] + ', "characters": [' + json.dumps(nova()) + "]}", "characters"),
        (
            json.dumps(campaign(characters=[nova({"stamina": 20})])).replace(
                '"stamina": 20', '"stamina": 20, "stamina": 1'
            ),
            "stamina",
        ),
    ],
    ids=["a section", "a lasting value"],
)
def test_a_key_given_twice_in_one_object_is_refused_naming_it(raw, key):
    """JSON's reader keeps the last of a key given twice, where whoever reads or edits the file may see the
    first: a character was deleted, a value changed, that the file seems to keep."""
    assert refusal(raw) == f"The file gives `{key}` twice in one object: nothing was changed.", raw


# --- crashes -----------------------------------------------------------------------------------------------
def test_an_owner_id_of_more_digits_than_python_reads_is_refused_as_no_owner_id():
    """Digits past Python's limit on reading a number made an internal error ("Something went wrong")."""
    assert refusal(campaign(characters=[nova(owner_id="9" * 5000)])) == "Character Nova has no valid owner id."
    assert refusal(campaign(characters=[nova(owner_id="0" * 30 + "7")])) == "Character Nova has no valid owner id."
    assert read(campaign(characters=[nova(owner_id=str(transfer.MAX_SNOWFLAKE))])).characters[0]["owner_id"] == (
        transfer.MAX_SNOWFLAKE
    )


@pytest.mark.parametrize("system", [[RC], {RC: 1}], ids=["a list", "an object"])
def test_a_system_that_is_not_text_is_refused_as_unknown(system):
    """A list or an object made an internal error: no system can be looked up by it."""
    assert refusal(campaign(system=system)).startswith("The file is for an unknown rule system `")


# --- sheets ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("system", "sheet", "said"),
    [
        (RC, {"stamina": True}, "`stamina` takes a whole number."),
        (RC, {"stamina": 20.0}, "`stamina` takes a whole number."),
        (RC, {"wounds": "3"}, "`wounds` takes a whole number."),
        (RC, {"plot_points": False}, "`plot_points` takes a whole number."),
        (RC, {"zombie": "no"}, "`zombie` takes yes or no."),
        (FACTIONS, {"fearless": 1}, "`fearless` takes yes or no."),
        (TOWERS, {"stun": 12.5}, "Stat `stun`: Input should be a valid integer, got a number with a fractional part."),
    ],
    ids=[
        "true as a number",
        "a fraction's form",
        "a number as text",
        "false as a number",
        "no as text",
        "1 as yes",
        "a fraction",
    ],
)
def test_a_stat_of_another_type_is_refused_naming_it(system, sheet, said):
    """The sheet's reader takes `true` as the number 1, `20.0` as 20, "3" as 3 and "no" as no: a fight read them
    so, while the sheet was stored as written, /character show showed `stamina = yes` and every export kept it."""
    for data in (campaign(system, [nova(sheet=sheet)]), campaign(system, npcs=[{"name": "Nova", "sheet": sheet}])):
        refused = refusal(data)
        assert refused == f"Nova's sheet: {said}", refused


@pytest.mark.parametrize("text", ["Bolt\x00", "Bo\x1bb", "\x7f"], ids=["NUL", "escape", "delete"])
def test_a_control_character_in_a_stats_text_is_refused(text):
    """The form refuses them, as every typed text: a NUL cannot even be stored in PostgreSQL."""
    for data in (
        campaign(characters=[nova(sheet={"companion_of": text})]),
        campaign(npcs=[{"name": "Nova", "sheet": {"companion_of": text}}]),
    ):
        refused = refusal(data)
        code = f"U+{ord(next(c for c in text if not c.isprintable())):04X}"
        assert refused == f"Nova's sheet: Stat `companion_of`: a control character ({code}) cannot be stored.", refused


def test_a_sheet_is_stored_as_character_add_stores_it():
    """Every stat the file leaves out stands at its default, as /character add stores it; a line break, which
    `stats:` takes in quotes, is no fault."""
    capes = registry.get(RC)
    stats = 'dex=2 companion_of="Bolt\nand Max"'
    read_in = read(campaign(characters=[nova(sheet={"dex": 2, "companion_of": "Bolt\nand Max"})]))
    assert read_in.characters[0]["sheet"] == capes.parse_sheet(stats)
    assert read(campaign(npcs=[{"name": "Zombie", "sheet": {"dex": 2}}])).npcs[0]["sheet"] == capes.parse_sheet("dex=2")


# --- the same character twice --------------------------------------------------------------------------------
def test_a_kept_npc_given_twice_is_refused():
    """A kept NPC is every GM's, brought back by its name alone: of two of one name kept by two GMs, only one
    could ever fight again. A hero of a player may share a kept NPC's name, as in play."""
    shade = {"name": "Shade", "owner_id": "7", "sheet": {}, "npc": True}
    assert refusal(campaign(characters=[shade, shade | {"name": "SHADE", "owner_id": "8"}])) == (
        "The file lists the kept NPC SHADE twice."
    )
    assert len(read(campaign(characters=[shade, shade | {"owner_id": "8", "npc": False}])).characters) == 2


# --- the campaign state ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "key, shown",
    [("cursed", "cursed"), ("\x00", "\ufffd"), ("x" * 10_000, "x" * 29 + "…")],
    ids=["made up", "NUL", "long"],
)
def test_a_campaign_wide_value_no_system_keeps_is_refused(key, shown):
    """Any key was taken as long as its value was a whole number: a file could put any number of them into the
    campaign's state, which every command reads and every later export kept (and PostgreSQL stores no NUL)."""
    refused = refusal(campaign(state={"rules": {"pool": 1, key: 1}}))
    assert refused == f"The file's state has an unknown entry `{shown}`.", refused


def test_the_pool_and_the_deck_are_read_in_any_system():
    """A campaign set up anew for another system keeps what its former system kept: its export holds them."""
    for system in (RC, TOWERS, FACTIONS):
        rules = {"pool": 3, "deck": ["AS", "9D"]}
        assert read(campaign(system, state={"rules": rules})).state == {"rules": rules}


async def test_a_hostile_import_changes_nothing(repo: Repository) -> None:
    campaigns = Campaigns(repo, Places(repo), KeyedLocks())
    await repo.save_campaign(KEY, system=RC)
    await repo.add_character(KEY, 7, "Nova", RC, registry.get(RC).parse_sheet("stamina=20"))
    _, exported = await campaigns.export(KEY, GM)
    for hostile in (
        exported | {"system": [RC]},
        exported | {"characters": [nova(owner_id="9" * 5000)]},
        exported | {"characters": [nova(sheet={"stamina": True})]},
        exported | {"state": {"rules": {"cursed": 1}}},
    ):
        with pytest.raises(InvalidInput):
            await campaigns.incoming(KEY, GM, 10, download_of(hostile))
    assert (await campaigns.export(KEY, GM))[1] == exported


@pytest.mark.parametrize("where", ["characters", "npcs"])
def test_a_long_name_is_refused_before_names_are_compared(where):
    """Names are compared in a form kept for the names seen last (`name_key`'s cache, 8192 of them): a name of
    millions of characters was kept there, with its form, after its file was refused, and every such file
    sent again kept another."""
    calls = name_key.cache_info()
    refused = refusal(campaign(**{where: [nova(name="N" * 1_000_000)]}))
    assert refused.endswith("whose name is longer than 60 characters."), refused
    after = name_key.cache_info()
    assert (after.hits, after.misses) == (calls.hits, calls.misses)


async def test_previews_hold_files_of_so_many_bytes_at_most_the_oldest_let_go(repo: Repository, monkeypatch) -> None:
    """A preview holds its file, read, until its GM answers: fifty previews of the largest files, which never
    expire in a campaign whose choices wait for ever, held gigabytes. The oldest are let go (their buttons say
    the preview is no longer valid) once the files held pass MAX_PENDING_BYTES, as past MAX_PENDING_IMPORTS."""
    assert bot.campaigns.MAX_PENDING_BYTES >= transfer.MAX_BYTES  # the largest file always has its preview
    campaigns = Campaigns(repo, Places(repo), KeyedLocks())
    await repo.save_campaign(KEY, system=RC)
    _, exported = await campaigns.export(KEY, GM)
    size = len(transfer.dumps(exported))
    monkeypatch.setattr(bot.campaigns, "MAX_PENDING_BYTES", 2 * size)
    first, second, third = [(await campaigns.incoming(KEY, GM, size, download_of(exported)))[0] for _ in range(3)]
    with pytest.raises(Stale, match="no longer valid"):
        campaigns.cancel(first.token, GM)
    campaigns.cancel(second.token, GM)
    campaigns.cancel(third.token, GM)


def test_a_control_character_in_a_stat_its_reader_refuses_is_named_not_quoted():
    """The sheet's reader quotes the text it cannot read: the control character is refused before it is read."""
    refused = refusal(campaign(characters=[nova(sheet={"dr": "fire:10\x00"})]))
    assert refused == "Nova's sheet: Stat `dr`: a control character (U+0000) cannot be stored.", refused


def test_a_key_with_a_control_character_is_quoted_with_it_drawn_as_a_replacement():
    refused = refusal(campaign(settings={"reminder\x00\x1b[31m": 5}))
    assert "reminder\ufffd\ufffd[31m" in refused and "\x00" not in refused and "\x1b" not in refused, refused


# --- states the bot stores otherwise ------------------------------------------------------------------------
def lasting_read(system, lasting, **given):
    return read(campaign(system, [nova(lasting, **given)])).characters[0]["lasting"]


@pytest.mark.parametrize(
    ("system", "lasting"),
    [(RC, {"exhaustion": 6}), (TOWERS, {"lethal": -1000}), (FACTIONS, {"health": 0})],
    ids=["RC Exhaustion 6", "Towers LETHAL past death", "Factions health 0"],
)
def test_a_state_that_means_death_is_read_as_death(system, lasting):
    """Exhaustion 6, LETHAL at −2 × Endurance, health 0 are death wherever the bot stores them (System.fit_lasting):
    imported without `dead`, /character show said the character lived and joining took it into the fight."""
    assert lasting_read(system, lasting)["dead"] is True


@pytest.mark.parametrize("npc", [True, False], ids=["kept NPC", "companion"])
def test_plot_points_on_a_character_that_holds_none_are_left_out(npc):
    """Plot Points are a player's hero's own (RCCombatant.holds_points): a kept NPC's imported Plot Points showed
    on /character show ("Plot Points 3") while a fight gave it none. An earlier version stored them on a kept NPC
    on the heroes' side, and exported them: the file still imports, without them."""
    sheet = {} if npc else {"companion_of": "Bolt"}
    assert "plot_points" not in lasting_read(RC, {"plot_points": 3, "wounds": 1}, npc=npc, sheet=sheet)
    assert lasting_read(RC, {"plot_points": 3}) == {"plot_points": 3}
    capes = registry.get(RC)
    with pytest.raises(InvalidInput, match="holds no Plot Points of their own"):
        capes.adjust(capes.parse_sheet(""), {}, "plot_points", "2", True)


def test_mobility_penalties_an_earlier_version_listed_as_conditions_are_counted():
    """Stored and exported before they were counted, a mobility penalty was an entry of `conditions`: read into
    the count, where the file was refused as naming nothing."""
    words = registry.get(WORDS)
    listed = {"conditions": ["mobility penalty", "confused", "Mobility Penalty"], "mobility_penalties": 29}
    assert words.fit_lasting(words.parse_sheet(""), listed) == {"conditions": ["confused"], "mobility_penalties": 30}
    assert lasting_read(WORDS, {"conditions": ["mobility penalty", "confused", "mobility penalty"]}) == {
        "conditions": ["confused"],
        "mobility_penalties": 2,
    }


def test_a_lasting_condition_listed_twice_is_kept_once():
    """/campaign adjust keeps each of Them's Fightin' Words' lasting conditions once: a file listing one twice
    showed "Conditions: confused, confused"."""
    assert lasting_read(WORDS, {"conditions": ["confused", "Confused"]}) == {"conditions": ["confused"]}
