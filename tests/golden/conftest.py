from __future__ import annotations

import pytest

from .runs import Runs


@pytest.fixture(scope="session")
def golden_runs() -> Runs:
    """Each golden script's run, shared by every test that reads it (see `runs`)."""
    return Runs()
