"""What one seat may know: the views handed to players.

A :class:`View` is a snapshot of everything one seat may know of a game, made
when the player is asked: its own hand, the public zones, how many cards every
other player holds (and which of them this seat has seen and can still place),
the cards of the draw pile this seat knows the place of, and the public turn
state. It holds copies only: nothing in it leads back to the real game, so a
player from a user's module (``--bots mypkg:Greedy``) cannot read the other
hands through it, however it looks (attributes, ``__dict__``, ``__slots__``,
``gc.get_referents``).

A :class:`SearchView` is such a view for a player that searches: it can also
deal *worlds* (:meth:`SearchView.resample`), from a world of its own dealt once
from the seat's view, never from the real game.

:class:`LiveView` reads a live state when asked and copies nothing: the
engine's own players use it inside worlds a search deals (a rollout asks
thousands of times), never a player handed a real game's view.
"""

from __future__ import annotations

import random

from ..lang.machine import Decision
from .table import PUBLIC


class _Face:
    """What every view offers, from the few primitives each kind of view keeps."""

    __slots__ = ()

    def holds(self, titles) -> bool:
        """Whether this seat's hand holds a card of one of ``titles`` (a set of card
        ids): a question about :attr:`hand` that needs no list of it."""
        return any(card_id in titles for card_id in self.hand)

    def known_at(self, place: int) -> str | None:
        """The card at ``place`` of the draw pile (0 = top) if this seat knows it, else None."""
        return self.draw_pile_known().get(place)

    def to_dict(self) -> dict:
        """The whole view as plain data (JSON-ready)."""
        others = {seat: {"count": self.hand_count(seat), "known": self.known_in_hand(seat)}
                  for seat in range(self.players) if seat != self.seat}
        decision = self.decision
        counters = self.counters
        return {
            "seat": self.seat,
            "turn": {"seat": self.current, "number": self.turn_number, "owed": self.owed,
                     "direction": self.direction},
            "alive": self.alive,
            "hand": self.hand,
            "others": others,
            "draw_pile": {"count": self.draw_pile_count, "known": self.draw_pile_known()},
            "discard_pile": self.discard_pile,
            "removed": self.removed,
            "zones": {name: self.zone(name) for name in self.zone_names},
            "areas": {name: {seat: self.zone(name, seat) for seat in range(self.players)}
                      for name in self.area_names},
            "decision": decision.to_dict() if decision is not None else None,
            "finished": self.finished,
            "winner": self.winner,
            # per-player counters (hidden values as None); shown only by editions that declare some
            **({"counters": counters} if counters else {}),
            # teams dealt at random (`dealt: random` or `secret`): each seat's, None where secret
            **({"teams": self.teams} if self.teams is not None else {}),
        }


def counters_seen(table, seat: int | None) -> dict:
    """The counters as ``seat`` may see them (None: a spectator, who sees only what everyone
    may): name -> one value per seat, None where it may not know a hidden counter's value."""
    return _counters_seen(table, 0 if seat is None else 1 << seat)


def _counters_seen(table, bit: int) -> dict:
    """The counters as ``bit``'s seat sees them: every value of a public counter; of a
    counter declared `visible: owner` or `nobody`, None where the seat may not know it."""
    hidden = table.hidden_counters
    if not hidden:
        return {name: list(values) for name, values in table.counters.items()}
    seers = table.counter_seers
    return {name: list(values) if name not in hidden else
            [value if seers(name, seat) & bit else None for seat, value in enumerate(values)]
            for name, values in table.counters.items()}


def _teams_seen(table, seat: int) -> list | None:
    """Each seat's team as ``seat`` knows it, for teams dealt at random (None for none, or
    for teams dealt in turn, which the seats tell): of secret teams, its own only."""
    if not table.teams or getattr(table.edition, "teams_dealt", "in_turn") == "in_turn":
        return None
    if table.secret_teams:
        return [team if other == seat else None for other, team in enumerate(table.team_list)]
    return list(table.team_list)


