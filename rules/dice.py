"""Dice expressions, parsed by d20 and rolled with the encounter's generator.

d20 supplies the grammar (keep/drop, rerolls, explosions, sets); the rolling is
ours so that every die comes from the encounter's own generator or from values
a player entered by hand. Bounds are checked before anything is rolled, so a
dice bomb is refused at once instead of hanging the bot.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

from .errors import DiceError, RulesError
from .said import say
from .text import Text
from .usertext import quoted

MAX_DICE = 100
MAX_FACES = 1_000_000
# Any value the evaluation passes through; beyond it a total means nothing at a table.
MAX_TOTAL = 10**12
MAX_LENGTH = 200
MAX_DEPTH = 20
# A phone keyboard capitalises what starts a line: `1D6` and `D20` are the dice `1d6` and `d20` (a D after a
# letter, or before anything but a die's size, is no dice operator and stays as typed).
_CAPITAL_D = re.compile(r"(?<![^\d\s+\-*/(,])D(?=[\d%])")
# Rerolls and explosions add dice after the bounds check; this caps them too.
MAX_ROLLED = 1_000
WHOLE_NUMBER = re.compile(r"[+-]?\d+")  # a die entered by hand
# A label (`(2d20 [stealth])kh1`) as d20 writes it back: typed text, which a breakdown (markup) never shows.
LABEL = re.compile(r"\s*\[[^\]]*\]")


# Keep or drop with a bare number reads as nearly every dice roller reads it (`4d6k3` keeps the highest
# three, `4d6p1` drops the lowest), not as d20's dice showing that number, which left `4d6k3` at 0.
BARE_KEEP_DROP = {"k": "h", "p": "l"}


# d20 builds its grammar when imported, which is most of the rules' import time;
# it is loaded on the first roll instead.
ast = SimpleNamespace()


def _parser():
    import d20
    from d20 import diceast

    if not vars(ast):
        vars(ast).update({name: getattr(diceast, name) for name in dir(diceast) if not name.startswith("_")})
    return d20


@dataclass(frozen=True, slots=True)
class RollResult:
    expression: str
    total: int
    text: str
    dice: tuple[int, ...]
    kept: tuple[int, ...] = ()
    # The kept die of each group of d20s that keeps one (1d20, 2d20kh1): what a natural 20 or 1 reads on.
    naturals: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"{self.text} = {self.total}"


def check_expression(expr: str):
    """Parse and bound-check an expression without rolling it."""
    expr = _CAPITAL_D.sub("d", (expr or "").strip())
    if not expr:
        raise DiceError(say("The dice expression is empty."))
    if len(expr) > MAX_LENGTH:
        raise DiceError(say("Dice expressions are limited to {n} characters.", n=MAX_LENGTH))
    depth = 0
    for char in expr:
        depth += char == "("
        depth -= char == ")"
        if depth > MAX_DEPTH:
            raise DiceError(say("Dice expressions may nest at most {n} parentheses deep.", n=MAX_DEPTH))
    d20 = _parser()
    try:
        tree = d20.parse(expr)
    except (d20.RollSyntaxError, RecursionError, ValueError, TypeError):
        raise DiceError(_not_dice(expr)) from None
    count = 0
    for node in walk(tree):
        numbers = [sel.num for operation in getattr(node, "operations", ()) for sel in operation.sels]
        if isinstance(node, ast.Literal):
            numbers.append(node.value)
        # `1d1mi99999999999999999999` would deal that much: every number is held to a die's faces.
        if any(abs(number) > MAX_FACES for number in numbers):
            raise DiceError(say("Numbers in dice expressions may be at most {n:,}.", n=MAX_FACES))
        if isinstance(node, ast.Dice):
            if node.size == "%":
                node.size = 100
            if node.size < 1:
                raise DiceError(say("A die needs at least one face."))
            if node.size > MAX_FACES:
                raise DiceError(say("Dice may have at most {n:,} faces.", n=MAX_FACES))
            count += node.num
            if count > MAX_DICE:
                raise DiceError(say("At most {n} dice can be rolled at once.", n=MAX_DICE))
        elif isinstance(node, ast.BinOp) and node.op in ("==", ">=", "<=", "!=", "<", ">"):
            raise DiceError(say("Comparisons are not allowed in dice expressions."))
    return tree


def _not_dice(expr: str) -> Text:
    return say("{expr} is not a dice expression (try `2d6+3` or `4d6kh3`).", expr=quoted(expr, 40))


def walk(node):
    """Every node of a parsed expression (not the keep, reroll… operations attached to one)."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(getattr(current, "children", []) or [])


