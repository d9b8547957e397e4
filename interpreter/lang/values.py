"""The values effects work with, and how primitives read them.

A player is a seat number and players a list of seats; a card is a card
instance (anything with ``id``, ``card`` and ``zone``), cards a list of them,
and a zone anything with ``cards`` (its cards when cards are wanted). A number
one seat alone knows (a place picked in secret) is a :class:`PrivateInt`.
"""

from __future__ import annotations

# kinds of zone
PILE = "pile"  # ordered, face down unless a card is face up
HAND = "hand"  # one owner sees it
PUBLIC = "public"  # everyone sees it


class PrivateInt(int):
    """A number only some seats know (a place chosen in secret); sums stay secret."""

    knower: int = 0  # seat bit mask

    def __new__(cls, value: int, knower: int):
        obj = super().__new__(cls, value)
        obj.knower = knower
        return obj

    def __deepcopy__(self, memo):
        return self

    def __copy__(self):
        return self


def as_secret_as(result: int, inputs) -> int:
    """``result`` worked out from ``inputs``: as secret as they are (known to the seats
    that know all of the secret ones), or a plain number when none is secret."""
    knower = None
    for value in inputs:
        if isinstance(value, PrivateInt):
            knower = value.knower if knower is None else knower & value.knower
    return result if knower is None else PrivateInt(result, knower)


def cards_of(value) -> list:
    """Cards, a zone or one card (or nothing) as a list of cards (a fresh one for a zone)."""
    if isinstance(value, list):
        return value
    if value is None:
        return []
    cards = getattr(value, "cards", None)
    return list(cards) if cards is not None else [value]


def listed(value) -> list:
    """Cards, a zone or one card (or nothing) as a list, for reading only: a zone's own
    list, not a copy (a query that picks a few cards need not copy a whole pile)."""
    if isinstance(value, list):
        return value
    if value is None:
        return []
    cards = getattr(value, "cards", None)
    return cards if cards is not None else [value]


def size_of(value) -> int:
    """How many items a value holds, as a primitive walking it sees them: a list's
    length, a zone's cards, one for a card or a player, none for nothing."""
    if isinstance(value, list):
        return len(value)
    if value is None:
        return 0
    cards = getattr(value, "cards", None)
    return len(cards) if cards is not None else 1


def moving_steps(value, at_once: bool) -> int:
    """What moving ``value``'s cards walks: a step per card, and for each card taken from
    a hand a step per card of that hand (what every seat knows of the cards left there is
    looked at as it leaves). A whole hand moved ``at_once`` is walked once."""
    if value is None:
        return 0
    cards = value if isinstance(value, list) else getattr(value, "cards", None)
    if cards is None:
        cards = [value]
    elif cards is not value and value.kind == HAND:  # a whole hand
        return len(cards) * 2 if at_once else len(cards) * (1 + len(cards))
    steps = len(cards)
    for inst in cards:
        zone = inst.zone
        if zone.kind == HAND:
            steps += len(zone.cards)
    return steps


def seats_of(value) -> list:
    """Players or one player (or nobody) as a list of seats."""
    if isinstance(value, list):
        return value
    return [] if value is None else [value]


def items_of(value) -> list:
    """What `for` walks through: a snapshot, so moving cards inside is safe."""
    if isinstance(value, list):
        return list(value)
    if isinstance(value, int):
        return [value]
    cards = getattr(value, "cards", None)
    if cards is not None:
        return list(cards)
    return [value]
