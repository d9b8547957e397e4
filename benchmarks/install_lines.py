"""Time README's two set-up lines as a new user runs them: in a fresh clone of a
commit, the first line, then the second, each as a whole, with the load average
before and after. The lines are read from README.md, so what is timed is what the
README says. Prints the figures of docs/install.md's table.

    python benchmarks/install_lines.py                # HEAD, both lines, pytest included
    python benchmarks/install_lines.py --no-pytest    # the second line's install only
    python benchmarks/install_lines.py --ref pub --keep /tmp/clone

It also says whether the second line compiled anything: a C file or compiled module
in the clone's build/ newer than the end of the first line. This takes minutes (the
first line compiles the engine; pytest runs the whole suite): it is a script, not a
test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_lines(readme: Path) -> list[str]:
    """The two commands of the README's first code block."""
    block = re.match(r"# kittens\n\n```sh\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
    if not block:
        sys.exit("README.md does not start with its set-up commands")
    return block.group(1).strip().splitlines()


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3]) if Path("/proc/loadavg").exists() else "?"


def timed(label: str, command: str, cwd: Path) -> tuple[float, float]:
    """Run one command line in bash; print and return (its seconds, when it ended)."""
    print(f"{label}: started {time.strftime('%H:%M:%S', time.gmtime())} UTC, load {load()}", flush=True)
    start = time.perf_counter()
    done = subprocess.run(["bash", "-c", command], cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    seconds = time.perf_counter() - start
    print(f"{label}: exit {done.returncode}, {seconds:.0f} s ({seconds / 60:.1f} min), load {load()}", flush=True)
    if done.returncode:
        print(done.stderr[-2000:], file=sys.stderr)
    return seconds, time.time()


def compiled_since(build: Path, since: float) -> list[str]:
    """C files and compiled modules under build/ made after ``since``."""
    return sorted(str(p.relative_to(build)) for p in build.rglob("*")
                  if p.suffix in (".c", ".so", ".pyd") and p.stat().st_mtime > since)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ref", default="HEAD", help="the commit to clone (default HEAD)")
    parser.add_argument("--no-pytest", action="store_true", help="stop the second line before pytest")
    parser.add_argument("--keep", help="clone into this folder and keep it (default: a temporary one)")
    args = parser.parse_args()

    first, second = readme_lines(ROOT / "README.md")
    if args.no_pytest:
        second = re.sub(r"\s*&&\s*pytest\s*$", "", second)
    where = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="kittens-install-"))
    clone = where / "kittens"
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", args.ref + "^{commit}"],
                            capture_output=True, text=True, check=True).stdout.strip()
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run(["git", "-C", str(clone), "checkout", "-q", commit], check=True)
    print(f"{commit[:10]} cloned into {clone}")
    try:
        _, first_end = timed("first line", first, clone)
        timed("second line" + (" (install only)" if args.no_pytest else ""), second, clone)
        again = compiled_since(clone / "build", first_end)
        print("second line compiled: " + (", ".join(again) if again else "nothing"))
    finally:
        if not args.keep:
            shutil.rmtree(where, ignore_errors=True)


if __name__ == "__main__":
    if os.name == "nt":
        sys.exit("this script runs the README's POSIX shell lines")
    main()
