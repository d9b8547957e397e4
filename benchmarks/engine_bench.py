"""Engine speed: random-bot games of the Original at 4 players, on one core.

    python benchmarks/engine_bench.py [--games 2000]

Prints games and decisions per second with the event log off (what `kittens
run` does without --log) and on. The same figures come from `kittens bench`.
Target (issue 3): at least 300 games/s; the product aims at 1,000 or more.
"""

import argparse
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from kittens import EDITIONS_DIR  # noqa: E402
from kittens.interpreter.simulate import benchmark  # noqa: E402
from kittens.interpreter.validate import load_edition  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    edition = load_edition(str(EDITIONS_DIR / "original.yaml"))
    print(f"Python {platform.python_version()} on {platform.machine()}, one core; "
          f"{args.games} games x {args.rounds} rounds, best round")
    for record in (False, True):
        f = benchmark(edition, players=args.players, games=args.games, rounds=args.rounds, record=record)
        print(f"  events {'on ' if record else 'off'}: {f['games_per_second']:8,.0f} games/s  "
              f"{f['decisions_per_second']:9,} decisions/s  ({f['decisions_per_game']} decisions/game)")


if __name__ == "__main__":
    main()
