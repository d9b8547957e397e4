"""Every shipped edition, expansion and variant at every allowed player count, under
random and heuristic bots: games played, games with no winner, mean turns, games/s.

    python benchmarks/editions_matrix.py [--games 200] [--json]

The issue that shipped the editions asks that every one of them plays to a winner
under both bots at every allowed player count; this prints the evidence.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # the folder holding `kittens`

from kittens.interpreter.catalog import catalog  # noqa: E402
from kittens.interpreter.game import Game  # noqa: E402
from kittens.interpreter.simulate import run_games  # noqa: E402
from kittens.interpreter.validate import load_edition  # noqa: E402


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
            game = Game(edition, players)
            for bots in ("random", "heuristic"):
                summary = run_games(game, games=args.games, seed=0, bots=[bots])
                rows.append({"edition": label, "players": players, "bots": bots, "games": summary.games,
                             "no_winner": summary.no_winner,
                             "mean_turns": round(summary.turns / summary.games, 1),
                             "games_per_second": round(summary.games / summary.seconds)})
                if not args.json:
                    r = rows[-1]
                    print(f"{label:28} {players:2}p {bots:9} no_winner {r['no_winner']:3}/{r['games']}  "
                          f"mean turns {r['mean_turns']:6}  {r['games_per_second']:5} games/s", flush=True)
    if args.json:
        print(json.dumps(rows))
    else:
        bad = [r for r in rows if r["no_winner"]]
        print(f"{len(rows)} runs of {args.games} games; runs with a game that had no winner: {len(bad)}")


if __name__ == "__main__":
    main()
