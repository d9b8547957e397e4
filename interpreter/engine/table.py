"""The table: every card, zone and seat of one game, and who knows what.

This is the physical state of a game and nothing else: the flow of turns,
plays and answers lives in ``game.py`` and ``flow.py``. Every change goes through a method
here, which keeps three things true at once:

* each card is in exactly one zone (cards are conserved);
* each card carries a bit mask of the seats that know both its face and its
  exact place (``CardInst.known``); views are built from these bits only;
* each change is recorded as an event (see ``events.py``) with the card faces
  shown only to the seats that see them.

Knowledge rules, in short: a hand's owner knows its cards; public zones show
their cards to all; a card put into the draw pile at a place only its chooser
knows is known to the chooser alone, and every other seat loses track of the
pile's order (they cannot tell which cards moved down); a hidden card leaving a
hand unseen is known to its owner and its receiver, and everyone else loses track
of it and of that hand, whatever they knew of it before (``_left_hand``);
shuffling forgets everything except face-up cards.
"""

from __future__ import annotations

import random
import sys
import weakref

from ..lang.limits import NUMBER_LIMIT
from ..lang.machine import Stop, shuffle
from ..lang.values import HAND, PILE, PUBLIC, PrivateInt, as_secret_as  # noqa: F401 (re-exported)
from .events import EventLog, places_of


class CardInst:
    """One physical card: ``card`` is its compiled definition (model.Card)."""

    __slots__ = ("uid", "card", "id", "zone", "known", "face_up", "was_face_up", "played_by")

    def __init__(self, uid: int, card, zone=None) -> None:
        self.uid = uid
        self.card = card
        self.id = card.id
        self.zone = zone
        self.known = 0
        self.face_up = False
        self.was_face_up = False  # whether it lay face up before its last move
        self.played_by = None  # the seat that last played it

    def __repr__(self) -> str:
        return f"<{self.id}#{self.uid}>"


class Zone:
    """An ordered list of cards; index 0 is the top."""

    __slots__ = ("name", "kind", "owner", "cards", "reactive")

    def __init__(self, name: str, kind: str, owner: int | None = None) -> None:
        self.name, self.kind, self.owner = name, kind, owner
        self.cards: list[CardInst] = []
        self.reactive = 0  # how many of its cards can answer a play (kept by Table.move)

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        return f"<zone {self.name}: {len(self.cards)}>"


def face_up_places(cards: list) -> dict:
    """Place (as a JSON key) -> card id of the face-up cards of a pile (what anyone can count)."""
    places = {}
    for place, inst in enumerate(cards):
        if inst.face_up:
            places[str(place)] = inst.id
    return places


def _card_facts(edition) -> tuple:
    """What a table needs to know of an edition's cards, worked out once per edition:
    whether any has a distinct back, whether any has a home (`returns_to`), and the
    ids of those that can answer a play."""
    found = _FACTS.get(id(edition))
    if found is not None and found[0]() is edition:
        return found[1]
    cards = getattr(edition, "cards", {})
    facts = (any(card.back_distinct for card in cards.values()),
             # cards with a home never reach the discard pile: see move()
             any(card.returns_to for card in cards.values()),
             # cards that can answer a play: each zone counts them, so a reaction
             # window sees at once whether anyone could answer
             frozenset(card_id for card_id, card in cards.items() if card.when in ("reaction", "any_time")))
    key = id(edition)
    try:  # the entry goes when the edition does
        _FACTS[key] = (weakref.ref(edition, lambda _: _FACTS.pop(key, None)), facts)
    except TypeError:  # an object without weak references: work it out each time
        pass
    return facts


#: id(edition) -> (a weak reference to it, its _card_facts)
_FACTS: dict = {}


def _zone_key(zone: Zone) -> str:
    """How a trigger names a zone: any hand is `hand`, any copy of a per-player zone its
    name, a shared zone its name."""
    if zone.owner is None:
        return zone.name
    return "hand" if zone.kind == HAND else zone.name.rsplit(" ", 1)[0]


def _lose_copies(held: list, card_id: str, unsure: int) -> None:
    """A card of title ``card_id`` left a hand in sight of all: a seat in ``unsure``
    that knew another copy of this title there, but not this one, cannot tell which
    copy left, so it loses track of both."""
    for other in held:
        if other.known & unsure and other.id == card_id:  # most cards are known to nobody else
            other.known &= ~unsure


def _emptied_hands(cards: list) -> list:
    """The hands every card of which is among ``cards`` (a move that takes a whole hand
    lets everyone tell which cards left it: all of them)."""
    taking: dict = {}
    for inst in cards:
        zone = inst.zone
        if zone.kind == HAND:
            taking[zone] = taking.get(zone, 0) + 1
    return [zone for zone, count in taking.items() if count == len(zone.cards)]


def _copy_zone(original: Zone, memo: dict) -> Zone:
    """A copy of a zone with copies of its cards (for Table.copy); ``memo`` maps the id of
    the zone and of each card to its copy."""
    twin = Zone(original.name, original.kind, original.owner)
    twin.reactive = original.reactive
    made = twin.cards
    for inst in original.cards:
        copy = CardInst.__new__(CardInst)
        copy.uid, copy.card, copy.id, copy.known = inst.uid, inst.card, inst.id, inst.known
        copy.face_up, copy.was_face_up, copy.played_by = inst.face_up, inst.was_face_up, inst.played_by
        copy.zone = twin
        memo[id(inst)] = copy
        made.append(copy)
    memo[id(original)] = twin
    return twin


