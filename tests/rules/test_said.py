"""Said phrases are values: they read as English, join into sequences, are translated whole, and
refuse to be flattened into a str by accident."""

from __future__ import annotations

import json

import pytest

from rules import text
from rules.model import Choice, Event, Pending
from rules.said import EMPTY, cut, english, joined, joined_lines, say, say_plural, seq, term
from rules.secrets import conceal, secret
from rules.text import Flattened, Phrase, Plural, Raw, Secret, Typed, dumps, from_data, loads, plain_text, to_data
from rules.usertext import listed_first, mark, user_text

FRENCH = {
    "{who} attacks {target}": "{target} est attaqué par {who}",
    "no reaction": "pas de réaction",
    "{who}: {why}": "{who} : {why}",
    " and ": " et ",
}


def render(line, translate):
    return plain_text(line, translate, reveal=True)


def asked_in(line) -> list:
    return [node.asked for node in text.walk(line) if isinstance(node, Phrase)]


def test_a_phrase_is_its_template_and_its_values_and_reads_as_its_english():
    line = say("{who} attacks {target} for {n:+d}", who="Ogre", target=user_text("Max"), n=3)
    assert line == Phrase(
        "{who} attacks {target} for {n:+d}", (("who", Raw("Ogre")), ("target", Typed("Max")), ("n", Raw("+3")))
    )
    assert english(line) == str(line) == "Ogre attacks Max for +3"


def test_flattening_a_phrase_by_accident_fails_loudly():
    line = say("no reaction")
    with pytest.raises(Flattened):
        f"{line}"  # noqa: B018
    with pytest.raises(Flattened):
        line + "."  # noqa: B018
    with pytest.raises(Flattened):
        "🎲 " + line  # noqa: B018
    with pytest.raises(Flattened):
        line == "no reaction"  # noqa: B015
    with pytest.raises(TypeError):
        "; ".join([line, line])


def test_phrases_join_into_a_sequence_that_each_reader_renders():
    line = seq("🎲 ", say("{who} attacks {target}", who="Ogre", target="Max"), "; ", say("no reaction"), ".")
    assert english(line) == "🎲 Ogre attacks Max; no reaction."
    assert render(line, FRENCH.get) == "🎲 Max est attaqué par Ogre; pas de réaction."
    assert say("no reaction") + say("no reaction") == seq(say("no reaction"), say("no reaction"))


def test_a_translation_reorders_values_and_translates_phrases_inside_them():
    line = say("{who}: {why}", who="Max", why=say("no reaction"))
    assert render(line, FRENCH.get) == "Max : pas de réaction"
    assert asked_in(line) == ["{who}: {why}", "no reaction"]


def test_a_template_without_a_translation_stays_english():
    line = say("{who} stands up.", who="Max")
    assert render(line, FRENCH.get) == "Max stands up."
    assert render(line, None) == "Max stands up."


def test_typed_text_and_secrets_pass_through_a_translation_untouched():
    name = user_text("**Bold**")
    line = say("{who} attacks {target}", who=name, target=secret(7, True))
    assert plain_text(line, FRENCH.get) == "? est attaqué par **Bold**"
    assert plain_text(line, FRENCH.get, reveal=True) == "7 est attaqué par **Bold**"
    assert term(name) == Typed("**Bold**")  # typed text is never a template
    assert conceal(line) == "**Bold** attacks ?" and text.has_secrets(line)


def test_cut_keeps_the_phrase_when_it_fits_and_cuts_it_in_the_readers_language():
    line = say("{who} attacks {target}", who="Ogre", target="Max")
    assert english(cut(line, 100)) == english(line)
    assert english(cut(line, 4)) == "Ogre"
    assert render(cut(line, 3), FRENCH.get) == "Max"


def test_vocabulary_and_separators_are_said():
    assert render(joined(" and ", ["Max", "Nova"]), FRENCH.get) == "Max et Nova"
    assert render(term("no reaction"), FRENCH.get) == "pas de réaction"
    assert english(term("{odd}")) == "{odd}"
    assert english(joined(", ", [mark("A"), "B"])) == "A, B"


