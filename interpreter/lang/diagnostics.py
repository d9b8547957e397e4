"""Findings about rule files: what is wrong, where, and how to fix it.

Every check in the package reports through :class:`Diagnostic`. A diagnostic
names a file, a 1-based line and column, a severity and a stable code from
:data:`CODES`; the code table is the contract that the broken-file corpus and
the documentation are tested against.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Iterable

ERROR = "error"
WARNING = "warning"

#: Every diagnostic code the validator can emit, with a one-line meaning.
CODES: dict[str, str] = {
    # reading the file
    "io-error": "the file could not be read",
    "file-too-large": "the file is larger than a rule file may be",
    "encoding": "the file is not valid UTF-8",
    "yaml-syntax": "the file is not well-formed YAML",
    "yaml-tag": "a YAML tag that would build a program object, or one the loader does not know",
    "yaml-too-deep": "the YAML nests deeper than a rule file may",
    "yaml-too-large": "the YAML holds more values than a rule file may, or expands to that many through aliases",
    "duplicate-key": "a mapping names the same key twice",
    "empty-file": "the file holds no YAML document",
    "multiple-documents": "the file holds more than one YAML document",
    # the document envelope
    "not-a-mapping": "the top of a rule file must be a mapping",
    "format-missing": "the file does not say which format version it is written in",
    "format-unsupported": "the file needs a newer format than this version of kittens reads",
    "unknown-kind": "the `kind` is not a document kind kittens knows",
    # JSON Schema
    "unknown-key": "a key the schema does not allow here",
    "missing-key": "a required key is absent",
    "wrong-type": "a value has the wrong type",
    "bad-value": "a value is out of range or not one of the allowed values",
    # the effect language
    "effect-syntax": "an effect or expression does not parse",
    "effect-too-complex": "an effect is longer or nests deeper than allowed",
    "unknown-primitive": "an effect calls a primitive that does not exist",
    "arity": "a primitive is called with the wrong number or names of arguments",
    "type-mismatch": "an argument or operand has the wrong type",
    "unknown-name": "an effect uses a name that is not defined",
    "fixed-name": "an assignment gives a new value to a name the game gives (`me`, `this`) or to a loop's name",
    "unknown-aggregate": "an aggregate (`sum(... for x in ...)`) names no aggregate kittens knows",
    "unknown-counter": "an effect names a per-player counter that the edition does not declare under `counters:`",
    "redefined-name": "a `let` or `for` reuses a name that is already defined",
    "shadows-primitive": "a name the file defines (`let`, a loop's name, a `choose` name, a zone, a procedure) is also a primitive's name: the file's name wins (a procedure is what the edition's effects call; a value's name leaves calls of the primitive reaching it); a warning",
    "unknown-rule": "`rules.NAME` names no rule or parameter",
    "procedure-cycle": "a procedure calls itself, directly or through other procedures",
    "procedure-too-large": "a procedure grows past the largest size when the procedures it calls are written out",
    "card-not-loaded": "an effect names a card of a shipped library the edition does not load: that part does nothing until it does (a warning)",
    "not-allowed-here": "a primitive used where it may not be (a choice in a pure expression, cancel outside a reaction)",
    "unused-value": "a query is used as a statement and its value is thrown away",
    "number-too-large": "a number written in an effect or a setup count, or one a setup count works out, is beyond the engine's limit (1,000,000,000 either way)",
    "may-overflow": "a calculation in an effect can work out to a number beyond the engine's limit, with the largest values its parts can take (the game would stop with an error)",
    "too-much-work": "an effect's loops can take more steps than one action may (the game would stop with an error): nested `for` loops over zones that can hold the whole deck",
    # cross-file and cross-record checks
    "duplicate-id": "two records share one id",
    "unknown-card": "a card id that no loaded card library defines",
    "unknown-tag": "a tag that no loaded card carries",
    "unknown-zone": "a zone name that no loaded file declares (or a shared zone used where a per-player one is needed)",
    "nothing-to-override": "a card says `overrides: true` but no library it uses defines that id",
    "bad-step": "a setup step whose keys contradict each other",
    "unknown-step": "a file adds, replaces or removes a setup step by a name the setup does not have",
    "ambiguous-key": "a file that extends another gives a whole part (`deck`, `setup`, `combos`, `params`, `rules`) instead of saying how it changes",
    "needs-extends": "an edition uses a change key (`add_cards`, `set_params`, ...) but extends no edition",
    "already-there": "a change adds what is already there: a card already in the deck, a parameter that exists, a combo already on",
    "nothing-to-change": "a change removes, sets, replaces or patches something that is not there",
    "conflict": "two expansions (or two card libraries) set one value differently",
    "patches-replaced-card": "a patch changes what another file's replacement of the card says (patches apply after every replacement): check that it was written for that version",
    "missing-need": "an expansion needs an edition or expansion that is not part of the game",
    "not-in-deck": "a scenario places a card the edition puts no copy of in its deck (a position no real game reaches)",
    "text-mismatch": "a card's text and its effect disagree on a key number (the text says three, the effect uses 5)",
    "unknown-combo": "an edition enables a combo that no loaded combo file defines",
    "unknown-file": "an included file does not exist",
    "outside-project": "a reference (`include`, `uses`, `extends`, `apply`, `base`, `edition`) leads outside the rule folders: the project of the file named, the kittens package, installed expansions",
    "wrong-kind": "an included file is not of the kind expected there",
    "include-cycle": "files include each other in a loop, or includes nest too deep",
    "bad-player-range": "player ranges are empty, overlap, or leave allowed player counts uncovered",
    "deal-impossible": "setup cannot be carried out at an allowed player count",
    "too-few-kittens": "after setup the pile holds too few lethal cards for the game to end",
    "unplayable-card": "a card in the deck can never be played or used",
    "dead-card": "a card reaches the game at some player count, but every card that uses it stays out",
    "schema-modeline": "the `$schema` modeline names a schema for another kind of file",
}


#: characters a terminal acts on rather than shows: C0 controls but tab and line feed,
#: DEL and C1 controls (ESC ] 0; ... BEL sets a terminal's title, ESC [ moves the cursor,
#: CR overwrites the line), and the marks that reorder text (bidirectional overrides)
_UNSAFE = {code: f"\\x{code:02x}" for code in (*range(0x00, 0x09), *range(0x0b, 0x20), 0x7f,
                                                *range(0x80, 0xa0))}
_UNSAFE.update({code: f"\\u{code:04x}" for code in (0x200e, 0x200f, *range(0x202a, 0x202f),
                                                      *range(0x2066, 0x206a))})


def with_article(word: str) -> str:
    """``word`` after "a" or "an", as it is said: "an edition", "a scenario"."""
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def printable(text: str) -> str:
    """``text`` made safe to print on a terminal: each character a terminal would act on
    (an escape sequence, a bell, a NUL, a carriage return, a direction override) is
    written out visibly, as ``\\x1b`` or ``\\u202e``. Every text from a rule file goes
    through this before it is printed (names, titles, texts, paths, diagnostics)."""
    return text.translate(_UNSAFE) if isinstance(text, str) else text


#: the longest message a diagnostic carries: a longer one is cut in the middle, so
#: no quoted value can make a finding run on for pages
MAX_MESSAGE = 1000


@dataclass(frozen=True, order=True, kw_only=True)
class Diagnostic:
    """One finding. Positions are 1-based; a finding about the whole file (too large,
    unreadable, empty) points at 1:1 and carries no source line."""

    path: str
    line: int
    column: int
    severity: str
    code: str
    message: str
    source_line: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.code not in CODES:  # a programming error, caught by the test suite
            raise ValueError(f"unregistered diagnostic code {self.code!r}")
        if len(self.message) > MAX_MESSAGE:  # keep the start and the advice at the end
            cut = " [...] "
            head, tail = MAX_MESSAGE - 200, 200 - len(cut)
            object.__setattr__(self, "message", self.message[:head] + cut + self.message[-tail:])

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def render(self) -> str:
        """The compiler-style text form, with the source line and a caret."""
        head = printable(f"{self.path}:{self.line}:{self.column}: {self.severity}: {self.message} "
                         f"[{self.code}]")
        if not self.source_line:
            return head
        text = self.source_line.rstrip("\n")
        column = self.column
        if len(text) > 120:  # show a window of a very long line around the caret
            start = max(0, column - 60)
            text, column = text[start:start + 120], column - start
        # keep the caret under the right character even when the line has tabs, or
        # characters written out visibly (each takes the width of its escape)
        pad = "".join("\t" if ch == "\t" else " " * len(printable(ch)) for ch in text[: max(column - 1, 0)])
        return f"{head}\n    {printable(text)}\n    {pad}^"

    def to_json(self) -> dict:
        data = asdict(self)
        data.pop("source_line")
        return data


def quote(value, *, items: int = 3, chars: int = 60, depth: int = 2) -> str:
    """``value`` as a message quotes it, abbreviated when long: a list or mapping shows
    its first ``items`` entries and how many more there are, text its first ``chars``
    characters and how many more."""
    if isinstance(value, str):
        if len(value) <= chars:
            return repr(value)
        return f"{value[:chars]!r}... ({len(value) - chars:,} more characters)"
    if isinstance(value, (list, tuple, dict)):
        opening, closing = "{}" if isinstance(value, dict) else "[]"
        if depth <= 0:
            return f"{opening}...{closing}" if value else opening + closing
        inner = dict(items=items, chars=chars, depth=depth - 1)
        entries = list(value.items())[:items] if isinstance(value, dict) else list(value[:items])
        shown = [f"{quote(k, **inner)}: {quote(v, **inner)}" for k, v in entries] \
            if isinstance(value, dict) else [quote(v, **inner) for v in entries]
        if len(value) > items:
            shown.append(f"... and {len(value) - items:,} more")
        return opening + ", ".join(shown) + closing
    return repr(value)


#: no name kittens knows is longer than this; a longer word has no near name
_LONGEST_NAME = 64


def did_you_mean(word: str, candidates: Iterable[str], otherwise: str = "") -> str:
    """A ``; did you mean 'x'?`` suffix when a near name exists, else ``''``.

    ``otherwise`` is the fix to offer when the name was not a slip: it follows the
    question as a sentence of its own ("; did you mean 'x'? If not, define a new
    card ..."), or the message after a colon when no name is near (": define ...")."""
    near = nearest_name(word, candidates)
    if not otherwise:
        return f"; did you mean '{near}'?" if near else ""
    return f"; did you mean '{near}'? If not, {otherwise}" if near else f": {otherwise}"


def nearest_name(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate nearest to ``word``, if one is near enough to be a slip."""
    if len(word) > 2 * _LONGEST_NAME:  # its one-letter deletions alone would take length² memory
        return None
    names = frozenset(candidates)
    if len(names) > _SMALL:  # narrow a large set first: difflib alone is quadratic overall
        index = _deletion_index(names)
        near = set(index.get(word, ()))
        for variant in _deletions(word):
            near.update(index.get(variant, ()))
        names = frozenset(near)
    close = difflib.get_close_matches(word, sorted(names), n=1, cutoff=0.6)
    return close[0] if close else None


_SMALL = 200


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1:] for i in range(len(word))}


@lru_cache(maxsize=32)
def _deletion_index(names: frozenset) -> dict[str, set[str]]:
    """Each name and its one-letter deletions -> names: finds every name within
    one edit (and most within two) of a word in time linear in the word."""
    index: dict[str, set[str]] = {}
    for name in names:
        for key in _deletions(name) | {name}:
            index.setdefault(key, set()).add(name)
    return index


def render_json(diagnostics: list[Diagnostic], files: list[str]) -> str:
    """The ``--format json`` document: findings plus counts, stable key order."""
    doc = {
        "files": files,
        "errors": sum(d.is_error for d in diagnostics),
        "warnings": sum(not d.is_error for d in diagnostics),
        "diagnostics": [d.to_json() for d in diagnostics],
    }
    return json.dumps(doc, indent=2)
