"""SQLAlchemy statements compiled once and executed on SQLite's own connection.

A command's commit is a compare-and-set UPDATE and an INSERT of its log row. Through
SQLAlchemy's Connection each statement pays for an execution context, a result object
and the connection's events, and the transaction for its own bookkeeping: together more
than SQLite's work for the whole commit. A ``Precompiled`` statement is compiled once for
the dialect of the engine that owns the connection and converts its parameters with the
columns' own bind processors (the JSON serialiser, SQLite's datetime format), so the row
it writes is the row SQLAlchemy would write: ``tests/bot/test_precompiled.py`` compares them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler


@dataclass(frozen=True)
class Precompiled:
    sql: str
    names: tuple[str, ...]  # the parameters in the order of the SQL's placeholders
    processors: tuple[Callable[[Any], Any] | None, ...]
    constants: Mapping[str, Any]  # values the statement carries itself (the 1 of ``version + 1``)

    @classmethod
    def of(cls, statement: sa.ClauseElement, dialect: Dialect, keys: Sequence[str] | None = None) -> Precompiled:
        """``keys``: an INSERT's columns, named as its parameters will name them."""
        compiled = cast(SQLCompiler, statement.compile(dialect=dialect, column_keys=list(keys) if keys else None))
        if compiled.positiontup is None:
            raise ValueError(f"{dialect.name} does not take positional parameters")
        names = tuple(compiled.positiontup)
        binds = compiled.binds
        processors = tuple(binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names)
        constants = {name: binds[name].value for name in names if binds[name].value is not None}
        return cls(compiled.string, names, processors, constants)

    def parameters(self, values: Mapping[str, Any]) -> list[Any]:
        converted = []
        for name, process in zip(self.names, self.processors, strict=True):
            value = values[name] if name in values else self.constants[name]
            converted.append(value if process is None else process(value))
        return converted

    def execute(self, connection: sqlite3.Connection, values: Mapping[str, Any]) -> sqlite3.Cursor:
        return connection.execute(self.sql, self.parameters(values))

    def execute_many(self, connection: sqlite3.Connection, rows: Sequence[Mapping[str, Any]]) -> None:
        connection.executemany(self.sql, [self.parameters(row) for row in rows])