def test_lines_put_in_one_are_parted_by_a_semicolon_or_by_the_sentence_they_end():
    dead = say("{who} is dead: rest changes nothing.", who=mark("Bal"))
    healed = say("{who}: health back ({n})", who=mark("Cid"), n=8)
    wins = seq(say("{who} wins", who=mark("Ann")), "!")
    line = joined_lines([dead, healed, wins, secret(say("{who} holds.", who=mark("Ogre")), True), healed])
    # A hidden line is always followed by "; ": how it ends would tell the players something of it.
    assert english(line) == (
        "Bal is dead: rest changes nothing. Cid: health back (8); Ann wins! Ogre holds.; Cid: health back (8)"
    )
    # The stop is the template's, so the line reads so in any language; a template ending in a value
    # ends as its value does.
    translated = {"{who} is dead: rest changes nothing.": "{who} est mort : le repos n'y change rien."}
    assert render(joined_lines([dead, healed]), translated.get) == (
        "Bal est mort : le repos n'y change rien. Cid: health back (8)"
    )
    assert english(joined_lines([say("{a}", a=say("Dead.")), "", "Health 0/12", EMPTY])) == "Dead. Health 0/12"
    assert english(joined_lines([])) == "" and english(joined_lines(["Health 3/8"])) == "Health 3/8"


def test_typed_text_that_ends_a_sentence_takes_the_place_of_the_templates_full_stop():
    # "Fighter: Speak (free): Surrender!." read badly: the typed words end the sentence, as typed.
    spoken = "{who}: {action} (free): {text}."
    assert english(say(spoken, who=mark("Tony"), action="Speak", text=user_text("Surrender!"))) == (
        "Tony: Speak (free): Surrender!"
    )
    assert english(say(spoken, who=mark("Tony"), action="Speak", text=user_text("Who goes there?"))) == (
        "Tony: Speak (free): Who goes there?"
    )
    assert english(say("{who} is dead.", who=mark("Bob Jr."))) == "Bob Jr. is dead."
    assert english(say("{who} hits {target}.", who=mark("Ann"), target=mark("Bob Jr."))) == "Ann hits Bob Jr."
    # Words after the stop stay; the user's words are never touched; an ellipsis is not a full stop.
    chip = say("{who}: {text}. How much it heals is the GM's call.", who=mark("Ann"), text=user_text("Heal me!"))
    assert english(chip) == "Ann: Heal me! How much it heals is the GM's call."
    assert english(say("{text}.", text=user_text("Drop it"))) == "Drop it."
    assert english(say("{text}...", text=user_text("Wait!"))) == "Wait!..."
    assert english(say("{n}.", n=Raw("3!"))) == "3!."
    translated = {"{who} is dead.": "{who} est mort."}
    assert render(say("{who} is dead.", who=mark("Bob Jr.")), translated.get) == "Bob Jr. est mort."


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
    assert asked_in(lines[1]) == [Plural("{who} takes {n} wound", "{who} takes {n} wounds", 3)]
    assert render(lines[1], FRENCH.get) == "Max takes 3 wounds"  # a language without it reads English


def test_a_hidden_count_still_picks_its_form():
    line = say_plural("{n} card", "{n} cards", 1, n=secret(1, True))
    assert conceal(line) == "? card"
    french = {("{n} card", "{n} cards"): ("{n} carte", "{n} cartes")}
    translate = lambda asked: french[(asked.singular, asked.plural)][asked.n != 1]  # noqa: E731
    assert plain_text(line, translate) == "? carte"


def test_a_count_kept_secret_reads_in_the_plural_and_in_a_languages_other_form():
    line = say_plural("{n} Wound healed", "{n} Wounds healed", None, n=secret(1, True))
    assert conceal(line) == "? Wounds healed"  # "Wound" would tell it was one
    assert asked_in(line) == [Plural("{n} Wound healed", "{n} Wounds healed", None)]  # the count stays unknown