#: whether this module runs compiled (setup.py): its extension's file name does not end in .py
_COMPILED = not __file__.endswith(".py")


def copy_rng(rng) -> random.Random:
    """A generator in ``rng``'s state, made without running Random.__init__ (a second
    seeding, in Python). Compiled, the state is copied in C (table.pxd's mt_copy_into);
    in pure Python on CPython, as the same bytes (:func:`_state_copier`); else, or for
    a generator of another kind, through getstate and setstate."""
    other = random.Random.__new__(random.Random, 0)
    if type(rng) is random.Random and (
            mt_copy_into(rng, other) if _COMPILED else _COPY_STATE is not None and _COPY_STATE(rng, other)):  # noqa: F821 - C, table.pxd
        other.gauss_next = rng.gauss_next
    else:
        other.setstate(rng.getstate())
    return other


def _state_copier():
    """For the pure-Python core on CPython: a function that copies one generator's
    Mersenne Twister state (its index and 624 words, which follow the object's header
    in CPython's ``_random.Random``) into another's memory, as the compiled core does
    in C: getstate() and setstate() make and read 625 integers, a quarter of a copied
    game. None where that layout cannot be relied on: another Python, a base class of
    another size, or a copy that does not come out equal (tried once, here)."""
    if sys.implementation.name != "cpython":
        return None
    base = random.Random.__base__
    header, size = object.__basicsize__, 4 + 624 * 4  # the index (a C int), then the words
    if (base.__module__, base.__name__) != ("_random", "Random") or \
            not size <= base.__basicsize__ - header < size + 8:  # (padded to a multiple of 8)
        return None
    try:
        from ctypes import memmove
    except ImportError:  # a Python built without ctypes
        return None

    def copy_into(source, target) -> bool:
        memmove(id(target) + header, id(source) + header, size)
        return True

    probe, twin = random.Random(29), random.Random(0)
    probe.random()
    copy_into(probe, twin)
    twin.gauss_next = probe.gauss_next
    return copy_into if twin.getstate() == probe.getstate() and twin.random() == probe.random() else None


#: copies a generator's state into another's memory (pure Python on CPython), or None
_COPY_STATE = None if _COMPILED else _state_copier()


class GameOver(Stop):
    """Raised when the game has been decided; ends every running effect (the effect
    machine turns it into a STOPPED return where an effect ran it: machine.Stop)."""


