"""The arena: seat-rotated games, ranks, ratings with openskill, a table and JSON."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections import Counter

import pytest

from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.tools.arena import ranks, run_arena, seating, wilson

pytest.importorskip("openskill")  # kittens[rl]; the test extra installs it


def test_every_bot_sits_in_every_seat_of_a_deal():
    specs = ["ismcts", "heuristic", "random"]
    block = [seating(specs, 4, index, 10) for index in range(4)]
    assert {seed for seed, _bots in block} == {10}  # one deal per block of rotations
    for seat in range(4):
        assert Counter(bots[seat] for _seed, bots in block) == Counter(["ismcts", "heuristic", "random", "ismcts"])
    assert seating(specs, 4, 4, 10)[0] == 11


def test_ranks_put_winners_first_then_the_last_to_go_out():
    assert ranks(4, [2], [0, 3, 1]) == [4, 2, 1, 3]
    assert ranks(4, [0, 2], [1, 3]) == [1, 3, 1, 2]  # a team wins together
    assert ranks(3, [], [1]) == [1, 2, 1]  # stopped at a limit: who stayed in shares the top


def test_wilson_intervals_hold_the_rate():
    low, high = wilson(40, 100)
    assert low < 0.4 < high and 0.30 < low and high < 0.50
    assert wilson(0, 10)[0] == 0.0 and wilson(0, 0) == (0.0, 1.0)


def test_the_better_bot_is_rated_higher_and_jobs_do_not_change_the_report():
    load = functools.partial(load_edition, "original")
    one = run_arena(load, 4, ["heuristic", "random"], games=48, seed=3, jobs=1)
    two = run_arena(load, 4, ["heuristic", "random"], games=48, seed=3, jobs=2)
    assert one.rows() == two.rows()
    best, worst = one.rows()
    assert best["bot"] == "heuristic" and best["ordinal"] > worst["ordinal"]
    assert best["wins"] + worst["wins"] == 48 - one.no_winner
    assert best["seats_played"] == worst["seats_played"] == 96


def test_the_arena_command_prints_a_table_and_json():
    base = [sys.executable, "-m", "kittens", "arena", "-p", "3", "--bots",
            "ismcts:iterations=2:rollout=random,heuristic,random", "-g", "6"]
    text = subprocess.run(base, capture_output=True, text=True, timeout=600)
    assert text.returncode == 0, text.stderr
    assert "win rate" in text.stdout and "ismcts:iterations=2:rollout=random" in text.stdout
    done = subprocess.run(base + ["--format", "json"], capture_output=True, text=True, timeout=600)
    report = json.loads(done.stdout)
    assert report["games"] == 6 and len(report["table"]) == 3
    assert sum(row["seats_played"] for row in report["table"]) == 18
    for row in report["table"]:
        low, high = row["win_rate_95"]
        assert low <= row["win_rate"] <= high and row["mu_95"][0] < row["mu"] < row["mu_95"][1]


def test_the_arena_command_reports_errors_as_json_too():
    for args, code in ((["no_such_edition"], 2), (["-p", "11"], 2), (["--bots", "genius"], 2)):
        done = subprocess.run([sys.executable, "-m", "kittens", "arena", *args, "--format", "json"],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == code
        error = json.loads(done.stdout)
        assert error["code"] == code and error["error"]


def test_an_arena_game_is_the_game_play_game_plays_with_its_ranks_from_the_events():
    """The arena plays through the lab's loop (no events recorded); the winners, turns and
    the order seats went out must be those of the same game played and recorded."""
    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.engine.players import make_players
    from kittens.interpreter.engine.simulate import play_game
    from kittens.interpreter.tools.arena import play_one

    game = Game(load_edition("imploding"), 4)
    specs = ["ismcts:iterations=2:rollout=random", "heuristic", "random"]
    for index in range(8):
        found = play_one(game, specs, index, 5)
        seed, bots = seating(specs, 4, index, 5)
        state = play_game(game, seed, make_players(bots, 4, seed), record=True)
        out = [event["seat"] for event in state.events if event["type"] == "out"]
        assert (found["seed"], found["bots"]) == (seed, bots)
        assert found["winners"] == list(state.winners) and found["turns"] == state.table.turn
        assert found["ranks"] == ranks(4, list(state.winners), out)
