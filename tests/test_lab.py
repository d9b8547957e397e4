"""The balance lab's library: records, sums, statistics against known answers, the runner.

The statistics are checked where the truth is known: a rigged edition whose
first seat always wins, A/A comparisons (two listings of one deck: other games,
the same distribution) that must find nothing in most of many repeats, a real
difference that must be found, and interval coverage on simulated data.
"""

from __future__ import annotations

import pickle
import random

import pytest

pytest.importorskip("scipy")

from lab_editions import write_editions

from kittens import Game, load_edition
from kittens.interpreter.rules.load import UsageError
from kittens.lab import stats
from kittens.lab.play import play_record, seats_for
from kittens.lab.rulesets import Ruleset, load_ruleset, parse_ruleset
from kittens.lab.runner import Job, ResumeError, play_chunk, prepare, run_job
from kittens.lab.session import Options, compare, parse_sweep, simulate, sweep
from kittens.lab.tally import Lab


@pytest.fixture(scope="module")
def eds(tmp_path_factory):
    return write_editions(tmp_path_factory.mktemp("lab"))


def _opts(**kw):
    return Options(**{"workers": 1, "games": 200, "players": 3, **kw})


# -- records and sums ------------------------------------------------------------------
def test_a_record_holds_what_the_game_did():
    game = Game(load_edition("original"), 4)
    record = play_record(game, 7, ["heuristic", "random", "random", "random"])
    out_seats = [seat for seat, _turn in record["out"]]
    assert sorted(out_seats + record["w"]) == [0, 1, 2, 3]  # three went out, one won
    assert [turn for _seat, turn in record["out"]] == sorted(turn for _seat, turn in record["out"])
    assert record["end"] == "last_standing" and record["t"] > 0 and record["d"] > 0
    lethal = next(cid for cid, card in game.edition.cards.items() if card.lethal)
    assert record["dr"][lethal] >= 3  # every player who went out drew one
    plays = sum(n for _s, _c, n in record["p"])
    assert plays > 0 and all(record["h"][card] & (1 << seat) for seat, card, _n in record["p"])


def test_seats_rotate_so_every_bot_sits_everywhere():
    bots = ["heuristic", "random"]
    seen = {(seats_for(bots, 4, i, True)[seat], seat) for i in range(4) for seat in range(4)}
    assert seen == {(b, s) for b in bots for s in range(4)}
    assert all(seats_for(bots, 4, i, False) == ["heuristic", "random"] * 2 for i in range(4))


def test_partial_sums_merge_to_the_whole_in_any_order(eds):
    game = Game(load_edition("original"), 4)
    records = [{"i": i, "r": [play_record(game, i, seats_for(["heuristic", "random"], 4, i, True))]}
               for i in range(60)]
    whole = Lab(1, 4, [0])
    for record in records:
        whole.add(record)
    parts = [Lab(1, 4, [0]) for _ in range(3)]
    shuffled = records[:]
    random.Random(3).shuffle(shuffled)
    for k, record in enumerate(shuffled):
        parts[k % 3].add(record)
    merged = Lab(1, 4, [0])
    for part in reversed(parts):
        merged.merge(part)
    assert merged == whole and merged.games == 60


