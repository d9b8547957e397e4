"""The rl extra keeps the plain install light: the engine, the players and the command
line never import the ecosystems' libraries, and the adapters that need them say which
extra to install when they are missing."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("numpy", "pettingzoo", "gymnasium", "pyspiel", "open_spiel", "openskill")


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_playing_with_a_search_player_imports_none_of_the_rl_libraries():
    done = _run(
        "import sys\n"
        "from kittens import Game, load_edition\n"
        "from kittens.interpreter.engine.players import make_players\n"
        "from kittens.interpreter.engine.simulate import play_game\n"
        "from kittens.cli import app\n"
        "game = Game(load_edition('original'), 3)\n"
        "play_game(game, 1, make_players(['ismcts:iterations=2', 'heuristic'], 3, 1), record=False)\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_adapters_name_the_extra_when_a_library_is_missing():
    for module, missing in (("kittens.env", "pettingzoo"), ("kittens.openspiel", "pyspiel"),
                            ("kittens.env", "numpy")):
        done = _run(f"import sys; sys.modules[{missing!r}] = None; import {module}")
        assert done.returncode != 0
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("ImportError") and "pip install 'kittens-engine[rl]'" in last and missing in last, last
