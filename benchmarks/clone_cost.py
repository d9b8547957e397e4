"""What a copy of a game in progress (``State.clone``) costs against a whole game.

A search player copies the game it is in at every decision, so a copy must stay
cheap next to playing a game: issue 29 asks for at most 5% of a game. For each
seed this plays a random-bot game as ``kittens bench`` does (timed whole), plays
it again up to its middle decision, and times ``clone()`` there; game and copies
alternate seed by seed, so the drift of a busy machine touches both alike.

    python benchmarks/clone_cost.py                    # the Original, 4 players, 300 games
    python benchmarks/clone_cost.py -g 500 --record    # games that record their events
    KITTENS_PURE_PYTHON=1 python benchmarks/clone_cost.py   # the pure-Python core

Prints the median game, the median copy and their ratio, and which core ran.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kittens.about import EDITIONS_DIR, engine_core
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import make_bots
from kittens.interpreter.engine.simulate import play_game
from kittens.interpreter.rules.load import load_edition


def to_middle(game: Game, seed: int, decisions: int, record: bool):
    """The seeded game replayed (the same bots) until half its decisions are made."""
    bots = make_bots(["random"], game.players, seed)
    state = game.new_state(seed, record=record)
    while state.decisions < decisions // 2 and not state.is_terminal():
        decision = state.decision()
        options = decision.options
        state.apply_action(options[0] if len(options) == 1 else bots[decision.seat].choose(None, decision))
    return state


def measure(game: Game, games: int, copies: int, record: bool) -> tuple[list, list]:
    """Per seed: the whole game's seconds, and one copy's seconds at its middle (the
    median of ``copies`` copies)."""
    whole, copy = [], []
    for seed in range(games):
        started = time.perf_counter()
        state = play_game(game, seed, make_bots(["random"], game.players, seed), record=record)
        whole.append(time.perf_counter() - started)
        middle = to_middle(game, seed, state.decisions, record)
        if middle.is_terminal():
            continue
        times = []
        for _ in range(copies):
            started = time.perf_counter()
            middle.clone()
            times.append(time.perf_counter() - started)
        copy.append(statistics.median(times))
    return whole, copy


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="original.yaml")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("-g", "--games", type=int, default=300)
    parser.add_argument("--copies", type=int, default=5, help="copies timed at each game's middle")
    parser.add_argument("--record", action="store_true", help="games that record their events")
    args = parser.parse_args(argv)
    game = Game(load_edition(str(EDITIONS_DIR / args.edition)), args.players)
    measure(game, 20, 2, args.record)  # warm up
    whole, copy = measure(game, args.games, args.copies, args.record)
    game_us, copy_us = statistics.median(whole) * 1e6, statistics.median(copy) * 1e6
    print(f"{args.edition}, {args.players} random bots, {args.games} games, events "
          f"{'recorded' if args.record else 'off'}, {engine_core()} engine core")
    print(f"  a game (median): {game_us:,.0f} us")
    print(f"  clone() at its middle decision (median): {copy_us:,.1f} us")
    print(f"  a copy costs {copy_us / game_us:.1%} of a game")


if __name__ == "__main__":
    main()
