"""Compiling checked effect trees, once per edition: the one evaluator of the language.

Each expression and statement becomes a :class:`Code`. Code that can never
wait for a decision or a chance outcome becomes a plain closure (``fn``), so
an effect without choices costs a few function calls. Code that may wait
becomes a short tuple of operations (``ops``) that a
:class:`~.machine.ProgramFrame` runs and can stop and resume anywhere; only
the parts that wait are operations, the rest stay closures inside them. The
game loop never sees effect text or syntax trees. Setup counts, the engine's
effects and the validator's dry run all use this compiler.

The compiled code keeps the limits (limits.py): every number it writes or
works out stays within ``NUMBER_LIMIT``, and it charges its steps to the
running action's budget (the state's ``charge``): an effect's own weight when
it starts, a loop's (or an aggregate's) body weight for each item, all at once
before the first, and a step for each item a primitive walks (the cards
`tagged` looks through, those `move` moves, see primitives.ITEMS) before it
walks them, so that no step costs more than a bounded piece of work. Going
over either raises ``RuleRuntimeError`` naming the card (or combo, check, turn
step) and where it is defined.
"""

from __future__ import annotations

from . import primitives as P
from . import syntax as s
from .cost import weight
from .limits import NUMBER_LIMIT, fail, over_budget, shown
from .machine import (
    AND_JUMP,
    CALL,
    CALLF,
    CHARGE,
    COMBINE,
    EXEC,
    FOR,
    JUMP,
    JUMP_FALSE,
    NEXT,
    NOT,
    OR_JUMP,
    POP,
    PURE,
    STORE,
)
from .operators import ARITHMETIC, CARD_COMPARE, COMPARE
from .values import as_secret_as, items_of, moving_steps, seats_of, size_of

#: what Code.constant holds when the code is not a constant
_NO_CONSTANT = object()
#: what Code.constant holds for the acting player (`me`): read from the context
_ME = object()


class Code:
    """Compiled code: a closure of a context (``fn``), or operations that may wait (``ops``).
    ``constant`` is the value of a literal (or :data:`_ME` for `me`), so that a call can
    take it without calling a closure."""

    __slots__ = ("fn", "ops", "constant")

    def __init__(self, fn=None, ops: tuple | None = None, constant=_NO_CONSTANT) -> None:
        self.fn, self.ops, self.constant = fn, ops, constant

    @property
    def waits(self) -> bool:
        return self.ops is not None

    @property
    def steps(self) -> tuple:
        """The operations of code that waits (empty for a closure)."""
        return self.ops or ()


def compile_program(program: s.Program | None, zones: frozenset = frozenset(),
                    where: str | None = None) -> Code | None:
    """Compile an effect; ``where`` names it in errors (see limits.label); ``zones``
    are the names of the edition's shared extra zones."""
    if program is None:
        return None
    return _Compiler(zones, where).program(program.body)


def compile_expression(expr, zones: frozenset = frozenset(), where: str | None = None) -> Code | None:
    if expr is None:
        return None
    return _Compiler(zones, where).expression(expr)


def _too_large(where: str | None, value: int, what: str = "a calculation gave"):
    fail(where, f"{what} {shown(value)}, beyond the largest number an effect may use "
                f"({NUMBER_LIMIT:,} either way)")


def _const(value):
    return lambda ctx: value


class _Label:
    """A place in a list of operations, resolved to an index when the list is done."""

    __slots__ = ()


_MARK = "label"


def _assemble(items: list) -> tuple:
    """Operations with their labels resolved to indices."""
    places: dict = {}
    ops: list = []
    for item in items:
        if item[0] is _MARK:
            places[item[1]] = len(ops)
        else:
            ops.append(item)
    return tuple(tuple(places[x] if isinstance(x, _Label) else x for x in op) for op in ops)


