"""Fingerprints of seeded games: do two commits play exactly the same games?

A change meant only to make the engine faster must not change a single game:
the same edition, seed and decisions give the same events. This plays a batch
of seeded games of every shipped edition (random and heuristic bots, logged)
and prints one hash per edition of everything they recorded, and one for all.

    python benchmarks/fingerprint.py            # before the change, then after
    python benchmarks/fingerprint.py -g 50 --search 2

``--search N`` adds N games with a search player (a few iterations), whose
choices depend on every clone and dealt world being the same too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from kittens.about import EDITIONS_DIR
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import make_players
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.rules.load import load_edition


def fingerprint(edition, players: int, games: int, specs: list[str], seed: int = 0) -> str:
    digest = hashlib.sha256()
    game = Game(edition, players)
    for index in range(games):
        state = play_game(game, seed + index, make_players(specs, players, seed + index), record=True)
        digest.update(json.dumps(state.events, sort_keys=True, default=str).encode())
        digest.update(repr((state.winners, state.table.turn, state.decisions)).encode())
    return digest.hexdigest()[:16]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-g", "--games", type=int, default=30, help="games per edition and bot kind (30)")
    parser.add_argument("--search", type=int, default=0, help="games with a search player (0)")
    args = parser.parse_args(argv)
    whole = hashlib.sha256()
    for path in sorted(EDITIONS_DIR.glob("*.yaml")):
        name = path.stem
        edition = load_edition(str(path))
        players = max(edition.players[0], min(4, edition.players[1]))
        rows = [fingerprint(edition, players, args.games, ["random"]),
                fingerprint(edition, players, args.games, ["heuristic", "random"])]
        if args.search:
            rows.append(fingerprint(edition, players, args.search,
                                    ["ismcts:iterations=4", "heuristic"]))
        whole.update(" ".join(rows).encode())
        print(f"{name:<16} {' '.join(rows)}", flush=True)
    print(f"{'all':<16} {whole.hexdigest()[:16]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
