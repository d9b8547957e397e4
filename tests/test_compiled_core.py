"""The compiled engine core (setup.py builds the hot modules with Cython) plays exactly
the games the Python source plays.

An installed kittens (`pip install .`, as CI does) runs compiled; an editable install
runs the sources. The compiled modules are the same Python files, so nothing may
differ but speed: the same seeds must record the same events, with random,
heuristic and search players, in every shipped edition.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kittens.about import PACKAGE_DIR, engine_core
from kittens.cli import app

ROOT = Path(__file__).resolve().parent.parent


def hot_modules() -> list[str]:
    """The modules setup.py compiles, as dotted names (read from its HOT_MODULES list)."""
    tree = ast.parse((ROOT / "setup.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "HOT_MODULES":
            paths = ast.literal_eval(node.value)
            return ["kittens." + path[:-3].replace("/", ".") for path in paths]
    raise AssertionError("setup.py has no HOT_MODULES list")


def compiled(name: str) -> bool:
    return importlib.util.find_spec(name).origin.endswith(tuple(EXTENSION_SUFFIXES))


def test_the_hot_modules_exist_and_the_core_is_all_compiled_or_all_python():
    names = hot_modules()
    assert len(names) > 10
    kinds = {name: compiled(name) for name in names}  # find_spec fails on a module that is gone
    assert len(set(kinds.values())) == 1, f"a half-compiled core: {kinds}"
    assert engine_core() == ("compiled" if kinds[names[0]] else "python")


def editable_install() -> bool:
    """Whether kittens runs from its sources (an editable install, a checkout on the
    path) rather than from a copy installed into site-packages."""
    import site
    import sysconfig

    installed = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")} | {site.getusersitepackages()}
    return not any(PACKAGE_DIR.is_relative_to(Path(where).resolve()) for where in installed)


@pytest.mark.skipif(editable_install() or os.environ.get("KITTENS_PURE_PYTHON", "0") not in ("", "0")
                    or shutil.which("cc") is None,
                    reason="an editable install, KITTENS_PURE_PYTHON or no C compiler: the core stays Python")
def test_an_install_on_a_machine_with_a_c_compiler_runs_the_compiled_core():
    assert engine_core() == "compiled", "pip install . fell back to the pure-Python core: build it " \
        "with `pip install -v .` to see why"


def test_the_version_and_bench_name_the_core():
    shown = CliRunner().invoke(app, ["--version"])
    assert shown.exit_code == 0 and f", {engine_core()} engine core" in shown.output
    timed = CliRunner().invoke(app, ["bench", "-g", "3", "--rounds", "1", "--json"])
    assert timed.exit_code == 0 and f'"core": "{engine_core()}"' in timed.output


def fingerprints(env: dict) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "fingerprint.py"), "-g", "3",
                           "--search", "1"], capture_output=True, text=True, env=env, cwd=ROOT.parent)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(engine_core() != "compiled",
                    reason="the engine core is pure Python here (an editable install): nothing to compare")
def test_the_compiled_core_plays_the_same_games_as_the_python_source(tmp_path):
    source = tmp_path / "kittens"  # the installed package without its compiled modules
    shutil.copytree(PACKAGE_DIR, source, ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    probe = subprocess.run([sys.executable, "-c", "from kittens.about import engine_core as e; print(e())"],
                           capture_output=True, text=True, env={**env, "PYTHONPATH": str(tmp_path)})
    assert probe.stdout.strip() == "python", probe.stderr  # the copy really runs the sources
    assert fingerprints(env) == fingerprints({**env, "PYTHONPATH": str(tmp_path)})


def declared_classes(pxd: Path) -> dict:
    """class name -> the attributes a Cython declaration file gives it."""
    classes, current = {}, None
    for line in pxd.read_text().splitlines():
        found = re.match(r"cdef class (\w+)(\(\w+\))?:", line)
        if found:
            current = classes[found.group(1)] = set()
        elif current is not None:
            attributes = re.match(r"\s+cdef public \w+ (.+)", line)  # of any type: object, tuple, ...
            if attributes:
                current.update(name.strip() for name in attributes.group(1).split(","))
    return classes


def attributes_in_source(source: Path, name: str) -> tuple:
    """(the class's __slots__ or None, the attributes its methods set on self)."""
    tree = ast.parse(source.read_text())
    cls = next(node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == name)
    slots, set_in_init = None, set()
    for node in cls.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__slots__":
            slots = set(ast.literal_eval(node.value))
        if isinstance(node, ast.FunctionDef):
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) \
                        and getattr(sub.value, "id", "") == "self":
                    set_in_init.add(sub.attr)
    return slots, set_in_init


