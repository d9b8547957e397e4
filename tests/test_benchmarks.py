"""The benchmark scripts that docs/speed.md's figures come from still work.

They are scripts, not tests (a real run takes minutes to hours); these run them
on a tiny budget to check what their figures depend on: a strength run that is
stopped and started again plays each game once, and reports on all of them.
"""

from __future__ import annotations

import importlib.util
import json

from conftest import ROOT


def _script(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_strength_run_resumes_from_its_results_file(tmp_path, capsys):
    strength = _script("strength")
    results = tmp_path / "games.jsonl"
    common = ["-g", "3", "--only", "original-random", "--bot", "ismcts:iterations=1", "--jobs", "1",
              "--no-times", "--json", "--results", str(results)]
    assert strength.main([*common, "--last", "1"]) == 0
    first = json.loads(capsys.readouterr().out)["matchups"][0]
    assert first["games"] == 1 and len(results.read_text().splitlines()) == 1
    with results.open("a") as out:
        out.write('{"matchup": "original-random", "cut sho')  # a line a kill cut short
    assert strength.main(common) == 0  # plays games 1 and 2 only
    report = json.loads(capsys.readouterr().out)["matchups"][0]
    rows = [json.loads(line) for line in results.read_text().splitlines()[:1] + results.read_text().splitlines()[2:]]
    assert sorted(row["index"] for row in rows) == [0, 1, 2]
    assert report["games"] == 3 and report["wins"] == sum(row["won"] for row in rows)
    by_index = {row["index"]: row["won"] for row in rows}  # game i seats the searcher at i % 4
    assert report["won_by_seat"] == [float(by_index[0]), float(by_index[1]), float(by_index[2]), None]
    assert all(row["bot"] == "ismcts:iterations=1" and "commit" in row for row in rows)
    assert all(row["settings"]["iterations"] == 1 and row["settings"]["bot"] == "ismcts" for row in rows)
    # a third run has nothing left to play and reports the same
    assert strength.main(common) == 0
    again = json.loads(capsys.readouterr().out)["matchups"][0]
    assert (again["games"], again["wins"], again["played_now"]) == (3, report["wins"], 0)
    assert (first["played_now"], report["played_now"]) == (1, 2)
    assert len(results.read_text().splitlines()) == 4


def test_stored_games_are_found_by_the_player_that_played_them_not_by_its_spelling(tmp_path, monkeypatch, capsys):
    """A spec's games are those its settings played, defaults included: a default that
    changes must not make old games count as the new player's (nor hide them from a
    spec that spells the old settings out)."""
    strength = _script("strength")
    monkeypatch.setattr(strength, "LEGACY_DEFAULTS", {"ismcts": {"share": 0.5}})
    strength._settings.cache_clear()
    results = tmp_path / "games.jsonl"
    today = json.loads(strength._settings("ismcts:search=pimc"))
    lines = [  # before lines recorded their settings, "search=pimc" meant share=0.5 (as patched above)
        {"matchup": "original-random", "bot": "ismcts:search=pimc", "seed": 0, "index": 0, "won": True, "times": []},
        # written by today's run: its settings are in the line
        {"matchup": "original-random", "bot": "ismcts:search=pimc", "seed": 0, "index": 1, "won": False, "times": [],
         "settings": today},
        {"matchup": "original-random", "bot": "heuristic", "seed": 0, "index": 0, "won": False, "times": []}]
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))

    def found(spec):
        return sorted(strength.load_results(str(results), "original-random", spec, 0))
    assert found("ismcts:search=pimc") == [1]
    assert found("ismcts:search=pimc:share=0.5") == [0]
    assert found(f"ismcts:search=pimc:share={today['share']}:race={today['race']}") == [1]  # spelled out
    assert found(f"ismcts:search=pimc:confidence={int(today['confidence'])}") == [1]  # 2 and 2.0 alike
    assert found("ismcts:search=paired") == [] and found("heuristic") == [0]
    # --report-only reports the games stored and plays none, even where games are missing
    before = results.read_text()
    assert strength.main(["--report-only", "--no-times", "--json", "-g", "4", "--only", "original-random",
                          "--bot", "ismcts:search=pimc:share=0.5", "--results", str(results)]) == 0
    assert results.read_text() == before
    report = json.loads(capsys.readouterr().out)["matchups"][0]
    assert (report["games"], report["wins"], report["played_now"]) == (1, 1, 0)
    strength._settings.cache_clear()


