"""Slow rules run off the server's event loop, each table on a time budget.

Whatever runs rules (a person's choice, a bot's move, a round of a reaction
window ending, a page joining, a table's first moves) is a *job* of its table,
run one at a time per table, in one of two *lanes*:

- the *quick* lane is the event loop itself, where a table of the shipped
  editions or of the server's own rule files starts: their moves take
  milliseconds, and handing each to a thread and back adds two thread wake-ups
  to every move (with every job in a thread, benchmarks/web_load.py's p95 went
  from 44 ms to 186 ms in one pair of runs on a loaded machine, whose noise is
  about as large; nothing is gained for them either way);
- the *slow* lane is one worker thread, where a table of an uploaded house rule
  starts (nobody knows yet how much work its cards do), and where any table goes
  for good once one of its jobs used more than ``slow_job`` seconds of CPU.

A table of an uploaded house rule runs in neither when the server has *lanes*
(lanes.py): processes of their own, where a job past its limit is stopped half-way.
Its jobs are coroutines (remote.RemoteRoom's), awaited here one at a time per table
like the others, on the same budget (the lane says how much CPU each used).

Why one thread rather than a pool: rules are pure Python, so a thread running
them holds the interpreter lock, and the event loop waits for it whenever it
wakes up. With one busy worker the loop waits at most a switch interval (the
server sets 0.2 ms) each time; with many it would wait in line behind them all.
A table whose card takes half a second then delays the other slow tables, not
the loop nor the ordinary tables (it still shares the process's CPU with them:
docs/serve.md gives the load benchmark's figures).

The budget of a table (:class:`Budget`) is CPU time, measured in its jobs: a
table may use ``share`` of a core on average, with ``burst`` seconds at once.
A table that used more waits before its next job until it is back within its
budget (its players are told once why the table is slow). One job that runs
longer than ``move_seconds`` stops the table's game, with a message saying
why: a thread cannot be stopped half-way through a move, so the move is kept
and nothing after it is played.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from .lanes import LaneError, Lanes
from .room import Clock

log = logging.getLogger("kittens.web")

#: the interpreter's switch interval while a server runs: how long the event loop may
#: wait for a worker that is running rules before it gets its turn
SWITCH_INTERVAL = 0.0002  # measured: with 1 ms the load benchmark's p95 was half as long again


class Stopping(Exception):
    """A job asked for while the server stops: it is not run."""


@dataclass
class Budget:
    """One table's CPU time: ``credit`` seconds it may still use at once (refilled at
    ``share`` seconds a second up to ``burst``), and whether it runs in the slow lane."""

    share: float
    burst: float
    credit: float = 0.0
    stamp: float = field(default_factory=time.monotonic)
    slow: bool = False
    remote: bool = False  # it plays in a lane (lanes.py): its jobs are coroutines
    told: bool = False  # its players were told that it is being slowed down
    used: float = 0.0  # CPU seconds used in all, for the server's owner
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def __post_init__(self) -> None:
        self.credit = self.burst

    def refill(self, now: float) -> None:
        self.credit = min(self.burst, self.credit + (now - self.stamp) * self.share)
        self.stamp = now

    def wait(self, now: float) -> float:
        """How long the next job must wait for the table to be back within its budget."""
        self.refill(now)
        return 0.0 if self.credit >= 0 else -self.credit / self.share

    def charge(self, seconds: float) -> None:
        self.refill(time.monotonic())
        self.credit -= seconds
        self.used += seconds


class Runner:
    """The lanes and the tables' budgets of one server, bound to its event loop. Every
    method but :meth:`clock` and :meth:`submit` is called in the loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop, *, share: float = 0.25, burst: float = 5.0,
                 slow_job: float = 0.2, move_seconds: float = 10.0, lanes: Lanes | None = None) -> None:
        self.loop = loop
        self.share, self.burst = share, burst
        self.slow_job, self.move_seconds = slow_job, move_seconds
        self.slow = ThreadPoolExecutor(1, thread_name_prefix="kittens-slow-rules")
        self.budgets: dict[str, Budget] = {}
        self.rooms: dict = {}  # table id -> its room (to tell and stop it)
        self.closed = False
        self._closing = asyncio.Event()  # set by close(): a table waiting for its budget stops waiting
        self.lanes = lanes  # the processes for uploaded rules (None: they run here too)
        if lanes is not None:
            lanes.runner = self

    def close(self) -> None:
        """The server stops: no job starts from now on (timers that fire do nothing), and
        the lanes are killed (what they were doing was not stored yet, and never will be)."""
        self.closed = True
        self._closing.set()
        self.slow.shutdown(wait=False, cancel_futures=True)
        if self.lanes is not None:
            self.lanes.close()

    async def stop(self, timeout: float = 15.0) -> None:
        """Close, and wait (at most ``timeout`` seconds) for the jobs running now in the
        slow thread to end: they may still store a move, so the database closes after them."""
        self.close()
        if self.lanes is not None:
            await self.lanes.wait_closed()
        try:
            await asyncio.wait_for(asyncio.to_thread(self.slow.shutdown, wait=True), timeout)
        except asyncio.TimeoutError:
            log.warning("a table's rules were still running when the server stopped")

    def add(self, room, slow: bool = False, remote: bool = False) -> None:
        """A table this runner runs (``slow``: in the slow lane from the start; ``remote``:
        in a lane, its jobs coroutines)."""
        self.rooms[room.id] = room
        budget = self.budgets.get(room.id)
        if budget is None:
            budget = self.budgets[room.id] = Budget(self.share, self.burst)
        budget.slow = budget.slow or slow
        budget.remote = remote

    def charge(self, room_id: str, seconds: float) -> None:
        """CPU a table's job used elsewhere (in its lane)."""
        budget = self.budgets.get(room_id)
        if budget is not None:
            budget.charge(seconds)

    def forget(self, room_id: str) -> None:
        self.rooms.pop(room_id, None)
        self.budgets.pop(room_id, None)

    def clock(self, room_id: str) -> "LaneClock":
        """The clock of a table whose timers hand their work to its lane."""
        return LaneClock(self, room_id)

    async def call(self, room_id: str, fn, *args):
        """Run ``fn(*args)`` in the table's lane, after its earlier jobs and once it is
        within its budget: its result, or the exception it raised."""
        budget = self.budgets.get(room_id)
        if budget is None:  # a table closed since (a late timer): its job still leaves the loop
            budget = Budget(self.share, self.burst, remote=inspect.iscoroutinefunction(fn))
        async with budget.lock:
            delay = budget.wait(time.monotonic())
            if delay > 0:
                self._tell_slow(room_id, budget, delay)
                with contextlib.suppress(asyncio.TimeoutError):  # a server that stops does not wait
                    await asyncio.wait_for(self._closing.wait(), delay)
            if self.closed:
                raise Stopping("the server is stopping")
            if budget.remote:  # in a lane, which stops it at its limit and charges its CPU
                return await fn(*args)
            lane = self.slow if budget.slow else None
            if lane is None:  # the quick lane: here, in the loop
                used, outcome, failed = _timed(fn, args)
            else:
                used, outcome, failed = await self.loop.run_in_executor(lane, _timed, fn, args)
            budget.charge(used)
            if used > self.slow_job and not budget.slow:
                budget.slow = True
                log.info("table %s moves to the slow lane (a job used %.2f s of CPU)", room_id, used)
            if used > self.move_seconds:
                await self._stop(room_id, lane, used)
        if failed:
            raise outcome
        return outcome

    def submit(self, room_id: str, fn) -> None:
        """Run ``fn()`` in the table's lane without waiting for it (any thread); a failure
        is logged, the table goes on."""
        def start():
            if self.closed:
                return
            task = self.loop.create_task(self.call(room_id, fn))
            task.add_done_callback(_logged)
        if _in_loop(self.loop):
            start()
        elif not self.closed:
            self.loop.call_soon_threadsafe(start)

    def _tell_slow(self, room_id: str, budget: Budget, delay: float) -> None:
        room = self.rooms.get(room_id)
        if budget.told or room is None:
            return
        budget.told = True
        log.info("table %s is over its time budget: it waits %.1f s", room_id, delay)
        message = {"type": "error", "code": "slow-rules",
                   "message": "this table's rules take a long time to run, so the server slows the "
                              "table down to keep the other tables going"}
        for listener in list(room.listeners):
            listener.send(message)

    async def _stop(self, room_id: str, lane, used: float) -> None:
        room = self.rooms.get(room_id)
        if room is None or room.error is not None:
            return
        why = (f"one move took {used:.1f} s to run, and this server allows {self.move_seconds:g} s: "
               "the rules do too much work for one move")
        log.warning("table %s stopped: %s", room_id, why)
        if lane is None:
            _stop_game(room, why)
        else:
            await self.loop.run_in_executor(lane, _stop_game, room, why)


