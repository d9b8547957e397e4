"""Events: the record of every change in a game, with its secrets marked.

An event is a plain dict, ready for JSON: ``type`` plus fields. Fields that
not every seat may see are listed under ``secret`` with the seats that may
(a bit mask while the game runs; a list of seats once written out). An event
only some seats learn of at all (a seat's own decision) has ``only``.

The masks an :class:`EventLog` records are :class:`Seats` (ints) and its secrets
:class:`Secret` (dicts): ints and dicts in every way, which a log writer turns
into lists of seats without copying the event.
An :class:`EventLog` keeps its busiest kinds of event as rows (a :class:`Shape`
and the values), made into dicts only when read; a log is written straight from
the rows, since a logged run records and writes every event. The writer is a
module of its own, built on this one (logwriter.py: ``write_rows``, ``dumps``).

``for_seat(event, seat)`` gives what one seat observes: the event without the
fields it may not see, or None. A game log is the full event stream, one JSON
object per line; a seat's observation stream is that stream passed through
``for_seat``.
"""

from __future__ import annotations

import json

#: every kind of event the engine writes, and what it says; docs/engine.md lists them
#: from here, and a test checks that the engine writes no other
EVENT_KINDS = {
    "zone": "how a zone starts out: its size, and its cards for those who see them",
    "turn": "a turn begins: whose, how many turns they owe, its number",
    "decision": "a seat's own choice (only that seat learns of it): the decision's kind and the option taken",
    "chance": "a chance outcome the caller fixed (no seat learns of it)",
    "move": "a card moves between zones; the card, and a place picked in secret, are shown only to those who see them",
    "show": "cards shown to some seats, privately",
    "reveal": "cards shown to everyone",
    "rearranged": "cards of one zone put in a new order; only the seats who chose it learn the order",
    "shuffled": "a zone shuffled: what anyone knew of its order is forgotten (face-up cards stay in sight)",
    "play": "a card or combo played, and the cards it took",
    "chose": "a choice of a play announced (a seat, a title; cards only as a count; a secret place as secret)",
    "fizzled": "a play with nothing to choose does nothing",
    "window": ("a reaction window opens on a play (or on a moment a card answers: its id is the "
               "moment's name, `at` says before or after it)"),
    "answer": "a seat answers in a window, and how deep the chain of answers is",
    "window_closed": "the window closes, with how many answers it took",
    "cancelled": "a play an answer cancelled",
    "check": "an edition's state check applies to a seat",
    "trigger": "an edition's trigger runs at a moment of the game, for a seat",
    "counter": "a seat's counter takes a new value (a hidden counter's value shown only to those who may see it)",
    "seat_back": "a seat that was out comes back into the game",
    "played_as": "a seat carries out a card's effect inside another effect (`play_as`), no card played",
    "scores": "a game won on points is decided: every seat's score",
    "blind_miss": "a card played blind that could not be played: it is shown and stays in hand",
    "attacked": "an attack: who, on whom, and how many turns the victim owes",
    "end_turn": "a seat ends one or more of its turns",
    "extra_turns": "a seat is given extra turns (not an attack), and how many turns it owes now",
    "pass_over": "a seat is to be passed over (`pass_over`), and how many times in all",
    "passed_over": "play passing on went past a seat, which takes no turn for it",
    "reversed": "the direction of play reversed",
    "empty_pile": "a draw from an empty pile: nothing is drawn",
    "kept": ("a card a restriction on taking keeps in a hand an effect would have moved it out of "
             "(only the seats that know the card learn of it)"),
    "nothing_taken": ("a pick out of another player's hand finds nothing it may take: restrictions on "
                      "taking keep every card there (no card named)"),
    "out": "a seat is out of the game",
    "kept_in": "a seat about to go out stays in: the moment was cancelled before it happened",
    "draw_cancelled": "a drawn card's `on_draw` does not run: the moment it was drawn was cancelled",
    "game_over": "the game is decided: the winner (and in a team game or a shared win every winner) and why",
}


#: the kinds of event that end a deal's summing-up in a game's story: the first turn, or
#: what the game's start sets off before it (triggers, counters; a game over before turn 1)
AFTER_THE_DEAL = frozenset({"turn", "trigger", "counter", "check", "out", "seat_back", "scores", "game_over"})


#: how many cards are looked for one by one in their zones (see places_of)
_FEW = 8


