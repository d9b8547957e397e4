"""What an effect may cost: the engine's two limits, and static estimates of both.

A rule file that checks clean must still not hang a game or fill the memory,
so play is bounded in two ways (evaluator.py and setup.py enforce them; going
over either stops the game with a ``RuleRuntimeError`` that names the card and
its file and line):

* numbers: every number an effect or a setup count writes or works out lies
  within plus or minus :data:`NUMBER_LIMIT`;
* work: one action of a player (a play or a draw, with everything it sets off:
  answers, drawn cards' effects, state checks) may take at most
  :data:`STEP_BUDGET` steps. Running an effect costs its :func:`weight`, and a
  ``for`` loop costs its body's weight once per card or player it walks.

The validator warns where it can see a limit being reached (:class:`Estimate`):
an abstract run of the effect with the largest value each part can take
(literals, ``rules.NAME`` values, ``count()`` up to the deck size) and with
every zone as full as the whole deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import primitives as P
from . import syntax as s
from .limits import MAY_OVERFLOW, NUMBER_LIMIT, STEP_BUDGET, TOO_MUCH_WORK, shown, within_limit


def weight(body) -> int:
    """Steps one run of a block costs: one, plus one per primitive call in it.

    Calls inside the body of a ``for`` within the block are not counted: that
    loop charges its own body for every item it walks; so does an aggregate.
    """
    steps = 1
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            stack.extend(node)
        elif isinstance(node, (s.For, s.Aggregate)):  # their bodies charge per item
            stack.append(node.iterable)
        elif isinstance(node, s.Node):
            if isinstance(node, s.Call):
                steps += 1
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "pos")
    return steps


@dataclass(frozen=True)
class Limits:
    """What bounds the values of one edition (every view and player count of it)."""

    cards: int  # the most cards a game can hold: no zone holds more
    players: int  # the most players
    values: dict = field(default_factory=dict)  # rule or parameter name -> its largest magnitude
    copies: dict = field(default_factory=dict)  # card id -> the most copies of it in a game


def edition_limits(data: dict, card_params: dict | None = None) -> Limits:
    """Limits from an edition's resolved rule data (base and variants)."""
    per_card: dict = {}
    views = [data, *data.get("variants", {}).values()]
    for view in views:
        for card_id, count in view.get("deck", {}).items():
            per_card[card_id] = max(per_card.get(card_id, 0), _most_copies(count))
    values: dict = {}
    named = [{name: value for name, (value, _origin) in (card_params or {}).items()}]
    named += [view.get(key, {}) for view in views for key in ("params", "rules")]
    for group in named:
        for name, value in group.items():
            if isinstance(value, int):
                values[name] = max(values.get(name, 0), abs(int(value)))
    return Limits(cards=sum(per_card.values()), players=data.get("players", {}).get("max", 20),
                  values=values, copies=per_card)


def value_findings(edition) -> list[tuple]:
    """(origin, message) for each rule or parameter of an edition or its variants whose
    value is beyond the limit: an effect or setup count that reads it stops the game."""
    found: dict = {}
    for view in [edition, *edition.variants.values()]:
        for group, values in (("params", view.params), ("rules", view.rules)):
            for name, value in values.items():
                if isinstance(value, int) and not within_limit(value):
                    where = view.origins.get(f"{group}.{name}") or view.origin
                    found.setdefault((where.path, where.line, where.column), (where, (
                        f"rules.{name} is {shown(value)}, beyond the largest number an effect may use "
                        f"({NUMBER_LIMIT:,} either way): the game stops with an error when an "
                        "effect or a setup count reads it; set it lower")))
    return list(found.values())


def _most_copies(count) -> int:
    """The most copies a deck entry can give: a number, ranges by player count, or marks."""
    if isinstance(count, int):
        return count
    if isinstance(count, dict):
        numbers = [n for n in count.values() if isinstance(n, int)]
        by_players = all(str(key)[:1].isdigit() for key in count)
        return (max(numbers, default=0) if by_players else sum(numbers))
    return 0


