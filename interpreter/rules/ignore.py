"""Which folders and files `kittens validate DIR` leaves out when it walks a folder.

Hidden folders and files, ``build/`` and ``dist/``, virtual environments (a folder with a
``pyvenv.cfg``), ``node_modules`` and ``__pycache__`` are never rule folders;
and what a ``.gitignore`` names is not the designer's source. A ``.kittensignore``,
in the same syntax, names what git keeps but is not meant to validate (a project's
deliberately broken test fixtures, YAML of other tools); its rules come after the
``.gitignore``'s of the same folder, so it can also re-include with ``!``. The
rules followed are the common ones: ``#`` comments, ``!`` to re-include, a
trailing ``/`` for folders only, a pattern with a ``/`` anchored to the
``.gitignore``'s folder, and ``*``, ``?``, ``[...]`` and ``**`` wildcards.
Files named directly on the command line are always checked.
"""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass

SKIPPED_FOLDERS = frozenset({"build", "dist", "node_modules", "__pycache__", "site-packages",
                             "test-artifacts"})


@dataclass(frozen=True)
class _Rule:
    base: str  # the folder of the .gitignore
    regex: re.Pattern
    anchored: bool
    folders_only: bool
    negated: bool


def _compile(pattern: str) -> re.Pattern:
    # `**/` matches any number of folders (none included); fnmatch does the rest
    text = pattern.replace("**/", "\0")
    regex = fnmatch.translate(text).replace("\0", "(?:.*/)?")
    return re.compile(regex)


#: the ignore files a folder walk reads in each folder, in this order
IGNORE_FILES = (".gitignore", ".kittensignore")


def read_ignore_files(folder: str) -> list[_Rule]:
    """The rules of ``folder``'s .gitignore, then of its .kittensignore (none when it has neither)."""
    rules = []
    for name in IGNORE_FILES:
        rules += read_ignore_file(folder, name)
    return rules


def read_ignore_file(folder: str, name: str = ".gitignore") -> list[_Rule]:
    """The rules of the ignore file ``name`` in ``folder`` (none when it has none)."""
    try:
        with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
            lines = handle.read(256 * 1024).splitlines()
    except OSError:
        return []
    rules = []
    for line in lines:
        line = line.rstrip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line[1:] if negated else line
        folders_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        line = line.lstrip("/")
        if line:
            rules.append(_Rule(folder, _compile(line), anchored, folders_only, negated))
    return rules


def ignored(path: str, is_folder: bool, rules: list[_Rule]) -> bool:
    """Whether the last rule that matches ``path`` ignores it."""
    verdict = False
    for rule in rules:
        if rule.folders_only and not is_folder:
            continue
        relative = os.path.relpath(path, rule.base).replace(os.sep, "/")
        subject = relative if rule.anchored else os.path.basename(path)
        if rule.regex.match(subject):
            verdict = not rule.negated
    return verdict


def skipped_folder(path: str) -> bool:
    """A folder that never holds a designer's rule files."""
    name = os.path.basename(path)
    return (name.startswith(".") or name in SKIPPED_FOLDERS
            or os.path.isfile(os.path.join(path, "pyvenv.cfg")))


def walk_rule_files(top: str, suffixes: tuple) -> list[str]:
    """Files with ``suffixes`` below ``top``, sorted, leaving out what is skipped."""
    found = []
    inherited: dict[str, list] = {top: _outer_rules(top)}
    for root, dirs, names in os.walk(top):
        rules = inherited.get(root, []) + read_ignore_files(root)
        keep = []
        for d in sorted(dirs):
            path = os.path.join(root, d)
            if skipped_folder(path) or ignored(path, True, rules):
                continue
            inherited[path] = rules
            keep.append(d)
        dirs[:] = keep
        found += [os.path.join(root, n) for n in names if n.endswith(suffixes)
                  and not n.startswith(".") and not ignored(os.path.join(root, n), False, rules)]
    return sorted(found)


def _outer_rules(top: str) -> list[_Rule]:
    """The ignore rules of the folders above ``top``, up to the repository's top
    (the folder holding ``.git``), so `kittens validate sub/` honours the root's."""
    chain = []
    folder = os.path.abspath(top)
    while True:
        parent = os.path.dirname(folder)
        if os.path.exists(os.path.join(folder, ".git")) or parent == folder:
            break
        folder = parent
        chain.append(folder)
    rules = []
    for folder in reversed(chain):
        rules += read_ignore_files(folder)
    return rules
