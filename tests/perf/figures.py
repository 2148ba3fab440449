"""Small statistics and the printed report."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field


def median(values: list[float]) -> float:
    return statistics.median(values)


def p99(values: list[float]) -> float:
    """Nearest-rank 99th percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


@dataclass
class Target:
    what: str
    figure: str
    met: bool


@dataclass
class Report:
    targets: list[Target] = field(default_factory=list)

    def section(self, title: str) -> None:
        print(f"\n== {title} ==", flush=True)

    def line(self, text: str) -> None:
        print(text, flush=True)

    def target(self, what: str, figure: str, met: bool) -> None:
        self.targets.append(Target(what, figure, met))

    def summary(self) -> None:
        self.section("Targets (issue 10)")
        width = max(len(t.what) for t in self.targets)
        for t in self.targets:
            self.line(f"{'met ' if t.met else 'MISS'}  {t.what:<{width}}  {t.figure}")
