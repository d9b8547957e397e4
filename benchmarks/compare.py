"""Time two commits of kittens side by side, on this machine, in one run.

The machine is shared and noisy, so absolute figures drift from minute to
minute; a ratio measured with both commits interleaved (A, B, A, B, ...)
does not. Each commit is checked out into a temporary folder named
``kittens`` and run with its own command line (``python -m kittens``), so any
two commits compare, however their modules are laid out.

    python benchmarks/compare.py 767fe87 HEAD             # kittens bench, 4 random bots
    python benchmarks/compare.py 767fe87 HEAD --log       # kittens run with and without --log
    python benchmarks/compare.py HEAD --log                # one commit: logged against unlogged
    python benchmarks/compare.py 767fe87 HEAD HEAD+compiled  # the sources, and the compiled core

A commit named with ``+compiled`` has its engine core compiled in its folder first, as
``pip install .`` compiles it (``setup.py build_ext --inplace``: this needs Cython,
``pip install cython``, and a C compiler); a plain commit runs its Python sources.

Prints games/s for each round, the median and the best round of each, and each
commit's ratio to the first by both (on a busy machine the best round is the least
disturbed one; the two agree on a quiet machine).
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

ROOT = Path(__file__).resolve().parent.parent


COMPILED = "+compiled"


def checkout(ref: str, where: Path) -> Path:
    """The commit ``ref`` as a folder named kittens (importable as the package), with
    its core compiled in place when ``ref`` ends in ``+compiled``."""
    commit = ref.removesuffix(COMPILED)
    folder = where / ref.replace("/", "_") / "kittens"
    folder.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    if ref.endswith(COMPILED):
        if not (folder / "setup.py").exists():
            sys.exit(f"{commit} has no setup.py: it has no compiled core to build")
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=folder, check=True)
        probe = subprocess.run([sys.executable, "-c", "from kittens.about import engine_core; print(engine_core())"],
                               env={**os.environ, "PYTHONPATH": str(folder.parent)}, capture_output=True,
                               text=True, check=True).stdout.strip()
        if probe != "compiled":
            sys.exit(f"{ref}: the core did not compile (see the messages above)")
    return folder.parent


def bench(path: Path, args: argparse.Namespace) -> float:
    """games/s of one round of `kittens bench` in the checkout at ``path``."""
    command = [sys.executable, "-m", "kittens", "bench", str(path / "kittens" / "editions" / args.edition),
               "-p", str(args.players), "-g", str(args.games), "--rounds", "1", "--json"]
    if args.events:
        command.append("--events")
    out = subprocess.run(command, env={**os.environ, "PYTHONPATH": str(path)}, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["games_per_second"]


def run(path: Path, args: argparse.Namespace, log: bool) -> float:
    """games/s of `kittens run` (bots random), with or without writing a log."""
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "kittens", "run",
                   str(path / "kittens" / "editions" / args.edition), "-p", str(args.players),
                   "-g", str(args.games), "--json"]
        if log:
            command += ["--log", os.path.join(folder, "games.jsonl")]
        out = subprocess.run(command, env={**os.environ, "PYTHONPATH": str(path)}, check=True,
                             capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])["games_per_second"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("refs", nargs="+", help="commits (A B ...), each compared with A; "
                        "REF+compiled builds REF's compiled core first")
    parser.add_argument("--edition", default="original.yaml")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("-g", "--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--events", action="store_true", help="bench with events recorded")
    parser.add_argument("--log", action="store_true",
                        help="time `kittens run` with a log against without, for each commit")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = {ref: checkout(ref, Path(tmp)) for ref in args.refs}
        labels = []
        for ref in args.refs:
            labels += [(ref, "unlogged"), (ref, "logged")] if args.log else [(ref, "bench")]
        figures = {label: [] for label in labels}
        for round_ in range(args.rounds):
            for ref, kind in labels:
                value = bench(paths[ref], args) if kind == "bench" else run(paths[ref], args, kind == "logged")
                figures[(ref, kind)].append(value)
                print(f"round {round_ + 1}: {ref} {kind}: {value:,.1f} games/s", flush=True)
    report(args, figures, "median", statistics.median)
    # on a busy machine a round only ever runs slower than it would alone, so the best
    # round of each is the least disturbed figure (as timeit takes the fastest run)
    report(args, figures, "best", max)


def report(args: argparse.Namespace, figures: dict, name: str, summary) -> None:
    """The figure of each commit over the rounds (``summary``: median, or max = best), and
    the ratios: logged to unlogged with --log, each commit to the first otherwise."""
    figure = {label: summary(values) for label, values in figures.items()}
    print(f"\n{args.edition}, {args.players} random bots, {args.games} games per round, "
          f"{args.rounds} rounds interleaved ({name} games/s):")
    for (ref, kind), value in figure.items():
        print(f"  {ref:>12} {kind:>9}: {value:,.1f}")
    if args.log:
        for ref in args.refs:
            share = figure[(ref, "logged")] / figure[(ref, "unlogged")]
            print(f"  {ref}: logging keeps {share:.0%} of the unlogged games/s ({name})")
    if len(args.refs) >= 2 and not args.log:
        first = figure[(args.refs[0], "bench")]
        for ref in args.refs[1:]:
            print(f"  {ref} / {args.refs[0]} = {figure[(ref, 'bench')] / first:.2f}x ({name})")

if __name__ == "__main__":
    main()
