"""Rooms and their decisions in SQLite: nothing to set up, nothing lost on a restart.

A room is stored when it is made (its rules, seats, seed and the digests of its
seat tokens), and every decision as it is made, in the same transaction as how
far the room has shown its events: a server stopped at any moment comes back
with every room where it was, the engine replaying each game from its seed and
decisions. The database is in WAL mode, so a write does not wait for readers.
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
    finished INTEGER NOT NULL DEFAULT 0
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
"""


class Storage:
    """One SQLite database file (``:memory:`` for a server that keeps nothing)."""

    def __init__(self, path: str) -> None:
        self.path = path
        # one connection, used from the server's event loop (which may not be the thread
        # that opened it: test clients run the app in a thread of their own)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        # ... and by worker threads too (a new room is made in one): one transaction at a
        # time, or a second BEGIN lands inside the first and is refused
        self.lock = threading.RLock()
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # durable across a crash of the server
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def create_room(self, room_id: str, config: dict, seed: int, tokens: dict) -> None:
        """A new room with its rules and seats; ``tokens`` maps seats to token digests."""
        with self._transaction():
            self.db.execute("INSERT INTO rooms (id, created, config, seed) VALUES (?, ?, ?, ?)",
                            (room_id, time.time(), json.dumps(config), seed))
            self.db.executemany("INSERT INTO seats (room, seat, token) VALUES (?, ?, ?)",
                                [(room_id, seat, digest) for seat, digest in tokens.items()])

    def add_actions(self, room_id: str, first: int, options: list, released: int,
                    round_at: int | None, finished: bool) -> None:
        """Decisions ``first``, ``first + 1``, ... of a room, with its progress, at once."""
        with self._transaction():
            self.db.executemany("INSERT INTO actions (room, n, option) VALUES (?, ?, ?)",
                                [(room_id, first + i, json.dumps(option)) for i, option in enumerate(options)])
            self._progress(room_id, released, round_at, finished)

    def set_progress(self, room_id: str, released: int, round_at: int | None, finished: bool) -> None:
        with self._transaction():
            self._progress(room_id, released, round_at, finished)

    def _progress(self, room_id, released, round_at, finished) -> None:
        self.db.execute("UPDATE rooms SET released = ?, round_at = ?, finished = ? WHERE id = ?",
                        (released, round_at, int(finished), room_id))

    def rooms(self) -> list[dict]:
        """Every room: its id, rules, seed, progress and seat token digests."""
        found = []
        with self.lock:
            rows = self.db.execute(
                "SELECT id, config, seed, released, round_at, finished FROM rooms ORDER BY created").fetchall()
            for room_id, config, seed, released, round_at, finished in rows:
                tokens = dict(self.db.execute("SELECT seat, token FROM seats WHERE room = ?", (room_id,)))
                found.append({"id": room_id, "config": json.loads(config), "seed": seed, "released": released,
                              "round_at": round_at, "finished": bool(finished), "tokens": tokens})
        return found

    def actions(self, room_id: str) -> list:
        with self.lock:
            rows = self.db.execute("SELECT option FROM actions WHERE room = ? ORDER BY n", (room_id,)).fetchall()
        return [json.loads(option) for (option,) in rows]

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