class _Compiler:
    def __init__(self, zones: frozenset, where: str | None = None) -> None:
        self.zones = zones  # names of the edition's extra zones
        self.where = where  # what the code belongs to, for errors

    # -- entry points -----------------------------------------------------------------
    def program(self, body) -> Code:
        """A whole effect, which first charges its weight to the action's budget (inline,
        not wrapped: effects run on every turn)."""
        codes = [self.stmt(stmt) for stmt in body]
        charge, where = weight(body), self.where
        if not any(c.waits for c in codes):
            fns = tuple(c.fn for c in codes)

            def run_program(ctx):
                state = ctx.state
                state.budget -= charge
                if state.budget < 0:
                    over_budget(where)
                for fn in fns:
                    fn(ctx)
            return Code(run_program)
        items = [(CHARGE, charge, where)]
        for code in codes:
            items += _stmt_ops(code)
        return Code(ops=_assemble(items))

    def expression(self, expr) -> Code:
        code = self.expr(expr)
        return code if not code.waits else Code(ops=_assemble(list(code.steps)))

    # -- statements -------------------------------------------------------------------
    def block(self, body) -> Code:
        codes = [self.stmt(stmt) for stmt in body]
        if not any(c.waits for c in codes):
            fns = tuple(c.fn for c in codes)
            if len(fns) == 1:
                return codes[0]

            def run_block(ctx):
                for fn in fns:
                    fn(ctx)
            return Code(run_block)
        items = []
        for code in codes:
            items += _stmt_ops(code)
        return Code(ops=tuple(items))

    def stmt(self, stmt) -> Code:
        if isinstance(stmt, s.CallStmt):
            return self.call(stmt.call)
        if isinstance(stmt, (s.Let, s.Assign)):  # a name's first value and its later ones
            return self._let(stmt)
        if isinstance(stmt, s.If):
            return self._if(stmt)
        if isinstance(stmt, s.For):
            return self._for(stmt)
        raise TypeError(f"unexpected statement {stmt!r}")  # pragma: no cover

    def _let(self, stmt) -> Code:
        name, value = stmt.name, self.expr(stmt.value)
        if value.waits:
            return Code(ops=value.steps + ((STORE, name),))
        fn = value.fn

        def let(ctx):
            ctx.vars[name] = fn(ctx)
        return Code(let)

    def _if(self, stmt: s.If) -> Code:
        cond, then, other = self.expr(stmt.condition), self.block(stmt.then), self.block(stmt.otherwise)
        if not (cond.waits or then.waits or other.waits):
            c, t, o = cond.fn, then.fn, other.fn

            def if_(ctx):
                if c(ctx):
                    t(ctx)
                else:
                    o(ctx)
            return Code(if_)
        otherwise, end = _Label(), _Label()
        items = _expr_ops(cond) + [(JUMP_FALSE, otherwise)] + _stmt_ops(then) + [(JUMP, end), (_MARK, otherwise)]
        items += _stmt_ops(other) + [(_MARK, end)]
        return Code(ops=tuple(items))

    def _for(self, stmt: s.For) -> Code:
        name, iterable, body = stmt.name, self.expr(stmt.iterable), self.block(stmt.body)
        steps, where = weight(stmt.body), self.where
        if not (iterable.waits or body.waits):
            it, fn = iterable.fn, body.fn

            def for_(ctx):
                items = items_of(it(ctx))
                state = ctx.state  # the whole loop is charged before it starts: it walks a snapshot
                state.budget -= steps * len(items)
                if state.budget < 0:
                    over_budget(where)
                for item in items:
                    ctx.vars[name] = item
                    fn(ctx)
            return Code(for_)
        start, end = _Label(), _Label()
        items = _expr_ops(iterable) + [(FOR, name, end, steps, items_of, where), (_MARK, start)]
        items += _stmt_ops(body) + [(NEXT, start, name), (_MARK, end)]
        return Code(ops=tuple(items))

    # -- expressions ------------------------------------------------------------------
    def expr(self, expr) -> Code:
        if isinstance(expr, s.IntLit) and not -NUMBER_LIMIT <= expr.value <= NUMBER_LIMIT:
            value, where = expr.value, self.where  # the checker refuses these; built by hand
            return Code(lambda ctx: _too_large(where, value, "it writes the number"))
        if isinstance(expr, (s.IntLit, s.StrLit, s.BoolLit)):
            return Code(_const(expr.value), constant=expr.value)
        if isinstance(expr, s.Name):
            return Code(self._name(expr.id), constant=_ME if expr.id == "me" else _NO_CONSTANT)
        if isinstance(expr, s.RuleRef):
            return Code(self._rule(expr.name))
        if isinstance(expr, s.Call):
            return self.call(expr)
        if isinstance(expr, s.Sum):
            return self._sum(expr)
        if isinstance(expr, s.Compare):
            op = COMPARE[expr.op]
            if expr.op in CARD_COMPARE and (_may_be_list(expr.left) or _may_be_list(expr.right)):
                op = CARD_COMPARE[expr.op]  # a card equals a list of just that card
            left, right = self.expr(expr.left), self.expr(expr.right)
            if not (left.waits or right.waits) and _may_be_list(expr.left) and _may_be_list(expr.right):
                return Code(_list_compare(op, left.fn, right.fn, self.where))
            if not (left.waits or right.waits):  # the commonest test: two closures, no list
                f0, f1 = left.fn, right.fn
                if right.constant is not _NO_CONSTANT and right.constant is not _ME:
                    c1 = right.constant
                    return Code(lambda ctx: op(f0(ctx), c1))
                return Code(lambda ctx: op(f0(ctx), f1(ctx)))
            return self._combine([left, right], lambda values: op(values[0], values[1]))
        if isinstance(expr, s.BoolOp):
            return self._boolop(expr)
        if isinstance(expr, s.Aggregate):
            return self._aggregate(expr)
        if isinstance(expr, s.Not):
            inner = self.expr(expr.operand)
            if inner.waits:
                return Code(ops=inner.steps + ((NOT,),))
            fn = inner.fn
            return Code(lambda ctx: not fn(ctx))
        raise TypeError(f"unexpected expression {expr!r}")  # pragma: no cover

    def _name(self, name: str):
        if name == "me":
            return lambda ctx: ctx.me
        if name == "this":
            return lambda ctx: ctx.this
        if name in ("draw_pile", "discard_pile", "removed"):
            return lambda ctx: getattr(ctx.table, name)
        if name in self.zones:
            return lambda ctx: ctx.table.extra[name]
        return lambda ctx: ctx.vars[name]

    def _rule(self, key: str):
        where = self.where

        def rule(ctx):  # an edition's parameter may be any whole number
            value = ctx.state.rules[key]
            if -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
                return value
            _too_large(where, value, f"rules.{key} is")
        return rule

    def _aggregate(self, expr: s.Aggregate) -> Code:
        """An aggregate: a closure (the checker lets only queries in), which charges its
        value's and condition's weight for every item it walks, all at once first."""
        parts = (expr.value,) if expr.condition is None else (expr.value, expr.condition)
        codes = [self.expr(part) for part in (expr.iterable, *parts)]
        if any(code.waits for code in codes):  # pragma: no cover - the checker refuses these
            raise TypeError("an aggregate may use queries only")
        walk, value = codes[0].fn, codes[1].fn
        keep = codes[2].fn if len(codes) > 2 else None
        reduce, name, where = _REDUCE[expr.op], expr.name, self.where
        steps = weight(parts) - 1  # the calls made for each item (a `for` body's own step aside)
        wants_values = expr.op not in ("count", "filter")

        def aggregate(ctx):
            items = items_of(walk(ctx))
            state = ctx.state
            state.budget -= (steps + 1) * len(items)
            if state.budget < 0:
                over_budget(where)
            names = ctx.vars
            before = names.get(name, _NO_CONSTANT)
            kept, values = [], []
            for item in items:
                names[name] = item
                if keep is None or keep(ctx):
                    kept.append(item)
                    if wants_values:
                        values.append(value(ctx))
            if before is _NO_CONSTANT:
                names.pop(name, None)
            else:
                names[name] = before
            return reduce(kept, values, where)
        return Code(aggregate)

    def _sum(self, expr: s.Sum) -> Code:
        terms = [self.expr(expr.first)] + [self.expr(t) for t in expr.terms]
        ops = tuple(ARITHMETIC[op] for op in expr.ops)
        where = self.where

        def total(values):  # a sum with a secret number in it is just as secret
            result = values[0]
            for op, value in zip(ops, values[1:]):
                result = op(result, value)
                if not -NUMBER_LIMIT <= result <= NUMBER_LIMIT:  # checked at each step: no huge numbers
                    _too_large(where, result)
            return as_secret_as(int(result), values)
        return self._combine(terms, total)

    def _boolop(self, expr: s.BoolOp) -> Code:
        operands = [self.expr(o) for o in expr.operands]
        want_all = expr.op == "and"
        if not any(o.waits for o in operands):
            fns = tuple(o.fn for o in operands)
            if want_all:
                return Code(lambda ctx: all(f(ctx) for f in fns))
            return Code(lambda ctx: any(f(ctx) for f in fns))
        end, jump = _Label(), (AND_JUMP if want_all else OR_JUMP)
        items = []
        for index, operand in enumerate(operands):  # short-circuit, like the plain version
            items += _expr_ops(operand)
            if index < len(operands) - 1:
                items.append((jump, end))
        items += [(_MARK, end), (COMBINE, _truth, 1)]
        return Code(ops=tuple(items))

    def _combine(self, parts: list[Code], combine) -> Code:
        if not any(p.waits for p in parts):
            fns = tuple(p.fn for p in parts)
            return Code(lambda ctx: combine([f(ctx) for f in fns]))
        items = []
        for part in parts:
            items += _expr_ops(part)
        return Code(ops=tuple(items) + ((COMBINE, combine, len(parts)),))

    # -- calls ------------------------------------------------------------------------
    def call(self, call: s.Call) -> Code:
        prim = P.PRIMITIVES[call.name]
        impl = prim.impl
        given = dict(zip((p.name for p in prim.params), call.args))
        given.update((kw.name, kw.value) for kw in call.kwargs)
        args, maybe_missing = [], []
        for index, param in enumerate(prim.params):
            if param.name in given:
                args.append(self.expr(given[param.name]))
                if param.type in (P.PLAYER, P.ZONE) and _may_be_missing(given[param.name]):
                    maybe_missing.append(index)
            else:
                args.append(_default(param.default))
        if prim.walks:
            impl = _walking(impl, prim, self.where)
        if maybe_missing:
            impl = _guard(impl, tuple(maybe_missing), _NEUTRAL.get(prim.returns))
        if not prim.waits and not any(a.waits for a in args):
            return Code(_call(impl, args))
        if not any(a.waits for a in args):  # one operation: the call with its arguments, one closure
            return Code(ops=((CALLF, _call(impl, args), prim.waits, True),))
        items = []
        for arg in args:  # plain arguments stay closures inside the operations
            items += _expr_ops(arg)
        return Code(ops=tuple(items) + ((CALL, impl, len(args), prim.waits),))