def places_of(cards: list) -> list[int]:
    """Each card's place in its zone. A few are looked for one by one; for more, each
    zone is walked once (looking each up would walk a big pile once per card)."""
    if len(cards) <= _FEW:
        return [c.zone.cards.index(c) for c in cards]
    found: dict = {}
    for zone in {id(c.zone): c.zone for c in cards}.values():
        for place, inst in enumerate(zone.cards):
            found[id(inst)] = place
    return [found[id(c)] for c in cards]


def seats_of(mask: int) -> list[int]:
    seats, seat = [], 0
    while mask:
        if mask & 1:
            seats.append(seat)
        mask >>= 1
        seat += 1
    return seats


class EventLog:
    """Collects events when ``record`` is true; costs almost nothing otherwise.

    The busiest kinds of event (moves, decisions, turns, plays, windows, choices:
    more than nine in ten of a game's) are kept as rows: a tuple of a :class:`Shape`
    and the values of its fields, a few times cheaper to make than a dict (on the
    compiled core) and written to a log straight from the tuple (``logwriter.write_rows``).
    Any other event is kept as its dict (:meth:`emit`). ``events`` gives every event
    as a dict, made from its row when first asked for. The row recorders (``move``
    to ``shuffled``) are called only while the log records: their callers ask first;
    the rest (``attacked`` to ``game_over``) ask themselves.
    """

    __slots__ = ("record", "rows", "everyone", "_secrets", "_dicts", "_dicts_of")

    def __init__(self, record: bool = True, everyone: int = 0) -> None:
        self.record = record
        self.everyone = everyone  # the bit mask of all seats (never changed)
        self._secrets = _move_secrets_of(everyone)  # card seers -> place seers -> a move's secret
        self.rows: list = []
        self._dicts: list = []  # events[:len(_dicts)] as dicts, made from the list _dicts_of
        self._dicts_of = self.rows

    @property
    def events(self) -> list:
        """Every event so far, as a dict (a row is turned into its dict once)."""
        rows, dicts = self.rows, self._dicts
        if self._dicts_of is not rows or len(dicts) > len(rows):  # the rows were replaced
            dicts = self._dicts = []
            self._dicts_of = rows
        if len(dicts) < len(rows):
            dicts.extend([as_dict(row) for row in rows[len(dicts):]])
        return dicts

    @events.setter
    def events(self, events: list) -> None:
        """Go on from these events (dicts, or rows as this log keeps them): the list
        itself, to which new events are added."""
        self.rows = events

    def copy(self) -> "EventLog":
        """A log that goes on from this one (events already written are never changed)."""
        other = EventLog(self.record, self.everyone)
        other._secrets = self._secrets
        other.rows = list(self.rows)
        if self._dicts_of is self.rows:
            other._dicts = list(self._dicts)
        other._dicts_of = other.rows
        return other

    def emit(self, type_: str, *, secret: dict | None = None, only: int | None = None,
             **fields) -> None:
        if not self.record:
            return
        fields["type"] = type_  # the keyword arguments are the event: no copy
        if secret:
            fields["secret"] = Secret(secret)
        if only is not None:
            fields["only"] = seats(only)
        self.rows.append(fields)

    def move(self, card: str, source: str, was_at, to: str, at: int, face_up, from_face_up,
             card_seers: int, place_seers: int, face_up_places=None) -> None:
        """Record a card's move (most events of a game are moves: about 130 of 350):
        ``was_at`` None when the place it left is not told, ``face_up`` and
        ``from_face_up`` true when it lands or leaves a hand face up."""
        everyone = self.everyone
        secret = None
        if card_seers != everyone or place_seers != everyone:
            # looked up by the masks themselves (small ints): no key to build, hash or free
            by_place = self._secrets.get(card_seers)
            if by_place is not None:
                secret = by_place.get(place_seers)
            if secret is None:
                secret = _move_secret(card_seers, place_seers, everyone, self._secrets)
        self.rows.append((MOVE, at, card, True if face_up else None, face_up_places, source, was_at,
                          True if from_face_up else None, secret, to))

    def decision(self, seat: int, kind: str, option) -> None:
        """Record a seat's own choice (only that seat learns of it)."""
        self.rows.append((DECISION, kind, _ONE_SEAT[seat] if seat < _ONE_SEAT_KEPT else seats(1 << seat),
                          option, seat))

    def turn(self, seat: int, owed: int, number: int) -> None:
        self.rows.append((TURN, number, owed, seat))

    def end_turn(self, seat: int, owed: int) -> None:
        self.rows.append((END_TURN, owed, seat))

    def play(self, seat: int, what: str, rule_id: str, cards: list) -> None:
        """A card (``what`` "card") or combo ("combo") played, with the cards it took."""
        if what == "card":
            self.rows.append((PLAY_CARD, rule_id, cards, seat))
        else:
            self.rows.append((PLAY_COMBO, cards, rule_id, seat))

    def window(self, seat: int, rule_id: str) -> None:
        self.rows.append((WINDOW, rule_id, seat))

    def window_closed(self, seat: int, rule_id: str, answers: int) -> None:
        self.rows.append((WINDOW_CLOSED, answers, rule_id, seat))

    def answer(self, seat: int, card: str, depth: int) -> None:
        self.rows.append((ANSWER, card, depth, seat))

    def chose(self, seat: int, name: str, value) -> None:
        """A choice of a play announced (``value`` as everyone may see it)."""
        self.rows.append((CHOSE, name, seat, value))

    def shuffled(self, zone: str, count: int, face_up_places) -> None:
        """A zone shuffled; ``face_up_places`` (place -> card id) or None."""
        self.rows.append((SHUFFLED, count, face_up_places, zone))

    def attacked(self, seat: int, victim: int, owed: int) -> None:
        """An attack (recorded only when the log records: its callers do not ask)."""
        if self.record:
            self.rows.append((ATTACKED, owed, seat, victim))

    # Called whether or not the log records (its callers do not ask): the balance lab's
    # log records nothing but counts these three (lab/play.py's TallyLog overrides them).

    def seat_out(self, seat: int) -> None:
        """A seat is out of the game."""
        if self.record:
            self.rows.append((OUT, seat))

    def play_cancelled(self, seat: int, what: str, rule_id: str) -> None:
        """A card (``what`` "card") or combo ("combo") played was cancelled by an answer."""
        if self.record:
            self.rows.append((CANCELLED_CARD if what == "card" else CANCELLED_COMBO, rule_id, seat))

    def game_over(self, winner, reason: str, winners=None) -> None:
        """The game is decided; ``winners`` (a list) named only in a team game."""
        if self.record:
            if winners is None:
                self.rows.append((GAME_OVER, reason, winner))
            else:
                self.rows.append((GAME_OVER_TEAMS, reason, winner, winners))

    def show(self, cards: list, seats: int) -> None:
        """Cards (of the table) shown to the seats of a mask, with their places (called
        whether or not the log records)."""
        if not self.record:
            return
        secret = _SHOW_SECRETS.get(seats)
        if secret is None:
            secret = Secret({"cards": seats, "at": seats})
            if len(_SHOW_SECRETS) < _SHOW_SECRETS_BOUND:
                _SHOW_SECRETS[seats] = secret
        self.rows.append((SHOW, places_of(cards), [c.id for c in cards],
                          len(cards), seats_of(seats), secret, cards[0].zone.name))

    def show_secretly(self, cards: list, seats: int) -> None:
        """Cards shown to the seats of a mask, and only they learn of it (`show(...,
        secret=true)`): the event is theirs alone."""
        if self.record:
            self.emit("show", at=places_of(cards), cards=[c.id for c in cards], count=len(cards),
                      seats=seats_of(seats), zone=cards[0].zone.name, only=seats)

    def reveal(self, cards: list, zones: list, at: list) -> None:
        """Cards shown to everyone: their ids, zones and places (None where not told)."""
        self.rows.append((REVEAL, at, cards, zones))


