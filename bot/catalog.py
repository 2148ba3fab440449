"""The catalog template, `bot/locale/turnkeeper.pot`: every English template the bot can show,
as `pybabel extract` finds it in the code, for a language's `.po` file to translate.

    python -m bot.catalog extract   # write the template again after changing what the bot says
    python -m bot.catalog check     # CI: fail when the committed template is not what extraction gives

Extraction (`extract_python`, named in `bot/babel.cfg`) reads each file's syntax tree, so that a
template written inside an f-string's braces is found too, whatever the Python version; it finds
the templates by the names of the functions they are written in: `say` and
`say_plural` (`rules.said`), `term` with a word written in place, `N_` for a word of the rules'
vocabulary kept in a table, `_` / `locale_str` for command texts (`cogs/`), and `words`, `own`,
`label` and `select_label` for the bot's own constants looked up whole (`bot.render`). Locations are
files without line numbers and messages are sorted, so moving code does not make the template stale.

A word a translator could read two ways ("Die": a choice to make, "Close": a range) gets a comment on
the lines right above the call that says it, `# Translators: …`; the template shows it to the translator.
"""

from __future__ import annotations

import ast
import difflib
import subprocess
import sys
import tempfile
from collections.abc import Collection, Iterator
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "bot" / "locale" / "turnkeeper.pot"
COMMENT_TAG = "Translators:"
KEYWORDS = ("say", "say_plural:1,2", "term", "N_", "_", "locale_str", "words", "own", "label", "select_label")
HEADER = "Turnkeeper's English templates, to translate in bot/locale/<locale>/LC_MESSAGES/turnkeeper.po."
# Lines that change with the day or the Babel version, not with what the bot says.
_VOLATILE = ('"POT-Creation-Date:', '"Generated-By:')


def extract_command(output: str) -> list[str]:
    """The `pybabel extract` command line (run from the repository root)."""
    keywords = [f"--keyword={keyword}" for keyword in KEYWORDS]
    return [
        *("pybabel", "extract", "--mapping-file=bot/babel.cfg", "--no-default-keywords", *keywords),
        *("--add-location=file", "--sort-output", "--project=Turnkeeper", f"--header-comment=# {HEADER}"),
        f"--add-comments={COMMENT_TAG}",
        *("--output-file", output, "."),
    ]


def extract_python(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: dict[str, Any]
) -> Iterator[tuple[int, str, tuple[str | None, ...], list[str]]]:
    """pybabel's extraction method for the bot's code: every call of a keyword, with the strings written
    as its arguments (None where an argument is not one); both strings of `"a" if … else "b"`; and the
    translator's comment right above it (one of `comment_tags`)."""
    source = fileobj.read()
    lines = source.decode("utf-8").splitlines()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if not isinstance(name, str) or name not in keywords or not node.args:
            continue
        rest = tuple(_written(arg) for arg in node.args[1:])
        first = node.args[0]
        for choice in (first.body, first.orelse) if isinstance(first, ast.IfExp) else (first,):
            yield node.lineno, name, (_written(choice), *rest), _comment_above(lines, node.lineno, comment_tags)


def _comment_above(lines: list[str], lineno: int, tags: Collection[str]) -> list[str]:
    """The comment lines right above line `lineno` (1-based), from the one that starts with a tag on."""
    above: list[str] = []
    for line in reversed(lines[: lineno - 1]):
        if not line.strip().startswith("#"):
            break
        above.insert(0, line.strip().lstrip("#").strip())
    start = next((i for i, line in enumerate(above) if tags and line.startswith(tuple(tags))), None)
    return above[start:] if start is not None else []


def _written(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract(output: Path) -> None:
    command = extract_command(str(output))
    script = "import sys; from babel.messages.frontend import main; sys.argv[0] = 'pybabel'; main()"
    subprocess.run([sys.executable, "-c", script, *command[1:]], cwd=ROOT, check=True, capture_output=True)


def steady(text: str) -> list[str]:
    return [line for line in text.splitlines() if not line.startswith(_VOLATILE)]


def stale() -> list[str]:
    """How the committed template differs from a fresh extraction (nothing when it is up to date)."""
    with tempfile.TemporaryDirectory() as folder:
        fresh = Path(folder) / "turnkeeper.pot"
        extract(fresh)
        made = steady(fresh.read_text(encoding="utf-8"))
    committed = steady(TEMPLATE.read_text(encoding="utf-8")) if TEMPLATE.exists() else []
    return list(difflib.unified_diff(committed, made, "committed", "extracted", lineterm=""))


def main(argv: list[str]) -> int:
    if argv == ["extract"]:
        extract(TEMPLATE)
        return 0
    if argv == ["check"]:
        difference = stale()
        if difference:
            print("bot/locale/turnkeeper.pot is stale: run `python -m bot.catalog extract`", file=sys.stderr)
            print("\n".join(difference[:200]), file=sys.stderr)
            return 1
        return 0
    print("usage: python -m bot.catalog extract|check", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
