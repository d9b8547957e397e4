"""What the language server knows about one rule file, without the protocol.

:func:`analyse` checks a file as `kittens validate` does, from the text in the
editor (saved or not): the same checks, so the same codes at the same lines
and columns. It also gathers the vocabulary the file can use (the card ids,
tags and parameters of the libraries it reaches, the primitives and engine
rules), from which :func:`completions`, :func:`hover` and :func:`definition`
answer. Positions here are 0-based lines and columns, as the protocol counts.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..about import RULEBOOK_DIR
from ..interpreter.lang import primitives as P
from ..interpreter.lang.annotations import moved_onto
from ..interpreter.lang.checker import AGGREGATE_SUMMARIES, AGGREGATES
from ..interpreter.lang.diagnostics import Diagnostic
from ..interpreter.rules.workspace import Workspace

#: keys whose values are effect text (or an expression)
EFFECT_KEYS = frozenset({"effect", "on_draw", "instead_of_draw", "requires", "if", "count",
                         "nopeable", "turn_draw", "allows", "score", "ends_when", "tie_break"})
#: keys whose values are mappings from card ids (deck counts and card changes)
CARD_MAP_KEYS = frozenset({"deck", "add_cards", "set_counts", "patch_cards", "counts",
                           "draw_pile_counts", "hand_has"})
#: keys whose values are lists of card ids
CARD_LIST_KEYS = frozenset({"remove_cards", "draw_pile", "discard_pile", "hands", "hand",
                            "set_aside", "removed", "cards", "titles", "slots", "for"})
TAG_KEYS = frozenset({"tags", "tag"})

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY_LINE = re.compile(r"^(\s*)(?:-\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*:(?:\s|$)")


@dataclass
class Vocabulary:
    """The names a file may use: cards (id -> Card), tags (tag -> card ids), params."""

    cards: dict = field(default_factory=dict)
    tags: dict = field(default_factory=dict)
    params: dict = field(default_factory=dict)  # name -> its value or default
    procedures: dict = field(default_factory=dict)  # name -> (signature, what it does)


@dataclass
class Analysis:
    path: str
    text: str
    diagnostics: list
    vocabulary: Vocabulary
    #: the real paths of every file the check read (what a change elsewhere may affect)
    reached: frozenset = frozenset()


def analyse(path: str, text: str, overlays: dict | None = None) -> Analysis:
    """Check ``text`` as the content of ``path``; ``overlays`` are other open buffers
    (real path -> text), read instead of their files."""
    from ..interpreter.rules.check import check_file

    ws = Workspace()
    ws.sources.update(overlays or {})
    ws.sources.put(path, text)
    check_file(ws, path)
    real = os.path.realpath(path)
    own = [d for d in ws.diagnostics if os.path.realpath(d.path) == real]
    own += _caused_elsewhere(ws, real, text, overlays or {})
    vocabulary = _vocabulary(ws, text)
    _add_inline_cards(ws, real, vocabulary)
    _add_procedures(ws, real, vocabulary)
    reached = frozenset(os.path.realpath(doc.path) for doc, _kind in ws.documents() if doc is not None)
    return Analysis(path, text, own, vocabulary, reached)


def _add_inline_cards(ws: Workspace, real: str, vocab: Vocabulary) -> None:
    """The cards the open file defines itself (`define_cards`, `replace_cards`), so a
    card id in its deck maps and effects hovers and goes to its definition too. They are
    compiled in a scratch workspace: the check above has reported their findings."""
    from ..interpreter.rules.library import inline_library

    for doc, kind in ws.documents():
        if doc is None or kind not in ("edition", "expansion") or os.path.realpath(doc.path) != real:
            continue
        try:
            lib = inline_library(Workspace(), doc)
        except Exception:  # noqa: BLE001 - a half-typed file: the libraries' cards still serve
            return
        for card_id, (card, _path) in lib.cards.items():
            vocab.cards[card_id] = card  # its own definition (or replacement) wins
            for tag in card.tags:
                vocab.tags.setdefault(tag, []).append(card_id)


def _add_procedures(ws: Workspace, real: str, vocab: Vocabulary) -> None:
    """The procedures the open file declares (`procedures:`), as written: their signatures
    for completion and hover, even while the file does not check yet."""
    for doc, kind in ws.documents():
        if doc is None or kind not in ("edition", "expansion") or os.path.realpath(doc.path) != real:
            continue
        declared = doc.data.get("procedures") if isinstance(doc.data, dict) else None
        for name, raw in (declared if isinstance(declared, dict) else {}).items():
            raw = raw if isinstance(raw, dict) else {}
            params = raw.get("params") if isinstance(raw.get("params"), dict) else {}
            shown = ", ".join(f"{param}: {type_}" for param, type_ in params.items())
            what = "value" if "value" in raw else "effect"
            vocab.procedures[str(name)] = (f"{name}({shown})  # a {what} procedure of this file",
                                           " ".join(str(raw.get("text", "")).split()))


def _caused_elsewhere(ws: Workspace, real: str, text: str, overlays: dict) -> list[Diagnostic]:
    """Findings that checking this file makes in another file, which that file does not
    have on its own: the setup dry run of a house rule fails at a step of the edition it
    extends (hand_size set too high), a combo breaks in a shipped file. An editor shows
    only the open file's findings, so these are moved onto the line that leads there
    (``extends:``, ``include:``, ...), the real place named in the message."""
    from ..interpreter.rules.check import check_file

    elsewhere = [d for d in ws.diagnostics if os.path.realpath(d.path) != real]
    if not elsewhere:
        return []
    own_of: dict[str, set] = {}
    for other in dict.fromkeys(os.path.realpath(d.path) for d in elsewhere):
        alone = Workspace()
        alone.sources.update(overlays)
        alone.sources.put(real, text)
        try:
            check_file(alone, other)
        except Exception:  # noqa: BLE001 - an unreadable file: its findings count as its own
            own_of[other] = None
            continue
        own_of[other] = {_key(d) for d in alone.diagnostics if os.path.realpath(d.path) == other}
    moved = []
    for d in elsewhere:
        mine = own_of.get(os.path.realpath(d.path))
        if mine is None or _key(d) in mine:
            continue
        moved.append(moved_onto(d, real, text))
    return moved


def _key(d: Diagnostic) -> tuple:
    return (os.path.realpath(d.path), d.line, d.column, d.code, d.message)


def _vocabulary(ws: Workspace, text: str) -> Vocabulary:
    vocab = Vocabulary()
    libraries = ws.libraries.compiled()
    if not any(lib.cards for lib in libraries):  # a scenario, a broken file: the shipped cards
        from ..interpreter.rules.library import load_library
        spare = Workspace()
        for name in sorted(os.listdir(RULEBOOK_DIR)):
            if name.endswith(".yaml"):
                load_library(spare, str(RULEBOOK_DIR / name))
        libraries = spare.libraries.compiled()
    for lib in libraries:
        for card_id, (card, _path) in lib.cards.items():
            vocab.cards.setdefault(card_id, card)
            for tag in card.tags:
                vocab.tags.setdefault(tag, []).append(card_id)
        for name, (default, _path) in lib.params.items():
            vocab.params.setdefault(name, default)
    for doc, _kind in ws.documents():
        data = getattr(doc, "data", None)
        if isinstance(data, dict):
            for key in ("params", "set_params", "add_params"):
                if isinstance(data.get(key), dict):
                    for name, value in data[key].items():
                        vocab.params.setdefault(str(name), value)
    return vocab


# -- where the cursor is ------------------------------------------------------------
@dataclass(frozen=True)
class Context:
    """What is being written at a position: ``kind`` is effect, rule, string, card_key,
    card_list, tag or None; ``prefix`` the part of the word before the cursor."""

    kind: str | None
    prefix: str
    key: str | None = None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def key_path(lines: list[str], line: int, column: int) -> list[str]:
    """The mapping keys enclosing a position, innermost last (by indentation)."""
    keys = []
    current = lines[line] if line < len(lines) else ""
    match = _KEY_LINE.match(current)
    if match and column > match.end(2):
        keys.append(match.group(2))
    limit = _indent(current) if current.strip() else column + 1
    for number in range(line - 1, -1, -1):
        text = lines[number]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        indent = _indent(text)
        if indent < limit:
            match = _KEY_LINE.match(text)
            if match:
                keys.append(match.group(2))
                # a list item's key sits one step further in than its dash
                limit = indent if not text.lstrip().startswith("-") else indent
            else:
                limit = indent
        if limit == 0:
            break
    return list(reversed(keys))


def context_at(text: str, line: int, column: int) -> Context:
    lines = text.split("\n")
    current = lines[line] if line < len(lines) else ""
    before = current[:column]
    word = re.search(r"[A-Za-z0-9_]*$", before).group(0)
    keys = key_path(lines, line, column)
    inner = keys[-1] if keys else None
    outer = keys[-2] if len(keys) > 1 else None
    if inner in EFFECT_KEYS or outer == "choose":
        if before[: len(before) - len(word)].endswith("rules."):
            return Context("rule", word, inner)
        if _inside_string(lines, line, column):
            return Context("string", word, inner)
        return Context("effect", word, inner)
    if inner in TAG_KEYS or inner == "slots" and re.search(r"\btag:\s*[A-Za-z0-9_]*$", before):
        return Context("tag", word, inner)  # (a slot written inline, `{tag: cat}`, too)
    if inner in CARD_MAP_KEYS or outer in CARD_MAP_KEYS and inner not in EFFECT_KEYS:
        return Context("card_key", word, inner)
    if inner in CARD_LIST_KEYS or outer in ("hands", "sees"):
        if inner == "cards" and "[" not in before and not before.lstrip().startswith("-"):
            return Context(None, word, inner)
        return Context("card_list", word, inner)
    return Context(None, word, inner)


def _inside_string(lines: list[str], line: int, column: int) -> bool:
    """Whether the cursor is inside a double-quoted string of effect text (quotes on the
    line before it come in an odd number; a YAML-quoted effect's own quote not counted)."""
    before = lines[line][:column]
    stripped = re.sub(r"^\s*(?:-\s+)?[A-Za-z_]+\s*:\s*", "", before)
    count = stripped.count('"')
    if stripped.startswith('"'):
        count -= 1
    return count % 2 == 1


# -- answers --------------------------------------------------------------------------
@dataclass(frozen=True)
class Item:
    """One completion: label, kind (function, constant, value, keyword, variable), detail, docs."""

    label: str
    kind: str
    detail: str = ""
    documentation: str = ""


def completions(analysis: Analysis, line: int, column: int) -> list[Item]:
    ctx = context_at(analysis.text, line, column)
    vocab = analysis.vocabulary
    cards = [Item(cid, "value", card.title, card.text) for cid, card in sorted(vocab.cards.items())]
    tags = [Item(tag, "constant", f"tag of {len(ids)} card(s)", ", ".join(sorted(ids)))
            for tag, ids in sorted(vocab.tags.items())]
    if ctx.kind == "effect":
        items = [Item(name, "function", signature, text) for name, (signature, text) in vocab.procedures.items()]
        items += [Item(p.name, "function", p.signature(), p.summary) for p in P.PRIMITIVES.values()
                  if p.name not in vocab.procedures]  # a file's procedure comes before a primitive
        items += [Item(name, "variable", str(type_)) for name, type_ in P.BUILTIN_NAMES.items()]
        items += [Item(word, "keyword") for word in ("let", "if", "else", "for", "in", "and", "or",
                                                     "not", "true", "false", "rules", "this")]
        items += [Item(op, "function", f"{op}(VALUE for NAME in LIST if CONDITION)", AGGREGATE_SUMMARIES[op])
                  for op in AGGREGATES if op not in P.PRIMITIVES]  # min, max, count are both
    elif ctx.kind == "rule":
        items = [Item(name, "constant", f"engine rule ({type_}, default {default})", meaning)
                 for name, (type_, default, meaning) in P.ENGINE_RULES.items()]
        items += [Item(name, "constant", f"parameter ({value})") for name, value in sorted(vocab.params.items())
                  if name not in P.ENGINE_RULES]
    elif ctx.kind == "string":
        items = cards + tags
    elif ctx.kind in ("card_key", "card_list"):
        items = cards
    elif ctx.kind == "tag":
        items = tags
    else:
        return []
    return [item for item in items if item.label.startswith(ctx.prefix)]


def word_at(text: str, line: int, column: int) -> tuple[str, int, int] | None:
    """The identifier at a position and its start and end columns."""
    lines = text.split("\n")
    if line >= len(lines):
        return None
    for match in _WORD.finditer(lines[line]):
        if match.start() <= column <= match.end():
            return match.group(0), match.start(), match.end()
    return None


def hover(analysis: Analysis, line: int, column: int) -> str | None:
    """Markdown about the name under the cursor: a primitive's signature, a card's text,
    an engine rule's meaning, a tag's cards."""
    found = word_at(analysis.text, line, column)
    if found is None:
        return None
    word, start, _end = found
    vocab = analysis.vocabulary
    prefix = analysis.text.split("\n")[line][:start]
    if prefix.endswith("rules."):
        if word in P.ENGINE_RULES:
            type_, default, meaning = P.ENGINE_RULES[word]
            return f"**rules.{word}** ({type_}, default `{default}`)\n\n{meaning}"
        if word in vocab.params:
            return f"**rules.{word}**: a parameter of the edition (`{vocab.params[word]}`)"
    ctx = context_at(analysis.text, line, column)
    line_text = analysis.text.split("\n")[line]
    if word in AGGREGATES and ctx.kind in ("effect", "rule", None) and \
            (word not in P.PRIMITIVES or " for " in line_text[start:]):  # `max(x for p in ...)`
        return f"```\n{word}(VALUE for NAME in LIST if CONDITION)\n```\n\n{AGGREGATE_SUMMARIES[word]}"
    if word in vocab.procedures and ctx.kind in ("effect", "rule", "string", None):
        signature, text = vocab.procedures[word]
        return f"```\n{signature}\n```\n\n{text}" if text else f"```\n{signature}\n```"
    if word in P.PRIMITIVES and ctx.kind in ("effect", "rule", "string", None):
        prim = P.PRIMITIVES[word]
        return f"```\n{prim.signature()}\n```\n\n{prim.summary}"
    if word in vocab.cards:
        card = vocab.cards[word]
        where = os.path.basename(card.origin.path)
        return f"**{card.title}** (`{word}`, {where}:{card.origin.line})\n\n{' '.join(card.text.split())}"
    if word in vocab.tags:
        return f"tag **{word}**, carried by: {', '.join(sorted(vocab.tags[word]))}"
    return None


def definition(analysis: Analysis, line: int, column: int):
    """Where the card id under the cursor is defined: (path, 0-based line, column) or None."""
    found = word_at(analysis.text, line, column)
    if found is None or found[0] not in analysis.vocabulary.cards:
        return None
    origin = analysis.vocabulary.cards[found[0]].origin
    return origin.path, max(origin.line - 1, 0), max(origin.column - 1, 0)


def span(analysis: Analysis, diagnostic: Diagnostic) -> tuple[int, int, int, int]:
    """A diagnostic's range (0-based): from its column to the end of the word there."""
    line, column = diagnostic.line - 1, max(diagnostic.column - 1, 0)
    found = word_at(analysis.text, line, column)
    end = found[2] if found and found[1] <= column < found[2] else column + 1
    return line, column, line, end
