"""The benchmark, small: every section runs to its end (its figures are not judged here,
the machine running the tests is shared). Interaction tokens last 1 s, so the trackers are
posted afresh within the run, as they are ten minutes into a full one."""

from __future__ import annotations

import os

import pytest

from .bench import arguments, bench

SMALL = (
    "--samples 2 --batches 1 --load-channels 5 --skip-budget --token-seconds 1 "
    "--encounters 40 --characters 10 --startups 1 --scale-commands 10"
)


async def test_a_small_benchmark_runs_to_the_end(capsys, monkeypatch):
    if os.environ.get("TEST_DATABASE_URL", "").strip():
        pytest.skip("the benchmark measures its own SQLite files")
    # Its throughput batch is 200 commands at once: on a busy test machine some would wait past the
    # usual second in line and be answered "busy". Here every one must be carried out.
    monkeypatch.setenv("BUSY_AFTER_SECONDS", "60")
    assert await bench(arguments(SMALL.split())) == 0
    printed = capsys.readouterr().out
    for section in ("Latency:", "Throughput:", "Rules core alone", "Database floor", "Scale:", "Targets"):
        assert f"== {section}" in printed, printed
    assert "failed commands: 0 of" in printed, printed
