"""How strong is the search player? Win rates with intervals, and decision times.

    python benchmarks/strength.py                       # every match-up, 400 games each
    python benchmarks/strength.py -g 40 --only original-heuristic --jobs 2
    python benchmarks/strength.py --times-only          # decision time at each budget
    python benchmarks/strength.py --only original-heuristic --results games.jsonl   # resumable

A run of 400 games takes hours. With ``--results FILE`` every finished game is
appended to FILE as one JSON line (match-up, bot, seed, game index, won, decision
times, and the commit of the engine that played it: ``about.source_commit()``, so a
compiled build on PYTHONPATH made by ``git archive`` from another commit is named
as itself) as soon as it ends; a later run with the same file plays only the games
not in it yet and reports on all of them, so a run that is stopped goes on where
it was, and several processes may share the work (``--first``/``--last`` split
the game indexes between them). ``benchmarks/results/strength-MATCHUP.jsonl``
holds the games behind the figures of docs/speed.md (decision times rounded to 0.1 ms):
``--results`` on one of them reports on it, or plays on where it stops.

A game's line also records the settings its player had (``settings``: the bot and
every setting, the defaults included), and a results file is read by them: a spec
finds the games its player played however either was spelt, and never the games of
a player whose defaults were different (lines written before the settings were
recorded are read with ``LEGACY_DEFAULTS``). ``--report-only`` reports without
playing the games missing.

Each match-up puts one search player (``--bot``, default ``ismcts``) against
bots of one kind, with the seats rotated: game i seats the search player at
seat i % players and deals seed + i // players, so every deal is played once
from every seat. A win rate is the share of games the search player won, with
its 95% Wilson interval; "beats" means its rate is above the 1/players share
every seat would get if it played like the others. No match-up sets anything
per edition: the same player, the same settings.

It then times the search player's decisions (those with more than one option)
at several budgets on the same positions of the 4-player Original.

``--curve`` plays a strength curve instead: each search algorithm of
``--algorithms`` (name=spec, default PIMC, single- and multiple-observer ISMCTS
and the paired search) at each time per decision of ``--seconds`` (default 0.01, 0.1 and 1),
counted in CPU time of the process playing (``cpu=true``: one core's worth of
work per decision, however busy the machine), plus the heuristic bot in the
same seat as the baseline, in each match-up of
``--only``; every point is resumable from ``--results`` like any match-up, and
the table prints each win rate with its 95% interval:

    python benchmarks/strength.py --curve --only original-heuristic -g 1000 --jobs 2 --results curve.jsonl
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import inspect
import json
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from kittens.interpreter.engine import search  # noqa: F401  (imported before workers fork)
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import BotSpecError, builtin_bots, make_players, parse_spec
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.engine.views import SearchView
from kittens.interpreter.rules.load import load_edition
from kittens.lab.arena import wilson

#: name -> (edition, players, opponents, the win rate to reach or None for "beats 1/players")
MATCHUPS = {
    "original-heuristic": ("original", 4, "heuristic", 0.55),
    "original-random": ("original", 4, "random", 0.60),
    "two_player-heuristic": ("two_player", 2, "heuristic", 0.65),
    "imploding-heuristic": ("imploding", 4, "heuristic", None),
    "good_vs_evil-heuristic": ("good_vs_evil", 4, "heuristic", None),
    "party6-heuristic": ("party", 6, "heuristic", None),
}

_GAMES: dict = {}


def _commit() -> str | None:
    """The commit the games are played with (a results file may mix runs of several): the
    engine's own (a checkout, or a copy made by ``git archive`` such as a compiled build
    on PYTHONPATH), else, for an installed copy, the checkout this script runs from."""
    try:
        from kittens.about import source_commit
    except ImportError:  # an engine from before the commit was written into its copies
        engine = None
    else:
        engine = source_commit()
    if engine:
        return engine
    try:
        import subprocess
        return subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "rev-parse", "--short",
                               "HEAD"], capture_output=True, text=True, check=True).stdout.strip() or None
    except (OSError, subprocess.CalledProcessError):
        return None


COMMIT = _commit()


def _game(edition: str, players: int) -> Game:
    key = (edition, players)
    if key not in _GAMES:
        _GAMES[key] = Game(load_edition(edition), players)
    return _GAMES[key]


def play_one(task) -> dict:
    """One game of a match-up: whether the search player won, and its decision times."""
    edition, players, opponents, bot, index, seed = task
    game = _game(edition, players)
    seat, game_seed = index % players, seed + index // players
    specs = [opponents] * players
    specs[seat] = bot
    seats = make_players(specs, players, game_seed)
    searcher, times = seats[seat], []
    choose = searcher.choose

    def timed(view, decision):
        started = time.perf_counter()
        option = choose(view, decision)
        if len(decision.options) > 1:
            times.append(time.perf_counter() - started)
        return option

    searcher.choose = timed
    state = play_game(game, game_seed, seats, record=False)
    return {"won": seat in state.winners, "times": times}


#: the settings games were played with before their lines recorded them (2026-11-28, when
#: the search's defaults changed): a line without "settings" is read with these
LEGACY_DEFAULTS = {"ismcts": {"share": 0.8, "confidence": 1.0, "race": 0.0}}


@functools.lru_cache(maxsize=None)
def _settings(spec: str, legacy: bool = False) -> str:
    """What plays as ``spec``: its bot and every setting, those it leaves out at their
    defaults (``legacy``: the defaults of the lines that did not record them), as JSON
    text. Two spellings of one player give the same text (``ismcts:search=pimc`` and
    ``ismcts:search=pimc:race=2`` once race=2 is the default), and one spelling gives
    two texts across a change of defaults, so a results file never counts games of
    one player as another's. A spec that names no bot stands for itself."""
    try:
        cls, given, _label = parse_spec(spec)
    except BotSpecError:
        return json.dumps({"bot": spec})
    names = {found: name for name, found in builtin_bots().items()}
    head = names.get(cls, f"{cls.__module__}:{cls.__qualname__}")
    played = {name: parameter.default for name, parameter in inspect.signature(cls).parameters.items()
              if name not in ("seed", "seat") and parameter.default is not inspect.Parameter.empty}
    if legacy:
        given = {**LEGACY_DEFAULTS.get(head, {}), **given}
    played.update(given)
    try:  # a setting the bot settles itself (a default that depends on another) is read off it
        bot = cls(**given)
    except Exception:  # noqa: BLE001  (a bot that cannot be made so is known by its spec)
        bot = None
    return _canonical({"bot": head, **{name: getattr(bot, name, value) for name, value in played.items()}})