def _total(kept, values, where):
    result = 0
    for value in values:
        result += value
        if not -NUMBER_LIMIT <= result <= NUMBER_LIMIT:
            _too_large(where, result)
    return as_secret_as(int(result), values)


def _best(pick):
    def best(kept, values, where):
        return as_secret_as(pick(values), values) if values else 0
    return best


def _extremes(pick):
    """The items whose value is the largest (or smallest), in the order walked."""
    def extremes(kept, values, where):
        if not values:
            return []
        target = pick(values)
        return [item for item, value in zip(kept, values) if value == target]
    return extremes


#: how each aggregate turns the items its `if` kept (and their values) into its result
_REDUCE = {
    "sum": _total,
    "max": _best(max),
    "min": _best(min),
    "count": lambda kept, values, where: len(kept),
    "any": lambda kept, values, where: any(values),
    "all": lambda kept, values, where: all(values),
    "most": _extremes(max),
    "least": _extremes(min),
    "filter": lambda kept, values, where: kept,
}


def _truth(values):
    return bool(values[0])


def _expr_ops(code: Code) -> list:
    """Operations that leave an expression's value on the stack."""
    return [(PURE, code.fn)] if not code.waits else list(code.steps)


def _stmt_ops(code: Code) -> list:
    """Operations that run a statement and leave nothing on the stack."""
    if not code.waits:
        return [(EXEC, code.fn)]
    ops = list(code.steps)
    if ops and ops[-1][0] is CALLF:  # a call used as a statement: its value is dropped
        ops[-1] = ops[-1][:3] + (False,)
    elif ops and ops[-1][0] is CALL:
        ops.append((POP,))
    return ops


