"""The rules core must stay free of Discord and database code."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
FORBIDDEN = {"discord", "sqlmodel", "sqlalchemy", "aiosqlite", "asyncpg"}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("path", sorted(RULES.rglob("*.py")), ids=lambda p: str(p.relative_to(RULES)))
def test_rules_module_imports_no_discord_or_database(path):
    assert not imported_roots(path) & FORBIDDEN


def test_the_check_sees_forbidden_imports(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import discord\nfrom sqlmodel import Field\n")
    assert imported_roots(bad) & FORBIDDEN == {"discord", "sqlmodel"}