def _canonical(settings: dict) -> str:
    """Settings as JSON text, a number always as a float (2 and 2.0 are one setting)."""
    return json.dumps({name: float(value) if type(value) is int else value for name, value in settings.items()},
                      sort_keys=True, default=str)


def load_results(path: str | None, name: str, bot: str, seed: int) -> dict:
    """Game index -> result of the games of this match-up already in the results file,
    played by the player ``bot`` stands for (matched by its settings, _settings)."""
    done: dict = {}
    if path is None or not os.path.exists(path):
        return done
    wanted = _settings(bot)
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line cut short by a kill: that game is played again
                continue
            if row.get("matchup") != name or row.get("seed") != seed:
                continue
            played = _canonical(row["settings"]) if "settings" in row \
                else _settings(row.get("bot", ""), legacy=True)
            if played == wanted:
                done[row["index"]] = row
    return done


def _end_line(path: str) -> None:
    """End the file's last line if a run was killed in the middle of writing it, so the
    next game starts a line of its own (the cut line is skipped when read)."""
    if not os.path.exists(path) or not os.path.getsize(path):
        return
    with open(path, "rb+") as raw:
        raw.seek(-1, os.SEEK_END)
        if raw.read(1) != b"\n":
            raw.write(b"\n")


def run_matchup(name: str, games: int, bot: str, seed: int, jobs: int, results_path: str | None = None,
                first: int = 0, last: int | None = None, play: bool = True) -> dict | None:
    edition, players, opponents, target = MATCHUPS[name]
    done = load_results(results_path, name, bot, seed)
    last = games if last is None else min(last, games)
    tasks = [(edition, players, opponents, bot, index, seed) for index in range(first, last)
             if index not in done and play]
    started = time.perf_counter()
    if results_path:
        _end_line(results_path)
    with open(results_path, "a", encoding="utf-8") if results_path else contextlib.nullcontext() as out:

        def keep(task, result):
            done[task[4]] = result
            if out is not None:  # one whole line per game, written at once
                out.write(json.dumps({"matchup": name, "bot": bot, "seed": seed, "index": task[4], **result,
                                      "commit": COMMIT, "settings": json.loads(_settings(bot))}) + "\n")
                out.flush()
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                for task, result in zip(tasks, pool.map(play_one, tasks, chunksize=1)):
                    keep(task, result)
        else:
            for task in tasks:
                keep(task, play_one(task))
    results_by_index = {index: done[index] for index in range(games) if index in done}
    results = list(results_by_index.values())
    games = len(results)  # with a shared results file, the games played so far
    if not games:
        if not play:
            return None
        raise SystemExit(f"{name}: no game played yet")
    wins = sum(result["won"] for result in results)
    times = [t for result in results for t in result["times"]]
    low, high = wilson(wins, games)
    goal = target if target is not None else 1 / players
    return {"matchup": name, "edition": edition, "players": players, "opponents": opponents, "bot": bot,
            "games": games, "wins": wins, "win_rate": round(wins / games, 4),
            "interval_95": [round(low, 4), round(high, 4)], "target": round(goal, 4),
            "target_kind": "at least" if target is not None else "above (beats the others' share)",
            "met": wins / games >= goal if target is not None else wins / games > goal,
            "interval_above_target": low > goal,
            "won_by_seat": _by_seat(results_by_index, players),
            "decisions": len(times), "decision_ms_mean": round(1000 * statistics.fmean(times), 1) if times else None,
            "decision_ms_median": round(1000 * statistics.median(times), 1) if times else None,
            "played_now": len(tasks), "seconds": round(time.perf_counter() - started, 1)}


