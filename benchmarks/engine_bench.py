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
from kittens.interpreter.engine.simulate import benchmark  # noqa: E402
from kittens.interpreter.rules.load import load_edition  # noqa: E402


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
    print(f"  memory: {memory_per_game(edition, args.players)}")


def memory_per_game(edition, players: int) -> str:
    """Bytes a game holds halfway through, with and without its event log."""
    import random
    import tracemalloc

    from kittens.interpreter.engine.game import Game

    game = Game(edition, players)
    sizes = {}
    for record in (False, True):
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        state = game.new_state(5, record=record)
        rng = random.Random(5)
        for _ in range(40):
            if state.is_terminal():
                break
            options = state.legal_actions()
            state.apply_action(options[rng.randrange(len(options))])
        sizes[record] = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        del state
    return (f"a game 40 decisions in holds {sizes[False] / 1024:.0f} KiB "
            f"({sizes[True] / 1024:.0f} KiB with its events)")


if __name__ == "__main__":
    main()