#: what a primitive gives when a player or zone it needs is missing (a choice
#: that had nothing to choose from): nothing happens, and queries find nothing
_NEUTRAL: dict[str | None, object] = {P.PLAYERS: [], P.CARDS: [], P.INT: 0, P.BOOL: False}


def _may_be_missing(node) -> bool:
    """Whether an argument can be None: a local name, a choice or chance call, or a query
    that gives a player or a zone and may be given none (`hand(choose_player(...))`)."""
    if isinstance(node, s.Name):
        return node.id not in P.BUILTIN_NAMES and node.id != "this"
    if isinstance(node, s.Call):
        prim = P.PRIMITIVES[node.name]
        if prim.kind in (P.CHOICE, P.CHANCE) or node.name in P.MAY_GIVE_NOTHING:
            return True
        if prim.returns in _NEUTRAL:  # guarded, it gives its neutral value, never None
            return False
        given = dict(zip((p.name for p in prim.params), node.args))
        given.update((kw.name, kw.value) for kw in node.kwargs)
        return any(param.type in (P.PLAYER, P.ZONE) and param.name in given
                   and _may_be_missing(given[param.name]) for param in prim.params)
    return False


def _walking(impl, prim: P.Primitive, where: str | None):
    """Wrap a primitive that walks lists so that a call first charges a step per item it
    walks (a call that gives its items, such as `top`, charges them as it gives them).
    The commonest shapes get a wrapper of their own arity (effects run on every turn)."""
    names = [param.name for param in prim.params]
    walks = tuple((names.index(name) if name is not None else -1, kind) for name, kind in prim.walks)
    if walks[0][1] == P.GIVES:
        return _giving(impl, len(names), where)
    if walks == ((0, P.ITEMS),) and len(names) <= 2:  # the first argument's items
        if len(names) == 1:
            def walking_one(ctx, a):
                state = ctx.state
                state.budget -= size_of(a)
                if state.budget < 0:
                    over_budget(where)
                return impl(ctx, a)
            return walking_one

        def walking_two(ctx, a, b):
            state = ctx.state
            state.budget -= size_of(a)
            if state.budget < 0:
                over_budget(where)
            return impl(ctx, a, b)
        return walking_two

    def walking_all(ctx, *args):
        steps = 0
        for index, kind in walks:
            steps += size_of(args[index]) if kind == P.ITEMS else _hand_cards(ctx, args[index]) \
                if kind == P.HANDS else moving_steps(args[index], kind == P.MOVES)
        state = ctx.state
        state.budget -= steps
        if state.budget < 0:
            over_budget(where)
        return impl(ctx, *args)
    return walking_all


