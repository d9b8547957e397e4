"""Golden transcripts: seeded bot games whose every event is committed.

Each ``tests/golden/*.jsonl`` is a log written by ``kittens run --log``. The
same edition, seed and bots must produce it again byte for byte, and
``kittens replay`` must verify it. A difference means the engine or the
shipped rules now play differently: if that is intended, run
``tests/golden/regenerate.sh`` and review the diff.
"""

import io
import json

import pytest
from conftest import ROOT
from typer.testing import CliRunner

from kittens.cli import app
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.simulate import run_games
from kittens.interpreter.rules.load import load_edition

GOLDEN = sorted((ROOT / "tests" / "golden").glob("*.jsonl"))


def test_there_are_golden_games():
    assert len(GOLDEN) >= 3


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_same_seed_plays_the_same_game(path):
    committed = path.read_text(encoding="utf-8")
    header = json.loads(committed.splitlines()[0])
    edition = load_edition(str(path.parent / header["edition"]), header["variant"])
    out = io.StringIO()
    run_games(Game(edition, header["players"]), games=1, seed=header["seed"],
              bots=header["bots"], log=out, header={"edition": header["edition"]})
    produced = out.getvalue()
    if produced != committed:
        for number, (want, got) in enumerate(zip(committed.splitlines(), produced.splitlines()), 1):
            assert want == got, (f"{path.name}:{number} differs; if the change is intended, run "
                                 f"tests/golden/regenerate.sh\n  golden:   {want}\n  now:      {got}")
        assert produced == committed, f"{path.name}: the game has a different length now"


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_golden_game_replays(path):
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "1 of 1 game(s) replayed identically" in result.output
