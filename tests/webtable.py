"""Helpers for the web table's tests: people at websockets pressing buttons."""

from __future__ import annotations

import contextlib
import queue
import socket
import threading
import time

from kittens.web.room import Clock

#: a house rule people upload in the web tests: the Original with eight Nopes
HOUSE_RULE = """\
format: 1
kind: edition
id: nope_party
name: Nope Party
extends: original
set_counts: {nope: 8}
"""


def play_out(client, room_id: str, tokens: dict, rng, *, spectators: int = 0, skip_windows: float = 0.3,
             timeout: float = 20.0) -> dict:
    """People (seat -> token) press random buttons through websockets until the game is
    over, sometimes letting a reaction window run out of time; every message each
    connection got, by seat (spectators under None, one list each)."""
    inbox: queue.Queue = queue.Queue()
    got: dict = {seat: [] for seat in tokens}
    watchers = [[] for _ in range(spectators)]
    room = client.app.state.tables.rooms[room_id]

    def read(key, ws):
        while True:
            try:
                inbox.put((key, ws.receive_json()))
            except Exception:  # the connection closed
                return

    with contextlib.ExitStack() as stack:
        sockets = {}
        for key, tok in list(tokens.items()) + [(("watch", i), "") for i in range(spectators)]:
            ws = stack.enter_context(client.websocket_connect(f"/ws/{room_id}"))
            ws.send_json({"type": "hello", "token": tok})
            sockets[key] = ws
            threading.Thread(target=read, args=(key, ws), daemon=True).start()
        finished, sent = set(), {}
        while len(finished) < len(sockets):
            key, message = inbox.get(timeout=timeout)
            if isinstance(key, tuple):
                watchers[key[1]].append(message)
            else:
                got[key].append(message)
            if message["type"] == "error" and message["code"] == "flood":  # faster than people: wait
                time.sleep(0.2)
                sockets[key].send_json(sent[key])
                continue
            if message["type"] == "update" and message["view"]["finished"]:
                finished.add(key)
            if isinstance(key, tuple) or message["type"] != "update" or not message["prompt"]:
                continue
            prompt = message["prompt"]
            if prompt["kind"] == "window" and rng.random() < skip_windows:
                continue  # let this one run out of time
            sent[key] = {"type": "act", "prompt": prompt["id"], "choice": rng.randrange(len(prompt["options"]))}
            sockets[key].send_json(sent[key])
        assert room.finished
    if spectators:
        got[None] = watchers
    return got


def watch_until(ws, found, seconds=30.0):
    """Messages a connection gets until ``found(message)`` (or ``seconds`` pass): that one."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = ws.receive_json()
        if found(message):
            return message
    raise AssertionError(f"nothing of the kind in {seconds} s")


class TestClock(Clock):
    """Time that moves only when the test says so: the rooms' clock (``now``, ``later``),
    and a wall clock (``wall``: what the database stores) ``offset`` ahead of it."""

    __test__ = False  # not a test class, whatever its name

    def __init__(self, origin: float = 0.0, offset: float = 0.0) -> None:
        self.time, self.offset = origin, offset
        self.timers: list = []

    def now(self) -> float:
        return self.time

    def wall(self) -> float:
        return self.time + self.offset

    def later(self, delay, fn):
        timer = _Timer(self.time + delay, fn)
        self.timers.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        self.time += seconds
        for timer in sorted(self.timers, key=lambda t: t.when):
            if timer.when <= self.time and not timer.cancelled:
                timer.cancelled = True
                timer.fn()
        self.timers = [t for t in self.timers if not t.cancelled]


class _Timer:
    def __init__(self, when, fn) -> None:
        self.when, self.fn, self.cancelled = when, fn, False

    def cancel(self) -> None:
        self.cancelled = True


@contextlib.contextmanager
def serve_in_thread(app, uvicorn, wait: float = 20.0, port: int = 0):
    """Run ``app`` with a real uvicorn server on a free port of 127.0.0.1 (or ``port``: a
    server restarted where pages expect it), in a daemon thread of this process: its base
    URL once it is up; stopped on leaving."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    instance = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=instance.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + wait
    while not instance.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert instance.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        instance.should_exit = True
        thread.join(10)
