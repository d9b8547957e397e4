"""Rule files in, a playable edition out: the front door of the rules package.

:func:`load_edition` takes an edition file, a shipped edition's name or an
expansion (played on its base), with expansions applied and a variant chosen,
and gives the compiled :class:`~.model.Edition`; bad rules raise
:class:`RuleError` with every diagnostic. :func:`expand` finds rule files
below folders.
"""

from __future__ import annotations

import os

from ...about import display_path
from ..lang.diagnostics import Diagnostic, did_you_mean
from . import plugins
from .edition import compile_edition
from .model import Edition
from .workspace import Workspace

RULE_FILE_SUFFIXES = (".yaml", ".yml")


class UsageError(Exception):
    """A path or name that names nothing to read (exit status 2 at the CLI)."""


class RuleError(Exception):
    """Rule files that cannot be compiled; ``diagnostics`` says why."""

    def __init__(self, diagnostics: list[Diagnostic], message: str | None = None):
        self.diagnostics = diagnostics
        super().__init__(message or "\n".join(d.render() for d in diagnostics))


class UnknownVariant(UsageError, RuleError):
    """A variant the edition does not have: a usage error (exit 2, like an unknown edition,
    bot or expansion) that code catching RuleError still catches."""


def locate_rules(name: str) -> str:
    """An edition file, or a shipped edition's name (``original``), as a path;
    :class:`UsageError` when it is neither."""
    if os.path.isfile(name):
        return name
    found = plugins.shipped(name)
    if found is None:
        raise UsageError(f"no such rule file (or shipped edition): {name}")
    return found


def locate_expansions(names) -> tuple:
    """Expansions given as files, folders or installed or shipped names, as paths."""
    found = []
    for name in names or ():
        located = plugins.locate(name)
        if located is None:
            raise UsageError(plugins.not_found(name))
        found.append(located)
    return tuple(found)


def load_edition(path: str, variant: str | None = None, expansions: tuple = (), *,
                 workspace: Workspace | None = None) -> Edition:
    """Compile an edition (or an expansion on its base) for play, with ``expansions``
    applied in order; raise :class:`RuleError` with the diagnostics if it cannot be.

    ``path`` may be a file or a shipped edition's name, ``expansions`` files,
    folders or names (:class:`UsageError` when one names nothing). ``workspace``:
    a fresh workspace of the caller's, for files it loads under its own rules
    (the web table confines uploaded files to their folder).
    """
    ws = workspace if workspace is not None else Workspace()
    path = path if ws.sources.held(path) else locate_rules(path)  # a text held in memory is a file
    expansions = locate_expansions(expansions)
    for extra in expansions:
        doc, kind = ws.load(extra)
        if doc is not None and kind not in (None, "expansion"):
            raise RuleError([], f"{extra} is not an expansion (its kind is {kind})")
    edition = compile_edition(ws, path, tuple(expansions))
    errors = [d for d in ws.diagnostics if d.is_error]
    if edition is None or errors:
        if not errors:  # e.g. the file is a card library, not an edition
            doc, kind = ws.load(path)
            raise RuleError([], f"{path} is not an edition (its kind is {kind or 'unknown'})")
        raise RuleError(errors)
    return select_variant(edition, variant, display_path(path))


def select_variant(edition: Edition, variant: str | None, named: str) -> Edition:
    """``edition`` with ``variant`` switched on (itself for None). A variant of a file
    further down that no longer applies raises :class:`RuleError` with the reason; a
    name the edition has no variant of raises :class:`UnknownVariant`. ``named``: how
    the person named the rules, for the messages."""
    if variant is None:
        return edition
    if variant in edition.unavailable:
        owner, why = edition.unavailable[variant]
        raise RuleError([], f"the variant '{variant}' of {display_path(owner)} does not apply here, "
                            f"once {named} is built on it:\n{why}")
    if variant not in edition.variants:
        raise UnknownVariant([], f"{named} has no variant '{variant}'"
                                 f"{did_you_mean(variant, edition.variants)} "
                                 f"(it has: {', '.join(edition.variants) or 'none'})")
    return edition.variants[variant]


def expand(paths: list[str], *, allow_outside: bool | None = None,
           outside: list | None = None) -> list[str]:
    """Files named directly, plus every ``*.yaml``/``*.yml`` below named folders, sorted;
    below a folder, hidden folders, build output, virtual environments and what
    .gitignore or .kittensignore names are left out (see :mod:`ignore`), and so are links that lead out
    of the rule folders (the folder's project, the kittens package, installed
    expansions) unless ``allow_outside`` (default: the environment, see
    :mod:`workspace`): references may not leave them, and neither may a folder walk.
    The links left out are added to ``outside`` when it is given."""
    from .ignore import walk_rule_files
    from .workspace import allow_outside_default

    if allow_outside is None:
        allow_outside = allow_outside_default()
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = walk_rule_files(path, RULE_FILE_SUFFIXES)
            if not allow_outside:
                roots = _walk_roots(path)
                left_out = [f for f in found if not plugins.confined(f, roots)]
                if outside is not None:
                    outside += left_out
                found = [f for f in found if f not in left_out]
            files += found
        elif os.path.exists(path):
            files.append(path)
        else:
            raise UsageError(f"no such file or folder: {path}")
    if not files and not outside:
        raise UsageError(f"no rule files (*.yaml, *.yml) in {', '.join(paths)}")
    return list(dict.fromkeys(os.path.normpath(f) for f in files))


def _walk_roots(folder: str) -> list[str]:
    """The folders a walk of ``folder`` may read files from (links followed)."""
    return [os.path.realpath(folder), plugins.project_root(os.path.join(folder, "_")),
            *plugins.trusted_folders()]
