"""Events: the record of every change in a game, with its secrets marked.

An event is a plain dict, ready for JSON: ``type`` plus fields. Fields that
not every seat may see are listed under ``secret`` with the seats that may
(a bit mask while the game runs; a list of seats once written out). An event
only some seats learn of at all (a seat's own decision) has ``only``.

The masks an :class:`EventLog` records are :class:`Seats` (ints) and its secrets
:class:`Secret` (dicts): ints and dicts in every way, which a log writer turns
into lists of seats without copying the event (see :func:`encode_lines`).

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
    "window": "a reaction window opens on a play",
    "answer": "a seat answers in a window, and how deep the chain of answers is",
    "window_closed": "the window closes, with how many answers it took",
    "cancelled": "a play an answer cancelled",
    "check": "an edition's state check applies to a seat",
    "blind_miss": "a card played blind that could not be played: it is shown and stays in hand",
    "attacked": "an attack: who, on whom, and how many turns the victim owes",
    "end_turn": "a seat ends one or more of its turns",
    "reversed": "the direction of play reversed",
    "empty_pile": "a draw from an empty pile: nothing is drawn",
    "out": "a seat is out of the game",
    "game_over": "the game is decided: the winner (and in a team game every winner) and why",
}


def seats_of(mask: int) -> list[int]:
    seats, seat = [], 0
    while mask:
        if mask & 1:
            seats.append(seat)
        mask >>= 1
        seat += 1
    return seats


class EventLog:
    """Collects events when ``record`` is true; costs almost nothing otherwise."""

    __slots__ = ("record", "events", "everyone")

    def __init__(self, record: bool = True, everyone: int = 0) -> None:
        self.record = record
        self.everyone = everyone  # the bit mask of all seats
        self.events: list[dict] = []

    def copy(self) -> "EventLog":
        """A log that goes on from this one (events already written are never changed)."""
        other = EventLog(self.record, self.everyone)
        other.events = list(self.events)
        return other

    def emit(self, type_: str, *, secret: dict | None = None, only: int | None = None,
             **fields) -> None:
        if not self.record:
            return
        fields["type"] = type_  # the keyword arguments are the event: no copy
        if secret:
            fields["secret"] = Secret(secret)
        if only is not None:  # a decision's event: seventy or so a game
            try:
                fields["only"] = _SEATS[only]
            except KeyError:
                fields["only"] = seats(only)
        self.events.append(fields)

    def move(self, inst, source, was_at: int | None, to, at: int, card_seers: int,
             place_seers: int) -> None:
        """Record a card's move (most events of a game are moves: about 130 of 350)."""
        if was_at is None:
            event = {"type": "move", "card": inst.id, "from": source.name, "to": to.name, "at": at}
        else:  # the place a card leaves a pile from is public
            event = {"type": "move", "card": inst.id, "from": source.name, "to": to.name, "at": at,
                     "from_at": was_at}
        if inst.face_up:
            event["face_up"] = True
        if inst.was_face_up and source.owner is not None:  # it left a hand face up, in sight
            event["from_face_up"] = True
        everyone = self.everyone
        if card_seers != everyone or place_seers != everyone:
            event["secret"] = _move_secret(card_seers if card_seers != everyone else None,
                                           place_seers if place_seers != everyone else None)
        self.events.append(event)

    def show(self, cards: list, seats: int) -> None:
        if not self.record:
            return
        self.events.append({"type": "show", "seats": seats_of(seats), "count": len(cards),
                            "zone": cards[0].zone.name,
                            "cards": [c.id for c in cards],
                            "at": [c.zone.cards.index(c) for c in cards],
                            "secret": Secret({"cards": seats, "at": seats})})


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
    int in every way, which :func:`encode_lines` writes as the list of those seats
    without copying the event. One per mask: see :func:`seats`."""

    __slots__ = ()


_SEATS: dict = {}


def seats(mask: int) -> Seats:
    """The one :class:`Seats` of a mask (there are at most 2**players of them)."""
    found = _SEATS.get(mask)
    if found is None:
        found = _SEATS[mask] = Seats(mask)
    return found


class Secret(dict):
    """An event's ``secret`` (field -> the mask of seats that see it), as an
    :class:`EventLog` records it: a dict in every way, which knows how it is written
    (``written``: the masks as lists of seats), so writing a log copies no event.
    Events are never changed once recorded, their secrets included."""

    __slots__ = ("written",)

    def __init__(self, masks: dict) -> None:
        super().__init__(masks)
        self.written = {key: _SEAT_LISTS[mask] for key, mask in masks.items()}


#: (card seers, place seers) -> the ``secret`` of a move event, one shared by every move
#: with those masks (None: everyone sees it): a game makes about sixty moves with a
#: secret from a handful of pairs. Past the bound a move gets a secret of its own.
_MOVE_SECRETS: dict = {}
_MOVE_SECRETS_BOUND = 4096


def _move_secret(card: int | None, at: int | None) -> Secret:
    key = (card, at)
    secret = _MOVE_SECRETS.get(key)
    if secret is None:
        masks = {}
        if card is not None:
            masks["card"] = card
        if at is not None:
            masks["at"] = at
        secret = Secret(masks)
        if len(_MOVE_SECRETS) < _MOVE_SECRETS_BOUND:
            _MOVE_SECRETS[key] = secret
    return secret


def _written(value):
    """orjson's ``default`` for a log: a recorded mask or secret as it is written, and any
    other subclass of a JSON type as that type (as orjson writes it unasked)."""
    kind = type(value)
    if kind is Seats:
        return _SEAT_LISTS[value]
    if kind is Secret:
        return value.written
    for base in (int, str, dict, list):
        if isinstance(value, base):
            return base.__int__(value) if base is int else base.__str__(value) if base is str \
                else base.copy(value)
    raise TypeError(f"Type is not JSON serializable: {kind.__name__}")


def from_json(record: dict) -> dict:
    out = dict(record)
    if "secret" in out:
        out["secret"] = {k: sum(1 << s for s in v) for k, v in out["secret"].items()}
    if "only" in out:
        out["only"] = sum(1 << s for s in out["only"])
    return out


def dumps(event: dict) -> str:
    """One event as one line of a log: compact JSON, keys sorted, non-ASCII escaped."""
    return encode(to_json(event))


def dumps_lines(events: list) -> str:
    """Events as lines of a log, one event per line (each as :func:`dumps` writes it)."""
    return encode_lines(events).decode()


def encode_lines(events: list) -> bytes:
    """:func:`dumps_lines` as ASCII bytes, ready for a file (a log written in bytes
    is not decoded and encoded again).

    Written for speed, since a logged run writes every event. orjson writes the whole
    list in one call; the list's separators between events then become line breaks.
    That is exact only when ``},{`` occurs nowhere but between events, which the count
    of pieces proves (len - 1 boundaries make len pieces); otherwise, and for text
    that is not ASCII, each event is written on its own."""
    if not events:
        return b""
    # an event whose masks an EventLog recorded (Seats, Secret) goes to orjson as it is,
    # and _written writes its masks; any other event with masks is converted first
    converted = [event if ("secret" not in event or type(event["secret"]) is Secret) and
                 ("only" not in event or type(event["only"]) is Seats) else to_json(event)
                 for event in events]
    data = _orjson.dumps(converted, default=_written, option=_SORTED | _SUBCLASSES)
    if data.isascii():
        pieces = data[1:-1].split(b"},{")
        if len(pieces) == len(events):
            return b"}\n{".join(pieces)
    return "\n".join(encode(to_json(event)) for event in events).encode()


def encode(value) -> str:
    """A JSON value as compact text, keys sorted, exactly as json.dumps(separators=(",",
    ":"), sort_keys=True) writes it. orjson does the work where it can: it writes a log
    several times faster, which is most of what logging costs."""
    text = _orjson.dumps(value, option=_SORTED).decode()
    return text if text.isascii() else json.dumps(value, separators=(",", ":"), sort_keys=True)


try:
    import orjson as _orjson
    _SORTED = _orjson.OPT_SORT_KEYS
    _SUBCLASSES = _orjson.OPT_PASSTHROUGH_SUBCLASS  # Seats and Secret go to _written
except ImportError:  # pragma: no cover - orjson is a dependency; the standard library still works
    class _orjson:  # noqa: N801
        @staticmethod
        def dumps(value, default=None, option=None) -> bytes:
            if default is not None:  # json.dumps would write Seats as numbers
                value = [to_json(event) for event in value]
            return json.dumps(value, separators=(",", ":"), sort_keys=True).encode()
    _SORTED = _SUBCLASSES = 0
