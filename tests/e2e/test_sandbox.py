"""The offline sandbox: `python -m bot sandbox` runs real commands and prints them."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """\
# a tiny fight
gm: /encounter start
gm: /initiative add name:Zombie count:2
bob: /initiative next
gm: /initiative next
gm: click "End turn"
"""


def run_sandbox(script: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bot", "sandbox", "--seed", "7", *extra, str(script)],
        cwd=script.parent,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(script.parent)},
    )


def test_the_same_seed_and_script_print_the_same_transcript(tmp_path):
    script = tmp_path / "fight.txt"
    script.write_text(SCRIPT)
    first = run_sandbox(script, "--system", "rotted-capes")
    second = run_sandbox(script, "--system", "rotted-capes")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    out = first.stdout
    assert "gm: /initiative next" in out and "@gm" in out and "[End turn]" in out
    assert "(only bob sees this)" in out or "only bob" in out


def test_without_a_token_python_m_bot_explains_and_starts_the_sandbox(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=tmp_path,
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)},
    )
    assert result.returncode == 0
    assert "DISCORD_TOKEN" in result.stderr and "sandbox" in result.stderr
    assert "Turnkeeper sandbox" in result.stdout
