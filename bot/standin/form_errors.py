"""Discord's "Invalid Form Body" (code 50035): each problem filed under the field it is about, as
``{"code": 50035, "message": "Invalid Form Body", "errors": {"embeds": {"0": {"title": {"_errors": [...]}}}}}``
(https://discord.com/developers/docs/reference#error-messages)."""

from __future__ import annotations

from typing import Any, NamedTuple

INVALID_FORM_BODY = 50035


class Problem(NamedTuple):
    """One reason Discord would refuse a request body: the dotted path of the field and why."""

    path: str  # e.g. "embeds.0.title"; "" for the body as a whole
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def errors_tree(problems: list[Problem]) -> dict[str, Any]:
    """The nested ``errors`` object Discord answers with (discord.py flattens it into its error text)."""
    tree: dict[str, Any] = {}
    for problem in problems:
        node = tree
        for segment in [s for s in problem.path.split(".") if s]:
            node = node.setdefault(segment, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": problem.message})
    return tree


def under(prefix: str, problems: list[Problem]) -> list[Problem]:
    """The same problems, for a body nested at ``prefix`` (an interaction callback's ``data``)."""
    return [Problem(f"{prefix}.{p.path}" if p.path else prefix, p.message) for p in problems]