class Shape:
    """The fields of one kind of event kept as a row (see :class:`EventLog`), in the
    order a log writes them (sorted), each with the text that comes before its value.

    A field named in ``optional`` is left out when its value is None. The first and
    the last field are never optional, nor the first that sorts after ``type``, so
    what is written around the values is known in advance. The log writer remembers,
    field by field, the text of each value it wrote (``,"to":"hand 1"``): a game
    writes the same few values again and again. A ``mixed`` field is one whose values
    are not all hashable, or not all of one JSON type (1 == True, but one is written
    1 and the other true): only strings, ints and lists of strings are remembered
    there (see ``logwriter._text_key``)."""

    __slots__ = ("type", "fields", "optional", "heads", "tail", "kept", "texts")

    def __init__(self, type_: str, fields: tuple, optional: tuple = (), mixed: tuple = ()) -> None:
        after = [field for field in fields if field > "type"]
        if list(fields) != sorted(set(fields)) or "type" in fields or fields[0] in optional or \
                fields[-1] in optional or (after and after[0] in optional) or \
                not set(optional) | set(mixed) <= set(fields):
            raise ValueError(f"the fields of a {type_} row must be sorted, without 'type', and the "
                             "first, the last and the first after 'type' written always; optional "
                             "and mixed ones among them")
        self.type, self.fields = type_, fields
        # flags as bytes (0 or 1 a field): the compiled writer reads them as C chars
        self.optional = bytes(field in optional for field in fields)
        self.kept = bytes(field not in mixed for field in fields)
        # what comes before each value (the type, where it sorts); the last field's value is
        # followed by the rest and a line break (the writer takes off the log's last one)
        typed = _key("type") + _text(type_)
        self.heads = tuple(("{" if i == 0 else ",") + (typed + "," if after and field == after[0] else "")
                           + _key(field) for i, field in enumerate(fields))
        self.tail = ("}" if after else "," + typed + "}") + "\n"
        self.texts = tuple({} for _ in fields)  # per field: value -> its text, with head (and tail)

    def __repr__(self) -> str:
        return f"Shape({self.type!r}, {self.fields!r})"


