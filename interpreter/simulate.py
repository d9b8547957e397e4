"""Playing whole games with players, and many games for statistics.

``play_game`` drives one State to its end, asking each seat's player; a
decision with a single legal option is taken without asking (it reveals
nothing: the player would have had no choice). ``run_games`` plays a series
of seeded games and sums them up; game ``i`` uses seed ``seed + i``, so any
one of them can be replayed alone.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field

from .. import __version__
from .bots import make_bots
from .game import Game, State


@dataclass
class Summary:
    games: int = 0
    wins: dict = field(default_factory=dict)  # seat -> wins
    no_winner: int = 0
    turns: int = 0
    decisions: int = 0
    seconds: float = 0.0
    results: list = field(default_factory=list)  # (seed, winner, turns) per game

    def wins_by_bot(self, bots: list[str]) -> dict:
        """Wins summed over the seats each kind of bot played."""
        totals = {name: 0 for name in bots}
        for seat, wins in self.wins.items():
            totals[bots[seat]] += wins
        return totals

    def to_dict(self, players: int, bots: list[str], seed: int) -> dict:
        return {
            "games": self.games,
            "wins": {str(seat): self.wins.get(seat, 0) for seat in range(players)},
            "wins_by_bot": self.wins_by_bot(bots),
            "no_winner": self.no_winner,
            "players": players,
            "bots": bots,
            "seed": seed,
            "mean_turns": round(self.turns / self.games, 2) if self.games else 0,
            "decisions": self.decisions,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
        }


def play_game(game: Game, seed: int, players: list, *, record: bool = True) -> State:
    """Play one game to its end; ``players[seat]`` answers that seat's decisions."""
    for seat, player in enumerate(players):
        start = getattr(player, "start", None)
        if start is not None:
            start(game, seat)
    state = game.new_state(seed, record=record)
    while True:
        decision = state.decision()
        if decision is None:
            return state
        options = decision.options
        if len(options) == 1:
            state.apply_action(options[0])
            continue
        player = players[decision.seat]
        view = state.view(decision.seat) if getattr(player, "needs_view", True) else None
        state.apply_action(player.choose(view, decision))


def run_games(game: Game, *, games: int, seed: int, bots: list[str], log=None,
              header: dict | None = None) -> Summary:
    """Play ``games`` bot games; write each to ``log`` (a text stream) if given."""
    from .events import dumps

    summary = Summary()
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed + index
        players = make_bots(bots, game.players, game_seed)
        state = play_game(game, game_seed, players, record=log is not None)
        summary.games += 1
        summary.turns += state.table.turn
        summary.decisions += state.decisions
        winner = state.winner
        if winner is None:
            summary.no_winner += 1
        else:  # in a team game every member of the winning team wins
            for seat in state.winners:
                summary.wins[seat] = summary.wins.get(seat, 0) + 1
        summary.results.append((game_seed, winner, state.table.turn))
        if log is not None:
            names = [bots[seat % len(bots)] for seat in range(game.players)]
            log.write(dumps(game_header(game, game_seed, names, **(header or {}))) + "\n")
            for event in state.events:
                log.write(dumps(event) + "\n")
    summary.seconds = time.perf_counter() - started
    return summary


def game_header(game: Game, seed: int, bots: list[str], **extra) -> dict:
    """The first line of a logged game: enough to replay it."""
    edition = game.edition
    return {"type": "game", "kittens": __version__, "edition": extra.pop("edition", None),
            "edition_id": edition.id, "variant": edition.variant, "digest": edition_digest(edition),
            "players": game.players, "seed": seed, "bots": bots, **extra}


def edition_digest(edition) -> str:
    """A fingerprint of the rule files an edition was compiled from."""
    paths = {edition.origin.path, *edition.sources} | {c.origin.path for c in edition.cards.values()} | \
        {c.origin.path for c in edition.combos}  # every layered file: a house rule's own too
    parts = []
    for path in paths:  # by content, so the same files match however they are reached
        try:
            with open(path, "rb") as handle:
                parts.append(hashlib.sha256(handle.read()).hexdigest())
        except OSError:
            parts.append(path)
    return hashlib.sha256("".join(sorted(parts)).encode()).hexdigest()[:16]


def benchmark(edition, *, players: int = 4, games: int = 2000, seed: int = 0,
              record: bool = False, rounds: int = 3) -> dict:
    """Time random-bot games on this process's one core; the best of ``rounds`` runs.

    Reports games and decisions per second. The engine is single-threaded, so
    this is the speed of one core; ``record`` turns on the event log (what
    ``kittens run --log`` pays for).
    """
    game = Game(edition, players)
    best = None
    for _ in range(rounds):
        decisions = 0
        started = time.perf_counter()
        for index in range(games):
            bots = make_bots(["random"], players, seed + index)
            state = play_game(game, seed + index, bots, record=record)
            decisions += state.decisions
        elapsed = time.perf_counter() - started
        if best is None or elapsed < best[0]:
            best = (elapsed, decisions)
    elapsed, decisions = best
    return {"games": games, "players": players, "record_events": record, "seconds": round(elapsed, 3),
            "games_per_second": round(games / elapsed, 1),
            "decisions_per_second": round(decisions / elapsed),
            "decisions_per_game": round(decisions / games, 1)}
