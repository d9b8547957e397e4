"""Which files make up a game, resolved into the one document to compile.

`kittens run house.yaml --with space_cats/` plays: the edition at the bottom
of the `extends` chain, then for each file up the chain the expansions it
`apply`s and its own changes, then the `--with` expansions. An expansion
given as the file to play is played on its `base`. This module walks those
references (catching cycles, wrong kinds and missing files, at the line that
names them) and layers the files with :class:`compose.Layered`.
"""

from __future__ import annotations

import os

from ..lang.diagnostics import did_you_mean
from ..lang.loader import Document
from . import plugins
from .compose import CHANGE_KEYS, Layered, Problem, VariantDoc, variant_names

#: how many editions one may extend through (an edition extending one extending ...)
MAX_EXTENDS_DEPTH = 16


def resolve_stack(ws, path: str, expansions: tuple = (), variants: tuple = (),
                  _chain: tuple = ()):
    """The document to compile for ``path`` with ``expansions`` (files) applied in order.

    An expansion given as ``path`` is resolved on the base it names; an edition
    that ``extends`` another is layered onto it. ``variants`` holds ``(name,
    file)`` pairs: the variant ``name`` of the rule file ``file`` (a real path)
    is switched on right after that file is layered (see :meth:`Layered.vary`);
    a house rule's own `variant:` adds one for the files below it. Always a
    :class:`Layered` document; None when the files have errors that stop
    composition (reported to ``ws``).
    """
    doc, kind = ws.load(path)
    if doc is None or kind is None:
        return None
    if kind == "expansion":
        folder = os.path.dirname(doc.path)
        base = plugins.locate_edition(doc.data["base"], folder)
        if not ws.may_read(doc, ("base",), base or os.path.join(folder, doc.data["base"])):
            return None  # found or not: whether a file is there is not for it to learn
        base_doc, base_kind = ws.load(base) if base else (None, None)
        if base_kind != "edition":
            if base_doc is not None or base is None:
                ws.report(doc.diagnostic(("base",), "wrong-kind" if base_doc else "unknown-file",
                                         f"'{doc.data['base']}' is not an edition file: `base` names "
                                         "the edition this expansion is played with"))
            return None
        assert base is not None  # a base that loads as an edition is a path
        return resolve_stack(ws, base, (path, *expansions), variants, _chain)
    if kind != "edition":
        return None
    if "extends" in doc.data:
        result = _extended(ws, doc, variants, _chain)
        if result is None:
            return None
    else:
        result = Layered(doc)
        _vary(ws, result, doc, variants)
        for key in CHANGE_KEYS + ("apply", "variant"):
            if key in doc.data:
                ws.report(doc.diagnostic((key,), "needs-extends",
                                         f"`{key}` changes an edition this file builds on, but it "
                                         "has no `extends:`: name that edition, or write the part "
                                         "in full", key=True))
    for extra in expansions:
        extra_doc, extra_kind = ws.load(extra)
        if extra_kind != "expansion":
            return None  # reported by the loader, or by whoever named the file
        _report(ws, result.apply(extra_doc))
        _vary(ws, result, extra_doc, variants)
    if not _chain:
        _report(ws, list(result.conflicts.values()) + result.missing_needs())
    return result


def stack_files(ws, path: str, expansions: tuple = (), _chain: tuple = ()) -> list:
    """Every rule file of a game in the order it is layered: the edition at the bottom of
    the `extends` chain first, the expansions each file applies, the house rules, then
    ``expansions``. Documents that fail to load are left out (their errors are reported)."""
    layered = resolve_stack(ws, path, tuple(expansions), (), _chain)
    if layered is None:
        return []
    return [layered.base] + [layer for layer, _kind in layered.layers]


def variant_sources(ws, path: str, expansions: tuple = ()) -> dict:
    """Variant name -> the real path of the file whose variant of that name is played:
    the one layered last, since a file above replaces a variant of the same name below."""
    found: dict[str, str] = {}
    for doc in stack_files(ws, path, expansions):
        for name in variant_names(doc):
            found.pop(name, None)  # re-inserted: the order is that of the files, top last
            found[name] = os.path.realpath(doc.path)
    return found