class Table:
    """Zones, seats, owed turns and knowledge of one game."""

    def __init__(self, edition, players: int, seed: int, record: bool = True) -> None:
        self.edition = edition
        self.players = players
        self.everyone = (1 << players) - 1
        self.rng = random.Random(seed)
        self.log = EventLog(record, self.everyone)
        self.draw_pile = Zone("draw_pile", PILE)
        self.discard_pile = Zone("discard_pile", PUBLIC)
        self.removed = Zone("removed", PUBLIC)
        self.set_aside = Zone("set_aside", PUBLIC)
        # the names are interned: every game then names a hand with the same string, which
        # a log writer that remembers rows compares by identity
        self.hands = [Zone(sys.intern(f"hand {seat}"), HAND, seat) for seat in range(players)]
        zones = getattr(edition, "zones", {})
        self.extra = {name: Zone(name, PUBLIC if spec.get("public", True) else PILE)
                      for name, spec in zones.items() if not spec.get("per_player")}
        # per-player zones: name -> one zone per seat (the cards in front of each player)
        self.areas = {name: [Zone(sys.intern(f"{name} {seat}"), PUBLIC if spec.get("public", True) else PILE, seat)
                             for seat in range(players)]
                      for name, spec in zones.items() if spec.get("per_player")}
        self.cards: list[CardInst] = []
        self._marked, self._homes, self._reactive = _card_facts(edition)
        self.alive = [True] * players
        self.owed = [0] * players
        self.attacked = [False] * players  # owes turns because of an attack
        # of the turns each seat owes, how many are extra turns (`extra_turns`): taken last,
        # and never passed on by an attack
        self.bonus = [0] * players
        # turns to pass over (`pass_over`): how many times play passing on goes past each seat,
        # and their sum, so that a game without any pays one test per turn passed on
        self.passed = [0] * players
        self.passes = 0
        self.turn_seat = 0  # whose turn began last: the turn under way, or the one just ended
        # rounds (`round_number`): a round is over once every player still in has begun a
        # turn in it, and the next begins as play passes to another player; `round_left` is
        # the bit mask of the players still in who have not yet begun a turn in this one
        self.round = 0
        self.round_left = 0
        self.round_turn = 0  # the number of the turn that began the round under way
        # history for the effects' queries: (seat, card) of each card played this turn, in
        # order, and the cards of the last play that put cards down (a card, combo or answer)
        self.turn_plays: list = []
        self.last_turn_plays: list = []  # turn_plays of the turn before the one under way
        self.gone_out: list = []  # the seats that are out, in the order they went out
        self.last_play: list = []
        self.current = 0
        self.direction = 1
        self._orders: dict = {}  # (seat, direction) -> seats in turn order; reset on elimination
        self.turn = 0
        self.turn_ended = False
        self.finished = False
        self.end_reason: str | None = None  # why the game ended: "ended", "turn_limit", ...
        self.winner: int | None = None
        self.winners: tuple = ()  # every winning seat: one, or a whole team
        self.teams = getattr(edition, "teams", 0)
        self.together = self.teams and getattr(edition, "teams_together", False)
        # each seat's team: in turn (seat s on team s % teams), or dealt at random from the seed
        # (`dealt: random`, or `secret`: each player then knows only their own)
        self.team_list = [seat % self.teams for seat in range(players)] if self.teams else []
        dealt = getattr(edition, "teams_dealt", "in_turn") if self.teams else "in_turn"
        if dealt != "in_turn":
            shuffle(self.rng, self.team_list)
        self.secret_teams = dealt == "secret"
        # per-player counters (scores, tokens, marks): name -> one value per seat, and bounds
        counters = getattr(edition, "counters", {})
        self.counters = {name: [spec.get("start", 0)] * players for name, spec in counters.items()}
        self.bounds = {name: (spec.get("min", -NUMBER_LIMIT), spec.get("max", NUMBER_LIMIT))
                       for name, spec in counters.items()}
        # counters not everyone may see (`visible: owner` or `nobody`): name -> who may
        self.hidden_counters = {name: spec["visible"] for name, spec in counters.items()
                                if spec.get("visible", "everyone") != "everyone"}
        # moments for the edition's triggers (engine/moments.py): what to watch, and what
        # happened during the action under way, as (moment, seat, card, zone) in order
        self.watch: frozenset = frozenset()  # (moment, zone) pairs watched as cards move
        self.outs: frozenset = frozenset()  # of player_out / player_back, when triggers use them
        self.moments: list = []
        self.at_end = None  # the state's hook run when the game is decided (game_end, scores)
        self.uses: dict = {}  # (free action id, seat) -> [last turn taken, times then, times in all]
        self.ending = False  # that hook is running: nothing can end the game again

    def copy(self, memo: dict, record: bool = True) -> "Table":
        """An independent copy of the table; ``memo`` maps the id of every card and zone
        to its copy, so that the game's frames can be carried over (machine.remap).
        ``record=False``: the copy keeps and records no events."""
        other = Table.__new__(Table)
        # the values that never change in place, shared (assigned one by one: a copy is made
        # at every decision of a search, and a loop of getattr and setattr costs twice this)
        other.edition, other.players, other.everyone = self.edition, self.players, self.everyone
        other._marked, other._homes, other._reactive = self._marked, self._homes, self._reactive
        other.current, other.direction, other.turn = self.current, self.direction, self.turn
        other.turn_ended, other.finished, other.winner = self.turn_ended, self.finished, self.winner
        other.end_reason = self.end_reason
        other.winners, other.teams, other.together = self.winners, self.teams, self.together
        other.bounds, other.watch, other.outs, other.ending = self.bounds, self.watch, self.outs, self.ending
        other.hidden_counters = self.hidden_counters
        other.team_list, other.secret_teams = self.team_list, self.secret_teams  # never changed in place
        other.alive, other.owed, other.attacked = list(self.alive), list(self.owed), list(self.attacked)
        other.bonus, other.turn_seat = list(self.bonus), self.turn_seat
        other.round, other.round_left, other.round_turn = self.round, self.round_left, self.round_turn
        other.passed, other.passes = list(self.passed), self.passes
        other.counters = {name: list(values) for name, values in self.counters.items()}
        other.uses = {key: list(value) for key, value in self.uses.items()}
        other.at_end = None  # the copied state sets its own
        other._orders = {}
        # made without running Random.__init__ (a second seeding, in Python), then given
        # this one's state
        other.rng = copy_rng(self.rng)
        other.log = self.log.copy() if record else EventLog(False, self.everyone)
        # zone by zone, each card copied into its zone's copy (every card is in one zone)
        other.draw_pile, other.discard_pile = _copy_zone(self.draw_pile, memo), _copy_zone(self.discard_pile, memo)
        other.removed, other.set_aside = _copy_zone(self.removed, memo), _copy_zone(self.set_aside, memo)
        other.hands = [_copy_zone(hand, memo) for hand in self.hands]
        other.extra = {name: _copy_zone(z, memo) for name, z in self.extra.items()}
        other.areas = {name: [_copy_zone(z, memo) for z in zones] for name, zones in self.areas.items()}
        other.cards = [memo[id(inst)] for inst in self.cards]
        other.turn_plays = [(seat, memo[id(inst)]) for seat, inst in self.turn_plays]
        other.last_turn_plays = [(seat, memo[id(inst)]) for seat, inst in self.last_turn_plays]
        other.gone_out = list(self.gone_out)
        other.last_play = [memo[id(inst)] for inst in self.last_play]
        other.moments = [(kind, seat, memo.get(id(card), card), key) for kind, seat, card, key in self.moments]
        memo[id(self)] = other
        return other

    # -- building -------------------------------------------------------------
    def new_card(self, card, zone: Zone) -> CardInst:
        inst = CardInst(len(self.cards), card)
        self.cards.append(inst)
        inst.zone = zone
        zone.cards.append(inst)
        if inst.id in self._reactive:
            zone.reactive += 1
        inst.known = self.everyone if card.back_distinct and zone.kind == HAND else self._zone_bits(zone)
        return inst

    def fill(self, cards: list, zone: Zone) -> None:
        """Put new cards (``cards``: their definitions, top first) at the bottom of a pile
        nobody sees into: the deck at the start of a game."""
        # each card made without its __init__ (compiled: a C struct filled in C), as CardInst
        # would make it: some fifty cards at every deal
        made = []
        uid = len(self.cards)
        reactive, answering = self._reactive, 0
        for card in cards:
            inst = CardInst.__new__(CardInst)
            inst.uid, inst.card, inst.id, inst.zone = uid, card, card.id, zone
            inst.known, inst.face_up, inst.was_face_up, inst.played_by = 0, False, False, None
            made.append(inst)
            uid += 1
            if inst.id in reactive:
                answering += 1
        zone.cards.extend(made)
        self.cards.extend(made)
        zone.reactive += answering

    def count_reactive(self) -> None:
        """Count every zone's cards that can answer a play afresh (after cards change face)."""
        reactive = self._reactive
        for zone in self.zones():
            zone.reactive = sum(1 for inst in zone.cards if inst.id in reactive)

    def announce(self) -> None:
        """Record how the table starts: each zone's size, and its cards for those who see them."""
        if not self.log.record:
            return
        for zone in self.zones():
            if zone.cards:
                seers = self._zone_bits(zone)
                self.log.emit("zone", zone=zone.name, count=len(zone.cards),
                              cards=[inst.id for inst in zone.cards],
                              secret=None if seers == self.everyone else {"cards": seers})
        if self._marked:  # cards whose backs give them away are known in any hand
            marked = [inst for hand in self.hands for inst in hand.cards if inst.card.back_distinct]
            if marked:
                self.reveal(marked)

    def zones(self) -> list[Zone]:
        return [self.draw_pile, self.discard_pile, self.removed, self.set_aside,
                *self.hands, *self.extra.values(), *(z for zs in self.areas.values() for z in zs)]

    def areas_of(self, seat: int):
        """The per-player zones that belong to ``seat``."""
        return [zones[seat] for zones in self.areas.values()]

    def _zone_bits(self, zone: Zone) -> int:
        if zone.kind == PUBLIC:
            return self.everyone
        if zone.kind == HAND:
            return 1 << zone.owner
        return 0

    # -- seats ----------------------------------------------------------------
    def seats_from(self, seat: int) -> list[int]:
        """Seats still in the game in turn order, starting with ``seat`` (do not modify)."""
        key = (seat, self.direction)
        order = self._orders.get(key)
        if order is None:
            n, step = self.players, self.direction
            alive = self.alive
            order = self._orders[key] = [s for s in [(seat + i * step) % n for i in range(n)] if alive[s]]
        return order

    def next_seat(self, seat: int) -> int:
        n, step = self.players, self.direction
        for i in range(1, n + 1):
            candidate = (seat + i * step) % n
            if self.alive[candidate]:
                return candidate
        return seat

    # -- moving cards ---------------------------------------------------------
    def move(self, cards: list, to: Zone, at: int = 0, face_up: bool = False, in_sight=None) -> None:
        """Move cards into ``to`` at place ``at`` (0 = top), keeping knowledge honest.

        A card with a home (`returns_to`) that would go to the discard pile goes
        home instead, whoever moves it and why: played, spent, or discarded with
        a hand that exploded.

        ``in_sight``: card uid -> the seats that have just seen that card (the effect
        making the move showed it): they see it leave its hand, as in the triple's
        "name a card; it is handed over" (see :meth:`_left_hand`).

        This runs about seventy times a game (a hundred and thirty cards), so the
        per-card loop does only what the card needs; what depends on the
        destination alone is worked out once per call.
        """
        if len(cards) == 1 and not face_up and not self.watch:
            # the commonest moves, one card each, worked out as the loop below would: a card
            # drawn from a pile into a hand, and a card played from a hand to a public zone
            inst = cards[0]
            source = inst.zone
            if not (self._marked and inst.card.back_distinct):
                origin, kind = source.kind, to.kind
                if origin == PILE and kind == HAND:
                    self._drawn(inst, source, to, at)
                    return
                if origin == HAND and kind == PUBLIC and not (self._homes and inst.card.returns_to):
                    self._shown(inst, source, to, at)
                    return
        elif not cards:
            return
        if self._homes and to is self.discard_pile:
            homes = [inst for inst in cards if inst.card.returns_to]
            if homes:
                self.move([inst for inst in cards if not inst.card.returns_to], to, at, face_up, in_sight)
                for inst in homes:
                    self.move([inst], self.extra[inst.card.returns_to])
                return
        kind = to.kind
        everyone = self.everyone
        if kind == PUBLIC:
            face_up = False  # a public zone shows every card anyway
        # who sees which card lands: everyone (public, or face up), a hand's owner, or nobody
        shown = everyone if (kind == PUBLIC or face_up) else (1 << to.owner) if kind == HAND else 0
        marked = everyone if kind == HAND else shown  # a distinct back is seen in any hand
        secret_place = kind == PILE and isinstance(at, PrivateInt)
        place_knowers = at.knower if secret_place else everyone
        # a face-down card in a pile is placed only for those who know the place
        hidden_place = kind == PILE and not face_up
        if at:  # a place below the top, kept within the zone (a secret place becomes a plain int)
            size, at = len(to.cards), int(at)
            at = 0 if at < 0 else size if at > size else at
        else:
            at = 0
        record = self.log.record
        reactive, marked_backs = self._reactive, self._marked
        into = to.cards
        watch = self.watch
        # hands this move empties (a whole hand handed over): which cards left is no secret
        emptied = _emptied_hands(cards) if len(cards) > 1 else None
        for offset, inst in enumerate(cards):
            source = inst.zone
            if watch:
                self._note_move(inst, source, to)
            if reactive and inst.id in reactive:
                source.reactive -= 1
                to.reactive += 1
            held = source.cards
            # most cards leave from the top of a pile (a draw): no search needed
            was_at = 0 if held[0] is inst else held.index(inst)
            del held[was_at]
            # a whole hand going: what seats know of the cards still there need not be looked
            # at as each leaves (each gets its own below), so the move walks the hand once
            whole = emptied is not None and source in emptied
            if marked_backs and inst.card.back_distinct:
                seen = self._seen_leaving(inst, source, marked == everyone, not whole) | marked
            elif shown == everyone or source.kind == PUBLIC:
                # everyone sees which card left (_seen_leaving's first case, inline: the
                # commonest move, a card played from a hand or dealt face up)
                if source.kind == HAND and not whole:
                    unsure = everyone & ~inst.known & ~(1 << source.owner)
                    if unsure:
                        _lose_copies(held, inst.id, unsure)
                seen = everyone
            elif source.kind == PILE:  # a draw: the place it left from is public
                seen = inst.known | shown
            elif whole:
                seen = inst.known | (1 << source.owner) | shown
            else:
                seen = self._left_hand(inst, source, shown, in_sight.get(inst.uid, 0) if in_sight else 0)
            inst.known = seen & place_knowers if hidden_place else seen
            inst.was_face_up, inst.face_up = inst.face_up, face_up
            into.insert(at + offset, inst)
            inst.zone = to
            places = None
            if secret_place:  # at once: the next card's event must not name it to them
                # a card put in a secret place: face-up cards can still be counted from the
                # top (ruling 12), so the event names them (found in the same pass)
                places = {} if record else None
                for place, other in enumerate(into):
                    if not other.face_up:
                        other.known &= place_knowers
                    elif record:
                        places[str(place)] = other.id
            if record:  # the place a card leaves a pile from is public; from elsewhere it is not told
                self.log.move(inst.id, source.name, was_at if source.kind == PILE else None, to.name,
                              at + offset, face_up, inst.was_face_up and source.owner is not None, seen,
                              place_knowers, places or None)

    def _drawn(self, inst: CardInst, source: Zone, to: Zone, at) -> None:
        """``move([inst], to, at)`` for a card without a distinct back going from a pile into
        a hand, nothing watched: the owner sees it, the place it left is public."""
        into = to.cards
        if at:  # a place below the top, kept within the hand
            size, at = len(into), int(at)
            at = 0 if at < 0 else size if at > size else at
        else:
            at = 0
        reactive = self._reactive
        if reactive and inst.id in reactive:
            source.reactive -= 1
            to.reactive += 1
        held = source.cards
        was_at = 0 if held[0] is inst else held.index(inst)
        del held[was_at]
        seen = inst.known | (1 << to.owner)
        inst.known = seen
        was_face_up = inst.was_face_up = inst.face_up
        inst.face_up = False
        into.insert(at, inst)
        inst.zone = to
        if self.log.record:
            self.log.move(inst.id, source.name, was_at, to.name, at, False, was_face_up and source.owner is not None,
                          seen, self.everyone, None)

    def _shown(self, inst: CardInst, source: Zone, to: Zone, at) -> None:
        """``move([inst], to, at)`` for a card without a distinct back or a home going from
        a hand into a public zone, nothing watched: everyone sees which card left."""
        into = to.cards
        if at:
            size, at = len(into), int(at)
            at = 0 if at < 0 else size if at > size else at
        else:
            at = 0
        reactive = self._reactive
        if reactive and inst.id in reactive:
            source.reactive -= 1
            to.reactive += 1
        held = source.cards
        del held[0 if held[0] is inst else held.index(inst)]
        everyone = self.everyone
        unsure = everyone & ~inst.known & ~(1 << source.owner)
        if unsure:
            _lose_copies(held, inst.id, unsure)
        inst.known = everyone
        was_face_up = inst.was_face_up = inst.face_up
        inst.face_up = False
        into.insert(at, inst)
        inst.zone = to
        if self.log.record:
            self.log.move(inst.id, source.name, None, to.name, at, False, was_face_up, everyone, everyone, None)

    def _note_move(self, inst: CardInst, source: Zone, to: Zone) -> None:
        """Queue the moments a watched move makes (before the card moves: the pile's
        last card leaving is still in it)."""
        watch, moments = self.watch, self.moments
        left, entered = _zone_key(source), _zone_key(to)
        # a shared zone's moment is about whoever's turn it is as the card moves: by the
        # time the moment runs, the move may have ended the turn (a defused kitten going back)
        if ("card_leaves", left) in watch:
            moments.append(("card_leaves", self.current if source.owner is None else source.owner, inst, left))
        if ("card_enters", entered) in watch:
            moments.append(("card_enters", self.current if to.owner is None else to.owner, inst, entered))
        if source is self.draw_pile and len(source.cards) == 1 and ("pile_empty", None) in watch:
            moments.append(("pile_empty", None, None, None))

    def _seen_leaving(self, inst: CardInst, source: Zone, shown: bool, walk: bool = True) -> int:
        """The seats that see which card left ``source`` (``inst``, already taken out of
        it), and what the seats that cannot tell lose track of.

        ``shown``: the card lands face up, so everyone sees which one it was. ``walk``
        False: the cards left in ``source`` are moved too, so what is known of them is
        not changed here.
        """
        kind = source.kind
        if shown or kind == PUBLIC or inst.known == self.everyone:
            if kind == HAND and walk:
                unsure = self.everyone & ~inst.known & ~(1 << source.owner)
                if unsure:
                    _lose_copies(source.cards, inst.id, unsure)
            return self.everyone
        if kind == PILE:
            return inst.known  # the place it left from is public
        owner = 1 << source.owner
        marked = self._marked
        for other in source.cards if walk else ():  # only the owner can tell which card left
            # a card turned face up in the hand, or with a distinct back, stays in sight
            if not (other.face_up or (marked and other.card.back_distinct)):
                other.known &= owner
        return owner

    def _left_hand(self, inst: CardInst, source: Zone, shown: int, sighted: int) -> int:
        """The seats that know ``inst`` after it left the hand ``source`` (it is already
        out of it) without landing in sight of all; ``shown``: the seats that see it
        land (a receiving hand's owner), ``sighted``: those that have just seen it.

        Which card of a hand leaves unseen is known to its owner, to whoever sees it
        land, to those who saw it a moment ago (``sighted``) and, when the card lies
        face up in the hand, to everyone. Any other seat knows only that some card
        left: it loses track of the moved card and of the hand's hidden cards, unless
        it knew every hidden card there and all were of this title (then any of them
        is as good as another). A seat that sees the card land but did not know it
        cannot tell it from copies of its title it knew of in the hand.
        """
        everyone, marked = self.everyone, self._marked
        held = source.cards
        owner = 1 << source.owner
        tellers = everyone if inst.face_up else owner | shown | sighted
        unsure = shown & ~inst.known & ~sighted & ~owner
        if unsure:
            _lose_copies(held, inst.id, unsure)
        blind = everyone & ~tellers
        if not blind:
            return inst.known | tellers
        keep = blind & inst.known
        for other in held:  # a card in sight in the hand (face up, a telling back) is no secret
            if keep and not (other.face_up or (marked and other.card.back_distinct)):
                keep = keep & other.known if other.id == inst.id else 0
        lose = blind & ~keep
        for other in held:
            if other.known & lose and not (other.face_up or (marked and other.card.back_distinct)):
                other.known &= ~lose
        return (inst.known & keep) | tellers

    def shuffle(self, zone: Zone, order: list[int] | None = None) -> None:
        """Put a zone in a random order (or the given permutation); knowledge resets."""
        if order is None:
            shuffle(self.rng, zone.cards)
        else:
            zone.cards[:] = [zone.cards[i] for i in order]
        if zone.kind != PUBLIC:
            base = self._zone_bits(zone)
            for inst in zone.cards:
                inst.known = self.everyone if inst.face_up else base
        if self.log.record:  # face-up cards stay in sight: where they landed is public
            places = face_up_places(zone.cards)
            self.log.shuffled(zone.name, len(zone.cards), places or None)

    def rearrange(self, cards: list, knowers: int) -> None:
        """Put ``cards`` (all in one zone) back into the places they fill, in this order.

        Only ``knowers`` learn the new order: every other seat forgets those
        cards, except face-up ones, which everyone watches move. One event, so
        nobody can follow the cards one by one.
        """
        zone = cards[0].zone
        slots = sorted(zone.cards.index(inst) for inst in cards)
        for slot, inst in zip(slots, cards):
            zone.cards[slot] = inst
            if not inst.face_up:
                inst.known &= knowers
        if self.log.record:
            event = {"zone": zone.name, "at": slots, "cards": [inst.id for inst in cards],
                     "secret": {"cards": knowers}}
            places = face_up_places(zone.cards)
            if places:
                event["face_up_places"] = places
            self.log.emit("rearranged", **event)

    def show(self, cards: list, seats: int, secret: bool = False) -> None:
        """Let the seats in the bit mask ``seats`` see the cards' faces and places (with
        ``secret``, nobody else learns that they did)."""
        for inst in cards:
            inst.known |= seats
        if cards:
            if secret:
                self.log.show_secretly(cards, seats)
            else:
                self.log.show(cards, seats)

    def reveal(self, cards: list) -> None:
        for inst in cards:
            inst.known = self.everyone
        if cards and self.log.record:  # places only within a pile: a hand's order is its owner's business
            places = places_of(cards)
            self.log.reveal([c.id for c in cards], [c.zone.name for c in cards],
                            [place if c.zone.kind == PILE else None for c, place in zip(cards, places)])

    # -- turns ----------------------------------------------------------------
    def start_turn(self, seat: int) -> None:
        left = self.round_left
        if not left and (seat != self.turn_seat or not self.round):  # a new round (a few ops a turn)
            left = self._new_round()
        self.round_left = left & ~(1 << seat)
        self.current = self.turn_seat = seat
        if self.turn_plays:  # the cards played this turn: none yet (those of the last kept)
            self.last_turn_plays, self.turn_plays = self.turn_plays, []
        elif self.last_turn_plays:  # the turn before played nothing
            self.last_turn_plays = []
        owed = self.owed[seat]
        if owed < 1:
            owed = self.owed[seat] = 1
        number = self.turn = self.turn + 1
        self.turn_ended = False
        if self.log.record:
            self.log.turn(seat, owed, number)

    def _new_round(self) -> int:
        """Begin a round (everyone still in has begun a turn in the last one, and play
        passes on): the mask of the players it waits for."""
        self.round += 1
        self.round_turn = self.turn + 1  # the turn about to begin begins the round
        left, alive = 0, self.alive
        for other in range(self.players):  # (a loop, not a generator: this is compiled)
            if alive[other]:
                left |= 1 << other
        return left

    def end_turn(self, seat: int, turns: int) -> None:
        """``seat`` ends ``turns`` of its owed turns; play passes on when none are left."""
        if seat != self.current or not self.alive[seat] or self.turn_ended:
            return
        owed = self.owed[seat] = max(0, self.owed[seat] - max(turns, 0))
        self.turn_ended = True
        if self.bonus[seat] > owed:  # extra turns are the last ones taken
            self.bonus[seat] = owed
        if self.log.record:
            self.log.end_turn(seat, owed)
        if owed == 0:
            self.attacked[seat] = False
            self.current = self.next_seat(seat) if not self.passes else self._passing_over(seat)

    def attack(self, attacker: int, victim: int, turns: int, stack: bool, answering: bool = False) -> None:
        """End the attacker's turns; the victim owes ``turns`` (+ the attacker's, stacked) and
        plays next. An attack made in answer to another card (``answering``) by a player whose
        turn it is not ends nobody's turn: the victim owes the turns, and the current turn goes
        on. Any other attack by a player whose turn it is not (a trigger's, a check's, a drawn
        card's) moves play to the victim: the turn under way ends, its player keeping the turns
        they still owe for when play comes back to them."""
        if attacker != self.current:
            if not answering:
                self._pass_play(attacker, victim, turns)
                return
            self.owed[victim] += turns
            self.attacked[victim] = True
            self.log.attacked(attacker, victim, self.owed[victim])
            return
        # the turns passed on: those owed to attacks, not extra turns (those end with the rest)
        extra = self.owed[attacker] - self.bonus[attacker] if stack and self.attacked[attacker] else 0
        self.owed[attacker] = self.bonus[attacker] = 0
        self.attacked[attacker] = False
        self.turn_ended = True
        self.owed[victim] += turns + extra
        self.attacked[victim] = True
        self.current = victim
        self.log.attacked(attacker, victim, self.owed[victim])

    def _pass_play(self, attacker: int, victim: int, turns: int) -> None:
        """An attack by someone whose turn it is not, outside an answer: the turn under way
        ends (counted as one of its player's owed turns, when it was still going on) and
        play moves to ``victim``, who owes ``turns`` more."""
        current = self.current
        if not self.turn_ended:
            self.turn_ended = True
            owed = self.owed[current] = max(0, self.owed[current] - 1)
            if self.bonus[current] > owed:
                self.bonus[current] = owed
            if owed == 0:
                self.attacked[current] = False
        self.owed[victim] += turns
        self.attacked[victim] = True
        self.current = victim
        self.log.attacked(attacker, victim, self.owed[victim])

    def pass_over(self, seat: int, turns: int) -> None:
        """The next ``turns`` times play passes on to ``seat``, it goes past them."""
        if turns < 1 or not self.alive[seat] or self.finished or self.ending:
            return
        self.passed[seat] += turns
        self.passes += turns
        self.log.emit("pass_over", seat=seat, turns=self.passed[seat])

    def _passing_over(self, seat: int) -> int:
        """Who plays after ``seat`` when some players are to be passed over: each passed over
        once, in turn order, until one is not (and never past ``seat`` itself)."""
        passed, nxt = self.passed, self.next_seat(seat)
        while passed[nxt] > 0 and nxt != seat:
            passed[nxt] -= 1
            self.passes -= 1
            self.log.emit("passed_over", seat=nxt)
            nxt = self.next_seat(nxt)
        return nxt

    def give_turns(self, seat: int, turns: int) -> None:
        """``seat`` takes ``turns`` extra turns (`extra_turns`): right after the turns it owes
        when its turn is under way (or has just ended: play comes back to it), else on its
        next turn, after that turn. They are the last turns it takes, and no attack passes
        them on."""
        if turns < 1 or not self.alive[seat] or self.finished or self.ending:
            return
        owed = self.owed
        if self.turn_ended and seat == self.turn_seat and seat != self.current:
            self.current = seat  # its turn just ended and play had passed on: it comes back
            owed[seat] = turns
        elif owed[seat] < 1:  # its turn is still to come: that turn, then the extra ones
            owed[seat] = 1 + turns
        else:
            owed[seat] += turns
        self.bonus[seat] += turns
        self.log.emit("extra_turns", seat=seat, turns=turns, owed=owed[seat])

    def played(self, seat: int, cards: list) -> None:
        """``seat`` played ``cards`` (a card, a combo's cards, an answer): who played them,
        the cards played this turn and the last play, for the effects' queries."""
        plays = self.turn_plays
        for inst in cards:
            inst.played_by = seat
            plays.append((seat, inst))
        if cards:
            self.last_play = list(cards)

    def kept(self, inst: CardInst) -> None:
        """A restriction on taking keeps ``inst`` in the hand it lies in: told only to the
        seats that know the card already (its holder, or everyone once it was revealed)."""
        zone = inst.zone
        self.log.emit("kept", only=inst.known, seat=zone.owner, zone=zone.name, card=inst.id)

    def nothing_taken(self, hand: Zone) -> None:
        """A pick out of ``hand`` finds nothing it may take: restrictions on taking keep
        every card there (public: the hand's size is, and nothing leaves it)."""
        self.log.emit("nothing_taken", seat=hand.owner, zone=hand.name)

    def reverse(self) -> None:
        self.direction = -self.direction
        self.log.emit("reversed", direction=self.direction)

    def eliminate(self, seat: int) -> None:
        """Take ``seat`` out (and its partners too, when a team shares its lives); the game
        ends when one player, or one team, is left."""
        if not self.alive[seat]:
            return
        going = [s for s in (self.team(seat) if self.together else (seat,)) if self.alive[s]]
        for out in going:
            self.alive[out] = False
            self.gone_out.append(out)
            self.owed[out] = self.bonus[out] = 0
            self.attacked[out] = False
            self.round_left &= ~(1 << out)  # the round no longer waits for them
            self.passes -= self.passed[out]
            self.passed[out] = 0
            self.log.seat_out(out)
            if "player_out" in self.outs:
                self.moments.append(("player_out", out, None, None))
        self._orders.clear()
        if self.current in going:
            self.turn_ended = True
            self.current = self.next_seat(self.current)
        left = [s for s in range(self.players) if self.alive[s]]
        if self.edition.win == "last_team_standing":
            if len({self.team_of(s) for s in left}) <= 1:
                self.finish(left[0] if left else None, "last_team_standing",
                            self.team(left[0]) if left else ())
        elif len(left) <= 1:  # in a team game the last one in wins with their partners who are out
            self.finish(left[0] if left else None, "last_standing",
                        self.team(left[0]) if left and self.teams else None)

    def revive(self, seat: int) -> None:
        """Bring ``seat`` back at its own place in the turn order, owing nothing until its
        turn comes round (nothing happens while it plays on or once the game is over)."""
        if self.alive[seat] or self.finished or self.ending:
            return
        self.alive[seat] = True
        if seat in self.gone_out:  # (a table laid out by hand may start with players out)
            self.gone_out.remove(seat)
        self.owed[seat] = self.bonus[seat] = 0
        self.attacked[seat] = False
        if self.round:  # back in the round under way: it waits for their turn
            self.round_left |= 1 << seat
        self._orders.clear()
        self.log.emit("seat_back", seat=seat)
        if "player_back" in self.outs:
            self.moments.append(("player_back", seat, None, None))

    def may_act(self, action, seat: int) -> bool:
        """Whether ``seat`` may still take a free action this turn and this game."""
        used = self.uses.get((action.id, seat))
        if used is None:
            return True
        if used[0] == self.turn and used[1] >= action.per_turn:
            return False
        return action.per_game is None or used[2] < action.per_game

    def acted(self, action, seat: int) -> None:
        """Count a free action taken by ``seat`` in the turn under way."""
        used = self.uses.setdefault((action.id, seat), [self.turn, 0, 0])
        if used[0] != self.turn:
            used[0], used[1] = self.turn, 0
        used[1] += 1
        used[2] += 1

    def counter_seers(self, name: str, seat: int) -> int:
        """The seats (a bit mask) that may know ``seat``'s counter ``name``: everyone, or
        for a counter declared `visible: owner` that seat alone, for `nobody` none."""
        visible = self.hidden_counters.get(name)
        if visible is None:
            return self.everyone
        return 1 << seat if visible == "owner" else 0

    def set_counter(self, name: str, seat: int, value: int) -> None:
        """Set a seat's counter, kept within its bounds; those who may see it (counter_seers)
        learn the new value."""
        low, high = self.bounds[name]
        value = low if value < low else high if value > high else int(value)
        values = self.counters[name]
        if self.hidden_counters and name in self.hidden_counters:
            # told even when unchanged: a missing event would tell the others the value
            values[seat] = value
            self.log.emit("counter", seat=seat, name=name, value=value,
                          secret={"value": self.counter_seers(name, seat)})
            return
        if values[seat] != value:
            values[seat] = value
            self.log.emit("counter", seat=seat, name=name, value=value)

    # -- teams ------------------------------------------------------------------
    def team_of(self, seat: int) -> int:
        """The team of a seat (dealt in turn, or at random with `teams: {dealt: ...}`); 0
        without teams."""
        return self.team_list[seat] if self.teams else 0

    def team(self, seat: int) -> tuple:
        """Every seat on ``seat``'s team, out of the game or not (just ``seat`` without teams)."""
        if not self.teams:
            return (seat,)
        return tuple(s for s in range(self.players) if self.team_of(s) == self.team_of(seat))

    def finish(self, winner: int | None, reason: str, winners: tuple | None = None) -> None:
        if self.ending:  # an effect run at the end cannot end the game a second time
            return
        if self.at_end is not None and reason not in ("turn_limit", "play_limit"):
            self.ending = True  # game_end triggers run, and a game on points names its winners
            winner, winners = self.at_end(winner, reason, winners)
        self.finished = True
        self.end_reason = reason
        self.winner = winner
        self.winners = tuple(winners) if winners is not None else (() if winner is None else (winner,))
        if self.teams or len(self.winners) > 1:  # every winner named; other games' events as they were
            self.log.game_over(winner, reason, list(self.winners))
        else:
            self.log.game_over(winner, reason)
        raise GameOver()
