"""Setup steps: their counts, carrying them out, and a dry run that proves they can be.

``play_setup`` deals a real table at the start of a game. The dry run plays
an edition's setup on card counts alone, for one player count, and says what
goes wrong: a deal larger than the pile, a put-back of copies that were never
set aside, too few lethal cards left in the pile for the game to end. It is
how `kittens validate` checks decks without playing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from . import syntax as s
from .cost import NUMBER_LIMIT, TOO_LARGE, fail, shown, within_limit
from .decisions import Chance
from .evaluator import _ARITHMETIC as ARITHMETIC
from .model import Edition, SetupStep


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


def step_count(step: SetupStep, players: int, rules: dict, pile: Counter | None = None,
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


def play_setup(table, game, rules: dict):
    """Put the deck in the draw pile and carry out the setup steps (a generator:
    shuffles are chance nodes). Seat 0 plays first."""
    edition = game.edition
    for card_id, copies in game.deck.items():
        for _ in range(copies):
            table.new_card(edition.cards[card_id], table.draw_pile)
    table.announce()
    zones = {"draw_pile": table.draw_pile, "discard_pile": table.discard_pile,
             "removed": table.removed, "set_aside": table.set_aside, **table.extra}
    for index, step in enumerate(edition.setup):
        pile = Counter(c.id for c in table.draw_pile.cards) if _looks_at_pile(step) else None
        try:
            count = max(step_count(step, game.players, rules, pile, edition.cards), 0) \
                if step.count is not None else 0
        except NumberTooLarge as exc:  # the dry run reports this in validation
            fail(f"setup step {index + 1} ({step.origin or edition.origin})", str(exc))
        yield from _STEPS[step.kind](table, zones, step, count)
    table.current = 0


@lru_cache(maxsize=None)
def _looks_at_pile(step: SetupStep) -> bool:
    """Whether a step's count looks at the draw pile (its size or its cards)."""
    return isinstance(step.count, s.Node) and any(
        isinstance(node, s.Name) and node.id in ("pile", "draw_pile") for node in s.walk(step.count))


def _set_aside(table, zones, step, count):
    wanted = set(step.cards)
    table.move([c for c in table.draw_pile.cards if c.id in wanted], table.set_aside)
    return ()


def _deal(table, zones, step, count):
    """Deal ``count`` rounds, one card per seat per round, in seat order."""
    source = table.set_aside if step.cards else table.draw_pile
    pool = [c for c in source.cards if c.id == step.cards[0]] if step.cards else source.cards
    players = len(table.hands)
    dealt = pool[:count * players]  # the order a round-by-round deal takes them in
    for seat, hand in enumerate(table.hands):
        table.move(dealt[seat::players], hand, len(hand.cards))
    return ()


def _put_back(table, zones, step, count):
    cards = [c for c in table.set_aside.cards if c.id == step.cards[0]]
    table.move(cards[:count], table.draw_pile)
    return ()


def _shuffle(table, zones, step, count):
    zone = zones[step.zone]
    order = yield Chance("order", len(zone.cards), {"zone": zone.name,
                                                    "cards": [c.id for c in zone.cards]})
    table.shuffle(zone, order)


def _remove(table, zones, step, count):
    table.move(list(zones[step.zone].cards), table.removed)
    return ()


def _place(table, zones, step, count):
    pile = table.draw_pile.cards
    wanted = set(step.cards)
    table.move([c for c in pile if c.id in wanted] if step.cards else pile[:count], zones[step.zone])
    return ()


def _remove_random(table, zones, step, count):
    """Shuffle the pile, then take ``count`` cards off the top, unseen."""
    pile = table.draw_pile
    order = yield Chance("order", len(pile.cards), {"zone": pile.name, "cards": [c.id for c in pile.cards]})
    table.shuffle(pile, order)
    table.move(pile.cards[:count], table.removed)


#: setup step kind -> how to carry it out (keywords: a step may share a word with a card)
_STEPS = dict(set_aside=_set_aside, deal=_deal, put_back=_put_back, shuffle=_shuffle,
              remove=_remove, place=_place, remove_random=_remove_random)


@dataclass
class Problem:
    step: int | None  # index of the failing step; None for the result as a whole
    code: str
    message: str


def dry_run(edition: Edition, players: int) -> tuple[list[Problem], Counter]:
    """Play the setup on counts; return the problems and the draw pile's final counts."""
    problems, pile, _out = _dry_run(edition, players)
    return problems, pile


