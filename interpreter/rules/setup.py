"""Setup steps: their counts, and a dry run that proves they can be carried out.

(engine/setup.py deals a real table by the same counts.) The dry run plays
an edition's setup on card counts alone, for one player count, and says what
goes wrong: a deal larger than the pile, a put-back of copies that were never
set aside, too few lethal cards left in the pile for the game to end. It is
how `kittens validate` checks decks without playing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from ..lang import syntax as s
from ..lang.counts import NumberTooLarge, step_count
from ..lang.limits import TOO_LARGE
from .model import Edition


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
        seats = players
        if step.to is not None:  # a deal to one seat only
            problem = _seat_problem(step, index, players, rules, pile, edition.cards)
            if problem is not None:
                problems.append(problem)
                break
            seats = 1
        if step.kind == "set_aside":
            for card_id in step.cards:
                aside[card_id] += pile.pop(card_id, 0)
        elif step.kind == "deal" and step.cards:
            card_id, wanted = step.cards[0], count * seats
            if aside[card_id] < wanted:
                problems.append(Problem(index, "deal-impossible",
                                        f"with {players} players this deals {wanted} '{card_id}' "
                                        f"but only {aside[card_id]} are set aside"))
                break
            aside[card_id] -= wanted
        elif step.kind in ("deal", "place", "remove_random") and not step.cards:
            # cards off the top of the pile, nobody knows which: assume the worst
            wanted, verb = (count * seats, "deals") if step.kind == "deal" else (count, "takes")
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


def _seat_problem(step, index: int, players: int, rules: dict, pile: Counter, cards: dict) -> Problem | None:
    """What is wrong with the seat a `deal` to one seat names (`to:`), for ``players``."""
    try:
        seat = step_count(replace(step, count=step.to), players, rules, pile, cards)
    except NumberTooLarge as exc:
        return Problem(index, TOO_LARGE, f"with {players} players {exc}")
    if not 0 <= seat < players:
        return Problem(index, "deal-impossible",
                       f"with {players} players this deals to seat {seat}, but the seats are 0 to "
                       f"{players - 1} (0 plays first; `players - 1` is the last seat)")
    return None


def dead_cards(edition: Edition, players: int, names: dict | None = None) -> dict:
    """Cards that reach the game with ``players`` but can do nothing there: card id ->
    the cards whose effects use it, none of which reaches the game (a Defuse when no
    kitten is left in the pile). Only cards that are never played and do nothing when
    drawn count: their use is what other cards do with them. ``names``: the strings of
    each card's effects found so far (see _names_of), for a caller asking many times."""
    problems, _pile, out = _dry_run(edition, players)
    if problems:
        return {}
    deck = edition.deck_for(players)
    present = {card_id for card_id, copies in deck.items() if copies > out[card_id]}
    rules_use = _named_cards(edition.turn_draw, *(c.condition for c in edition.checks),
                             *(c.effect for c in edition.checks),
                             *(part for combo in edition.combos for part in _parts(combo)))
    users: dict = {}
    names = {} if names is None else names
    for card_id, card in edition.cards.items():
        for named in _names_of(card, names):
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


def _names_of(card, names: dict) -> set:
    """The strings a card's effects write, found once per card while ``names`` lives (the
    views of an edition share their cards; an id is not reused while its object lives)."""
    found = names.get(id(card))
    if found is None:
        found = names[id(card)] = (card, _named_cards(*_parts(card)))
    return found[1]


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
