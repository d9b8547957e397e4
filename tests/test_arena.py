"""The arena: seat-rotated games on the lab's runner, ranks, ratings with openskill, a
table, the lab's report, JSON and HTML, --out and --resume."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import UsageError, load_edition
from kittens.lab.arena import play_one, ranks, run_arena, seating, wilson
from kittens.lab.rulesets import Ruleset
from kittens.lab.runner import Job, prepare, run_job

pytest.importorskip("openskill")  # kittens-engine[rl]; the test extra installs it


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


def test_the_better_bot_is_rated_higher_and_workers_do_not_change_the_report():
    one = run_arena(Ruleset("original"), 4, ["heuristic", "random"], games=48, seed=3, workers=1)
    two = run_arena(Ruleset("original"), 4, ["heuristic", "random"], games=48, seed=3, workers=2)
    assert one.rows() == two.rows() and one.summary == two.summary
    assert two.meta["workers"] == 2 and two.meta["played"] == 48
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
    # the lab's report of the same games comes with the ratings
    assert report["summary"]["games"] == 6 and report["meta"]["deal_per_rotation"] is True
    assert {bot["bot"] for bot in report["summary"]["bots"]} == {row["bot"] for row in report["table"]}
    assert "Who wins" in text.stdout and "Skill" in text.stdout
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
    from kittens.interpreter.engine.players import make_players
    from kittens.interpreter.engine.simulate import play_game

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


def test_the_lab_runner_deals_the_arenas_games():
    """Game i of the arena's lab job is play_one's game i: one deal per rotation block,
    the line-up turned i seats, whichever worker plays it."""
    specs = ["heuristic", "random"]
    job, digests = prepare(Job((Ruleset("original"),), 3, tuple(specs), seed=7, games=12, rotate=True,
                               deal_per_rotation=True))
    lines = []
    run_job(job, digests, workers=1, on_lines=lines.append)
    records = {}
    for chunk in lines:
        for line in chunk.splitlines():
            record = json.loads(line)
            records[record["i"]] = record["r"][0]
    game = Game(load_edition("original"), 3)
    assert sorted(records) == list(range(12))
    for index, record in records.items():
        mine = play_one(game, specs, index, 7)
        assert (record["b"], record["w"], record["t"]) == (mine["bots"], mine["winners"], mine["turns"])


def test_an_arena_series_resumed_from_its_out_file_is_the_whole_series(tmp_path):
    """Stopped after 8 games and resumed to 20: the same ratings and report as 20 at once,
    the first 8 read back, not played again."""
    out = str(tmp_path / "arena.jsonl")
    specs = ["heuristic", "random", "random"]
    first = run_arena(Ruleset("original"), 3, specs, games=8, seed=2, out=out)
    assert first.games == 8
    resumed = run_arena(Ruleset("original"), 3, specs, games=20, seed=2, out=out, resume=True)
    whole = run_arena(Ruleset("original"), 3, specs, games=20, seed=2)
    assert resumed.meta["resumed"] == 8 and resumed.meta["played"] == 12
    assert resumed.rows() == whole.rows() and resumed.summary == whole.summary
    # a lab file of other games is not taken for the arena's
    other = str(tmp_path / "lab.jsonl")
    job, digests = prepare(Job((Ruleset("original"),), 3, tuple(specs), seed=2, games=4))
    run_job(job, digests, out=other)
    with pytest.raises(UsageError, match="deal_per_rotation"):
        run_arena(Ruleset("original"), 3, specs, games=8, seed=2, out=other, resume=True)


def test_the_arena_command_writes_the_report_page_and_resumes(tmp_path):
    page, out = tmp_path / "arena.html", tmp_path / "games.jsonl"
    base = [sys.executable, "-m", "kittens", "arena", "-p", "3", "--bots", "heuristic,random", "-g", "9",
            "--out", str(out)]
    done = subprocess.run(base + ["--report", str(page)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"report written to {page}" in done.stdout
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and "Ratings (openskill Plackett-Luce)" in text
    assert text.count("<img") >= 3 and "heuristic" in text and "Who wins" in text
    again = subprocess.run(base[:-3] + ["12", "--out", str(out), "--resume", "--format", "json"],
                           capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    report = json.loads(again.stdout)
    assert report["games"] == 12 and report["meta"]["resumed"] == 9 and report["meta"]["played"] == 3
    missing = subprocess.run(base[:-2] + ["--resume"], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "--resume continues an --out file" in missing.stderr


def test_ctrl_c_rates_the_finished_games_and_resume_rates_them_all(tmp_path):
    """A terminal's Ctrl-C in a long series: exit 130 with the ratings of the games kept in
    the --out file; --resume then plays the rest, and rates exactly as one whole run."""
    import os
    import signal
    import time

    out = tmp_path / "arena.jsonl"
    command = [sys.executable, "-m", "kittens", "arena", "-p", "3", "--bots", "heuristic,random",
               "-g", "100000", "-j", "2", "--out", str(out), "--format", "json"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and (not out.exists() or out.stat().st_size < 20_000):
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    report = json.loads(stdout)
    kept = report["meta"]["games"]
    assert report["interrupted"] and 0 < kept < 100000 and report["games"] == kept
    assert sum(row["seats_played"] for row in report["table"]) == 3 * kept
    indexes = [json.loads(line)["i"] for line in out.read_bytes().splitlines()[1:]]
    assert sorted(set(indexes)) == sorted(indexes) and len(indexes) == kept
    target = max(indexes) + 31
    resumed = subprocess.run(command[:8] + ["-g", str(target), "-j", "1", "--out", str(out), "--resume",
                                            "--format", "json"], capture_output=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr.decode()
    again = json.loads(resumed.stdout)
    whole = run_arena(Ruleset("original"), 3, ["heuristic", "random"], games=target, seed=0)
    assert again["meta"]["resumed"] == kept and again["games"] == target
    assert again["table"] == whole.rows()
