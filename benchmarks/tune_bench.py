"""Issue 45's two measurements: how many games `kittens tune` and `compare --until-settled`
save, on this machine (not a test: minutes of games on every core).

    python benchmarks/tune_bench.py                 # both
    python benchmarks/tune_bench.py --only settle   # the second only (about a minute)
    python benchmarks/tune_bench.py --games 400 --trials 30 --run-grid

1. Tuning: the Original's three-parameter space (Nopes 2-8, Attacks 2-6, cards in hand
   4-8: 175 points) to a game length and seat fairness. Tune plays each trial the same
   games a grid sweep plays at each point (so the same precision per point); the grid's
   games are points x games (played for real only with --run-grid). Target: the tuned
   point meets the length target with at least 3x fewer games than the grid.
2. Settling: `compare --until-settled` on a rule with a clear effect on game length
   (the Original's beginner variant) against the fixed default of 1,000 games.
   Target: at least 5x fewer games.

Each prints its figures and the command that reproduces it. The machine is shared:
compare games, which do not depend on the load, rather than seconds, which do.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time

SPACE = ["-x", "count.nope=2..8", "-x", "count.attack=2..6", "-x", "param.hand_size=4..8"]
POINTS = 7 * 5 * 5


def kittens(args: list, folder: str) -> tuple[dict, float, str]:
    """Run a kittens command with --format json in ``folder``: its data, wall seconds, the
    command line (file names in it are relative to the folder)."""
    line = [sys.executable, "-m", "kittens", *args, "--format", "json"]
    started = time.perf_counter()
    done = subprocess.run(line, capture_output=True, text=True, check=False, cwd=folder)
    took = time.perf_counter() - started
    if done.returncode not in (0, 130):
        raise SystemExit(f"{shlex.join(line)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout), took, "kittens " + shlex.join(args)


def tuning(games: int, trials: int, run_grid: bool, folder: str) -> None:
    args = ["tune", "original", *SPACE, "-t", "turns 30..34", "-t", "fairness", "-g", str(games),
            "--first-batch", str(max(100, games // 4)), "-n", str(trials), "--study", "bench.db",
            "--out", "best.yaml"]
    data, took, line = kittens(args, folder)
    best = data["candidates"][0]
    grid = POINTS * games
    length = best["targets"][0]
    print("1. tune against a grid sweep of the same space (same games per point)")
    print(f"   {line}")
    print(f"   {data['games']:,} games in {took:.0f} s over {len({json.dumps(t['point']) for t in data['trials']})} "
          f"points; the grid: {POINTS} points x {games} = {grid:,} games "
          f"({grid / max(data['games'], 1):.1f}x as many; target >= 3x)")
    print(f"   best {best['point']}: turns {length['value']:.1f} "
          f"(95% CI {length['ci'][0]:.1f} to {length['ci'][1]:.1f}), "
          f"length target {'met' if length['met'] in ('yes', 'clearly') else 'missed'}; "
          f"fairness {best['targets'][1]['value']:.1f} points")
    if run_grid:  # the grid for real, one sweep per (nope, attack) pair over hand sizes
        started, met = time.perf_counter(), 0
        for nope in range(2, 9):
            for attack in range(2, 7):
                house = f"g_{nope}_{attack}.yaml"
                with open(os.path.join(folder, house), "w", encoding="utf-8") as handle:
                    handle.write(f"format: 1\nkind: edition\nid: g\nname: g\nextends: original\n"
                                 f"set_counts: {{nope: {nope}, attack: {attack}}}\n")
                found, _took, _line = kittens(["sweep", house, "--set", "hand_size=4..8", "-g", str(games)], folder)
                met += sum(30 <= p["turns"] <= 34 for p in found["curve"]["points"])
        print(f"   the grid played: {time.perf_counter() - started:.0f} s, {met} of {POINTS} points meet turns 30..34")


def settling(folder: str) -> None:
    args = ["compare", "original", "original@beginner", "--until-settled", "--settle", "turns", "--batch", "100",
            "-g", "20000"]
    data, took, line = kittens(args, folder)
    found = data["sequential"]
    row = found["figures"][0]
    print("2. compare --until-settled against the fixed default (1,000 games)")
    print(f"   {line}")
    print(f"   {found['games']:,} games ({found['looks']} look(s), stopped: {found['stopped']}) in {took:.0f} s: "
          f"{1000 / found['games']:.1f}x fewer than 1,000 (target >= 5x); turns {100 * row['estimate']:+.1f}% "
          f"(95% confidence sequence {100 * row['ci'][0]:+.1f}% to {100 * row['ci'][1]:+.1f}%)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per trial and per grid point")
    parser.add_argument("--trials", type=int, default=30, help="points tune plays")
    parser.add_argument("--run-grid", action="store_true", help="play the grid too (175 points: long)")
    parser.add_argument("--only", choices=("tune", "settle"))
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        if options.only != "settle":
            tuning(options.games, options.trials, options.run_grid, folder)
        if options.only != "tune":
            settling(folder)


if __name__ == "__main__":
    main()
