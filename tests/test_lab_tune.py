"""`kittens tune`: Optuna searches a space of counts for the point that meets targets.

On the lab's tiny coins-and-bombs edition, whose game length grows with the number of
coins: a target range that only one count meets is found in fewer trials than the
space has points; targets no point meets are reported so, with the binding one; a
study stopped by Ctrl-C and run again finishes with the trials and the answer of an
uninterrupted one; the house rule it writes loads and plays the figures it reports.
"""

from __future__ import annotations

import json
import sys

import pytest

pytest.importorskip("optuna")
pytest.importorskip("scipy")

from lab_editions import write_editions
from typer.testing import CliRunner

from kittens.cli import app
from kittens.lab import targets as targets_mod
from kittens.lab import tune as tuning
from kittens.lab import tune_report
from kittens.lab.rulesets import Ruleset

runner = CliRunner()
COINS = list(range(0, 46, 3))  # 16 points


@pytest.fixture(scope="module")
def eds(tmp_path_factory):
    return write_editions(tmp_path_factory.mktemp("tune"))


def _cli(*args):
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def lengths(eds):
    """The mean game length at every coin count, from a sweep of the same seeds."""
    code, out = _cli("sweep", eds["fair"], "--count", "coin=0..45/3", "-g", "120", "-p", "3", "-j", "1",
                     "--format", "json")
    assert code == 0, out
    found = [p["turns"] for p in json.loads(out)["curve"]["points"]]
    assert all(a < b for a, b in zip(found, found[1:])), found  # monotone: one count per length
    return found


def _tune(eds, tmp_path, *args, study="study.db"):
    return _cli("tune", eds["fair"], "-x", "count.coin=0..45/3", "-g", "120", "--first-batch", "60", "-p", "3",
                "-j", "1", "--study", str(tmp_path / study), "--format", "json", *args)


def test_the_count_that_gives_the_wanted_length_is_found(eds, lengths, tmp_path):
    k = COINS.index(30)
    low, high = (lengths[k - 1] + lengths[k]) / 2, (lengths[k] + lengths[k + 1]) / 2
    code, out = _tune(eds, tmp_path, "-t", f"turns {low:.3f}..{high:.3f}", "-n", "10",
                      "--out", str(tmp_path / "best.yaml"))
    assert code == 0, out
    data = json.loads(out)
    assert len({json.dumps(t["point"]) for t in data["trials"]}) == 10 < len(COINS)  # points played
    best = data["candidates"][0]
    assert best["point"] == {"count.coin": 30} and best["loss"] == 0 and data["met"] is True
    assert best["targets"][0]["value"] == pytest.approx(lengths[k])
    # fewer games than a sweep of every point: pruned trials stop after the first batch
    assert data["games"] < len(COINS) * 120
    # the house rule extends the base, sets only the tuned count, and plays those figures
    text = (tmp_path / "best.yaml").read_text()
    assert "set_counts:\n  coin: 30" in text and "extends:" in text and "# Tuned by kittens tune" in text
    code, out = _cli("simulate", str(tmp_path / "best.yaml"), "-g", "120", "-p", "3", "-j", "1", "--format", "json")
    assert code == 0 and json.loads(out)["summary"]["turns"]["mean"] == pytest.approx(lengths[k])


def test_targets_no_point_meets_are_reported_with_the_binding_one(eds, tmp_path):
    code, out = _cli("tune", eds["fair"], "-x", "count.coin=0..6/3", "-t", "turns <= 10", "-t", "turns >= 100",
                     "-g", "60", "-p", "3", "-j", "1", "-n", "5", "--study", str(tmp_path / "s.db"))
    assert code == 0, out
    assert "No candidate meets every target: 'turns >= 100' binds (0 of 3 points tried met it" in out
    assert "No point of the space meets them all" in out


def test_a_stopped_study_resumes_to_the_answer_of_an_uninterrupted_one(eds, tmp_path):
    question = tuning.Question(Ruleset(eds["fair"]), (tuning.parse_vary("count.coin=0..45"),
                                                      tuning.parse_vary("count.bomb=2..6")),
                               (targets_mod.parse_target("turns 12..13"), targets_mod.parse_target("fairness")),
                               3, ("random",), 0, 90, 30)
    whole = tuning.run_study(question, trials=9, study=str(tmp_path / "whole.db"), workers=1)
    assert not whole["interrupted"]

    def ctrl_c(done):
        if done >= 400:  # past the random start (three points)
            raise KeyboardInterrupt

    first = tuning.run_study(question, trials=9, study=str(tmp_path / "cut.db"), workers=1, progress=ctrl_c)
    assert first["interrupted"] and len({json.dumps(t.params) for t in first["trials"]}) < 9
    again = tuning.run_study(question, trials=9, study=str(tmp_path / "cut.db"), workers=1)
    assert again["resumed"] == len(first["trials"]) and not again["interrupted"]

    def history(result):
        return [(t.params, t.value, t.state.name, t.user_attrs["assessment"]) for t in result["trials"]]

    assert history(again) == history(whole)
    assert tune_report.candidates(again["trials"]) == [
        {**c, "trial": c["trial"] + 1 if c["trial"] >= len(first["trials"]) else c["trial"]}
        for c in tune_report.candidates(whole["trials"])]


