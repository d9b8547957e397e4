"""Processes that run uploaded rules, each job on a time limit that stops it half-way.

A table of a house rule uploaded in the page lives in a *lane*: a process of the
server's own (lane_worker.py), one of a few (``Settings.rule_lanes``), each holding
some of those tables. The server keeps what it must know of such a table
(remote.py: its seats, its pages, where its game stands) and sends the lane one job
at a time: set the table up (compile its rules, deal, or replay it from the
database), a person's choice, a timer that is due, a page joining.

Every job has a limit in seconds of wall-clock time (``setup_seconds`` to set a
table up, ``move_seconds`` for anything else), counted from when the job is sent.
A job past it is not waited for: its lane is killed, which stops the rules
wherever they are, and the tables it held are set up again in a new process from
the database (what a killed job did was never stored). The event loop never runs
uploaded rules and never waits for them, so a lane busy with a slow file holds up
only the tables of that lane; and a server that stops kills its lanes at once.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import sys

import orjson

from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from .lane_worker import HEADER, encode
from .replay_view import ReplayError
from .room import ActError
from .social import SocialError

log = logging.getLogger("kittens.web")

#: seconds a new lane may take to start (Python and kittens imported) before it is given up
START_SECONDS = 60.0
#: what a job asked for while the server stops is told
STOPPING = "the server is stopping"


class LaneError(Exception):
    """A job of uploaded rules that did not finish; ``code`` says why, for the page."""

    code = "rules-stopped"


class Overran(LaneError):
    """A job ran past its limit and was stopped half-way (its lane was killed)."""

    code = "too-slow"

    def __init__(self, message: str, limit: float) -> None:
        super().__init__(message)
        self.limit = limit


class Stale(Exception):
    """The lane a table was set up in has stopped since: set it up again first."""


class Lane:
    """One process for uploaded rules, and its jobs, one at a time."""

    def __init__(self, pool: Lanes, number: int) -> None:
        self.pool, self.number = pool, number
        self.process: asyncio.subprocess.Process | None = None
        self.generation = 0  # counts the processes started, so a table knows which one holds it
        self.lock = asyncio.Lock()
        self.rooms: set[str] = set()  # the tables this lane holds
        self.waiting: tuple[int, asyncio.Future] | None = None
        self.jobs = itertools.count(1)
        self.queued = 0  # jobs sent or waiting to be: how busy it is

    async def run(self, op: str, args: dict, limit: float, doing: str, expect: int | None = None) -> dict:
        """Send one job and wait for its answer, at most ``limit`` seconds: the answer (with
        ``lane``, the process's generation), or Overran (``doing`` says what took too long).
        ``expect``: the generation the job is for (Stale when that process has stopped)."""
        self.queued += 1
        try:
            return await self._run(op, args, limit, doing, expect)
        finally:
            self.queued -= 1

    async def _run(self, op: str, args: dict, limit: float, doing: str, expect: int | None) -> dict:
        async with self.lock:
            if self.pool.closed:
                raise LaneError(STOPPING)
            if expect is not None and (self.process is None or self.generation != expect):
                raise Stale()
            if self.process is None:
                await self._start()
            process, number = self.process, next(self.jobs)
            future = asyncio.get_running_loop().create_future()
            self.waiting = (number, future)
            try:
                process.stdin.write(encode({"job": number, "op": op, **args}))
                await process.stdin.drain()
                reply = await asyncio.wait_for(future, limit)
            except asyncio.TimeoutError:
                self.stop(f"a job ({op}) ran past its {limit:g} s")
                raise Overran(f"the rules took longer than {limit:g} s to {doing}, as long as this server "
                              "gives them: they do too much work", limit) from None
            except (ConnectionError, RuntimeError):  # the process is gone (killed, or its pipe closed)
                self.stop("its pipe closed")
                if self.pool.closed:
                    raise LaneError(STOPPING) from None
                raise LaneError(f"the process running these rules stopped while they were to {doing}") from None
            except asyncio.CancelledError:  # the server stops: the answer would come to nobody
                self.stop("its job was cancelled")
                raise
            finally:
                self.waiting = None
        reply["lane"] = self.generation
        return reply

    async def _start(self) -> None:
        self.generation += 1
        settings = orjson.dumps(self.pool.worker_settings).decode()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", f"{__package__}.lane_worker", settings,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        try:
            ready = await asyncio.wait_for(_read_frame(process.stdout), START_SECONDS)
        except (asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
            ready = None
        if not isinstance(ready, dict) or "ready" not in ready or self.pool.closed:
            process.kill()
            if self.pool.closed:  # the server began to stop while it started
                raise LaneError(STOPPING)
            raise LaneError("the process for uploaded rules did not start: the server's log says why")
        self.process = process
        asyncio.get_running_loop().create_task(self._read(process, self.generation))
        log.info("lane %d started (process %s)", self.number, process.pid)

    async def _read(self, process, generation: int) -> None:
        """Hand on what the process sends, until it ends."""
        try:
            while True:
                message = await _read_frame(process.stdout)
                if "reply" in message:
                    waiting = self.waiting
                    if waiting is not None and waiting[0] == message["reply"] and not waiting[1].done():
                        waiting[1].set_result(message)
                else:
                    self.pool.event(generation, message)
        except (asyncio.IncompleteReadError, ConnectionError, ValueError):
            pass
        if self.process is process:  # it died on its own (a crash, out of memory)
            self.stop("its process ended")

    def stop(self, why: str) -> None:
        """Kill the process (if it runs): every table it held is set up again in a new one."""
        process, self.process = self.process, None
        if process is None:
            return
        if process.returncode is None:
            process.kill()
        waiting = self.waiting
        if waiting is not None and not waiting[1].done():  # its job will never be answered
            waiting[1].set_exception(ConnectionError(why))
        process.stdin.close()
        self.pool.ending = [task for task in self.pool.ending if not task.done()]
        self.pool.ending.append(asyncio.get_running_loop().create_task(process.wait()))
        (log.info if self.pool.closed else log.warning)("lane %d stopped: %s", self.number, why)
        self.pool.lost(self)


async def _read_frame(stream: asyncio.StreamReader) -> dict:
    (size,) = HEADER.unpack(await stream.readexactly(HEADER.size))
    return orjson.loads(await stream.readexactly(size))


class Lanes:
    """The lanes of one server: which holds which table, the pages they talk to, the
    timers they set, and their limits."""

    def __init__(self, count: int, data: str, answer_seconds: float, bot_delay: float, *,
                 move_seconds: float, setup_seconds: float) -> None:
        self.lanes = [Lane(self, number) for number in range(max(1, count))]
        self.worker_settings = {"data": data, "answer_seconds": answer_seconds, "bot_delay": bot_delay}
        self.move_seconds, self.setup_seconds = move_seconds, setup_seconds
        self.rooms: dict = {}  # table id -> its RemoteRoom
        self.listeners: dict[int, object] = {}  # a page's number -> its Listener
        self.numbers = itertools.count(1)
        self.runner = None  # the server's runner (runner.py), which runs each table's jobs in turn
        self.closed = False
        self.ending: list = []  # the killed processes' wait() tasks, to wait for when the server stops

    def pick(self) -> Lane:
        """The lane for a new table (or a one-off job): the least busy, then the one holding
        the fewest tables."""
        return min(self.lanes, key=lambda lane: (lane.queued, len(lane.rooms)))

    def register(self, listener) -> int:
        number = next(self.numbers)
        self.listeners[number] = listener
        return number

    def unregister(self, number: int | None) -> None:
        self.listeners.pop(number, None)

    def charge(self, room_id: str, seconds: float) -> None:
        if self.runner is not None:
            self.runner.charge(room_id, seconds)

    def event(self, generation: int, message: dict) -> None:
        """Something a lane's job sent: a message to a page, or a timer to keep."""
        if "to" in message:
            listener = self.listeners.get(message["to"])
            if listener is not None:
                listener.send(message["message"])
        elif "timer" in message:
            asyncio.get_running_loop().call_later(max(0.0, message["delay"]), self._due, message["room"],
                                                  message["timer"], generation)

    def _due(self, room_id: str, number: int, generation: int) -> None:
        room = self.rooms.get(room_id)
        if room is not None and room.built == generation and self._runs(room_id):
            self.runner.submit(room_id, functools.partial(room.fire, number, generation))

    def _runs(self, room_id: str) -> bool:
        """Whether the server's runner runs this table's jobs (it is kept, not being made)."""
        return not self.closed and self.runner is not None and room_id in self.runner.rooms

    def lost(self, lane: Lane) -> None:
        """A lane's process stopped: each of its tables is set up again (in turn with its jobs)."""
        for room_id in list(lane.rooms):
            room = self.rooms.get(room_id)
            if room is None:
                continue
            room.built = None
            if self._runs(room_id):
                self.runner.submit(room_id, room.ensure)

    def forget(self, room) -> None:
        """A table closed: its lane lets it go (in the background)."""
        self.rooms.pop(room.id, None)
        room.lane.rooms.discard(room.id)
        if room.built is not None and not self.closed:
            task = asyncio.get_running_loop().create_task(
                room.lane.run("drop", {"room": room.id}, self.move_seconds, "close the table", expect=room.built))
            task.add_done_callback(_quiet)

    def close(self) -> None:
        """The server stops: every lane is killed now (what they were doing is not stored)."""
        self.closed = True
        for lane in self.lanes:
            lane.stop("the server stops")

    async def wait_closed(self, timeout: float = 2.0) -> None:
        """Wait (a little) for the killed processes to be gone, while the event loop runs."""
        ending, self.ending = self.ending, []
        if ending:
            await asyncio.wait(ending, timeout=timeout)


def _quiet(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None and not isinstance(task.exception(),
                                                                               (LaneError, Stale)):
        log.warning("a lane could not let a table go: %s", task.exception())


class _Rendered:
    """A finding as the lane rendered it (what RuleError's callers show)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def render(self) -> str:
        return self.text


def raise_failure(error: dict) -> None:
    """Raise again, in the server, what a job refused with in its lane."""
    kind, message = error.get("kind"), error.get("message", "")
    if kind == "act":
        raise ActError(message, error.get("code", "refused"))
    if kind == "social":
        raise SocialError(message, error.get("code", "refused"))
    if kind == "usage":
        raise UsageError(message)
    if kind == "rules":
        raise RuleError([_Rendered(text) for text in error.get("diagnostics") or [message]], message)  # type: ignore[misc]
    if kind == "replay":
        raise ReplayError(message)
    if kind == "game":
        raise GameError(message)
    raise RuntimeError(f"the process running these rules failed: {message}")
