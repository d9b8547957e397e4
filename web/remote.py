"""A table whose rules run in a lane (lanes.py): what the server keeps of it, and its jobs.

A :class:`RemoteRoom` stands in the server for a table of an uploaded house rule,
whose :class:`~kittens.web.room.Room` lives in a lane's process. The server keeps
what it needs without asking the lane: the table's config, seed and seat digests,
the pages that watch it, and where its game stands (``active``, ``ended``,
``finished``, ``error``: each job's answer brings them). Everything else is a job:
``await room.act(...)`` sends the choice and returns once the lane has played it
(or raises what the room refused with: ``ActError``, ``SocialError``), while the
messages for the pages arrive from the lane as they are sent.

When the lane's process has stopped (killed for a job past its time, or crashed),
the table is set up again in a new one, from the database, before its next job: its
pages are attached again without a word, and only a table whose own move ran too
long shows a change: its game stops there, saying why (the move was never played,
so it is not stored either).
"""

from __future__ import annotations

import logging
import secrets

from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from .lanes import Lane, LaneError, Lanes, Overran, Stale, raise_failure
from .room import ActError, closed_message
from .social import SocialError, carried_chat, next_seats, store_names

log = logging.getLogger("kittens.web")

#: how often a job follows its table to a new lane process before it gives up
ATTEMPTS = 3


class RemoteSocial:
    """The people of a table in a lane: names and chat, as jobs (see social.Social)."""

    def __init__(self, room: RemoteRoom) -> None:
        self.room = room

    async def rename(self, seat, name) -> None:
        await self.room.job("rename", seat=seat, name=name)

    async def say(self, listener, text) -> None:
        await self.room.job("say", listener=getattr(listener, "number", None), text=text)


