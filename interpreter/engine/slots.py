"""Combos picked place by place: a combo with `slots:`, or one whose titles may repeat
(`match: any`).

Each place of such a combo (each slot; without `slots:`, as many open places as it
has cards) is worked out once per edition as the titles that may fill it
(:func:`place_titles`). In play a hand makes the combo when every place can take a
card of its own, which is a small matching of places to cards (:func:`fillable`,
places at most ten): ``counts`` says how many cards of each title the hand may give,
one per title for `match: different_titles` (no title twice), every copy for
`match: any`.

Wildcards (cards with `stands_for`) fill a place they could fill as any title they
stand for, as they fill a pair or a triple; but they keep their own title, as in a
combo of different titles: two copies of one wildcard are one title twice.
"""

from __future__ import annotations


def place_titles(combo, cards: dict) -> tuple:
    """For each place of ``combo``, the card ids that may fill it, in ``cards``' order:
    a card that fits the place as itself, or a wildcard that may stand for one that does."""
    places = []
    for place in range(combo.size):
        fits = []
        for card_id, card in cards.items():
            if combo.may_fill(place, card):
                fits.append(card_id)
            elif card.stands_for is not None and card.in_combos and any(
                    other_id != card_id and card.may_stand_for(other) and combo.may_fill(place, other)
                    for other_id, other in cards.items()):
                fits.append(card_id)
        places.append(frozenset(fits))
    return tuple(places)


def fillable(places, counts: dict) -> bool:
    """Whether every place can take a card of its own: ``places`` a sequence of sets
    of titles, ``counts`` title -> how many cards of it may be used (a matching found
    by augmenting paths; the answer does not depend on the order anything is tried)."""
    if len(places) > sum(counts.values()):
        return False
    held: dict = {}  # title -> the places it fills so far
    for place in range(len(places)):
        if not _augment(place, places, counts, held, set()):
            return False
    return True


def _augment(place: int, places, counts: dict, held: dict, tried: set) -> bool:
    """Give ``place`` a title, moving places already given one where that helps."""
    for title in places[place]:
        if title in tried or not counts.get(title):
            continue
        tried.add(title)
        taken = held.setdefault(title, [])
        if len(taken) < counts[title]:
            taken.append(place)
            return True
        for other in taken:
            if _augment(other, places, counts, held, tried):
                taken.remove(other)
                taken.append(place)
                return True
    return False


def hand_counts(cards, distinct: bool, skip=()) -> dict:
    """Title -> how many of ``cards`` (CardInst) may be used: one per title when no title
    may come twice; ``skip``: ids (id()) of cards already used."""
    counts: dict = {}
    for inst in cards:
        if id(inst) not in skip:
            counts[inst.id] = 1 if distinct else counts.get(inst.id, 0) + 1
    return counts


def pickable(places, place: int, counts: dict, distinct: bool) -> set:
    """The titles that may fill ``place`` now and still leave every later place fillable
    from ``counts`` (what the hand has left): the picks that never reach a dead end."""
    later, found = places[place + 1:], set()
    for title in places[place]:
        have = counts.get(title, 0)
        if not have:
            continue
        rest = dict(counts)
        rest[title] = 0 if distinct else have - 1
        if fillable(later, rest):
            found.add(title)
    return found
