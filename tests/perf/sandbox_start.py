"""How long `python -m bot sandbox` takes to reach its first prompt.

    python tests/perf/sandbox_start.py [runs]

Prints each run and the median; the target is under 2 seconds.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def one_run(workdir: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("DISCORD_TOKEN", None)
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox"],
        cwd=workdir,
        env=env,
        text=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    seen = ""
    while not seen.endswith("> "):
        char = proc.stdout.read(1)
        if not char:
            raise SystemExit("the sandbox exited before its prompt")
        seen += char
    elapsed = time.perf_counter() - start
    proc.communicate("quit\n", timeout=30)
    return elapsed


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    with tempfile.TemporaryDirectory() as workdir:
        times = [one_run(workdir) for _ in range(runs)]
    for number, seconds in enumerate(times, 1):
        print(f"run {number}: {seconds:.2f} s to the first prompt")
    print(f"median: {statistics.median(times):.2f} s (target < 2 s)")


if __name__ == "__main__":
    main()
