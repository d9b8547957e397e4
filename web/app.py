"""The web table as an ASGI application (Starlette), served by uvicorn.

Pages: ``/`` (the lobby: make a table), ``/room/ID`` (a table; a seat's link
carries its token after ``#``, so it never reaches a server log),
``/room/ID/rules`` (the rulesheet), ``/room/ID/log`` (the finished game's log,
as ``kittens replay`` reads it). JSON: ``/api/lobby``, ``POST /api/uploads``,
``POST /api/rooms``. Websocket: ``/ws/ID``.

The websocket protocol, client to server, one JSON object per text frame:
``{"type": "hello", "token": ...}`` (no token: a spectator), then
``{"type": "act", "prompt": ID, "choice": N}`` (the N-th button of the prompt
with that id), or ``{"type": "ping"}``. Server to client: ``welcome`` (the
seat, the names, every card's title and text), ``update`` (the view, new log
lines, the prompt, the reaction window), ``error`` (``code``, ``message``),
``pong``; an ``error`` with code ``closed`` says the table has closed (the
connection closes after it, code 4410). Every frame is checked: its size, JSON,
type and fields, the rate (a token bucket per connection), that the prompt is
the seat's current one and the choice one of its buttons. A refused frame gets
an ``error`` and changes nothing. A connection cut off for flooding gets an
``error`` with code ``flooded``; its device's new connections are refused (code
``backoff``, saying how long to wait) for a while that doubles with each cut-off
(backoff.py). Rules run off the event loop (runner.py); uploaded rules in processes of
their own, stopped at their time limits (lanes.py): a move stopped so gets an ``error``
with code ``too-slow``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import html
import logging
import os
import sys
import time
from dataclasses import dataclass

import orjson
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..interpreter.engine.bots import BOTS
from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from . import open_tables, replay_view
from .backoff import Backoff
from .invite import InviteError, qr_svg
from .lanes import LaneError, Lanes
from .remote import RemoteRoom
from .remote import rematch as remote_rematch
from .room import ActError, Listener
from .rulesets import (
    CHECK_SECONDS,
    CLIENT_UPLOAD_BYTES,
    CLIENT_UPLOADS,
    MAX_UPLOAD_BYTES,
    MAX_UPLOADS,
    UploadError,
)
from .runner import SWITCH_INTERVAL, Runner, Stopping, threadsafe
from .social import SocialError, rematch
from .tables import Tables

STATIC = os.path.join(os.path.dirname(__file__), "static")
log = logging.getLogger("kittens.web")
#: seconds a stopping server waits for the requests and connections in flight before it
#: cancels them (uvicorn's graceful shutdown): a page waiting for a slow move is not
#: worth a server that will not stop
SHUTDOWN_SECONDS = 2.0
#: upload keys one device may ask about at once (it remembers at most this many)
KEPT_ASKED = 50


@dataclass
class Settings:
    """How a server runs; the defaults suit people at a table, tests shorten the clock."""

    data: str = ".kittens-serve"  # the SQLite database and the uploads
    rules: tuple = ()  # rule files the lobby offers besides the shipped editions
    answer_seconds: float = 6.0  # how long every reaction window round stays open
    bot_delay: float = 0.8  # how long a bot waits before it plays, so people can follow
    max_frame: int = 4096  # bytes in one client frame
    rate: float = 10.0  # frames a second a connection may send, on average
    burst: int = 30  # frames it may send at once
    flood_limit: int = 200  # frames refused for flooding before the connection is closed
    flood_backoff: float = 10.0  # seconds a device cut off for flooding is refused (doubling each time)
    flood_backoff_most: float = 3600.0  # ... up to this
    max_rooms: int = 2000  # rooms a server holds (when full, the table finished longest ago closes)
    keep_finished: float = 86400.0  # seconds a finished table stays open (to see the end, get the log)
    idle_seconds: float = 7 * 86400.0  # seconds after its last decision a table closes, finished or not
    sweep_seconds: float = 600.0  # how often a running server looks for tables to close
    max_body: int = 5 * 1024 * 1024  # bytes in one upload request
    form_rate: float = 0.5  # tables made and uploads sent a second by one address, on average
    form_burst: int = 20  # how many it may send at once
    max_uploads: int = MAX_UPLOADS  # uploads kept in --data (past that the least lately used expire)
    max_upload_bytes: int = MAX_UPLOAD_BYTES  # their bytes on disk
    client_uploads: int = CLIENT_UPLOADS  # uploads one address keeps (past that its own oldest expire)
    client_upload_bytes: int = CLIENT_UPLOAD_BYTES  # their bytes
    upload_seconds: float = CHECK_SECONDS  # how long checking one upload may take
    max_queue: int = 2000  # messages waiting for one slow connection before it is dropped
    freeze_gc: bool = False  # a server process of its own: keep what loaded at start out of GC passes
    rules_share: float = 0.25  # the share of a core one table's rules may use on average (runner.py)
    rules_burst: float = 5.0  # CPU seconds of rules one table may use at once
    # seconds one move may take before its table's game is stopped: an uploaded rule's move is
    # stopped half-way there (wall-clock, in its lane); one of the server's own rules, after (CPU)
    move_seconds: float = 10.0
    slow_job: float = 0.2  # CPU seconds of one job that send its table to the slow lane for good
    rule_lanes: int = 2  # processes that run uploaded rules (lanes.py; 0: in the server, as its own)
    setup_seconds: float = 10.0  # seconds a lane may take to compile and deal (or replay) a table


class TokenBucket:
    """``rate`` frames a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.stamp = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Limiter:
    """A token bucket per client address for the lobby's forms (new tables, uploads): one
    device sending them in a loop cannot use up the server's rooms and uploads for everyone.
    The server's own computer (loopback) is not limited: whoever runs the server may."""

    LOOPBACK = ("127.0.0.1", "::1", "localhost")

    def __init__(self, rate: float, burst: int, most: int = 10_000) -> None:
        self.rate, self.burst, self.most = rate, burst, most
        self.buckets: dict[str, TokenBucket] = {}

    def take(self, request: Request) -> bool:
        address = request.client.host if request.client else ""
        if address in self.LOOPBACK or address.startswith("127."):
            return True
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.most:  # forget them all rather than grow without end
                self.buckets.clear()
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket.take()


