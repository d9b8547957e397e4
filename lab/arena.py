"""The arena: bots play seat-rotated games and are rated.

The games are a balance-lab job (lab/runner.py) with one setting of its own:
each deal is played once from every turn of the line-up round the table
(``Job.deal_per_rotation``), so every bot meets the same cards from every seat
and the luck of the deal and of the first seat cancels out. Through the lab's
runner the arena gets what a long series needs: worker processes or a Dask
cluster, every game's record streamed to an ``--out`` file as it ends and
``--resume`` from it, Ctrl-C that keeps the finished games, and the lab's
report of the games (who wins by seat, each bot's win rate against chance,
game length, cards) as text, JSON or one HTML page.

What the arena adds is the ratings. Each game ranks its seats (the winners
first, then the others by how late they went out); once the games are in, a
Plackett-Luce rating per bot (openskill) is updated game by game in game
order, so the ratings do not depend on the number of workers or on the order
chunks came back in. Win rates come with Wilson intervals.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

from ..interpreter.engine.endings import stopped_lines
from ..interpreter.engine.game import Game
from .play import play_record, seats_for


def lineup(specs: list[str], players: int) -> list[str]:
    """The bots by seat before rotation: ``specs`` repeated to fill the table."""
    return [specs[seat % len(specs)] for seat in range(players)]


def seating(specs: list[str], players: int, index: int, seed: int) -> tuple[int, list[str]]:
    """Game ``index``'s seed and bots by seat: block ``index // players`` shares one seed,
    the line-up turned ``index % players`` seats (the lab's rotation)."""
    return seed + index // players, seats_for(list(specs), players, index, True)


def play_one(game: Game, specs: list[str], index: int, seed: int) -> dict:
    """Play arena game ``index`` here, as a lab worker plays it: its seed, bots by seat,
    winners and each seat's rank."""
    game_seed, bots = seating(specs, game.players, index, seed)
    record = play_record(game, game_seed, bots)
    return {"index": index, "seed": game_seed, "bots": bots, "winners": record["w"],
            "ranks": ranks(game.players, record["w"], [seat for seat, _turn in record["out"]]),
            "turns": record["t"]}


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
    meta: dict = field(default_factory=dict)  # the lab run's figures (workers, --out, resumed...)
    summary: dict | None = None  # the lab's summary of the games (lab/summary.py)

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
                "table": self.rows(), **({"interrupted": True} if self.interrupted else {}),
                "meta": self.meta, "summary": self.summary}


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


