"""Compiling checked effect trees into Python closures, once per edition.

Each expression and statement becomes a :class:`Code`: a function of a
:class:`Ctx` and a flag saying whether it is a generator function. Only code
that may wait for a decision or a chance outcome is a generator; it yields a
``Decision`` or ``Chance`` and receives the answer. Everything else is a plain
call, so an effect without choices costs a few function calls and no
generator frames. The game loop never sees effect text or syntax trees.

The compiled code enforces the limits of cost.py: every number it writes or
works out stays within ``NUMBER_LIMIT``, and it charges its steps to the
running action's budget (``State.budget``, refilled before each action): an
effect's own weight when it starts, and a loop's body weight for each item, all
at once before the first. Going over either raises ``RuleRuntimeError`` naming
the card (or combo, check, turn step) and where it is defined.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..lang import primitives as P
from ..lang import syntax as s
from ..lang.operators import ARITHMETIC, COMPARE
from ..lang.cost import NUMBER_LIMIT, STEP_BUDGET, fail, shown, weight
from .runtime import RUNTIME
from .table import as_secret_as


class Ctx:
    """What a running effect sees: the game, the acting seat, ``this``, its names."""

    __slots__ = ("game", "table", "me", "this", "vars", "target", "source")

    def __init__(self, game, me: int, this=None, target=None) -> None:
        self.game = game
        self.table = game.table
        self.me = me
        self.this = this
        self.vars: dict = {}
        self.target = target  # the play a reaction answers
        self.source = None  # the id of the card or combo whose effect this is


@dataclass(frozen=True)
class Code:
    fn: object
    gen: bool


def run(code: Code, ctx: Ctx):
    """Run compiled code from inside a generator: ``yield from run(code, ctx)``."""
    if code.gen:
        return (yield from code.fn(ctx))
    return code.fn(ctx)


def compile_program(program: s.Program | None, zones: frozenset = frozenset(),
                    where: str | None = None) -> Code | None:
    """Compile an effect; ``where`` names it in errors (see cost.label)."""
    if program is None:
        return None
    return _Compiler(zones, where).program(program.body)


def compile_expression(expr, zones: frozenset = frozenset(), where: str | None = None) -> Code | None:
    if expr is None:
        return None
    return _Compiler(zones, where).expr(expr)


def _over_budget(where: str | None):
    fail(where, f"one action took more than {STEP_BUDGET:,} steps (loop iterations and primitive "
                "calls, with everything it set off); an effect must do less work: walk fewer cards, "
                "nest fewer loops, or let drawn cards draw less")


def _too_large(where: str | None, value: int, what: str = "a calculation gave"):
    fail(where, f"{what} {shown(value)}, beyond the largest number an effect may use "
                f"({NUMBER_LIMIT:,} either way)")


def _const(value):
    return lambda ctx: value


class _Compiler:
    def __init__(self, zones: frozenset, where: str | None = None) -> None:
        self.zones = zones  # names of the edition's extra zones
        self.where = where  # what the code belongs to, for errors

    # -- statements -----------------------------------------------------------
    def program(self, body) -> Code:
        """A whole effect: a block that first charges its weight to the action's budget
        (inline, not wrapped: effects run on every turn)."""
        codes = [self.stmt(stmt) for stmt in body]
        charge, where = weight(body), self.where
        if not any(c.gen for c in codes):
            fns = tuple(c.fn for c in codes)

            def run_program(ctx):
                state = ctx.game
                state.budget -= charge
                if state.budget < 0:
                    _over_budget(where)
                for fn in fns:
                    fn(ctx)
            return Code(run_program, False)
        steps = tuple((c.fn, c.gen) for c in codes)

        def run_program_gen(ctx):
            state = ctx.game
            state.budget -= charge
            if state.budget < 0:
                _over_budget(where)
            for fn, gen in steps:
                if gen:
                    yield from fn(ctx)
                else:
                    fn(ctx)
        return Code(run_program_gen, True)

    def block(self, body) -> Code:
        codes = [self.stmt(stmt) for stmt in body]
        if not any(c.gen for c in codes):
            fns = tuple(c.fn for c in codes)
            if len(fns) == 1:
                return Code(fns[0], False)

            def run_block(ctx):
                for fn in fns:
                    fn(ctx)
            return Code(run_block, False)
        steps = tuple((c.fn, c.gen) for c in codes)

        def run_block_gen(ctx):
            for fn, gen in steps:
                if gen:
                    yield from fn(ctx)
                else:
                    fn(ctx)
        return Code(run_block_gen, True)

    def stmt(self, stmt) -> Code:
        if isinstance(stmt, s.CallStmt):
            return self.call(stmt.call)
        if isinstance(stmt, s.Let):
            return self._let(stmt)
        if isinstance(stmt, s.If):
            return self._if(stmt)
        if isinstance(stmt, s.For):
            return self._for(stmt)
        raise TypeError(f"unexpected statement {stmt!r}")  # pragma: no cover

    def _let(self, stmt: s.Let) -> Code:
        name, value = stmt.name, self.expr(stmt.value)
        if not value.gen:
            fn = value.fn

            def let(ctx):
                ctx.vars[name] = fn(ctx)
            return Code(let, False)

        def let_gen(ctx):
            ctx.vars[name] = yield from value.fn(ctx)
        return Code(let_gen, True)

    def _if(self, stmt: s.If) -> Code:
        cond, then, other = self.expr(stmt.condition), self.block(stmt.then), self.block(stmt.otherwise)
        if not (cond.gen or then.gen or other.gen):
            c, t, o = cond.fn, then.fn, other.fn

            def if_(ctx):
                if c(ctx):
                    t(ctx)
                else:
                    o(ctx)
            return Code(if_, False)

        def if_gen(ctx):
            branch = then if (yield from run(cond, ctx)) else other
            yield from run(branch, ctx)
        return Code(if_gen, True)

    def _for(self, stmt: s.For) -> Code:
        name, iterable, body = stmt.name, self.expr(stmt.iterable), self.block(stmt.body)
        steps, where = weight(stmt.body), self.where

        def for_gen(ctx):
            items = _items((yield from run(iterable, ctx)))
            state = ctx.game  # the whole loop is charged before it starts: it walks a snapshot
            state.budget -= steps * len(items)
            if state.budget < 0:
                _over_budget(where)
            for item in items:
                ctx.vars[name] = item
                yield from run(body, ctx)
        if iterable.gen or body.gen:
            return Code(for_gen, True)
        it, fn = iterable.fn, body.fn

        def for_(ctx):
            items = _items(it(ctx))
            state = ctx.game
            state.budget -= steps * len(items)
            if state.budget < 0:
                _over_budget(where)
            for item in items:
                ctx.vars[name] = item
                fn(ctx)
        return Code(for_, False)

    # -- expressions ----------------------------------------------------------
    def expr(self, expr) -> Code:
        if isinstance(expr, s.IntLit) and not -NUMBER_LIMIT <= expr.value <= NUMBER_LIMIT:
            value, where = expr.value, self.where  # the checker refuses these; built by hand
            return Code(lambda ctx: _too_large(where, value, "it writes the number"), False)
        if isinstance(expr, (s.IntLit, s.StrLit, s.BoolLit)):
            return Code(_const(expr.value), False)
        if isinstance(expr, s.Name):
            return Code(self._name(expr.id), False)
        if isinstance(expr, s.RuleRef):
            return Code(self._rule(expr.name), False)
        if isinstance(expr, s.Call):
            return self.call(expr)
        if isinstance(expr, s.Sum):
            return self._sum(expr)
        if isinstance(expr, s.Compare):
            return self._compare(expr)
        if isinstance(expr, s.BoolOp):
            return self._boolop(expr)
        if isinstance(expr, s.Not):
            inner = self.expr(expr.operand)
            if inner.gen:
                def not_gen(ctx):
                    return not (yield from inner.fn(ctx))
                return Code(not_gen, True)
            fn = inner.fn
            return Code(lambda ctx: not fn(ctx), False)
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
            value = ctx.game.rules[key]
            if -NUMBER_LIMIT <= value <= NUMBER_LIMIT:
                return value
            _too_large(where, value, f"rules.{key} is")
        return rule

    def _sum(self, expr: s.Sum) -> Code:
        terms = [self.expr(expr.first)] + [self.expr(t) for t in expr.terms]
        ops = tuple(_ARITHMETIC[op] for op in expr.ops)
        where = self.where

        def total(values):  # a sum with a secret number in it is just as secret
            result = values[0]
            for op, value in zip(ops, values[1:]):
                result = op(result, value)
                if not -NUMBER_LIMIT <= result <= NUMBER_LIMIT:  # checked at each step: no huge numbers
                    _too_large(where, result)
            return as_secret_as(int(result), values)
        return self._combine(terms, total)

    def _compare(self, expr: s.Compare) -> Code:
        op = _COMPARE[expr.op]
        return self._combine([self.expr(expr.left), self.expr(expr.right)],
                             lambda values: op(values[0], values[1]))

    def _boolop(self, expr: s.BoolOp) -> Code:
        operands = [self.expr(o) for o in expr.operands]
        want_all = expr.op == "and"
        if not any(o.gen for o in operands):
            fns = tuple(o.fn for o in operands)
            if want_all:
                return Code(lambda ctx: all(f(ctx) for f in fns), False)
            return Code(lambda ctx: any(f(ctx) for f in fns), False)

        def boolop_gen(ctx):
            for operand in operands:  # short-circuit, like the plain version
                value = yield from run(operand, ctx)
                if bool(value) != want_all:
                    return value
            return want_all
        return Code(boolop_gen, True)

    def _combine(self, parts: list[Code], combine) -> Code:
        if not any(p.gen for p in parts):
            fns = tuple(p.fn for p in parts)
            return Code(lambda ctx: combine([f(ctx) for f in fns]), False)

        steps = tuple((p.fn, p.gen) for p in parts)

        def combined(ctx):
            values = []
            for fn, gen in steps:
                values.append((yield from fn(ctx)) if gen else fn(ctx))
            return combine(values)
        return Code(combined, True)

    # -- calls ----------------------------------------------------------------
    def call(self, call: s.Call) -> Code:
        prim = P.PRIMITIVES[call.name]
        impl, impl_gen = RUNTIME[call.name]
        given = dict(zip((p.name for p in prim.params), call.args))
        given.update((kw.name, kw.value) for kw in call.kwargs)
        args, maybe_missing = [], []
        for index, param in enumerate(prim.params):
            if param.name in given:
                args.append(self.expr(given[param.name]))
                if param.type in (P.PLAYER, P.ZONE) and _may_be_missing(given[param.name]):
                    maybe_missing.append(index)
            else:
                args.append(Code(_default(param.default), False))
        if maybe_missing:
            impl = _guard(impl, impl_gen, tuple(maybe_missing), _NEUTRAL.get(prim.returns))
        if not any(a.gen for a in args) and not impl_gen:
            fns = tuple(a.fn for a in args)
            if not fns:
                return Code(impl, False)
            if len(fns) == 1:
                (f0,) = fns
                return Code(lambda ctx: impl(ctx, f0(ctx)), False)
            if len(fns) == 2:
                f0, f1 = fns
                return Code(lambda ctx: impl(ctx, f0(ctx), f1(ctx)), False)
            return Code(lambda ctx: impl(ctx, *[f(ctx) for f in fns]), False)

        steps = tuple((a.fn, a.gen) for a in args)

        def call_gen(ctx):
            values = []
            for fn, gen in steps:  # plain arguments are called, not wrapped in generators
                values.append((yield from fn(ctx)) if gen else fn(ctx))
            if impl_gen:
                return (yield from impl(ctx, *values))
            return impl(ctx, *values)
        return Code(call_gen, True)


#: what a primitive gives when a player or zone it needs is missing (a choice
#: that had nothing to choose from): nothing happens, and queries find nothing
_NEUTRAL = {P.PLAYERS: [], P.CARDS: [], P.INT: 0, P.BOOL: False}


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


def _guard(impl, impl_gen: bool, indexes: tuple, neutral):
    """Wrap a primitive so that a missing player or zone makes it do nothing."""
    if impl_gen:
        def guarded_gen(ctx, *args):
            if any(args[i] is None for i in indexes):
                return neutral
            return (yield from impl(ctx, *args))
        return guarded_gen

    def guarded(ctx, *args):
        if any(args[i] is None for i in indexes):
            return neutral
        return impl(ctx, *args)
    return guarded


def _default(text: str):
    """A parameter's default, as primitives.py writes it, turned into a getter."""
    if text == "me":
        return lambda ctx: ctx.me
    if text in ("true", "false"):
        return _const(text == "true")
    return _const(int(text))


def _items(value) -> list:
    """What `for` walks through: a snapshot, so moving cards inside is safe."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, int):
        return [value]
    cards = getattr(value, "cards", None)
    if cards is not None:
        return list(cards)
    return [value]


_ARITHMETIC, _COMPARE = ARITHMETIC, COMPARE
