"""Holding the bot's REST requests to Discord's published API description, when a test asks for it.

The stand-in records (does not answer with a 400) each request that breaks the contract, so the
test that caused one fails at its end with the request named. The check itself, and Discord's
OpenAPI description it reads, belong to the tests (``tests/contract``), which switch it on with
``check_requests_with``: the sandbox and a plain install run the stand-in without either.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from rules.usertext import has_private_use


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    literal_segments: int


@dataclass(frozen=True)
class Violation:
    method: str
    path: str
    problem: str

    def __str__(self) -> str:
        return f"{self.method} {self.path}: {self.problem}"


class Contract(Protocol):
    def operation(self, method: str, path: str) -> tuple[Operation | None, str | None]: ...

    def check(self, method: str, path: str, body: Any = None, *, multipart: bool = False) -> list[Violation]: ...

    def check_body(self, op: Operation, path: str, body: Any, *, multipart: bool = False) -> list[Violation]: ...


_source: Callable[[], Contract] | None = None


def check_requests_with(source: Callable[[], Contract] | None) -> None:
    """Stand-ins made from now on in this process check their requests against ``source()`` (None: no check)."""
    global _source
    _source = source


def contract() -> Contract | None:
    """The contract a new stand-in checks requests against, or None where no test switched one on."""
    return _source() if _source is not None else None


def marks_in(method: str, path: str, body: Any) -> list[Violation]:
    """Texts in a request body that hold a private-use code point."""
    found: list[str] = []

    def walk(value: Any, where: str) -> None:
        if isinstance(value, str):
            if has_private_use(value):
                found.append(f"{where or '(body)'}: a private-use code point reached Discord in {value[:80]!r}")
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{where}/{key}" if where else str(key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, f"{where}/{index}" if where else str(index))

    walk(body, "")
    return [Violation(method, path, problem) for problem in found[:5]]
