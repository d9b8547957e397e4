"""What every route of one web table server shares, and how its answers are written.

:class:`Settings` says how a server runs. :class:`Site` holds what its routes share:
the settings, the tables (made when the server starts, in :meth:`Site.lifespan`),
the limit on the lobby's forms (:class:`Limiter`, a :class:`TokenBucket` per
address) and the back-off for devices cut off for flooding (backoff.py). The route
groups (routes.py, connection.py, replay_view.py) are given a Site and nothing else.
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
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse

from .backoff import Backoff
from .lanes import Lanes
from .rulesets import CHECK_SECONDS, CLIENT_UPLOAD_BYTES, CLIENT_UPLOADS, MAX_UPLOAD_BYTES, MAX_UPLOADS
from .runner import SWITCH_INTERVAL, Runner
from .tables import Tables

STATIC = os.path.join(os.path.dirname(__file__), "static")
log = logging.getLogger("kittens.web")
#: what a device sending the lobby's forms too fast is told
SLOW_DOWN = "too many new tables or uploads from this device: wait a few seconds"


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


class Site:
    """One server's shared state: its settings, its tables (once it has started), the
    lobby's form limiter and the flood back-off."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.limiter = Limiter(settings.form_rate, settings.form_burst)
        self.backoff = Backoff(settings.flood_backoff, settings.flood_backoff_most)
        self.started: Tables | None = None

    @property
    def tables(self) -> Tables:
        """Every table of the server (made as it starts)."""
        if self.started is None:
            raise RuntimeError("the server has not started: its tables are made in its lifespan")
        return self.started

    def too_fast(self, request: Request) -> JSONResponse | None:
        """The 429 a device sending the lobby's forms too fast gets (None: it may send this one)."""
        return None if self.limiter.take(request) else error(SLOW_DOWN, 429)

    def missing(self, room_id: str, page: bool):
        """What a link to no room gets: why it closed, if it did (410), else 404."""
        why = self.tables.closed(room_id)
        if page:
            return HTMLResponse(missing_page(why), status_code=404 if why is None else 410)
        return error("no such table" if why is None else f"this table has closed: {why}",
                     404 if why is None else 410)

    # -- starting and stopping ------------------------------------------------------
    @contextlib.asynccontextmanager
    async def lifespan(self, app):
        """The server's life: its tables made and restored, their rules' runner started, and
        at the end all of it stopped."""
        tables = await run_in_threadpool(Tables, self.settings)
        tables.runner = self._runner()
        # a worker running rules holds the interpreter lock: the loop gets it back within this
        switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        restored = tables.restore()
        app.state.tables = self.started = tables
        app.state.stop_rules = tables.runner.close  # see app.serve(): the first thing a stopping server does
        tables.sweep()  # and every sweep_seconds from now on
        if self.settings.freeze_gc:
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

    def _runner(self) -> Runner:
        """What runs the tables' rules off the event loop; uploaded rules in processes of
        their own (lanes), stopped at their limits, unless the settings say none."""
        settings = self.settings
        lanes = None
        if settings.rule_lanes > 0:
            lanes = Lanes(settings.rule_lanes, settings.data, settings.answer_seconds, settings.bot_delay,
                          move_seconds=settings.move_seconds, setup_seconds=settings.setup_seconds)
        return Runner(asyncio.get_running_loop(), share=settings.rules_share, burst=settings.rules_burst,
                      slow_job=settings.slow_job, move_seconds=settings.move_seconds, lanes=lanes)


# -- answers ------------------------------------------------------------------------
async def read_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or None when it is longer than ``limit`` (not read further)."""
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


async def read_json(request: Request, limit: int):
    """The request's body as JSON: None when it is too long or not JSON."""
    body = await read_body(request, limit)
    return parse_json(body) if body is not None else None


def parse_json(data):
    """JSON text or bytes as Python values; None for anything that is not JSON."""
    try:
        return orjson.loads(data)
    except (orjson.JSONDecodeError, TypeError, ValueError):
        return None


def error(message: str, status: int) -> JSONResponse:
    """A refusal as the pages read it: ``{"error": message, "code": status}``."""
    return JSONResponse({"error": message, "code": status}, status_code=status)


def missing_page(why: str | None = None) -> str:
    """The page of a link to no table: why it closed, if it did."""
    if why is not None:
        return note_page("This table has closed", f"This table has closed: {why}.")
    return note_page("No such table", "There is no table here.")


def note_page(title: str, text: str) -> str:
    """A page of one sentence (escaped) and a way back to the lobby."""
    return (f"<!doctype html><meta charset=utf-8><title>{html.escape(title)}</title>"
            f"<p>{html.escape(text)} <a href='/'>Make a table</a>.</p>")