def _stop_game(room, why: str) -> None:
    """Stop a table's game the way a rule breaking down stops it: its players see why."""
    room.error = why
    room.step()


def _timed(fn, args):
    """Run ``fn(*args)``: the CPU seconds it used, its outcome, whether it raised."""
    start = time.thread_time()
    try:
        outcome, failed = fn(*args), False
    except Exception as exc:  # handed back to the caller in the loop
        outcome, failed = exc, True
    return time.thread_time() - start, outcome, failed


def _logged(task: asyncio.Task) -> None:
    if task.cancelled() or task.exception() is None:
        return
    if isinstance(task.exception(), (Stopping, LaneError)):  # a server stopping; a move stopped (logged)
        return
    log.error("a table's timer failed", exc_info=task.exception())


def _in_loop(loop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


class _Timer:
    """A timer that any thread may cancel."""

    def __init__(self) -> None:
        self.cancelled = False
        self.handle = None

    def cancel(self) -> None:
        self.cancelled = True


class LaneClock(Clock):
    """A table's clock: monotonic time; a timer is kept by the event loop and, when it
    fires, its work runs in the table's lane. ``later`` may be called from any thread."""

    def __init__(self, runner: Runner, room_id: str) -> None:
        self.runner, self.room_id = runner, room_id

    def now(self) -> float:
        return time.monotonic()

    def later(self, delay: float, fn):
        timer, runner = _Timer(), self.runner

        def fire():
            if not timer.cancelled:
                runner.submit(self.room_id, fn)

        def arm():
            if not timer.cancelled:
                timer.handle = runner.loop.call_later(delay, fire)

        if _in_loop(runner.loop):
            arm()
        else:
            runner.loop.call_soon_threadsafe(arm)
        return timer


def threadsafe(loop: asyncio.AbstractEventLoop, deliver):
    """``deliver`` made callable from any thread: it runs in the loop, in call order
    (a table's messages come from one thread at a time: the loop, or its worker)."""
    def send(message) -> None:
        if _in_loop(loop):
            deliver(message)
        else:
            loop.call_soon_threadsafe(deliver, message)
    return send

