"""The d20 roll with advantage and disadvantage, and dice carried across a
pending choice."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...dice import MAX_FACES, evaluate
from ...errors import DiceError
from ...numbers import added
from ...said import joined, say, seq, term
from ...secrets import secret
from ...text import EMPTY, Raw, Text, as_text

# a die group in a roll's text: "2d6kh1 (5, ~~2~~)"
_DICE_GROUP = re.compile(r"\d*d(?:\d+|%)[^\s(]*\s\([^()]*\)")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


@dataclass(frozen=True, slots=True)
class D20:
    natural: int
    rolled: tuple[int, ...]
    mode: str  # "", "adv", "dis"

    def text(self) -> Text:
        if len(self.rolled) == 1:
            return Raw(f"d20 {self.natural}")
        rolled = ", ".join(map(str, self.rolled))
        if self.mode == "adv":
            return say("d20 adv ({rolled}) {natural}", rolled=rolled, natural=self.natural)
        return say("d20 dis ({rolled}) {natural}", rolled=rolled, natural=self.natural)


def mode_for(adv: list[str], dis: list[str], rule: str = "cancel") -> str:
    """Any advantage plus any disadvantage is a straight roll (campaign rule
    `advantage=count` nets the reasons instead)."""
    if rule == "count":
        net = len(adv) - len(dis)
        return "adv" if net > 0 else "dis" if net < 0 else ""
    if adv and dis:
        return ""
    return "adv" if adv else "dis" if dis else ""


def roll_d20(chance, mode: str) -> D20:
    if not mode:
        value = chance.die(20)
        return D20(value, (value,), "")
    a, b = chance.die(20), chance.die(20)
    return D20(max(a, b) if mode == "adv" else min(a, b), (a, b), mode)


def reasons(adv: list[str], dis: list[str], mode: str | None = None) -> Text:
    """Why a d20 was rolled twice; `mode` (what was rolled) says when both sides cancelled out."""
    # the reasons are kept as English keys (a pending choice stores them) and said when shown
    parts: list[Text] = [say("adv: {reasons}", reasons=joined(", ", map(term, adv)))] if adv else []
    parts += [say("dis: {reasons}", reasons=joined(", ", map(term, dis)))] if dis else []
    if adv and dis and mode == "":
        parts.append(say("they cancel: one d20"))
    return seq(" [", joined("; ", parts), "]") if parts else EMPTY


def drain(chance) -> list[int]:
    """Take the dice a user entered so they can wait for a pending choice."""
    return [chance.die(MAX_FACES) for _ in range(chance.entered_dice_left())]


class Queued:
    """A chance that first uses dice saved from an earlier action."""

    def __init__(self, saved, chance) -> None:
        self.saved = list(saved)
        self.chance = chance
        self.rng = chance.rng
        self._entered = bool(self.saved)
        self._added: list[int] = []

    def die(self, sides: int) -> int:
        if self.saved:
            value = self.saved.pop(0)
            if not 1 <= value <= sides:
                raise DiceError(say("{value} cannot be rolled on a d{sides}.", value=value, sides=sides))
            return value
        left = self.chance.entered_dice_left()
        value = self.chance.die(sides)
        if self._entered and self.chance.entered_dice_left() == left:
            self._added.append(value)
        return value

    def roll(self, expr: str):
        return evaluate(expr, self.die)

    def entered_dice_left(self) -> int:
        return len(self.saved) + self.chance.entered_dice_left()

    def unused(self) -> list[int]:
        """Saved dice the answer did not need. The attacker entered them before the
        defender chose, not knowing which answer would come: they are set aside in
        plain view rather than refused, which would leave the choice with no answer."""
        left, self.saved = self.saved, []
        return left

    def topped_up(self) -> list[int]:
        """Dice the bot rolled because the answer needed more than were saved and its own answer entered none
        (the disadvantage a Plot Point adds wants a second d20). Like leftovers, they are not refused, which
        would leave the choice with no answer, but said in plain view: the entered dice did not roll them."""
        return list(self._added)


def masked_bonus(value: int, who, penalty: int = 0) -> Text:
    """A hidden combatant's own modifier (and wound penalty) after a d20: `+ ?` to players."""
    inner: Text = as_text(value)
    if penalty:
        inner = seq(inner, say(" − {penalty} wounds/exhaustion", penalty=penalty))
    return seq("+ ", secret(inner, who))


def signed(value: int) -> Text:
    """A visible modifier after a d20: `+ 2`, `− 1`."""
    return Raw(added(value))


def secret_faces(text: str, who) -> Text:
    """`secret_constants` with the dice faces secret too: `1d8 (?) + ?` to players, for a total
    that shows anyway (see rules/secrets.py)."""
    return secret_constants(text, who, faces=True)


def secret_constants(text: str, who, faces: bool = False) -> Text:
    """A roll's text with the numbers outside its dice marked secret when `who` is hidden:
    `1d8 (5) + 4` shows the die face, not the bonus."""
    if getattr(who, "hidden", who) is not True:
        return Raw(text)
    out: list[Text | str] = []
    last = 0
    for match in _DICE_GROUP.finditer(text):
        out += _numbers_secret(text[last : match.start()], who)
        group = match.group()
        if faces:
            dice, rolled = group[:-1].split("(", 1)
            out += [dice, "(", secret(rolled, who), ")"]
        else:
            out.append(group)
        last = match.end()
    out += _numbers_secret(text[last:], who)
    return seq(*out)


def _numbers_secret(text: str, who) -> list[Text | str]:
    """The numbers in `text` as secrets, the characters between them as they are."""
    out: list[Text | str] = []
    last = 0
    for match in _NUMBER.finditer(text):
        out += [text[last : match.start()], secret(match.group(), who)]
        last = match.end()
    out.append(text[last:])
    return out
