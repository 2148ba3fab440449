"""A precompiled statement writes exactly the row SQLAlchemy writes from the same values."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from bot.db import StoredJSON, configure_sqlite, to_json
from bot.precompiled import Precompiled
from bot.repository import _EVENT_COLUMNS, _INSERT_EVENT, _VERSION_OF, Repository, _commit_statement
from bot.tables import Encounter, Event

GUILD = 1_234_567_890_123_456_789
BIG = 2**63 - 1
NOW = datetime(2026, 11, 27, 21, 30, 5, 123456, tzinfo=UTC)

EN = Encounter.__table__
EV = Event.__table__


@pytest.fixture
def sqlite_engine(migrated_database_url: str):
    if not migrated_database_url.startswith("sqlite"):
        pytest.skip("precompiled statements run on SQLite's own connection")
    engine = sa.create_engine(sa.make_url(migrated_database_url).set(drivername="sqlite"), json_serializer=to_json)
    configure_sqlite(engine)
    yield engine
    engine.dispose()


def rows(conn: sa.Connection, table: sa.Table, leave_out: set[str]) -> list[dict]:
    found = conn.execute(sa.text(f"SELECT * FROM {table.name} ORDER BY id")).mappings().all()
    return [{k: v for k, v in row.items() if k not in leave_out} for row in found]


@pytest.mark.parametrize(
    ("state", "optional"),
    [
        ({"round": 2, "names": ["Ænid", "\u202eevil"]}, {}),
        (
            StoredJSON('{"round":3,"hp":[1,2]}'),
            {
                "status": "ended",
                "reminder_due": NOW + timedelta(minutes=5),
                "pending_deadline": None,
                "reminders_sent": 2,
                "tracker_message_id": BIG,
                "turn_message_id": None,
            },
        ),
    ],
)
async def test_a_commit_writes_the_same_encounter_and_event_rows_as_sqlalchemy(
    repo: Repository, sqlite_engine: sa.Engine, state, optional
) -> None:
    mine = await repo.create_encounter(GUILD, 1, "rotted-capes", {"round": 1})
    theirs = await repo.create_encounter(GUILD, 2, "rotted-capes", {"round": 1})
    update = _commit_statement(tuple(sorted(optional)))
    event = {
        "seq": 1,
        "user_id": BIG,
        "command": '{"p":"attack"}',
        "summary": "Brute hits",
        "state_before": StoredJSON('{"round":1}'),
        "undone": False,
        "created_at": NOW,
    }

    def values(encounter_id: int) -> dict:
        return {"eid": encounter_id, "expected": 1, "state": state, "now": NOW, **optional}

    with sqlite_engine.begin() as conn:
        assert conn.execute(update, values(theirs.id)).one() == (2, 0)
        conn.execute(_INSERT_EVENT, [{**event, "encounter_id": theirs.id}])
    with sqlite_engine.begin() as conn:
        db = conn.connection.dbapi_connection
        assert Precompiled.of(update, sqlite_engine.dialect).execute(db, values(mine.id)).fetchone() == (2, 0)
        insert = Precompiled.of(_INSERT_EVENT, sqlite_engine.dialect, _EVENT_COLUMNS)
        insert.execute_many(db, [{**event, "encounter_id": mine.id}])

    with sqlite_engine.connect() as conn:
        encounters = rows(conn, EN, {"id", "channel_id", "created_at"})
        events = rows(conn, EV, {"id", "encounter_id"})
    assert encounters[0] == encounters[1]
    assert encounters[0]["version"] == 2 and encounters[0]["updated_at"] == NOW.strftime("%Y-%m-%d %H:%M:%S.%f")
    assert events[0] == events[1]
    # Read back through the repository, both are what was saved.
    for record in (await repo.get_encounter(mine.id), await repo.get_encounter(theirs.id)):
        assert record.state == (state if isinstance(state, dict) else {"round": 3, "hp": [1, 2]})
        assert record.reminder_due == optional.get("reminder_due")
    assert [e.state_before for e in await repo.events(mine.id)] == [{"round": 1}]


def test_a_statement_s_own_values_are_kept_and_a_missing_parameter_is_refused(sqlite_engine: sa.Engine) -> None:
    update = Precompiled.of(_commit_statement(()), sqlite_engine.dialect)
    assert update.names.count("eid") == 2  # the WHERE and the RETURNING's subquery
    assert sorted(update.constants.values()) == [0, 1]  # version + 1, coalesce(max(seq), 0)
    with pytest.raises(KeyError):
        update.parameters({"eid": 1, "expected": 1, "state": {}})  # no "now"
    version_of = Precompiled.of(_VERSION_OF, sqlite_engine.dialect)
    assert version_of.parameters({"eid": 7}) == [7]
