"""The card and combo libraries of one compile session, and what a library holds.

A :class:`Library` is one loaded ``cards`` or ``combos`` file with its compiled
records (library.py compiles it); the :class:`LibraryCache` a
:class:`~.workspace.Workspace` keeps compiles each file once per session.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..lang.loader import Document
from .model import Card, Combo


@dataclass
class Library:
    """A loaded ``cards`` or ``combos`` file."""

    path: str
    kind: str
    doc: Document
    cards: dict[str, tuple[Card, tuple]] = field(default_factory=dict)  # id -> (card, json path)
    combos: dict[str, tuple[Combo, tuple]] = field(default_factory=dict)  # id -> (combo, json path)
    uses: list[Library] = field(default_factory=list)
    trees: dict[tuple, object] = field(default_factory=dict)  # json path -> parsed effect (or None)
    zones: dict[str, dict] = field(default_factory=dict)  # extra zone name -> {"public": bool}
    params: dict[str, tuple] = field(default_factory=dict)  # name -> (default value, json path)
    #: the effects checked against an edition's names (see library.check_effects): what
    #: the check found and the cards it saw named, by the names it was checked against
    checked: dict[tuple, tuple] = field(default_factory=dict)

    def visible_zones(self) -> dict:
        """Own zones plus those of used libraries, transitively."""
        out: dict[str, dict] = {}
        seen: set[str] = set()
        stack = [self]
        while stack:
            lib = stack.pop()
            if lib.path not in seen:
                seen.add(lib.path)
                for name, spec in lib.zones.items():
                    out.setdefault(name, spec)
                stack.extend(lib.uses)
        return out

    def visible_cards(self) -> dict:
        """Own cards plus those of used libraries, transitively: id -> (Card, Library, path)."""
        seen: set[str] = set()
        out: dict[str, tuple] = {}
        stack = [self]
        while stack:
            lib = stack.pop()
            if lib.path in seen:
                continue
            seen.add(lib.path)
            for card_id, (card, path) in lib.cards.items():
                out.setdefault(card_id, (card, lib, path))
            stack.extend(lib.uses)
        return out


class LibraryCache:
    """The card and combo libraries compiled in one run: each file once, one library
    reached at two places (a checkout and an installed kittens) once, and the chain of
    files being included right now, to catch cycles."""

    def __init__(self) -> None:
        self._by_path: dict[str, Library] = {}  # real path -> library
        self._by_identity: dict[tuple, Library] = {}  # content identity -> library
        self._identities: dict[str, tuple] = {}  # real path -> content identity
        self._chain: list[str] = []  # real paths being included, outermost first

    def get(self, key: str) -> Library | None:
        """The library compiled from the real path ``key``, unless it is still being loaded."""
        return None if key in self._chain else self._by_path.get(key)

    def same_content(self, identity: tuple, kind: str) -> Library | None:
        """A library of ``kind`` compiled already from the same content, if there is one."""
        found = self._by_identity.get(identity)
        return found if found is not None and found.kind == kind else None

    def add(self, key: str, library: Library, identity: tuple | None = None) -> None:
        """Remember ``library`` as compiled from ``key`` (and from content ``identity``)."""
        self._by_path[key] = library
        if identity is not None:
            self._by_identity[identity] = library

    def compiled(self) -> list[Library]:
        """Every library compiled so far, once each, in the order they were compiled."""
        return list({id(library): library for library in self._by_path.values()}.values())

    def identity(self, key: str) -> tuple | None:
        """The content identity worked out for the real path ``key``, or None."""
        return self._identities.get(key)

    def set_identity(self, key: str, identity: tuple) -> None:
        self._identities[key] = identity

    @contextmanager
    def including(self, key: str) -> Iterator[None]:
        """Mark ``key`` as being included while the body runs."""
        self._chain.append(key)
        try:
            yield
        finally:
            self._chain.pop()

    @property
    def depth(self) -> int:
        """How many files are being included inside one another now."""
        return len(self._chain)

    def in_chain(self, key: str) -> bool:
        """Whether ``key`` is among the files being included now (a cycle, if met again)."""
        return key in self._chain