def _by_seat(results: dict, players: int) -> list:
    """The search player's win rate from each seat (game i seats it at i % players)."""
    rates = []
    for seat in range(players):
        won = [row["won"] for index, row in results.items() if index % players == seat]
        rates.append(round(sum(won) / len(won), 4) if won else None)
    return rates


def decision_times(budgets: list[str], positions: int = 20, seed: int = 0) -> list[dict]:
    """Time each budget on the same positions (decisions with several options of the
    4-player Original, taken from heuristic games)."""
    game = _game("original", 4)
    rng = random.Random(seed)
    found = []
    index = 0
    while len(found) < positions:
        state = game.new_state(seed + index, record=False)
        index += 1
        bots = make_players(["heuristic"], 4, seed + index)
        for seat, bot in enumerate(bots):
            bot.start(game, seat)
        while not state.is_terminal():
            decision = state.decision()
            if len(decision.options) > 1 and rng.random() < 0.15 and len(found) < positions:
                found.append(state.clone())
            seat = decision.seat
            option = decision.options[0] if len(decision.options) == 1 else \
                bots[seat].choose(state.view(seat), decision)
            state.apply_action(option)
    rows = []
    for spec in budgets:
        times = []
        for state in found:
            seat = state.decision().seat
            bot = make_players([spec], 4, 1)[0]
            bot.start(game, seat)
            started = time.perf_counter()
            bot.choose(SearchView(state, seat), state.decision())
            times.append(time.perf_counter() - started)
        rows.append({"bot": spec, "positions": len(times), "ms_mean": round(1000 * statistics.fmean(times), 1),
                     "ms_median": round(1000 * statistics.median(times), 1),
                     "ms_max": round(1000 * max(times), 1)})
    return rows


