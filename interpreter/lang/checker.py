"""Static checks of effect programs against the primitive table.

The checker runs once, when a rule file loads. It resolves every name, checks
every call's arity and argument types, checks card ids and tags named in
string literals against the loaded cards, and keeps choices and chance out of
places that must be pure (``requires``, setup counts). Findings carry the
character offset inside the effect text; the compiler turns that into a file
position.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from . import primitives as P
from . import syntax as s
from .cost import Estimate, Limits
from .diagnostics import ERROR, WARNING, did_you_mean
from .names import SHADOWS, shadowed_primitive
from .procedures import expand

#: aggregates over a list: op -> (what each item's value must be, what the aggregate gives;
#: None: the list's own type). `count` counts the items its `if` keeps (the value is not used).
AGGREGATES = {
    "sum": (P.INT, P.INT),
    "max": (P.INT, P.INT),
    "min": (P.INT, P.INT),
    "count": (None, P.INT),
    "any": (P.BOOL, P.BOOL),
    "all": (P.BOOL, P.BOOL),
    "most": (P.INT, None),
    "least": (P.INT, None),
    "filter": (None, None),
}

#: what each aggregate gives, in words (the language server's hover and completion)
AGGREGATE_SUMMARIES = {
    "sum": "The total of a number over the items of a list (0 for none).",
    "max": "The largest number over the items of a list (0 for none).",
    "min": "The smallest number over the items of a list (0 for none).",
    "count": "How many items of a list the `if` keeps.",
    "any": "Whether the condition holds for at least one item.",
    "all": "Whether the condition holds for every item (true for none).",
    "most": "The items with the largest number, every one of a tie, in the list's order.",
    "least": "The items with the smallest number, every one of a tie, in the list's order.",
    "filter": "The items of a list the `if` keeps.",
}

#: what walking a list of each type gives, one item at a time (`for`, aggregates)
ELEMENT = {P.PLAYERS: P.PLAYER, P.PLAYER: P.PLAYER, P.CARDS: P.CARD, P.ZONE: P.CARD, P.CARD: P.CARD}
#: the list type of what walking gives
LIST_OF = {P.PLAYER: P.PLAYERS, P.CARD: P.CARDS}


@dataclass(frozen=True)
class Finding:
    pos: int
    code: str
    message: str
    severity: str = ERROR


@dataclass
class CheckEnv:
    """What an effect may refer to: the cards, tags and rules in scope."""

    card_ids: frozenset | None  # None: unknown universe, literals are not checked
    tags: frozenset | None
    rules: dict | None  # rule or parameter name -> type; None: not known yet
    mentioned_cards: set = field(default_factory=set)  # card ids named by literals
    zones: frozenset = frozenset()  # extra zones declared by the files in scope
    player_zones: frozenset = frozenset()  # of those, the ones each player has a copy of
    limits: Limits | None = None  # of the edition; None: values and zone sizes unknown
    counters: frozenset | None = None  # the per-player counters declared; None: not known yet
    procedures: dict = field(default_factory=dict)  # name -> procedures.Procedure, checked already
    elsewhere: dict = field(default_factory=dict)  # card id -> the shipped library it is in, not loaded here


#: the edition-wide places code is written, by the key that holds them
_PLACE_WORDS = {"triggers": "a trigger (`triggers:`)", "checks": "a state check (`checks:`)",
                "actions": "a free action (`actions:`)", "restrictions": "a limit on plays (`restrictions:`)",
                "win": "the scoring (`win:`)", "turn": "the turn draw (`turn: draw`)"}


def place_words(path: tuple) -> str | None:
    """Where the code at ``path`` of a rule file is written, as a designer calls it
    ("a trigger (`triggers:`)", "a card's `on_draw`"); None when the path says nothing."""
    if not path:
        return None
    head, last = path[0], path[-1]
    if head in _PLACE_WORDS:
        return _PLACE_WORDS[head] if last in ("effect", "draw", head) or isinstance(last, int) \
            else f"the `{last}` of {_PLACE_WORDS[head]}"
    if "choose" in path:
        return "a `choose:` name"
    if isinstance(last, str) and last in ("effect", "requires", "on_draw", "instead_of_draw"):
        return f"a {'combo' if 'combo' in str(head) else 'card'}'s `{last}`"
    return None


class Checker:
    """Checks one program or expression in one context."""

    def __init__(self, env: CheckEnv, context: str, names: dict[str, str], *, pure: bool = False,
                 place: str | None = None):
        self.env = env
        self.context = context
        self.place = place  # where the code is written, in words (see place_words)
        self.pure = pure
        self.scopes: list[dict[str, str]] = [dict(names)]
        self.findings: list[Finding] = []
        self.fixed: set = set(P.BUILTIN_NAMES) | {"this"}  # names no assignment may change
        self.aggregating = 0  # how many aggregates enclose the expression being checked

    # -- entry points ---------------------------------------------------------
    def program(self, program: s.Program) -> list[Finding]:
        self._block(program.body)
        self._estimate(lambda estimate: estimate.program(self._played(program)))
        return self.findings

    def expression(self, expr, expect: str | None = None) -> str | None:
        found = self._expect(expr, expect)
        self._estimate(lambda estimate: estimate.expression(self._played(expr)))
        return found

    def _estimate(self, run) -> None:
        """Warn where the effect can outgrow the engine's limits (see cost.py). Setup
        counts are left to the dry run, which works them out exactly."""
        if self.context == P.SETUP or any(f.severity == ERROR for f in self.findings):
            return
        for pos, code, message in run(Estimate(self.env.limits, self.scopes[0])):
            self._error(pos, code, message, WARNING)

    # -- helpers --------------------------------------------------------------
    def _played(self, tree):
        """The tree as it is played: with its procedure calls written out (procedures.py)."""
        return expand(tree, self.env.procedures, self.scopes[0]) if self.env.procedures else tree

    def _expect(self, expr, expect: str | None) -> str | None:
        found = self._expr(expr)
        if expect and found and not P.accepts(expect, found):
            self._error(expr.pos, "type-mismatch", f"this should be {expect}, not {found}")
        return found

    def _error(self, pos: int, code: str, message: str, severity: str = ERROR) -> None:
        self.findings.append(Finding(pos, code, message, severity))

    def _lookup(self, name: str) -> str | None:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def _visible_names(self) -> set[str]:
        names: set[str] = set()
        for scope in self.scopes:
            names.update(scope)
        return names

    def _bind(self, pos: int, name: str, type_: str | None) -> None:
        if self._lookup(name) is not None:
            self._error(pos, "redefined-name",
                        f"'{name}' is already defined here: pick another name")
        elif (shadowing := shadowed_primitive(name)) is not None:  # the file's name wins
            self._error(pos, SHADOWS, shadowing, WARNING)
        self.scopes[-1][name] = type_ or "?"

    # -- statements -----------------------------------------------------------
    def _block(self, body) -> None:
        self.scopes.append({})
        for stmt in body:
            self._stmt(stmt)
        self.scopes.pop()

    def _stmt(self, stmt) -> None:
        if isinstance(stmt, s.Let):
            self._bind(stmt.name_pos, stmt.name, self._expr(stmt.value))
        elif isinstance(stmt, s.Assign):
            self._assign(stmt)
        elif isinstance(stmt, s.If):
            self._expect(stmt.condition, P.BOOL)
            self._block(stmt.then)
            self._block(stmt.otherwise)
        elif isinstance(stmt, s.For):
            with self._walking(stmt.iterable, stmt.name, stmt.name_pos, "`for` needs players or cards "
                                                                          "to walk through"):
                for inner in stmt.body:
                    self._stmt(inner)
        elif isinstance(stmt, s.CallStmt):
            returns = self._call(stmt.call)
            prim = self._callee(stmt.call.name)
            if prim is not None and returns is not None and prim.kind in (P.QUERY, P.CHANCE):
                self._error(stmt.call.pos, "unused-value",
                            f"{stmt.call.name}() gives a value that is thrown away here: "
                            "use it in `let` or as an argument", WARNING)

    def _assign(self, stmt: s.Assign) -> None:
        """``name = value``: only a name a `let` or `choose` made, and a value of its type."""
        found = self._expr(stmt.value)
        declared = self._lookup(stmt.name)
        if declared is None:
            self._error(stmt.pos, "unknown-name",
                        f"'{stmt.name}' is not defined yet: write `let {stmt.name} = ...` first"
                        f"{did_you_mean(stmt.name, self._visible_names())}")
        elif stmt.name in self.fixed:
            self._error(stmt.pos, "fixed-name",
                        f"'{stmt.name}' cannot be given a new value here (it is given by the game or "
                        "walks a loop): `let` a name of your own")
        elif found and declared != "?" and not P.accepts(declared, found):
            self._error(stmt.value.pos, "type-mismatch",
                        f"'{stmt.name}' holds {declared}; it cannot be given {found}")

    def _aggregate(self, expr: s.Aggregate) -> str | None:
        """``op(value for name in iterable if condition)``: queries only, a finite list."""
        spec = AGGREGATES.get(expr.op)
        if spec is None:
            self._error(expr.pos, "unknown-aggregate",
                        f"no aggregate is called '{expr.op}'"
                        f"{did_you_mean(expr.op, AGGREGATES, 'the aggregates are ' + ', '.join(AGGREGATES))}")
            return None
        wanted, gives = spec
        self.aggregating += 1
        with self._walking(expr.iterable, expr.name, expr.name_pos,
                           f"{expr.op}(... for {expr.name} in ...) walks players or cards") as element:
            self._expect(expr.value, wanted)
            if expr.condition is not None:
                self._expect(expr.condition, P.BOOL)
        self.aggregating -= 1
        return gives or LIST_OF.get(element or "")

    @contextmanager
    def _walking(self, iterable, name: str, name_pos: int, what: str):
        """A scope in which ``name`` walks the items of ``iterable`` (a `for` loop or an
        aggregate), and cannot be given another value; gives the items' type."""
        found = self._expr(iterable)
        element = ELEMENT.get(found or "")
        if found and not element:
            self._error(iterable.pos, "type-mismatch", f"{what}, not {found}")
        self.scopes.append({})
        self._bind(name_pos, name, element)
        self.fixed.add(name)
        try:
            yield element
        finally:
            self.fixed.discard(name)
            self.scopes.pop()

    # -- expressions ----------------------------------------------------------
    def _expr(self, expr) -> str | None:
        if isinstance(expr, s.IntLit):
            return P.INT
        if isinstance(expr, s.BoolLit):
            return P.BOOL
        if isinstance(expr, s.StrLit):
            return P.STR
        if isinstance(expr, s.Name):
            found = self._lookup(expr.id)
            if found is None and expr.id in P.PRIMITIVES:
                self._error(expr.pos, "unknown-name",
                            f"'{expr.id}' is a primitive, not a value: call it, {expr.id}(...)")
            elif found is None:
                self._error(expr.pos, "unknown-name",
                            f"unknown name '{expr.id}'{did_you_mean(expr.id, self._visible_names())}")
            return None if found == "?" else found
        if isinstance(expr, s.RuleRef):
            if self.env.rules is None:  # a library checked on its own: editions set rules
                return None
            if expr.name not in self.env.rules:
                self._error(expr.name_pos, "unknown-rule",
                            f"no rule or parameter is called '{expr.name}'"
                            f"{did_you_mean(expr.name, self.env.rules)}")
                return None
            return self.env.rules[expr.name]
        if isinstance(expr, s.Call):
            found = self._call(expr)
            prim = self._callee(expr.name)
            if prim is not None and prim.returns is None:
                self._error(expr.pos, "type-mismatch",
                            f"{expr.name}() is an action and gives no value: call it as a statement")
            return found
        if isinstance(expr, s.Sum):
            for term in (expr.first, *expr.terms):
                self._expect(term, P.INT)
            return P.INT
        if isinstance(expr, s.Compare):
            return self._compare(expr)
        if isinstance(expr, s.BoolOp):
            for operand in expr.operands:
                self._expect(operand, P.BOOL)
            return P.BOOL
        if isinstance(expr, s.Not):
            self._expect(expr.operand, P.BOOL)
            return P.BOOL
        if isinstance(expr, s.Aggregate):
            return self._aggregate(expr)
        raise TypeError(f"unexpected node {expr!r}")  # pragma: no cover

    def _compare(self, expr: s.Compare) -> str:
        left, right = self._expr(expr.left), self._expr(expr.right)
        if expr.op in ("==", "!=") and self._title_literal(expr, left, right):
            return P.BOOL
        if expr.op in ("<", ">", "<=", ">="):
            for side, found in ((expr.left, left), (expr.right, right)):
                if found and found != P.INT:
                    self._error(side.pos, "type-mismatch", f"`{expr.op}` compares numbers, not {found}")
        elif left and right and not (P.accepts(left, right) or P.accepts(right, left)):
            self._error(expr.pos, "type-mismatch", f"cannot compare {left} with {right}")
        return P.BOOL

    def _title_literal(self, expr: s.Compare, left, right) -> bool:
        """A card title compared with a written one (`choose_title() == "card_id"`): the
        string is a card id, checked like one. False when the sides are not such a pair."""
        for found, other in ((left, expr.right), (right, expr.left)):
            if found == P.CARD_ID and isinstance(other, s.StrLit):
                self._literal(other, P.CARD_ID)
                return True
        return False

    def _callee(self, name: str) -> P.Primitive | None:
        """What a call of ``name`` calls: a procedure of the edition (which a file names,
        and so comes before a primitive of the same name), or a primitive."""
        proc = self.env.procedures.get(name)
        return proc.as_primitive() if proc is not None else P.PRIMITIVES.get(name)

    def _call(self, call: s.Call) -> str | None:
        prim = self._callee(call.name)
        proc = self.env.procedures.get(call.name)
        if proc is not None and proc.is_value:
            self._pure_arguments(call)
        if prim is None:
            self._error(call.pos, "unknown-primitive",
                        f"no primitive is called '{call.name}'{did_you_mean(call.name, P.PRIMITIVES)}")
            for arg in call.args:
                self._expr(arg)
            return None
        if self.context not in prim.contexts:
            where = "; ".join(place for context in P.PLACES if context in prim.contexts
                              for place in P.PLACES[context])
            here = self.place or f"a {self.context} effect"
            self._error(call.pos, "not-allowed-here",
                        f"{call.name}() cannot be used in {here} (only in {where})")
        if (self.pure or self.aggregating) and prim.kind != P.QUERY:
            where = "inside an aggregate (sum, max, any, ...)" if self.aggregating else "here"
            self._error(call.pos, "not-allowed-here",
                        f"{call.name}() is {'an' if prim.kind == P.ACTION else 'a'} {prim.kind}; "
                        f"only queries may be used {where}")
        self._arguments(call, prim)
        return prim.returns

    def _pure_arguments(self, call: s.Call) -> None:
        """A value procedure's arguments stand in for its parameters wherever they are
        used, so they may ask nothing and change nothing."""
        for arg in (*call.args, *(kw.value for kw in call.kwargs)):
            for node in s.walk(arg):
                inner = self._callee(node.name) if isinstance(node, s.Call) else None
                if inner is not None and inner.kind != P.QUERY:
                    self._error(node.pos, "not-allowed-here",
                                f"{node.name}() is {'an' if inner.kind == P.ACTION else 'a'} {inner.kind}: "
                                f"the arguments of {call.name}() (a value procedure) may use queries "
                                f"only; `let` its result first and pass the name")

    def _arguments(self, call: s.Call, prim: P.Primitive) -> None:
        params = prim.params
        if len(call.args) > len(params):
            extra = call.args[len(params)]
            self._error(extra.pos, "arity",
                        f"{call.name}() takes at most {len(params)} argument"
                        f"{'s' if len(params) != 1 else ''}: {prim.signature()}")
        given: dict[str, object] = {}
        for param, arg in zip(params, call.args):
            given[param.name] = arg
        by_name = {p.name: p for p in params}
        for kw in call.kwargs:
            if kw.name not in by_name:
                self._error(kw.pos, "arity", f"{call.name}() has no argument '{kw.name}'"
                            f"{did_you_mean(kw.name, by_name, f'its arguments are {prim.signature()}')}")
                self._expr(kw.value)
                continue
            if kw.name in given:
                self._error(kw.pos, "arity", f"'{kw.name}' is given twice")
            given[kw.name] = kw.value
        for param in params:
            if param.name in given:
                self._argument(call, param, given[param.name])
            elif param.required:
                self._error(call.pos, "arity",
                            f"{call.name}() needs its '{param.name}' argument: {prim.signature()}")

    def _argument(self, call: s.Call, param: P.Param, arg) -> None:
        if isinstance(arg, s.StrLit) and param.type in (P.CARD_ID, P.TAG, P.STR, P.ZONE_NAME, P.COUNTER_NAME):
            self._literal(arg, param.type)
            return
        found = self._expr(arg)
        if found and not P.accepts(param.type, found):
            self._error(arg.pos, "type-mismatch",
                        f"'{param.name}' of {call.name}() should be {P.type_name(param.type)}, "
                        f"not {found}")

    def _literal(self, arg: s.StrLit, wanted: str) -> None:
        if wanted == P.CARD_ID:
            self.env.mentioned_cards.add(arg.value)
            known, what, code = self.env.card_ids, "card", "unknown-card"
        elif wanted == P.TAG:
            known, what, code = self.env.tags, "tag", "unknown-tag"
        elif wanted == P.ZONE_NAME:
            known, what, code = self.env.player_zones, "per-player zone", "unknown-zone"
        elif wanted == P.COUNTER_NAME:
            known, what, code = self.env.counters, "counter", "unknown-counter"
        else:
            return
        if known is not None and arg.value not in known and wanted == P.CARD_ID and arg.value in self.env.elsewhere:
            self._error(arg.pos, "card-not-loaded",
                        f"'{arg.value}' is a card of {self.env.elsewhere[arg.value]}, which this edition does "
                        "not load: this part does nothing until it does (apply the expansion that has the card, "
                        "or include its library)", WARNING)
        elif known is not None and arg.value not in known:
            self._error(arg.pos, code, f"no loaded {what} is called '{arg.value}'"
                        f"{did_you_mean(arg.value, known)}")

