"""Every shipped edition, expansion and variant at every allowed player count, under
random and heuristic bots: games played, games with no winner, mean turns, games/s,
and the most steps one action took (of the budget in interpreter/cost.py).

    python benchmarks/editions_matrix.py [--games 200] [--json]

The issue that shipped the editions asks that every one of them plays to a winner
under both bots at every allowed player count; this prints the evidence. The step
column shows how far the shipped effects stay from the per-action budget.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # the folder holding `kittens`

from kittens.interpreter.engine.game import Game, State  # noqa: E402
from kittens.interpreter.engine.simulate import run_games  # noqa: E402
from kittens.interpreter.lang.limits import STEP_BUDGET  # noqa: E402
from kittens.interpreter.rules.catalog import catalog  # noqa: E402
from kittens.interpreter.rules.load import load_edition  # noqa: E402


class _Metered(State):
    """A game that remembers the most steps any of its actions took."""

    peak = 0  # across every game of a run (reset per run)

    @property
    def budget(self) -> int:
        return self._budget

    @budget.setter
    def budget(self, value: int) -> None:
        self._budget = value
        _Metered.peak = max(_Metered.peak, STEP_BUDGET - value)


class _MeteredGame(Game):
    def new_state(self, seed: int = 0, **options) -> State:
        return _Metered(self, seed, **{"record": True, "explicit_chance": False, "layout": None, **options})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = []
    editions = os.path.join(os.path.dirname(HERE), "editions")
    for entry in catalog([editions]):
        edition = load_edition(os.path.join(editions, os.path.basename(entry["path"])), entry.get("variant"))
        label = os.path.basename(entry["path"])[:-5] + (f":{entry['variant']}" if entry.get("variant") else "")
        for players in range(entry["players"][0], entry["players"][1] + 1):
            game = _MeteredGame(edition, players)
            for bots in ("random", "heuristic"):
                _Metered.peak = 0
                summary = run_games(game, games=args.games, seed=0, bots=[bots])
                rows.append({"edition": label, "players": players, "bots": bots, "games": summary.games,
                             "no_winner": summary.no_winner,
                             "mean_turns": round(summary.turns / summary.games, 1),
                             "games_per_second": round(summary.games / summary.seconds),
                             "most_steps": _Metered.peak})
                if not args.json:
                    r = rows[-1]
                    print(f"{label:28} {players:2}p {bots:9} no_winner {r['no_winner']:3}/{r['games']}  "
                          f"mean turns {r['mean_turns']:6}  {r['games_per_second']:5} games/s  "
                          f"most steps {r['most_steps']:4}", flush=True)
    if args.json:
        print(json.dumps(rows))
    else:
        bad = [r for r in rows if r["no_winner"]]
        print(f"{len(rows)} runs of {args.games} games; runs with a game that had no winner: {len(bad)}; "
              f"most steps in one action: {max(r['most_steps'] for r in rows)} of {STEP_BUDGET:,}")


if __name__ == "__main__":
    main()
