"""What kittens is and where its shipped files live: a leaf every layer may import."""

from pathlib import Path

__version__ = "0.1.0"

#: where kittens is published (SARIF's informationUri; the README's pre-commit example names
#: the same place): set it to the real repository when it is published
HOMEPAGE = "https://github.com/OWNER/kittens"

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