@pytest.mark.parametrize("pxd", sorted((ROOT / "interpreter").rglob("*.pxd")), ids=lambda p: p.stem)
def test_each_declaration_file_matches_its_classes(pxd):
    """A class a .pxd declares must have exactly the attributes its source gives it: one
    more slot in the source would be refused at run time, on the compiled core only."""
    source = pxd.with_suffix(".py")
    assert source.exists(), f"{pxd.name} declares a module that does not exist"
    classes = declared_classes(pxd)
    # (logwriter.pxd declares only functions)
    assert classes or "cdef class" not in pxd.read_text(), f"{pxd.name}: its classes were not read"
    for name, declared in classes.items():
        slots, set_in_init = attributes_in_source(source, name)
        if slots is not None:
            assert declared == slots, f"{pxd.name}: {name} declares {sorted(declared ^ slots)} unlike its __slots__"
        else:  # a class with a __dict__: what the declaration names, the class must set
            assert declared <= set_in_init, f"{pxd.name}: {name} declares {sorted(declared - set_in_init)}, " \
                "which it never sets"


def test_the_declaration_files_are_found_beside_compiled_modules():
    names = {"kittens." + str(p.relative_to(ROOT).with_suffix("")).replace("/", ".")
             for p in (ROOT / "interpreter").rglob("*.pxd")}
    assert names and names <= set(hot_modules()), "a .pxd beside a module setup.py does not compile"


HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made by a class statement, not a C struct


@pytest.mark.skipif(engine_core() != "compiled", reason="the engine core is pure Python here")
def test_the_compiled_core_made_the_declared_classes_c_structs():
    """Cython finds a .pxd by the module's full name; if it missed one the build would
    still succeed, only slower. So check the classes came out as extension types."""
    for pxd in sorted((ROOT / "interpreter").rglob("*.pxd")):
        module = importlib.import_module("kittens." + str(pxd.relative_to(ROOT).with_suffix("")).replace("/", "."))
        for name in declared_classes(pxd):
            assert not getattr(module, name).__flags__ & HEAP_TYPE, f"{pxd.name}: {name} was not compiled as declared"


def _source_copy(tmp_path: Path) -> Path:
    """The checkout's files (as git knows them) in a folder named kittens."""
    listed = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=True).stdout
    copy = tmp_path / "kittens"
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (copy / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / name, copy / name)
    return copy


def _build_in_place(copy: Path, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=copy,
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=300)


def _core_of(copy: Path) -> str:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-c", "from kittens.about import engine_core; print(engine_core())"],
                          capture_output=True, text=True, env={**env, "PYTHONPATH": str(copy.parent)},
                          check=True).stdout.strip()


@pytest.mark.skipif(importlib.util.find_spec("Cython") is None, reason="Cython is not installed")
def test_a_build_whose_compiler_fails_leaves_a_working_pure_python_kittens(tmp_path):
    copy = _source_copy(tmp_path)
    done = _build_in_place(copy, CC="false")  # a compiler that fails on every file
    assert done.returncode == 0, done.stdout + done.stderr
    assert "could not compile the engine" in done.stdout + done.stderr
    assert not [path for path in copy.rglob("*.so")], "a failed build left compiled modules behind"
    assert _core_of(copy) == "python"


def test_kittens_pure_python_builds_nothing(tmp_path):
    copy = _source_copy(tmp_path)
    done = _build_in_place(copy, KITTENS_PURE_PYTHON="1")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not [path for path in copy.rglob("*.so")]
    assert _core_of(copy) == "python"
