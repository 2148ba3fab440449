from __future__ import annotations

from bot import stages
from bot.stages import Arrivals, Stages, clock


def test_each_stage_counts_its_runs_and_keeps_a_bounded_sample(monkeypatch) -> None:
    monkeypatch.setattr(stages, "SAMPLES", 10)
    clock_ = Stages()
    for _ in range(25):
        clock_.add("save", clock() - 0.002)
    report = clock_.report()["save"]
    assert report["count"] == 25
    assert len(report["samples"]) == 10
    assert all(s >= 0.002 for s in report["samples"])
    assert report["total"] >= 25 * 0.002
    clock_.reset()
    assert clock_.report()["save"]["count"] == 0


class Connection:
    def __init__(self) -> None:
        self.parsed: list[dict] = []
        self.parsers = {"INTERACTION_CREATE": self.parsed.append}


def test_a_slash_commands_arrival_is_stamped_before_discord_py_parses_it() -> None:
    connection = Connection()
    arrivals = Arrivals(connection)
    before = clock()
    connection.parsers["INTERACTION_CREATE"]({"id": "17", "type": 2})
    connection.parsers["INTERACTION_CREATE"]({"id": "18", "type": 3})  # a button: no command tree check follows
    assert [d["id"] for d in connection.parsed] == ["17", "18"]
    stamped = arrivals.pop(17)
    assert stamped is not None and stamped >= before
    assert arrivals.pop(17) is None and arrivals.pop(18) is None
