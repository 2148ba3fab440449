"""Persistence for campaigns, characters and encounters.

Every public method is one transaction and returns plain dataclass records. SQLAlchemy
Core is used instead of the ORM: no identity map or change tracking to pay for, and
most methods are a single statement.

Encounters use optimistic concurrency: ``commit`` only succeeds against the version
the caller read, so concurrent writers (shards, processes) cannot lose an update.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.db import SQLITE_BUSY_TIMEOUT_MS, SQLITE_IMMEDIATE, SQLITE_NO_BEGIN, StoredJSON, configure_sqlite, to_json
from bot.precompiled import Precompiled
from bot.tables import (
    ACTIVE,
    ENDED,
    utcnow,
)
from bot.tables import (
    campaign_table as CT,
)
from bot.tables import (
    change_table as CC,
)
from bot.tables import (
    character_table as CH,
)
from bot.tables import (
    encounter_table as EN,
)
from bot.tables import (
    event_table as EV,
)
from bot.tables import (
    npc_table as NP,
)
from bot.tables import (
    place_table as PL,
)
from rules import usertext
from rules.said import cut, say
from rules.text import Text, dumps, loads

META_FIELDS = frozenset(
    {"tracker_message_id", "turn_message_id", "reminder_due", "reminders_sent", "pending_deadline", "announce_due"}
)
STATUSES = frozenset({ACTIVE, ENDED})


class RepositoryError(Exception):
    pass


class DuplicateName(RepositoryError, ValueError):
    """The owner already has a character (or the library an NPC) with this
    (case-insensitive) name in the campaign; `said`: which, as a text."""

    @property
    def said(self) -> Text | str:
        return self.args[0] if self.args and isinstance(self.args[0], (Text, str)) else ""


class CampaignChanged(RepositoryError):
    """The campaign is no longer what the caller saw; nothing was written."""


class EncounterExists(RepositoryError):
    """The channel already has an active encounter."""


class VersionConflict(RepositoryError):
    """The encounter changed since it was read; reload and retry."""

    def __init__(self, encounter_id: int, expected: int, current: int | None) -> None:
        self.encounter_id = encounter_id
        self.expected = expected
        self.current = current  # None: the encounter does not exist
        super().__init__(f"encounter {encounter_id}: expected version {expected}, found {current}")


@dataclass(frozen=True, slots=True)
class CampaignRecord:
    guild_id: int
    system: str
    gm_role_id: int | None
    settings: dict[str, Any]
    state: dict[str, Any]
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class CharacterRecord:
    id: int
    guild_id: int
    owner_id: int
    owner_name: str | None
    name: str
    name_key: str
    system: str
    sheet: dict[str, Any]
    lasting: dict[str, Any]
    created_at: datetime
    npc: bool = False  # an NPC the GM kept from a fight (keep:true), not a hero


@dataclass(frozen=True, slots=True)
class NpcRecord:
    id: int
    guild_id: int
    name: str
    name_key: str
    system: str
    sheet: dict[str, Any]
    notes: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class ChangeRecord:
    id: int
    guild_id: int
    user_id: int
    user_name: str | None
    command: Text | str
    summary: Text | str
    before: dict[str, Any]
    undone: bool
    created_at: datetime


# A character's system, sheet, lasting state and whether it is a kept NPC → the lasting state that sheet
# reads (System.fit_lasting).
Fit = Callable[[str, dict[str, Any], dict[str, Any], bool], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class NewChange:
    """A between-fight change to log. ``before``: {"characters": {id: lasting},
    "campaign": the campaign state or None}, what undo restores."""

    guild_id: int
    user_id: int
    command: Text | str
    summary: Text | str
    before: dict[str, Any]
    user_name: str | None = None


@dataclass(frozen=True, slots=True)
class EncounterRecord:
    id: int
    guild_id: int
    channel_id: int
    system: str
    status: str
    # Read from the database: the data. Kept by the core after saving it: the JSON text.
    state: dict[str, Any] | StoredJSON
    version: int
    campaign_key: int | None
    tracker_message_id: int | None
    turn_message_id: int | None
    reminder_due: datetime | None
    reminders_sent: int
    pending_deadline: datetime | None
    created_at: datetime
    updated_at: datetime
    announce_due: str | None = None  # the turn ping or choice not yet posted (see bot.interact.catch_up)


@dataclass(frozen=True, slots=True)
class EventRecord:
    id: int
    encounter_id: int
    seq: int
    user_id: int
    command: Text | str
    summary: Text | str
    state_before: dict[str, Any]
    undone: bool
    created_at: datetime


@dataclass(frozen=True, slots=True)
class NewEvent:
    user_id: int
    command: Text | str
    summary: Text | str
    state_before: dict[str, Any] | StoredJSON


# How much of a logged command and of what it did is kept, in characters of whichever language reads it.
COMMAND_LENGTH = 200
SUMMARY_LENGTH = 1000
CHANGE_SUMMARY_LENGTH = 1000


def stored_text(text: Text | str, limit: int) -> str:
    """A logged text for its str column: a value as JSON (`rules.text.dumps`), at most `limit` characters
    long when read; a bare str (a constant of the bot's, such as "End turn (button)") as it is."""
    return text[:limit] if isinstance(text, str) else dumps(cut(text, limit))


def _read_texts(row: Mapping[Any, Any]) -> dict[str, Any]:
    """A log row with its command and summary read back into text values."""
    return {**row, "command": loads(row["command"]), "summary": loads(row["summary"])}


def name_key(name: str) -> str:
    """Comparison key for stored names: the one a fight compares names by (`rules.usertext.name_key`),
    so that a name that reads alike is one name here too."""
    return usertext.name_key(name)


# Row ids are INTEGER on PostgreSQL: a larger number typed as `#id` (or in a forged button) would fail
# to bind there, while SQLite would simply find nothing.
MAX_ROW_ID = 2**31 - 1


def a_row_id(value: int) -> bool:
    """Whether ``value`` can be a row's id on every backend."""
    return 0 < value <= MAX_ROW_ID


def _require_aware(value: datetime | None, what: str) -> None:
    # Checked here too, not only in UTCDateTime, so callers get a plain ValueError
    # instead of SQLAlchemy's StatementError wrapper.
    if value is not None and value.tzinfo is None:
        raise ValueError(f"{what} must be timezone-aware (UTC), got naive {value!r}")


def _check_meta(meta: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(meta) - META_FIELDS
    if unknown:
        raise ValueError(f"unknown encounter meta field(s): {sorted(unknown)}")
    _require_aware(meta.get("reminder_due"), "reminder_due")
    _require_aware(meta.get("pending_deadline"), "pending_deadline")
    return dict(meta)


_OPTIONAL_SET = META_FIELDS | {"status"}


@functools.cache
def _commit_statement(optional: tuple[str, ...]) -> sa.Update:
    """The compare-and-set UPDATE of ``commit``, built once per set of optional columns.

    Prebuilt statements with bind parameters skip SQLAlchemy's per-call construction
    and cache-key work, a large share of a commit's cost.
    """
    eid = sa.bindparam("eid", type_=EN.c.id.type)
    values: dict[str, Any] = {
        "state": sa.bindparam("state", type_=EN.c.state.type),
        "version": EN.c.version + 1,
        "updated_at": sa.bindparam("now", type_=EN.c.updated_at.type),
    }
    values.update({name: sa.bindparam(name, type_=EN.c[name].type) for name in optional})
    # The max(seq) subquery is safe in RETURNING: event rows are only written while
    # holding this encounter row (PostgreSQL row lock / SQLite write lock), and a
    # writer that had to wait for that lock fails the version check anyway.
    # It is bound to the id, not correlated: SQLite renders RETURNING unqualified,
    # so a correlated "encounter.id" would silently become "event.id".
    max_seq = sa.select(sa.func.coalesce(sa.func.max(EV.c.seq), 0)).where(EV.c.encounter_id == eid).scalar_subquery()
    return (
        sa.update(EN)
        .where(EN.c.id == eid, EN.c.version == sa.bindparam("expected", type_=EN.c.version.type))
        .values(values)
        .returning(EN.c.version, max_seq.label("last_seq"))
    )


@functools.cache
def _one_statement_commit(optional: tuple[str, ...], events: int) -> sa.Insert:
    """``commit``'s UPDATE and the INSERT of its ``events`` as one statement, for PostgreSQL: atomic by
    itself, it takes one round trip where a transaction takes four (BEGIN, UPDATE, INSERT, COMMIT). The
    events are inserted only from the row the UPDATE changed, so a stale version inserts none and returns
    nothing. Event ``i``'s values are bound as ``user_id_i``, ``command_i``, ``summary_i``, ``state_before_i``."""
    updated = _commit_statement(optional).cte("updated")
    rows = [
        sa.select(
            sa.bindparam("eid", type_=EV.c.encounter_id.type),
            updated.c.last_seq + i,
            *(sa.bindparam(f"{name}_{i}", type_=EV.c[name].type) for name in _EVENT_FIELDS),
            sa.false(),
            sa.bindparam("now", type_=EV.c.created_at.type),
        ).select_from(updated)
        for i in range(1, events + 1)
    ]
    chosen = rows[0] if events == 1 else sa.union_all(*rows)
    return sa.insert(EV).from_select(_EVENT_COLUMNS, chosen).returning(sa.select(updated.c.version).scalar_subquery())


_INSERT_EVENT = sa.insert(EV)
_EVENT_FIELDS = ("user_id", "command", "summary", "state_before")  # what each event brings; the rest is the commit's
_EVENT_COLUMNS = ("encounter_id", "seq", *_EVENT_FIELDS, "undone", "created_at")
_VERSION_OF = sa.select(EN.c.version).where(EN.c.id == sa.bindparam("eid", type_=EN.c.id.type))
_UNDO_EVENTS = (
    sa.update(EV)
    .where(
        EV.c.encounter_id == sa.bindparam("eid", type_=EV.c.encounter_id.type),
        EV.c.seq.in_(sa.bindparam("seqs", expanding=True)),
    )
    .values(undone=True)
)
_ACTIVE_IN_CHANNEL = sa.select(EN).where(
    EN.c.channel_id == sa.bindparam("channel_id", type_=EN.c.channel_id.type),
    EN.c.status == ACTIVE,
)
_ENCOUNTER_BY_ID = sa.select(EN).where(EN.c.id == sa.bindparam("eid", type_=EN.c.id.type))

# Earliest of the two deadlines, NULL-safe on both backends (SQLite's min() and
# PostgreSQL's least() disagree about NULLs).
_NEXT_DUE = sa.case(
    (EN.c.reminder_due.is_(None), EN.c.pending_deadline),
    (EN.c.pending_deadline.is_(None), EN.c.reminder_due),
    (EN.c.reminder_due < EN.c.pending_deadline, EN.c.reminder_due),
    else_=EN.c.pending_deadline,
)


# While another process holds SQLite's write lock, the writer tries again this often.
WRITE_LOCK_POLL_SECONDS = 0.0002


class SqliteWriter:
    """Runs this process's SQLite write transactions on the event loop's own thread, whole.

    A write transaction is a few hundred microseconds of work in SQLite itself. Through
    aiosqlite each statement cost several hops to the driver's thread and back, a dozen
    for a commit; in a thread of its own the transaction still waited for the
    interpreter's lock at each statement (up to 5 ms each while the event loop was busy),
    holding SQLite's write lock all the while, so the other shard processes waited too.
    Run here, synchronously, a transaction never awaits: it holds the write lock only
    for its own work, and transactions of this process never interleave.

    Another process's write lock is waited for without blocking the loop: SQLite's busy
    handler is off for this connection, and the transaction is tried again every
    ``WRITE_LOCK_POLL_SECONDS`` (SQLite's own handler sleeps 1, 2, 5, 10, … ms between
    tries, and would block the loop), up to the usual busy timeout.
    """

    def __init__(self, url: sa.URL) -> None:
        # The pool may hand a connection to another thread (disposal at shutdown).
        self._engine = sa.create_engine(
            url.set(drivername="sqlite"), connect_args={"check_same_thread": False}, json_serializer=to_json
        )
        configure_sqlite(self._engine)
        sa.event.listen(self._engine, "connect", _no_busy_handler)
        # One connection, held: its transactions never overlap, and taking one from the pool and
        # giving it back cost as much as the statements themselves.
        self._connection: sa.Connection | None = None
        self._precompiled: dict[tuple[sa.ClauseElement, tuple[str, ...] | None], Precompiled] = {}

    def _connected(self) -> sa.Connection:
        if self._connection is None:
            self._connection = self._engine.connect().execution_options(**{SQLITE_IMMEDIATE: True})
        return self._connection

    async def run(self, body: Callable[..., Any], *args: Any) -> Any:
        """``body(connection, *args)`` inside BEGIN IMMEDIATE … COMMIT."""

        def once() -> Any:
            conn = self._connected()
            with conn.begin():
                return body(conn, *args)

        return await self._until_unlocked(once)

    async def run_direct(self, body: Callable[..., Any], *args: Any) -> Any:
        """``body(sqlite3_connection, *args)`` inside BEGIN IMMEDIATE … COMMIT, on the held
        connection's own sqlite3 connection, for ``Precompiled`` statements."""

        def once() -> Any:
            db = self._connected().connection.dbapi_connection
            assert isinstance(db, sqlite3.Connection)
            db.execute("BEGIN IMMEDIATE")
            try:
                result = body(db, *args)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return result

        return await self._until_unlocked(once)

    def precompiled(self, statement: sa.ClauseElement, keys: tuple[str, ...] | None = None) -> Precompiled:
        """``statement`` compiled for this writer's engine, once."""
        found = self._precompiled.get((statement, keys))
        if found is None:
            found = self._precompiled[(statement, keys)] = Precompiled.of(statement, self._engine.dialect, keys)
        return found

    async def _until_unlocked(self, once: Callable[[], Any]) -> Any:
        deadline = time.monotonic() + SQLITE_BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                return once()
            except (OperationalError, sqlite3.OperationalError) as error:
                # Rolled back whole: nothing of this try is left to undo before the next.
                if "database is locked" not in str(error) or time.monotonic() > deadline:
                    raise
            await asyncio.sleep(WRITE_LOCK_POLL_SECONDS)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        self._engine.dispose()


def _no_busy_handler(dbapi_connection: Any, _record: Any) -> None:
    """Runs after ``configure_sqlite``'s connect hook, once the database is in WAL mode."""
    dbapi_connection.execute("PRAGMA busy_timeout = 0")


def _commit_body(
    conn: sa.Connection,
    update: sa.Update,
    params: dict[str, Any],
    new_events: list[NewEvent],
    undo_seqs: Collection[int],
    lasting: Mapping[int, dict[str, Any]] | None = None,
    change: NewChange | None = None,
    campaign_state: dict[str, Any] | None = None,
) -> int:
    encounter_id = params["eid"]
    try:
        row = conn.execute(update, params).first()
    except IntegrityError as exc:
        raise _exists(encounter_id) from exc
    if row is None:
        raise _conflict(params, conn.scalar(_VERSION_OF, params))
    new_version, last_seq = row
    if new_events:
        conn.execute(_INSERT_EVENT, _event_rows(encounter_id, last_seq, new_events, params["now"]))
    if undo_seqs:
        conn.execute(_UNDO_EVENTS, {"eid": encounter_id, "seqs": list(undo_seqs)})
    if change is not None:
        _write_lasting(conn, lasting or {}, change, campaign_state)
    return int(new_version)


def _direct_commit_body(
    db: sqlite3.Connection,
    update: Precompiled,
    insert: Precompiled,
    version_of: Precompiled,
    params: dict[str, Any],
    new_events: list[NewEvent],
) -> int:
    """``_commit_body`` without undone events or lasting changes, on SQLite's own connection."""
    encounter_id = params["eid"]
    try:
        row = update.execute(db, params).fetchone()
    except sqlite3.IntegrityError as exc:
        raise _exists(encounter_id) from exc
    if row is None:
        current = version_of.execute(db, params).fetchone()
        raise _conflict(params, None if current is None else current[0])
    new_version, last_seq = row
    if new_events:
        insert.execute_many(db, _event_rows(encounter_id, last_seq, new_events, params["now"]))
    return int(new_version)


def _exists(encounter_id: int) -> EncounterExists:
    # Only the one-active-per-channel index can refuse a commit's UPDATE: the
    # caller re-activated an ended encounter whose channel has a new one.
    return EncounterExists(f"encounter {encounter_id}: its channel already has an active encounter")


def _conflict(params: Mapping[str, Any], current: int | None) -> VersionConflict:
    return VersionConflict(params["eid"], params["expected"], current)


def _event_rows(encounter_id: int, last_seq: int, new_events: list[NewEvent], now: datetime) -> list[dict[str, Any]]:
    return [
        {"encounter_id": encounter_id, "seq": last_seq + i, **_event_fields(e), "undone": False, "created_at": now}
        for i, e in enumerate(new_events, 1)
    ]


def _event_fields(e: NewEvent) -> dict[str, Any]:
    """An event's own values, as stored (``_EVENT_FIELDS``)."""
    return {
        "user_id": e.user_id,
        "command": stored_text(e.command, COMMAND_LENGTH),
        "summary": stored_text(e.summary, SUMMARY_LENGTH),
        "state_before": e.state_before,
    }


def _numbered_events(new_events: list[NewEvent]) -> dict[str, Any]:
    """The events' values as ``_one_statement_commit`` binds them."""
    return {f"{name}_{i}": value for i, e in enumerate(new_events, 1) for name, value in _event_fields(e).items()}


def _write_lasting(
    conn: sa.Connection,
    lasting: Mapping[int, dict[str, Any]],
    change: NewChange | None,
    campaign_state: dict[str, Any] | None = None,
) -> None:
    """Characters' lasting state (and the campaign's state), logged as one change."""
    for character_id, value in lasting.items():
        conn.execute(sa.update(CH).where(CH.c.id == character_id).values(lasting=value))
    if campaign_state is not None and change is not None:
        conn.execute(
            sa.update(CT).where(CT.c.guild_id == change.guild_id).values(state=campaign_state, updated_at=utcnow())
        )
    if change is not None:
        row = _change_row(change, utcnow())
        if change.before:  # an undoable change keeps what it wrote too: its undo checks that it still stands
            written = {"characters": {str(k): v for k, v in lasting.items()}, "campaign": campaign_state}
            row["before"] = change.before | {"after": written}
        conn.execute(sa.insert(CC).values(row))


def _campaign_put_back(now: dict[str, Any] | None, before: dict[str, Any]) -> dict[str, Any] | None:
    """The campaign state an undo writes: the whole state a rest replaced (and a check logged before
    checks kept less), or else a check's `campaign_part` over the state as it is ``now``, with the offer the
    check made withdrawn (if it still stands): what happened since to the rest of it stays."""
    part = before.get("campaign_part")
    if part is None:
        return before.get("campaign")
    if now is None:
        return None
    restored = dict(now) | part
    offer = before.get("offer")
    if offer:
        offers = dict(restored.get(offer["key"]) or {})
        if (offers.get(offer["character"]) or {}).get("turn") == offer["turn"]:
            del offers[offer["character"]]
        restored[offer["key"]] = offers
    return restored


def _going_on(
    restored: dict[str, Any], now: dict[str, Any] | None, paths: Collection[tuple[str, str]]
) -> dict[str, Any]:
    """``restored`` with the value at each of ``paths`` as it is ``now`` (or without it, if it has none)."""
    out = dict(restored)
    for outer, inner in paths:
        current = (now or {}).get(outer) or {}
        kept = {k: v for k, v in (out.get(outer) or {}).items() if k != inner}
        if inner in current:
            kept[inner] = current[inner]
        if kept or outer in out:
            out[outer] = kept
    return out


def _change_row(change: NewChange, now: datetime) -> dict[str, Any]:
    return {
        "guild_id": change.guild_id,
        "user_id": change.user_id,
        "user_name": change.user_name,
        "command": stored_text(change.command, COMMAND_LENGTH),
        "summary": stored_text(change.summary, CHANGE_SUMMARY_LENGTH),
        "before": change.before,
        "undone": False,
        "created_at": now,
    }


def _campaign_row(
    key: int, system: str, gm_role_id: int | None, settings: dict[str, Any], state: dict[str, Any], now: datetime
) -> dict[str, Any]:
    return {
        "guild_id": key,
        "system": system,
        "gm_role_id": gm_role_id,
        "settings": settings,
        "state": state,
        "created_at": now,
        "updated_at": now,
    }


def _named_row(key: int, name: str, system: str, sheet: dict[str, Any], now: datetime, **more: Any) -> dict[str, Any]:
    """A character's or a library NPC's row; its name's comparison key goes with the name."""
    return {
        "guild_id": key,
        "name": name,
        "name_key": name_key(name),
        "system": system,
        "sheet": sheet,
        "created_at": now,
        **more,
    }


class Repository:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._dialect = engine.dialect.name
        if self._dialect == "postgresql":
            # A single statement is atomic by itself; autocommit saves the BEGIN and
            # COMMIT round trips (asyncpg toggles this client-side, no extra query).
            self._reader = self._single = engine.execution_options(isolation_level="AUTOCOMMIT")
            self._tx = engine
        else:
            self._reader = engine.execution_options(**{SQLITE_NO_BEGIN: True})
            self._single = self._tx = engine.execution_options(**{SQLITE_IMMEDIATE: True})
        database = engine.url.database
        on_disk = self._dialect == "sqlite" and database not in (None, "", ":memory:")
        self._writer = SqliteWriter(engine.url) if on_disk else None

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()

    # -- helpers -------------------------------------------------------------------

    async def _fetch(
        self, stmt: sa.Executable, params: Mapping[str, Any] | None = None
    ) -> list[sa.Row[*tuple[Any, ...]]]:
        async with self._reader.connect() as conn:
            return list((await conn.execute(stmt, params)).all())

    async def _write_row(self, stmt: sa.Executable) -> sa.Row[*tuple[Any, ...]]:
        """Run one INSERT/UPDATE ... RETURNING and return its single row."""
        if self._writer is not None:
            return await self._writer.run(lambda conn: conn.execute(stmt).one())
        async with self._single.begin() as conn:
            return (await conn.execute(stmt)).one()

    async def _write_scalar(self, stmt: sa.Executable) -> Any:
        """Run one write ... RETURNING a column; its value in the one row touched, None if none was."""
        if self._writer is not None:
            return await self._writer.run(lambda conn: conn.execute(stmt).scalar_one_or_none())
        async with self._single.begin() as conn:
            return (await conn.execute(stmt)).scalar_one_or_none()

    async def _write_count(self, stmt: sa.Executable) -> int:
        """Run one UPDATE/DELETE and return how many rows it touched."""
        if self._writer is not None:
            return await self._writer.run(lambda conn: conn.execute(stmt).rowcount)
        async with self._single.begin() as conn:
            return (await conn.execute(stmt)).rowcount

    async def _insert_named(self, table: sa.Table, row: dict[str, Any], duplicate: Text | str) -> sa.RowMapping:
        """Insert a character or library NPC; its name taken already raises DuplicateName(duplicate)."""
        try:
            return (await self._write_row(sa.insert(table).values(row).returning(*table.c)))._mapping
        except IntegrityError as exc:
            raise DuplicateName(duplicate) from exc

    def _upsert(self, table: sa.Table) -> Any:
        return (pg_insert if self._dialect == "postgresql" else sqlite_insert)(table)

    def _in_code_order(self, column: sa.ColumnElement[str]) -> sa.ColumnElement[str]:
        """``column`` ordered by code point, as SQLite always orders text; PostgreSQL would otherwise
        follow the database's collation, and a list or its first 25 would differ between backends."""
        return column.collate("C") if self._dialect == "postgresql" else column

    # -- campaigns -----------------------------------------------------------------

    async def get_campaign(self, guild_id: int) -> CampaignRecord | None:
        rows = await self._fetch(sa.select(CT).where(CT.c.guild_id == guild_id))
        return CampaignRecord(**rows[0]._mapping) if rows else None

    async def save_campaign(
        self,
        guild_id: int,
        *,
        system: str,
        gm_role_id: int | None = None,
        settings: dict[str, Any] | None = None,
    ) -> CampaignRecord:
        """Create or replace the campaign's system, GM role and settings (state is kept)."""
        stmt = self._upsert(CT).values(_campaign_row(guild_id, system, gm_role_id, settings or {}, {}, utcnow()))
        stmt = stmt.on_conflict_do_update(
            index_elements=[CT.c.guild_id],
            set_={
                "system": stmt.excluded.system,
                "gm_role_id": stmt.excluded.gm_role_id,
                "settings": stmt.excluded.settings,
                "updated_at": stmt.excluded.updated_at,
            },
        ).returning(*CT.c)
        return CampaignRecord(**(await self._write_row(stmt))._mapping)

    # -- characters ----------------------------------------------------------------

    async def add_character(
        self,
        guild_id: int,
        owner_id: int,
        name: str,
        system: str,
        sheet: dict[str, Any],
        *,
        owner_name: str | None = None,
        npc: bool = False,
    ) -> CharacterRecord:
        name = name.strip()
        row = _named_row(guild_id, name, system, sheet, utcnow(), owner_id=owner_id, owner_name=owner_name, npc=npc)
        return CharacterRecord(
            **await self._insert_named(CH, row, say("a character named {name!r} already exists here", name=name))
        )

    async def get_character(self, guild_id: int, name: str, *, owner_id: int | None = None) -> CharacterRecord | None:
        """The character of that name (the owner's, if given; else the oldest)."""
        found = await self.find_characters(guild_id, name)
        if owner_id is not None:
            found = [r for r in found if r.owner_id == owner_id]
        return found[0] if found else None

    async def find_characters(self, guild_id: int, name: str) -> list[CharacterRecord]:
        """Every character of that name in the campaign (names are unique per owner)."""
        rows = await self._fetch(
            sa.select(CH).where(CH.c.guild_id == guild_id, CH.c.name_key == name_key(name)).order_by(CH.c.id)
        )
        return [CharacterRecord(**row._mapping) for row in rows]

    async def character_by_id(self, guild_id: int, character_id: int) -> CharacterRecord | None:
        if not a_row_id(character_id):
            return None
        rows = await self._fetch(sa.select(CH).where(CH.c.guild_id == guild_id, CH.c.id == character_id))
        return CharacterRecord(**rows[0]._mapping) if rows else None

    async def characters_by_ids(self, ids: Collection[int]) -> list[CharacterRecord]:
        wanted = [i for i in ids if a_row_id(i)]
        if not wanted:
            return []
        rows = await self._fetch(sa.select(CH).where(CH.c.id.in_(wanted)).order_by(CH.c.id))
        return [CharacterRecord(**row._mapping) for row in rows]

    async def set_character_sheet(
        self, guild_id: int, character_id: int, sheet: dict[str, Any], *, lasting: dict[str, Any] | None = None
    ) -> bool:
        """Replace a character's sheet, and its lasting state with it when given."""
        values: dict[str, Any] = {"sheet": sheet} | ({"lasting": lasting} if lasting is not None else {})
        stmt = sa.update(CH).where(CH.c.guild_id == guild_id, CH.c.id == character_id).values(**values)
        return await self._write_count(stmt) > 0

    async def set_character_lasting(self, guild_id: int, character_id: int, lasting: dict[str, Any]) -> bool:
        """Replace a character's lasting state outside a logged change (what the bot keeps there itself)."""
        stmt = sa.update(CH).where(CH.c.guild_id == guild_id, CH.c.id == character_id).values(lasting=lasting)
        return await self._write_count(stmt) > 0

    async def remove_character_id(self, guild_id: int, character_id: int) -> bool:
        stmt = sa.delete(CH).where(CH.c.guild_id == guild_id, CH.c.id == character_id)
        return await self._write_count(stmt) > 0

    async def list_characters(
        self,
        guild_id: int,
        *,
        owner_id: int | None = None,
        prefix: str | None = None,
        limit: int = 25,
        with_kept: bool = False,
    ) -> list[CharacterRecord]:
        """The campaign's characters, or `owner_id`'s (and with `with_kept`, every NPC a GM kept too)."""
        stmt = sa.select(CH).where(CH.c.guild_id == guild_id)
        if owner_id is not None:
            stmt = stmt.where(sa.or_(CH.c.owner_id == owner_id, CH.c.npc) if with_kept else CH.c.owner_id == owner_id)
        if prefix:
            stmt = stmt.where(CH.c.name_key.startswith(name_key(prefix), autoescape=True))
        stmt = stmt.order_by(self._in_code_order(CH.c.name_key), CH.c.id).limit(limit)
        return [CharacterRecord(**row._mapping) for row in await self._fetch(stmt)]

    async def _transaction(self, body: Callable[..., Any], *args: Any) -> Any:
        """``body(sync_connection, *args)`` in one write transaction."""
        if self._writer is not None:
            return await self._writer.run(body, *args)
        async with self._tx.begin() as conn:
            return await conn.run_sync(body, *args)

    async def save_lasting(
        self, lasting: Mapping[int, dict[str, Any]], change: NewChange, campaign_state: dict[str, Any] | None = None
    ) -> None:
        """Set characters' lasting state (and the campaign state), logged as one change."""
        await self._transaction(_write_lasting, dict(lasting), change, campaign_state)

    # -- the between-fight log -------------------------------------------------------

    async def changes(self, guild_id: int, *, limit: int = 100) -> list[ChangeRecord]:
        """Newest first."""
        stmt = sa.select(CC).where(CC.c.guild_id == guild_id).order_by(CC.c.id.desc()).limit(limit)
        return [ChangeRecord(**_read_texts(row._mapping)) for row in await self._fetch(stmt)]

    async def undo_change(
        self, change_id: int, log: NewChange, fit: Fit | None = None, goes_on: Collection[tuple[str, str]] = ()
    ) -> bool:
        """Restore what change ``change_id`` replaced; False if it was undone meanwhile. ``fit`` (a
        character's system, sheet and lasting state → the lasting state to store) fits what is put back
        to each character's sheet as stored now: it may have been edited since. What the campaign state
        holds at each of ``goes_on`` (a key, then a key inside its value) stays as it is now."""

        def body(conn: sa.Connection) -> bool:
            marked = conn.execute(
                sa.update(CC).where(CC.c.id == change_id, CC.c.undone.is_(False)).values(undone=True)
            ).rowcount
            if not marked:
                return False
            before = conn.execute(sa.select(CC.c.before).where(CC.c.id == change_id)).scalar_one()
            lasting = {int(k): v for k, v in (before.get("characters") or {}).items()}
            if fit is not None and lasting:
                rows = conn.execute(sa.select(CH.c.id, CH.c.system, CH.c.sheet, CH.c.npc).where(CH.c.id.in_(lasting)))
                stored = {row.id: row for row in rows}
                lasting = {
                    i: fit(stored[i].system, stored[i].sheet, value, stored[i].npc) if i in stored else value
                    for i, value in lasting.items()
                }
            restored = None
            if before.get("campaign_part") is not None or before.get("campaign") is not None:
                # Only a change that replaced campaign state reads it (an adjustment's undo does not).
                now = conn.execute(sa.select(CT.c.state).where(CT.c.guild_id == log.guild_id)).scalar_one_or_none()
                restored = _campaign_put_back(now, before)
                if restored is not None:
                    restored = _going_on(restored, now, goes_on)
            _write_lasting(conn, lasting, log, restored)
            return True

        return await self._transaction(body)

    # -- the NPC library ---------------------------------------------------------------

    async def add_npc(self, guild_id: int, name: str, system: str, sheet: dict[str, Any], notes: str = "") -> NpcRecord:
        name = name.strip()
        row = _named_row(guild_id, name, system, sheet, utcnow(), notes=notes)
        return NpcRecord(
            **await self._insert_named(NP, row, say("an NPC named {name!r} is already in the library", name=name))
        )

    async def get_npc(self, guild_id: int, name: str) -> NpcRecord | None:
        rows = await self._fetch(sa.select(NP).where(NP.c.guild_id == guild_id, NP.c.name_key == name_key(name)))
        return NpcRecord(**rows[0]._mapping) if rows else None

    async def list_npcs(self, guild_id: int, *, prefix: str | None = None, limit: int = 25) -> list[NpcRecord]:
        stmt = sa.select(NP).where(NP.c.guild_id == guild_id)
        if prefix:
            stmt = stmt.where(NP.c.name_key.contains(name_key(prefix), autoescape=True))
        stmt = stmt.order_by(self._in_code_order(NP.c.name_key)).limit(limit)
        return [NpcRecord(**row._mapping) for row in await self._fetch(stmt)]

    async def remove_npc(self, guild_id: int, name: str) -> str | None:
        """Deletes the stat block `name` names (in any case); the name it was stored under, None if none."""
        stmt = sa.delete(NP).where(NP.c.guild_id == guild_id, NP.c.name_key == name_key(name)).returning(NP.c.name)
        return await self._write_scalar(stmt)

    # -- campaigns bound to channels and categories --------------------------------------

    async def places(self, guild_id: int) -> dict[int, int]:
        """The server's bound places: channel or category id → campaign key."""
        rows = await self._fetch(sa.select(PL.c.place_id, PL.c.campaign_key).where(PL.c.guild_id == guild_id))
        return {int(place): int(key) for place, key in rows}

    async def bind_place(self, guild_id: int, place_id: int, campaign_key: int) -> None:
        stmt = self._upsert(PL).values(place_id=place_id, guild_id=guild_id, campaign_key=campaign_key)
        stmt = stmt.on_conflict_do_update(
            index_elements=[PL.c.place_id], set_={"campaign_key": stmt.excluded.campaign_key}
        )
        await self._transaction(lambda conn: conn.execute(stmt))

    async def unbind_place(self, guild_id: int, place_id: int) -> bool:
        stmt = sa.delete(PL).where(PL.c.guild_id == guild_id, PL.c.place_id == place_id)
        return await self._write_count(stmt) > 0

    # -- a whole campaign at once (export / import) ---------------------------------------

    async def replace_campaign(
        self,
        key: int,
        *,
        system: str,
        settings: dict[str, Any],
        state: dict[str, Any],
        characters: list[dict[str, Any]],
        npcs: list[dict[str, Any]],
        change: NewChange,
        unchanged: Callable[[CampaignRecord | None, list[CharacterRecord], list[NpcRecord]], bool],
    ) -> None:
        """Replace the campaign, its characters and its NPC library in one transaction, which
        first reads what it replaces: unless ``unchanged(campaign, characters, npcs)`` holds,
        it raises CampaignChanged and writes nothing. The campaign keeps its GM role."""
        now = utcnow()

        def body(conn: sa.Connection) -> None:
            # On PostgreSQL the rows read are locked until the end (SQLite's write transaction holds
            # the whole database already): nobody changes them between this check and their deletion.
            rows = conn.execute(sa.select(CT).where(CT.c.guild_id == key).with_for_update()).all()
            campaign = CampaignRecord(**rows[0]._mapping) if rows else None
            had = conn.execute(sa.select(CH).where(CH.c.guild_id == key).with_for_update()).all()
            kept = conn.execute(sa.select(NP).where(NP.c.guild_id == key).with_for_update()).all()
            if not unchanged(
                campaign, [CharacterRecord(**r._mapping) for r in had], [NpcRecord(**r._mapping) for r in kept]
            ):
                raise CampaignChanged(key)
            gm_role_id = campaign.gm_role_id if campaign else None
            conn.execute(sa.delete(CT).where(CT.c.guild_id == key))
            conn.execute(sa.insert(CT).values(_campaign_row(key, system, gm_role_id, settings, state, now)))
            # A row added since the read (PostgreSQL reads committed rows statement by statement) is
            # not locked: it would be deleted unseen, so it counts as a change.
            gone = conn.execute(sa.delete(CH).where(CH.c.guild_id == key).returning(CH.c.id)).scalars().all()
            gone_npcs = conn.execute(sa.delete(NP).where(NP.c.guild_id == key).returning(NP.c.id)).scalars().all()
            if set(gone) != {r.id for r in had} or set(gone_npcs) != {r.id for r in kept}:
                raise CampaignChanged(key)
            for c in characters:
                more = {
                    "owner_id": c["owner_id"],
                    "owner_name": c.get("owner_name"),
                    "lasting": c["lasting"],
                    "npc": c.get("npc", False),
                }
                conn.execute(sa.insert(CH).values(_named_row(key, c["name"], system, c["sheet"], now, **more)))
            for n in npcs:
                row = _named_row(key, n["name"], system, n["sheet"], now, notes=n["notes"])
                conn.execute(sa.insert(NP).values(row))
            conn.execute(sa.insert(CC).values(_change_row(change, now)))

        try:
            await self._transaction(body)
        except IntegrityError as exc:
            raise DuplicateName(say("the file names one character twice for the same player")) from exc

    # -- encounters ----------------------------------------------------------------

    async def get_encounter(self, encounter_id: int) -> EncounterRecord | None:
        if not a_row_id(encounter_id):
            return None
        rows = await self._fetch(_ENCOUNTER_BY_ID, {"eid": encounter_id})
        return EncounterRecord(**rows[0]._mapping) if rows else None

    async def active_encounter(self, channel_id: int) -> EncounterRecord | None:
        rows = await self._fetch(_ACTIVE_IN_CHANNEL, {"channel_id": channel_id})
        return EncounterRecord(**rows[0]._mapping) if rows else None

    async def running_fights(self, key: int) -> list[int]:
        """The channels where a fight of campaign `key` runs (a fight of a server's own campaign stores no key)."""
        of_campaign = sa.or_(EN.c.campaign_key == key, sa.and_(EN.c.campaign_key.is_(None), EN.c.guild_id == key))
        stmt = sa.select(EN.c.channel_id).where(EN.c.status == ACTIVE, of_campaign).order_by(EN.c.id)
        return [int(row.channel_id) for row in await self._fetch(stmt)]

    async def channel_encounter_ids(self, channel_id: int) -> list[int]:
        """Every encounter a channel has had, oldest first (their logs stay readable)."""
        stmt = sa.select(EN.c.id).where(EN.c.channel_id == channel_id).order_by(EN.c.id)
        return [row.id for row in await self._fetch(stmt)]

    async def create_encounter(
        self, guild_id: int, channel_id: int, system: str, state: dict[str, Any], *, campaign_key: int | None = None
    ) -> EncounterRecord:
        now = utcnow()
        stmt = (
            sa.insert(EN)
            .values(
                guild_id=guild_id,
                channel_id=channel_id,
                system=system,
                campaign_key=campaign_key,
                status=ACTIVE,
                state=state,
                version=1,
                reminders_sent=0,
                created_at=now,
                updated_at=now,
            )
            .returning(*EN.c)
        )
        try:
            row = await self._write_row(stmt)
        except IntegrityError as exc:
            raise EncounterExists(f"channel {channel_id} already has an active encounter") from exc
        return EncounterRecord(**row._mapping)

    async def commit(
        self,
        encounter_id: int,
        expected_version: int,
        *,
        state: dict[str, Any] | StoredJSON,
        events: Iterable[NewEvent] = (),
        undo_seqs: Collection[int] = (),
        status: str | None = None,
        meta: Mapping[str, Any] | None = None,
        lasting: Mapping[int, dict[str, Any]] | None = None,
        change: NewChange | None = None,
        campaign_state: dict[str, Any] | None = None,
    ) -> int:
        """Save a new state if the encounter is still at ``expected_version``.

        Appends ``events`` (seq continuing after the current maximum), marks
        ``undo_seqs`` undone and returns the new version. ``lasting`` (character id →
        lasting state) is saved in the same transaction, logged as ``change``. Raises
        VersionConflict, changing nothing, if someone else committed first.
        """
        params: dict[str, Any] = {
            "eid": encounter_id,
            "expected": expected_version,
            "state": state,
            "now": utcnow(),
        }
        if status is not None:
            if status not in STATUSES:
                raise ValueError(f"unknown status {status!r}")
            params["status"] = status
        if meta:
            params.update(_check_meta(meta))
        optional = tuple(sorted(k for k in params if k in _OPTIONAL_SET))
        new_events = list(events)
        if self._dialect == "postgresql" and new_events and not undo_seqs and change is None:
            return await self._commit_in_one_statement(optional, params, new_events)
        update = _commit_statement(optional)
        writer = self._writer
        if writer is not None and not undo_seqs and change is None:
            # The commit of almost every command: see bot.precompiled.
            return await writer.run_direct(
                _direct_commit_body,
                writer.precompiled(update),
                writer.precompiled(_INSERT_EVENT, _EVENT_COLUMNS),
                writer.precompiled(_VERSION_OF),
                params,
                new_events,
            )
        if writer is not None:
            return await writer.run(
                _commit_body, update, params, new_events, undo_seqs, lasting, change, campaign_state
            )
        async with self._tx.begin() as conn:
            return await conn.run_sync(
                _commit_body, update, params, new_events, undo_seqs, lasting, change, campaign_state
            )

    async def _commit_in_one_statement(
        self, optional: tuple[str, ...], params: dict[str, Any], new_events: list[NewEvent]
    ) -> int:
        """The commit of almost every command on PostgreSQL (see ``_one_statement_commit``)."""
        stmt = _one_statement_commit(optional, len(new_events))
        try:
            async with self._single.begin() as conn:
                row = (await conn.execute(stmt, params | _numbered_events(new_events))).first()
        except IntegrityError as exc:
            raise _exists(params["eid"]) from exc
        if row is None:
            current = await self._fetch(_VERSION_OF, {"eid": params["eid"]})
            raise _conflict(params, current[0][0] if current else None)
        return int(row[0])

    async def set_meta(self, encounter_id: int, *, still: Mapping[str, Any] | None = None, **meta: Any) -> bool:
        """Update message ids / reminder fields without bumping the version; with ``still``, only while
        those fields hold those values (a deadline read before a command changed it is not the new one)."""
        if not meta:
            return False
        stmt = sa.update(EN).where(EN.c.id == encounter_id).values(_check_meta(meta))
        for name, value in _check_meta(still or {}).items():
            column = EN.c[name]
            stmt = stmt.where(column.is_(None) if value is None else column == value)
        return await self._write_count(stmt) > 0

    async def announced(self, encounter_id: int, due: str) -> bool:
        """What a change had to post is posted: its ``announce_due`` goes, unless a newer change wrote its own."""
        stmt = sa.update(EN).where(EN.c.id == encounter_id, EN.c.announce_due == due).values(announce_due=None)
        return await self._write_count(stmt) > 0

    async def events(self, encounter_id: int, *, include_undone: bool = True, states: bool = True) -> list[EventRecord]:
        """`states=False`: each `state_before` read as {} (the log's rows, which a long fight's saved
        encounters would make slow to read)."""
        columns = EV.c if states else [c for c in EV.c if c.name != "state_before"]
        stmt = sa.select(*columns).where(EV.c.encounter_id == encounter_id)
        if not include_undone:
            stmt = stmt.where(EV.c.undone.is_(False))
        stmt = stmt.order_by(EV.c.seq)
        return [EventRecord(**{"state_before": {}, **_read_texts(row._mapping)}) for row in await self._fetch(stmt)]

    async def last_events(self, encounter_id: int, n: int, *, undone: bool = False) -> list[EventRecord]:
        """Newest first; ``undone=True`` lists undone events instead (for redo)."""
        stmt = (
            sa.select(EV)
            .where(EV.c.encounter_id == encounter_id, EV.c.undone.is_(undone))
            .order_by(EV.c.seq.desc())
            .limit(n)
        )
        return [EventRecord(**_read_texts(row._mapping)) for row in await self._fetch(stmt)]

    async def due_encounters(
        self, now: datetime, *, shards: tuple[int, Collection[int]] | None = None, limit: int = 100
    ) -> list[EncounterRecord]:
        """Active encounters with a reminder or pending deadline at or before ``now``,
        earliest first. ``shards`` (the shard count, this process's shard ids) restricts to
        the servers of this process's shards, by Discord's rule: (server id >> 22) % count.
        By the rule, not by a list of the servers: one process may serve tens of thousands,
        past the arguments one query may carry (PostgreSQL's 32,767)."""
        _require_aware(now, "now")
        stmt = sa.select(EN).where(
            EN.c.status == ACTIVE,
            sa.or_(EN.c.reminder_due <= now, EN.c.pending_deadline <= now),
        )
        if shards is not None:
            if not shards[1]:
                return []
            stmt = stmt.where(_in_shards(shards))
        stmt = stmt.order_by(_NEXT_DUE, EN.c.id).limit(limit)
        return [EncounterRecord(**row._mapping) for row in await self._fetch(stmt)]

    async def unannounced(
        self, changed_by: datetime, *, shards: tuple[int, Collection[int]] | None = None, limit: int = 100
    ) -> list[EncounterRecord]:
        """Active encounters whose turn ping or choice is not yet posted (``announce_due``) though their last
        change was saved by ``changed_by``, by id; ``shards`` as for ``due_encounters``."""
        _require_aware(changed_by, "changed_by")
        stmt = sa.select(EN).where(EN.c.announce_due.is_not(None), EN.c.status == ACTIVE, EN.c.updated_at <= changed_by)
        if shards is not None:
            if not shards[1]:
                return []
            stmt = stmt.where(_in_shards(shards))
        stmt = stmt.order_by(EN.c.id).limit(limit)
        return [EncounterRecord(**row._mapping) for row in await self._fetch(stmt)]


def _in_shards(shards: tuple[int, Collection[int]]) -> sa.ColumnElement[bool]:
    """The encounter's server is on one of these shards (the shard count, the shard ids), by Discord's rule."""
    count, ids = shards
    # PostgreSQL shifts a bigint by an integer only.
    shard = EN.c.guild_id.op(">>")(sa.literal(22, sa.Integer)) % count
    return shard.in_(sorted(ids))
