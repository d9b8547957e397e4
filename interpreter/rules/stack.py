"""Which files make up a game, resolved into the one document to compile.

`kittens run house.yaml --with space_cats/` plays: the edition at the bottom
of the `extends` chain, then for each file up the chain the expansions it
`apply`s and its own changes, then the `--with` expansions. An expansion
given as the file to play is played on its `base`. This module walks those
references once (:func:`resolve`: catching cycles, wrong kinds and missing files,
at the line that names them) into a :class:`Stack`, which layers the files with
:class:`compose.Layered` (:meth:`Stack.layer`) for the edition and for each of
its variants.
"""

from __future__ import annotations

import os

from ..lang.diagnostics import did_you_mean
from ..lang.loader import Document
from . import plugins
from .compose import CHANGE_KEYS, EXPANSION, HOUSE, Layered, Problem, VariantDoc, variant_names

#: how many editions one may extend through (an edition extending one extending ...)
MAX_EXTENDS_DEPTH = 16


class Stack:
    """The rule files of a game, resolved once: the edition at the bottom, then each
    file layered on it in order (``steps``), every reference walked and checked.

    Resolving (:func:`resolve`) reads the files and follows their references; layering
    them (:meth:`layer`) merges the data, and is cheap. An edition and each of its
    variants are one resolution layered several times, each variant switched on right
    after the file that declares it. Each step keeps the variants the house rules
    above it switch on themselves (`variant:`), outermost first.
    """

    def __init__(self) -> None:
        self.base: Document | None = None
        self.base_extra: tuple = ()  # the variants house rules switch on, for the base
        self.steps: list[tuple[Document, str, tuple]] = []  # (file, EXPANSION or HOUSE, variants)
        self.complete = False  # False: a reference failed (reported); what came before is kept

    @property
    def files(self) -> list:
        """Every rule file of the game in the order it is layered: the edition at the bottom
        of the `extends` chain first, the expansions each file applies, the house rules,
        then the expansions played with it. Empty when the files have errors that stop
        composition."""
        if not self.complete or self.base is None:
            return []
        return [self.base] + [doc for doc, _kind, _extra in self.steps]

    def variant_sources(self) -> dict:
        """Variant name -> the real path of the file whose variant of that name is played:
        the one layered last, since a file above replaces a variant of the same name below."""
        found: dict[str, str] = {}
        for doc in self.files:
            for name in variant_names(doc):
                found.pop(name, None)  # re-inserted: the order is that of the files, top last
                found[name] = os.path.realpath(doc.path)
        return found

    def chosen_variants(self) -> set:
        """The variants a house rule (or one it extends) switches on with `variant:`."""
        return {doc.data["variant"] for doc in self.files
                if isinstance(doc.data.get("variant"), str) and "extends" in doc.data}

    def layer(self, ws, variants: tuple = (), top: bool = True):
        """The files layered into one :class:`Layered` document, with ``variants`` (``(name,
        file)`` pairs: the variant ``name`` of the rule file ``file``, a real path) switched
        on right after that file is layered (see :meth:`Layered.vary`). Layering problems
        (conflicts, changes that miss) are reported to ``ws``; None when the files have
        errors that stop composition (reported when they were resolved). ``top``: this is
        the whole game, so conflicts no house rule settled are reported too."""
        if self.base is None:
            return None
        layered = Layered(self.base)
        _vary(ws, layered, self.base, variants + self.base_extra)
        for doc, kind, extra in self.steps:
            _report(ws, layered.apply(doc) if kind == EXPANSION else layered.extend(doc))
            _vary(ws, layered, doc, variants + extra)
        if not self.complete:
            return None
        if top:
            _report(ws, list(layered.conflicts.values()) + layered.missing_needs())
        return layered

    def _switch_on(self, own: tuple) -> None:
        """A house rule's own variant, switched on for everything resolved so far (the
        files it builds on), outside the variants of the house rules it builds on."""
        self.base_extra = own + self.base_extra
        self.steps = [(doc, kind, own + extra) for doc, kind, extra in self.steps]


