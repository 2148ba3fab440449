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


# A plain `pip install turnkeeper` has neither of the test extra's schema libraries, and no tests/ folder:
# the child makes both so, then runs `python -m bot` with the arguments it is given.
WITHOUT_TEST_EXTRA = """
import os, sys

class Absent:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in ("jsonschema", "referencing"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Absent())
TESTS = os.path.join(sys.argv.pop(1), "")

def no_tests(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        if os.path.abspath(os.fsdecode(args[0])).startswith(TESTS):
            raise PermissionError(f"a plain install has no {args[0]}")

sys.addaudithook(no_tests)
from bot.__main__ import main
sys.exit(main(sys.argv[1:]))
"""


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


def test_the_same_seed_replays_the_same_free_rolls(tmp_path):
    # /roll is rolled by the bot too: with a fixed seed its dice replay like a fight's, and each roll is new.
    script = tmp_path / "rolls.txt"
    script.write_text('alice: /roll expression:"10d20"\nbob: /roll expression:"10d20"\n')
    first = run_sandbox(script)
    second = run_sandbox(script)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    rolls = [line.partition("`10d20`: ")[2] for line in first.stdout.splitlines() if "rolls `10d20`" in line]
    assert len(rolls) == 2 and rolls[0] != rolls[1], first.stdout


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


def test_the_sandbox_runs_without_the_test_extra_or_the_tests_folder(tmp_path):
    script = tmp_path / "fight.txt"
    script.write_text(SCRIPT)
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            WITHOUT_TEST_EXTRA,
            str(ROOT / "tests"),
            "sandbox",
            "--system",
            "rotted-capes",
            str(script),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    assert "gm: /initiative next" in result.stdout and "[End turn]" in result.stdout


FORM_SCRIPT = """\
gm: /campaign setup system:factions
alice: /character add name:Nova
alice: submit "Attributes=str=lots"
alice: click "Fix the form"
alice: submit "Attributes=str=12" "Size and weapons=weapons='sword:d6, dagger:d4'"
alice: /character show name:Nova
bob: submit "Attributes=str=3"
"""


def test_a_form_is_shown_as_its_fields_and_submitted_by_label(tmp_path):
    script = tmp_path / "forms.txt"
    script.write_text(FORM_SCRIPT)
    result = run_sandbox(script)
    out = result.stdout
    assert '(only alice sees this form) [form: "Sheet of Nova"]' in out
    assert "  | Attributes:\n  |   str=10\n  |   agi=10\n  |   wit=10\n  | Health and armour:" in out
    assert "⛔ Attributes: Stat `str`" in out and "[Fix the form]" in out
    reopened = out.split('alice: click "Fix the form"')[1]
    assert "  |   str=lots\n  |   agi=10" in reopened
    assert "**Nova** is stored for @alice" in out
    assert "`str` = 12" in out and "`weapons` = sword:d6, dagger:d4" in out
    assert "!! line 7: no form was shown to bob" in out
    assert result.returncode == 1
