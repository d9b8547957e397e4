"""The people around a table: their names, who is online, who watches, the chat, and
the rematch.

A :class:`Social` belongs to one room. Names and chat lines are stored in the room's
database as they are made (rows of ``names`` and ``chat``, dropped with the room), so
a server restarted comes back with them. Nothing here reads the game: a name, a chat
line or a count of watchers says nothing about a hand.

Limits, so a table's chat cannot be used to flood a server or a page: a name is at most
:data:`NAME_CHARS` characters, a chat line :data:`CHAT_CHARS`; a connection may send
:data:`CHAT_BURST` lines at once and one every :data:`CHAT_EVERY` seconds after that;
a room keeps its last :data:`CHAT_KEPT` lines. The page shows every text as text
(never as markup), so a line with a ``<script>`` in it is only read.
"""

from __future__ import annotations

import secrets
import time
import unicodedata

from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from .render import SPECTATOR

NAME_CHARS = 24
CHAT_CHARS = 300
CHAT_KEPT = 200
CHAT_BURST = 5
CHAT_EVERY = 1.0


class SocialError(Exception):
    """A name or chat line refused; ``code`` says why, for the page."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def clean(text, most: int, what: str) -> str:
    """``text`` with control characters dropped and runs of spaces made one; a
    SocialError when it is not text, empty or longer than ``most``."""
    if not isinstance(text, str):
        raise SocialError(f"a {what} is text", f"bad-{what}")
    kept = "".join(" " if ch.isspace() else ch for ch in text
                   if ch.isspace() or unicodedata.category(ch)[0] != "C")
    kept = " ".join(kept.split())
    if not kept:
        raise SocialError(f"write a {what} first", f"bad-{what}")
    if len(kept) > most:
        raise SocialError(f"a {what} may be at most {most} characters", f"bad-{what}")
    return kept


class Social:
    """Names, presence, chat and the next game of one room."""

    def __init__(self, room, storage=None, wall=time.time) -> None:
        self.room = room
        self.storage = storage
        self.wall = wall
        self.names: dict[int, str] = {}
        self.chat: list[dict] = []
        self.next: str | None = None  # the rematch's room, once there is one
        self.count = 0  # chat lines ever written at this table (numbers them)
        if storage is not None:
            self.names, self.chat, self.next = _load(storage, room.id)
            self.count = self.chat[-1]["n"] + 1 if self.chat else 0
        room.words.chosen = self.names
        room.social = self

    # -- what a connection is told ------------------------------------------------
    def welcome(self) -> dict:
        """What a new connection learns besides the table: names, chat, presence, next game."""
        return {"named": [seat in self.names for seat in range(self.room.game.players)],
                "chat": self.chat[-100:], "next": self.next, **self.presence()}

    def presence(self) -> dict:
        """Which seats have a page open, and how many pages watch."""
        online = {listener.seat for listener in self.room.listeners if listener.seat is not SPECTATOR}
        watchers = sum(1 for listener in self.room.listeners if listener.seat is SPECTATOR)
        return {"online": [seat in online for seat in range(self.room.game.players)], "watchers": watchers}

    def tell(self, message: dict) -> None:
        """Send to every connection that asked for the people (``"social": true`` in its
        hello): a client that shows only the game is sent only the game."""
        for listener in list(self.room.listeners):
            if getattr(listener, "social", False):
                listener.send(message)

    def changed_presence(self) -> None:
        self.tell({"type": "presence", **self.presence()})

    # -- what people do -----------------------------------------------------------
    def rename(self, seat, name) -> None:
        """The person at ``seat`` chooses the name the table calls them."""
        if seat is SPECTATOR:
            raise SocialError("spectators watch: open a seat's link to take a name", "spectator")
        name = clean(name, NAME_CHARS, "name")
        words = self.room.words
        taken = {words.seat_name(other).casefold() for other in range(self.room.game.players) if other != seat}
        if name.casefold() in taken or name.casefold() == "you":
            raise SocialError(f"'{name}' is taken at this table: choose another name", "name-taken")
        self.names[seat] = name
        if self.storage is not None:
            _store_name(self.storage, self.room.id, seat, name)
        self.tell({"type": "names", "names": self.room.names(), "named": self.welcome()["named"]})
        for listener in self.room.listeners:  # the log again from its start: the name in every line
            listener.cursor = 0
        self.room._publish()

    def say(self, listener, text) -> dict:
        """A chat line from the person at the listener's seat, told to everyone at the table."""
        if listener.seat is SPECTATOR:
            raise SocialError("spectators read the chat: open a seat's link to write", "spectator")
        text = clean(text, CHAT_CHARS, "message")
        now = time.monotonic()
        allowance, stamp = getattr(listener, "chat_allowance", (CHAT_BURST, now))
        allowance = min(CHAT_BURST, allowance + (now - stamp) / CHAT_EVERY)
        if allowance < 1:
            raise SocialError("you are writing too fast: wait a moment", "chat-flood")
        listener.chat_allowance = (allowance - 1, now)
        line = {"n": self.count, "seat": listener.seat, "name": self.room.words.seat_name(listener.seat),
                "text": text, "at": round(self.wall(), 3)}
        self.count += 1
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        if self.storage is not None:
            _store_line(self.storage, self.room.id, line)
        self.tell({"type": "chat", "line": line})
        return line