#: the search algorithms a curve compares, by name (ISMCTSBot's ``search`` setting)
ALGORITHMS = ("pimc=ismcts:search=pimc,so-ismcts=ismcts:search=single,mo-ismcts=ismcts:search=multi,"
              "paired=ismcts:search=paired")


def curve(names: list, algorithms: dict, seconds: list, games: int, seed: int, jobs: int,
          results: str | None, first: int, last: int | None, play: bool = True) -> list:
    """Each algorithm at each time per decision (and the heuristic bot as the baseline)
    in each match-up: one run_matchup each, so every point resumes from ``results``."""
    rows = []
    for name in names:
        baseline = run_matchup(name, games, "heuristic", seed, jobs, results, first, last, play)
        if baseline is None:
            continue
        rows.append({**baseline, "algorithm": "heuristic", "seconds_per_decision": None})
        _curve_line(rows[-1])
        for algorithm, spec in algorithms.items():
            for budget in seconds:
                # CPU seconds: the same work per decision however busy the machine is
                row = run_matchup(name, games, f"{spec}:seconds={budget:g}:cpu=true", seed, jobs, results,
                                  first, last, play)
                if row is None:  # no game of this point in the results (--report-only)
                    continue
                rows.append({**row, "algorithm": algorithm, "seconds_per_decision": budget})
                _curve_line(rows[-1])
    return rows


def paired_difference(results: str, name: str, bot: str, other: str, seed: int) -> dict | None:
    """``bot``'s win rate minus ``other``'s over the games both played in match-up
    ``name`` (game i is the same deal from the same seat for both), with a 95%
    interval from the game-by-game differences; None without two common games."""
    mine, theirs = load_results(results, name, bot, seed), load_results(results, name, other, seed)
    common = sorted(set(mine) & set(theirs))
    if len(common) < 2:
        return None
    diffs = [int(mine[index]["won"]) - int(theirs[index]["won"]) for index in common]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return {"games": len(diffs), "difference": round(mean, 4), "interval_95": [round(mean - half, 4),
                                                                                round(mean + half, 4)]}


def _differences(rows: list, results: str, seed: int) -> None:
    """Each point against the best point of its match-up at the same time per decision,
    game by game (a difference whose interval leaves out 0 is significant)."""
    for row in rows:
        if row["seconds_per_decision"] is None:
            continue
        rivals = [other for other in rows if other["matchup"] == row["matchup"]
                  and other["seconds_per_decision"] == row["seconds_per_decision"]]
        best = max(rivals, key=lambda other: other["win_rate"])
        if best is row:
            continue
        found = paired_difference(results, row["matchup"], row["bot"], best["bot"], seed)
        if found:
            low, high = found["interval_95"]
            print(f"{row['matchup']:<22} {row['algorithm']:<10} minus {best['algorithm']:<10} at "
                  f"{1000 * row['seconds_per_decision']:g} ms: {100 * found['difference']:+.1f} points over "
                  f"{found['games']} common games (95% {100 * low:+.1f} to {100 * high:+.1f})", flush=True)


