"""The second renderer of text values: HTML, escaped, typed text isolated, secrets concealed."""

from __future__ import annotations

from bot.html_text import html_text
from rules.said import say, seq
from rules.secrets import secret
from rules.usertext import user_text

HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "\u202eevil", "**Bold**"]


def test_typed_text_is_escaped_and_kept_apart():
    for name in HOSTILE:
        shown = html_text(say("{who} attacks", who=user_text(name)))
        assert "<script" not in shown and "<img" not in shown
        assert shown.startswith("<bdi>") and shown.endswith("</bdi> attacks")
    assert html_text(say("{who} attacks", who=user_text("**Bold**"))) == "<bdi>**Bold**</bdi> attacks"


def test_the_rules_bold_is_strong_and_a_hidden_number_is_concealed():
    line = seq(
        say("**Round {n}**", n=2), " ", say("{who} has {hp} Stamina", who=user_text("Shade"), hp=secret(87, True))
    )
    assert html_text(line) == "<strong>Round 2</strong> <bdi>Shade</bdi> has ? Stamina"
    assert "87" in html_text(line, gm=True)


def test_the_rules_commands_are_code_and_dropped_dice_struck_but_typed_markup_stays_as_typed():
    line = say("Use `/attack options:free`: {roll}", roll="4d6kh3 (5, 4, 3, ~~1~~)")
    assert html_text(line) == "Use <code>/attack options:free</code>: 4d6kh3 (5, 4, 3, <s>1</s>)"
    typed = say("{who} waits", who=user_text("`code` ~~gone~~"))
    assert html_text(typed) == "<bdi>`code` ~~gone~~</bdi> waits"