def rematch(tables, room, seat) -> str:
    """The next game at this table (made once; asking again gives the same one): the same
    rules, the same people and bots with the same links and names, each one seat on
    (who sat at seat 0 sits at seat 1, ...), and a new deal. Its room id; every page at
    this table is told, and follows with its own link."""
    social = room.social
    check_rematch(room, seat)
    if social.next is not None and social.next in tables.rooms:
        social.tell({"type": "rematch", "room": social.next})  # a page that missed it follows now
        return social.next
    new_id, config, tokens, names = next_seats(room, social.names)
    try:
        tables.make_room()
        new = tables.build(new_id, config, secrets.randbelow(1 << 31), tokens)
        tables.admit(new)
    except (RuleError, UsageError, GameError, OSError) as exc:
        raise SocialError(f"the next game could not start: {exc}", "no-rematch") from None
    new.social.names.update(names)
    store_names(tables.storage, new_id, names)
    new.social.chat = carried_chat(tables.storage, new_id, social.chat, room.config["players"])
    new.social.count = new.social.chat[-1]["n"] + 1 if new.social.chat else 0
    note_next(social, new_id)
    new.step()
    social.tell({"type": "rematch", "room": new_id})
    return new_id


def check_rematch(room, seat) -> None:
    """SocialError when the next game cannot start: asked by a spectator, or too early."""
    if seat is SPECTATOR:
        raise SocialError("spectators watch: a seat's link starts the next game", "spectator")
    if not room.finished and room.error is None:
        raise SocialError("the next game can start once this one is over", "not-over")


def next_seats(room, names: dict, results: list | None = None) -> tuple[str, dict, dict, dict]:
    """The next game's room id, config, seat tokens and names: everyone one seat on. The
    config keeps the table's results so far (``series``: each game's, this one's last,
    ``results`` or else read from the room) for the summary's tally across games."""
    players = room.config["players"]
    if results is None:
        results = room.summary(SPECTATOR)["results"]
    # the people are here: the next game starts at once, each person playing their seat
    config = dict(room.config, seats=[room.config["seats"][(seat - 1) % players] for seat in range(players)],
                  series=list(room.config.get("series") or [])[-99:] + [results],
                  wait=False, standins=[], open=False)
    tokens = {(int(old) + 1) % players: token for old, token in room.tokens.items()}
    return (secrets.token_urlsafe(9), config, tokens,
            {(int(old) + 1) % players: name for old, name in names.items()})


def carried_chat(storage, room_id: str, chat: list, players: int) -> list:
    """The table's chat, carried into its next game ``room_id`` (stored there): the same
    lines and names, each writer's seat one on, as the people are."""
    lines = [dict(line, seat=(line["seat"] + 1) % players) for line in chat[-CHAT_KEPT:]]
    if storage is not None:
        for line in lines:
            _store_line(storage, room_id, line)
    return lines


def store_names(storage, room_id: str, names: dict) -> None:
    if storage is not None:
        for seat, name in names.items():
            _store_name(storage, room_id, seat, name)


def note_next(social: Social, new_id: str) -> None:
    """The table's next game is ``new_id`` (stored, so a restart keeps the link)."""
    social.next = new_id
    if social.storage is not None:
        with social.storage._transaction() as db:
            db.execute("INSERT OR REPLACE INTO rematches (room, next) VALUES (?, ?)", (social.room.id, new_id))


# -- the database rows (tables in storage.SCHEMA, dropped with their room) --------------
def _load(storage, room_id: str):
    with storage.lock:
        db = storage.db
        names = {seat: name for seat, name in db.execute("SELECT seat, name FROM names WHERE room = ?", (room_id,))}
        rows = db.execute("SELECT n, seat, name, text, at FROM chat WHERE room = ? ORDER BY n DESC LIMIT ?",
                          (room_id, CHAT_KEPT)).fetchall()
        found = db.execute("SELECT next FROM rematches WHERE room = ?", (room_id,)).fetchone()
    chat = [{"n": n, "seat": seat, "name": name, "text": text, "at": at} for n, seat, name, text, at in reversed(rows)]
    return names, chat, found[0] if found else None


def _store_name(storage, room_id: str, seat: int, name: str) -> None:
    with storage._transaction() as db:
        db.execute("INSERT OR REPLACE INTO names (room, seat, name) VALUES (?, ?, ?)", (room_id, seat, name))


def _store_line(storage, room_id: str, line: dict) -> None:
    with storage._transaction() as db:
        db.execute("INSERT INTO chat (room, n, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                   (room_id, line["n"], line["seat"], line["name"], line["text"], line["at"]))
        db.execute("DELETE FROM chat WHERE room = ? AND n <= ?", (room_id, line["n"] - CHAT_KEPT))