def test_tune_text_report_and_html(eds, tmp_path):
    code, out = _cli("tune", eds["fair"], "-x", "count.coin=0..12/3", "-x", "count.bomb=2..4", "-t", "turns 4..6",
                     "-t", "first_edge", "-g", "60", "-p", "3", "-j", "1", "-n", "4", "--study", str(tmp_path / "r.db"),
                     "--report", str(tmp_path / "r.html"))
    assert code == 0, out
    assert "Best candidates" in out and "turns" in out and "(95% CI" in out
    page = (tmp_path / "r.html").read_text()
    assert "How the search went" in page and "side by side" in page and "What count.bomb does to turns" in page


@pytest.mark.parametrize("args, words", [
    (["-x", "coin=1..3", "-t", "turns 3..4"], "--vary 'coin=1..3'"),
    (["-x", "count.coin=1..3", "-t", "length 3..4"], "unknown figure 'length'"),
    (["-x", "count.coin=1..3", "-t", "turns"], "the goal LO..HI"),
    (["-x", "count.coin=1..3", "-x", "count.coin=4..5", "-t", "turns 1..2"], "given twice"),
    (["-x", "count.coin=3", "-t", "turns 1..2"], "two values or more"),
    (["-x", "variant=none,nosuch", "-t", "turns 1..2"], "no variant 'nosuch'"),
])
def test_bad_spaces_and_targets_say_how_to_write_them(eds, tmp_path, args, words):
    code, out = _cli("tune", eds["fair"], *args, "-g", "10", "-j", "1", "--study", str(tmp_path / "x.db"))
    assert code == 2 and words in out, out


def test_tune_without_optuna_says_how_to_install_it(eds, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "optuna", None)
    code, out = _cli("tune", eds["fair"], "-x", "count.coin=1..3", "-t", "turns 3..4",
                     "--study", str(tmp_path / "y.db"))
    assert code == 2 and "pip install 'kittens-engine[tune]'" in out
    assert not (tmp_path / "y.db").exists()


def test_targets_parse_and_score_as_documented():
    t = targets_mod.parse_target("turns 35..45 weight=2")
    assert (t.kind, t.low, t.high, t.weight) == ("range", 35, 45, 2)
    assert t.miss(40) == 0 and t.miss(30) == 5 and t.loss(30) == 2 * 5 / 5
    assert t.met(40, [39, 41]) == "clearly" and t.met(44.5, [43, 46]) == "yes" and t.met(46, None) == "no"
    skill = targets_mod.parse_target("skill >= 10")
    assert skill.kind == "at_least" and skill.miss(4) == 6 and skill.loss(4) == 6 / 1.0
    fair = targets_mod.parse_target("fairness")
    assert fair.kind == "close" and fair.low == 0 and fair.met(3, [0, 5]) == "n/a"
    assert targets_mod.parse_target("out:1 ~ 12").tolerance() == pytest.approx(1.2)
    assert targets_mod.parse_target("card:nope max").loss(2.5) == -2.5


def test_two_candidates_that_both_meet_a_range_are_told_apart_only_by_the_rest():
    question = tuning.Question(Ruleset("original"), (tuning.parse_vary("count.nope=2..3"),),
                               (targets_mod.parse_target("turns 30..34"), targets_mod.parse_target("fairness")),
                               4, ("random",))

    def cand(turns, fair, fair_ci):
        return {"targets": [{"value": turns, "ci": [turns - 0.5, turns + 0.5], "miss": 0.0, "met": "clearly",
                             "loss": 0.0},
                            {"value": fair, "ci": fair_ci, "miss": fair, "met": "n/a", "loss": fair}]}

    # turns 31 and 33 do not overlap, but both meet the range: only fairness can tell them apart
    assert tune_report.limits(question, [], [cand(31, 1, [0, 4]), cand(33, 2, [0, 5])])["told_apart"] is False
    assert tune_report.limits(question, [], [cand(31, 1, [0, 2]), cand(33, 6, [4, 8])])["told_apart"] is True


def test_a_variant_is_an_axis_and_the_house_rule_names_it(tmp_path):
    out = tmp_path / "v.yaml"
    code, text = _cli("tune", "original", "-x", "variant=none,beginner", "-t", "turns >= 30", "-g", "40", "-n", "2",
                      "-j", "1", "--study", str(tmp_path / "v.db"), "--out", str(out), "--format", "json")
    assert code == 0, text
    data = json.loads(text)
    points = {t["point"]["variant"] for t in data["trials"]}
    assert points == {"none", "beginner"}
    best = data["candidates"][0]["point"]["variant"]
    assert ("variant: beginner" in out.read_text()) == (best == "beginner")
    code, _ = _cli("validate", str(out))
    assert code == 0


def test_skill_with_a_stronger_bot_is_its_edge_in_a_series_of_its_own(eds, tmp_path):
    """Coins and bombs leave nothing to decide: the heuristic bot's edge over random ones
    is nothing, its interval takes in zero, and each trial played its series too."""
    code, out = _tune(eds, tmp_path, "-x", "count.bomb=4..5", "-t", "skill ~ 0", "--skill", "heuristic", "-n", "2",
                      "--first-batch", "120", study="skill.db")
    assert code == 0, out
    data = json.loads(out)
    assert {t["games"] for t in data["trials"] if t["games"]} == {240}  # 120 games and 120 of the series
    row = data["candidates"][0]["targets"][0]
    assert row["figure"] == "skill" and row["ci"][0] < 0 < row["ci"][1] and abs(row["value"]) < 15
    code, out = _tune(eds, tmp_path, "-t", "turns 3..4", "--skill", "heuristic", study="noskill.db")
    assert code == 2 and "--skill measures the skill target" in out