def _zone_seen(zone, bit: int) -> dict:
    """A zone as ``bit``'s seat sees it: a public one's cards, else its size and the
    places it knows."""
    if zone.kind == PUBLIC:
        return {"cards": [inst.id for inst in zone.cards]}
    return {"count": len(zone.cards),
            "known": {i: inst.id for i, inst in enumerate(zone.cards) if inst.known & bit}}


class View(_Face):
    """A snapshot of what ``seat`` may know of ``state``, made now (see the module's
    docstring): plain copies, no way back to the game."""

    __slots__ = ("seat", "players", "current", "turn_number", "direction", "finished", "winner",
                 "_alive", "_owed", "_hand", "_counts", "_seen", "_pile_count", "_pile_known",
                 "_discard", "_removed", "_zones", "_areas", "_counters", "_decision", "_teams")

    def __init__(self, state, seat: int) -> None:
        table = state.table
        bit = 1 << seat
        self.seat = seat
        self.players = table.players
        self.current, self.turn_number, self.direction = table.current, table.turn, table.direction
        self.finished, self.winner = table.finished, table.winner
        self._alive, self._owed = list(table.alive), list(table.owed)
        hands = table.hands
        self._hand = [inst.id for inst in hands[seat].cards]
        self._counts = [len(hand.cards) for hand in hands]
        self._seen = [sorted(inst.id for inst in hand.cards if inst.known & bit) if other != seat else []
                      for other, hand in enumerate(hands)]
        pile = table.draw_pile.cards
        self._pile_count = len(pile)
        self._pile_known = {index: inst.id for index, inst in enumerate(pile) if inst.known & bit}
        self._discard = [inst.id for inst in table.discard_pile.cards]
        self._removed = [inst.id for inst in table.removed.cards]
        self._zones = {name: _zone_seen(zone, bit) for name, zone in table.extra.items()}
        self._areas = {name: [_zone_seen(zone, bit) for zone in zones] for name, zones in table.areas.items()}
        self._counters = _counters_seen(table, bit)
        self._teams = _teams_seen(table, seat)
        pending = state.decision()
        self._decision = decision_for(pending) if getattr(pending, "seat", None) == seat else None

    @property
    def alive(self) -> list[bool]:
        return list(self._alive)

    @property
    def owed(self) -> list[int]:
        return list(self._owed)

    @property
    def hand(self) -> list[str]:
        return list(self._hand)

    def holds(self, titles) -> bool:
        return any(card_id in titles for card_id in self._hand)

    def hand_count(self, seat: int) -> int:
        return self._counts[seat]

    def known_in_hand(self, seat: int) -> list[str]:
        """Cards of another player's hand this seat has seen and can still place."""
        return list(self._seen[seat])

    @property
    def draw_pile_count(self) -> int:
        return self._pile_count

    def draw_pile_known(self) -> dict[int, str]:
        """Place (0 = top) -> card id, for the places of the draw pile this seat knows."""
        return dict(self._pile_known)

    def known_at(self, place: int) -> str | None:
        return self._pile_known.get(place)

    @property
    def discard_pile(self) -> list[str]:
        return list(self._discard)

    @property
    def removed(self) -> list[str]:
        return list(self._removed)

    @property
    def zone_names(self) -> list[str]:
        return list(self._zones)

    @property
    def area_names(self) -> list[str]:
        return list(self._areas)

    def zone(self, name: str, seat: int | None = None) -> dict:
        """A shared zone, or with ``seat`` that seat's copy of a per-player zone."""
        seen = self._zones[name] if seat is None else self._areas[name][seat]
        return {key: (list(value) if type(value) is list else dict(value)) if key != "count" else value
                for key, value in seen.items()}

    @property
    def counters(self) -> dict:
        """Per-player counters: name -> one value per seat (None where a counter declared
        `visible: owner` or `nobody` is not this seat's to know)."""
        return {name: list(values) for name, values in self._counters.items()}

    @property
    def decision(self):
        """The decision this seat must make now, if any (as :func:`decision_for` gives it)."""
        return self._decision

    @property
    def teams(self) -> list | None:
        """Each seat's team, for teams dealt at random (None where this seat may not know
        it: of secret teams it knows its own only); None for teams dealt in turn or none."""
        return None if self._teams is None else list(self._teams)


