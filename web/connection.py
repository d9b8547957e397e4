"""One websocket of a table: its frames checked, its messages handed to the room, and
what the room sends queued back (the protocol is in app.py's opening).

:func:`serve` lets a connection in (or tells it why not: its device was cut off for
flooding lately, or there is no such table) and hands it to a :class:`Connection`,
which reads frames until the page goes: each checked (rate, size, JSON, type), each
refusal an ``error`` that changes nothing. A room's work runs in the table's lane
(``tables.runner``); what a room sends goes through a queue, so a page that does not
read is let go rather than waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import open_tables
from .lanes import LaneError
from .remote import RemoteRoom
from .remote import rematch as remote_rematch
from .room import ActError, Listener
from .runner import Stopping, threadsafe
from .site import Site, TokenBucket, parse_json
from .social import SocialError, rematch

log = logging.getLogger("kittens.web")


async def serve(websocket: WebSocket, site: Site) -> None:
    """One websocket: hello, then actions; every frame checked, every refusal an error."""
    await websocket.accept()
    address = websocket.client.host if websocket.client else ""
    wait = site.backoff.refused(address)
    if wait is not None:  # cut off for flooding lately: told how long to wait, and let go
        await send(websocket, {"type": "error", "code": "backoff", "message":
                               f"this device sent too many messages and was cut off: try again in "
                               f"{max(1, round(wait))} s"})
        await websocket.close(1008)
        return
    tables = site.tables
    room = tables.rooms.get(websocket.path_params["room"])
    if room is None:
        why = tables.closed(websocket.path_params["room"])
        if why is None:
            await send(websocket, {"type": "error", "code": "no-room", "message": "no such table"})
        else:
            await send(websocket, {"type": "error", "code": "closed", "message": f"This table has closed: {why}."})
        await websocket.close(4404 if why is None else 4410)
        return
    await Connection(websocket, site, room, address).run()


class Connection:
    """A page at one table, from its first frame to its last: who it is (``listener``,
    once it said hello), its rate and the queue of what it is sent."""

    def __init__(self, websocket: WebSocket, site: Site, room, address: str) -> None:
        self.websocket, self.room, self.address = websocket, room, address
        self.tables, self.settings, self.backoff = site.tables, site.settings, site.backoff
        self.runner = self.tables.runner
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue = asyncio.Queue()
        self.sender = asyncio.create_task(sender(websocket, self.queue))
        self.bucket = TokenBucket(self.settings.rate, self.settings.burst)
        self.listener: Listener | None = None
        self.flooded = 0  # frames refused for flooding so far

    def refuse(self, code: str, message: str) -> None:
        """An ``error`` for the page (the frame it sent changed nothing)."""
        self.queue.put_nowait({"type": "error", "code": code, "message": message})
        if code == "closed":  # the room was retired since this connection found it
            self.queue.put_nowait(None)

    def deliver(self, message: dict) -> None:
        """A message of the room for this page (from the loop's thread)."""
        if self.queue.qsize() >= self.settings.max_queue:  # a client that does not read: let it go
            self.sender.cancel()
            return
        self.queue.put_nowait(message)
        if message.get("code") == "closed":  # the room was retired: this is its last word
            self.queue.put_nowait(None)

    async def run(self) -> None:
        """Read frames until the page goes (or is cut off), then leave the table."""
        try:
            while True:
                frame = await self.websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                if not self.bucket.take():
                    if await self.flooding():
                        break
                    continue
                data = self.checked(frame)
                if data is not None:
                    await self.handle(data)
        except WebSocketDisconnect:
            pass
        finally:
            await self.leave()

    async def flooding(self) -> bool:
        """A frame past the rate, refused: True when there were too many, and this
        connection is closed (its device backed off)."""
        self.flooded += 1
        if self.flooded <= self.settings.flood_limit:
            self.refuse("flood", "too many messages: slow down")
            return False
        wait = self.backoff.strike(self.address)
        await send(self.websocket, {"type": "error", "code": "flooded", "message":
                                    "too many messages: this connection is closed, and this device "
                                    f"may connect again in {max(1, round(wait))} s"})
        await self.websocket.close(1008)
        return True

    def checked(self, frame: dict) -> dict | None:
        """The frame's JSON object, with a type; None (and the page told why) if it is not one."""
        text = frame.get("text")
        if text is None:
            self.refuse("binary", "send JSON text frames")
            return None
        if len(text) > self.settings.max_frame:
            self.refuse("too-large", f"a message may be at most {self.settings.max_frame} characters")
            return None
        data = parse_json(text)
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            self.refuse("malformed", "send a JSON object with a type")
            return None
        return data

    async def handle(self, data: dict) -> None:
        """Do what a checked frame asks; whatever is refused is told to the page."""
        try:
            await self.dispatch(data["type"], data)
        except (ActError, SocialError, LaneError) as exc:
            self.refuse(exc.code, str(exc))
        except Stopping:
            self.refuse("stopping", "the server is stopping: this page reconnects when it is back")
        except Exception:  # a bug: the client is told, the room goes on
            log.exception("room %s failed on a message", self.room.id)
            self.refuse("internal", "the server could not do that (a bug in kittens)")

    async def dispatch(self, kind: str, data: dict) -> None:
        room = self.room
        if kind == "hello":
            await self.hello(data)
        elif kind == "ping":
            self.queue.put_nowait({"type": "pong"})
        elif kind not in ("act", "ready", "start", "take_over", "name", "chat", "rematch"):
            raise ActError(f"unknown message type '{kind[:40]}'", "unknown-type")
        elif self.listener is None:
            raise ActError("say hello first", "no-hello")
        elif kind == "act":
            if "seat" in data and data["seat"] != self.listener.seat:
                raise ActError("you can only act for your own seat", "wrong-seat")
            await self.runner.call(room.id, room.act, self.listener.seat, data.get("prompt"), data.get("choice"))
        elif kind in ("ready", "start", "take_over"):  # who sits at the table: seating.py
            await self.runner.call(room.id, getattr(room, kind), self.listener.seat)
        else:  # the people around the table: social.py
            await self.people(kind, data)

    async def hello(self, data: dict) -> None:
        """The page says who it is (a seat's token, or none: a spectator) and joins the table."""
        if self.listener is not None:
            raise ActError("this connection has joined already", "joined")
        room = self.room
        seat = self.tables.seat_of(room, data.get("token"))
        open_tables.claim(self.tables, room, seat)  # an open table's seat is taken now
        listener = self.listener = Listener(seat, threadsafe(self.loop, self.deliver))
        listener.social = data.get("social") is True  # type: ignore[attr-defined]  # names, chat, presence too
        await self.runner.call(room.id, room.attach, listener)

    async def people(self, kind: str, data: dict) -> None:
        """A name, a chat line or the next game, in the table's lane like its moves (a
        slow table's room lives in a thread)."""
        room, listener = self.room, self.listener
        if kind == "name":
            await self.runner.call(room.id, room.social.rename, listener.seat, data.get("name"))
        elif kind == "chat":
            await self.runner.call(room.id, room.social.say, listener, data.get("text"))
        else:
            again = remote_rematch if isinstance(room, RemoteRoom) else rematch
            await self.runner.call(room.id, again, self.tables, room, listener.seat)

    async def leave(self) -> None:
        """The page has gone: it leaves the table, and its sender stops."""
        room, listener = self.room, self.listener
        if listener is not None:  # in the table's lane, like the hello that attached it
            try:
                await self.runner.call(room.id, room.detach, listener)
            except Exception:  # the server is stopping, or the table closed: leave directly
                (room.forget if isinstance(room, RemoteRoom) else room.detach)(listener)
        self.sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.sender


async def sender(websocket: WebSocket, queue: asyncio.Queue) -> None:
    """Send what is queued for a page, in order, until ``None`` (the room closed: goodbye)."""
    try:
        while True:
            message = await queue.get()
            if message is None:  # the room closed: say goodbye
                await websocket.close(4410)
                return
            await send(websocket, message)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await websocket.close(1008)
        raise
    except Exception:  # the connection went away: the reader will see it
        return


async def send(websocket: WebSocket, message: dict) -> None:
    await websocket.send_text(orjson.dumps(message).decode())
