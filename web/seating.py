"""Who sits at a table before and while it plays: the waiting room, stand-in bots and
the turn clock (issue 43).

**The waiting room.** A table made with ``wait`` deals its cards but starts nobody's
turn until every person's seat has said ready (from their page, once they opened their
link). Its *host*, the first seat a person holds, may start before that: the seats
that have not said ready are played by stand-in bots.

**Stand-ins.** A stand-in is a bot playing a person's seat for a while: the seat is
still that person's, marked as played by a bot, and the person takes it back with one
click on their page. The seats a bot stands in for are kept in the room's config
(stored), so a restarted server goes on with them. A stand-in plays as any bot of the
table does: each of its choices seeded by the game's seed and the decision's number.

**The turn clock.** A table made with ``turn_seconds`` gives each person that long for
each decision of theirs (reaction windows keep their own clock). When it runs out, the
person is at the table or not, a stand-in takes the seat. So a missing person never
stalls a table that has a clock. Without one (the default, for friends), nothing is
timed. The clock reads the room's :class:`~kittens.web.room.Clock`, so tests move
time themselves.
"""

from __future__ import annotations

from .render import SPECTATOR

#: the bot that stands in for a person
STAND_IN = "heuristic"
#: the turn clock's bounds in seconds (0: no clock)
TURN_SECONDS = (5, 3600)


class SeatingError(Exception):
    """A seating action refused (the room tells it as an ActError); ``code`` says why."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def turn_seconds(value) -> float:
    """The turn clock a table is made with (0: none); ValueError for a bad one."""
    if value in (None, 0):
        return 0
    lo, hi = TURN_SECONDS
    if type(value) not in (int, float) or not lo <= value <= hi:
        raise ValueError(f"a turn clock is {lo} to {hi} seconds a decision (or 0 for none)")
    return value


def people(room) -> list[int]:
    """The seats people hold (a stand-in's seat is still its person's)."""
    return [seat for seat, kind in enumerate(room.config["seats"]) if kind == "person"]


def host(room) -> int | None:
    """The seat that may start the table before everyone is ready: the first person's."""
    seats = people(room)
    return seats[0] if seats else None


def waiting_view(room, seat) -> dict | None:
    """What a page of a waiting table is shown of it (None once it plays)."""
    if not room.waiting:
        return None
    return {"ready": [s in room.ready_seats for s in range(room.game.players)], "host": host(room),
            "people": people(room), "you_host": seat is not SPECTATOR and seat == host(room)}


def ready(room, seat) -> None:
    """The person at ``seat`` is ready; the last of them starts the table."""
    _person(room, seat)
    if not room.waiting:
        raise SeatingError("the game has started", "started")
    room.ready_seats.add(seat)
    if all(s in room.ready_seats for s in people(room)):
        _start(room, [])
    else:
        room.step()


def start(room, seat) -> None:
    """The host starts the table now: stand-ins take the seats not ready."""
    _person(room, seat)
    if not room.waiting:
        raise SeatingError("the game has started", "started")
    if seat != host(room):
        raise SeatingError("the table's host starts it (or it starts once everyone is ready)", "not-host")
    _start(room, [s for s in people(room) if s not in room.ready_seats and s != seat])


def take_over(room, seat) -> None:
    """The person at ``seat`` takes it back from the bot standing in for them."""
    _person(room, seat)
    if seat not in room.standins:
        raise SeatingError("you play your seat already", "not-stood-in")
    del room.standins[seat]
    del room.bots[seat]
    _store(room)
    room.step()


def stand_in(room, seat) -> None:
    """A bot plays the person's seat from now on, until they take it back."""
    if seat in room.standins or room.config["seats"][seat] != "person":
        return
    bot = room.new_bot(seat, STAND_IN)
    room.standins[seat] = bot
    room.bots[seat] = bot
    _store(room)


def arm_clock(room, pending) -> None:
    """A person's decision waits: give it the turn clock's time (once per decision)."""
    if not room.turn_seconds or room.waiting or pending is None:
        return
    key = (len(room.state.history), pending.seat)
    if room.turn_clock is not None and room.turn_clock[0] == key:
        return
    disarm(room)
    deadline = room.clock.now() + room.turn_seconds

    def fire():
        if room.turn_clock is None or room.turn_clock[0] != key or room.closed is not None:
            return
        room.turn_clock = None
        now = room.state.decision()
        if now is None or (len(room.state.history), now.seat) != key or room.round is not None:
            return
        stand_in(room, key[1])
        room.step()

    room.turn_clock = (key, deadline, room.clock.later(room.turn_seconds, fire))


def disarm(room) -> None:
    if room.turn_clock is not None:
        room.turn_clock[2].cancel()
        room.turn_clock = None


def clock_view(room) -> dict | None:
    """Whose decision is timed and how long it has left (public: everyone sees the clock)."""
    if room.turn_clock is None:
        return None
    (_, seat), deadline, _timer = room.turn_clock
    return {"seat": seat, "remaining_ms": max(0, int((deadline - room.clock.now()) * 1000)),
            "seconds": room.turn_seconds}


def restore_standins(room) -> None:
    """The stand-ins stored with the room, playing again (a restart, a lane set up anew)."""
    for seat in room.config.get("standins") or ():
        if 0 <= seat < room.game.players:
            stand_in(room, seat)


def _start(room, absent: list[int]) -> None:
    room.waiting = False
    room.config = dict(room.config, wait=False)
    for seat in absent:
        stand_in(room, seat)
    _store(room)
    room.step()


def _store(room) -> None:
    room.config = dict(room.config, standins=sorted(room.standins))
    if room.storage is not None and room.closed is None:
        room.storage.set_config(room.id, room.config)


def _person(room, seat) -> None:
    if room.closed is not None:
        raise SeatingError(f"This table has closed: {room.closed}.", "closed")
    if seat is SPECTATOR:
        raise SeatingError("spectators watch: open a seat's link to play", "spectator")
    if room.config["seats"][seat] != "person":
        raise SeatingError("a bot plays this seat", "bot-seat")
