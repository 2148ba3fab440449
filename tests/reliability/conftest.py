"""Fixtures of the reliability tests (the closing figures CI prints are the root conftest's)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from sqlalchemy.engine import make_url

from tests.helpers import pg_execute

from .support import ErrorLog


@pytest.fixture
def errors():
    """ERROR log records while the test runs; tests assert there are none."""
    log = ErrorLog()
    with log.installed():
        yield log


@pytest.fixture(scope="module")
def module_database_url(tmp_path_factory):
    """Like ``database_url``, for one bot shared by a whole module: a SQLite file,
    or a PostgreSQL database of its own when TEST_DATABASE_URL is set."""
    server = os.environ.get("TEST_DATABASE_URL", "").strip()
    if not server:
        yield f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('db') / 'turnkeeper.db'}"
        return
    name = f"tk_reliability_{uuid.uuid4().hex[:12]}"
    asyncio.run(pg_execute(server, f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(pg_execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
