"""Build the engine's hot modules as C extensions with Cython, when that can be done.

Everything about the package is declared in pyproject.toml; this file only adds the
compiled core. The modules named below are plain Python, compiled unchanged, with
the .pxd files beside eleven of them declaring their busiest classes as C structs
and functions as C functions: a game then runs 1.8 to 1.9 times as fast as the
sources, and 1.9 to 2.0 times as fast as the generator engine
(``benchmarks/compare.py 767fe87 HEAD HEAD+compiled``; docs/speed.md).
The .py files are installed beside the compiled modules, and Python loads the
compiled ones first.

The pure-Python package is always a complete kittens. The core is not compiled when

- the install is editable (``pip install -e .``): edits to the sources must take
  effect, and a compiled module would shadow its source;
- ``KITTENS_PURE_PYTHON=1`` is set;
- Cython or a C compiler is missing, or compiling fails: a warning says so and the
  install goes on in pure Python. A wheel built so is then pure too
  (``py3-none-any``), never tagged for one platform it holds nothing for; and the
  installed kittens says once, when it runs, that the compiled core is missing.
  ``KITTENS_REQUIRE_COMPILED=1`` makes that fallback an error instead (the release
  wheels are built so: .github/workflows/wheels.yml).

``build/`` keeps the C sources and compiled modules between builds, so a second
``pip install .`` of the same sources (README's second line) compiles nothing again:
Cython regenerates a module's C only when its .py or .pxd changed, setuptools
recompiles only C that changed, and a change of Cython, Python or of the options
below starts afresh.

``kittens --version`` (and ``kittens bench``) say which core is installed.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import sysconfig
import tempfile

from setuptools import Extension, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

#: the modules a game runs through, as paths from this folder (the package root)
HOT_MODULES = [
    "interpreter/lang/compiler.py", "interpreter/lang/machine.py", "interpreter/lang/operators.py",
    "interpreter/lang/primitives.py", "interpreter/lang/values.py", "interpreter/lang/counts.py",
    "interpreter/engine/bots.py", "interpreter/engine/compiled.py", "interpreter/engine/decisions.py",
    "interpreter/engine/encoding.py", "interpreter/engine/events.py", "interpreter/engine/flow.py",
    "interpreter/engine/game.py", "interpreter/engine/logwriter.py", "interpreter/engine/players.py",
    "interpreter/engine/plays.py", "interpreter/engine/reactions.py", "interpreter/engine/search.py",
    "interpreter/engine/setup.py", "interpreter/engine/simulate.py", "interpreter/engine/table.py",
    "interpreter/engine/triggers.py", "interpreter/engine/views.py", "interpreter/engine/worlds.py",
    # the balance lab's own loop around each game: what it gathers and sums per game
    "lab/play.py", "lab/tally.py", "lab/work.py",
]


#: the module holding the C helpers every compiled module shares (Cython 3.1's shared utility)
SHARED_UTILITY = "kittens._cyutility"
BUILD_DIR = "build/cython"
#: what Cython is told besides the module list: a change to it must regenerate every C file
DIRECTIVES = {"annotation_typing": False}
#: the file in the built package that says how its core was built (kittens/about.py reads it)
BUILD_NOTE = "_core_build.json"


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
            self._give_up("Cython is not installed")
            return
        missing = compiler_problem(self.compiler)
        if missing:  # found in a second, before Cython spends a minute writing C for nothing
            self._give_up("no working C compiler was found", missing)
            return
        if not self.parallel:
            self.parallel = os.cpu_count() or 1
        try:
            # The compiled modules must behave exactly as the Python ones
            # (tests/test_compiled_core.py plays both), so Cython is told to ignore type
            # annotations, which it would otherwise enforce (a `seed: int` refusing None,
            # an `at: int` turning a secret place into a plain number). The C files record
            # none of the options they came from, so a change of options, Cython or
            # Python regenerates them all (build_stamp); otherwise only the C of a changed
            # module is made again, and setuptools recompiles only that.
            # The helpers Cython writes into every module go into one shared module
            # instead (Cython 3.1): half the C to compile.
            stamp = build_stamp()
            made = cythonize(list(self.extensions), language_level=3, quiet=True, force=not stamp_holds(stamp),
                             compiler_directives=DIRECTIVES, build_dir=BUILD_DIR,
                             nthreads=self.parallel, shared_utility_qualified_name=SHARED_UTILITY,
                             include_path=[stage_declarations()])
            sources = {ext.name: ext.sources for ext in made}
            for ext in self.extensions:  # setuptools has prepared these: keep them, with C sources
                ext.sources = sources[ext.name]
                if os.name == "posix":  # gcc or clang: no debug symbols, a quarter less to compile
                    ext.extra_compile_args = [*ext.extra_compile_args, "-g0", "-O2"]
            super().run()
        except Exception as exc:  # no headers, a compile error: all the same to the user
            self._give_up("compiling the engine failed", str(exc))
            return
        write_stamp(stamp)
        write_build_note(self.build_lib, "compiled", "")

    def _give_up(self, why: str, detail: str = "") -> None:
        """Install none of the core compiled rather than some of it, and leave the
        package pure: the wheel is then tagged py3-none-any (BdistWheel). ``why`` is
        for the installed kittens to repeat, ``detail`` (the compiler's error) for
        the build log."""
        told = f"kittens: could not compile the engine: {why}" + (f" ({detail.strip()})" if detail.strip() else "")
        if os.environ.get("KITTENS_REQUIRE_COMPILED", "").strip() not in ("", "0"):
            raise SystemExit(f"{told}; KITTENS_REQUIRE_COMPILED is set, so the build stops here")
        self.warn(f"{told}; installing the pure-Python core")
        for ext in self.extensions:
            built = self.get_ext_fullpath(ext.name)
            if os.path.exists(built):
                os.remove(built)
        self.extensions = []
        self.distribution.ext_modules = []
        if not self.inplace:
            write_build_note(self.build_lib, "fallback", why)


def compiler_problem(name) -> str:
    """Why this machine cannot compile a Python extension ("" when it can): the C
    compiler setuptools would use, with Python's headers, on a file of one line."""
    from distutils.ccompiler import new_compiler
    from distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as folder:
        probe = os.path.join(folder, "probe.c")
        with open(probe, "w") as out:
            out.write("#include <Python.h>\nint kittens_probe(void) { return 0; }\n")
        try:
            compiler = new_compiler(compiler=name)
            customize_compiler(compiler)
            compiler.compile([probe], output_dir=folder, include_dirs=[sysconfig.get_paths()["include"]])
        except Exception as exc:  # CompileError, DistutilsPlatformError (no MSVC), OSError
            return str(exc).strip() or type(exc).__name__
    return ""


def build_stamp() -> str:
    """What the C files in build/ depend on besides their sources: the Cython, the Python
    and the options they were made with (the C files themselves record none of it)."""
    import Cython

    return json.dumps({"cython": Cython.__version__, "python": sys.version, "directives": DIRECTIVES,
                       "modules": HOT_MODULES, "shared": SHARED_UTILITY}, sort_keys=True)


STAMP = os.path.join(BUILD_DIR, "stamp.json")


def stamp_holds(stamp: str) -> bool:
    """Whether the C files in build/ were made as this build would make them, so that
    only those of changed modules need making again (else all are made afresh)."""
    try:
        with open(STAMP) as found:
            return found.read() == stamp
    except OSError:
        return False


def write_stamp(stamp: str) -> None:
    """Written only after a whole build succeeded."""
    os.makedirs(BUILD_DIR, exist_ok=True)
    with open(STAMP, "w") as out:
        out.write(stamp)


def write_build_note(build_lib: str, core: str, why: str) -> None:
    """Record in the built package how its core was built: the installed kittens warns,
    once, when a build fell back to pure Python on a machine that should compile it."""
    folder = os.path.join(build_lib, "kittens")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, BUILD_NOTE), "w") as out:
        json.dump({"core": core, "why": why}, out)


