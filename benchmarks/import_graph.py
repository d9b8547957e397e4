"""Draw the package import graph of kittens, with each package's share of the code.

    python benchmarks/import_graph.py                 # prints the graph and shares
    python benchmarks/import_graph.py --png docs/import-graph.png

A package is a folder of ours with an ``__init__.py`` (``interpreter/lang``,
``web``, ...); the modules at the root (``cli.py``, ``about.py``) form the
package "root". An arrow A -> B means some module of A imports one of B (at
module level or inside a function: every import counts, as in
tests/test_layers.py). The picture lays the core (the rule language, the rules,
the engine) along the bottom and the products above it, so an arrow that points
up is one that should not be there.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {"tests", "benchmarks", "docs", "build", "examples", "editions", "rulebook", "schema"}
#: the core, bottom row, in the direction data flows
CORE = ("interpreter.lang", "interpreter.rules", "interpreter.engine", "interpreter.words")


def python_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in SKIP or parts[0].startswith(".") or "site-packages" in parts or path.name == "setup.py":
            continue
        found.append(path)
    return sorted(found)


#: modules at the root that every layer may use: the version and paths, the package's front
LEAVES = {"about.py", "__init__.py"}


def package_of(path: Path) -> str:
    """The package a file belongs to: its folder as a dotted name; at the top, "root" for
    the command line and entry points, "about" for the leaves every layer may use."""
    relative = path.relative_to(ROOT)
    if len(relative.parts) == 1:
        return "about" if relative.name in LEAVES else "root"
    if relative == Path("interpreter/__init__.py"):
        return "about"  # the core's own front holds nothing but a docstring
    return ".".join(relative.parent.parts)


def module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(parts)


def imports(path: Path, known: dict[str, str]) -> set[str]:
    """The packages of ours that the file at ``path`` imports from."""
    module = module_of(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module and node.module.startswith("kittens"):
                target = node.module.removeprefix("kittens").lstrip(".")
            else:
                continue
            candidates = [f"{target}.{alias.name}".lstrip(".") for alias in node.names] + [target]
        elif isinstance(node, ast.Import):
            candidates = [alias.name.removeprefix("kittens").lstrip(".") for alias in node.names
                          if alias.name.startswith("kittens")]
        else:
            continue
        for candidate in candidates:
            if candidate in known:
                found.add(known[candidate])
                break
    return found


def graph() -> tuple[dict[str, set[str]], dict[str, int]]:
    """package -> packages it imports, and package -> lines of code."""
    files = python_files()
    known = {module_of(path): package_of(path) for path in files}
    known.update({package_of(path): package_of(path) for path in files})
    edges: dict[str, set[str]] = defaultdict(set)
    lines: dict[str, int] = defaultdict(int)
    for path in files:
        package = package_of(path)
        lines[package] += sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
        edges[package] |= imports(path, known) - {package}
    # a subpackage's own front (interpreter/__init__) is not a package of its own here
    return dict(edges), dict(lines)


def shares(lines: dict[str, int]) -> dict[str, float]:
    total = sum(lines.values())
    return {name: count / total for name, count in lines.items()}


def draw(edges: dict[str, set[str]], lines: dict[str, int], out: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    share = shares(lines)
    core = [name for name in CORE if name in lines]
    top = [name for name in ("root", "commands") if name in lines]  # the command line
    products = sorted(name for name in lines if name not in core and name not in top
                      and name != "about")
    rows = [core, products, top]
    place = {}
    for row_number, row in enumerate(rows):
        for index, name in enumerate(row):
            place[name] = ((index + 0.5) / max(len(row), 1), 0.15 + row_number * 0.35)
    figure, axes = plt.subplots(figsize=(13, 6.5))
    axes.set_axis_off()
    axes.set_xlim(-0.02, 1.02)
    axes.set_ylim(-0.22, 1)
    for source, targets in sorted(edges.items()):
        for target in sorted(targets - {"about"}):
            if source in place and target in place:
                (x1, y1), (x2, y2) = place[source], place[target]
                if abs(y1 - y2) < 1e-9:  # within a row: an arc below the boxes
                    start, end, bend = (x1, y1 - 0.05), (x2, y2 - 0.05), 0.35 if x2 > x1 else -0.35
                    colour = "#7f8c8d" if source in CORE or source in top else "#e67e22"  # products
                else:
                    start, end, bend = (x1, y1 - 0.05), (x2, y2 + 0.05), 0.04
                    colour = "#c0392b" if y2 > y1 else "#7f8c8d"
                axes.add_patch(FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=12,
                                               linewidth=0.8, color=colour, alpha=0.7,
                                               connectionstyle=f"arc3,rad={bend}"))
    width = 0.95 / max(len(row) for row in rows)
    for name, (x, y) in place.items():
        colour = "#d6eaf8" if name in core else "#e8daef" if name in top else "#fdebd0"
        axes.add_patch(FancyBboxPatch((x - width / 2 + 0.01, y - 0.05), width - 0.02, 0.1,
                                      boxstyle="round,pad=0.005", facecolor=colour, edgecolor="#34495e"))
        label = name.replace("interpreter.", "")
        axes.text(x, y + 0.012, label, ha="center", va="center", fontsize=10, weight="bold")
        axes.text(x, y - 0.025, f"{lines[name]:,} lines, {share[name]:.0%}", ha="center", va="center",
                  fontsize=8)
    axes.set_title("kittens: packages and their imports (the core below, the products above, the "
                   "command line on top; a red arrow points up, an orange one\njoins two products; "
                   "about.py, the version and paths, is "
                   f"used by all and not drawn: {lines.get('about', 0)} lines)", fontsize=11)
    figure.savefig(out, dpi=110, bbox_inches="tight")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--png", help="draw the graph to this PNG file (needs matplotlib)")
    args = parser.parse_args(argv)
    edges, lines = graph()
    share = shares(lines)
    for name in sorted(lines, key=lambda n: -lines[n]):
        uses = ", ".join(sorted(edges.get(name, ()))) or "-"
        print(f"{name:24} {lines[name]:6,} lines {share[name]:5.1%}  imports: {uses}")
    if args.png:
        draw(edges, lines, args.png)
        print(f"drawn to {args.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
