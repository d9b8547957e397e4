"""What one seat may know, built on demand from the table's knowledge bits.

A :class:`View` reads the live state when asked and copies nothing up front,
so making one is free and a bot pays only for what it looks at. It holds the
seat's own hand, the public zones, how many cards every other player holds
(and which of them this seat has seen and can still place), the cards of the
draw pile this seat knows the place of, and the public turn state. Call
:meth:`View.to_dict` to keep a snapshot; the view itself follows the game.
"""

from __future__ import annotations

from ..lang.machine import Decision
from .table import PUBLIC


class View:
    __slots__ = ("_state", "seat", "_bit")

    def __init__(self, state, seat: int) -> None:
        self._state = state
        self.seat = seat
        self._bit = 1 << seat

    # -- turn state (public) --------------------------------------------------
    @property
    def players(self) -> int:
        return self._state.table.players

    @property
    def alive(self) -> list[bool]:
        return list(self._state.table.alive)

    @property
    def current(self) -> int:
        return self._state.table.current

    @property
    def turn_number(self) -> int:
        return self._state.table.turn

    @property
    def direction(self) -> int:
        """1 while play goes up the seat numbers, -1 once reversed."""
        return self._state.table.direction

    @property
    def owed(self) -> list[int]:
        return list(self._state.table.owed)

    @property
    def finished(self) -> bool:
        return self._state.table.finished

    @property
    def winner(self) -> int | None:
        return self._state.table.winner

    # -- cards ----------------------------------------------------------------
    @property
    def hand(self) -> list[str]:
        return [inst.id for inst in self._state.table.hands[self.seat].cards]

    def holds(self, titles) -> bool:
        """Whether this seat's hand holds a card of one of ``titles`` (a set of card
        ids): a question about :attr:`hand` that needs no list of it."""
        return any(inst.id in titles for inst in self._state.table.hands[self.seat].cards)

    def hand_count(self, seat: int) -> int:
        return len(self._state.table.hands[seat].cards)

    def known_in_hand(self, seat: int) -> list[str]:
        """Cards of another player's hand this seat has seen and can still place."""
        bit = self._bit
        return sorted(inst.id for inst in self._state.table.hands[seat].cards if inst.known & bit)

    @property
    def draw_pile_count(self) -> int:
        return len(self._state.table.draw_pile.cards)

    def draw_pile_known(self) -> dict[int, str]:
        """Place (0 = top) -> card id, for the places of the draw pile this seat knows."""
        bit = self._bit
        return {index: inst.id for index, inst in enumerate(self._state.table.draw_pile.cards)
                if inst.known & bit}

    def known_at(self, place: int) -> str | None:
        """The card at ``place`` of the draw pile (0 = top) if this seat knows it, else
        None: one entry of :meth:`draw_pile_known`, without looking at the rest."""
        cards = self._state.table.draw_pile.cards
        if 0 <= place < len(cards) and cards[place].known & self._bit:
            return cards[place].id
        return None

    @property
    def discard_pile(self) -> list[str]:
        return [inst.id for inst in self._state.table.discard_pile.cards]

    @property
    def removed(self) -> list[str]:
        return [inst.id for inst in self._state.table.removed.cards]

    def zone(self, name: str, seat: int | None = None) -> dict:
        """A shared zone, or with ``seat`` that seat's copy of a per-player zone."""
        table = self._state.table
        zone = table.extra[name] if seat is None else table.areas[name][seat]
        if zone.kind == PUBLIC:
            return {"cards": [inst.id for inst in zone.cards]}
        bit = self._bit
        return {"count": len(zone.cards),
                "known": {i: inst.id for i, inst in enumerate(zone.cards) if inst.known & bit}}

    @property
    def decision(self):
        """The decision this seat must make now, if any (as :func:`decision_for` gives it)."""
        pending = self._state.decision()
        return decision_for(pending) if getattr(pending, "seat", None) == self.seat else None

    # -- snapshot -------------------------------------------------------------
    def to_dict(self) -> dict:
        table = self._state.table
        others = {}
        for seat in range(table.players):
            if seat != self.seat:
                others[seat] = {"count": self.hand_count(seat), "known": self.known_in_hand(seat)}
        decision = self.decision
        return {
            "seat": self.seat,
            "turn": {"seat": table.current, "number": table.turn, "owed": list(table.owed),
                     "direction": table.direction},
            "alive": list(table.alive),
            "hand": self.hand,
            "others": others,
            "draw_pile": {"count": self.draw_pile_count, "known": self.draw_pile_known()},
            "discard_pile": self.discard_pile,
            "removed": self.removed,
            "zones": {name: self.zone(name) for name in table.extra},
            "areas": {name: {seat: self.zone(name, seat) for seat in range(table.players)}
                      for name in table.areas},
            "decision": decision.to_dict() if decision is not None else None,
            "finished": table.finished,
            "winner": table.winner,
            # per-player counters are public; shown only by editions that declare some
            **({"counters": {name: list(values) for name, values in table.counters.items()}}
               if table.counters else {}),
        }


class SearchView(View):
    """A view for a player that searches (``needs_state = True``, see bots.py).

    It is a :class:`View` of the seat (everything a view offers, nothing more)
    that can also deal *worlds*: :meth:`resample` gives a whole game in which
    every card the seat cannot see is dealt afresh, so a search may play it
    forward with the engine. Two games that look the same to the seat give the
    same worlds from the same generator, so nothing the seat cannot know
    reaches the player through it.
    """

    __slots__ = ()

    @property
    def game(self):
        """The compiled game (static rules and player count; no cards in play)."""
        return self._state.game

    def resample(self, rng, *, record: bool | None = None):
        """A world the seat cannot tell from this game (``State.resample_from_view``),
        its own chance reseeded from ``rng``: a copy the player may play forward.
        ``record=False``: the world records no events (faster, for a player that
        never reads them)."""
        return self._state.resample_from_view(self.seat, rng, record=record)


def _unseen(state, seat: int) -> None:
    """The view of a player that never looks (``needs_view = False``): none at all."""
    return None


def view_maker(player):
    """How ``player`` is shown the game, by the player protocol (bots.py): SearchView
    for a player with ``needs_state = True``, nothing for one with ``needs_view =
    False``, else View. Each is called as ``maker(state, seat)``; a game loop asks once
    per player, not once per decision."""
    if getattr(player, "needs_state", False):
        return SearchView
    if not getattr(player, "needs_view", True):
        return _unseen
    return View


def view_for(player, state, seat: int):
    """What a player is handed with a decision (see :func:`view_maker`)."""
    return view_maker(player)(state, seat)


def decision_for(decision):
    """What a player is handed of a decision: its seat, kind, options and what it is
    about (``info``), not what the options mean to the rules (``values``, ``then``: the
    cards themselves, some face down to the player, such as the rest of the pile behind
    the cards it puts in order, or the hand it picks from blind)."""
    return Decision(decision.seat, decision.kind, decision.options, None, decision.info)