def test_a_list_cut_short_counts_the_rest_in_one_phrase_with_a_languages_form():
    lines = [listed_first(["Ann", "Bo", *extra], 2) for extra in (["Cy"], ["Cy", "Di"])]
    assert [english(line) for line in lines] == ["Ann, Bo and 1 more", "Ann, Bo and 2 more"]
    german = {("{names} and {n} more", "{names} and {n} more"): ("{names} und {n} weiterer", "{names} und {n} weitere")}

    def translate(asked):
        return german[(asked.singular, asked.plural)][asked.n != 1] if isinstance(asked, Plural) else None

    assert [render(line, translate) for line in lines] == ["Ann, Bo und 1 weiterer", "Ann, Bo und 2 weitere"]
    assert english(listed_first(["Ann", "Bo"], 2)) == "Ann, Bo"


def test_a_text_is_stored_as_json_and_read_back_as_the_same_value():
    line = seq(
        "🎲 ",
        say_plural("{who} takes {n} wound", "{who} takes {n} wounds", 2, who=user_text("Max"), n=secret(2, True)),
        cut(say("no reaction"), 5),
    )
    assert from_data(json.loads(json.dumps(to_data(line)))) == line
    assert loads(dumps(line)) == line
    assert loads("End turn (button)") == "End turn (button)"  # a constant stays a str, its own message id
    event = Event(kind="info", text=line)
    assert Event.model_validate_json(event.model_dump_json()) == event
    pending = Pending(id=1, kind="k", prompt=line, options=(Choice(key="a", label=say("no reaction")),), default="a")
    assert Pending.model_validate(pending.model_dump(mode="json")) == pending


def test_a_line_stored_with_the_former_marks_reads_as_values():
    # Before texts were values: a phrase was OPEN template LENGTHS (a length per value) START English CLOSE.
    name = "\ue002**Max**\ue003"
    phrase = "\ue010{who} hits for {n}\ue011" + chr(0xF0000 + len(name)) + chr(0xF0000 + 3) + "\ue012"
    stored = (
        phrase + name + " hits for " + "\ue0005\ue001" + "\ue013 then \ue010no reaction\ue011\ue012no reaction\ue013"
    )
    read = loads(stored)
    assert read == seq(
        say("{who} hits for {n}", who=user_text("**Max**"), n=secret(5, True)), " then ", say("no reaction")
    )
    broken = loads("\ue010{who} hits\ue011\U000f0009\ue012Max")
    assert english(broken) == "{who} hitsMax"  # a phrase cut through reads as its English
    assert isinstance(loads("\ue000 7\ue001 left"), text.Seq) and conceal(loads("\ue000 7\ue001 left")) == "? left"
    assert Secret(Raw("1"), True) != Secret(Raw("1"), False)


def test_a_question_stored_with_the_former_marks_is_read_as_values():
    prompt = "\ue010{who}: block or dodge?\ue011\U000f0003\ue012Max: block or dodge?\ue013"
    stored = {
        "id": 3,
        "kind": "defend",
        "prompt": prompt,
        "options": [{"key": "block", "label": "\ue010Block\ue011\ue012Block\ue013"}],
        "default": "block",
    }
    pending = Pending.model_validate(stored)
    assert pending.prompt == say("{who}: block or dodge?", who="Max")
    assert pending.options[0].label == say("Block")
    assert "\ue010" not in json.dumps(pending.model_dump(mode="json"))


def test_a_number_below_zero_is_written_with_the_minus_sign_however_it_is_put_in():
    assert english(say("LETHAL {now}/{most}", now=-1, most=5)) == "LETHAL −1/5"
    assert english(say("d6 {die} {bonus:+d}", die=3, bonus=-2)) == "d6 3 −2"
    assert english(say("{n:+d}", n=2)) == "+2"
    assert english(seq("Stamina ", -4)) == "Stamina −4"
    assert english(secret(-3, False)) == "−3"
    # Text that is not a number keeps its hyphens: typed, a dice expression, a range written out.
    assert english(say("{text} {expr}", text=user_text("-3 arrows"), expr="1d6-1")) == "-3 arrows 1d6-1"
