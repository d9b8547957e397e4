"""Search iterations per second, commits side by side, on the same positions and budgets.

    python benchmarks/search_bench.py 00e4618 HEAD                      # pure-Python cores
    python benchmarks/search_bench.py 00e4618 HEAD HEAD+compiled --rounds 3
    python benchmarks/search_bench.py HEAD --specs ismcts,ismcts:search=paired

Each commit is checked out into a temporary folder (as benchmarks/compare.py does;
``REF+compiled`` builds its compiled core first) and, in a process of its own,
finds the same positions (decisions with several options, taken from heuristic
games of the 4-player Original with fixed seeds) and asks the search player of
each spec to decide at each of them. The rounds interleave the commits (A, B, A,
B, ...), so a busy machine slows them alike; each figure is the median of the
rounds, in milliseconds per 100 iterations and iterations per second, with the
ratio to the first commit's default (``ismcts``) on the same positions. Time is
counted in CPU seconds of the measuring process (``time.process_time``): on a
machine shared with other jobs the wall clock counts their work too, the CPU
time only the search's.

An iteration is what the spec's own count counts: at 00e4618 one dealt world in
which every root option is tried (a walk each); with ``search=single`` one world
and one walk. Both are printed with the walks they took, so a ratio of walks per
second is at hand too. A spec a commit does not know (a setting it lacks) is
shown as "-".
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import checkout  # noqa: E402  (benchmarks/compare.py: a commit as a folder)

#: run inside a checkout: time each spec on the positions, print one JSON line
CHILD = r"""
import json, random, sys, time
from kittens.interpreter.engine.game import Game
from kittens.interpreter.engine.players import make_players
from kittens.interpreter.engine.views import SearchView
from kittens.interpreter.rules.load import load_edition
from kittens.interpreter.engine import search

args = json.loads(sys.argv[1])
game = Game(load_edition("original"), 4)
rng = random.Random(args["seed"])
found, index = [], 0
while len(found) < args["positions"]:
    state = game.new_state(args["seed"] + index, record=False)
    index += 1
    bots = make_players(["heuristic"], 4, args["seed"] + index)
    for seat, bot in enumerate(bots):
        bot.start(game, seat)
    while not state.is_terminal():
        decision = state.decision()
        if len(decision.options) > 1 and rng.random() < 0.15 and len(found) < args["positions"]:
            found.append(state.clone())
        option = decision.options[0] if len(decision.options) == 1 else \
            bots[decision.seat].choose(state.view(decision.seat), decision)
        state.apply_action(option)
walks = [0]
def counting(walk):
    def counted(self, *rest):
        walks[0] += 1
        return walk(self, *rest)
    return counted
for name in ("_iterate", "_iterate_multi"):  # a walk of one tree, or of a tree per seat (search=multi)
    if hasattr(search.ISMCTSBot, name):
        setattr(search.ISMCTSBot, name, counting(getattr(search.ISMCTSBot, name)))
rows = {}
for spec in args["specs"]:
    try:
        bots = [make_players([spec], 4, 1)[0] for _ in found]
    except Exception as exc:
        rows[spec] = None
        continue
    for state, bot in zip(found, bots):  # worlds' rules learnt, first calls made, before timing
        bot.start(game, state.decision().seat)
    iterations, walks[0], seconds = 0, 0, 0.0
    for state, bot in zip(found, bots):
        seat = state.decision().seat
        view = SearchView(state, seat)
        started = time.process_time()
        bot.choose(view, state.decision())
        seconds += time.process_time() - started
        iterations += bot.searched
    rows[spec] = {"iterations": iterations, "walks": walks[0], "seconds": seconds}
print(json.dumps(rows))
"""

DEFAULT_SPECS = "ismcts:iterations=100,ismcts:iterations=100:search=paired,ismcts:iterations=100:search=single"


def measure(path: Path, specs: list, positions: int, seed: int) -> dict:
    """spec -> {iterations, walks, seconds} (None: the commit does not know the spec)."""
    payload = json.dumps({"specs": specs, "positions": positions, "seed": seed})
    out = subprocess.run([sys.executable, "-c", CHILD, payload], env={**os.environ, "PYTHONPATH": str(path)},
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs="+", help="commits, the first the base; REF+compiled builds its core")
    parser.add_argument("--specs", default=DEFAULT_SPECS, help="search players to time, comma-separated")
    parser.add_argument("--positions", type=int, default=10, help="positions (10)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, commits interleaved (3)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    specs = [spec.strip() for spec in args.specs.split(",") if spec.strip()]
    figures: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths = {ref: checkout(ref, Path(tmp)) for ref in args.refs}
        for round_ in range(args.rounds):
            for ref in args.refs:
                rows = measure(paths[ref], specs, args.positions, args.seed)
                for spec, row in rows.items():
                    figures.setdefault((ref, spec), []).append(row)
                print(f"round {round_ + 1}: {ref} done", flush=True)
    base = None
    print(f"\n4-player Original, {args.positions} positions, median of {args.rounds} rounds:")
    print(f"  {'commit':<16} {'spec':<48} {'ms/100 it':>10} {'it/s':>8} {'walks/it':>8} {'vs base':>8}")
    for (ref, spec), rows in figures.items():
        if any(row is None for row in rows):
            print(f"  {ref:<16} {spec:<48} {'-':>10}")
            continue
        per_100 = statistics.median(1000 * row["seconds"] / row["iterations"] * 100 for row in rows)
        walks = rows[0]["walks"] / rows[0]["iterations"]
        if base is None:
            base = per_100
        print(f"  {ref:<16} {spec:<48} {per_100:>10.1f} {100_000 / per_100:>8.0f} {walks:>8.2f} "
              f"{base / per_100:>7.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
