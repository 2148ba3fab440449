"""Said phrases read as English, survive joining and formatting, and are translated whole."""

from __future__ import annotations

from rules.said import Plural, cut, english, joined, render, say, say_plural, templates, term
from rules.secrets import conceal, secret
from rules.usertext import user_text

FRENCH = {
    "{who} attacks {target}": "{target} est attaqué par {who}",
    "no reaction": "pas de réaction",
    "{who}: {why}": "{who} : {why}",
    " and ": " et ",
}


def test_a_phrase_reads_as_its_english():
    line = say("{who} attacks {target} for {n:+d}", who="Ogre", target="Max", n=3)
    assert english(line) == "Ogre attacks Max for +3"
    assert line != english(line)  # it carries its template


def test_phrases_join_and_format_like_text():
    line = f"🎲 {say('{who} attacks {target}', who='Ogre', target='Max')}; {say('no reaction')}."
    assert english(line) == "🎲 Ogre attacks Max; no reaction."
    assert render(line, FRENCH.get) == "🎲 Max est attaqué par Ogre; pas de réaction."


def test_a_translation_reorders_values_and_translates_phrases_inside_them():
    line = say("{who}: {why}", who="Max", why=say("no reaction"))
    assert render(line, FRENCH.get) == "Max : pas de réaction"
    assert templates(line) == ["no reaction", "{who}: {why}"]


def test_a_template_without_a_translation_stays_english():
    line = say("{who} stands up.", who="Max")
    assert render(line, FRENCH.get) == "Max stands up."
    assert render(line, None) == "Max stands up."


def test_typed_text_and_secrets_pass_through_untouched():
    name = user_text("**Bold**")
    line = say("{who} attacks {target}", who=name, target=secret(7, True))
    rendered = render(line, FRENCH.get)
    assert conceal(rendered) == f"? est attaqué par {name:}"
    assert term(name) is name  # typed text is never a template


def test_a_phrase_cut_through_still_reads_in_english():
    line = say("{who} attacks {target}", who="Ogre", target="Max") + say("no reaction")
    assert render(line[:-3], FRENCH.get) == english(line[:-3])
    assert english(line[:-3]).startswith("Ogre attacks Max")


def test_cut_keeps_the_phrase_when_its_english_fits():
    line = say("{who} attacks {target}", who="Ogre", target="Max")
    assert cut(line, 100) == line
    assert cut(line, 4) == "Ogre"


def test_vocabulary_and_separators_are_said():
    assert render(joined(" and ", ["Max", "Nova"]), FRENCH.get) == "Max et Nova"
    assert render(term("no reaction"), FRENCH.get) == "pas de réaction"
    assert english(term("{odd}")) == "{odd}"


def polish(asked):
    """A language with three forms of a count (one, few, many) and its own word order."""
    if not isinstance(asked, Plural):
        return None
    n = asked.n
    form = 0 if n == 1 else 1 if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else 2
    return ("{who}: {n} rana", "{who}: {n} rany", "{who}: {n} ran")[form]


def test_a_count_picks_the_english_form_by_one_and_a_languages_form_by_its_own_rule():
    lines = [say_plural("{who} takes {n} wound", "{who} takes {n} wounds", n, who="Max", n=n) for n in (1, 3, 5, 22)]
    assert [english(line) for line in lines] == [
        "Max takes 1 wound",
        "Max takes 3 wounds",
        "Max takes 5 wounds",
        "Max takes 22 wounds",
    ]
    assert [render(line, polish) for line in lines] == ["Max: 1 rana", "Max: 3 rany", "Max: 5 ran", "Max: 22 rany"]
    assert templates(lines[1]) == [Plural("{who} takes {n} wound", "{who} takes {n} wounds", 3)]
    assert render(lines[1], FRENCH.get) == "Max takes 3 wounds"  # a language without it reads English


def test_a_hidden_count_still_picks_its_form():
    line = say_plural("{n} card", "{n} cards", 1, n=secret(1, True))
    assert conceal(english(line)) == "? card"
    french = {("{n} card", "{n} cards"): ("{n} carte", "{n} cartes")}
    assert conceal(render(line, lambda asked: french[asked[:2]][asked.n != 1])) == "? carte"


def test_a_count_kept_secret_reads_in_the_plural_and_in_a_languages_other_form():
    line = say_plural("{n} Wound healed", "{n} Wounds healed", None, n=secret(1, True))
    assert conceal(english(line)) == "? Wounds healed"  # "Wound" would tell it was one
    assert templates(line) == [Plural("{n} Wound healed", "{n} Wounds healed", None)]  # the count stays unknown
