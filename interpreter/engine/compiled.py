"""Cards and combos with their effects compiled, and when one may be played.

A :class:`Rule` is a card or combo of the edition with every expression and
effect compiled once (lang/compiler.py). :func:`legal` says whether a rule may
be played now; a :class:`Play` is a card or combo on its way to taking effect,
which answers may cancel.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..lang import syntax as s
from ..lang.compiler import Code, compile_expression, compile_program
from ..lang.limits import label
from ..lang.machine import remap
from ..lang.primitives import NAMES
from ..rules.model import Action, Combo

#: primitives whose first argument is the pool a player picks from: a card or combo
#: that picks from a pure pool may only be played when the pool is not empty
_PICKS_FROM = frozenset({NAMES.choose_player, NAMES.choose_card})


@dataclass(frozen=True)
class Rule:
    """A card or combo with its effects compiled."""

    id: str
    record: object  # model.Card or model.Combo
    requires: Code | None
    feasible: tuple  # pure codes that must give someone/something to choose
    choose: tuple  # of (name, Code)
    effect: Code | None
    on_draw: Code | None = None
    requires_this: bool = False  # whether `requires` or a choice's pool looks at `this`
    free: bool = False  # it requires nothing and picks from no pool: always playable
    kind: str = "card"  # what a play of it is: a card, a combo or a free action
    counted: tuple = ()  # of PlayLimit: the restrictions that count its plays


def compile_rule(record, zones: frozenset, shared: dict) -> Rule:
    """A card or combo compiled; ``shared`` holds the codes of equal expressions, so a
    test that several cards share is worked out once per decision (see :func:`legal`)."""
    def expression(tree, part: str):
        if tree not in shared:  # shared by equal trees: errors name the first card that has it
            shared[tree] = compile_expression(tree, zones, label(record, part))
        return shared[tree]

    choose, feasible, looks_at_this = [], [], _names_this(record.requires)
    pools = set()  # the shapes of the pure pools, for _implied
    for name, tree in record.choose:
        choose.append((name, compile_expression(tree, zones, label(record, "choose"))))
        if isinstance(tree, s.Call) and tree.name in _PICKS_FROM and tree.args:
            among = expression(tree.args[0], "choose")
            if not among.waits:
                feasible.append(among)
                pools.add(_shape(tree.args[0]))
                looks_at_this = looks_at_this or _names_this(tree.args[0])
    requires = None
    if record.requires is not None and not _implied(record.requires, pools):
        requires = expression(record.requires, "requires")
    return Rule(id=record.id, record=record, requires=requires,
                feasible=tuple(feasible), choose=tuple(choose),
                effect=compile_program(record.effect, zones, label(record, "effect")),
                on_draw=compile_program(getattr(record, "on_draw", None), zones, label(record, "on_draw")),
                requires_this=looks_at_this, free=requires is None and not feasible,
                kind="combo" if isinstance(record, Combo) else "action" if isinstance(record, Action) else "card")


def restricted(edition, zones: frozenset):
    """A function that joins the edition's `restrictions` to a rule's own test (the
    rule unchanged when there are none). A restricted rule is never `free`, and its
    test looks at the cards played."""
    limits = tuple((r, compile_expression(r.allows, zones, label(r)).fn if r.allows is not None else None)
                   for r in edition.restrictions if "plays" in r.applies_to)
    if not limits:
        return lambda rule: rule

    def join(rule: Rule) -> Rule:
        mine = [(r, test) for r, test in limits if r.limits(rule.id)]
        if not mine:
            return rule
        counted = tuple(PlayLimit(r) for r, _test in mine if r.per_turn is not None or r.per_game is not None)
        tests = tuple(test for _r, test in mine if test is not None) + tuple(_within(limit) for limit in counted)
        own = rule.requires.fn if rule.requires is not None else None

        def requires(ctx):
            if own is not None and not own(ctx):
                return False
            for test in tests:
                if not test(ctx):
                    return False
            return True
        return replace(rule, requires=Code(requires), requires_this=True, free=False, counted=counted)
    return join


class PlayLimit:
    """How often a restriction's plays may be made (`per_turn`, `per_game`), counted as the
    table counts free actions (Table.may_act, Table.acted), under a key of its own."""

    __slots__ = ("id", "per_turn", "per_game")

    def __init__(self, restriction) -> None:
        self.id = ("restriction", restriction.id)  # never equal to a free action's id
        self.per_turn = restriction.per_turn if restriction.per_turn is not None else 1 << 30
        self.per_game = restriction.per_game


def _within(limit: PlayLimit):
    """The test that a play stays within ``limit`` for the player making it."""
    def within(ctx) -> bool:
        return ctx.table.may_act(limit, ctx.me)
    return within


def spending_limits(edition, zones: frozenset) -> tuple:
    """The tests of the restrictions that limit spending (`applies_to: [spending]`): what
    `playable_as` may find, each test run with ``me`` the spender and ``this`` the card."""
    return tuple(compile_expression(r.allows, zones, label(r)).fn for r in edition.restrictions
                 if "spending" in r.applies_to and r.allows is not None)


def taking_limits(edition, zones: frozenset) -> tuple:
    """The tests of the restrictions that limit taking (`applies_to: [taking]`): which
    cards an effect may take out of a hand that is not its player's own (picks, moves
    and discards out of it), each test run with ``me`` the taker and ``this`` the card.
    Empty in every shipped edition, where the primitives then look no further."""
    return tuple(compile_expression(r.allows, zones, label(r)).fn for r in edition.restrictions
                 if "taking" in r.applies_to)


def _shape(tree):
    """A tree without the places its nodes were written at: equal shapes are the same
    expression, wherever each was written."""
    if isinstance(tree, tuple):
        return tuple(_shape(item) for item in tree)
    if isinstance(tree, s.Node):
        return (type(tree).__name__, *(_shape(getattr(tree, name)) for name in tree.__dataclass_fields__
                                       if name not in ("pos", "name_pos")))
    return tree


def _implied(requires, pools: set) -> bool:
    """Whether a `requires` only asks that a pool the rule picks from is not empty
    (``count(pool) > 0``, ``>= 1`` or ``!= 0``): :func:`legal` checks that already, and
    the test that a card of the Original's shares with its choice is then worked out
    once per decision instead of twice."""
    if not (isinstance(requires, s.Compare) and isinstance(requires.right, s.IntLit)
            and (requires.op, requires.right.value) in ((">", 0), (">=", 1), ("!=", 0))):
        return False
    left = requires.left
    return (isinstance(left, s.Call) and left.name == NAMES.count and len(left.args) == 1 and not left.kwargs
            and _shape(left.args[0]) in pools)


def _names_this(tree) -> bool:
    return any(isinstance(item, s.Name) and item.id == "this" for item in s.walk(tree))


def legal(rule: Rule, ctx, this, memo: dict | None = None) -> bool:
    """Whether ``rule`` may be played now: its `requires` holds and it has someone to pick.

    Tests that do not look at ``this`` give the same answer for every card of one
    decision, so they are worked out once (``memo``, keyed by the shared code).
    """
    if rule.requires is not None:
        if rule.requires_this or memo is None:
            ctx.this = this
            if not rule.requires.fn(ctx):
                return False
        else:
            key = id(rule.requires)
            ok = memo.get(key)
            if ok is None:
                ok = memo[key] = bool(rule.requires.fn(ctx))
            if not ok:
                return False
    for code in rule.feasible:
        key = id(code)
        ok = None if memo is None else memo.get(key)
        if ok is None:
            ctx.this = this
            ok = _count(code.fn(ctx)) > 0
            if memo is not None and not rule.requires_this:
                memo[key] = ok
        if not ok:
            return False
    return True


def _count(value) -> int:
    if isinstance(value, list):
        return len(value)
    return len(value.cards) if hasattr(value, "cards") else int(value is not None)


class Play:
    """A card or combo on its way to taking effect; answers may cancel it."""

    __slots__ = ("seat", "rule", "cards", "cancelled")

    def __init__(self, seat: int, rule: Rule, cards: list) -> None:
        self.seat, self.rule, self.cards = seat, rule, cards
        self.cancelled = False

    def copy_for(self, memo: dict) -> "Play":
        other = Play.__new__(Play)
        memo[id(self)] = other
        other.seat, other.rule, other.cancelled = self.seat, self.rule, self.cancelled  # rules are shared
        other.cards = remap(self.cards, memo)
        return other


class MomentRule:
    """What a window shows of the moment it answers in place of a rule: its name."""

    __slots__ = ("id",)

    def __init__(self, name: str) -> None:
        self.id = name


class Moment:
    """A moment being answered (a card's `answers:`) in place of a play: ``key`` is
    (moment, zone or None, "before" | "after"), ``seat`` the player it is about,
    ``cards`` its card (none for a player's moment); an answer's cancel() sets
    ``cancelled``, which stops a moment met before it happens."""

    __slots__ = ("seat", "key", "cards", "rule", "cancelled")

    def __init__(self, seat: int, key: tuple, cards: list) -> None:
        self.seat, self.key, self.cards = seat, key, cards
        self.rule = MomentRule(key[0])
        self.cancelled = False

    def copy_for(self, memo: dict) -> "Moment":
        other = Moment.__new__(Moment)
        memo[id(self)] = other
        other.seat, other.key, other.rule, other.cancelled = self.seat, self.key, self.rule, self.cancelled
        other.cards = remap(self.cards, memo)
        return other
