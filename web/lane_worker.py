"""The process that runs uploaded rules: one lane of the web table (lanes.py starts it).

A house rule uploaded in the page may ask a great deal of work of one move, and a thread
running it could not be stopped half-way; a process can. So the tables of uploaded rules
live here, in a process of the server's own (at a lower priority than the server), as
the server keeps its other tables: the rooms, their games and their people (room.py,
social.py), writing to the same database. The server sends it one job at a time and
kills it when a job runs past its time; the tables it held are set up again, from the
database, in a new one.

On the pipe, each way, frames: four bytes of length (big-endian), then a JSON object.
The server sends ``{"job": N, "op": NAME, ...}``; the process answers ``{"reply": N,
"value": ...}`` or ``{"reply": N, "error": {"kind", "message", "code"}}``, with the CPU
seconds the job used and, for a table's job, where its game stands (``room``). Before a
job's answer come the messages it sent to the table's pages (``{"to": LISTENER,
"message": ...}``) and the timers it set (``{"timer": N, "room": ID, "delay": S}``: the
server keeps the time and sends ``fire`` when one is due, as a job of that table).
"""

from __future__ import annotations

import itertools
import logging
import os
import struct
import sys
import time

import orjson

from ..interpreter.engine.game import GameError
from ..interpreter.rules.load import RuleError, UsageError
from .replay_view import ReplayError, load_game, room_replay, steps
from .room import ActError, Clock, Listener, Room, open_room
from .rulesets import Editions
from .social import SocialError, check_rematch, note_next
from .storage import Storage

log = logging.getLogger("kittens.web.lane")

HEADER = struct.Struct(">I")
#: how much lower a lane's priority is than the server's: a busy lane leaves the cores to
#: the ordinary tables first
NICE = 10


def encode(message: dict) -> bytes:
    """One frame: its length, then the JSON."""
    body = orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS)
    return HEADER.pack(len(body)) + body


def read_frame(stream) -> dict | None:
    """The next frame of a binary stream (None at its end)."""
    head = stream.read(HEADER.size)
    if len(head) < HEADER.size:
        return None
    (size,) = HEADER.unpack(head)
    body = stream.read(size)
    return orjson.loads(body) if len(body) == size else None


def failure(exc: Exception) -> dict:
    """How an expected refusal travels: its kind, message and code (lanes.py raises it again)."""
    if isinstance(exc, (ActError, SocialError)):
        return {"kind": "act" if isinstance(exc, ActError) else "social", "message": str(exc), "code": exc.code}
    if isinstance(exc, UsageError):
        return {"kind": "usage", "message": str(exc)}
    if isinstance(exc, RuleError):
        return {"kind": "rules", "message": str(exc),
                "diagnostics": [d.render() for d in exc.diagnostics] or [str(exc)]}
    if isinstance(exc, ReplayError):
        return {"kind": "replay", "message": str(exc)}
    return {"kind": "game", "message": str(exc)}  # GameError, OSError, ValueError


EXPECTED = (ActError, SocialError, UsageError, RuleError, ReplayError, GameError, OSError, ValueError)


class WorkerClock(Clock):
    """A table's clock in a lane: monotonic time (the server's too), and timers the server
    keeps, each sent to it as it is set."""

    def __init__(self, worker: Worker, room_id: str) -> None:
        self.worker, self.room_id = worker, room_id

    def now(self) -> float:
        return time.monotonic()

    def later(self, delay: float, fn):
        return self.worker.timer(self.room_id, delay, fn)


class _Timer:
    def __init__(self, timers: dict, number: int) -> None:
        self.timers, self.number = timers, number

    def cancel(self) -> None:
        self.timers.pop(self.number, None)


