"""The arena: bots play seat-rotated games and are rated.

Games come in blocks of one deal each: a block plays the same seed once per
rotation of the line-up round the table, so every bot meets the same cards
from every seat (the luck of the deal and of the first seat cancels out).
Each finished game ranks its seats (the winners first, then the others by how
late they went out) and updates a Plackett-Luce rating per bot with openskill;
win rates come with Wilson intervals. Games run in this process or, with
``jobs`` > 1, in worker processes; either way game ``i`` is the same game and
the ratings are updated in game order, so the report does not depend on
``jobs``.

Each game is played by the balance lab's loop (``lab.play.play_record``). The
lab's runner is not used for the series: it plays game ``i`` on seed ``seed +
i`` (a new deal for every rotation, where the arena deals once per block) and
sums games into tallies, while the ratings need every game's ranks in game order.
"""

from __future__ import annotations

import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..engine.game import Game
from .lab.play import play_record


def lineup(specs: list[str], players: int) -> list[str]:
    """The bots by seat before rotation: ``specs`` repeated to fill the table."""
    return [specs[seat % len(specs)] for seat in range(players)]


def seating(specs: list[str], players: int, index: int, seed: int) -> tuple[int, list[str]]:
    """Game ``index``'s seed and bots by seat: block ``index // players`` shares one seed,
    rotated ``index % players`` seats."""
    base = lineup(specs, players)
    shift = index % players
    return seed + index // players, [base[(seat - shift) % players] for seat in range(players)]


def play_one(game: Game, specs: list[str], index: int, seed: int) -> dict:
    """Play arena game ``index``: its seed, bots by seat, winners and each seat's rank.

    The game is played by the lab's loop (lab/play.py), which notes who went out when
    without recording events: a recorded game would also make every world a search
    player deals record its rollouts (about a quarter slower, measured)."""
    game_seed, bots = seating(specs, game.players, index, seed)
    record = play_record(game, game_seed, bots)
    out = [seat for seat, _turn in record["out"]]
    return {"index": index, "seed": game_seed, "bots": bots, "winners": record["w"],
            "ranks": ranks(game.players, record["w"], out), "turns": record["t"]}


def ranks(players: int, winners: list[int], out: list[int]) -> list[int]:
    """Rank by seat, 1 best: the winners, then whoever stayed in (a game stopped at a
    limit), then the others, the last to go out first."""
    order = {seat: len(out) - place for place, seat in enumerate(out)}  # later out: smaller
    keys = [(0, 0) if seat in winners else (1, order.get(seat, 0)) for seat in range(players)]
    distinct = sorted(set(keys))
    return [distinct.index(key) + 1 for key in keys]


@dataclass
class BotResult:
    games: int = 0  # seats played: a bot in two seats of a game counts twice
    wins: int = 0
    rank_total: int = 0
    mu: float = 25.0
    sigma: float = 25.0 / 3


@dataclass
class Report:
    players: int
    specs: list
    seed: int
    games: int = 0
    no_winner: int = 0
    seconds: float = 0.0
    interrupted: bool = False
    bots: dict = field(default_factory=dict)  # label -> BotResult

    def rows(self) -> list[dict]:
        """One row per bot, the best rated first (by mu - 3 sigma, openskill's ordinal)."""
        rows = []
        for name, result in self.bots.items():
            low, high = wilson(result.wins, result.games)
            rows.append({"bot": name, "seats_played": result.games, "wins": result.wins,
                         "win_rate": round(result.wins / result.games, 4) if result.games else None,
                         "win_rate_95": [round(low, 4), round(high, 4)],
                         "mean_rank": round(result.rank_total / result.games, 3) if result.games else None,
                         "mu": round(result.mu, 3), "sigma": round(result.sigma, 3),
                         "mu_95": [round(result.mu - 1.96 * result.sigma, 3),
                                   round(result.mu + 1.96 * result.sigma, 3)],
                         "ordinal": round(result.mu - 3 * result.sigma, 3)})
        return sorted(rows, key=lambda row: -row["ordinal"])

    def to_dict(self) -> dict:
        return {"games": self.games, "players": self.players, "bots": self.specs, "seed": self.seed,
                "no_winner": self.no_winner, "seconds": round(self.seconds, 3),
                "rating": "openskill Plackett-Luce (mu, sigma; ordinal = mu - 3 sigma)",
                "table": self.rows(), **({"interrupted": True} if self.interrupted else {})}


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