def _key(field: str) -> str:
    return _text(field) + ":"


def _text(value: str) -> str:
    return json.dumps(value)


MOVE = Shape("move", ("at", "card", "face_up", "face_up_places", "from", "from_at", "from_face_up",
                      "secret", "to"),
             optional=("face_up", "face_up_places", "from_at", "from_face_up", "secret"),
             mixed=("face_up_places",))
DECISION = Shape("decision", ("kind", "only", "option", "seat"), mixed=("option",))
TURN = Shape("turn", ("number", "owed", "seat"))
END_TURN = Shape("end_turn", ("owed", "seat"))
PLAY_CARD = Shape("play", ("card", "cards", "seat"), mixed=("cards",))
PLAY_COMBO = Shape("play", ("cards", "combo", "seat"), mixed=("cards",))
WINDOW = Shape("window", ("id", "seat"))
WINDOW_CLOSED = Shape("window_closed", ("answers", "id", "seat"))
ANSWER = Shape("answer", ("card", "depth", "seat"))
CHOSE = Shape("chose", ("name", "seat", "value"), mixed=("value",))
SHOW = Shape("show", ("at", "cards", "count", "seats", "secret", "zone"), mixed=("at", "cards", "seats"))
REVEAL = Shape("reveal", ("at", "cards", "zones"), mixed=("at", "cards", "zones"))
SHUFFLED = Shape("shuffled", ("count", "face_up_places", "zone"), optional=("face_up_places",),
                 mixed=("face_up_places",))
ATTACKED = Shape("attacked", ("owed", "seat", "victim"))
OUT = Shape("out", ("seat",))
CANCELLED_CARD = Shape("cancelled", ("card", "seat"))
CANCELLED_COMBO = Shape("cancelled", ("combo", "seat"))
GAME_OVER = Shape("game_over", ("reason", "winner"))
GAME_OVER_TEAMS = Shape("game_over", ("reason", "winner", "winners"), mixed=("winners",))


def as_dict(row) -> dict:
    """An event as a dict, whether kept as its dict or as a row."""
    if type(row) is dict:
        return row
    shape = row[0]
    event = {}
    for field, value, optional in zip(shape.fields, row[1:], shape.optional):
        if value is not None or not optional:
            event[field] = value
    event["type"] = shape.type
    return event


def for_seat(event: dict, seat: int) -> dict | None:
    """What ``seat`` observes of an event (None: it does not learn of it at all)."""
    bit = 1 << seat
    only = event.get("only")
    if only is not None and not only & bit:
        return None
    secret = event.get("secret")
    if secret is None and only is None:
        return event
    seen = {k: v for k, v in event.items() if k not in ("secret", "only")}
    for field, mask in (secret or {}).items():
        if not mask & bit:
            seen.pop(field, None)
    return seen


def kept_for(event: dict, seat: int) -> dict | None:
    """The event with only what ``seat`` may know of it, its marks kept (None when the
    seat does not learn of it): ``for_seat`` of the result, for this seat, is
    ``for_seat`` of the event, and no other seat learns more from it. A world dealt
    from a seat's view keeps its log this way."""
    bit = 1 << seat
    only = event.get("only")
    if only is not None and not only & bit:
        return None
    secret = event.get("secret")
    if not secret or all(mask & bit for mask in secret.values()):
        return event
    return {key: value for key, value in event.items() if not (key in secret and not secret[key] & bit)}