class LiveView(_Face):
    """What ``seat`` may know of a live ``state``, read when asked (nothing copied up
    front). For the engine's own players inside dealt worlds; a player handed a real
    game's view gets a :class:`View`."""

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

    @property
    def zone_names(self) -> list[str]:
        return list(self._state.table.extra)

    @property
    def area_names(self) -> list[str]:
        return list(self._state.table.areas)

    @property
    def counters(self) -> dict:
        """Per-player counters: name -> one value per seat (None where a counter declared
        `visible: owner` or `nobody` is not this seat's to know)."""
        return _counters_seen(self._state.table, self._bit)

    @property
    def teams(self) -> list | None:
        """Each seat's team, for teams dealt at random (see :attr:`View.teams`)."""
        return _teams_seen(self._state.table, self.seat)


class SearchView(View):
    """A view for a player that searches (``needs_state = True``, see bots.py).

    It is a :class:`View` of the seat (everything a view offers, nothing more)
    that can also deal *worlds*: :meth:`resample` gives a whole game in which
    every card the seat cannot see is dealt afresh, so a search may play it
    forward with the engine. It keeps no reference to the real game: on making,
    it deals one world from the real game (``State.resample_from_view``, from a
    fixed generator) and deals every later world from that one, which the seat
    cannot tell from the real game either. Two games that look the same to the
    seat give the same worlds from the same generator, so nothing the seat
    cannot know reaches the player through it.
    """

    __slots__ = ("_world",)

    def __init__(self, state, seat: int) -> None:
        super().__init__(state, seat)
        # the cards the seat cannot see are dealt once, by a generator that depends on
        # nothing (only the counts of those cards decide this world, as in any resample)
        self._world = state.resample_from_view(seat, random.Random(0))

    @property
    def game(self):
        """The compiled game (static rules and player count; no cards in play)."""
        return self._world.game

    def resample(self, rng, *, record: bool | None = None, uniform: bool = False):
        """A world the seat cannot tell from this game (``State.resample_from_view``),
        its own chance reseeded from ``rng``: a copy the player may play forward.
        ``record=False``: the world records no events (faster, for a player that
        never reads them). ``uniform=True``: the hidden cards dealt uniformly, not
        only where the rules allow them (worlds.py)."""
        return self._world.resample_from_view(self.seat, rng, record=record, uniform=uniform)


def _unseen(state, seat: int) -> None:
    """The view of a player that never looks (``needs_view = False``): none at all."""
    return None


def view_maker(player):
    """How ``player`` is shown the game, by the player protocol (bots.py): SearchView
    for a player with ``needs_state = True``, nothing for one with ``needs_view =
    False``, else View. Each is called as ``maker(state, seat)``; a game loop asks once
    per player, not once per decision.

    The engine's own heuristic bot (that very class, not a subclass: a subclass may
    be anyone's) is handed a :class:`LiveView`, which copies nothing: a snapshot
    for each of its decisions would slow a game of heuristic bots by a tenth."""
    if getattr(player, "needs_state", False):
        return SearchView
    if not getattr(player, "needs_view", True):
        return _unseen
    if type(player) is _trusted():
        return LiveView
    return View


def _trusted():
    from .bots import HeuristicBot  # bots.py needs nothing of views.py; imported late all the same
    return HeuristicBot


def view_for(player, state, seat: int):
    """What a player is handed with a decision (see :func:`view_maker`)."""
    return view_maker(player)(state, seat)


def decision_for(decision):
    """What a player is handed of a decision: its seat, kind, options and what it is
    about (``info``), not what the options mean to the rules (``values``, ``then``: the
    cards themselves, some face down to the player, such as the rest of the pile behind
    the cards it puts in order, or the hand it picks from blind)."""
    return Decision(decision.seat, decision.kind, decision.options, None, decision.info)
