"""What the effect language's operators do, for every evaluator of expressions."""

from __future__ import annotations


def divide(a: int, b: int) -> int:
    """Whole-number division rounding down; dividing by zero gives 0 (documented)."""
    return a // b if b else 0


ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b,
              "*": lambda a, b: a * b, "/": divide}

def equal(a, b) -> bool:
    """``a == b`` as the language means it: besides equal values, a card equals a list
    holding just that card (``c == top(this)``: a card is acceptable where cards are)."""
    if a == b:
        return True
    if type(a) is list:
        return len(a) == 1 and type(b) is not list and a[0] is b and b is not None
    if type(b) is list:
        return len(b) == 1 and b[0] is a and a is not None
    return False


COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}

#: `==` and `!=` where a side may be a list of cards (the compiler knows which may)
CARD_COMPARE = {"==": equal, "!=": lambda a, b: not equal(a, b)}
