"""Setup counts: the pure expressions a setup step's count may be, worked out on card counts.

In a count, ``players`` and ``pile`` are numbers, ``draw_pile`` is a Counter of
card ids, and ``count``, ``find`` and ``tagged`` work on it. Both the
validator's dry run and the engine's deal use these, so they agree.
"""

from __future__ import annotations

from collections import Counter

from . import syntax as s
from .cost import NUMBER_LIMIT, shown, within_limit
from .operators import ARITHMETIC


class EvalError(Exception):
    pass


class NumberTooLarge(EvalError):
    """A count that writes or works out a number beyond cost.NUMBER_LIMIT."""


def _checked(value, what: str):
    if isinstance(value, int) and not within_limit(value):
        raise NumberTooLarge(f"{what} {shown(value)}, beyond the largest number a count may use "
                             f"({NUMBER_LIMIT:,} either way)")
    return value


def evaluate(expr, names: dict, rules: dict, cards: dict | None = None):
    """Evaluate a pure, checked expression (numbers, names, rules, min/max, logic).

    In setup counts, ``draw_pile`` is a Counter of card ids, and ``count``,
    ``find`` and ``tagged`` work on it (``cards``: id -> Card, for tags). A
    number beyond the limit (written, read from a rule, or worked out) raises
    :class:`NumberTooLarge`.
    """
    if isinstance(expr, (s.IntLit, s.BoolLit, s.StrLit)):
        return _checked(expr.value, "it writes the number")
    if isinstance(expr, s.Name):
        return names[expr.id]
    if isinstance(expr, s.RuleRef):
        return _checked(rules[expr.name], f"rules.{expr.name} is")
    if isinstance(expr, s.Sum):
        total = evaluate(expr.first, names, rules, cards)
        for op, term in zip(expr.ops, expr.terms):
            total = _checked(ARITHMETIC[op](total, evaluate(term, names, rules, cards)),
                             "the count works out to")
        return total
    if isinstance(expr, s.Compare):
        left, right = evaluate(expr.left, names, rules, cards), evaluate(expr.right, names, rules, cards)
        return {"==": left == right, "!=": left != right, "<": left < right, ">": left > right,
                "<=": left <= right, ">=": left >= right}[expr.op]
    if isinstance(expr, s.BoolOp):
        values = (evaluate(o, names, rules, cards) for o in expr.operands)
        return all(values) if expr.op == "and" else any(values)
    if isinstance(expr, s.Not):
        return not evaluate(expr.operand, names, rules, cards)
    if isinstance(expr, s.Call) and expr.name in _SETUP_CALLS:
        values = [evaluate(a, names, rules, cards) for a in expr.args]
        return _SETUP_CALLS[expr.name](values, cards or {})
    raise EvalError(f"cannot evaluate {type(expr).__name__} here")


#: the queries a setup count may use, on card counts (keywords: names may be card words)
_SETUP_CALLS = dict(
    min=lambda values, cards: min(values),
    max=lambda values, cards: max(values),
    count=lambda values, cards: sum(values[0].values()),
    find=lambda values, cards: Counter({values[1]: values[0][values[1]]}),
    tagged=lambda values, cards: Counter({card_id: n for card_id, n in values[0].items()
                                          if values[1] in cards[card_id].tags}),
)


def step_count(step, players: int, rules: dict, pile: Counter | None = None,
               cards: dict | None = None) -> int:
    """A step's count for ``players``; ``pile`` counts the draw pile's cards at that step
    (by id) and ``cards`` maps ids to cards, for counts that look at the pile."""
    if isinstance(step.count, int):
        return step.count
    if isinstance(step.count, tuple):  # (lo, hi, count) ranges by player count
        return next((n for lo, hi, n in step.count if lo <= players <= hi), 0)
    pile = pile if pile is not None else Counter()
    return evaluate(step.count, {"players": players, "pile": sum(pile.values()), "draw_pile": pile},
                    rules, cards)


