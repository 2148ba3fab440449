"""The catalog template is what `pybabel extract` finds in the code today: a template added or
changed without extracting again fails here (and in CI's own step), before a translator misses it."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot import catalog
from rules import registry
from rules.systems.frozen_lands import weapons


def test_the_committed_template_is_what_extraction_gives():
    assert catalog.stale() == [], "run `python -m bot.catalog extract`"


def test_a_stale_template_is_found(monkeypatch, tmp_path: Path):
    old = tmp_path / "turnkeeper.pot"
    old.write_text(catalog.TEMPLATE.read_text(encoding="utf-8").replace('msgid "Done."', 'msgid "Finished."'))
    monkeypatch.setattr(catalog, "TEMPLATE", old)
    difference = "\n".join(catalog.stale())
    assert '-msgid "Finished."' in difference and '+msgid "Done."' in difference
    assert catalog.main(["check"]) == 1


def test_the_template_holds_plural_forms_and_command_texts():
    with catalog.TEMPLATE.open("rb") as file:
        ids = {message.id for message in read_po(file)}
    assert "The turn order in this channel" in ids  # a command description (cogs/initiative.py)
    assert ("{who} joins the encounter.", "{who} join the encounter.") in ids


def test_each_systems_help_is_in_the_template():
    """`/help`'s section for a system is looked up whole in the readers' language, so it is a template too."""
    with catalog.TEMPLATE.open("rb") as file:
        ids = {message.id for message in read_po(file)}
    missing = [key for key in registry.MODULES if registry.get(key).help_text() not in ids]
    assert missing == []


def test_every_word_of_the_frozen_lands_weapon_tables_is_in_the_template():
    """The weapon tables are text the code reads, so their words are written out for extraction too."""
    with catalog.TEMPLATE.open("rb") as file:
        ids = {message.id for message in read_po(file)}
    tables = [*weapons.MELEE.values(), *weapons.RANGED.values()]
    words = {w.name for w in tables} | {feature for w in tables for feature in w.features}
    assert sorted(words - ids) == []


def test_extraction_finds_templates_inside_f_strings_both_branches_and_plurals():
    source = b"""
line = f"{who}: {say('{n} LETHAL', n=3)}"
template = N_("{who} is now {c}.") if on else N_("{who} is no longer {c}.")
count = say_plural("{n} card", "{n} cards", n, n=n)
skipped = say(template, who=who)
"""
    names = {keyword.split(":")[0] for keyword in catalog.KEYWORDS}
    found = {
        messages[:2] if name == "say_plural" else messages[0]
        for _, name, messages, _ in catalog.extract_python(io.BytesIO(source), names, [], {})
    }
    assert found == {"{n} LETHAL", "{who} is now {c}.", "{who} is no longer {c}.", ("{n} card", "{n} cards"), None}


def test_no_template_is_both_a_phrase_and_the_singular_of_a_plural():
    """gettext keys a plural message by its singular: a phrase said alone with the same English
    would be merged into it and lose its own translation."""
    with (catalog.ROOT / "bot" / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    keywords = {name: (1, 2) if name == "say_plural" else None for name in (k.split(":")[0] for k in catalog.KEYWORDS)}
    found = list(extract_from_dir(str(catalog.ROOT), method_map, options_map, keywords))
    singulars = {message[0] for _, _, message, _, _ in found if isinstance(message, tuple)}
    alone = {message for _, _, message, _, _ in found if isinstance(message, str)}
    assert sorted(singulars & alone) == []