def resolve(ws, path: str, expansions: tuple = ()) -> Stack:
    """The rule files of ``path`` played with ``expansions`` (files), in order: an
    expansion given as ``path`` is resolved on the base it names; an edition that
    ``extends`` another is layered onto it, after the expansions it ``apply``s.
    Problems with the references are reported to ``ws``."""
    stack = Stack()
    stack.complete = _resolve(ws, stack, path, tuple(expansions), ())
    return stack


def resolve_stack(ws, path: str, expansions: tuple = (), variants: tuple = ()):
    """The document to compile for ``path`` with ``expansions`` applied, with ``variants``
    switched on (see :meth:`Stack.layer`): always a :class:`Layered` document; None when
    the files have errors that stop composition (reported to ``ws``)."""
    return resolve(ws, path, expansions).layer(ws, tuple(variants))


def _resolve(ws, stack: Stack, path: str, expansions: tuple, chain: tuple) -> bool:
    """Add the files of ``path`` and ``expansions`` to ``stack``; False where a reference
    fails (reported)."""
    doc, kind = ws.load(path)
    if doc is None or kind is None:
        return False
    if kind == "expansion":
        folder = os.path.dirname(doc.path)
        base = plugins.locate_edition(doc.data["base"], folder, ws.sources.exists)
        if not ws.may_read(doc, ("base",), base or os.path.join(folder, doc.data["base"])):
            return False  # found or not: whether a file is there is not for it to learn
        base_doc, base_kind = ws.load(base) if base else (None, None)
        if base_kind != "edition":
            if base_doc is not None or base is None:
                ws.report(doc.diagnostic(("base",), "wrong-kind" if base_doc else "unknown-file",
                                         f"'{doc.data['base']}' is not an edition file: `base` names "
                                         "the edition this expansion is played with"))
            return False
        assert base is not None  # a base that loads as an edition is a path
        return _resolve(ws, stack, base, (path, *expansions), chain)
    if kind != "edition":
        return False
    if "extends" in doc.data:
        if not _extended(ws, stack, doc, chain):
            return False
    else:
        stack.base = doc
        for key in CHANGE_KEYS + ("apply", "variant"):
            if key in doc.data:
                ws.report(doc.diagnostic((key,), "needs-extends",
                                         f"`{key}` changes an edition this file builds on, but it "
                                         "has no `extends:`: name that edition, or write the part "
                                         "in full", key=True))
    for extra in expansions:
        extra_doc, extra_kind = ws.load(extra)
        if extra_kind != "expansion":
            return False  # reported by the loader, or by whoever named the file
        stack.steps.append((extra_doc, EXPANSION, ()))
    return True


def _vary(ws, layered: Layered, doc: Document, variants: tuple) -> None:
    """Switch on the variants that belong to ``doc``."""
    real = None
    for name, owner in variants:
        real = real or os.path.realpath(doc.path)
        if owner == real and name in variant_names(doc):
            _report(ws, layered.vary(VariantDoc(doc, name)))


def _own_variant(ws, doc: Document, below: list) -> tuple:
    """The (name, file) pair a house rule's `variant:` switches on: the variant of that
    name of the last file ``below`` it that declares one; () when it names none (or an
    unknown one, which is reported)."""
    name = doc.data.get("variant")
    if name is None:
        return ()
    found = {}
    for under in below:
        for declared in variant_names(under):
            found[declared] = os.path.realpath(under.path)
    if name not in found:
        ws.report(doc.diagnostic(("variant",), "bad-value",
                                 f"nothing this file builds on has a variant '{name}'"
                                 f"{did_you_mean(name, found)} (the variants there: "
                                 f"{', '.join(found) or 'none'})"))
        return ()
    return ((name, found[name]),)


