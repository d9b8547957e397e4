"""Time the validation of rule files holding one huge list, and print the figures.

    python benchmarks/huge_lists.py [--runs N] [--items N]

A hostile or careless file can hold a list of 190,000 items (380 KB): a house
rule's `remove_steps`, a scenario's `draw_pile`, a card's `tags` (where the
schema sets no bound of its own). For each, this prints the CPU time of
checking it in process (median of the runs, and the fastest) and how many
findings come back. Target (issue 28): under 2 s each, and a dozen findings
or so, not one per item.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "editions" / "original.yaml"


def files(folder: Path, items: int) -> dict[str, Path]:
    """The three huge-list files, written into ``folder``."""
    ones = ",".join(["1"] * items)
    tags = ",".join(f"t{i}" for i in range(items))
    texts = {
        "remove_steps": f"format: 1\nkind: edition\nid: huge\nname: Huge\nextends: {ORIGINAL}\n"
                        f"remove_steps: [{ones}]\n",
        "draw_pile": f"format: 1\nkind: scenario\nedition: {ORIGINAL}\nplayers: 2\n"
                     f"draw_pile: [{ones}]\nsteps: []\n",
        "tags": "format: 1\nkind: cards\ncards:\n  - id: fluff\n    title: Fluff\n    text: A card.\n"
                f"    when: own_turn\n    tags: [{tags}]\n    effect: draw(me)\n",
    }
    out = {}
    for name, text in texts.items():
        out[name] = folder / f"{name}.yaml"
        out[name].write_text(text, encoding="utf-8")
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--items", type=int, default=190_000)
    args = parser.parse_args(argv)
    from kittens.interpreter.rules.check import validate_paths

    with tempfile.TemporaryDirectory() as folder:
        for name, path in files(Path(folder), args.items).items():
            times, found = [], 0
            for _ in range(args.runs):
                start = time.process_time()
                found = len(validate_paths([str(path)]).diagnostics)
                times.append(time.process_time() - start)
            print(f"{name:>12}: {args.items:,} items, {path.stat().st_size:,} bytes: "
                  f"median {statistics.median(times):.2f} s CPU, fastest {min(times):.2f} s, "
                  f"{found} findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
