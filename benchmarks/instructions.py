"""Count the machine instructions a game takes, for commits side by side.

On a shared, busy machine games/s drift by several percent from one minute to
the next (benchmarks/compare.py interleaves rounds to tame that, but a change
of 2% still drowns). The number of instructions a game executes hardly moves:
this runs the games under valgrind's callgrind, once with no game and once
with ``-g`` games, and prints the difference per game for each commit, with
the ratio. Slow (valgrind runs Python some fifty times slower): 200 games take
about half a minute a run. Needs valgrind (apt-get install valgrind).

    python benchmarks/instructions.py main HEAD                 # random bots, unlogged
    python benchmarks/instructions.py main HEAD --mode logged   # and writing the log
    python benchmarks/instructions.py HEAD --mode both          # logged against unlogged
    python benchmarks/instructions.py A B --mode both --cycles  # memory misses weighed in
    python benchmarks/instructions.py A B --mode both --cycles --ll-cache 1  # ... in a small cache

``--cycles`` runs callgrind's cache simulation and reports Cachegrind's estimate of
cycles (each instruction 1, each first-level cache miss 10, each last-level miss
100): a change that runs fewer instructions but misses the caches more shows there,
as it does in games/s, still without the drift of a busy machine. ``--ll-cache MB``
simulates a smaller last-level cache than the machine's own (valgrind takes the
host's): on a shared machine other tenants hold most of it. Every run uses
one hash seed (PYTHONHASHSEED=0), so that a run repeats exactly.

Modes: ``unlogged`` (play_game as ``kittens bench``), ``logged`` (run_games
writing every game to a log as ``kittens run --log``, to a file that keeps
nothing), ``heuristic`` (four heuristic bots, unlogged), ``setup`` (dealing
tables only) and ``both`` (unlogged and logged).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import checkout  # noqa: E402  (the commit as an importable folder)

#: the games, run in a child with the commit's folder first on its path
GAMES = """
import os, sys
from kittens.about import EDITIONS_DIR
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import make_bots
from kittens.interpreter.engine.simulate import run_games, play_game
from kittens.interpreter.rules.load import load_edition
mode, games, players, edition = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
game = Game(load_edition(str(EDITIONS_DIR / edition)), players)

class Nowhere:
    def write(self, text): pass
    def write_bytes(self, data): pass

if mode == "setup":
    for seed in range(games):
        game.new_state(seed, record=False)
elif mode == "logged":
    run_games(game, games=games, seed=0, bots=["random"], log=Nowhere(), keep_results=False)
else:
    bots = ["heuristic"] if mode == "heuristic" else ["random"]
    for seed in range(games):
        play_game(game, seed, make_bots(bots, players, seed), record=False)
"""


def instructions(path: Path, mode: str, games: int, args) -> dict:
    """What callgrind counts for ``games`` games of ``mode`` in the checkout: instructions,
    and with --cycles its estimate of cycles too (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                   *(["--cache-sim=yes"] if args.cycles else []),
                   *([f"--LL={args.ll_cache << 20},16,64"] if args.cycles and args.ll_cache else []),
                   sys.executable, "-c", GAMES, mode, str(games), str(args.players), args.edition]
        # one hash seed: a string's hash decides the probes of every dict lookup
        done = subprocess.run(command, env={**os.environ, "PYTHONPATH": str(path), "PYTHONHASHSEED": "0"},
                              capture_output=True, text=True)
        if done.returncode or not os.path.exists(out):
            sys.exit(f"the games failed under valgrind:\n{done.stderr[-2000:]}")
        with open(out, encoding="utf-8") as handle:
            counted = dict(_totals(handle))
    found = {"instructions": counted["Ir"]}
    if args.cycles:  # Cachegrind's estimate: a first-level miss costs about 10 cycles, a last-level 100
        found["estimated cycles"] = (counted["Ir"] + 10 * (counted["I1mr"] + counted["D1mr"] + counted["D1mw"])
                                     + 100 * (counted["ILmr"] + counted["DLmr"] + counted["DLmw"]))
    return found


def _totals(lines):
    """(event, total) pairs of a callgrind output file."""
    events = None
    for line in lines:
        if line.startswith("events:"):
            events = line.split()[1:]
        elif line.startswith(("totals:", "summary:")) and events:
            yield from zip(events, map(int, line.split()[1:]))
            return


def per_game(path: Path, mode: str, args) -> dict:
    instructions(path, mode, 1, args)  # compile the checkout's modules once, outside the count
    played, bare = instructions(path, mode, args.games, args), instructions(path, mode, 0, args)
    return {unit: (played[unit] - bare[unit]) / args.games for unit in played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs="+", help="one or two commits (A B): B is compared with A")
    parser.add_argument("--mode", default="unlogged",
                        choices=["unlogged", "logged", "heuristic", "setup", "both"])
    parser.add_argument("--edition", default="original.yaml",
                        help="a shipped edition's file name (original.yaml) or name (original)")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("-g", "--games", type=int, default=200)
    parser.add_argument("--cycles", action="store_true",
                        help="also estimate cycles (callgrind's cache simulation: memory misses "
                             "weighed in); about twice as slow")
    parser.add_argument("--ll-cache", type=int, metavar="MB",
                        help="with --cycles: simulate a last-level cache of this many MB (a power "
                             "of two; 16-way) instead of this machine's. A shared machine's busy "
                             "neighbours leave a game far less than the whole cache, and a change "
                             "that holds more memory can win by instructions and lose by time")
    args = parser.parse_args()
    if not args.edition.endswith(".yaml"):  # a shipped edition by name, as the CLI takes it
        args.edition += ".yaml"
    if args.ll_cache is not None and (args.ll_cache < 1 or args.ll_cache & (args.ll_cache - 1)):
        sys.exit(f"--ll-cache {args.ll_cache}: give a power of two (1, 2, 4, ... MB)")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    modes = ["unlogged", "logged"] if args.mode == "both" else [args.mode]
    units = ["instructions", "estimated cycles"] if args.cycles else ["instructions"]
    with tempfile.TemporaryDirectory() as tmp:
        paths = {ref: checkout(ref, Path(tmp)) for ref in args.refs}
        figures = {}
        for ref in args.refs:
            for mode in modes:
                counted = per_game(paths[ref], mode, args)
                for unit in units:
                    figures[(ref, mode, unit)] = counted[unit]
                print(f"{ref}: {mode}: " + ", ".join(f"{counted[unit] / 1e6:.3f}M {unit}" for unit in units)
                      + " a game", flush=True)
    for unit in units:
        report(args, modes, figures, unit)


def report(args, modes: list, figures: dict, unit: str) -> None:
    cache = f", a {args.ll_cache} MB last-level cache" if args.cycles and args.ll_cache else ""
    print(f"\n{args.edition}, {args.players} players, {args.games} games (callgrind{cache}, {unit}):")
    for mode in modes:
        if len(args.refs) == 2:
            first, second = (figures[(ref, mode, unit)] for ref in args.refs)
            print(f"  {mode}: {args.refs[1]} / {args.refs[0]} = {second / first:.3f} ({unit} a game)")
    if args.mode == "both":
        for ref in args.refs:
            share = figures[(ref, "unlogged", unit)] / figures[(ref, "logged", unit)]
            print(f"  {ref}: a logged game takes {1 / share:.3f}x the {unit} of an unlogged one "
                  f"(logging would keep {share:.1%} of the games/s)")

if __name__ == "__main__":
    main()