class _Order:
    """The live dice of a set from the highest and from the lowest, ties in the order rolled (as a stable
    sort leaves them), sorted when first asked and then kept as dice are added and dropped: a long
    explosion asks the rank of every die it adds, and sorting the set each time made it slow."""

    def __init__(self, values, kept) -> None:
        self.values, self.kept = values, kept
        self.ranks: dict[str, list[tuple[float, int]]] = {}

    def _key(self, cat: str, index: int) -> tuple[float, int]:
        value = self.values[index]
        return (-value if cat == "h" else value, index)

    def rank(self, cat: str, index: int) -> int:
        """How many live dice come before the live die `index`, from the highest ("h") or the lowest."""
        if not self.ranks:
            live = [i for i, k in enumerate(self.kept) if k]
            self.ranks = {c: sorted(self._key(c, i) for i in live) for c in ("h", "l")}
        return bisect_left(self.ranks[cat], self._key(cat, index))

    def add(self, index: int) -> None:
        for cat, ranks in self.ranks.items():
            insort(ranks, self._key(cat, index))

    def drop(self, index: int) -> None:
        for cat, ranks in self.ranks.items():
            del ranks[bisect_left(ranks, self._key(cat, index))]


class _Evaluator:
    """Rolls a parsed expression, drawing each face from `draw(size)`."""

    def __init__(self, draw: Callable[[int], int]) -> None:
        self.draw = draw
        self.rolled: list[int] = []
        self.kept: list[int] = []
        self.naturals: list[int] = []

    def die(self, size: int) -> int:
        if len(self.rolled) >= MAX_ROLLED:
            raise DiceError(say("That expression rerolls or explodes too many dice."))
        value = self.draw(size)
        self.rolled.append(value)
        return value

    def eval(self, node) -> tuple[float, str]:
        if isinstance(node, ast.Expression):
            return self.eval(node.roll)
        if isinstance(node, ast.AnnotatedNumber):
            return self.eval(node.value)
        if isinstance(node, ast.Literal):
            return node.value, str(node.value)
        if isinstance(node, ast.Parenthetical):
            value, text = self.eval(node.value)
            return value, f"({text})"
        if isinstance(node, ast.UnOp):
            value, text = self.eval(node.value)
            return (-value if node.op == "-" else value), f"{node.op}{text}"
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.OperatedDice):
            return self._dice(node.value, node.operations)
        if isinstance(node, ast.Dice):
            return self._dice(node, [])
        if isinstance(node, ast.OperatedSet):
            return self._group(node, node.value, node.operations)
        if isinstance(node, ast.NumberSet):
            return self._set(node.values, [])
        raise DiceError(say("That dice expression uses something the bot cannot roll."))

    def _binop(self, node) -> tuple[float, str]:
        left, ltext = self.eval(node.left)
        right, rtext = self.eval(node.right)
        op = node.op
        if op in ("/", "//", "%") and right == 0:
            raise DiceError(say("Division by zero in the dice expression."))
        if op == "+":
            value = left + right
        elif op == "-":
            value = left - right
        elif op == "*":
            value = left * right
        elif op == "/":
            value = left / right
        elif op == "//":
            value = left // right
        elif op == "%":
            value = left % right
        else:
            raise DiceError(say("Comparisons are not allowed in dice expressions."))
        if abs(value) > MAX_TOTAL:
            raise DiceError(say("That dice expression's result is too large."))
        return value, f"{ltext} {op} {rtext}"

    def _group(self, node, inner, operations) -> tuple[float, str]:
        """Keep or drop after brackets, as d20 reads it: `(2d20)kh1` keeps the higher of the two dice,
        `((1d6, 3))kh1` the higher item of the set, and `(1d20+5)kh1` its one value."""
        while isinstance(inner, (ast.Parenthetical, ast.AnnotatedNumber)):
            inner = inner.value
        label = LABEL.sub("", str(node))
        if isinstance(inner, ast.OperatedDice):
            return self._dice(inner.value, [*inner.operations, *operations], label)
        if isinstance(inner, ast.Dice):
            return self._dice(inner, list(operations), label)
        if isinstance(inner, ast.OperatedSet):
            return self._group(node, inner.value, [*inner.operations, *operations])
        if isinstance(inner, ast.NumberSet):
            return self._set(inner.values, operations)
        return self._set([inner], operations)

    def _dice(self, dice, operations, label: str | None = None) -> tuple[float, str]:
        size = dice.size
        values = [self.die(size) for _ in range(dice.num)]
        kept = [True] * len(values)
        # The faces as they came up: a minimum or maximum changes what a die counts, not its natural.
        faces = list(values)
        # The die each value counts with: an explosion's die adds to the one that exploded (`1d20e20`
        # is still one d20, read on its first face), a rerolled die stands for itself.
        roots = list(range(len(values)))
        for operation in operations:
            values, kept = self._operate(operation, values, kept, size, roots)
            faces.extend(values[len(faces) :])
        shown = ", ".join(str(v) if k else f"~~{v}~~" for v, k in zip(values, kept))
        kept_values = [v for v, k in zip(values, kept) if k]
        self.kept.extend(kept_values)
        counted = {root for root, k in zip(roots, kept) if k}
        if size == 20 and len(counted) == 1:
            self.naturals.append(faces[counted.pop()])
        label = label or str(dice) + "".join(str(op) for op in operations)
        return sum(kept_values), f"{label} ({shown})"

    def _set(self, items, operations) -> tuple[float, str]:
        rolled = [self._item(child) for child in items]
        parts = [part for part, _ in rolled]
        values = [value for value, _ in parts]
        kept = [True] * len(values)
        for operation in operations:
            if operation.op not in ("k", "p"):
                raise DiceError(say("`{op}` only works on dice, not on sets.", op=operation.op))
            values, kept = self._operate(operation, values, kept, None, list(range(len(values))))
        # A dropped item's d20 no longer counts: `(1d20, 1d20)kh1` reads one natural, as `2d20kh1` does.
        self.naturals.extend(face for (_, found), k in zip(rolled, kept) if k for face in found)
        # A dropped item is struck out whole: its own struck dice inside would end the strike early.
        shown = ", ".join(text if k else f"~~{text.replace('~~', '')}~~" for (_, text), k in zip(parts, kept))
        return sum(v for v, k in zip(values, kept) if k), f"({shown})"

    def _item(self, child) -> tuple[tuple[float, str], list[int]]:
        """One item of a set, rolled, with the naturals it read, held back until the set keeps or drops it."""
        start = len(self.naturals)
        part = self.eval(child)
        found = self.naturals[start:]
        del self.naturals[start:]
        return part, found

    def _picked(self, selectors, values, among, order: _Order, bare: str | None = None) -> list[int]:
        """The live dice of `among` that any of `selectors` picks; a bare number (`k3`) is of category
        `bare` when given. A reroll or an explosion asks this of every die it adds: each die is tested
        against all the selectors at once, never the whole set once a selector (`100d6e7e7…e>0` took
        seconds)."""
        nums: dict[str | None, list[int]] = {}
        for selector in selectors:
            cat = selector.cat or bare
            if cat not in (None, "h", "l", ">", "<"):
                raise DiceError(say("Unknown selector in the dice expression."))
            nums.setdefault(cat, []).append(selector.num)
        equal = set(nums.get(None, ()))
        above = min(nums.get(">", ()), default=None)
        below = max(nums.get("<", ()), default=None)
        # The highest n dice hold the highest m for every m below n: only the largest counts.
        ranked = {cat: max(nums[cat]) for cat in ("h", "l") if cat in nums}
        return [
            i
            for i in among
            if values[i] in equal
            or (above is not None and values[i] > above)
            or (below is not None and values[i] < below)
            or any(order.rank(cat, i) < most for cat, most in ranked.items())
        ]

    def _operate(self, operation, values, kept, size, roots):
        op = operation.op
        live = [i for i, k in enumerate(kept) if k]
        chosen = set(self._picked(operation.sels, values, live, _Order(values, kept), BARE_KEEP_DROP.get(op)))
        if op == "k":
            kept = [k and i in chosen for i, k in enumerate(kept)]
        elif op == "p":
            kept = [k and i not in chosen for i, k in enumerate(kept)]
        elif op in ("rr", "ro", "ra", "e"):
            values, kept = list(values), list(kept)
            self._reroll(op, operation, values, kept, size, chosen, roots)
        elif op in ("mi", "ma"):
            bound = operation.sels[0].num
            values = [max(v, bound) if op == "mi" else min(v, bound) for v in values]
        return values, kept

    def _reroll(self, op, operation, values, kept, size, chosen, roots):
        """Rolls the dice `op` adds, each with the die it counts with (`roots`): the one that exploded
        for an explosion, its own for a reroll (a reroll-and-add's die is a second one that counts)."""
        order = _Order(values, kept)
        if op == "rr":
            pending = sorted(chosen)
            while pending:
                for index in pending:
                    kept[index] = False
                    order.drop(index)
                    self._add(values, kept, size, roots, len(values), order)
                fresh = range(len(values) - len(pending), len(values))
                pending = self._picked(operation.sels, values, fresh, order)
        elif op == "ro":
            for index in sorted(chosen):
                kept[index] = False
                self._add(values, kept, size, roots, len(values), order)
        elif op == "ra":
            if chosen:
                self._add(values, kept, size, roots, len(values), order)
        elif op == "e":
            pending = sorted(chosen)
            while pending:
                start = len(values)
                for index in pending:
                    self._add(values, kept, size, roots, roots[index], order)
                pending = self._picked(operation.sels, values, range(start, len(values)), order)

    def _add(self, values, kept, size, roots, root, order: _Order) -> None:
        values.append(self.die(size))
        kept.append(True)
        roots.append(root)
        order.add(len(values) - 1)


