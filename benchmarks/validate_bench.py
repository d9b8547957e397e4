"""Time rule-file validation and edition loading, and print the figures.

    python benchmarks/validate_bench.py [--runs N]
    python benchmarks/validate_bench.py --compare f9e6c59 HEAD --runs 15 editions/barking.yaml editions/imploding.yaml

Prints the wall time of `kittens validate editions/ rulebook/` as a whole
process (interpreter start and imports included), and the time to compile the
Original Edition in process, cold (first load: grammar and schemas built) and
warm (later loads). Target: the whole-process validation under 500 ms.

``--compare A B ...`` times `kittens validate FILES` (paths in the checkout) for each
commit instead, checked out as compare.py checks them out and run in turn, round
after round, so that a drift of the shared machine touches each alike; it prints
the median and best of each and each commit's ratio to the first.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def whole_process(runs: int) -> list[float]:
    kittens = shutil.which("kittens")
    command = [kittens] if kittens else [sys.executable, "-m", "kittens"]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command + ["validate", "editions/", "rulebook/"], cwd=ROOT,
                              capture_output=True, text=True)
        times.append((time.perf_counter() - start) * 1000)
        if done.returncode != 0:
            sys.exit(f"validation failed:\n{done.stdout}{done.stderr}")
    return times


def compare(refs: list[str], files: list[str], runs: int) -> None:
    """Whole-process `kittens validate FILES` of each commit, interleaved (see the docstring)."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from compare import checkout

    with tempfile.TemporaryDirectory() as tmp:
        paths = {ref: checkout(ref, Path(tmp)) for ref in refs}
        times: dict[str, list[float]] = {ref: [] for ref in refs}
        for _ in range(runs):
            for ref in refs:
                command = [sys.executable, "-m", "kittens", "validate",
                           *(str(paths[ref] / "kittens" / name) for name in files)]
                start = time.perf_counter()
                done = subprocess.run(command, env={**os.environ, "PYTHONPATH": str(paths[ref])},
                                      capture_output=True, text=True)
                times[ref].append((time.perf_counter() - start) * 1000)
                if done.returncode != 0:
                    sys.exit(f"{ref}: validation failed:\n{done.stdout}{done.stderr}")
    print(f"kittens validate {' '.join(files)} (whole process, {runs} rounds interleaved):")
    first = statistics.median(times[refs[0]])
    for ref in refs:
        median = statistics.median(times[ref])
        print(f"  {ref:>12}: median {median:.0f} ms, best {min(times[ref]):.0f} ms"
              f" ({median / first:.2f}x the first's median)")


def in_process(runs: int) -> tuple[float, list[float]]:
    start = time.perf_counter()
    from kittens.interpreter.rules.load import load_edition

    path = str(ROOT / "editions" / "original.yaml")
    load_edition(path)
    cold = (time.perf_counter() - start) * 1000
    warm = []
    for _ in range(runs):
        start = time.perf_counter()
        load_edition(path)
        warm.append((time.perf_counter() - start) * 1000)
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--compare", nargs="+", metavar="REF", help="commits to time side by side")
    parser.add_argument("files", nargs="*", default=["editions/", "rulebook/"],
                        help="what --compare validates (paths in the checkout)")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, Python {sys.version.split()[0]}, load {os.getloadavg()[0]:.1f}")
    if args.compare:
        compare(args.compare, args.files, args.runs)
        return
    times = whole_process(args.runs)
    print(f"kittens validate editions/ rulebook/ (whole process, {args.runs} runs): "
          f"median {statistics.median(times):.0f} ms, best {min(times):.0f} ms, "
          f"worst {max(times):.0f} ms (target < 500 ms)")
    cold, warm = in_process(args.runs * 5)
    print(f"load editions/original.yaml in process: cold {cold:.1f} ms (imports, grammar, "
          f"schemas), warm median {statistics.median(warm):.1f} ms over {len(warm)} loads")


if __name__ == "__main__":
    main()