def to_json(event: dict) -> dict:
    """The event as written to a log: bit masks become lists of seats (an event with
    neither is written as it is)."""
    secret, only = event.get("secret"), event.get("only")
    if secret is None and only is None:
        return event
    out = event.copy()
    lists = _SEAT_LISTS
    if secret is not None:
        out["secret"] = secret.written if type(secret) is Secret else \
            {key: lists[mask] for key, mask in secret.items()}
    if only is not None:
        out["only"] = lists[only]
    return out


class _SeatLists(dict):
    """mask -> seats_of(mask), remembered: a log writes the same few masks again and
    again (at most 2**players of them; the lists are shared, as they are only written out)."""

    def __missing__(self, mask: int) -> list[int]:
        found = self[mask] = seats_of(int(mask))
        return found


_SEAT_LISTS = _SeatLists()


class Seats(int):
    """A bit mask of seats (an event's ``only``), as an :class:`EventLog` records it: an
    int in every way, which the log writer writes as the list of those seats
    without copying the event. One per mask: see :func:`seats`."""

    __slots__ = ()


_SEATS: dict = {}


def seats(mask: int) -> Seats:
    """The one :class:`Seats` of a mask (there are at most 2**players of them)."""
    found = _SEATS.get(mask)
    if found is None:
        found = _SEATS[mask] = Seats(mask)
    return found


#: the Seats of one seat, by seat (a decision's ``only``: about a hundred a game)
_ONE_SEAT_KEPT = 64
_ONE_SEAT = tuple(seats(1 << seat) for seat in range(_ONE_SEAT_KEPT))


class Secret(dict):
    """An event's ``secret`` (field -> the mask of seats that see it), as an
    :class:`EventLog` records it: a dict in every way, which knows how it is written
    (``written``: the masks as lists of seats), so writing a log copies no event.
    Events are never changed once recorded, their secrets included."""

    __slots__ = ("written", "key")

    def __init__(self, masks: dict) -> None:
        super().__init__(masks)
        self.written = {key: _SEAT_LISTS[mask] for key, mask in masks.items()}
        self.key = hash(frozenset(masks.items()))

    def __hash__(self) -> int:
        """By content, as it never changes: the log writer remembers the text of each."""
        return self.key

    # said outright: compiled, a class that defines __hash__ would otherwise compare by identity
    def __eq__(self, other) -> bool:
        return dict.__eq__(self, other)

    def __ne__(self, other) -> bool:
        return dict.__ne__(self, other)

    def __reduce__(self):
        return Secret, (dict(self),)


#: everyone -> card seers -> place seers -> the ``secret`` of a move event, one shared
#: by every move with those masks: a game makes about sixty moves with a secret from a
#: handful of masks. Past the bound (per mask, of the masks below it) a move gets a
#: secret of its own.
_MOVE_SECRETS: dict = {}
_SHOW_SECRETS: dict = {}  # seats -> the secret of cards shown to them (both fields theirs)
_SHOW_SECRETS_BOUND = 4096
_MOVE_SECRETS_BOUND = 64


def _move_secrets_of(everyone: int) -> dict:
    """The secrets of moves among these seats, as an EventLog looks them up."""
    found = _MOVE_SECRETS.get(everyone)
    if found is None:
        found = {} if len(_MOVE_SECRETS) >= _MOVE_SECRETS_BOUND else \
            _MOVE_SECRETS.setdefault(everyone, {})
    return found


def _move_secret(card: int, at: int, everyone: int, known: dict) -> Secret:
    """The secret of a move whose card ``card`` sees and whose place ``at`` sees (a
    field everyone sees is not secret), remembered in ``known`` (see _MOVE_SECRETS)."""
    masks = {}
    if card != everyone:
        masks["card"] = card
    if at != everyone:
        masks["at"] = at
    secret = Secret(masks)
    by_place = known.get(card)
    if by_place is None and len(known) < _MOVE_SECRETS_BOUND:
        by_place = known[card] = {}
    if by_place is not None and len(by_place) < _MOVE_SECRETS_BOUND:
        by_place[at] = secret
    return secret


def from_json(record: dict) -> dict:
    out = dict(record)
    if "secret" in out:
        out["secret"] = {k: sum(1 << s for s in v) for k, v in out["secret"].items()}
    if "only" in out:
        out["only"] = sum(1 << s for s in out["only"])
    return out