def _giving(impl, arity: int, where: str | None):
    """``impl`` charging a step per item it gives."""
    def charged(ctx, found):
        state = ctx.state
        state.budget -= len(found)
        if state.budget < 0:
            over_budget(where)
        return found
    if arity == 2:
        return lambda ctx, a, b: charged(ctx, impl(ctx, a, b))
    return lambda ctx, *args: charged(ctx, impl(ctx, *args))


def _hand_cards(ctx, players) -> int:
    """How many cards the hands of ``players`` hold together."""
    hands = ctx.table.hands
    return sum(len(hands[seat].cards) for seat in seats_of(players))


def _may_be_list(node) -> bool:
    """Whether an operand of a comparison can be a list (two lists compare item by item)."""
    if isinstance(node, s.Name):
        return node.id not in P.BUILTIN_NAMES
    if isinstance(node, s.Call):
        return P.PRIMITIVES[node.name].returns in (P.CARDS, P.PLAYERS)
    return isinstance(node, s.Aggregate) and node.op in ("filter", "most", "least")


def _list_compare(op, f0, f1, where: str | None):
    """A comparison whose sides may be lists: comparing two lists walks the shorter one,
    a step an item."""
    def compare(ctx):
        a, b = f0(ctx), f1(ctx)
        if type(a) is list and type(b) is list:
            state = ctx.state
            state.budget -= min(len(a), len(b))
            if state.budget < 0:
                over_budget(where)
        return op(a, b)
    return compare


def _guard(impl, indexes: tuple, neutral):
    """Wrap a primitive so that a missing player or zone makes it do nothing."""
    def guarded(ctx, *args):
        for i in indexes:
            if args[i] is None:
                return neutral
        return impl(ctx, *args)
    return guarded


def _default(text: str) -> Code:
    """A parameter's default, as primitives.py writes it, as code."""
    if text == "me":
        return Code(lambda ctx: ctx.me, constant=_ME)
    if text == P.ANYONE or text == P.OWN_TITLE:  # a filter or title left out: none
        return Code(_const(None), constant=None)
    value = text == "true" if text in ("true", "false") else int(text)
    return Code(_const(value), constant=value)


def _call(impl, args: list):
    """A call of a primitive that never waits, its arguments closures: literals and `me`
    are passed as they are rather than through a closure (effects run on every turn)."""
    constant = [arg.constant for arg in args]
    if not args:
        return impl
    if len(args) == 1:
        if constant[0] is _ME:
            return lambda ctx: impl(ctx, ctx.me)
        if constant[0] is not _NO_CONSTANT:
            c0 = constant[0]
            return lambda ctx: impl(ctx, c0)
        f0 = args[0].fn
        return lambda ctx: impl(ctx, f0(ctx))
    if len(args) == 2:
        f0, f1 = args[0].fn, args[1].fn
        if constant[1] is _ME:
            return lambda ctx: impl(ctx, f0(ctx), ctx.me)
        if constant[1] is not _NO_CONSTANT:
            c1 = constant[1]
            if constant[0] is not _NO_CONSTANT and constant[0] is not _ME:
                c0 = constant[0]
                return lambda ctx: impl(ctx, c0, c1)
            return lambda ctx: impl(ctx, f0(ctx), c1)
        return lambda ctx: impl(ctx, f0(ctx), f1(ctx))
    fns = tuple(arg.fn for arg in args)
    return lambda ctx: impl(ctx, *[f(ctx) for f in fns])