def stage_declarations() -> str:
    """A folder where the .pxd files beside the compiled modules lie under the package's
    own name (kittens/interpreter/...), whatever this folder is called: Cython finds a
    module's declarations by its full name. Returns the folder, for Cython's include path.

    The copies keep their sources' times (copy2), and files already there stay: Cython
    makes a module's C again when a declaration it reads is newer than that C, so fresh
    copies would make a second build regenerate, and recompile, every declared module."""
    root = os.path.join(BUILD_DIR, "include")
    staged = set()
    for path in HOT_MODULES:
        pxd = path[: -len(".py")] + ".pxd"
        if not os.path.exists(pxd):
            continue
        parts = ["kittens", *os.path.dirname(pxd).split("/")]
        for depth in range(1, len(parts) + 1):  # each level a package, to Cython
            folder = os.path.join(root, *parts[:depth])
            os.makedirs(folder, exist_ok=True)
            marker = os.path.join(folder, "__init__.pxd")
            if not os.path.exists(marker):
                open(marker, "w").close()
            staged.add(os.path.normpath(marker))
        target = os.path.join(root, "kittens", pxd)
        shutil.copy2(pxd, target)
        staged.add(os.path.normpath(target))
    for folder, _, names in os.walk(root):  # a .pxd since removed must not apply still
        for name in names:
            if os.path.normpath(os.path.join(folder, name)) not in staged:
                os.remove(os.path.join(folder, name))
    return root


class BuildPy(build_py):
    """The package root is this folder (pyproject.toml), so leave this build script out of it."""

    def run(self) -> None:
        super().run()
        if not getattr(self, "editable_mode", False) and not self.distribution.ext_modules:
            # KITTENS_PURE_PYTHON: pure by choice (build_ext, which would say otherwise, does not run)
            write_build_note(self.build_lib, "pure", "KITTENS_PURE_PYTHON is set")

    def find_package_modules(self, package, package_dir):
        modules = super().find_package_modules(package, package_dir)
        return [found for found in modules if (found[0], found[1]) != ("kittens", "setup")]


def extensions() -> list:
    """The compiled core's modules (cythonized when they are built), or none."""
    if os.environ.get("KITTENS_PURE_PYTHON", "").strip() not in ("", "0"):
        return []
    shared = Extension(SHARED_UTILITY, [f"{BUILD_DIR}/{SHARED_UTILITY.replace('.', '/')}.c"])
    return [shared] + [Extension(module_name(path), [path]) for path in HOT_MODULES]


class BdistWheel(bdist_wheel):
    """A wheel tagged by what it holds: when build_ext gave up, the wheel is pure Python
    and tagged py3-none-any, not cp311-cp311-linux_x86_64 for modules it does not have.
    setuptools fixes the tag from the extensions declared, before the build runs; so
    the build runs first here, and the tag follows what it made."""

    def run(self) -> None:
        if not self.skip_build:
            scripts = self.reinitialize_command("build_scripts")
            scripts.executable, scripts.force = "python", True  # as bdist_wheel does
            self.reinitialize_command("build_ext").inplace = False
            self.run_command("build")
            self.skip_build = True  # built: neither bdist_wheel nor install builds again
        if not self.distribution.ext_modules:
            self.root_is_pure = True
        super().run()


setup(ext_modules=extensions(),
      cmdclass={"build_ext": OptionalBuildExt, "build_py": BuildPy, "bdist_wheel": BdistWheel})
