"""What a seat knows is true to the physical game, for every move any rule file makes
(issue 41): checked at every move of seeded games of every shipped edition, its
variants and every example (tests/knowledge_check.py says how).

The checks wrap ``Table.move``, which only the pure-Python core allows. On the
compiled core (CI installs it) they run in a subprocess on the checkout's sources;
the compiled core makes the same moves with the same knowledge, card for card
(tests/test_fast_paths.py and tests/test_compiled_core.py check that).

``KITTENS_FUZZ_SCALE`` multiplies the number of games (default 1).
"""

import os
import subprocess
import sys

import knowledge_check
import pytest
from conftest import ROOT

from kittens.about import engine_core
from kittens.interpreter.engine.table import Table

GAMES = max(1, int(8 * float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))))


def _checked(tmp_path, *args: str) -> tuple[int, str]:
    """knowledge_check's exit code and report for these arguments, on the pure-Python core."""
    if engine_core() == "python":
        plain = Table._left_hand
        try:
            code = _in_process(list(args))
        finally:
            Table._left_hand = plain
        return code
    sources = tmp_path / "pure"
    sources.mkdir()
    (sources / "kittens").symlink_to(ROOT, target_is_directory=True)  # the checkout: sources only
    env = {**os.environ, "PYTHONPATH": str(sources)}
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "knowledge_check.py"), *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=900)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, done.stdout


def _in_process(args: list) -> tuple[int, str]:
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = knowledge_check.main(args)
    return code, out.getvalue()


@pytest.mark.parametrize("rules", ["editions/", "examples/"])
def test_no_move_tells_a_seat_what_it_could_not_see_nor_forgets_what_it_saw(tmp_path, rules):
    """Twin moves (the same move of another hidden card of the hand) leave every other seat
    the same knowledge and event text; givers, receivers and onlookers forget nothing
    they could still know."""
    code, report = _checked(tmp_path, str(GAMES), "--under", rules)
    assert code == 0, report
    compared = int(report.split("twin moves compared: ")[1].split()[0])
    assert compared > 500, report  # the games did move hidden cards between hands


@pytest.mark.parametrize("plant, found", [
    ("known-to-all", "twin moves told apart"),
    ("forgetful-receiver", "the receiver forgot the giver's other cards"),
])
def test_the_checks_find_the_leaks_of_before(tmp_path, plant, found):
    """The two faults issue 41 reported, planted again, are found within a few games of the
    Original."""
    code, report = _checked(tmp_path, "3", "--only", "original", "--plant", plant)
    assert code == 1 and found in report, report