def _extended(ws, stack: Stack, doc: Document, chain: tuple) -> bool:
    """A house rule layered on the edition it extends, its `apply` expansions first."""
    real = os.path.realpath(doc.path)
    if real in chain or len(chain) >= MAX_EXTENDS_DEPTH:
        ws.report(doc.diagnostic(("extends",), "include-cycle",
                                 "this file extends a file that extends it back: remove one of the "
                                 "two `extends`" if real in chain else
                                 f"editions extend each other more than {MAX_EXTENDS_DEPTH} deep"))
        return False
    folder = os.path.dirname(doc.path)
    parent = plugins.locate_edition(doc.data["extends"], folder, ws.sources.exists)
    if not ws.may_read(doc, ("extends",), parent or os.path.join(folder, doc.data["extends"])):
        return False
    if parent is None:
        ws.report(doc.diagnostic(("extends",), "unknown-file",
                                 plugins.edition_not_found(doc.data["extends"], folder)))
        return False
    parent_doc, parent_kind = ws.load(parent)
    if parent_doc is None or parent_kind is None:
        _newer_format(ws, doc, ("extends",), parent)
        return False  # its own errors are reported in it
    if parent_kind != "edition":
        ws.report(doc.diagnostic(("extends",), "wrong-kind",
                                 f"'{doc.data['extends']}' is {_a(parent_kind)} file; `extends` takes "
                                 "an edition (apply expansions with `apply:`)"))
        return False
    applied = []
    for index, reference in enumerate(doc.data.get("apply", [])):
        found = plugins.locate(reference, folder, ws.sources.exists)  # refused below when outside: not read here
        extra_doc, extra_kind = ws.load(found) if found and not ws.outside(found) else (None, None)
        if extra_kind == "expansion":
            applied.append(extra_doc)
    # the edition extended, resolved once (stack holds nothing yet: this file is its bottom)
    stack.complete = _resolve(ws, stack, parent, (), chain + (real,))
    own: tuple = ()
    if "variant" in doc.data:  # looked for in the files it builds on, layered as they are
        stack.layer(ws, (), top=False)
        own = _own_variant(ws, doc, stack.files + applied)
        stack._switch_on(own)
    if not stack.complete:
        return False
    for index, reference in enumerate(doc.data.get("apply", [])):
        found = plugins.locate(reference, folder, ws.sources.exists)
        if not ws.may_read(doc, ("apply", index), found or os.path.join(folder, reference)):
            return False
        if found is None:
            ws.report(doc.diagnostic(("apply", index), "unknown-file", plugins.not_found(reference, folder)))
            return False
        extra_doc, extra_kind = ws.load(found)
        if extra_doc is None or extra_kind is None:
            _newer_format(ws, doc, ("apply", index), found)
            return False
        if extra_kind != "expansion":
            ws.report(doc.diagnostic(("apply", index), "wrong-kind",
                                     f"'{reference}' is {_a(extra_kind)} file; `apply` takes expansions "
                                     "(an edition to build on goes in `extends`)"))
            return False
        stack.steps.append((extra_doc, EXPANSION, own))
    stack.steps.append((doc, HOUSE, own))
    return True


def _newer_format(ws, doc: Document, path: tuple, target: str) -> None:
    """Name the reference too when the file it reaches is in a newer format: the
    error then shows both places, the file that needs a newer kittens and who uses it."""
    for found in ws.diagnostics:
        if found.code == "format-unsupported" and os.path.realpath(found.path) == os.path.realpath(target):
            ws.report(doc.diagnostic(path, "format-unsupported",
                                     f"'{doc.value_at(path)}' is written in a newer format than this "
                                     f"kittens reads ({found.path}:{found.line}): upgrade kittens"))


def _a(word: str) -> str:
    return ("an " if word[:1] in "aeiou" else "a ") + word


def _report(ws, problems: list[Problem]) -> None:
    for problem in problems:
        ws.report(problem.doc.diagnostic(problem.path, problem.code, problem.message, key=problem.key))