def test_paired_card_figures_merge_to_the_whole_in_any_order():
    """compare's per-card figures (plays, Nopes, combos, draws, copies at the end) are
    whole-number sums too: parts merged in any order, a card first seen in a late part
    included, equal every game added to one."""
    games = [Game(load_edition("original"), 4), Game(load_edition("original", "older_printing"), 4)]
    records = [{"i": i, "r": [play_record(game, i, seats_for(["random"], 4, i, True)) for game in games]}
               for i in range(40)]
    whole = Lab(2, 4, [0, 0])
    for record in records:
        whole.add(record)
    paired = whole.paired[0]
    assert all(pm.n == 40 for figure in paired.cards.values() for pm in figure.values())
    plays = paired.cards["plays"]["skip"]
    assert plays.sa == sum(n for _s, c, n in (e for r in records for e in r["r"][0]["p"]) if c == "skip")
    shuffled = records[:]
    random.Random(5).shuffle(shuffled)
    parts = [Lab(2, 4, [0, 0]) for _ in range(4)]
    for k, record in enumerate(shuffled):
        parts[min(k // 10, 3)].add(record)
    merged = Lab(2, 4, [0, 0])
    for part in parts:
        merged.merge(part)
    assert merged == whole


def test_memory_does_not_grow_with_the_games(eds):
    """No record per game is kept: the sums of 2,000 games take no more room than of 200."""
    job, _ = prepare(Job((Ruleset(eds["fair"]),), 3, ("random",), games=2000))
    small = play_chunk(job, 0, 200)[2]
    large = play_chunk(job, 0, 2000)[2]
    assert large.games == 2000
    assert len(pickle.dumps(large)) < 1.3 * len(pickle.dumps(small))


# -- statistics against known answers --------------------------------------------------
def test_a_rigged_edition_shows_its_rigged_seat(eds):
    result = simulate(Ruleset(eds["rigged"]), _opts(games=120))
    summary = result.data["summary"]
    seats = summary["seats"]
    assert seats[0]["rate"] == 1.0 and seats[0]["ci"][0] > 0.95
    assert all(s["rate"] == 0 and s["ci"][1] < 0.05 for s in seats[1:])
    assert summary["fairness"]["p_value"] < 1e-20
    assert summary["first_player"]["p_value"] < 1e-20 and summary["first_player"]["chance"] == pytest.approx(1 / 3)
    assert "seats differ" in result.text


def test_the_fairness_test_rarely_cries_wolf_and_finds_a_loaded_seat():
    """Chi-square on wins by seat drawn from known shares (numpy's multinomial): about 5%
    false alarms on equal shares, and a seat winning 31% among 23% ones found."""
    import numpy

    rng = numpy.random.default_rng(5)
    alarms = sum(stats.fairness(list(rng.multinomial(300, [0.25] * 4)))["p_value"] < 0.05
                 for _ in range(200))
    assert alarms <= 20  # 5% of 200 is 10; more than 20 has a chance below 0.2%
    loaded = sum(stats.fairness(list(rng.multinomial(1000, [0.31, 0.23, 0.23, 0.23])))["p_value"] < 0.05
                 for _ in range(50))
    assert loaded >= 45


def test_wilson_intervals_cover_the_true_rate(eds):
    import numpy

    rng = numpy.random.default_rng(11)
    for p, n in ((0.25, 200), (0.05, 400)):
        hits = 0
        for k in rng.binomial(n, p, size=300):
            lo, hi = stats.rate(int(k), n)["ci"]
            hits += lo <= p <= hi
        assert 0.91 <= hits / 300 <= 0.99


def test_t_intervals_cover_the_true_mean():
    import numpy

    rng = numpy.random.default_rng(12)
    hits = 0
    for _ in range(300):
        xs = rng.poisson(30, size=80)
        lo, hi = stats.mean(len(xs), int(xs.sum()), int((xs * xs).sum()))["ci"]
        hits += lo <= 30 <= hi
    assert 0.91 <= hits / 300 <= 0.99


def test_an_aa_comparison_finds_no_difference_in_most_repeats(eds):
    """The same deck listed in another order deals other games from the same seeds, with
    the same distribution: over 30 repeats the paired tests must flag about 5% at most."""
    repeats, flagged, tests, differed = 30, 0, 0, 0
    for r in range(repeats):
        result = compare([Ruleset(eds["fair"]), Ruleset(eds["fair_b"])], _opts(games=150, seed=10_000 * r))
        metrics = result.data["comparisons"][0]["metrics"]
        turns = next(m for m in metrics if m["metric"] == "turns")
        differed += turns["mean_a"] != turns["mean_b"]
        for metric in metrics:
            if metric["metric"] in ("turns", "first player win rate") or metric["metric"].startswith("seat"):
                tests += 1
                flagged += metric["p_value"] < 0.05
    assert differed >= repeats - 2  # the games really differ: this is no comparison of a run with itself
    assert flagged / tests <= 0.12, f"{flagged} of {tests} A/A tests were significant"


def test_a_real_difference_is_found_and_said(eds):
    result = compare([Ruleset(eds["fair"]), Ruleset(eds["long"])], _opts(games=300))
    turns = next(m for m in result.data["comparisons"][0]["metrics"] if m["metric"] == "turns")
    assert turns["p_value"] < 1e-6 and turns["ratio"] > 1.2 and turns["change_ci"][0] > 0.1
    assert "longer" in turns["sentence"] and "95% CI" in turns["sentence"]
    assert turns["sentence"] in result.text


def test_paired_rates_use_mcnemar_on_the_games_that_disagree():
    from kittens.lab.tally import PairedMoments

    pm = PairedMoments()
    for a, b in [(1, 1)] * 40 + [(0, 0)] * 40 + [(1, 0)] * 5 + [(0, 1)] * 15:
        pm.add(a, b)
    result = stats.paired_rate(pm)
    assert (result["only_a"], result["only_b"]) == (5, 15)
    from scipy.stats import binomtest
    assert result["p_value"] == pytest.approx(binomtest(15, 20, 0.5).pvalue)
    assert result["difference"] == pytest.approx(0.10)


def test_skill_shows_against_the_chance_rate():
    result = simulate(Ruleset("original"), Options(workers=1, games=120, players=4, bots=("heuristic", "random")))
    bots = {b["bot"]: b for b in result.data["summary"]["bots"]}
    assert bots["heuristic"]["rate"] > bots["heuristic"]["chance"] and bots["heuristic"]["p_value"] < 0.001
    assert bots["random"]["ci"][1] < bots["random"]["chance"]
    by_seat = result.data["summary"]["bots_by_seat"]
    assert {b["n"] for b in by_seat} == {60}  # two of each bot: each sat at each seat in half the games


def test_cards_played_noped_and_never_played(eds):
    summary = simulate(Ruleset("original"), Options(workers=1, games=100, players=4)).data["summary"]
    cards = {c["card"]: c for c in summary["cards"]}
    assert sum(c["noped"] for c in cards.values()) > 0  # Nopes cancel some plays
    assert all(not c["never_played"] for c in cards.values())
    assert all(0 <= c["win_when_played"]["rate"] <= 1 for c in cards.values() if c["win_when_played"]["n"])
    dud = simulate(Ruleset(eds["dud"]), _opts(games=50)).data["summary"]
    assert [c["card"] for c in dud["cards"] if c["never_played"]] == ["dud"]


# -- rulesets and sweeps ---------------------------------------------------------------
def test_rulesets_parse_and_load_with_changes():
    assert parse_ruleset("original+imploding@two_player") == Ruleset("original", "two_player", ("imploding",))
    assert parse_ruleset("original", "beginner") == Ruleset("original", "beginner")
    with pytest.raises(UsageError):
        parse_ruleset("original@")
    edition = load_ruleset(Ruleset("original").with_change("set_counts", "nope", 2))
    assert edition.deck_for(4)["nope"] == 2
    assert load_ruleset(Ruleset("original", "older_printing").with_change("set_params", "hand_size", 5)) \
        .params["hand_size"] == 5
    from kittens.interpreter.rules.load import RuleError
    with pytest.raises(RuleError, match="hand_size=60"):
        load_ruleset(Ruleset("original").with_change("set_params", "hand_size", 60))


def test_sweep_ranges():
    assert parse_sweep("hand_size=4..8", "set_params") == ("hand_size", [4, 5, 6, 7, 8])
    assert parse_sweep("nope=2..8/3", "set_counts") == ("nope", [2, 5, 8])
    assert parse_sweep("flag=true,false", "set_params") == ("flag", [True, False])
    for bad in ("hand_size", "hand_size=8..4", "nope=a,b", "x=1..1000"):
        with pytest.raises(UsageError):
            parse_sweep(bad, "set_counts")


def test_a_sweep_draws_a_curve(eds):
    result = sweep(Ruleset("original"), "set_counts", "nope", [0, 8], Options(workers=1, games=80))
    points = result.data["curve"]["points"]
    assert [p["value"] for p in points] == [0, 8]
    assert points[1]["turns"] > points[0]["turns"]  # Nopes make games longer
    assert result.data["curve"]["fairest"] in (0, 8)


# -- the runner ------------------------------------------------------------------------
def _job(eds, games=400):
    return prepare(Job((Ruleset(eds["fair"]),), 3, ("random",), games=games))


def test_results_do_not_depend_on_the_number_of_workers(eds):
    job, digests = _job(eds)
    one = run_job(job, digests, workers=1)
    two = run_job(job, digests, workers=2)
    assert one.lab == two.lab and two.workers == 2 and one.games == two.games == 400


def test_an_interrupted_file_is_resumed_without_counting_a_game_twice(eds, tmp_path):
    job, digests = _job(eds, 300)
    out = str(tmp_path / "games.jsonl")
    run_job(job, digests, out=out)
    lines = open(out, "rb").read().splitlines(keepends=True)
    assert len(lines) == 301
    # keep the header and 120 games, then half a line, as a crash would leave it
    with open(out, "wb") as handle:
        handle.write(b"".join(lines[:121]) + lines[200][:25])
    resumed = run_job(job, digests, out=out, resume=True)
    assert (resumed.resumed, resumed.played) == (120, 180)
    assert resumed.lab == run_job(job, digests).lab
    assert len(open(out, "rb").read().splitlines()) == 301
    again = run_job(job, digests, out=out, resume=True)
    assert (again.resumed, again.played) == (300, 0)
    bigger = run_job(Job(job.arms, 3, job.bots, games=500, teams=job.teams), digests, out=out, resume=True)
    assert (bigger.resumed, bigger.played) == (300, 200)


def test_resume_refuses_another_runs_file(eds, tmp_path):
    job, digests = _job(eds, 50)
    out = str(tmp_path / "games.jsonl")
    run_job(job, digests, out=out)
    other, other_digests = prepare(Job((Ruleset(eds["fair"]),), 4, ("random",), games=50))
    with pytest.raises(ResumeError, match="players"):
        run_job(other, other_digests, out=out, resume=True)
    (tmp_path / "junk.jsonl").write_text("hello\n")
    with pytest.raises(ResumeError, match="not a results file"):
        run_job(job, digests, out=str(tmp_path / "junk.jsonl"), resume=True)


def test_a_worker_that_dies_has_its_games_played_again(eds, tmp_path, monkeypatch):
    job, digests = _job(eds, 400)
    marker = tmp_path / "died"
    monkeypatch.setenv("KITTENS_LAB_FAULT", f"exit:150:{marker}")
    out = str(tmp_path / "games.jsonl")
    outcome = run_job(job, digests, workers=2, out=out)
    assert marker.exists() and outcome.reruns >= 1
    assert outcome.games == 400 and outcome.lab == run_job(job, digests).lab
    indexes = [int(line.split(b",")[0][5:]) for line in open(out, "rb").read().splitlines()[1:]]
    assert sorted(indexes) == list(range(400))  # every game once in the file too


def _read_flag_forever(flag, reads) -> None:
    while True:
        flag.is_set()
        reads.value += 1


def test_a_worker_killed_while_it_reads_the_stop_flag_leaves_the_flag_working():
    """When a worker dies the pool kills the others wherever they are, often inside a read of
    the stop flag; a flag behind a lock (multiprocessing.Event) stayed locked, and the next
    pool and the main process waited on it for ever (CI timed out so)."""
    import multiprocessing
    import threading
    import time

    from kittens.lab.work import StopFlag

    context = multiprocessing.get_context("spawn")
    flag = StopFlag(context)
    for _ in range(4):
        reads = context.RawValue("q", 0)
        reader = context.Process(target=_read_flag_forever, args=(flag, reads))
        reader.start()
        deadline = time.monotonic() + 30
        while reads.value < 2000 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert reads.value >= 2000, "a new reader cannot read the flag: a killed one left it locked"
        reader.terminate()
        reader.join()
    seen = []
    setter = threading.Thread(target=lambda: (flag.set(), seen.append(flag.is_set())), daemon=True)
    setter.start()
    setter.join(10)
    assert seen == [True], "the stop flag was left locked by a killed reader"


def test_a_pool_that_breaks_between_chunks_loses_no_game(eds, monkeypatch):
    """A worker can die after every chunk it ran came back, so the pool is found broken when
    the next chunk is handed out (not when a result is read): those chunks go to a fresh pool."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    from kittens.lab import pool as lab_pool

    pools = []

    class BreaksOnce(ProcessPoolExecutor):
        """The first pool breaks at its 8th chunk and stays broken, as a real one does."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.first, self.submitted = not pools, 0
            pools.append(self)

        def submit(self, *args, **kwargs):
            self.submitted += 1
            if self.first and self.submitted >= 8:
                raise BrokenProcessPool("a worker died")
            return super().submit(*args, **kwargs)

    monkeypatch.setattr(lab_pool, "ProcessPoolExecutor", BreaksOnce)
    job, digests = _job(eds, 200)
    outcome = run_job(job, digests, workers=2)
    assert len(pools) >= 2 and outcome.reruns >= 1  # the rest went to a fresh pool
    assert outcome.games == 200 and outcome.lab == run_job(job, digests, workers=1).lab


def test_a_searching_player_is_handed_what_it_needs():
    """A player that searches (needs_state, e.g. the ISMCTS bot of --bots ismcts:...) is
    handed a SearchView, as play_game does; the games stay the same for the same seed."""
    game = Game(load_edition("original"), 2)
    seats = ["ismcts:iterations=3", "heuristic"]
    first = play_record(game, 4, seats)
    assert first["w"] and first["b"] == seats
    assert play_record(game, 4, seats) == first  # one seed drives the search too
    result = simulate(Ruleset("original"), Options(workers=1, games=2, players=2, bots=tuple(seats)))
    assert {b["bot"] for b in result.data["summary"]["bots"]} == set(seats)


def test_slow_runs_and_long_bot_specs_read_well():
    """A search player plays a game in seconds: its rate is not printed as '0 games/s', and
    a bot spec longer than the column keeps the skill lines aligned."""
    from kittens.lab import report

    meta = {"played": 4, "workers": 1, "seconds": 10.0, "games_per_second": 0.4}
    assert "(0.4 games/s)" in report.run_line(meta)
    bots = [{"bot": name, "rate": 0.25, "ci": [0.2, 0.3], "seat_games": 8, "chance": 0.25, "p_value": 1.0}
            for name in ("heuristic", "ismcts:iterations=50")]
    lines = report._skill({"bots": bots})[1:3]
    assert len({line.index("%") for line in lines}) == 1


def test_plays_and_draws_per_game_have_t_intervals_computed_from_the_games(tmp_path):
    """A card's plays and draws per game carry Student's t interval over the games (so a
    sweep's card:ID and drawn:ID curves have intervals): checked against scipy on the
    per-game counts read back from the --out file."""
    import json

    import numpy
    from scipy import stats as sp

    from kittens.lab.summary import metric

    out = str(tmp_path / "games.jsonl")
    result = simulate(Ruleset("original"), Options(workers=1, games=150, players=4, out=out))
    summary = result.data["summary"]
    records = [json.loads(line)["r"][0] for line in open(out, encoding="utf-8").read().splitlines()[1:]]
    for field, per_game in (("plays", lambda r: sum(n for _s, c, n in r["p"] if c == "nope")),
                            ("drawn", lambda r: r["dr"].get("nope", 0))):
        xs = numpy.array([per_game(r) for r in records], dtype=float)
        half = sp.t.ppf(0.975, len(xs) - 1) * xs.std(ddof=1) / len(xs) ** 0.5
        row = next(c for c in summary["cards"] if c["card"] == "nope")
        assert row[f"{field}_per_game_ci"] == pytest.approx([xs.mean() - half, xs.mean() + half])
        found = metric(summary, "card:nope" if field == "plays" else "drawn:nope")
        assert found["value"] == pytest.approx(xs.mean()) and found["ci"] == row[f"{field}_per_game_ci"]


def test_teams_win_together_and_are_tested_for_fairness():
    """In a team game (seat s on team s % teams) every partner shares the team's win, the
    per-team rates add up to the games with a winner, and fairness is tested between teams."""
    arm = parse_ruleset("original+barking@two_teams")
    summary = simulate(arm, Options(workers=1, games=120, players=4)).data["summary"]
    teams = summary["teams"]
    assert [t["team"] for t in teams] == [0, 1]
    assert sum(t["count"] for t in teams) == summary["games"] - summary["no_winner"]["count"]
    for seat in summary["seats"]:
        assert seat["count"] == teams[seat["seat"] % 2]["count"]
    assert summary["fairness"]["df"] == 1 and summary["first_player"]["chance"] == 0.5


def test_every_core_by_default_and_fewer_for_small_runs(monkeypatch):
    from kittens.lab import session

    monkeypatch.setattr(session.os, "sched_getaffinity", lambda _pid: {0, 1, 2, 3}, raising=False)
    assert session.default_workers(1_000_000, 1) == 4  # every core
    assert session.default_workers(400, 2) == 4 and session.default_workers(300, 1) == 1


def test_rotation_keeps_skill_from_looking_like_a_seat_advantage():
    """Heuristic bots at seats 0 and 2 against random ones: with --fixed-seats the seats
    of the heuristic bots seem to win far more (skill read as seat advantage); rotated,
    the same bots show fair seats, and the skill shows where it belongs, by bot."""
    options = dict(workers=1, games=200, players=4, bots=("heuristic", "random"))
    fixed = simulate(Ruleset("original"), Options(rotate=False, **options)).data["summary"]
    assert {(b["bot"], b["seat"]) for b in fixed["bots_by_seat"]} == \
        {("heuristic", 0), ("random", 1), ("heuristic", 2), ("random", 3)}
    assert fixed["fairness"]["p_value"] < 1e-6
    assert min(fixed["seats"][0]["rate"], fixed["seats"][2]["rate"]) > \
        max(fixed["seats"][1]["rate"], fixed["seats"][3]["rate"])
    rotated = simulate(Ruleset("original"), Options(**options)).data["summary"]
    assert rotated["fairness"]["p_value"] > 0.05
    heuristic = next(b for b in rotated["bots"] if b["bot"] == "heuristic")
    assert heuristic["ci"][0] > heuristic["chance"]


def test_records_are_written_out_only_for_an_out_file(eds, tmp_path):
    """Without --out no worker spends time turning records into JSON lines; the sums are
    the same either way, and with --out every game has its line."""
    from dataclasses import replace

    job, digests = _job(eds, 60)
    quiet = play_chunk(replace(job, lines=False), 0, 60)
    loud = play_chunk(job, 0, 60)
    assert quiet[1] == b"" and loud[1].count(b"\n") == 60 and quiet[2] == loud[2]
    seen = []
    import kittens.lab.runner as runner_module
    original = runner_module.play_chunk

    def spy(job, start, stop):
        seen.append(job.lines)
        return original(job, start, stop)

    runner_module.play_chunk = spy
    try:
        run_job(job, digests)
        run_job(job, digests, out=str(tmp_path / "games.jsonl"))
    finally:
        runner_module.play_chunk = original
    assert set(seen[:1]) == {False} and seen[-1] is True


def test_a_ctrl_c_while_games_are_counted_still_reports_them(eds):
    """Ctrl-C can arrive while the games a worker sent back are being counted (not only
    while the run waits for them): it stops the run with what came back, as one during
    the wait does, instead of dropping the report (kittens arena exited 130 silently)."""
    import signal

    job, digests = _job(eds, 400)
    calls = []

    def interrupt_once(done, total):
        calls.append(done)
        if len(calls) == 2:  # the first chunk counted (the first call is before any game)
            signal.raise_signal(signal.SIGINT)

    try:
        outcome = run_job(job, digests, workers=2, on_progress=interrupt_once)
    except KeyboardInterrupt:
        pytest.fail("a Ctrl-C while counting games dropped the run's report")
    assert outcome.interrupted and 0 < outcome.games < 400
    assert calls[-1] == outcome.games  # the chunk being counted when it came was counted whole


def test_a_ctrl_c_while_chunks_are_handed_out_still_reports_the_games_counted(eds, monkeypatch):
    """Ctrl-C can also land while chunks are handed to the workers (a submit pickles the
    job): the run stops with the games that come back, as one during the wait does; it
    used to stop at once and lose the report (CI saw kittens arena exit 130 with nothing)."""
    import signal
    from concurrent.futures import ProcessPoolExecutor

    from kittens.lab import pool as pool_module

    class InterruptedPool(ProcessPoolExecutor):
        submitted = 0

        def submit(self, *args, **kwargs):
            future = super().submit(*args, **kwargs)
            type(self).submitted += 1
            if type(self).submitted == 8:  # once the first chunks are out and some are back
                signal.raise_signal(signal.SIGINT)
            return future

    monkeypatch.setattr(pool_module, "ProcessPoolExecutor", InterruptedPool)
    job, digests = _job(eds, 400)
    try:
        outcome = run_job(job, digests, workers=2)
    except KeyboardInterrupt:
        pytest.fail("a Ctrl-C while handing out chunks dropped the run's report")
    assert InterruptedPool.submitted >= 8
    assert outcome.interrupted and 0 < outcome.games < 400


@pytest.mark.parametrize("workers", [1, 2])
def test_a_ctrl_c_between_a_chunks_lines_and_its_count_keeps_file_and_report_alike(eds, tmp_path, workers):
    """Ctrl-C landing after a chunk's lines reach the --out file but before its games are
    counted: the chunk is finished first, so the file holds exactly the games the report
    counts (in one process as with workers)."""
    import signal

    job, digests = _job(eds, 400)
    calls = []

    def interrupt_once(lines):  # called after the chunk's lines are written, before they count
        calls.append(lines)
        if len(calls) == 2:
            signal.raise_signal(signal.SIGINT)

    out = str(tmp_path / "games.jsonl")
    try:
        outcome = run_job(job, digests, workers=workers, out=out, on_lines=interrupt_once)
    except KeyboardInterrupt:
        pytest.fail("a Ctrl-C while counting a chunk dropped the run's report")
    written = open(out, "rb").read().splitlines()[1:]
    assert outcome.interrupted and 0 < outcome.games < 400
    assert len(written) == outcome.games


def test_a_seat_that_goes_out_twice_in_a_game_counts_once_in_its_share():
    """A player brought back into the game (Zombie Kittens) may go out again: the share of
    games each seat went out in still counts that game once (the lab crashed on it)."""
    from kittens.lab.summary import summarize
    from kittens.lab.tally import Tally
    tally = Tally(3)
    record = play_record(Game(load_edition("original"), 3), 1, ["random"] * 3)
    record["out"] = [(1, 3), (1, 9), (2, 12)]  # seat 1 out, back, out again
    record["w"] = [0]
    tally.add(record)
    by_seat = summarize(tally)["eliminations"]["by_seat"]
    assert tally.out_seat == [0, 1, 1]
    assert [row["rate"] for row in by_seat] == [0.0, 1.0, 1.0]
    assert len(summarize(tally)["eliminations"]["order"]) == 3  # the order still has every exit


def test_teams_dealt_at_random_are_counted_by_the_team_each_game_dealt(tmp_path):
    """With `teams: {dealt: random}` a seat's team changes from game to game: the team
    that won is the one the game dealt, not seat % teams (each game's winners share it)."""
    import json
    from pathlib import Path

    out = str(tmp_path / "games.jsonl")
    rules = Ruleset(str(Path(__file__).resolve().parent.parent / "examples" / "house-rules" / "hidden_partners.yaml"))
    summary = simulate(rules, Options(workers=1, games=80, players=4, out=out)).data["summary"]
    records = [json.loads(line)["r"][0] for line in open(out, encoding="utf-8").read().splitlines()[1:]]
    won = [r for r in records if r["w"]]
    assert all("wt" in r for r in won)
    assert any(r["wt"] != r["w"][0] % 2 for r in won)  # the deal does not follow the seats
    counted = [sum(1 for r in won if r["wt"] == team) for team in (0, 1)]
    assert [t["count"] for t in summary["teams"]] == counted
