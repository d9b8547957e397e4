"""When a table closes: a finished game stays open for a while (to look at the end and
download the log), and a table nobody has played in for long closes, finished or not.

The rule is one function of a room's two times, used both with the room's clock (a
running server) and with the wall-clock times stored in the database (a server
starting): :func:`expiry`. The server (``app.Tables``) drops what it returns, from
memory and the database, and says why to anyone still holding the table's link.
"""

from __future__ import annotations


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
