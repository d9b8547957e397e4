"""`kittens compare --until-settled`: batches until every difference is settled.

The statistics are checked on synthetic numbers (thousands of runs in a second): a
large difference stops at the first look, none plays to the cap, and over repeated
runs with fixed seeds the confidence sequence's error rate stays at 5% where the
fixed-sample interval, looked at after every batch, errs far more often (which shows
that the check can fail). Then two small real runs end to end.
"""

from __future__ import annotations

import json
import math

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

from lab_editions import write_editions
from typer.testing import CliRunner

from kittens.cli import app
from kittens.lab import sequential
from kittens.lab.tally import PairedMoments


def _source(rng, delta: float, kind: str):
    """A synthetic paired source: ``play(start, stop)`` adds that many games' sums to one
    PairedMoments; ``named()`` gives it as the figure to settle."""
    pm = PairedMoments()

    def play(start: int, stop: int) -> bool:
        k = stop - start
        if kind == "rate":  # two win/lose outcomes of the same games, correlated
            a = (rng.random(k) < 0.4).astype(float)
            flip = rng.random(k) < 0.3
            b = np.where(flip, (rng.random(k) < 0.4 + delta).astype(float), a)
        else:  # game lengths, b longer by delta on average
            a = rng.normal(30.0, 8.0, k)
            b = a + rng.normal(delta, 6.0, k)
        pm.n += k
        pm.sa += float(a.sum())
        pm.sb += float(b.sum())
        pm.saa += float((a * a).sum())
        pm.sbb += float((b * b).sum())
        pm.sab += float((a * b).sum())
        return False

    return pm, play, lambda: [("figure", kind, pm)]


def test_a_large_difference_stops_at_the_first_look():
    rng = np.random.default_rng(1)
    _pm, play, named = _source(rng, 6.0, "ratio")  # 20% longer games
    found = sequential.run(play, named, sequential.Plan(batch=100, cap=5000), players=4)
    assert found["stopped"] == "settled" and found["games"] == 100 and found["looks"] == 1
    (row,) = found["figures"]
    assert row["settled"] and row["ci"][0] > 0


def test_no_difference_plays_to_the_cap_and_a_margin_stops_it():
    rng = np.random.default_rng(2)
    _pm, play, named = _source(rng, 0.0, "ratio")
    found = sequential.run(play, named, sequential.Plan(batch=100, cap=1200), players=4)
    assert found["stopped"] == "cap" and found["games"] == 1200 and found["looks"] == 12
    _pm, play, named = _source(np.random.default_rng(2), 0.0, "ratio")
    margined = sequential.run(play, named, sequential.Plan(batch=100, cap=20000, margin=5), players=4)
    assert margined["stopped"] == "settled" and margined["games"] < 20000
    assert margined["figures"][0]["ci"][1] - margined["figures"][0]["ci"][0] < 0.10


def _naive_stops_wrongly(rng, plan) -> bool:
    """The fixed-sample t interval looked at after every batch, stopping when it excludes
    zero under no difference: whether it (wrongly) claims a change."""
    pm, play, _named = _source(rng, 0.0, "rate")
    for start, stop in sequential.batches(plan, 4):
        play(start, stop)
        diff = (pm.sb - pm.sa) / pm.n
        var = max(pm.sbb - 2 * pm.sab + pm.saa - pm.n * diff * diff, 0.0) / (pm.n - 1)
        if abs(diff) > 1.96 * math.sqrt(var / pm.n):
            return True
    return False


@pytest.mark.parametrize("kind,delta", [("rate", 0.0), ("rate", 0.1), ("ratio", 0.0), ("ratio", 1.5)])
def test_the_reported_error_rate_holds_over_repeated_runs(kind, delta):
    """300 runs with seeds 0-299, each stopping when settled: the share whose final
    interval misses the true difference stays within 5% (with room for the 300 runs'
    own chance: the binomial's 99% bound at 5% is 8.3%)."""
    plan = sequential.Plan(batch=50, cap=2000)
    misses = 0
    for seed in range(300):
        pm, play, named = _source(np.random.default_rng(seed), delta, kind)
        row = sequential.run(play, named, plan, players=2)["figures"][0]
        truth = 0.3 * delta if kind == "rate" else delta / 30.0  # a third of the games redrawn
        lo, hi = row["ci"]
        misses += not lo <= truth <= hi
    assert misses / 300 <= 0.083, misses


def test_looking_at_a_fixed_sample_interval_after_every_batch_errs_far_more():
    """The same looks with the ordinary 95% interval: well over 5% false changes, so
    the test above would catch an interval that ignored the looks."""
    plan = sequential.Plan(batch=50, cap=2000)
    wrong = sum(_naive_stops_wrongly(np.random.default_rng(seed), plan) for seed in range(300))
    assert wrong / 300 > 0.12, wrong


