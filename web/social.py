"""The people around a table: their names, who is online, who watches, the chat, and
the rematch.

A :class:`Social` belongs to one room. Names and chat lines are stored in the room's
database as they are made (rows of ``names`` and ``chat``, dropped with the room), so
a server restarted comes back with them. Nothing here reads the game: a name, a chat
line or a count of watchers says nothing about a hand. A Social is made from what the
database holds and then attached to its room (:meth:`Social.attach`): making one
changes nothing.

Limits, so a table's chat cannot be used to flood a server or a page: a name is at most
:data:`NAME_CHARS` characters, a chat line :data:`CHAT_CHARS`; a connection may send
:data:`CHAT_BURST` lines at once and one every :data:`CHAT_EVERY` seconds after that;
a room keeps its last :data:`CHAT_KEPT` lines. The page shows every text as text
(never as markup), so a line with a ``<script>`` in it is only read. The rate is kept
by a :class:`ChatLimit` on the social's own clock (seconds; a test gives its own).
"""

from __future__ import annotations

import secrets
import time
import unicodedata
import weakref

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


class ChatLimit:
    """How many chat lines each writer may send now: :data:`CHAT_BURST` at once, then one
    every :data:`CHAT_EVERY` seconds (a bucket per writer that fills on ``clock``). A
    writer is any object that can be weakly referred to (a connection): its bucket goes
    with it."""

    def __init__(self, clock=time.monotonic, burst: int = CHAT_BURST, every: float = CHAT_EVERY) -> None:
        self.clock, self.burst, self.every = clock, burst, every
        self.buckets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # writer -> (allowance, when)

    def take(self, writer) -> bool:
        """Whether ``writer`` may send a line now (if so, it is counted)."""
        now = self.clock()
        allowance, stamp = self.buckets.get(writer, (self.burst, now))
        allowance = min(self.burst, allowance + (now - stamp) / self.every)
        if allowance < 1:
            return False
        self.buckets[writer] = (allowance - 1, now)
        return True


class Social:
    """Names, presence, chat and the next game of one room. ``wall`` stamps the chat lines
    (wall-clock seconds), ``clock`` paces them (any seconds: see :class:`ChatLimit`)."""

    def __init__(self, room, storage=None, wall=time.time, clock=time.monotonic) -> None:
        self.room = room
        self.storage = storage
        self.wall = wall
        self.limit = ChatLimit(clock)
        self.names: dict[int, str] = {}
        self.chat: list[dict] = []
        self.next: str | None = None  # the rematch's room, once there is one
        self.count = 0  # chat lines ever written at this table (numbers them)
        if storage is not None:
            self.names = storage.names(room.id)
            self.chat = storage.chat(room.id, CHAT_KEPT)
            self.next = storage.next_game(room.id)
            self.count = self.chat[-1]["n"] + 1 if self.chat else 0

    def attach(self) -> Social:
        """Seat these people at their room: its words call each seat by its chosen name, and
        the room tells them who comes and goes. This social, for chaining."""
        self.room.words.chosen = self.names
        self.room.social = self
        return self

    def carry(self, names: dict, chat: list) -> None:
        """The people of the game before, come to this one: their names (already one seat
        on) and their chat (see :func:`carried_chat`)."""
        self.names.update(names)  # the same dict as the words' chosen names
        self.chat = chat
        self.count = chat[-1]["n"] + 1 if chat else 0

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
            self.storage.set_name(self.room.id, seat, name)
        self.tell({"type": "names", "names": self.room.names(), "named": self.welcome()["named"]})
        for listener in self.room.listeners:  # the log again from its start: the name in every line
            listener.cursor = 0
        self.room.publish()

    def say(self, listener, text) -> dict:
        """A chat line from the person at the listener's seat, told to everyone at the table."""
        if listener.seat is SPECTATOR:
            raise SocialError("spectators read the chat: open a seat's link to write", "spectator")
        text = clean(text, CHAT_CHARS, "message")
        if not self.limit.take(listener):
            raise SocialError("you are writing too fast: wait a moment", "chat-flood")
        line = {"n": self.count, "seat": listener.seat, "name": self.room.words.seat_name(listener.seat),
                "text": text, "at": round(self.wall(), 3)}
        self.count += 1
        self.chat.append(line)
        del self.chat[:-CHAT_KEPT]
        if self.storage is not None:
            self.storage.add_chat_line(self.room.id, line, CHAT_KEPT)
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
        tables.retire_for_new_table()
        new = tables.build(new_id, config, secrets.randbelow(1 << 31), tokens)
        tables.admit(new)
    except (RuleError, UsageError, GameError, OSError) as exc:
        raise SocialError(f"the next game could not start: {exc}", "no-rematch") from None
    store_names(tables.storage, new_id, names)
    new.social.carry(names, carried_chat(tables.storage, new_id, social.chat, room.config["players"]))
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
            storage.add_chat_line(room_id, line, CHAT_KEPT)
    return lines


def store_names(storage, room_id: str, names: dict) -> None:
    if storage is not None:
        for seat, name in names.items():
            storage.set_name(room_id, seat, name)


def note_next(social: Social, new_id: str) -> None:
    """The table's next game is ``new_id`` (stored, so a restart keeps the link)."""
    social.next = new_id
    if social.storage is not None:
        social.storage.set_next_game(social.room.id, new_id)