class Placings:
    """Each game's ranks and winners by game index, a byte a seat (memory stays small
    however long the series): 0 for a game not in, else the rank, plus 64 for a winner."""

    WON = 64

    def __init__(self, games: int, players: int) -> None:
        self.players = players
        self.cells = bytearray(games * players)

    def take(self, lines: bytes) -> None:
        """Game records from the lab's runner (JSON lines): note each game's placings."""
        import orjson

        players, cells = self.players, self.cells
        for line in lines.splitlines():
            if not line.strip():
                continue
            record = orjson.loads(line)
            game = record["r"][0]
            winners = game["w"]
            placed = ranks(players, winners, [seat for seat, _turn in game["out"]])
            at = record["i"] * players
            for seat, rank in enumerate(placed):
                cells[at + seat] = rank + (self.WON if seat in winners else 0)

    def games(self):
        """(index, winners, ranks) of every game in, in game order."""
        players, cells, won = self.players, self.cells, self.WON
        for index in range(len(cells) // players):
            row = cells[index * players:(index + 1) * players]
            if row[0]:
                yield index, [seat for seat in range(players) if row[seat] & won], \
                    [cell & (won - 1) for cell in row]


def run_arena(arm, players: int, specs: list[str], *, games: int, seed: int = 0, workers: int = 1,
              scheduler: str | None = None, out: str | None = None, resume: bool = False,
              on_progress=None) -> Report:
    """Play ``games`` seat-rotated games of ``arm`` (a lab Ruleset) on the lab's runner
    and rate the bots.

    ``workers`` processes play (one: this process), or the Dask cluster at
    ``scheduler``; ``out`` streams every game's record to a file that ``resume``
    continues; ``on_progress(done, total)`` is called as games come in. Ctrl-C stops
    the series with the report of the finished games, ``interrupted`` set.
    """
    from ..interpreter.rules.load import UsageError
    from .rulesets import load_ruleset
    from .runner import Job, ResumeError, prepare, run_job
    from .summary import card_info, summarize

    report = Report(players, list(specs), seed)
    ratings = Ratings(report)  # fails at once when openskill is missing
    placings = Placings(games, players)
    job, digests = prepare(Job((arm,), players, tuple(specs), seed, games, rotate=True,
                               deal_per_rotation=True))
    try:
        outcome = run_job(job, digests, workers=workers, out=out, resume=resume, on_progress=on_progress,
                          scheduler=scheduler, on_lines=placings.take)
    except ResumeError as exc:
        raise UsageError(str(exc)) from None
    for index, winners, placed in placings.games():
        ratings.add({"bots": seating(specs, players, index, seed)[1], "winners": winners, "ranks": placed})
    report.seconds, report.interrupted = outcome.seconds, outcome.interrupted
    edition = load_ruleset(arm)
    report.summary = summarize(outcome.lab.tallies[0], label=f"{edition.name} ({arm.label})",
                               cards=card_info(edition, players))
    report.meta = {"players": players, "bots": list(specs), "seed": seed, "games": outcome.games,
                   "target": games, "workers": outcome.workers, "scheduler": scheduler,
                   "played": outcome.played, "resumed": outcome.resumed, "seconds": round(outcome.seconds, 3),
                   "out": out, "reruns": outcome.reruns, "deal_per_rotation": True,
                   "games_per_second": round(outcome.played / outcome.seconds, 2)
                   if outcome.seconds and outcome.played else None,
                   "interrupted": outcome.interrupted, "ruleset": arm.to_dict(), "digest": digests[0]}
    return report


def format_table(report: Report, edition_name: str) -> str:
    """The ratings as a text table."""
    lines = [f"{report.games} game{'s' if report.games != 1 else ''} of {edition_name}, "
             f"{report.players} players, seats rotated, each deal played from every seat; "
             f"bots: {', '.join(report.specs)}"]
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
        ends = (report.summary or {}).get("limits", {}).get("ends", {})
        lines += stopped_lines(ends, report.no_winner)
    lines.append("ratings: openskill Plackett-Luce, updated game by game in game order")
    return "\n".join(lines)


def format_report(report: Report, edition_name: str) -> str:
    """The whole text report: the ratings, how the games were run, then the lab's report
    of the games themselves."""
    from .report import run_line, sections

    lines = [format_table(report, edition_name), run_line(report.meta), ""]
    if report.summary and report.summary["games"]:
        lines += ["The games (the balance lab's report)", ""] + sections(report.summary)
    return "\n".join(lines).rstrip() + "\n"


def ratings_table(report: Report) -> str:
    """The ratings as an HTML table, for the lab's page."""
    head = ("bot", "seats", "wins", "win rate", "95% interval", "mean rank", "mu ± 1.96σ", "ordinal")
    rows = []
    for row in report.rows():
        low, high = row["win_rate_95"]
        cells = (row["bot"], row["seats_played"], row["wins"],
                 "-" if row["win_rate"] is None else f"{100 * row['win_rate']:.1f}%",
                 f"{100 * low:.1f}-{100 * high:.1f}%", f"{row['mean_rank'] or 0:.2f}",
                 f"{row['mu']:.1f} ± {1.96 * row['sigma']:.1f}", f"{row['ordinal']:.1f}")
        rows.append("<tr>" + "".join(f"<td>{html.escape(str(x))}</td>" for x in cells) + "</tr>")
    header = "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + "</tr>"
    return f"<table>{header}{''.join(rows)}</table>"


def report_page(report: Report, edition_name: str) -> str:
    """One self-contained HTML page: the ratings, then the lab's plots and tables."""
    from . import html as lab_html

    summary = report.summary
    played = bool(summary and summary["games"])
    plots = [("Ratings (openskill Plackett-Luce)", ratings_table(report))]
    if played:
        plots += [("Seats", lab_html.seat_plot([summary])), ("Game length", lab_html.length_plot([summary])),
                  ("Cards", lab_html.card_plot(summary))]
    tables = [lab_html.card_table(summary)] if played else []
    return lab_html.page(f"Arena: {edition_name}", format_report(report, edition_name), plots, tables)
