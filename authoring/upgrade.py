"""`kittens upgrade`: rewrite rule and scenario files that lean on something deprecated.

`format: 1` promises that a file which worked keeps working (docs/format.md): what
kittens stops needing is accepted with a deprecation warning at its line, and this
module rewrites it away, as ruff --fix or pyupgrade do for Python. Each deprecation
is one row of :data:`REWRITES`: its code, what it means, and how the file's text
is edited (the text itself, so comments and layout stay as they were written).

The findings come from running the file: a scenario's script is played by the
scenario runner (authoring/scenario.py), which reports each deprecated step as a
:class:`Deprecation` at its place in the file.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..interpreter.lang.loader import Document

#: a step answering a choice the engine now makes by itself (one candidate)
ANSWERED_ALONE = "answer-to-choice-made-alone"
#: an `expect: {decision: ...}` step expecting such a choice to be asked
EXPECTED_ALONE = "expects-choice-made-alone"


class Deprecation(NamedTuple):
    """Something deprecated a file does, at ``path`` of its document."""

    path: tuple
    code: str
    message: str

    def render(self, doc: Document) -> str:
        """``file:line:col: warning: message [code]``, as every diagnostic reads."""
        mark = doc.mark(self.path)
        return f"{doc.path}:{mark.line}:{mark.column}: warning: {self.message} [{self.code}]"


class Edit(NamedTuple):
    """Replace the characters ``start:end`` of a file's text with ``text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Rewrite:
    """One deprecation and how `kittens upgrade` rewrites it."""

    summary: str
    edit: Callable[[Document, tuple], "list[Edit] | None"]  # None: it cannot be done by text


def _drop_step(doc: Document, path: tuple) -> list[Edit] | None:
    """The edits that take step ``path[:2]`` out of a block list of steps (its lines,
    with the comments inside it; blank lines and comments around it stay)."""
    return drop_item(doc, path[:2])


#: every deprecation `kittens upgrade` rewrites: code -> rewrite. A new deprecation adds
#: a row here, and the place that accepts the old form reports it with that code
REWRITES: dict[str, Rewrite] = {
    ANSWERED_ALONE: Rewrite(
        "a scenario step answers a choice the engine now makes by itself (a choice of one "
        "player or one kind of card): the step is removed", _drop_step),
    EXPECTED_ALONE: Rewrite(
        "a scenario step expects a choice to be asked that the engine now makes by itself: "
        "the step is removed", _drop_step),
}


def drop_item(doc: Document, path: tuple) -> list[Edit] | None:
    """Edits removing the block-sequence item at ``path`` (``("steps", 3)``): from its
    dash to the line before whatever follows it at its indentation or less. None when
    the item is not alone on its lines (a flow list `[...]`), which text edits cannot
    take apart safely."""
    lines, starts = doc.lines, doc.starts
    mark = doc.mark(path)
    if path not in doc.marks:
        return None
    row = mark.line - 1
    before = lines[row][:mark.column - 1]
    dash = before.rstrip()
    if not dash.endswith("-") or dash[:-1].strip():  # not `  - item` on a line of its own
        return None
    indent = len(dash) - 1
    end = row + 1
    while end < len(lines):
        text = lines[end]
        if text.strip() and len(text) - len(text.lstrip()) <= indent:
            break
        end += 1
    while end > row + 1 and not lines[end - 1].strip():  # blank lines after it stay
        end -= 1
    first, last = starts[row], starts[end] if end < len(starts) else len(doc.text)
    return [Edit(first, last, "")]


def emptied(doc: Document, path: tuple) -> Edit | None:
    """The edit writing `[]` after the key of the list at ``path`` (every item of it
    removed: a key with nothing after it would be null), or None if it cannot be."""
    key = doc.key_marks.get(path)
    if key is None:
        return None
    row = doc.lines[key.line - 1]
    colon = row.find(":", key.column - 1)
    if colon < 0 or row[colon + 1:].split("#")[0].strip():
        return None
    at = doc.starts[key.line - 1] + colon + 1
    return Edit(at, at, " []")


def apply_edits(text: str, edits: list[Edit]) -> str:
    """``text`` with ``edits`` made, from the last to the first (they may not overlap)."""
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[:edit.start] + edit.text + text[edit.end:]
    return text


@dataclass
class Upgraded:
    """What `kittens upgrade` makes of one file."""

    path: str
    old: str = ""
    new: str = ""
    fixed: list = field(default_factory=list)  # rendered deprecations the new text no longer has
    left: list = field(default_factory=list)  # rendered deprecations to fix by hand
    error: str | None = None  # why the file could not be upgraded

    @property
    def changed(self) -> bool:
        return self.new != self.old

    def diff(self) -> str:
        return "".join(difflib.unified_diff(self.old.splitlines(keepends=True),
                                            self.new.splitlines(keepends=True),
                                            f"{self.path}", f"{self.path} (upgraded)"))


def upgrade(doc: Document, found: list[Deprecation]) -> Upgraded:
    """The file's text with every deprecation of ``found`` rewritten that can be."""
    result = Upgraded(doc.path, doc.text, doc.text)
    edits: dict = {}  # (start, end) -> Edit: two findings in one step take it out once
    dropped: dict = {}  # list path -> the items of it taken out
    for deprecation in found:
        rewrite = REWRITES.get(deprecation.code)
        made = rewrite.edit(doc, deprecation.path) if rewrite is not None else None
        if made is None:
            result.left.append(deprecation.render(doc) + " (not rewritten: edit it by hand)")
            continue
        edits.update({(e.start, e.end): e for e in made})
        dropped.setdefault(deprecation.path[:1], set()).add(deprecation.path[1])
        result.fixed.append(deprecation.render(doc))
    for path, items in dropped.items():
        if len(items) == len(doc.value_at(path) or ()):  # the whole list went
            empty = emptied(doc, path)
            if empty is not None:
                edits[(empty.start, empty.end)] = empty
    result.new = apply_edits(doc.text, list(edits.values()))
    return result