# -- the application --------------------------------------------------------------
def create_app(settings: Settings | None = None) -> Starlette:
    """The web table's ASGI application; rooms stored in ``settings.data`` come back
    when it starts."""
    settings = settings or Settings()
    holder: dict = {}
    limiter = Limiter(settings.form_rate, settings.form_burst)
    backoff = Backoff(settings.flood_backoff, settings.flood_backoff_most)
    slow_down = "too many new tables or uploads from this device: wait a few seconds"

    @contextlib.asynccontextmanager
    async def lifespan(app):
        tables = await run_in_threadpool(Tables, settings)
        lanes = None
        if settings.rule_lanes > 0:  # uploaded rules in processes of their own, stopped at their limits
            lanes = Lanes(settings.rule_lanes, settings.data, settings.answer_seconds, settings.bot_delay,
                          move_seconds=settings.move_seconds, setup_seconds=settings.setup_seconds)
        tables.runner = Runner(asyncio.get_running_loop(), share=settings.rules_share, burst=settings.rules_burst,
                               slow_job=settings.slow_job, move_seconds=settings.move_seconds, lanes=lanes)
        # a worker running rules holds the interpreter lock: the loop gets it back within this
        switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        restored = tables.restore()
        app.state.tables = holder["tables"] = tables
        app.state.stop_rules = tables.runner.close  # see serve(): the first thing a stopping server does
        tables.sweep()  # and every sweep_seconds from now on
        if settings.freeze_gc:
            # what start-up loaded (the compiled rules, the libraries) lives as long as the
            # server: leaving it out of the collector's full passes keeps them short, and
            # a full pass is a pause every table waits through
            gc.collect()
            gc.freeze()
        if restored:
            log.info("%d room(s) restored", restored)
        try:
            yield
        finally:
            await tables.runner.stop()
            tables.close()
            sys.setswitchinterval(switch)

    def tables() -> Tables:
        return holder["tables"]

    async def page(request: Request):
        return FileResponse(os.path.join(STATIC, "index.html"))

    def missing(room_id: str, page: bool):
        """What a link to no room gets: why it closed, if it did (410), else 404."""
        why = tables().closed(room_id)
        if page:
            return HTMLResponse(_missing_page(why), status_code=404 if why is None else 410)
        return _error("no such table" if why is None else f"this table has closed: {why}",
                      404 if why is None else 410)

    async def room_page(request: Request):
        if request.path_params["room"] not in tables().rooms:
            return missing(request.path_params["room"], page=True)
        return FileResponse(os.path.join(STATIC, "table.html"))

    async def lobby(request: Request):
        return JSONResponse({**tables().rulesets.lobby(), "bots": list(BOTS),
                             "answer_seconds": settings.answer_seconds})

    async def uploads(request: Request):
        if not limiter.take(request):
            return _error(slow_down, 429)
        body = await _body(request, settings.max_body)
        if body is None:
            return _error(f"an upload may be at most {settings.max_body:,} bytes", 413)
        data = _json(body)
        if not isinstance(data, dict):
            return _error("send a JSON object with a list of files", 400)
        try:
            result = await run_in_threadpool(tables().rulesets.upload, data.get("files"),
                                             request.client.host if request.client else "",
                                             tables().uploads_in_use())
        except UploadError as exc:
            return _error(str(exc), exc.status)
        return JSONResponse(result)

    async def kept_uploads(request: Request):
        """Which of a device's uploads (their lobby keys, remembered by the page) the server
        still keeps: the page lists those again and forgets the others."""
        if not limiter.take(request):
            return _error(slow_down, 429)
        body = await _body(request, 16 * 1024)
        data = _json(body) if body is not None else None
        keys = data.get("keys") if isinstance(data, dict) else None
        if not isinstance(keys, list) or len(keys) > KEPT_ASKED:
            return _error(f"send a list of at most {KEPT_ASKED} upload keys", 400)
        return JSONResponse({"kept": tables().rulesets.kept(keys)})

    async def open_list(request: Request):
        return JSONResponse({"tables": open_tables.listing(tables())})

    async def open_join(request: Request):
        if not limiter.take(request):
            return _error(slow_down, 429)
        body = await _body(request, 4 * 1024)
        data = _json(body) if body is not None else None
        if not isinstance(data, dict):
            return _error("send the table and the seat to take", 400)
        try:
            return JSONResponse(open_tables.join(tables(), data.get("room"), data.get("seat")))
        except UsageError as exc:
            return _error(str(exc), 409)

    async def qr(request: Request):
        if not limiter.take(request):
            return _error(slow_down, 429)
        body = await _body(request, 4 * 1024)
        data = _json(body) if body is not None else None
        try:
            svg = qr_svg(data.get("text") if isinstance(data, dict) else None)
        except InviteError as exc:
            return _error(str(exc), 400)
        return Response(svg, media_type="image/svg+xml", headers={"Cache-Control": "no-store"})

    async def create_room(request: Request):
        if not limiter.take(request):
            return _error(slow_down, 429)
        body = await _body(request, 64 * 1024)
        data = _json(body) if body is not None else None
        if not isinstance(data, dict):
            return _error("send the table's rules and seats as a JSON object", 400)
        room = None
        try:
            # in the event loop, which keeps the list of rooms: a room closed to make room
            # tells its listeners; the rules compile meanwhile, in a worker thread or, for
            # an uploaded house rule, in a lane (stopped at its limit)
            tables().retire_for_new_table()
            room, result = await tables().prepare_async(data)
            tables().admit(room)
        except (UsageError, RuleError, LaneError, GameError) as exc:
            if isinstance(room, RemoteRoom):  # set up in its lane, but not kept: let go there
                room.close("it could not be kept")
            if isinstance(exc, UsageError):
                return _error(str(exc), 400)
            if isinstance(exc, (LaneError, GameError)):  # GameError: its deal stopped at the step budget
                return _error(f"this table could not be made: {exc}", 422)
            return JSONResponse({"error": "the rules do not compile", "code": 422,
                                 "diagnostics": [d.render() for d in exc.diagnostics] or [str(exc)]},
                                status_code=422)
        try:
            await tables().runner.call(room.id, room.step)  # the first bot moves
        except (LaneError, Stopping):  # its first move took too long (its game stopped), or the server stops
            pass
        return JSONResponse(result)

    async def rules(request: Request):
        room = tables().rooms.get(request.path_params["room"])
        if room is None:
            return missing(request.path_params["room"], page=True)
        try:
            sheet = await tables().rulesheet(room)
        except LaneError as exc:
            return HTMLResponse(_note_page("No rulesheet", f"This table's rulesheet could not be written: {exc}."),
                                status_code=422)
        return HTMLResponse(sheet)

    async def game_log(request: Request):
        room = tables().rooms.get(request.path_params["room"])
        if room is None:
            return missing(request.path_params["room"], page=False)
        if not room.finished:
            return _error("the log can be downloaded once the game is over", 409)
        try:
            text = await tables().game_log(room)
        except LaneError as exc:
            return _error(f"the log could not be written: {exc}", 422)
        return Response(text, media_type="application/x-ndjson", headers={
            "Content-Disposition": f'attachment; filename="kittens-{room.id}.jsonl"'})

    routes = [
        Route("/", page),
        Route("/room/{room}", room_page),
        Route("/room/{room}/rules", rules),
        Route("/room/{room}/log", game_log),
        Route("/api/lobby", lobby),
        Route("/api/uploads", uploads, methods=["POST"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/uploads/kept", kept_uploads, methods=["POST"]),
        Route("/api/qr", qr, methods=["POST"]),
        Route("/api/open", open_list),
        Route("/api/open/join", open_join, methods=["POST"]),
        *replay_view.routes(tables, limiter, STATIC),
        WebSocketRoute("/ws/{room}", lambda ws: _connection(ws, tables(), settings, backoff)),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


def serve(application: Starlette, sockets: list, **options) -> None:
    """Run the application with uvicorn until it is told to stop (Ctrl-C, SIGTERM). The
    processes running uploaded rules are stopped first, so that nothing in flight waits
    for them; what is still in flight after SHUTDOWN_SECONDS is cancelled."""
    import uvicorn

    class Server(uvicorn.Server):
        async def shutdown(self, sockets=None) -> None:
            stop = getattr(application.state, "stop_rules", None)
            if stop is not None:
                stop()
            await super().shutdown(sockets=sockets)

    config = uvicorn.Config(application, lifespan="on", timeout_graceful_shutdown=SHUTDOWN_SECONDS, **options)
    Server(config).run(sockets=sockets)


async def _connection(websocket: WebSocket, tables: Tables, settings: Settings, backoff: Backoff) -> None:
    """One websocket: hello, then actions; every frame checked, every refusal an error."""
    await websocket.accept()
    address = websocket.client.host if websocket.client else ""
    wait = backoff.refused(address)
    if wait is not None:  # cut off for flooding lately: told how long to wait, and let go
        await _send(websocket, {"type": "error", "code": "backoff", "message":
                                f"this device sent too many messages and was cut off: try again in "
                                f"{max(1, round(wait))} s"})
        await websocket.close(1008)
        return
    room = tables.rooms.get(websocket.path_params["room"])
    if room is None:
        why = tables.closed(websocket.path_params["room"])
        if why is None:
            await _send(websocket, {"type": "error", "code": "no-room", "message": "no such table"})
        else:
            await _send(websocket, {"type": "error", "code": "closed", "message": f"This table has closed: {why}."})
        await websocket.close(4404 if why is None else 4410)
        return
    queue: asyncio.Queue = asyncio.Queue()
    sender = asyncio.create_task(_sender(websocket, queue))
    loop, runner = asyncio.get_running_loop(), tables.runner
    bucket = TokenBucket(settings.rate, settings.burst)
    listener = None
    flooded = 0

    def refuse(code: str, message: str) -> None:
        queue.put_nowait({"type": "error", "code": code, "message": message})
        if code == "closed":  # the room was retired since this connection found it
            queue.put_nowait(None)

    def deliver(message: dict) -> None:
        if queue.qsize() >= settings.max_queue:  # a client that does not read: let it go
            sender.cancel()
            return
        queue.put_nowait(message)
        if message.get("code") == "closed":  # the room was retired: this is its last word
            queue.put_nowait(None)

    try:
        while True:
            frame = await websocket.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if not bucket.take():
                flooded += 1
                if flooded > settings.flood_limit:
                    wait = backoff.strike(address)
                    await _send(websocket, {"type": "error", "code": "flooded", "message":
                                            "too many messages: this connection is closed, and this device "
                                            f"may connect again in {max(1, round(wait))} s"})
                    await websocket.close(1008)
                    break
                refuse("flood", "too many messages: slow down")
                continue
            text = frame.get("text")
            if text is None:
                refuse("binary", "send JSON text frames")
                continue
            if len(text) > settings.max_frame:
                refuse("too-large", f"a message may be at most {settings.max_frame} characters")
                continue
            data = _json(text)
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                refuse("malformed", "send a JSON object with a type")
                continue
            kind = data["type"]
            try:
                if kind == "hello":
                    if listener is not None:
                        raise ActError("this connection has joined already", "joined")
                    seat = tables.seat_of(room, data.get("token"))
                    open_tables.claim(tables, room, seat)  # an open table's seat is taken now
                    listener = Listener(seat, threadsafe(loop, deliver))
                    listener.social = data.get("social") is True  # names, chat, presence too
                    await runner.call(room.id, room.attach, listener)
                elif kind == "act":
                    if listener is None:
                        raise ActError("say hello first", "no-hello")
                    if "seat" in data and data["seat"] != listener.seat:
                        raise ActError("you can only act for your own seat", "wrong-seat")
                    await runner.call(room.id, room.act, listener.seat, data.get("prompt"), data.get("choice"))
                elif kind in ("ready", "start", "take_over"):  # who sits at the table: seating.py
                    if listener is None:
                        raise ActError("say hello first", "no-hello")
                    await runner.call(room.id, getattr(room, kind), listener.seat)
                elif kind == "ping":
                    queue.put_nowait({"type": "pong"})
                elif kind in ("name", "chat", "rematch"):  # the people around the table: social.py
                    if listener is None:
                        raise ActError("say hello first", "no-hello")
                    # in the table's lane, like its moves: a slow table's room lives in a thread
                    if kind == "name":
                        await runner.call(room.id, room.social.rename, listener.seat, data.get("name"))
                    elif kind == "chat":
                        await runner.call(room.id, room.social.say, listener, data.get("text"))
                    else:
                        again = remote_rematch if isinstance(room, RemoteRoom) else rematch
                        await runner.call(room.id, again, tables, room, listener.seat)
                else:
                    raise ActError(f"unknown message type '{kind[:40]}'", "unknown-type")
            except (ActError, SocialError, LaneError) as exc:
                refuse(exc.code, str(exc))
            except Stopping:
                refuse("stopping", "the server is stopping: this page reconnects when it is back")
            except Exception:  # a bug: the client is told, the room goes on
                log.exception("room %s failed on a message", room.id)
                refuse("internal", "the server could not do that (a bug in kittens)")
    except WebSocketDisconnect:
        pass
    finally:
        if listener is not None:  # in the table's lane, like the hello that attached it
            try:
                await runner.call(room.id, room.detach, listener)
            except Exception:  # the server is stopping, or the table closed: leave directly
                (room.forget if isinstance(room, RemoteRoom) else room.detach)(listener)
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _sender(websocket: WebSocket, queue: asyncio.Queue) -> None:
    try:
        while True:
            message = await queue.get()
            if message is None:  # the room closed: say goodbye
                await websocket.close(4410)
                return
            await _send(websocket, message)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await websocket.close(1008)
        raise
    except Exception:  # the connection went away: the reader will see it
        return


async def _send(websocket: WebSocket, message: dict) -> None:
    await websocket.send_text(orjson.dumps(message).decode())


async def _body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None when it is longer than ``limit`` (not read further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _json(data):
    try:
        return orjson.loads(data)
    except (orjson.JSONDecodeError, TypeError, ValueError):
        return None


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message, "code": status}, status_code=status)


def _missing_page(why: str | None = None) -> str:
    if why is not None:
        return _note_page("This table has closed", f"This table has closed: {why}.")
    return _note_page("No such table", "There is no table here.")


def _note_page(title: str, text: str) -> str:
    """A page of one sentence (escaped) and a way back to the lobby."""
    return (f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>"
            f"<p>{html.escape(text)} <a href='/'>Make a table</a>.</p>")
