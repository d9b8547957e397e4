"""Build the engine's hot modules as C extensions with Cython, when that can be done.

Everything about the package is declared in pyproject.toml; this file only adds the
compiled core. The modules named below are plain Python, compiled unchanged, with
the .pxd files beside eight of them declaring their busiest classes as C structs: a
game then runs about twice as fast (``benchmarks/compare.py 767fe87 HEAD+compiled``).
The .py files are installed beside the compiled modules, and Python loads the
compiled ones first.

The pure-Python package is always a complete kittens. The core is not compiled when

- the install is editable (``pip install -e .``): edits to the sources must take
  effect, and a compiled module would shadow its source;
- ``KITTENS_PURE_PYTHON=1`` is set;
- Cython or a C compiler is missing, or compiling fails: a warning says so and the
  install goes on in pure Python.

``kittens --version`` (and ``kittens bench``) say which core is installed.
"""

from __future__ import annotations

import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: the modules a game runs through, as paths from this folder (the package root)
HOT_MODULES = [
    "interpreter/lang/compiler.py", "interpreter/lang/machine.py", "interpreter/lang/operators.py",
    "interpreter/lang/primitives.py", "interpreter/lang/values.py", "interpreter/lang/counts.py",
    "interpreter/engine/bots.py", "interpreter/engine/compiled.py", "interpreter/engine/decisions.py",
    "interpreter/engine/encoding.py", "interpreter/engine/events.py", "interpreter/engine/flow.py",
    "interpreter/engine/game.py", "interpreter/engine/players.py", "interpreter/engine/plays.py",
    "interpreter/engine/reactions.py", "interpreter/engine/search.py", "interpreter/engine/setup.py",
    "interpreter/engine/simulate.py", "interpreter/engine/table.py", "interpreter/engine/triggers.py",
    "interpreter/engine/views.py",
    # the balance lab's own loop around each game: what it gathers and sums per game
    "interpreter/tools/lab/play.py", "interpreter/tools/lab/tally.py", "interpreter/tools/lab/work.py",
]


#: the module holding the C helpers every compiled module shares (Cython 3.1's shared utility)
SHARED_UTILITY = "kittens._cyutility"
BUILD_DIR = "build/cython"


def module_name(path: str) -> str:
    return "kittens." + path[: -len(".py")].replace("/", ".")


class OptionalBuildExt(build_ext):
    """build_ext that leaves the package in pure Python rather than fail the install."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False):
            self.warn("kittens: an editable install keeps the pure-Python core")
            return
        try:
            from Cython.Build import cythonize
        except ImportError:
            self.warn("kittens: Cython is not installed; installing the pure-Python core")
            return
        if not self.parallel:
            self.parallel = os.cpu_count() or 1
        try:
            # The compiled modules must behave exactly as the Python ones
            # (tests/test_compiled_core.py plays both), so Cython is told to ignore type
            # annotations, which it would otherwise enforce (a `seed: int` refusing None,
            # an `at: int` turning a secret place into a plain number). The C files are
            # always made afresh (force): they do not record the options they came from.
            # The helpers Cython writes into every module go into one shared module
            # instead (Cython 3.1): half the C to compile.
            made = cythonize(list(self.extensions), language_level=3, quiet=True, force=True,
                             compiler_directives={"annotation_typing": False}, build_dir=BUILD_DIR,
                             nthreads=self.parallel, shared_utility_qualified_name=SHARED_UTILITY,
                             include_path=[stage_declarations()])
            sources = {ext.name: ext.sources for ext in made}
            for ext in self.extensions:  # setuptools has prepared these: keep them, with C sources
                ext.sources = sources[ext.name]
                if os.name == "posix":  # gcc or clang: no debug symbols, a quarter less to compile
                    ext.extra_compile_args = [*ext.extra_compile_args, "-g0", "-O2"]
            super().run()
        except Exception as exc:  # no compiler, no headers, a compile error: all the same to the user
            self._give_up(exc)

    def _give_up(self, exc: Exception) -> None:
        """Install none of the core compiled rather than some of it."""
        self.warn(f"kittens: could not compile the engine ({exc}); installing the pure-Python core")
        for ext in self.extensions:
            built = self.get_ext_fullpath(ext.name)
            if os.path.exists(built):
                os.remove(built)
        self.extensions = []


def stage_declarations() -> str:
    """A folder where the .pxd files beside the compiled modules lie under the package's
    own name (kittens/interpreter/...), whatever this folder is called: Cython finds a
    module's declarations by its full name. Returns the folder, for Cython's include path."""
    root = os.path.join(BUILD_DIR, "include")
    shutil.rmtree(root, ignore_errors=True)  # a .pxd since removed must not apply still
    for path in HOT_MODULES:
        pxd = path[: -len(".py")] + ".pxd"
        if not os.path.exists(pxd):
            continue
        parts = ["kittens", *os.path.dirname(pxd).split("/")]
        for depth in range(1, len(parts) + 1):  # each level a package, to Cython
            folder = os.path.join(root, *parts[:depth])
            os.makedirs(folder, exist_ok=True)
            open(os.path.join(folder, "__init__.pxd"), "a").close()
        shutil.copyfile(pxd, os.path.join(root, "kittens", pxd))
    return root


class BuildPy(build_py):
    """The package root is this folder (pyproject.toml), so leave this build script out of it."""

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [found for found in modules if (found[0], found[1]) != ("kittens", "setup")]


def extensions() -> list:
    """The compiled core's modules (cythonized when they are built), or none."""
    if os.environ.get("KITTENS_PURE_PYTHON", "").strip() not in ("", "0"):
        return []
    shared = Extension(SHARED_UTILITY, [f"{BUILD_DIR}/{SHARED_UTILITY.replace('.', '/')}.c"])
    return [shared] + [Extension(module_name(path), [path]) for path in HOT_MODULES]


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy})