class Estimate:
    """An abstract run of one effect: the largest magnitude of every number it works
    out, and the most steps it can take. ``findings`` holds (offset, code, message).

    Steps are counted as play charges them (compiler.py): an effect's weight, each
    loop's and aggregate's body once per item, and each item a primitive walks
    (primitives.ITEMS), a zone holding at most every card of the deck.

    ``limits`` None (a card library checked on its own) leaves out what depends on
    the edition: counts, ``rules.NAME`` values and the work of loops.
    """

    def __init__(self, limits: Limits | None, names: dict) -> None:
        self.limits = limits
        self.scopes: list[dict] = [{name: (type_, None) for name, type_ in names.items()}]
        self.findings: list[tuple] = []
        # (offset, steps, what) of the outermost loops, aggregates and calls over the budget
        self._costly: list[tuple] = []
        self._depth = 0  # how many loops and aggregates enclose the part being looked at
        self._work = [0]  # the steps counted so far: one total per loop or aggregate looked into
        self.steps: int | None = None  # after program(): the most steps it can take, if known

    # -- entry points ---------------------------------------------------------
    def program(self, program: s.Program) -> list[tuple]:
        self._block(program.body)
        return self._finish(program.pos, weight(program.body) + self._work[0], "this effect")

    def expression(self, expr) -> list[tuple]:
        """A condition, a score, a name's value: what it works out and the steps it walks."""
        self._bound(expr)
        return self._finish(expr.pos, self._work[0], "this expression")

    def _finish(self, pos: int, total: int, what: str) -> list[tuple]:
        self.steps = total if self.limits is not None else None
        # a loop costs at least as much as anything inside it: the outermost ones say it all
        for where, steps, part in self._costly:
            self._work_finding(where, steps, part)
        if not self._costly and total > STEP_BUDGET and self.limits is not None:
            self._work_finding(pos, total, what)
        return self.findings

    # -- work -----------------------------------------------------------------
    def _block(self, body) -> None:
        """Count the steps of a block's loops, aggregates and walks (its weight aside)."""
        self.scopes.append({})
        for stmt in body:
            if isinstance(stmt, s.Let):
                self._bind(stmt.name, self._type(stmt.value), self._bound(stmt.value))
            elif isinstance(stmt, s.Assign):  # a loop may add to it each time: no bound is known
                self._bound(stmt.value)
                self._forget(stmt.name)
            elif isinstance(stmt, s.CallStmt):
                self._bound(stmt.call)
            elif isinstance(stmt, s.If):
                self._bound(stmt.condition)
                self._work[-1] += max(self._inside(self._block, stmt.then),
                                      self._inside(self._block, stmt.otherwise))
            elif isinstance(stmt, s.For):
                self._for(stmt)
        self.scopes.pop()

    def _inside(self, look, *parts) -> int:
        """The steps ``look(*parts)`` counts, kept apart from the rest."""
        self._work.append(0)
        look(*parts)
        return self._work.pop()

    def _for(self, stmt: s.For) -> None:
        self._bound(stmt.iterable)
        self.scopes.append({stmt.name: (self._element(stmt.iterable), None)})
        self._depth += 1
        inner = self._inside(self._block, stmt.body) + weight(stmt.body)
        self._depth -= 1
        self.scopes.pop()
        self._cost(stmt.pos, self._size(stmt.iterable) * inner, "this loop")

    def _cost(self, pos: int, steps: int, what: str) -> None:
        """Count the steps of a part; note it when it alone outgrows the budget."""
        if self.limits is None:
            return
        self._work[-1] += steps
        if steps > STEP_BUDGET and self._depth == 0:
            self._costly.append((pos, steps, what))

    def _walks(self, node: s.Call) -> None:
        """Count the items a call walks (primitives.ITEMS), as play charges them."""
        prim = P.PRIMITIVES.get(node.name)
        if prim is None or not prim.walks or self.limits is None:
            return
        given = dict(zip((param.name for param in prim.params), node.args))
        given.update((kw.name, kw.value) for kw in node.kwargs)
        steps = 0
        for name, kind in prim.walks:
            if kind == P.GIVES:
                steps += self._size(node)
            elif name in given:
                steps += self.limits.cards if kind == P.HANDS else self._size(given[name]) \
                    if kind == P.ITEMS else self._moving(given[name], kind == P.MOVES)
        self._cost(node.pos, steps, "this call")

    def _moving(self, node, at_once: bool) -> int:
        """The most steps moving ``node``'s cards takes (values.moving_steps)."""
        size, limits = self._size(node), self.limits
        assert limits is not None  # (asked only where the edition is known)
        if self._type(node) == P.ZONE:  # a whole zone, maybe a hand: walked once, or once a card
            return 2 * size if at_once else size * (1 + size)
        return size * (1 + limits.cards)  # each card may leave a hand holding every card

    def _size(self, node) -> int:
        """The most items a value can hold (a zone: every card of the deck; nothing is
        known without the edition)."""
        limits = self.limits
        if limits is None:
            return 0
        kind = self._type(node)
        if kind in (P.CARD, P.PLAYER):
            return 1
        if kind == P.PLAYERS:
            return limits.players
        if isinstance(node, s.Aggregate):  # filter, most, least: some items of the list
            return self._size(node.iterable)
        if isinstance(node, s.Call) and node.args and node.name in _PICKS:
            whole = self._size(node.args[0])
            if node.name == P.NAMES.find and len(node.args) > 1 and isinstance(node.args[1], s.StrLit):
                return min(whole, limits.copies.get(node.args[1].value, whole))  # copies of one card
            if node.name not in (P.NAMES.top, P.NAMES.bottom):
                return whole
            count = node.args[1] if len(node.args) > 1 else \
                next((kw.value for kw in node.kwargs if kw.name == "n"), s.IntLit(0, 1))
            return max(min(whole, count.value), 0) if isinstance(count, s.IntLit) else whole
        return limits.cards if kind in (P.CARDS, P.ZONE) else 1

    def _element(self, node) -> str:
        """The type of what walking ``node`` gives, one item at a time."""
        return P.PLAYER if self._type(node) in (P.PLAYERS, P.PLAYER) else P.CARD

    def _work_finding(self, pos: int, steps: int, what: str) -> None:
        limits = self.limits
        assert limits is not None  # work is only worked out where the edition's sizes are known
        self.findings.append((pos, TOO_MUCH_WORK, (
            f"{what} can take up to {shown(steps)} steps when a zone holds all "
            f"{limits.cards} cards of the deck ({limits.players} players at most), but one action may "
            f"take only {STEP_BUDGET:,}: the game would stop with an error; nest fewer loops or walk "
            "fewer cards (`top(zone, n)`)")))

    # -- numbers --------------------------------------------------------------
    def _bound(self, node) -> int | None:
        """The largest magnitude ``node`` can have (None: unknown, or not a number);
        looks at every expression inside it."""
        if isinstance(node, s.IntLit):
            return abs(node.value)
        if isinstance(node, s.BoolLit):
            return 1
        if isinstance(node, s.Name):
            found = self._lookup(node.id)
            return found[1] if found else None
        if isinstance(node, s.RuleRef):
            return self._rule(node)
        if isinstance(node, s.Sum):
            return self._sum(node)
        if isinstance(node, s.Call):
            return self._call(node)
        if isinstance(node, s.Aggregate):
            return self._aggregate(node)
        for child in {s.Compare: ("left", "right"), s.BoolOp: ("operands",),
                      s.Not: ("operand",)}.get(type(node), ()):
            value = getattr(node, child)
            for part in value if isinstance(value, tuple) else (value,):
                self._bound(part)
        if isinstance(node, s.Compare) and \
                self._type(node.left) in _LISTS and self._type(node.right) in _LISTS:
            # two lists compare item by item, as far as the shorter goes (compiler.py)
            self._cost(node.pos, min(self._size(node.left), self._size(node.right)), "this comparison")
        return 1 if isinstance(node, (s.Compare, s.BoolOp, s.Not)) else None

    def _aggregate(self, node: s.Aggregate) -> int | None:
        """An aggregate's bound: a sum adds up to one value per item; the others give one.
        Its work: its value's and condition's weight and walks, once per item."""
        self._bound(node.iterable)
        self.scopes.append({node.name: (self._element(node.iterable), None)})
        self._depth += 1
        self._work.append(0)
        parts = (node.value,) if node.condition is None else (node.value, node.condition)
        value = self._bound(node.value)
        if node.condition is not None:
            self._bound(node.condition)
        inner = self._work.pop()
        self._depth -= 1
        self.scopes.pop()
        self._cost(node.pos, self._size(node.iterable) * (weight(parts) + inner), "this aggregate")
        if node.op in ("any", "all"):
            return 1
        if self.limits is None:
            return None
        items = self._size(node.iterable)
        if node.op == "count":
            return items
        if node.op == "sum":
            return None if value is None else items * value
        return value if node.op in ("max", "min") else None

    def _rule(self, node: s.RuleRef) -> int | None:
        if self.limits is None:
            return None
        value = self.limits.values.get(node.name)
        # a value beyond the limit is reported where it is set (see value_findings)
        return value if value is not None and value <= NUMBER_LIMIT else None

    def _sum(self, node: s.Sum) -> int | None:
        total = self._bound(node.first)
        values = [self._bound(term) for term in node.terms]  # every term is looked into
        for op, value in zip(node.ops, values):
            if op == "/":  # whole-number division never makes a number larger
                continue
            if total is None or value is None:
                return None
            total = total * value if op == "*" else total + value
            if total > NUMBER_LIMIT:
                self.findings.append((node.pos, MAY_OVERFLOW, (
                    f"this can work out to {shown(total)}, beyond the largest number an effect may "
                    f"use ({NUMBER_LIMIT:,}): the game would stop with an error here")))
                return None  # reported once: what is worked out from it is not reported again
        return total

    def _call(self, node: s.Call) -> int | None:
        values = [self._bound(arg) for arg in node.args]
        values += [self._bound(kw.value) for kw in node.kwargs]
        self._walks(node)
        limits = self.limits
        if node.name in (P.NAMES.min, P.NAMES.max):
            known = [value for value in values if value is not None]
            return None if len(values) != 2 or len(known) != 2 else max(known)
        if limits is None:
            return None
        if node.name == P.NAMES.count:
            return limits.players if node.args and self._type(node.args[0]) == P.PLAYERS else limits.cards
        if node.name == P.NAMES.choose_position:
            return limits.cards
        return None

    # -- names and types ------------------------------------------------------
    def _bind(self, name: str, type_, bound) -> None:
        self.scopes[-1][name] = (type_, bound)

    def _forget(self, name: str) -> None:
        """A name given a new value: keep its type, drop its bound."""
        for scope in reversed(self.scopes):
            if name in scope:
                scope[name] = (scope[name][0], None)
                return

    def _lookup(self, name: str):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def _type(self, node) -> str | None:
        if isinstance(node, s.Call):
            prim = P.PRIMITIVES.get(node.name)
            return prim.returns if prim is not None else None
        if isinstance(node, s.Name):
            found = self._lookup(node.id)
            return found[0] if found else None
        if isinstance(node, (s.IntLit, s.Sum)):
            return P.INT
        if isinstance(node, s.Aggregate):
            if node.op in ("filter", "most", "least"):
                return P.PLAYERS if self._element(node.iterable) == P.PLAYER else P.CARDS
            return P.BOOL if node.op in ("any", "all") else P.INT
        return None


#: the types whose values are lists (two of them compare item by item)
_LISTS = (P.CARDS, P.PLAYERS)
#: queries that give some of the cards of their first argument (`top`, `bottom`: at most n)
_PICKS = frozenset({P.NAMES.top, P.NAMES.bottom, P.NAMES.find, P.NAMES.tagged, P.NAMES.in_zone,
                    P.NAMES.without, P.NAMES.playable_as})