def _curve_line(row: dict) -> None:
    low, high = row["interval_95"]
    budget = "-" if row["seconds_per_decision"] is None else f"{1000 * row['seconds_per_decision']:g} ms"
    print(f"{row['matchup']:<22} {row['algorithm']:<10} {budget:>8}  {row['wins']:>4}/{row['games']:<5} "
          f"{100 * row['win_rate']:5.1f}% (95% {100 * low:.1f}-{100 * high:.1f}%)  target "
          f"{100 * row['target']:.0f}%: {'met' if row['met'] else 'not met'}", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-g", "--games", type=int, default=400, help="games per match-up (400)")
    parser.add_argument("--bot", default="ismcts", help="the search player's spec (ismcts)")
    parser.add_argument("--only", action="append", choices=sorted(MATCHUPS), help="run only these match-ups")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--budgets", default="ismcts:iterations=8,ismcts:iterations=16,ismcts,"
                        "ismcts:iterations=64,ismcts:iterations=128,ismcts:iterations=16:rollout=random,"
                        "ismcts:rollout=random", help="specs to time, comma-separated")
    parser.add_argument("--times-only", action="store_true", help="only time the budgets")
    parser.add_argument("--no-times", action="store_true", help="skip the timing")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--results", help="a JSON-lines file of finished games: appended to, and resumed from")
    parser.add_argument("--first", type=int, default=0, help="play game indexes from this one (0)")
    parser.add_argument("--last", type=int, help="... up to, not including, this one (--games)")
    parser.add_argument("--curve", action="store_true", help="a strength curve: algorithms x seconds")
    parser.add_argument("--report-only", action="store_true",
                        help="report on the games in --results, play none")
    parser.add_argument("--algorithms", default=ALGORITHMS, help="name=spec,... for --curve")
    parser.add_argument("--seconds", default="0.01,0.1,1", help="times per decision for --curve")
    args = parser.parse_args(argv)
    if args.curve:
        algorithms = dict(item.split("=", 1) for item in args.algorithms.split(",") if item.strip())
        seconds = [float(value) for value in args.seconds.split(",") if value.strip()]
        print(f"strength curve, {args.games} seat-rotated games a point, one process a game "
              f"({args.jobs} at once)", flush=True)
        rows = curve(args.only or ["original-heuristic"], algorithms, seconds, args.games, args.seed,
                     args.jobs, args.results, args.first, args.last, not args.report_only)
        if args.results:
            _differences(rows, args.results, args.seed)
        if args.json:
            print(json.dumps({"curve": rows}))
        return 0
    report = {"games_per_matchup": args.games, "bot": args.bot, "seed": args.seed, "jobs": args.jobs,
              "matchups": [], "decision_times": []}
    if not args.times_only:
        for name in args.only or list(MATCHUPS):
            row = run_matchup(name, args.games, args.bot, args.seed, args.jobs, args.results,
                              args.first, args.last, not args.report_only)
            if row is None:  # --report-only, and no game of this player in the results
                print(f"{name:<24} no game of {args.bot} in {args.results}", file=sys.stderr)
                continue
            report["matchups"].append(row)
            if not args.json:
                low, high = row["interval_95"]
                print(f"{name:<24} {row['wins']:>4}/{row['games']:<4} won {100 * row['win_rate']:5.1f}% "
                      f"(95% {100 * low:.1f}-{100 * high:.1f}%), {row['target_kind']} "
                      f"{100 * row['target']:.0f}%: {'met' if row['met'] else 'NOT met'}"
                      f"{' (interval above it)' if row['interval_above_target'] else ''}; "
                      f"{row['decisions']} decisions, mean {row['decision_ms_mean']} ms, "
                      f"median {row['decision_ms_median']} ms; {row['played_now']} games played now, "
                      f"in {row['seconds']} s", flush=True)
                print(f"{'':<24} won from each seat: " + ", ".join(
                    f"{seat}: {'-' if rate is None else f'{100 * rate:.0f}%'}"
                    for seat, rate in enumerate(row["won_by_seat"])), flush=True)
    if not args.no_times:
        report["decision_times"] = decision_times([spec.strip() for spec in args.budgets.split(",")])
        if not args.json:
            print("decision time, 4-player Original, same 20 positions, one process:")
            for row in report["decision_times"]:
                print(f"  {row['bot']:<40} mean {row['ms_mean']:>8.1f} ms, median {row['ms_median']:>8.1f} ms, "
                      f"max {row['ms_max']:>8.1f} ms")
    if args.json:
        print(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