def _dry_run(edition: Edition, players: int) -> tuple[list[Problem], Counter, Counter]:
    """The dry run: its problems, the draw pile's final counts and the cards taken out of
    the game for good (by `remove` steps)."""
    rules = {**edition.rules, **edition.params}
    out: Counter = Counter()
    pile = Counter(edition.deck_for(players))
    aside: Counter = Counter()
    lethal = {card_id for card_id, card in edition.cards.items() if card.lethal}
    # when a deal takes cards nobody chose, assume the worst: lethal cards go first
    worst_first = sorted(edition.cards, key=lambda c: (c not in lethal, c))
    problems: list[Problem] = []
    for index, step in enumerate(edition.setup):
        try:
            count = step_count(step, players, rules, pile, edition.cards) if step.count is not None else 0
        except NumberTooLarge as exc:
            problems.append(Problem(index, TOO_LARGE, f"with {players} players {exc}"))
            break
        if count < 0:
            problems.append(Problem(index, "deal-impossible",
                                    f"with {players} players the count is {count}, below zero"))
            break
        if step.kind == "set_aside":
            for card_id in step.cards:
                aside[card_id] += pile.pop(card_id, 0)
        elif step.kind == "deal" and step.cards:
            card_id, wanted = step.cards[0], count * players
            if aside[card_id] < wanted:
                problems.append(Problem(index, "deal-impossible",
                                        f"with {players} players this deals {wanted} '{card_id}' "
                                        f"but only {aside[card_id]} are set aside"))
                break
            aside[card_id] -= wanted
        elif step.kind in ("deal", "place", "remove_random") and not step.cards:
            # cards off the top of the pile, nobody knows which: assume the worst
            wanted, verb = (count * players, "deals") if step.kind == "deal" else (count, "takes")
            if sum(pile.values()) < wanted:
                problems.append(Problem(index, "deal-impossible",
                                        f"with {players} players this {verb} {wanted} cards but the "
                                        f"draw pile holds only {sum(pile.values())}"))
                break
            _take_unknown(pile, wanted, worst_first)
        elif step.kind == "put_back":
            card_id = step.cards[0]
            if aside[card_id] < count and not step.or_fewer:
                problems.append(Problem(index, "deal-impossible",
                                        f"with {players} players this puts back {count} '{card_id}' "
                                        f"but only {aside[card_id]} are set aside (add `or_fewer: true` "
                                        "if fewer is fine)"))
                break
            moved = min(count, aside[card_id])
            aside[card_id] -= moved
            pile[card_id] += moved
        elif step.kind == "remove":
            out.update(+aside)
            aside.clear()
        elif step.kind == "place":
            for card_id in step.cards:
                pile.pop(card_id, None)
    else:
        needed = players - 1
        in_pile = sum(pile[c] for c in lethal)
        if edition.win == "last_standing" and in_pile < needed:
            problems.append(Problem(None, "too-few-kittens",
                                    f"with {players} players the draw pile ends setup with {in_pile} "
                                    f"lethal card(s); {needed} are needed so that all but one player "
                                    "can be eliminated"))
    return problems, pile, out


def dead_cards(edition: Edition, players: int) -> dict:
    """Cards that reach the game with ``players`` but can do nothing there: card id ->
    the cards whose effects use it, none of which reaches the game (a Defuse when no
    kitten is left in the pile). Only cards that are never played and do nothing when
    drawn count: their use is what other cards do with them."""
    problems, _pile, out = _dry_run(edition, players)
    if problems:
        return {}
    deck = edition.deck_for(players)
    present = {card_id for card_id, copies in deck.items() if copies > out[card_id]}
    rules_use = _named_cards(edition.turn_draw, *(c.condition for c in edition.checks),
                             *(c.effect for c in edition.checks),
                             *(part for combo in edition.combos for part in _parts(combo)))
    users: dict = {}
    for card_id, card in edition.cards.items():
        for named in _named_cards(*_parts(card)):
            users.setdefault(named, set()).add(card_id)
    dead = {}
    for card_id in sorted(present):
        card = edition.cards[card_id]
        if card.when != "never" or card.on_draw is not None or card_id in rules_use:
            continue
        used_by = users.get(card_id, set())
        if used_by and not used_by & present:
            dead[card_id] = sorted(used_by)
    return dead


def _parts(record) -> tuple:
    """Every syntax tree of a card or combo."""
    trees = [getattr(record, name, None) for name in ("requires", "effect", "on_draw", "instead_of_draw")]
    trees += [tree for _name, tree in getattr(record, "choose", ())]
    return tuple(tree for tree in trees if tree is not None)


def _named_cards(*trees) -> set:
    """The strings written in syntax trees (card ids among them)."""
    return {node.value for tree in trees if tree is not None for node in s.walk(tree)
            if isinstance(node, s.StrLit)}


def _take_unknown(pile: Counter, amount: int, order: list) -> None:
    """Remove ``amount`` cards that a random deal takes, in ``order``."""
    for card_id in order:
        if amount == 0:
            break
        taken = min(amount, pile[card_id])
        pile[card_id] -= taken
        amount -= taken
