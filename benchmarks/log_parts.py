"""Where the time of a logged game goes, part by part, in one process.

    python benchmarks/log_parts.py                 # the Original, 4 random bots, 2000 games
    python benchmarks/log_parts.py --games 4000 --edition party
    python benchmarks/log_parts.py --whole --no-parts -g 1000 --rounds 3   # whole runs only

For each seed it plays the game twice, once without recording and once recording
its events (as ``kittens run`` and ``kittens run --log`` do), then writes it as
``run_games`` writes a logged game: the header line, the events' lines, the join
of the pieces (and their encoding) and the one write to a file. Each part is timed around its own
call, interleaved game by game, so a drift of the machine touches every part
alike. Prints microseconds per game for each part and the share of the unlogged
speed a logged run keeps by these parts (``compare.py --log`` measures the
whole runs; this says where the difference lies).

``--whole`` also times whole runs (``simulate.run_games``, as ``kittens run`` plays
them), interleaved in batches of 50 games: unlogged, logged to a sink that keeps
nothing, and logged to a file, so the cost of the file system shows apart from the
rest. On a busy machine this is steadier than ``compare.py --log``, whose rounds
of whole processes each meet a different moment of the machine.

Run it against the installed kittens: with the compiled core (``pip install .``)
the figures are those of a compiled run; ``kittens --version`` says which.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

from kittens import Game, load_edition
from kittens.about import EDITIONS_DIR, engine_core
from kittens.interpreter.engine.players import make_bots
from kittens.interpreter.engine.simulate import LogFile, _HeaderText, play_game, run_games

try:  # the log writer, a module of its own since issue 30 (an older kittens: the log wrote itself)
    from kittens.interpreter.engine.logwriter import write_lines as _write_lines

    def write_log(log, out: list) -> None:
        _write_lines(log.rows, out)
except ImportError:
    def write_log(log, out: list) -> None:
        log.write_lines(out)

PARTS = ("unlogged game", "recorded game", "header", "lines", "join", "write")


def measure(game: Game, games: int, folder: str) -> dict:
    """Microseconds per game of each part (see the module's docstring)."""
    spent = dict.fromkeys(PARTS, 0.0)
    clock = time.perf_counter
    names = ["random"] * game.players
    header = _HeaderText(game, names, {})  # as run_games writes each game's header
    fd = os.open(os.path.join(folder, "games.jsonl"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        for seed in range(games):
            started = clock()
            play_game(game, seed, make_bots(["random"], game.players, seed), record=False)
            played = clock()
            state = play_game(game, seed, make_bots(["random"], game.players, seed), record=True)
            recorded = clock()
            pieces = [header(seed, seed + 1), "\n"]  # game seed+1 of a run from seed 0
            headed = clock()
            write_log(state.table.log, pieces)
            written = clock()
            data = "".join(pieces).encode()
            joined = clock()
            os.write(fd, data)
            done = clock()
            for part, took in zip(PARTS, (played - started, recorded - played, headed - recorded,
                                          written - headed, joined - written, done - joined)):
                spent[part] += took
    finally:
        os.close(fd)
    return {part: seconds / games * 1e6 for part, seconds in spent.items()}


class _Sink:
    """A log that keeps nothing (run_games hands it each game's bytes)."""

    def write_bytes(self, data: bytes) -> None:
        pass


def whole_runs(game: Game, games: int, rounds: int, folder: str, batch: int = 50) -> dict:
    """games/s of whole runs, each kind played in batches of ``batch`` games taken in
    turn (unlogged, logged to a sink, logged to a file: the same seeds for each), so
    that the machine's drift, which lasts seconds, touches each kind alike. ``rounds``
    times ``games`` games of each kind in all; the file is one log, written on."""
    spent = {"unlogged": 0.0, "to a sink": 0.0, "to a file": 0.0}
    played = 0
    with LogFile(os.path.join(folder, "run.jsonl")) as file:
        logs = {"unlogged": None, "to a sink": _Sink(), "to a file": file}
        for first in range(0, games * rounds, batch):
            count = min(batch, games * rounds - first)
            for kind, log in logs.items():
                summary = run_games(game, games=count, seed=first, bots=["random"], log=log,
                                    keep_results=False)
                spent[kind] += summary.seconds
            played += count
    return {kind: played / seconds for kind, seconds in spent.items()}


def parts(game: Game, args: argparse.Namespace) -> None:
    """Print the microseconds per game of each part (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as folder:
        took = measure(game, args.games, folder)
    bare = took["unlogged game"]
    extra = took["recorded game"] - bare + took["header"] + took["lines"] + took["join"] + took["write"]
    print(f"{args.edition}, {args.players} random bots, {args.games} games, {engine_core()} core "
          "(microseconds per game):")
    for part in PARTS:
        print(f"  {part:>14}: {took[part]:7.1f}")
    print(f"  {'recording':>14}: {took['recorded game'] - bare:7.1f}  (the recorded game less the unlogged)")
    print(f"  logging costs {extra:.1f} us a game: a logged run keeps {bare / (bare + extra):.0%} "
          "of the unlogged games/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="original", help="a shipped edition's name")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", "-g", type=int, default=2000)
    parser.add_argument("--whole", action="store_true", help="also time whole runs (see above)")
    parser.add_argument("--no-parts", action="store_true", help="with --whole: time whole runs only")
    parser.add_argument("--rounds", type=int, default=5,
                        help="with --whole: play rounds x games games of each kind")
    args = parser.parse_args()
    game = Game(load_edition(str(EDITIONS_DIR / f"{args.edition}.yaml")), args.players)
    if not (args.whole and args.no_parts):
        parts(game, args)
    if args.whole:
        with tempfile.TemporaryDirectory() as folder:
            speeds = whole_runs(game, args.games, args.rounds, folder)
        print(f"whole runs, {args.rounds} x {args.games} games of each, interleaved 50 at a time (games/s):")
        for kind, speed in speeds.items():
            print(f"  {kind:>14}: {speed:7.0f}  ({speed / speeds['unlogged']:.0%} of unlogged)")


if __name__ == "__main__":
    main()
