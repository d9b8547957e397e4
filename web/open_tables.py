"""The lobby's open tables: those their host made open, with the seats still free.

A table made with ``open`` is listed in every lobby of the server while it is played
and a seat a person holds is free. A seat is taken once a page opened it (its link)
or someone took it in the lobby. Taking a seat in the lobby gives that seat a new
token (the link the lobby first gave for it stops opening it) and hands its link to
whoever took it: first come, first seated. Only the table's public facts are listed
(its rules' name, its seats, whether it waits), never a token, a name or a card.
"""

from __future__ import annotations

import secrets

from ..interpreter.rules.load import UsageError
from .render import SPECTATOR

#: tables one listing shows at most (the newest first)
LISTED = 50


def is_open(room) -> bool:
    return bool(room.config.get("open")) and not room.finished and room.error is None and room.closed is None


def claim(tables, room, seat) -> None:
    """A page opened ``seat`` of ``room`` with its link: taken, if the table is open."""
    if seat is not SPECTATOR and room.config.get("open"):
        tables.storage.claim(room.id, int(seat))


def free_seats(tables, room) -> list[int]:
    taken = tables.storage.claimed(room.id)
    return [seat for seat, kind in enumerate(room.config["seats"]) if kind == "person" and seat not in taken]


def listing(tables) -> list[dict]:
    """The open tables with a free seat, for the lobby."""
    found = []
    for room in reversed(list(tables.rooms.values())):
        if not is_open(room):
            continue
        free = free_seats(tables, room)
        if free:
            config = room.config
            found.append({"room": room.id, "name": config.get("name") or config.get("given"),
                          "variant": config.get("variant"), "players": config["players"],
                          "seats": ["person" if kind == "person" else "bot" for kind in config["seats"]],
                          "free": free, "waiting": bool(config.get("wait")) and not room.finished,
                          "turn_seconds": config.get("turn_seconds") or 0})
        if len(found) >= LISTED:
            break
    return found


def join(tables, room_id, seat) -> dict:
    """Take a free seat of an open table: its link (UsageError when it is not free)."""
    from .tables import digest

    room = tables.rooms.get(room_id) if isinstance(room_id, str) else None
    if room is None or not is_open(room):
        raise UsageError("that table is not open any more: choose another")
    if type(seat) is not int or seat not in free_seats(tables, room):
        raise UsageError("that seat has been taken: choose another")
    token = secrets.token_urlsafe(18)
    room.tokens[seat] = digest(token)
    tables.storage.claim(room.id, seat, room.tokens[seat])
    return {"room": room.id, "seat": seat, "link": f"/room/{room.id}#seat={token}"}