def _vary(ws, layered: Layered, doc: Document, variants: tuple) -> None:
    """Switch on the variants that belong to ``doc``."""
    real = None
    for name, owner in variants:
        real = real or os.path.realpath(doc.path)
        if owner == real and name in variant_names(doc):
            _report(ws, layered.vary(VariantDoc(doc, name)))


def chosen_variants(ws, path: str) -> set:
    """The variants a house rule (or one it extends) switches on with `variant:`."""
    chosen = set()
    for doc in stack_files(ws, path):
        if isinstance(doc.data.get("variant"), str) and "extends" in doc.data:
            chosen.add(doc.data["variant"])
    return chosen


def _own_variant(ws, doc: Document, parent: str, applied: list, chain: tuple) -> tuple:
    """The (name, file) pair a house rule's `variant:` switches on: the variant of that
    name of the last file below it that declares one; () when it names none (or an
    unknown one, which is reported)."""
    name = doc.data.get("variant")
    if name is None:
        return ()
    found = {}
    for below in stack_files(ws, parent, (), chain) + applied:
        for declared in variant_names(below):
            found[declared] = os.path.realpath(below.path)
    if name not in found:
        ws.report(doc.diagnostic(("variant",), "bad-value",
                                 f"nothing this file builds on has a variant '{name}'"
                                 f"{did_you_mean(name, found)} (the variants there: "
                                 f"{', '.join(found) or 'none'})"))
        return ()
    return ((name, found[name]),)


def _extended(ws, doc: Document, variants: tuple, chain: tuple):
    """A house rule layered on the edition it extends, its `apply` expansions first."""
    real = os.path.realpath(doc.path)
    if real in chain or len(chain) >= MAX_EXTENDS_DEPTH:
        ws.report(doc.diagnostic(("extends",), "include-cycle",
                                 "this file extends a file that extends it back: remove one of the "
                                 "two `extends`" if real in chain else
                                 f"editions extend each other more than {MAX_EXTENDS_DEPTH} deep"))
        return None
    folder = os.path.dirname(doc.path)
    parent = plugins.locate_edition(doc.data["extends"], folder)
    if not ws.may_read(doc, ("extends",), parent or os.path.join(folder, doc.data["extends"])):
        return None
    if parent is None:
        ws.report(doc.diagnostic(("extends",), "unknown-file",
                                 plugins.edition_not_found(doc.data["extends"], folder)))
        return None
    parent_doc, parent_kind = ws.load(parent)
    if parent_doc is None or parent_kind is None:
        _newer_format(ws, doc, ("extends",), parent)
        return None  # its own errors are reported in it
    if parent_kind != "edition":
        ws.report(doc.diagnostic(("extends",), "wrong-kind",
                                 f"'{doc.data['extends']}' is {_a(parent_kind)} file; `extends` takes "
                                 "an edition (apply expansions with `apply:`)"))
        return None
    applied = []
    for index, reference in enumerate(doc.data.get("apply", [])):
        found = plugins.locate(reference, folder)  # refused below when outside: not read here
        extra_doc, extra_kind = ws.load(found) if found and not ws.outside(found) else (None, None)
        if extra_kind == "expansion":
            applied.append(extra_doc)
    variants = variants + _own_variant(ws, doc, parent, applied, chain + (real,))
    layered = resolve_stack(ws, parent, (), variants, chain + (real,))
    if layered is None:
        return None
    for index, reference in enumerate(doc.data.get("apply", [])):
        found = plugins.locate(reference, folder)
        if not ws.may_read(doc, ("apply", index), found or os.path.join(folder, reference)):
            return None
        if found is None:
            ws.report(doc.diagnostic(("apply", index), "unknown-file", plugins.not_found(reference, folder)))
            return None
        extra_doc, extra_kind = ws.load(found)
        if extra_doc is None or extra_kind is None:
            _newer_format(ws, doc, ("apply", index), found)
            return None
        if extra_kind != "expansion":
            ws.report(doc.diagnostic(("apply", index), "wrong-kind",
                                     f"'{reference}' is {_a(extra_kind)} file; `apply` takes expansions "
                                     "(an edition to build on goes in `extends`)"))
            return None
        _report(ws, layered.apply(extra_doc))
        _vary(ws, layered, extra_doc, variants)
    _report(ws, layered.extend(doc))
    _vary(ws, layered, doc, variants)
    return layered


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