class Ratings:
    """Plackett-Luce ratings of the bots, updated game by game (openskill)."""

    def __init__(self, report: Report) -> None:
        from openskill.models import PlackettLuce

        self.model = PlackettLuce()
        self.report = report

    def add(self, result: dict) -> None:
        report, model = self.report, self.model
        report.games += 1
        if not result["winners"]:
            report.no_winner += 1
        bots = result["bots"]
        for name in bots:
            report.bots.setdefault(name, BotResult())
        # a bot in several seats is rated once per seat from the same rating, then averaged
        teams = [[model.rating(mu=report.bots[name].mu, sigma=report.bots[name].sigma)] for name in bots]
        rated = model.rate(teams, ranks=result["ranks"])
        updates: dict = {}
        for seat, name in enumerate(bots):
            updates.setdefault(name, []).append(rated[seat][0])
            entry = report.bots[name]
            entry.games += 1
            entry.wins += seat in result["winners"]
            entry.rank_total += result["ranks"][seat]
        for name, found in updates.items():
            entry = report.bots[name]
            entry.mu = sum(r.mu for r in found) / len(found)
            entry.sigma = sum(r.sigma for r in found) / len(found)


def run_arena(load, players: int, specs: list[str], *, games: int, seed: int = 0, jobs: int = 1,
              on_game=None) -> Report:
    """Play ``games`` seat-rotated games and rate the bots.

    ``load()`` gives the compiled edition (called once here, and once in each worker
    process: it must be picklable, such as a functools.partial of load_edition).
    ``on_game(result)`` is called after each game, in game order. Ctrl-C stops the
    series with the report of the games finished, ``interrupted`` set.
    """
    report = Report(players, list(specs), seed)
    ratings = Ratings(report)  # fails at once when openskill is missing
    started = time.perf_counter()

    def take(result):
        ratings.add(result)
        if on_game is not None:
            on_game(result)

    try:
        if jobs <= 1:
            game = Game(load(), players)
            for index in range(games):
                take(play_one(game, specs, index, seed))
        else:
            with ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start,
                                     initargs=(load, players)) as pool:
                chunk = max(1, min(players, games // (jobs * 4) or 1))
                for result in pool.map(_worker_play, [(specs, index, seed) for index in range(games)],
                                       chunksize=chunk):
                    take(result)
    except KeyboardInterrupt:
        report.interrupted = True
    report.seconds = time.perf_counter() - started
    return report


_WORKER: dict = {}


def _worker_start(load, players: int) -> None:
    _WORKER["game"] = Game(load(), players)


def _worker_play(task) -> dict:
    specs, index, seed = task
    return play_one(_WORKER["game"], specs, index, seed)


def format_table(report: Report, edition_name: str) -> str:
    """The report as a text table."""
    lines = [f"{report.games} game{'s' if report.games != 1 else ''} of {edition_name}, "
             f"{report.players} players, seats rotated; bots: {', '.join(report.specs)}"]
    head = f"{'bot':<28} {'seats':>6} {'wins':>6} {'win rate':>9} {'95% interval':>15} " \
           f"{'mean rank':>9} {'rating (mu ± 1.96σ)':>22} {'ordinal':>8}"
    lines += [head, "-" * len(head)]
    for row in report.rows():
        rate = f"{100 * row['win_rate']:.1f}%" if row["win_rate"] is not None else "-"
        low, high = row["win_rate_95"]
        interval = f"{100 * low:.1f}-{100 * high:.1f}%"
        rating = f"{row['mu']:.1f} ± {1.96 * row['sigma']:.1f}"
        lines.append(f"{row['bot']:<28} {row['seats_played']:>6} {row['wins']:>6} {rate:>9} "
                     f"{interval:>15} {row['mean_rank'] or 0:>9.2f} {rating:>22} {row['ordinal']:>8.1f}")
    if report.no_winner:
        lines.append(f"no winner (turn limit): {report.no_winner}")
    lines.append(f"ratings: openskill Plackett-Luce; {report.seconds:.1f} s")
    return "\n".join(lines)
