"""What a player can work out from the public lines of a fight with a hidden NPC.

`conceal` turns each secret number into "?", but a line such as
"1d6 (3) + ? = ? − DR 5 = 18 Stamina" still gives the hidden bonus away: 18 + 5 = 23,
and 23 − 3 = 20. This module reads public lines the way a player with a calculator would:

- a chain `a + b − c = d × 2 = e` is a sequence of equations (the running value after each
  operator, asserted equal to what follows each "="); labels between numbers ("DR", "horde",
  "Stamina", "(kinetic)") are ignored; dice read as the sum of their faces (`2d6 (3, 4)` is 7), or as the kept
  face when one follows (`d20 adv (10, 4) 10`), or as the pool size right after "=" (`= 4d6 (…)`);
- a hidden count next to what it counts is no secret: `?d? (1, 1)` rolls two dice, and
  "PD ?: 2♣ 2♣ 2♣ → keep 2" flips three cards, and "halved ×? 6 → 3" halves once;
- "?" is an unknown, a new one each time; a "?" right after a number with no operator between
  them (`d6 4 ?`) is a hidden signed bonus;
- comparisons (`>`, `<`, `≥`, `≤`, `vs`) and arrows (`→`) give bounds only and end a chain, except
  a margin: "… by N" after `a vs b` is `a − b = ±N`;
- `known` are numbers the player knows from elsewhere: above all, what a visible combatant lost or
  gained (its tracker shows it). Each may be the value of any hidden total (a "?" right after "=").

Every equation left with exactly one unknown is solved, again and again, so derived values feed
further equations. The result over-approximates what a player knows (a known number is tried as
each hidden total), so tests compare it with numbers no die or visible sheet produces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import count, pairwise

from rules.secrets import HIDDEN

_DICE = re.compile(
    r"(?P<count>\d*|\?)d(?P<sides>\d+|\?)(?:\s+(?:adv|dis))?\s*"
    r"\((?P<faces>[^()]*)\)(?P<kept>\s+(?:\d+|\?))?"
)
_HALVED = re.compile(r"halved ×\?[^→]*?(\d+) → (\d+)")
_CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
_COUNTED_CARDS = re.compile(r"\?[)⟩]*:\s*((?:(?:10|[2-9AJQK])[♠♥♦♣]\s*)+)")
_LABEL = re.compile(r"[(\[][^()\[\]\d?]*[)\]]")  # "(kinetic)", "[dis: frightened]": words only, part of no sum
_TOKEN = re.compile(
    r"(?P<dice>D[\d?]*\|\d+)|(?P<num>\d+)|(?P<unknown>\?)|(?P<op>[+=×−]|-(?=\s)|(?<=\s)-(?=\d))"
    r"|(?P<cmp>[<>≥≤→]|\bvs\b)|(?P<by>\bby\b)|(?P<stop>[;:,()\[\]/]|\.(?:\s|$))|(?P<word>[^\s\d?]+)"
)


@dataclass
class Term:
    """A number (value) or an unknown (var)."""

    value: Fraction | None = None
    var: int | None = None


@dataclass
class System:
    """Linear equations over unknowns: each a {var or None: coefficient} summing to 0."""

    equations: list[dict] = field(default_factory=list)
    totals: dict[int, int] = field(default_factory=dict)  # unknowns right after "=": the line they are in
    margins: list[tuple[dict, dict]] = field(default_factory=list)  # "by N": a − b = N or b − a = N
    counted: set[int] = field(default_factory=set)  # hidden counts shown by what they count

    def solve(self, fixed: dict[int, Fraction], extra=()) -> dict[int, Fraction]:
        values = dict(fixed)
        progress = True
        while progress:
            progress = False
            for eq in [*self.equations, *extra]:
                open_ = [v for v in eq if v is not None and v not in values]
                if len(open_) != 1 or not eq[open_[0]]:
                    continue
                var = open_[0]
                rest = eq.get(None, 0) + sum(c * values[v] for v, c in eq.items() if v is not None and v != var)
                values[var] = -rest / eq[var]
                progress = True
        return values


class _Reader:
    """Turns the clauses of one line into equations."""

    def __init__(self, system: System, ids: count):
        self.system = system
        self.ids = ids
        self.at = 0  # the line being read

    def unknown(self) -> Term:
        return Term(var=next(self.ids))

    def equal(self, left: dict, right: Term) -> None:
        eq = dict(left)
        key = right.var
        eq[key] = eq.get(key, 0) - (1 if key is not None else right.value)
        self.system.equations.append(eq)

    def line(self, text: str) -> None:
        for halved in _HALVED.finditer(text):  # "halved ×? … 6 → 3": once
            before, after = int(halved.group(1)), int(halved.group(2))
            self.system.counted |= {n for n in range(1, 8) if -(-before // 2**n) == after}
        for cards in _COUNTED_CARDS.finditer(text):  # "PD ?: 2♣ 2♣ 2♣ → keep 2": one card per point
            self.system.counted.add(len(_CARD.findall(cards.group(1))))
        text = _LABEL.sub(" ", _DICE.sub(self._dice, text))
        tokens = [(m.lastgroup, m.group()) for m in _TOKEN.finditer(text)]
        chains = self._chains(tokens)
        for left, right, margin in chains:
            if left is not None and right is not None and margin is not None:
                both = []
                for sign in (1, -1):  # "by N": either side may be the larger
                    eq = {k: v * sign for k, v in left.items()}
                    for k, v in right.items():
                        eq[k] = eq.get(k, 0) - v * sign
                    key = margin.var
                    eq[key] = eq.get(key, 0) - (1 if key is not None else margin.value)
                    both.append(eq)
                self.system.margins.append(tuple(both))

    def _dice(self, match: re.Match) -> str:
        faces = match.group("faces")
        if match.group("count") == HIDDEN and HIDDEN not in faces:  # "?d? (1, 1)": two dice
            self.system.counted.add(len(re.findall(r"\d+", faces)))
        kept = match.group("kept")
        if kept:
            return f" {kept.strip()} "
        if HIDDEN in faces or not faces.strip():
            return f" {HIDDEN} "
        numbers = re.findall(r"\d+", faces)
        return f" D{match.group('count')}|{sum(map(int, numbers))} "

    def _chains(self, tokens):
        """Record the equations of each chain; return (value before, value after, margin or None) for each
        comparison, to read a margin from."""
        results = []
        running = None  # {var or None: coefficient}
        op = None
        compared = None
        margin = None
        expect_margin = False

        def close():
            nonlocal running, compared, margin
            if compared is not None:
                results.append((compared, running, margin))
            compared, margin, running = None, None, None

        for kind, text in tokens:
            if kind in ("num", "unknown", "dice"):
                term = self._read_term(kind, text, op)
                if expect_margin:  # "misses by N": the last comparison's margin
                    if results:
                        results[-1] = (*results[-1][:2], term)
                    elif compared is not None:
                        margin = term
                    expect_margin = False
                elif running is None or op is None:
                    if running is not None and kind == "unknown":  # "d6 4 ?": a hidden bonus
                        running = self._add(running, self.unknown(), 1)
                        running = self._close_total(running)
                    elif running is None:
                        running = self._add({}, term, 1)
                    else:  # two numbers with no operator: a new chain
                        if compared is None:
                            close()
                        running = self._add({}, term, 1)
                elif op == "=":
                    if term.var is not None:
                        self.system.totals[term.var] = self.at
                    self.equal(running, term)
                    running = self._add({}, term, 1)
                elif op == "+":
                    running = self._add(running, term, 1)
                elif op in ("−", "-"):
                    running = self._add(running, term, -1)
                elif op == "×":
                    running = self._times(running, term)
                op = None
            elif kind == "op":
                op = text
            elif kind == "cmp":
                if text == "→":
                    close()
                else:
                    compared, running, op = running, None, None
            elif kind == "by":
                expect_margin = True
            elif kind == "stop":
                close()
                op = None
        close()
        return results

    def _read_term(self, kind, text, op) -> Term:
        if kind == "unknown":
            return self.unknown()
        if kind == "num":
            return Term(value=Fraction(int(text)))
        dice_count, total = text[1:].split("|")
        if op == "=":  # "= 4d6 (…)": the size of a pool
            return Term(value=Fraction(int(dice_count or 1))) if dice_count != HIDDEN else self.unknown()
        return Term(value=Fraction(int(total)))

    def _close_total(self, running):
        total = self.unknown()
        self.system.totals[total.var] = self.at
        self.equal(running, total)
        return self._add({}, total, 1)

    @staticmethod
    def _add(running, term: Term, sign: int) -> dict:
        result = dict(running)
        key = term.var
        result[key] = result.get(key, 0) + sign * (1 if key is not None else term.value)
        return result

    def _times(self, running, term: Term):
        if term.var is None:
            return {k: v * term.value for k, v in running.items()}
        return self._add({}, self.unknown(), 1)  # hidden factor: nothing linear is left to relate


def equations(lines) -> System:
    system = System()
    reader = _Reader(system, count())
    for reader.at, text in enumerate(lines):
        reader.line(text)
    return system


def derivable(lines, known=()) -> set[int]:
    """Every whole number a player can compute for a "?" in `lines`, also trying each `known` number
    as each hidden total. A line may be a pair (text, numbers known with it): then only those
    are tried for its hidden totals, e.g. what the action it reports took from visible combatants."""
    pairs = [(line, None) if isinstance(line, str) else line for line in lines]
    system = equations([text for text, _ in pairs])
    readings = [()] + [(eq,) for pair in system.margins for eq in pair]
    found = set()
    for extra in readings:
        found |= set(system.solve({}, extra).values())
        for total, at in system.totals.items():
            with_line = pairs[at][1]
            for number in set(known if with_line is None else with_line):
                values = system.solve({total: Fraction(number)}, extra)
                found |= {v for k, v in values.items() if k != total}
    return {int(v) for v in found if v.denominator == 1} | system.counted


def changes(states, *fields: str) -> set[int]:
    """How far each visible combatant's `fields` moved from one state to the next: its line in the
    tracker shows what it lost or gained, so a player knows these numbers whatever the texts hide."""
    moved = set()
    for before, after in pairwise(states):
        old = {c.id: c for c in before.combatants if not c.hidden}
        for c in after.combatants:
            if c.id in old:
                moved |= {abs(getattr(c, name) - getattr(old[c.id], name)) for name in fields}
    return moved - {0}
