"""When a table closes: a finished game stays open for a while (to look at the end and
download the log), and a table nobody has played in for long closes, finished or not.

The rule is one function of a room's two times, used both with the room's clock (a
running server) and with the wall-clock times stored in the database (a server
starting): :func:`expiry`. :class:`Retiring` is the server's side (``app.Tables``):
it drops what expired, from memory and the database, makes room on a full server,
and says why a table closed to anyone still holding its link.
"""

from __future__ import annotations

import logging

from ..interpreter.rules.load import UsageError

log = logging.getLogger("kittens.web")


def expiry(active: float, ended: float | None, now: float, keep_finished: float,
           idle_seconds: float) -> str | None:
    """Why a room last played in at ``active``, whose game ended at ``ended`` (None:
    still played), closes at ``now``; None while it stays. All in seconds, on one clock."""
    if ended is not None and now - ended >= keep_finished:
        return f"its game ended more than {span(keep_finished)} ago"
    if now - active >= idle_seconds:
        return f"nobody played in it for {span(idle_seconds)}"
    return None


def span(seconds: float) -> str:
    """A length of time in words, rounded to the unit that reads best: '1 day',
    '36 hours', '90 minutes', '45 seconds'."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and (seconds % size == 0 or seconds >= 3 * size):
            count = round(seconds / size)
            return f"{count} {unit}{'s' if count != 1 else ''}"
    count = max(1, round(seconds))
    return f"{count} second{'s' if count != 1 else ''}"


class Retiring:
    """Closing the rooms of ``app.Tables`` (which has ``settings``, ``rooms``, ``storage``
    and ``clock``). Call these in the thread that runs the rooms: a closed room tells
    its listeners."""

    _sweeper = None

    def retire(self) -> int:
        """Close every room whose time is up (see ``retire.expiry``): dropped from memory
        and the database, its listeners told why. How many closed."""
        now, settings = self.clock.now(), self.settings
        reasons = {}
        for room_id, room in self.rooms.items():
            why = expiry(room.active, room.ended, now, settings.keep_finished, settings.idle_seconds)
            if why is not None:
                reasons[room_id] = why
        self._close(reasons)
        return len(reasons)

    def retire_for_new_table(self) -> None:
        """Before a new room: retire what expired; when the server is still full, close the
        finished tables that ended longest ago. UsageError when every table is a game
        still in play."""
        self.retire()
        while len(self.rooms) >= self.settings.max_rooms:
            ended = [room for room in self.rooms.values() if room.ended is not None]
            if not ended:
                raise UsageError(f"this server holds as many tables as it may ({self.settings.max_rooms}) and "
                                 "every one is a game still in play; try again when one ends")
            oldest = min(ended, key=lambda room: room.ended)
            self._close({oldest.id: "its game had ended, and the server needed its place for a new table"})

    def sweep(self) -> None:
        """Retire what expired now and again every ``sweep_seconds``, on the rooms' clock."""
        self._sweeper = None
        try:
            closed = self.retire()
            if closed:
                log.info("%d table(s) closed", closed)
        finally:
            self._sweeper = self.clock.later(self.settings.sweep_seconds, self.sweep)

    def _close(self, reasons: dict) -> None:
        self.storage.retire(reasons)  # the database first: a room it still holds would come back
        for room_id, why in reasons.items():
            self.rooms.pop(room_id).close(why)

    def closed(self, room_id: str) -> str | None:
        """Why the room of this id closed, if it did lately."""
        return self.storage.closed(room_id)
