"""Decisions and chance: the points where a game waits for someone.

A :class:`Decision` is asked of one seat and lists every legal option as a
plain JSON value, so options can be written in logs and scenario files and
compared exactly:

* ``action`` (on your turn): ``"draw"``, ``"play <card>"`` or
  ``"combo <combo> [<card>]"``;
* ``combo_card``: the next card title of a combo of different titles;
* ``answer`` (in a reaction window): ``"pass"`` or ``"play <card>"``;
* ``choose_player``: a seat number; ``choose_card``: a card id when the
  chooser can see the cards, else a place (0 = top/first);
* ``choose_title``: a card id; ``choose_position``: a place, 0 is the top;
  ``ask``: true or false.

``values`` holds what each option means to the engine, in the same order.
A :class:`Chance` is an outcome nobody chooses; the game resolves it from its
seeded random generator unless the caller asked to resolve chance itself.
"""

from __future__ import annotations

#: what ``current_player()`` returns while a chance outcome is pending
CHANCE = -1
#: what ``current_player()`` returns once the game is over
TERMINAL = -4


class Decision:
    """One seat must pick one of ``options``; ``info`` says what it is about."""

    __slots__ = ("seat", "kind", "options", "values", "info")

    def __init__(self, seat: int, kind: str, options: list, values: list | None = None,
                 info: dict | None = None) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.values = options if values is None else values
        self.info = info or {}

    def value_of(self, option):
        """The engine's meaning of ``option``; ValueError when it is not legal."""
        try:
            index = self.options.index(option)
        except ValueError:
            raise ValueError(f"{option!r} is not a legal option here; the options are "
                             f"{', '.join(map(repr, self.options))}") from None
        return self.values[index]

    def to_dict(self) -> dict:
        return {"seat": self.seat, "kind": self.kind, "options": list(self.options), **self.info}

    def __repr__(self) -> str:
        return f"<decision seat {self.seat} {self.kind}: {self.options}>"


class Chance:
    """A random outcome: ``pick`` one of ``size`` things, or an ``order`` of ``size`` cards."""

    __slots__ = ("kind", "size", "info")

    def __init__(self, kind: str, size: int, info: dict | None = None) -> None:
        self.kind = kind
        self.size = size
        self.info = info or {}

    def outcomes(self) -> list | None:
        """Every outcome of a pick; None for an order (too many to list)."""
        return list(range(self.size)) if self.kind == "pick" else None

    def sample(self, rng):
        if self.kind == "pick":
            return rng.randrange(self.size)
        order = list(range(self.size))
        rng.shuffle(order)
        return order

    def check(self, outcome) -> None:
        if self.kind == "pick":
            if not isinstance(outcome, int) or isinstance(outcome, bool) or \
                    not 0 <= outcome < self.size:
                raise ValueError(f"a pick among {self.size} needs a number from 0 to {self.size - 1}")
        elif sorted(outcome) != list(range(self.size)):
            raise ValueError(f"an order of {self.size} cards is a permutation of 0..{self.size - 1}")

    def __repr__(self) -> str:
        return f"<chance {self.kind} {self.size}>"
