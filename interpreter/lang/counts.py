"""Setup counts: the pure expressions a setup step's count may be, worked out on card counts.

In a count, ``players`` and ``pile`` are numbers and ``draw_pile`` the draw
pile as it is at that step; ``count``, ``find`` and ``tagged`` work on it. The
validator's dry run knows the pile only as counts of card ids, the engine's
deal has the real cards: both are worked out by the one compiler
(compiler.py), the dry run on stand-in cards, so the two always agree.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from .compiler import compile_expression
from .errors import RuleRuntimeError
from .limits import STEP_BUDGET
from .machine import Ctx
from .syntax import Name, walk


class NumberTooLarge(Exception):
    """A count that writes or works out a number beyond limits.NUMBER_LIMIT."""


class _Card:
    """A stand-in for a card in the pile of a dry run: its id and its definition."""

    __slots__ = ("id", "card")

    def __init__(self, card) -> None:
        self.id, self.card = card.id, card


class _Pile:
    __slots__ = ("cards",)

    def __init__(self, cards: list) -> None:
        self.cards = cards


class _Setup:
    """What a count may read: the rules, and the draw pile (as ``table.draw_pile``)."""

    __slots__ = ("rules", "table", "draw_pile", "budget")

    def __init__(self, rules: dict, pile: list) -> None:
        self.rules = rules
        self.draw_pile = _Pile(pile)
        self.table = self
        self.budget = STEP_BUDGET  # a count walking the pile is charged as an effect is


def _compiled(tree):
    """The compiled count, found by the tree's identity: a tree's hash walks all of its
    nodes, and a game deals with the same few trees every time (see _compile)."""
    found = _BY_ID.get(id(tree))
    if found is not None and found[0] is tree:
        return found[1]
    code = _compile(tree)
    _BY_ID[id(tree)] = (tree, code)  # the tree kept alive, so its id is not reused
    return code


@lru_cache(maxsize=None)
def _compile(tree):
    return compile_expression(tree, frozenset(), "a setup count")


#: id(tree) -> (tree, its compiled code)
_BY_ID: dict = {}


@lru_cache(maxsize=None)
def _reads_pile(tree) -> bool:
    """Whether a count names the draw pile."""
    return any(isinstance(node, Name) and node.id == "draw_pile" for node in walk(tree))


def evaluate(expr, names: dict, rules: dict, pile: list | None = None):
    """A pure, checked expression's value: ``names`` are its names (``players``,
    ``pile``), ``pile`` the cards of the draw pile (anything with ``id`` and
    ``card``). A number beyond the limit raises :class:`NumberTooLarge`."""
    ctx = Ctx(_Setup(rules, pile or []), 0)
    ctx.vars.update(names)
    try:
        return _compiled(expr).fn(ctx)
    except RuleRuntimeError as exc:
        raise NumberTooLarge(str(exc).split(": ", 1)[-1]) from None


def step_count(step, players: int, rules: dict, pile: Counter | None = None,
               cards: dict | None = None) -> int:
    """A step's count for ``players``; ``pile`` counts the draw pile's cards at that step
    (by id) and ``cards`` maps ids to cards, for counts that look at the pile."""
    if isinstance(step.count, int):
        return step.count
    if isinstance(step.count, tuple):  # (lo, hi, count) ranges by player count
        return next((n for lo, hi, n in step.count if lo <= players <= hi), 0)
    pile = pile if pile is not None else Counter()
    # stand-ins only for a count that looks at the pile, one shared by the copies of a card
    # (a count reads only ids and definitions; a big deck would make many of them)
    stand_ins = [inst for card_id, copies in pile.items() for inst in [_Card(cards[card_id])] * copies] \
        if cards and _reads_pile(step.count) else []
    return evaluate(step.count, {"players": players, "pile": sum(pile.values())}, rules, stand_ins)


def count_on(step, players: int, rules: dict, pile: list) -> int:
    """A step's count for ``players`` on a real draw pile (``pile``: its cards)."""
    if isinstance(step.count, int):
        return step.count
    if isinstance(step.count, tuple):
        return next((n for lo, hi, n in step.count if lo <= players <= hi), 0)
    return evaluate(step.count, {"players": players, "pile": len(pile)}, rules, pile)
