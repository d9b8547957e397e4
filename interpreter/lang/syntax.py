"""The effect language's syntax tree: frozen nodes that know where they came from.

``pos`` is the 0-based character offset of a node inside its effect text; the
compiler maps it to a line and column of the rule file. Nodes are immutable,
so a compiled edition can share them between games without copying.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Node:
    pos: int


# -- expressions --------------------------------------------------------------
@dataclass(frozen=True)
class IntLit(Node):
    value: int


@dataclass(frozen=True)
class StrLit(Node):
    value: str


@dataclass(frozen=True)
class BoolLit(Node):
    value: bool


@dataclass(frozen=True)
class Name(Node):
    """A local (`let`, `for`, a card's `choose` name) or a builtin such as ``me``."""

    id: str


@dataclass(frozen=True)
class RuleRef(Node):
    """``rules.NAME``: an engine rule or an edition parameter."""

    name: str
    name_pos: int


@dataclass(frozen=True)
class Keyword(Node):
    name: str
    value: "Expr"


@dataclass(frozen=True)
class Call(Node):
    """A primitive call; ``name_pos`` is where its name starts."""

    name: str
    args: tuple
    kwargs: tuple  # of Keyword


@dataclass(frozen=True)
class Sum(Node):
    """``first op term op term ...``, kept flat so long sums do not nest.

    Products use the same node with ``*`` and ``/`` (the grammar gives them their
    own level, so one node never mixes the two kinds of operator)."""

    first: "Expr"
    ops: tuple  # of "+" / "-", or of "*" / "/"
    terms: tuple  # of Expr, one per op


@dataclass(frozen=True)
class Compare(Node):
    op: str
    left: "Expr"
    right: "Expr"


@dataclass(frozen=True)
class BoolOp(Node):
    op: str  # "and" or "or"
    operands: tuple


@dataclass(frozen=True)
class Not(Node):
    operand: "Expr"


@dataclass(frozen=True)
class Aggregate(Node):
    """``op(value for name in iterable if condition)``: a number, a truth or the best
    items of a finite list (see checker.AGGREGATES); ``condition`` None keeps every item."""

    op: str
    name: str
    name_pos: int
    value: "Expr"
    iterable: "Expr"
    condition: "Expr | None"


Expr = IntLit | StrLit | BoolLit | Name | RuleRef | Call | Sum | Compare | BoolOp | Not | Aggregate


# -- statements ---------------------------------------------------------------
@dataclass(frozen=True)
class Let(Node):
    name: str
    name_pos: int
    value: Expr


@dataclass(frozen=True)
class Assign(Node):
    """``name = value``: a new value for a name a `let` (or a card's `choose`) made."""

    name: str
    value: Expr


@dataclass(frozen=True)
class If(Node):
    condition: Expr
    then: tuple
    otherwise: tuple


@dataclass(frozen=True)
class For(Node):
    name: str
    name_pos: int
    iterable: Expr
    body: tuple


@dataclass(frozen=True)
class CallStmt(Node):
    call: Call


Stmt = Let | Assign | If | For | CallStmt


@dataclass(frozen=True)
class Program(Node):
    body: tuple


def walk(node):
    """Every node of a tree (or of a tuple of trees), parents before children."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(reversed(item))
        elif isinstance(item, Node):
            yield item
            stack.extend(getattr(item, f) for f in reversed(item.__dataclass_fields__) if f != "pos")
