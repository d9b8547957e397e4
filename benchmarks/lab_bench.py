"""The balance lab's throughput, measured side by side on this machine.

    python benchmarks/lab_bench.py                      # the Original, 4 random bots
    python benchmarks/lab_bench.py --games 3000 --rounds 5 --bots heuristic,random

Prints, each as games per second:

1. one core: bare games as `kittens run` plays them (simulate.run_games, no
   record kept) against `kittens simulate -j 1` with every statistic (the lab's
   records, sums and summary), in interleaved rounds, and the ratio (target: at
   least 90% kept);
2. every core: `kittens simulate` on 1 worker process and on N (all cores), both
   through the process pool, so the ratio is the scaling alone (target: within
   10% of N times); wall time includes starting the workers, and "steady" counts
   only the time after the first chunk came back;
3. a Dask LocalCluster of N worker processes on 127.0.0.1 (`--scheduler`).

The machine is shared and noisy: compare figures of one run, not across runs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time

from kittens import Game, load_edition
from kittens.interpreter.engine.simulate import run_games
from kittens.lab.rulesets import Ruleset
from kittens.lab.runner import Job, prepare, run_job
from kittens.lab.summary import summarize


def cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the workers)."""
    mine, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + kids.ru_utime + kids.ru_stime


def bare(edition, players: int, games: int, bots: list, seed: int) -> tuple:
    """(games/s of wall time, games per CPU second)."""
    game = Game(edition, players)
    started, used = time.perf_counter(), cpu()
    run_games(game, games=games, seed=seed, bots=bots, keep_results=False)
    return games / (time.perf_counter() - started), games / (cpu() - used)


def lab(job, digests, workers: int, scheduler=None, in_process=None) -> tuple:
    """(games/s over the wall time, games/s after the first chunk came back, games per CPU
    second of this process and its workers: what scaling would give on idle cores)."""
    marks = []
    used = cpu()

    def seen(done, total):
        marks.append((time.perf_counter(), done))

    started = time.perf_counter()
    outcome = run_job(job, digests, workers=workers, on_progress=seen, scheduler=scheduler,
                      in_process=in_process)
    summarize(outcome.lab.tallies[0], label="bench")
    ended = time.perf_counter()
    first = next(((t, d) for t, d in marks if d > 0), None)
    steady = (outcome.games - first[1]) / (ended - first[0]) if first and ended > first[0] else None
    return outcome.games / (ended - started), steady, outcome.games / (cpu() - used)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default="original")
    parser.add_argument("--players", "-p", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--games", "-g", type=int, default=2000, help="games per one-core round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scale-games", type=int, default=12000, help="games for the 1-vs-N runs")
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    bots = args.bots.split(",")
    edition = load_edition(args.rules)
    print(f"{edition.name}, {args.players} players, bots {args.bots}, {cores} cores, "
          f"load average {os.getloadavg()[0]:.1f} (other work on the machine slows the N-core figures)")

    job, digests = prepare(Job((Ruleset(args.rules),), args.players, tuple(bots), games=args.games))
    lab(job, digests, 1)  # warm: compile once here, as the bare games do
    plain, full = [], []
    for k in range(args.rounds):
        job_k, _ = prepare(Job(job.arms, args.players, tuple(bots), seed=k * args.games, games=args.games))
        plain.append(bare(edition, args.players, args.games, bots, k * args.games))
        full.append(lab(job_k, digests, 1))
        print(f"  round {k + 1}: bare {plain[-1][0]:,.0f}  lab {full[-1][0]:,.0f} games/s "
              f"(per CPU second: {plain[-1][1]:,.0f} and {full[-1][2]:,.0f})")
    b, f = statistics.median(p[0] for p in plain), statistics.median(x[0] for x in full)
    bc, fc = statistics.median(p[1] for p in plain), statistics.median(x[2] for x in full)
    print(f"one core: bare `kittens run` {b:,.0f} games/s, `kittens simulate -j 1` {f:,.0f} games/s: "
          f"{100 * f / b:.0f}% kept ({100 * fc / bc:.0f}% per CPU second: {bc:,.0f} and {fc:,.0f})")

    big, _ = prepare(Job(job.arms, args.players, tuple(bots), games=args.scale_games))
    one = lab(big, digests, 1, in_process=False)
    every = lab(big, digests, cores, in_process=False)
    print(f"1 worker process: {one[0]:,.0f} games/s wall, {one[1]:,.0f} steady, {one[2]:,.0f} per CPU second")
    print(f"{cores} worker processes: {every[0]:,.0f} games/s wall, {every[1]:,.0f} steady: "
          f"{every[1] / one[1]:.2f}x the steady rate of one ({cores}x is linear); "
          f"{every[2]:,.0f} per CPU second ({100 * every[2] / one[2]:.0f}% of one worker's: the "
          f"cost of spreading the work)")
    if not args.no_dask:
        from dask.distributed import LocalCluster
        with LocalCluster(n_workers=cores, threads_per_worker=1, processes=True, host="127.0.0.1",
                          dashboard_address=None, silence_logs=40) as cluster:
            lab(job, digests, 1, cluster.scheduler_address)  # warm the workers: imports, rules
            wall, steady, _cpu = lab(big, digests, cores, cluster.scheduler_address)
        print(f"Dask LocalCluster, {cores} worker processes: {wall:,.0f} games/s wall, {steady:,.0f} steady")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