class RemoteRoom:
    """A table of uploaded rules, held by ``lane``; ``on_lost(room, why)`` is called when
    it cannot be set up again (the server lets it go)."""

    def __init__(self, pool: Lanes, lane: Lane, room_id: str, config: dict, seed: int, tokens: dict, *,
                 active: float, ended: float | None = None, finished: bool = False, on_lost=None) -> None:
        self.id, self.config, self.seed, self.tokens = room_id, config, seed, tokens
        self.pool, self.lane = pool, lane
        self.listeners: list = []
        self.active, self.ended, self.finished = active, ended, finished
        self.error: str | None = None  # why its game stopped, if it did
        self.closed: str | None = None
        self.built: int | None = None  # the generation of the lane process that holds it, if one does
        self.social = RemoteSocial(self)
        self.on_lost = on_lost
        lane.rooms.add(room_id)
        pool.rooms[room_id] = self

    # -- setting up -------------------------------------------------------------------
    async def open(self, restore: bool) -> None:
        """Set the table up in its lane: dealt anew, or (``restore``) replayed from the
        database, with its pages and, for a game stopped, why."""
        listeners = [self._given(listener) for listener in self.listeners]
        reply = await self.lane.run("open", {
            "room": self.id, "config": self.config, "seed": self.seed, "tokens": self.tokens,
            "restore": restore, "active": self.active, "ended": self.ended, "error": self.error,
            "listeners": listeners}, self.pool.setup_seconds, "set the table up")
        self._take(reply)
        self.built = reply["lane"]

    async def ensure(self) -> None:
        """Set the table up again if its lane's process has stopped since; a table that
        cannot be is let go (``on_lost``), and LaneError raised."""
        if self.built is not None or self.closed is not None:
            return
        try:
            await self.open(restore=True)
        except (LaneError, RuleError, UsageError, GameError) as exc:
            why = f"it could not be set up again: {exc}"
            log.warning("table %s let go: %s", self.id, why)
            if self.on_lost is not None:
                self.on_lost(self, why)
            raise LaneError(why) from None

    # -- jobs -------------------------------------------------------------------------
    async def job(self, op: str, **args):
        """One job of this table in its lane (set up first if it must be): its value."""
        if self.closed is not None:  # a page that found it before it closed
            raise ActError(f"This table has closed: {self.closed}.", "closed")
        for _ in range(ATTEMPTS):
            await self.ensure()
            try:
                reply = await self.lane.run(op, {"room": self.id, **args}, self.pool.move_seconds,
                                            "play one move", expect=self.built)
            except Stale:  # its process stopped between the two: set it up again
                continue
            except Overran as exc:
                await self._stopped(exc)
                raise
            self._take(reply)
            return reply.get("value")
        raise LaneError("the process running these rules keeps stopping: try again in a moment")

    def _take(self, reply: dict) -> None:
        """Where the game stands, the CPU it used; what the job refused with, raised."""
        state = reply.get("room")
        if state is not None:
            self.active, self.ended = state["active"], state["ended"]
            self.finished, self.error = state["finished"], state["error"]
        self.pool.charge(self.id, reply.get("cpu") or 0.0)
        if "error" in reply:
            raise_failure(reply["error"])

    async def _stopped(self, exc: Overran) -> None:
        """A job of this table ran past its limit: its game stops before that move, and its
        pages are shown why (the table set up again, with the reason)."""
        self.error = (f"one move took longer than {exc.limit:g} s, as long as this server gives one move: "
                      "the rules do too much work, so the game stopped before it (that move was not played)")
        log.warning("table %s stopped: %s", self.id, self.error)
        self.pool.charge(self.id, exc.limit)
        await self.ensure()
        exc.args = (self.error,)

    # -- what the server asks ---------------------------------------------------------------
    async def attach(self, listener) -> None:
        listener.number = self.pool.register(listener)
        try:
            await self.job("attach", listener=self._given(listener))
        except BaseException:
            self.pool.unregister(listener.number)
            raise
        self.listeners.append(listener)

    async def detach(self, listener) -> None:
        self.forget(listener)
        if self.built is not None:  # a table not set up has nothing to detach
            await self.job("detach", listener=listener.number)

    def forget(self, listener) -> None:
        """Let a page go here and now (its lane may not be asked)."""
        if listener in self.listeners:
            self.listeners.remove(listener)
        self.pool.unregister(getattr(listener, "number", None))

    async def act(self, seat, prompt, choice) -> None:
        await self.job("act", seat=seat, prompt=prompt, choice=choice)

    async def step(self) -> None:
        await self.job("step")

    async def ready(self, seat) -> None:  # the waiting room and stand-ins: seating.py
        self.config = await self.job("ready", seat=seat)

    async def start(self, seat) -> None:
        self.config = await self.job("start", seat=seat)

    async def take_over(self, seat) -> None:
        self.config = await self.job("take_over", seat=seat)

    async def fire(self, number: int, generation: int) -> None:
        """A timer the lane set is due (unless its process has stopped since)."""
        if self.built == generation:
            await self.job("fire", timer=number)

    async def game_log(self) -> str:
        return await self.job("game_log")

    async def replay(self, viewer) -> dict:
        return await self.job("replay", viewer=viewer)

    def close(self, reason: str) -> None:
        """The server retired this table: its pages are told why, its lane lets it go."""
        self.closed = reason
        listeners, self.listeners = self.listeners, []
        for listener in listeners:
            listener.send(closed_message(reason))
            self.pool.unregister(getattr(listener, "number", None))
        self.pool.forget(self)

    def tell(self, message: dict) -> None:
        """Send to every page that shows the people (as social.Social.tell does)."""
        for listener in list(self.listeners):
            if getattr(listener, "social", False):
                listener.send(message)

    @staticmethod
    def _given(listener) -> dict:
        return {"id": listener.number, "seat": listener.seat, "social": getattr(listener, "social", False)}


async def rematch(tables, room: RemoteRoom, seat) -> str:
    """social.rematch for a table in a lane: the next game, set up in a lane too."""
    found = await room.job("rematch", seat=seat)
    if found["next"] is not None and found["next"] in tables.rooms:
        room.tell({"type": "rematch", "room": found["next"]})  # a page that missed it follows now
        return found["next"]
    new_id, config, tokens, names = next_seats(room, {int(seat_): name for seat_, name in found["names"]},
                                               found.get("results"))
    try:
        tables.retire_for_new_table()
        store_names(tables.storage, new_id, names)  # before it is set up: its people read them
        carried_chat(tables.storage, new_id, found.get("chat") or [], room.config["players"])  # and its chat
        new = await tables.open_remote(new_id, config, secrets.randbelow(1 << 31), tokens)
        tables.admit(new)
    except (RuleError, UsageError, GameError, OSError, LaneError) as exc:
        raise SocialError(f"the next game could not start: {exc}", "no-rematch") from None
    await room.job("next_game", next=new_id)
    await new.step()
    room.tell({"type": "rematch", "room": new_id})
    return new_id