def test_the_same_run_gives_the_same_fingerprint(capsys):
    fingerprint = _script("fingerprint")
    from kittens.interpreter.rules.load import load_edition

    edition = load_edition("original")
    once = fingerprint.fingerprint(edition, 4, 3, ["heuristic", "random"])
    assert fingerprint.fingerprint(edition, 4, 3, ["heuristic", "random"]) == once
    assert fingerprint.fingerprint(edition, 4, 3, ["random"]) != once


def test_log_parts_times_each_part_and_writes_what_a_log_holds(tmp_path):
    """The parts log_parts.py times are those of a logged game: the file it writes
    holds, game by game, exactly the lines `kittens run --log` writes."""
    import io

    log_parts = _script("log_parts")
    from kittens import Game
    from kittens.interpreter.engine.simulate import run_games
    from kittens.interpreter.rules.load import load_edition

    game = Game(load_edition("original"), 4)
    took = log_parts.measure(game, 3, str(tmp_path))
    assert set(took) == set(log_parts.PARTS) and all(value > 0 for value in took.values())
    out = io.StringIO()
    run_games(game, games=3, seed=0, bots=["random"], log=out)
    assert (tmp_path / "games.jsonl").read_text() == out.getvalue()
    speeds = log_parts.whole_runs(game, 2, 1, str(tmp_path))
    assert set(speeds) == {"unlogged", "to a sink", "to a file"} and min(speeds.values()) > 0
    assert (tmp_path / "run.jsonl").read_text() == run_games_text(game, 2)


def run_games_text(game, games: int) -> str:
    import io

    from kittens.interpreter.engine.simulate import run_games

    out = io.StringIO()
    run_games(game, games=games, seed=0, bots=["random"], log=out)
    return out.getvalue()


def test_a_curve_compares_its_points_game_by_game_and_reports_without_playing(tmp_path, capsys):
    strength = _script("strength")
    results = tmp_path / "curve.jsonl"
    won = {"a": [1, 1, 0, 1, 0, 1], "b": [0, 1, 0, 0, 0, 1]}  # the same six games (same deal, same seat)
    with results.open("w") as out:
        for bot, wins in won.items():
            for index, win in enumerate(wins):
                out.write(json.dumps({"matchup": "two_player-heuristic", "bot": bot, "seed": 0, "index": index,
                                      "won": bool(win), "times": []}) + "\n")
    found = strength.paired_difference(str(results), "two_player-heuristic", "a", "b", 0)
    diffs = [1, 0, 0, 1, 0, 0]
    mean = sum(diffs) / 6
    spread = (sum((d - mean) ** 2 for d in diffs) / 5) ** 0.5
    assert found["games"] == 6 and found["difference"] == round(mean, 4)
    half = 1.96 * spread / 6 ** 0.5
    assert found["interval_95"] == [round(mean - half, 4), round(mean + half, 4)]
    assert strength.paired_difference(str(results), "two_player-heuristic", "a", "nobody", 0) is None
    # --report-only plays none of the missing games (the heuristic baseline has none here: skipped)
    before = results.read_text()
    assert strength.main(["--curve", "--report-only", "--only", "two_player-heuristic", "-g", "6", "--seconds", "0.01",
                          "--algorithms", "x=ismcts:search=pimc", "--results", str(results)]) == 0
    assert results.read_text() == before
