"""The code's shape: the core's data flows one way, the products stand beside it.

The core lives in ``interpreter/``: ``lang`` (YAML, schemas, the effect
language, diagnostics) imports nothing else of ours; ``rules`` (files composed,
compiled and checked) never imports the engine; ``engine`` (a game, its players
and bots) takes only the compiled model from ``rules``; ``words`` (the compiled
rules in words: card texts, rulesheets, show and diff) reads the rules, never
the engine.

The products are packages at the top, each with its own face: ``authoring``
(scenario tests, scaffolds, docs, printing), ``lab`` (simulate, compare, sweep,
arena), ``web`` (kittens serve), ``lsp`` (the language server) and ``adapters``
(terminal play, PettingZoo, OpenSpiel, log replay). A product uses the core and
never another product; the command line (``cli.py`` and ``commands/``) may use
everything, and nothing imports it. ``kittens.about`` (version and paths) is a
leaf any layer may use. Every import counts, module level or inside a function.

A product's modules use one another's objects, and the core's, by their public names
only: a name with a leading underscore is its own module's (checked for ``web`` so far;
the other products join as they stop reaching into the engine).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ("lang", "rules", "engine", "words")
PRODUCTS = ("authoring", "lab", "web", "lsp", "adapters")
CORE_ALL = set(CORE)

#: layer -> the layers (or single modules, as "layer.module") it may import
ALLOWED = {
    "lang": {"lang"},
    "rules": {"lang", "rules"},
    "engine": {"lang", "engine", "rules.model"},
    "words": {"lang", "rules", "words"},
    **{product: CORE_ALL | {product} for product in PRODUCTS},
    "cli": CORE_ALL | set(PRODUCTS) | {"cli"},
}
#: modules at the root: the command line and entry points, and the public adapter names
ROOT_MODULES = {"cli.py": "cli", "__main__.py": "cli", "pytest_plugin.py": "cli",
                "env.py": "adapters", "openspiel.py": "adapters", "about.py": None, "__init__.py": None}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    parts = parts[:-1] if parts[-1] == "__init__" else parts
    return ".".join(("kittens",) + parts)


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in (ROOT / "interpreter").rglob("*.py")}
    for folder in PRODUCTS + ("commands",):
        found.update({module_name(p): p for p in (ROOT / folder).rglob("*.py")})
    for name in ROOT_MODULES:
        found[module_name(ROOT / name)] = ROOT / name
    return found


def imports_of(name: str, path: Path) -> set[str]:
    """Every module of ours that ``name`` imports, resolved to a full dotted name."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{alias.name}" for alias in node.names]
            for candidate in names:  # `from . import syntax` names a module
                found.add(candidate if candidate in MODULES else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {target for target in found if target.startswith("kittens")}


MODULES = modules()


def layer_of(name: str) -> str | None:
    """The layer of a module: a core package, a product, cli, or None for the leaves
    (about, the package's front, interpreter's own front)."""
    parts = name.split(".")
    if len(parts) >= 3 and parts[1] == "interpreter" and parts[2] in CORE:
        return parts[2]
    if len(parts) >= 2 and parts[1] in PRODUCTS:
        return parts[1]
    if len(parts) >= 2 and parts[1] == "commands":
        return "cli"
    if len(parts) == 2 and f"{parts[1]}.py" in ROOT_MODULES:
        return ROOT_MODULES[f"{parts[1]}.py"]
    return None


def test_every_module_is_in_a_layer():
    strays = [name for name in MODULES if name.startswith("kittens.interpreter.")
              and layer_of(name) is None]
    assert not strays, f"modules outside the core packages: {strays}"


def test_products_are_packages_at_the_top():
    for product in PRODUCTS + ("commands",):
        assert (ROOT / product / "__init__.py").is_file(), product
    # sources only: an older checkout may keep the folder's untracked __pycache__
    assert not list((ROOT / "interpreter" / "tools").rglob("*.py")), "the products left interpreter/tools/"


@pytest.mark.parametrize("name", sorted(n for n in MODULES if layer_of(n)))
def test_imports_follow_the_data(name):
    layer = layer_of(name)
    wrong = []
    for target in sorted(imports_of(name, MODULES[name])):
        if target in ("kittens.about",) or target == "kittens.interpreter":
            continue
        if target == "kittens" or target.startswith("kittens.interpreter") is False and target not in MODULES:
            wrong.append(target)
            continue
        other = layer_of(target)
        if other is None:
            continue
        short = ".".join(target.split(".")[2:4])  # e.g. rules.model
        if other == "cli" and layer != "cli":
            wrong.append(target)  # nothing imports the command line
            continue
        if other not in ALLOWED[layer] and short not in ALLOWED[layer]:
            wrong.append(target)
    assert not wrong, f"{name} ({layer}) may not import: {wrong}"


def test_the_package_front_imports_the_api_lazily():
    # `kittens validate` must not pay for the engine: the front imports only `about`
    assert imports_of("kittens", MODULES["kittens"]) == {"kittens.about"}


def test_no_import_cycles():
    graph = {name: {t for t in imports_of(name, path) if t in MODULES and t != name}
             for name, path in MODULES.items()}
    # a package imports its own modules through its front without a cycle
    for name in graph:
        graph[name] = {t for t in graph[name] if not name.startswith(t + ".")}
    seen, stack, cycles = set(), [], []

    def visit(node):
        if node in stack:
            cycles.append(stack[stack.index(node):] + [node])
            return
        if node in seen:
            return
        seen.add(node)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            visit(target)
        stack.pop()

    for node in sorted(graph):
        visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_no_package_holds_over_a_quarter_of_the_code():
    """The map (benchmarks/import_graph.py) stays readable: no package is a catch-all."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "benchmarks" / "import_graph.py")
    graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(graph)
    edges, lines = graph.graph()
    assert {"interpreter.lang", "interpreter.rules", "interpreter.engine", "interpreter.words"} <= set(lines)
    shares = graph.shares(lines)
    big = {name: f"{share:.0%}" for name, share in shares.items() if share > 0.25}
    assert not big, f"packages holding over a quarter of the code: {big}"
    assert edges["interpreter.lang"] <= {"about"}, "the language imports nothing else of ours"


def test_the_map_is_drawn(tmp_path):
    pytest.importorskip("matplotlib")
    import subprocess
    import sys

    picture = tmp_path / "graph.png"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "import_graph.py"), "--png", str(picture)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "interpreter.engine" in done.stdout and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


#: the products whose modules use only public names of other modules' objects
PRIVATE_CHECKED = ("web",)
#: what a method may call its own object (its private names are its own)
OWN = ("self", "cls")


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(path: Path) -> list[str]:
    """Where a module uses a private name that is not its own: an attribute of an object
    other than ``self``, ``cls`` or ``super()`` (read, written, or named to ``getattr``
    and its kin), a private name imported from another module, or a private module."""
    found = []
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        where = f"{shown}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in OWN:
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            found.append(f"{where} {ast.unparse(node)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("getattr", "setattr", "hasattr", "delattr") and len(node.args) >= 2:
            owner, name = node.args[0], node.args[1]
            if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value) and \
                    not (isinstance(owner, ast.Name) and owner.id in OWN):
                found.append(f"{where} {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and node.module != "__future__":
            parts = (node.module or "").split(".")
            names = [alias.name for alias in node.names]
            if any(_private(part) for part in parts) or any(_private(name) for name in names):
                found.append(f"{where} from {'.' * node.level}{node.module or ''} import {', '.join(names)}")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{where} import {alias.name}")
    return found


@pytest.mark.parametrize("product", PRIVATE_CHECKED)
def test_products_use_only_public_names(product):
    """No module of the product reaches into another module's object, its own product's
    or the core's, by a private name."""
    paths = sorted((ROOT / product).rglob("*.py"))
    assert paths
    found = [use for path in paths for use in private_uses(path)]
    assert not found, "private names used outside their own module:\n" + "\n".join(found)


def test_the_private_name_check_finds_what_it_looks_for(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("""
from __future__ import annotations
from .storage import _Transaction, Storage
import kittens.interpreter.engine._hidden
from random import _inst


class Own:
    def _step(self):
        return self._step, super()._step, getattr(self, "_step")


def reach(storage, room):
    with storage._transaction():
        room._publish()
    getattr(room, "_publish")()
    storage.__class__, storage.db
""", encoding="utf-8")
    found = sorted(use.split(" ", 1)[1] for use in private_uses(sample))
    assert found == sorted(["from .storage import _Transaction, Storage", "import kittens.interpreter.engine._hidden",
                     "from random import _inst", "storage._transaction", "room._publish",
                     "getattr(room, '_publish')"]), found
