"""Helpers for the web table's tests: people at websockets pressing buttons."""

from __future__ import annotations

import contextlib
import queue
import threading
import time


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