def test_batches_are_whole_rotations_of_the_table():
    assert list(sequential.batches(sequential.Plan(batch=10, cap=25), 3)) == [(0, 9), (9, 18), (18, 25)]
    assert sequential.half_width(1, 1.0, 0.01) == math.inf


# -- end to end ---------------------------------------------------------------------------
runner = CliRunner()


@pytest.fixture(scope="module")
def eds(tmp_path_factory):
    return write_editions(tmp_path_factory.mktemp("settle"))


def _compare(*args):
    result = runner.invoke(app, ["compare", *args, "-p", "3", "-j", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_compare_until_settled_stops_early_on_a_clear_change(eds):
    data = _compare(eds["fair"], eds["long"], "-g", "3000", "--until-settled", "--settle", "turns",
                    "--batch", "60")
    found = data["sequential"]
    assert found["stopped"] == "settled" and found["games"] < 3000 and data["meta"]["games"] == found["games"]
    assert found["figures"][0]["metric"] == "turns" and found["figures"][0]["ci"][0] > 0
    # the games played are those of a fixed run of the same seeds: the same sums
    fixed = _compare(eds["fair"], eds["long"], "-g", str(found["games"]))
    assert fixed["rulesets"] == data["rulesets"]


def test_compare_until_settled_plays_to_the_cap_when_nothing_changes(eds):
    data = _compare(eds["fair"], eds["fair"], "-g", "240", "--until-settled", "--batch", "60")
    found = data["sequential"]
    assert found["stopped"] == "cap" and found["games"] == 240 and found["looks"] == 4
    assert not any(row["settled"] for row in found["figures"])


def test_until_settled_options_are_checked(eds):
    for args, words in [(["--margin", "2"], "give --until-settled"),
                        (["--until-settled", "--settle", "nope"], "--settle nope"),
                        (["--until-settled", "--out", "x.jsonl"], "leave out --out")]:
        result = runner.invoke(app, ["compare", eds["fair"], eds["long"], "-g", "10", "-j", "1", *args])
        assert result.exit_code == 2 and words in result.output, result.output


# -- simulate --precision ----------------------------------------------------------------
def test_a_precision_target_stops_when_the_mean_is_that_narrow_and_covers_it():
    """Synthetic game lengths, 300 runs: each stops once its interval is within +/-0.5,
    and the share of runs whose interval misses the true mean stays within 5%."""
    from types import SimpleNamespace

    from kittens.lab.tally import Moments

    plan = sequential.Plan(batch=40, cap=20000)
    misses, games = 0, []
    for seed in range(300):
        rng = np.random.default_rng(seed)
        tally = SimpleNamespace(turns=Moments())

        def play(start, stop, tally=tally, rng=rng):
            xs = rng.poisson(30, stop - start)
            tally.turns.n += len(xs)
            tally.turns.s += int(xs.sum())
            tally.turns.ss += int((xs * xs).sum())
            return False

        def look(tally=tally):
            return sequential.precise(tally, {"turns": 0.5}, plan)

        found = sequential.run(play, None, plan, 4, look=look)
        (row,) = found["figures"]
        assert found["stopped"] == "settled" and row["ci"][1] - row["ci"][0] <= 1.0
        misses += not row["ci"][0] <= 30 <= row["ci"][1]
        games.append(found["games"])
    assert misses / 300 <= 0.083 and max(games) < 20000


def test_simulate_precision_end_to_end(eds):
    result = runner.invoke(app, ["simulate", eds["fair"], "-p", "3", "-j", "1", "-g", "5000", "--precision",
                                 "turns=0.3", "--batch", "60", "--format", "json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    found = data["sequential"]
    assert found["stopped"] == "settled" and found["games"] < 5000 == found["cap"]
    (row,) = found["figures"]
    assert row["ci"][1] - row["ci"][0] <= 0.6 and data["summary"]["games"] == found["games"]
    bad = runner.invoke(app, ["simulate", eds["fair"], "-g", "10", "-j", "1", "--precision", "length=1"])
    assert bad.exit_code == 2 and "FIGURE=HALF_WIDTH" in bad.output


def test_the_skill_series_of_a_settled_run_plays_as_many_games_not_the_cap(eds):
    data = _compare(eds["fair"], eds["long"], "-g", "3000", "--until-settled", "--settle", "turns", "--batch", "60",
                    "--skill", "heuristic")
    played = data["sequential"]["games"]
    assert played < 3000 and [r["games"] for r in data["skill"]["rulesets"]] == [played, played]
