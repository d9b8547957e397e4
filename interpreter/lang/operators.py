"""What the effect language's operators do, for every evaluator of expressions."""

from __future__ import annotations


def divide(a: int, b: int) -> int:
    """Whole-number division rounding down; dividing by zero gives 0 (documented)."""
    return a // b if b else 0


ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b,
              "*": lambda a, b: a * b, "/": divide}

COMPARE = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b, ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}
