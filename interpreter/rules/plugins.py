"""Finding expansions: files, folders, and installed Python distributions.

An expansion can be given four ways:

* a file (``kind: expansion``);
* the name of a shipped one (``imploding``: ``editions/imploding.yaml`` of kittens);
* a folder holding ``expansion.yaml`` and, beside it, its card libraries;
* the name of an installed distribution's entry point in the
  ``kittens.expansions`` group. The entry point names a package, and the
  package's folder holds ``expansion.yaml``::

      [project.entry-points."kittens.expansions"]
      space_cats = "space_cats"

kittens finds that folder without importing the package: no code from it runs.

An edition to build on (`extends:`) is a file or the name of a shipped
edition (``extends: original``), so a house rule written against a shipped
edition works wherever kittens is installed. Only ``.yaml``/``.yml`` files
are ever read through these references.

References stay inside the rule folders (see :func:`project_root` and
:func:`confined`): the project of a file the user named, the kittens package
folder, and the folders of installed expansions. The workspace refuses a
reference that leads anywhere else, symlinks followed.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from importlib import metadata

from ..lang.diagnostics import did_you_mean

GROUP = "kittens.expansions"
EXPANSION_FILE = "expansion.yaml"


@dataclass(frozen=True)
class Installed:
    """An expansion an installed distribution declares."""

    name: str  # the entry point's name: what `--with` and `apply:` accept
    path: str | None  # its expansion.yaml, or None when it cannot be found
    distribution: str
    version: str
    problem: str | None = None  # why it cannot be used

    @property
    def origin(self) -> str:
        return f"entry point '{self.name}' of {self.distribution} {self.version}"


def installed() -> list[Installed]:
    """Every expansion installed distributions declare, by name."""
    found: dict[str, Installed] = {}
    for entry in metadata.entry_points(group=GROUP):
        dist = entry.dist
        name, version = (dist.metadata["Name"], dist.version) if dist is not None else ("?", "?")
        path, problem = _package_file(entry.value)
        found.setdefault(entry.name, Installed(entry.name, path, name, version, problem))
    return [found[name] for name in sorted(found)]


def _package_file(value: str) -> tuple[str | None, str | None]:
    module = value.split(":")[0].strip()
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError) as exc:
        return None, f"cannot find the package '{module}': {exc}"
    if spec is None or not spec.submodule_search_locations:
        return None, f"'{module}' is not an installed package (a folder holding {EXPANSION_FILE})"
    for folder in spec.submodule_search_locations:
        candidate = os.path.join(folder, EXPANSION_FILE)
        if os.path.isfile(candidate):
            return candidate, None
    return None, f"the package '{module}' has no {EXPANSION_FILE}"


RULE_FILE = (".yaml", ".yml")


def _bare(reference: str) -> bool:
    """A name rather than a path: no folder separator and no file suffix."""
    return "/" not in reference and "\\" not in reference and not reference.endswith(RULE_FILE)


def shipped(name: str) -> str | None:
    """The shipped edition or expansion called ``name`` (``original``, ``imploding``)."""
    from ...about import EDITIONS_DIR

    path = os.path.join(str(EDITIONS_DIR), f"{name}.yaml")
    return path if _bare(name) and os.path.isfile(path) else None


def locate_edition(reference: str, folder: str = ".", exists=os.path.isfile) -> str | None:
    """The edition file an `extends` names: a rule file (relative to ``folder``) or the
    name of a shipped edition. None if there is none. ``exists`` says whether a path can
    be read (a workspace's: a text held in memory counts, as for files uploaded together)."""
    path = os.path.normpath(os.path.join(folder, reference))
    if exists(path) and path.endswith(RULE_FILE):
        return path
    return shipped(reference)


def locate(reference: str, folder: str = ".", exists=os.path.isfile) -> str | None:
    """The expansion file a reference names: a rule file (relative to ``folder``), a
    folder holding expansion.yaml, the name of a shipped expansion, or an installed
    expansion's name. None if none is found. ``exists`` as for locate_edition."""
    path = os.path.normpath(os.path.join(folder, reference))
    if os.path.isdir(path):
        inside = os.path.join(path, EXPANSION_FILE)
        return inside if exists(inside) else None
    if exists(path):
        return path if path.endswith(RULE_FILE) else None
    if _bare(reference):
        found = shipped(reference)
        if found is not None:
            return found
        for item in installed():
            if item.name == reference:
                return item.path
    return None


def not_found(reference: str, folder: str = ".") -> str:
    """Why ``reference`` names no expansion, in words that say how to fix it."""
    path = os.path.normpath(os.path.join(folder, reference))
    if os.path.isdir(path):
        return f"the folder '{reference}' holds no {EXPANSION_FILE}"
    if os.path.isfile(path):
        return f"'{reference}' is not a rule file: only .yaml and .yml files are read"
    if os.path.exists(path):  # a pipe, a device or a folder: there, but nothing to read
        return (f"'{reference}' is not a regular file (it is a folder, a pipe or a device): "
                "name a rule file")
    names = [item.name for item in installed()]
    known = f" (installed: {', '.join(names)})" if names else " (no expansion is installed)"
    return (f"no expansion '{reference}': give a file, a folder holding {EXPANSION_FILE}, or the "
            f"name of a shipped or installed expansion{known}")


def edition_not_found(reference: str, folder: str = ".") -> str:
    """Why ``reference`` names no edition to extend."""
    from ...about import EDITIONS_DIR

    path = os.path.normpath(os.path.join(folder, reference))
    if os.path.isfile(path):
        return f"'{reference}' is not a rule file: only .yaml and .yml files are read"
    if os.path.exists(path):  # a pipe, a device or a folder: there, but nothing to read
        return (f"'{reference}' is not a regular file (it is a folder, a pipe or a device): "
                "name a rule file")
    names = sorted(name[:-5] for name in os.listdir(EDITIONS_DIR) if name.endswith(".yaml"))
    return (f"no file '{reference}' (looked for {path}), and no shipped edition of that name"
            f"{did_you_mean(reference, names)} (shipped: {', '.join(names)})")


#: a folder holding one of these is the top of a project of rule files
PROJECT_MARKERS = (".git", ".hg", "pyproject.toml", "kittens.toml")


def project_root(path: str) -> str:
    """The folder whose files the references of a named rule file may reach.

    It is the nearest folder at or above the file that holds a project marker
    (``.git``, ``.hg``, ``pyproject.toml``, ``kittens.toml``); failing one, the
    folder above the file's own (so ``scenarios/`` may name ``../house.yaml`` and
    ``editions/`` may include ``../rulebook/...``). It is never the home folder,
    a folder above it or the file system's root: where that is what the rule
    gives, it is the file's own folder. The file's folder is taken as the path gives
    it (a file's references are relative to that folder, even when the file itself
    is a symlink), with symlinked folders resolved.
    """
    folder = os.path.realpath(os.path.dirname(os.path.abspath(path)))
    marked = marked_project(folder)
    if marked is not None:
        return marked
    above = os.path.dirname(folder)
    return folder if _too_broad(above) else above


def marked_project(folder: str) -> str | None:
    """The nearest folder at or above ``folder`` holding a project marker, if any (never
    the home folder, one above it, or the root)."""
    here = folder
    while not _too_broad(here):
        if any(os.path.lexists(os.path.join(here, marker)) for marker in PROJECT_MARKERS):
            return here
        here = os.path.dirname(here)
    return None


def _too_broad(folder: str) -> bool:
    """The file system's root, or the home folder or one above it: never a project."""
    if os.path.dirname(folder) == folder:
        return True
    home = os.path.realpath(os.path.expanduser("~"))
    return os.path.isabs(home) and (home == folder or home.startswith(folder.rstrip(os.sep) + os.sep))


def confined(path: str, roots) -> bool:
    """Whether ``path``, every symlink in it followed, lies inside one of the folders
    ``roots`` (real paths, as :func:`project_root` and :func:`trusted_folders` give)."""
    real = os.path.realpath(path)
    return any(real == root or real.startswith(root.rstrip(os.sep) + os.sep) for root in roots)


def trusted_folders() -> list[str]:
    """Folders every rule file may read from: the kittens package folder (the shipped
    editions and card libraries), the folder of each installed expansion, and the
    project the command runs in (the working folder's, when it has a project marker:
    the designer's own repository)."""
    from ...about import PACKAGE_DIR

    folders = [os.path.realpath(PACKAGE_DIR)]
    here = marked_project(os.path.realpath(os.getcwd()))
    if here is not None:
        folders.append(here)
    for item in installed():
        if item.path is not None:
            folders.append(os.path.dirname(os.path.realpath(item.path)))
    return folders