def evaluate(expr: str, draw: Callable[[int], int]) -> RollResult:
    tree = check_expression(expr)
    evaluator = _Evaluator(draw)
    try:
        value, text = evaluator.eval(tree)
    except RulesError:
        raise
    except Exception as error:
        # A tree d20 reads but this evaluator gets wrong must not stop a fight: an expression stored on a
        # sheet or a condition is rolled again on every turn.
        raise DiceError(say("That dice expression uses something the bot cannot roll.")) from error
    total = int(value) if float(value).is_integer() else int(value // 1)
    return RollResult(
        expr.strip(), total, text, tuple(evaluator.rolled), tuple(evaluator.kept), tuple(evaluator.naturals)
    )


def parse_entered(text: str | None) -> tuple[int, ...]:
    """Hand-entered dice: `"4 6 2"`, `"4,6,2"` or a single number."""
    if text is None:
        return ()
    parts = [p for p in str(text).replace(",", " ").split() if p]
    if len(parts) > MAX_DICE:
        raise DiceError(say("At most {n} dice can be entered at once.", n=MAX_DICE))
    values = []
    for part in parts:
        # Digits only, with a sign at most: `int` would also read `1_0` as 10, a typo turned into a result.
        if not WHOLE_NUMBER.fullmatch(part):
            raise DiceError(
                say("{part} is not a die result: enter whole numbers such as `4 6 2`.", part=quoted(part, 40))
            )
        values.append(int(part))
    return tuple(values)
