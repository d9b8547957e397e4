"""Rooms and their decisions in SQLite: nothing to set up, nothing lost on a restart.

A room is stored when it is made (its rules, seats, seed and the digests of its
seat tokens), and every decision as it is made, in the same transaction as how
far the room has shown its events: a server stopped at any moment comes back
with every room where it was, the engine replaying each game from its seed and
decisions. The database is in WAL mode, so a write does not wait for readers. The
processes that run uploaded rules (lane_worker.py) open it too, for their tables:
SQLite keeps one writer at a time, and a process killed half-way through a write
leaves the database as it was before that transaction.

Tables do not live for ever: each row says when the room was last played in and
when its game ended (wall-clock seconds, so they mean the same after a restart),
and :meth:`Storage.retire` drops a room's rows (room, seats, decisions) in one
transaction, leaving a small note that it closed so its link can say so.
A database made before those columns existed is brought up to date when opened.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    config TEXT NOT NULL,
    seed INTEGER NOT NULL,
    released INTEGER NOT NULL DEFAULT 0,
    round_at INTEGER,
    finished INTEGER NOT NULL DEFAULT 0,
    active_at REAL,
    finished_at REAL
);
CREATE TABLE IF NOT EXISTS seats (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    option TEXT NOT NULL,
    PRIMARY KEY (room, n)
);
-- the people around a table (web/social.py): chosen names, chat lines, the next game
CREATE TABLE IF NOT EXISTS names (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS chat (
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    seat INTEGER,
    name TEXT NOT NULL,
    text TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (room, n)
);
CREATE TABLE IF NOT EXISTS rematches (
    room TEXT PRIMARY KEY,
    next TEXT NOT NULL
);
-- the seats of open tables someone has taken (web/open_tables.py)
CREATE TABLE IF NOT EXISTS claims (
    room TEXT NOT NULL,
    seat INTEGER NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS closed (
    id TEXT PRIMARY KEY,
    at REAL NOT NULL,
    reason TEXT NOT NULL
);
"""

#: columns added to ``rooms`` since the first schema: (name, type)
ADDED = (("active_at", "REAL"), ("finished_at", "REAL"))
#: how long a closed room's link still says why it closed (then: no such table)
CLOSED_KEPT = 30 * 86400.0


