"""The catalog template is what `pybabel extract` finds in the code today: a template added or
changed without extracting again fails here (and in CI's own step), before a translator misses it."""

from __future__ import annotations

import ast
import functools
import io
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from bot import catalog
from rules import registry
from rules.systems.frozen_lands import weapons
from rules.text import Phrase, Text, walk


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


def test_a_translators_comment_right_above_a_template_goes_with_it():
    """A lone word a translator could read two ways is explained in a comment the template carries."""
    source = b"""
# how the chart is kept (not for translators)
# Translators: what a dying hero may choose: to die
DIE = say("Die")

RANGE = say("Close")  # Translators: a comment after the call is not above it
"""
    found = {
        messages[0]: comments
        for _, _, messages, comments in catalog.extract_python(io.BytesIO(source), {"say"}, ["Translators:"], {})
    }
    assert found == {"Die": ["Translators: what a dying hero may choose: to die"], "Close": []}
    assert f"--add-comments={catalog.COMMENT_TAG}" in catalog.extract_command("turnkeeper.pot")


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


@functools.cache
def extracted() -> frozenset:
    """Every template `pybabel extract` finds in the code today (a plural as its (singular, plural))."""
    with (catalog.ROOT / "bot" / "babel.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    keywords = {name: (1, 2) if name == "say_plural" else None for name in (k.split(":")[0] for k in catalog.KEYWORDS)}
    return frozenset(
        message for _, _, message, _, _ in extract_from_dir(str(catalog.ROOT), method_map, options_map, keywords)
    )


def not_in_the_catalog(shown: Text | str) -> list:
    """The templates of a text shown to users that no translation can reach: a bare str is looked up whole."""
    if isinstance(shown, str):
        return [] if shown in extracted() or not re.search("[A-Za-z]", shown) else [shown]
    return [node.asked for node in walk(shown) if isinstance(node, Phrase) and node.asked not in extracted()]


def _rules_errors(trees: list[ast.Module]) -> set[str]:
    """The names of `RulesError` and every class the code derives from it."""
    bases = {
        node.name: {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
    }
    found = {"RulesError"}
    while grown := {name for name, of in bases.items() if name not in found and of & found}:
        found |= grown
    return found


def test_every_refusal_written_in_the_code_is_in_the_catalog():
    """A refusal is shown in the readers' language: one made of English written in place (a `RulesError`, or the
    `ValueError` the bot refuses with) must be a template extraction finds, or it reads English in every language."""
    sources = {
        path: ast.parse(path.read_text(encoding="utf-8"))
        for folder in ("bot", "cogs", "rules")
        for path in sorted((catalog.ROOT / folder).rglob("*.py"))
        if "standin" not in path.parts
    }
    errors = _rules_errors(list(sources.values()))
    missing = []
    for path, tree in sources.items():
        constants = {
            target.id: node.value.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and node.args):
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            refused = name in errors or (name == "refuse" and len(node.args) > 1)
            first = node.args[0] if name in errors else node.args[-1]
            if name == "refuse" and isinstance(first, ast.Call) and first.args:
                first = first.args[0]  # refuse(interaction, ValueError(…))
            if not refused:
                continue
            for choice in (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,):
                written = choice.value if isinstance(choice, ast.Constant) else None
                written = constants.get(choice.id) if isinstance(choice, ast.Name) else written
                if isinstance(written, str) and written not in extracted():
                    missing.append(f"{path.relative_to(catalog.ROOT)}:{node.lineno}: {written}")
    assert missing == []


def test_no_count_is_made_plural_by_hand():
    """A count's noun takes its form from `say_plural`, which a language with other plural forms (one, few,
    many) translates: two templates alike but for a word with an "s" are a count made plural by hand."""
    alone = {message for message in extracted() if isinstance(message, str) and "{" in message}
    by_hand = []
    for message in sorted(alone):
        parts = re.split(r"(\{[^}]*\}|[^\w{]+)", message)
        for index, part in enumerate(parts):
            if part.isalpha() and "".join([*parts[:index], f"{part}s", *parts[index + 1 :]]) in alone:
                by_hand.append(message)
    assert by_hand == []


def test_every_act_and_sheet_key_offered_is_in_the_catalog():
    """`/act`'s choices and what a sheet key means (the autocomplete of /character add, the form) are shown
    in the readers' language."""
    missing = []
    for key in registry.MODULES:
        system = registry.get(key)
        for value, label in system.act_choices():
            missing += [(key, value, m) for m in not_in_the_catalog(label)]
        for name in system.sheet_type.model_fields:
            meaning, takes = system.key_help(name)
            missing += [(key, name, m) for m in not_in_the_catalog(meaning) + not_in_the_catalog(takes) if m]
    assert missing == []
