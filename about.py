"""What kittens is and where its shipped files live: a leaf every layer may import."""

from pathlib import Path

#: the one place the version is written: pyproject.toml reads it from here
#: (``[tool.setuptools.dynamic]``), so a clean clone, a tarball without git history and
#: the sdist all build the same version; a release changes it here and in CHANGELOG.md
__version__ = "0.1.0"

#: where kittens is published (SARIF's informationUri; the README's pre-commit example names
#: the same place): set it to the real repository when it is published
HOMEPAGE = "https://github.com/OWNER/kittens"

#: the name kittens is published and installed under (``pip install kittens-engine``).
#: The import package and the command stay ``kittens``; the distribution called
#: ``kittens`` on the package index is an unrelated project.
DISTRIBUTION = "kittens-engine"

#: the commit a copy made by ``git archive`` was made from: git fills it in
#: (.gitattributes: ``about.py export-subst``); elsewhere the placeholder stays
_ARCHIVED_COMMIT = "$Format:%h$"

#: where the shipped rule files live, in a checkout and in an installed package
PACKAGE_DIR = Path(__file__).resolve().parent
EDITIONS_DIR = PACKAGE_DIR / "editions"
RULEBOOK_DIR = PACKAGE_DIR / "rulebook"
SCHEMA_DIR = PACKAGE_DIR / "schema"
DOCS_DIR = PACKAGE_DIR / "docs"


def shipped_path(path: str) -> str:
    """A shipped file as ``<kittens>/rulebook/original.yaml``; any other path as given.
    Messages that name where something was defined use it, so they read the same
    however kittens is installed."""
    import os

    if not isinstance(path, str) or not os.path.isabs(path):
        return path
    real, package = os.path.realpath(path), str(PACKAGE_DIR)
    if real.startswith(package + os.sep):
        return "<kittens>/" + os.path.relpath(real, package).replace(os.sep, "/")
    return path


def display_path(path: str) -> str:
    """``path`` as a person should read it: as given when it is relative, relative
    to the working folder when it lies below it, and a shipped file as
    ``<kittens>/editions/original.yaml`` rather than its site-packages path."""
    import os

    if not isinstance(path, str) or not os.path.isabs(path):
        return path
    here = os.getcwd()
    real = os.path.realpath(path)
    if real == here or real.startswith(here + os.sep):
        return os.path.relpath(real, here)
    return shipped_path(path)


#: the module that tells whether the engine was compiled (setup.py compiles it with the rest)
_CORE_PROBE = "kittens.interpreter.engine.flow"


def engine_core() -> str:
    """``"compiled"`` when the engine's hot modules were built as C extensions by
    setup.py (Cython), ``"python"`` when they run as Python source. Both play the
    same games; the compiled core plays them about twice as fast."""
    import importlib.util
    from importlib.machinery import EXTENSION_SUFFIXES

    spec = importlib.util.find_spec(_CORE_PROBE)
    origin = (spec.origin or "") if spec is not None else ""
    return "compiled" if origin.endswith(tuple(EXTENSION_SUFFIXES)) else "python"


#: the note setup.py leaves in a built package: how its core was built ("compiled",
#: "pure" when asked for with KITTENS_PURE_PYTHON, "fallback" when compiling failed)
BUILD_NOTE = PACKAGE_DIR / "_core_build.json"


def core_fallback() -> str:
    """Why this kittens runs the pure-Python core where a compiled one was meant to be
    built ("" when it was not: a compiled core, a checkout or editable install, which
    run their sources on purpose and carry no note, or a pure build asked for). An
    install whose compiler failed says so only in pip's verbose log; kittens says it
    when it runs (cli.py), so that nobody plays at half speed without knowing."""
    import json

    # the note first: one small read, and in a checkout a failed open; every command
    # starts with this, so the engine's modules are looked for only after a fallback
    try:
        built = json.loads(BUILD_NOTE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    if built.get("core") != "fallback" or engine_core() == "compiled":
        return ""
    return str(built.get("why") or "compiling the engine failed")


def core_warning() -> str:
    """The warning for a core_fallback(), or "" (none, or KITTENS_PURE_PYTHON set to say
    that pure Python is wanted)."""
    import os

    why = core_fallback()
    if not why or os.environ.get("KITTENS_PURE_PYTHON", "").strip() not in ("", "0"):
        return ""
    return (f"kittens: the engine runs as pure Python here, about half as fast as compiled: when "
            f"it was installed, {why}. With a C compiler and Python's headers, reinstall it: "
            f"pip install --force-reinstall --no-deps --no-binary {DISTRIBUTION} {DISTRIBUTION} "
            f"(or pip install . in a checkout). KITTENS_PURE_PYTHON=1 silences this.")


def source_commit(archived: str = _ARCHIVED_COMMIT, where: Path | None = None) -> str | None:
    """The commit this copy of kittens was made from, when it can be told: written in
    by ``git archive``, or asked of git when the package is a git checkout (None for
    an installed copy). Benchmarks stamp their results with it, so a result names the
    engine that played it even when that engine was built from another commit than
    the checkout the benchmark ran from."""
    if not archived.startswith("$Format"):
        return archived
    import subprocess

    try:
        found = subprocess.run(["git", "-C", str(where or PACKAGE_DIR), "rev-parse", "--show-prefix", "--short",
                                "HEAD"], capture_output=True, text=True, check=True, timeout=10).stdout.split()
    except (OSError, subprocess.SubprocessError):
        return None
    # a checkout of kittens has the package at the top of its work tree (no prefix); a
    # copy that merely sits inside some other repository is not that repository's commit
    return found[0] if len(found) == 1 else None