class Storage:
    """One SQLite database file (``:memory:`` for a server that keeps nothing)."""

    def __init__(self, path: str, wall=time.time) -> None:
        self.path = path
        self.wall = wall  # wall-clock seconds, what is stored (a test gives its own)
        # one connection, used from the server's event loop (which may not be the thread
        # that opened it: test clients run the app in a thread of their own)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        # ... and by worker threads too (a new room is made in one): one transaction at a
        # time, or a second BEGIN lands inside the first and is refused
        self.lock = threading.RLock()
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # durable across a crash of the server
        self.db.executescript(SCHEMA)
        self._migrate()

    def _migrate(self) -> None:
        """Add the columns a database made by an older kittens lacks. Nobody knows when
        its rooms were last played in or ended: they count from now, so an upgrade closes
        no game at once (each gets the full time from the upgrade on)."""
        with self._transaction():
            have = {row[1] for row in self.db.execute("PRAGMA table_info(rooms)")}
            missing = [(name, kind) for name, kind in ADDED if name not in have]
            for name, kind in missing:
                self.db.execute(f"ALTER TABLE rooms ADD COLUMN {name} {kind}")
            if missing:
                now = self.wall()
                self.db.execute("UPDATE rooms SET active_at = ? WHERE active_at IS NULL", (now,))
                self.db.execute("UPDATE rooms SET finished_at = ? WHERE finished_at IS NULL AND finished",
                                (now,))

    def close(self) -> None:
        self.db.close()

    def create_room(self, room_id: str, config: dict, seed: int, tokens: dict) -> None:
        """A new room with its rules and seats; ``tokens`` maps seats to token digests."""
        with self._transaction():
            now = self.wall()
            self.db.execute("INSERT INTO rooms (id, created, config, seed, active_at) VALUES (?, ?, ?, ?, ?)",
                            (room_id, now, json.dumps(config), seed, now))
            self.db.executemany("INSERT INTO seats (room, seat, token) VALUES (?, ?, ?)",
                                [(room_id, seat, digest) for seat, digest in tokens.items()])

    def add_actions(self, room_id: str, first: int, options: list, released: int,
                    round_at: int | None, finished: bool) -> None:
        """Decisions ``first``, ``first + 1``, ... of a room, with its progress, at once; the
        room was played in now. Nothing is stored for a room that was retired meanwhile."""
        with self._transaction():
            if self.db.execute("SELECT 1 FROM rooms WHERE id = ?", (room_id,)).fetchone() is None:
                return
            self.db.execute("UPDATE rooms SET active_at = ? WHERE id = ?", (self.wall(), room_id))
            self.db.executemany("INSERT INTO actions (room, n, option) VALUES (?, ?, ?)",
                                [(room_id, first + i, json.dumps(option)) for i, option in enumerate(options)])
            self._progress(room_id, released, round_at, finished)

    def set_config(self, room_id: str, config: dict) -> None:
        """A room's config changed (it started, a bot stands in for a person, or no more)."""
        with self._transaction():
            self.db.execute("UPDATE rooms SET config = ? WHERE id = ?", (json.dumps(config), room_id))

    def config(self, room_id: str) -> dict | None:
        """A room's config as stored (None: no such room)."""
        with self.lock:
            row = self.db.execute("SELECT config FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return None if row is None else json.loads(row[0])

    def claim(self, room_id: str, seat: int, token: str | None = None) -> None:
        """Someone took a seat of an open table (with ``token``: its new token's digest)."""
        with self._transaction():
            self.db.execute("INSERT OR IGNORE INTO claims (room, seat) VALUES (?, ?)", (room_id, seat))
            if token is not None:
                self.db.execute("UPDATE seats SET token = ? WHERE room = ? AND seat = ?", (token, room_id, seat))

    def claimed(self, room_id: str) -> set:
        """The seats of a table someone has taken."""
        with self.lock:
            rows = self.db.execute("SELECT seat FROM claims WHERE room = ?", (room_id,)).fetchall()
        return {seat for (seat,) in rows}

    def set_progress(self, room_id: str, released: int, round_at: int | None, finished: bool) -> None:
        with self._transaction():
            self._progress(room_id, released, round_at, finished)

    def _progress(self, room_id, released, round_at, finished) -> None:
        # finished_at is set once, when the game is first stored as over
        self.db.execute("UPDATE rooms SET released = ?, round_at = ?, finished = ?, "
                        "finished_at = CASE WHEN ? THEN COALESCE(finished_at, ?) END WHERE id = ?",
                        (released, round_at, int(finished), int(finished), self.wall(), room_id))

    def rooms(self) -> list[dict]:
        """Every room: its id, rules, seed, progress, seat token digests, and when it was
        last played in and ended (wall clock; ``finished_at`` None while it is played)."""
        found = []
        with self.lock:
            rows = self.db.execute(
                "SELECT id, config, seed, released, round_at, finished, active_at, finished_at "
                "FROM rooms ORDER BY created").fetchall()
            for room_id, config, seed, released, round_at, finished, active_at, finished_at in rows:
                tokens = dict(self.db.execute("SELECT seat, token FROM seats WHERE room = ?", (room_id,)))
                found.append({"id": room_id, "config": json.loads(config), "seed": seed, "released": released,
                              "round_at": round_at, "finished": bool(finished), "tokens": tokens,
                              "active_at": active_at, "finished_at": finished_at})
        return found

    def progress(self, room_id: str) -> tuple[int, int | None] | None:
        """How far a room has shown its events, and the event of its open round: (released,
        round_at); None when no such room is stored."""
        with self.lock:
            row = self.db.execute("SELECT released, round_at FROM rooms WHERE id = ?", (room_id,)).fetchone()
        return None if row is None else (row[0], row[1])

    def actions(self, room_id: str) -> list:
        with self.lock:
            rows = self.db.execute("SELECT option FROM actions WHERE room = ? ORDER BY n", (room_id,)).fetchall()
        return [json.loads(option) for (option,) in rows]

    def retire(self, reasons: dict) -> None:
        """Drop rooms (``reasons``: room id -> why it closed) with their seats and decisions,
        in one transaction, noting that each closed and why; notes older than
        ``CLOSED_KEPT`` go."""
        if not reasons:
            return
        now = self.wall()
        with self._transaction():
            for table, column in (("actions", "room"), ("seats", "room"), ("names", "room"), ("chat", "room"),
                                  ("rematches", "room"), ("claims", "room"), ("rooms", "id")):
                self.db.executemany(f"DELETE FROM {table} WHERE {column} = ?", [(rid,) for rid in reasons])
            self.db.executemany("INSERT OR REPLACE INTO closed (id, at, reason) VALUES (?, ?, ?)",
                                [(rid, now, reason) for rid, reason in reasons.items()])
            self.db.execute("DELETE FROM closed WHERE at < ?", (now - CLOSED_KEPT,))

    def closed(self, room_id: str) -> str | None:
        """Why a retired room closed (None: no room of that id closed lately)."""
        with self.lock:
            row = self.db.execute("SELECT reason FROM closed WHERE id = ?", (room_id,)).fetchone()
        return row[0] if row else None

    # -- the people around a table (web/social.py) -----------------------------------------
    def names(self, room_id: str) -> dict[int, str]:
        """The names chosen at a room's seats: seat -> name."""
        with self.lock:
            rows = self.db.execute("SELECT seat, name FROM names WHERE room = ?", (room_id,)).fetchall()
        return {seat: name for seat, name in rows}

    def set_name(self, room_id: str, seat: int, name: str) -> None:
        """The person at ``seat`` is called ``name`` now (a name chosen before is replaced)."""
        with self._transaction():
            self.db.execute("INSERT OR REPLACE INTO names (room, seat, name) VALUES (?, ?, ?)", (room_id, seat, name))

    def chat(self, room_id: str, most: int) -> list[dict]:
        """A room's last ``most`` chat lines, oldest first: each ``n``, ``seat``, ``name``,
        ``text`` and ``at``."""
        with self.lock:
            rows = self.db.execute("SELECT n, seat, name, text, at FROM chat WHERE room = ? ORDER BY n DESC LIMIT ?",
                                   (room_id, most)).fetchall()
        return [{"n": n, "seat": seat, "name": name, "text": text, "at": at}
                for n, seat, name, text, at in reversed(rows)]

    def add_chat_line(self, room_id: str, line: dict, keep: int) -> None:
        """A chat line (``n``, ``seat``, ``name``, ``text``, ``at``) of a room; only the room's
        last ``keep`` lines, by number, stay stored."""
        with self._transaction():
            self.db.execute("INSERT INTO chat (room, n, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?)",
                            (room_id, line["n"], line["seat"], line["name"], line["text"], line["at"]))
            self.db.execute("DELETE FROM chat WHERE room = ? AND n <= ?", (room_id, line["n"] - keep))

    def next_game(self, room_id: str) -> str | None:
        """The room of a table's next game (its rematch), if one was made."""
        with self.lock:
            row = self.db.execute("SELECT next FROM rematches WHERE room = ?", (room_id,)).fetchone()
        return row[0] if row else None

    def set_next_game(self, room_id: str, next_id: str) -> None:
        """The table's next game is played in the room ``next_id``."""
        with self._transaction():
            self.db.execute("INSERT OR REPLACE INTO rematches (room, next) VALUES (?, ?)", (room_id, next_id))

    def _transaction(self):
        return _Transaction(self.db, self.lock)


class _Transaction:
    def __init__(self, db, lock) -> None:
        self.db, self.lock = db, lock

    def __enter__(self):
        self.lock.acquire()
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self.lock.release()
            raise
        return self.db

    def __exit__(self, kind, value, traceback) -> None:
        try:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        finally:
            self.lock.release()