class Worker:
    """The tables of one lane, and the jobs the server asks of them."""

    def __init__(self, send, data: str, answer_seconds: float, bot_delay: float) -> None:
        self.send = send  # a frame to the server
        self.storage = Storage(os.path.join(data, "kittens.sqlite3"))
        self.editions = Editions(os.path.join(data, "uploads"))
        self.answer_seconds, self.bot_delay = answer_seconds, bot_delay
        self.rooms: dict[str, Room] = {}
        self.timers: dict[int, tuple[str, object]] = {}  # number -> (table, what to run)
        self.numbers = itertools.count(1)

    def timer(self, room_id: str, delay: float, fn) -> _Timer:
        number = next(self.numbers)
        self.timers[number] = (room_id, fn)
        self.send({"timer": number, "room": room_id, "delay": delay})
        return _Timer(self.timers, number)

    def run(self, job: dict) -> dict:
        """Do one job: its answer (a failure is an answer too, never an exception)."""
        started = time.process_time()
        reply: dict = {"reply": job.get("job")}
        try:
            reply["value"] = OPS[job["op"]](self, job)
        except EXPECTED as exc:
            reply["error"] = failure(exc)
        except Exception as exc:  # a bug: the server's log shows it, the table goes on
            log.exception("a job of the rules' process failed (%s)", job.get("op"))
            reply["error"] = {"kind": "internal", "message": f"{type(exc).__name__}: {exc}"}
        room = self.rooms.get(job.get("room"))
        if room is not None:
            reply["room"] = {"active": room.active, "ended": room.ended, "finished": room.finished,
                             "error": room.error}
        reply["cpu"] = time.process_time() - started
        return reply

    # -- the jobs ---------------------------------------------------------------------
    def edition(self, job: dict) -> dict:
        """Compile a table's rules: the edition's name and players."""
        edition = self.editions.load(job["rules"], job.get("variant"), tuple(job.get("with") or ()))
        return {"name": edition.name, "players": list(edition.players)}

    def open(self, job: dict) -> None:
        """Set a table up: a new one (its rules compiled, its cards dealt), or one played
        before, from the database (``restore``), with the pages that watch it (their
        ``listeners``) and, for a game stopped, why (``error``), shown to them."""
        room_id, config = job["room"], job["config"]
        if job.get("restore"):  # as stored: it may have started, or a bot stands in, since
            config = self.storage.config(room_id) or config
        self.drop(job)
        edition = self.editions.load(config["rules"], config.get("variant"), tuple(config.get("with") or ()))
        room = open_room(room_id, config, job["seed"], job["tokens"], edition, storage=self.storage,
                         clock=WorkerClock(self, room_id), answer_seconds=self.answer_seconds,
                         bot_delay=self.bot_delay, wall=time.time)
        room.error = job.get("error")  # before the replay: a stopped game's bots do not play on
        if job.get("restore"):
            progress = self.storage.progress(room_id)
            if progress is None:
                raise UsageError("this table is no longer stored")
            room.active, room.ended = job["active"], job.get("ended")
            room.restore(self.storage.actions(room_id), *progress)
        self.rooms[room_id] = room
        for given in job.get("listeners") or ():
            listener = self._listener(given)
            listener.cursor = room.released  # its page has seen the table up to here
            room.listeners.append(listener)
        if room.error is not None and room.listeners:
            room.step()  # its pages are shown why it stopped

    def drop(self, job: dict) -> None:
        """Forget a table (closed, or moved): its timers stop."""
        self.rooms.pop(job["room"], None)
        for number in [n for n, (room_id, _) in self.timers.items() if room_id == job["room"]]:
            del self.timers[number]

    def attach(self, job: dict) -> None:
        self._room(job).attach(self._listener(job["listener"]))

    def detach(self, job: dict) -> None:
        room = self._room(job)
        for listener in [item for item in room.listeners if item.id == job["listener"]]:
            room.detach(listener)

    def act(self, job: dict) -> None:
        self._room(job).act(job["seat"], job["prompt"], job["choice"])

    def rename(self, job: dict) -> None:
        self._room(job).social.rename(job["seat"], job["name"])

    def say(self, job: dict) -> None:
        room = self._room(job)
        listener = next((item for item in room.listeners if item.id == job["listener"]), None)
        if listener is None:
            raise ActError("say hello first", "no-hello")
        room.social.say(listener, job["text"])

    def step(self, job: dict) -> None:
        self._room(job).step()

    def ready(self, job: dict) -> dict:
        room = self._room(job)
        room.ready(job["seat"])
        return room.config

    def start(self, job: dict) -> dict:
        room = self._room(job)
        room.start(job["seat"])
        return room.config

    def take_over(self, job: dict) -> dict:
        room = self._room(job)
        room.take_over(job["seat"])
        return room.config

    def fire(self, job: dict) -> None:
        """A timer is due: what it was set for runs now."""
        entry = self.timers.pop(job["timer"], None)
        if entry is not None and entry[0] in self.rooms:
            entry[1]()

    def rematch(self, job: dict) -> dict:
        """What the next game at a finished table needs of this one (SocialError: none yet)."""
        room = self._room(job)
        check_rematch(room, job["seat"])
        return {"next": room.social.next, "names": sorted(room.social.names.items()), "chat": room.social.chat,
                "results": room.summary(None)["results"]}

    def next_game(self, job: dict) -> None:
        note_next(self._room(job).social, job["next"])

    def game_log(self, job: dict) -> str:
        return self._room(job).game_log()

    def replay(self, job: dict) -> dict:
        return room_replay(self._room(job), job["viewer"])

    def replay_log(self, job: dict) -> dict:
        """A game of a log someone sent, played with uploaded rules, step by step."""
        edition = load_game(job["header"], self.editions, job["rules"], job.get("with") or [])
        return steps(edition, job["header"], job["records"], job["viewer"], first_line=job["line"])

    def rulesheet(self, job: dict) -> str:
        return self.editions.rulesheet(job["rules"], job.get("variant"), tuple(job.get("with") or ()),
                                       job["players"])

    # -- helpers ----------------------------------------------------------------------
    def _room(self, job: dict) -> Room:
        room = self.rooms.get(job["room"])
        if room is None:  # the server sets a table up before its jobs: a bug if not
            raise RuntimeError(f"table {job['room']} is not set up in this process")
        return room

    def _listener(self, given: dict) -> Listener:
        """A page of a table, as the server names it: its messages go to the server."""
        number = given["id"]

        def send(message: dict) -> None:
            self.send({"to": number, "message": message})

        listener = Listener(given["seat"], send)
        listener.id = number  # type: ignore[attr-defined]
        listener.social = given.get("social") is True  # type: ignore[attr-defined]
        return listener


#: the jobs the server may ask for, by name
OPS = {name: getattr(Worker, name) for name in (
    "edition", "open", "drop", "attach", "detach", "act", "rename", "say", "step", "fire", "rematch",
    "ready", "start", "take_over",
    "next_game", "game_log", "replay", "replay_log", "rulesheet")}


def _lower_priority() -> None:
    """Below the server, and gone with it (Linux): a lane never outlives its server."""
    try:
        os.nice(NICE)
    except OSError:
        pass
    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def main(argv: list[str]) -> int:
    """Serve jobs from the standard input until it closes."""
    settings = orjson.loads(argv[1])
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="kittens lane: %(message)s")
    _lower_priority()
    stdin = sys.stdin.buffer
    out = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print cannot garble a frame

    def send(message: dict) -> None:
        out.write(encode(message))

    worker = Worker(send, settings["data"], settings["answer_seconds"], settings["bot_delay"])
    send({"ready": os.getpid()})
    out.flush()
    while (job := read_frame(stdin)) is not None:
        send(worker.run(job))
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
