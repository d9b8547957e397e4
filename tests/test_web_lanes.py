"""Uploaded rules run in lanes (issue 41): processes of the server's own, where a job past
its limit is stopped half-way. A table of an uploaded house rule is played there to the
end (its log, its replay, its next game), comes back after its lane is killed and after
a restart; making a table of a slow upload and a slow move at such a table are stopped
at their limits while the tables beside them play on; and a server busy with such work
exits within seconds of SIGTERM.

The slow files are benchmarks/web_hostile.py's: their triggers shuffle an 11,000-card
pile thousands of times (a minute of work and more). The step budget would stop them at
once, so these tests raise it (KITTENS_STEP_BUDGET) for the lanes: the files then stand
for work the language cannot see coming, which only the lanes' time limits can stop.
Every test is bounded: small limits, a deadline on each wait."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
pytest.importorskip("websockets")
from starlette.testclient import TestClient  # noqa: E402
from webtable import HOUSE_RULE, play_out, watch_until  # noqa: E402

from kittens.web.app import Settings, create_app  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _web_hostile():
    """benchmarks/web_hostile.py, whose slow house rules these tests upload."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("web_hostile", ROOT / "benchmarks" / "web_hostile.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOSTILE = _web_hostile()


@pytest.fixture
def settings(tmp_path):
    return Settings(data=str(tmp_path / "data"), answer_seconds=0.3, bot_delay=0.02)


#: a budget no action of the slow files reaches (see the docstring)
UNBOUNDED = "1000000000000"


def upload(client, name: str, text: str) -> str:
    """Upload one file: its key. The harmless files validate clean; the slow ones are
    warned that they take too much work (the server checks them with the usual budget)."""
    result = client.post("/api/uploads", json={"files": [{"name": name, "text": text}]}).json()
    assert {d["code"] for d in result["diagnostics"]} <= {"too-much-work"}, result
    assert all(d["severity"] == "warning" for d in result["diagnostics"]), result
    return result["playable"][0]["key"]


def make_table(client, key: str, seats, seed: int = 5) -> dict:
    response = client.post("/api/rooms", json={"ruleset": key, "players": len(seats), "seats": list(seats),
                                               "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def original(client) -> str:
    return next(e["key"] for e in client.get("/api/lobby").json()["rulesets"]
                if e["name"].startswith("Exploding Kittens (Original"))


def token(table: dict, seat: int) -> str:
    return table["seats"][seat]["link"].split("#seat=")[1]


def prompted(message: dict) -> bool:
    return message["type"] == "update" and message["prompt"] is not None


def press(ws, prompt: dict) -> dict:
    """Press the prompt's first button: the next update that asks something again."""
    ws.send_json({"type": "act", "prompt": prompt["id"], "choice": 0})
    return watch_until(ws, lambda m: prompted(m) and m["prompt"]["id"] != prompt["id"])


def lane_pids(client) -> set:
    return {lane.process.pid for lane in client.app.state.tables.runner.lanes.lanes if lane.process is not None}


# -- an uploaded table, played in a lane --------------------------------------------------
def test_an_uploaded_table_plays_in_a_lane_to_the_end_with_its_log_replay_and_next_game(settings):
    with TestClient(create_app(settings)) as client:
        key = upload(client, "nope_party.yaml", HOUSE_RULE)
        table = make_table(client, key, ["person", "person", "random"])
        assert lane_pids(client) and os.getpid() not in lane_pids(client)  # its rules run elsewhere
        got = play_out(client, table["room"], {0: token(table, 0), 1: token(table, 1)}, random.Random(4))
        assert got[0][-1]["view"]["finished"]
        log = client.get(f"/room/{table['room']}/log")
        assert log.status_code == 200 and json.loads(log.text.splitlines()[0])["edition"] == "nope_party.yaml"
        mine = client.get(f"/api/replay/room/{table['room']}?seat=0").json()
        assert mine["finished"] and mine["viewer"] == 0 and mine["edition"] == "Nope Party"
        sent = client.post("/api/replay", json={"log": log.text, "seat": "all"}).json()  # replayed in a lane
        assert sent["problem"] is None and len(sent["steps"]) == len(mine["steps"])
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, 0), "social": True})
            ws.send_json({"type": "name", "name": "Ada"})
            watch_until(ws, lambda m: m["type"] == "names")
            ws.send_json({"type": "rematch"})
            new_room = watch_until(ws, lambda m: m["type"] == "rematch")["room"]
        with client.websocket_connect(f"/ws/{new_room}") as ws:  # the same link, one seat on
            ws.send_json({"type": "hello", "token": token(table, 0), "social": True})
            welcome = watch_until(ws, lambda m: m["type"] == "welcome")
        assert welcome["seat"] == 1 and welcome["names"][1] == "Ada" and welcome["edition"] == "Nope Party"


def test_an_uploaded_table_comes_back_when_its_lane_dies_and_after_a_restart(settings):
    with TestClient(create_app(settings)) as client:
        key = upload(client, "nope_party.yaml", HOUSE_RULE)
        table = make_table(client, key, ["person", "random"])
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, 0)})
            prompt = press(ws, watch_until(ws, prompted)["prompt"])["prompt"]
            for pid in lane_pids(client):  # the lane's process dies (a crash, out of memory)
                os.kill(pid, signal.SIGKILL)
            prompt = press(ws, prompt)["prompt"]  # set up again from the database: the game goes on
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, 0)})
            assert watch_until(ws, prompted)["prompt"]["id"] == prompt["id"]
    with TestClient(create_app(settings)) as client:  # a restart: the table is where it was
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, 0)})
            again = watch_until(ws, prompted)["prompt"]
            assert again["id"] == prompt["id"]
            press(ws, again)


def test_an_uploaded_table_waits_starts_and_keeps_its_stand_in_across_a_lane_crash(settings):
    """The waiting room and stand-ins (seating.py) work for a table whose rules run in a
    lane: ready, the host's start, and a stand-in the lane stores, kept when the lane's
    process dies and the table is set up again."""
    with TestClient(create_app(settings)) as client:
        key = upload(client, "nope_party.yaml", HOUSE_RULE)
        response = client.post("/api/rooms", json={"ruleset": key, "players": 3, "seed": 5, "wait": True,
                                                   "seats": ["person", "person", "person"]})
        table = response.json()
        with client.websocket_connect(f"/ws/{table['room']}") as ann, \
                client.websocket_connect(f"/ws/{table['room']}") as ben:
            ann.send_json({"type": "hello", "token": token(table, 0)})
            ben.send_json({"type": "hello", "token": token(table, 1)})
            waiting = watch_until(ann, lambda m: m["type"] == "update")
            assert waiting["waiting"]["you_host"] and waiting["prompt"] is None
            ben.send_json({"type": "start"})
            refused = watch_until(ben, lambda m: m["type"] == "error")
            assert refused["code"] == "not-host"
            ben.send_json({"type": "ready"})
            ann.send_json({"type": "start"})
            started = watch_until(ann, lambda m: m["type"] == "update" and m["waiting"] is None)
            assert started["standins"] == [2]
            for pid in lane_pids(client):  # the lane's process dies: set up again from the database
                os.kill(pid, signal.SIGKILL)
        with client.websocket_connect(f"/ws/{table['room']}") as cat:
            cat.send_json({"type": "hello", "token": token(table, 2)})
            again = watch_until(cat, lambda m: m["type"] == "update")
            assert again["waiting"] is None and again["standins"] == [2]
    with TestClient(create_app(settings)) as client:  # a restart: started, the stand-in still playing
        with client.websocket_connect(f"/ws/{table['room']}") as cat:
            cat.send_json({"type": "hello", "token": token(table, 2)})
            again = watch_until(cat, lambda m: m["type"] == "update")
            assert again["waiting"] is None and again["standins"] == [2]
            cat.send_json({"type": "take_over"})
            assert watch_until(cat, lambda m: m["type"] == "update" and m["standins"] == [])["waiting"] is None


def test_the_turn_clock_of_an_uploaded_table_runs_on_the_servers_timers(settings):
    """A lane's timers are the server's (WorkerClock): the turn clock runs out there too,
    and a stand-in plays the seat of a person who does not answer."""
    with TestClient(create_app(settings)) as client:
        key = upload(client, "nope_party.yaml", HOUSE_RULE)
        table = client.post("/api/rooms", json={"ruleset": key, "players": 2, "seed": 5, "turn_seconds": 5,
                                                "seats": ["person", "person"]}).json()
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, 0)})
            timed = watch_until(ws, lambda m: m["type"] == "update" and m["clock"] is not None)
            assert timed["clock"]["seconds"] == 5 and 0 < timed["clock_ms"] <= 5000
            stood = watch_until(ws, lambda m: m["type"] == "update" and m["standins"], seconds=15)
            assert stood["standins"] == [timed["clock"]["seat"]]


# -- slow uploads -----------------------------------------------------------------------
def test_making_a_table_of_a_slow_upload_is_stopped_at_its_limit_and_its_lane_goes_on(settings, monkeypatch):
    monkeypatch.setenv("KITTENS_STEP_BUDGET", UNBOUNDED)  # the lanes this test starts inherit it
    settings.setup_seconds, settings.rule_lanes = 3.0, 1
    with TestClient(create_app(settings)) as client:
        heavy = upload(client, "heavy_start.yaml", HOSTILE.HEAVY_START)  # its deal takes minutes
        calm = upload(client, "nope_party.yaml", HOUSE_RULE)
        started = time.monotonic()
        response = client.post("/api/rooms", json={"ruleset": heavy, "players": 4, "seats": ["random"] * 4})
        took = time.monotonic() - started
        assert response.status_code == 422, response.text
        assert "took longer than 3 s to set the table up" in response.json()["error"]
        # stopped at its limit: a lane's start and the compile before the deal add a little
        assert took < 3 + 10, f"making the table took {took:.1f} s"
        table = make_table(client, calm, ["person", "random"])  # in the same lane (a new process)
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            ws.send_json({"type": "hello", "token": token(table, 0)})
            press(ws, watch_until(ws, prompted)["prompt"])


def test_making_a_table_whose_deal_is_over_the_step_budget_is_refused_with_the_reason(settings):
    # the usual budget: the game-start trigger stops at its first action in the lane, and
    # the one who asked is told why (it was a 500 and a traceback in the server's log)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        heavy = upload(client, "heavy_start.yaml", HOSTILE.HEAVY_START)
        response = client.post("/api/rooms", json={"ruleset": heavy, "players": 4, "seats": ["random"] * 4})
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error.startswith("this table could not be made: "), error
        assert "more than 100,000 steps" in error and "heavy_start.yaml:8" in error, error
        assert client.get("/api/lobby").status_code == 200  # and the server goes on


def test_a_slow_move_is_stopped_half_way_and_the_tables_beside_it_play_on(settings, monkeypatch):
    monkeypatch.setenv("KITTENS_STEP_BUDGET", UNBOUNDED)
    settings.move_seconds, settings.rule_lanes = 1.0, 1  # one lane: the calm table shares it
    with TestClient(create_app(settings)) as client:
        heavy_key = upload(client, "heavy_turns.yaml", HOSTILE.HEAVY_TURNS)  # each turn's end takes minutes
        calm = make_table(client, upload(client, "nope_party.yaml", HOUSE_RULE), ["person", "random"])
        ordinary = make_table(client, original(client), ["person", "random"])
        pings, over = [], threading.Event()

        def ping_ordinary():
            with client.websocket_connect(f"/ws/{ordinary['room']}") as ws:
                ws.send_json({"type": "hello"})
                while not over.is_set():
                    sent = time.perf_counter()
                    ws.send_json({"type": "ping"})
                    watch_until(ws, lambda m: m["type"] == "pong", 10)
                    pings.append(time.perf_counter() - sent)
                    time.sleep(0.1)

        pinger = threading.Thread(target=ping_ordinary, daemon=True)
        pinger.start()
        heavy = make_table(client, heavy_key, ["random"] * 4)  # its first turn ends in a slow move
        started = time.monotonic()
        with client.websocket_connect(f"/ws/{heavy['room']}") as ws:
            ws.send_json({"type": "hello"})
            stopped = watch_until(ws, lambda m: m["type"] == "update" and m["error"], 60)
        took = time.monotonic() - started
        over.set()
        pinger.join(15)
        with client.websocket_connect(f"/ws/{calm['room']}") as ws:  # its lane was killed: set up again
            ws.send_json({"type": "hello", "token": token(calm, 0)})
            press(ws, watch_until(ws, prompted)["prompt"])
    assert "one move took longer than 1 s" in stopped["error"] and "not played" in stopped["error"]
    assert stopped["prompt"] is None
    assert took < 1 + 10, f"the slow move was stopped after {took:.1f} s"
    assert len(pings) >= 3 and sorted(pings)[len(pings) // 2] < 0.1, pings


def draw_a_card(base: str, key: str) -> None:
    """Make a table of a person and three bots, and draw a card at its first turn there."""
    from websockets.sync.client import connect

    status, table, _ = HOSTILE.post(base, "/api/rooms", {"ruleset": key, "players": 4, "seed": 3,
                                                         "seats": ["person", "random", "random", "random"]}, 60)
    assert status == 200, table
    with connect(f"{base.replace('http://', 'ws://')}/ws/{table['room']}", proxy=None, max_size=1 << 24) as ws:
        ws.send(json.dumps({"type": "hello", "token": token(table, 0)}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            message = json.loads(ws.recv(timeout=30))
            prompt = message.get("prompt") if message["type"] == "update" else None
            labels = [option["label"] for option in prompt["options"]] if prompt else []
            if "Draw a card" in labels:
                ws.send(json.dumps({"type": "act", "prompt": prompt["id"], "choice": labels.index("Draw a card")}))
                return
    raise AssertionError("no turn to draw at in 30 s")


@pytest.mark.parametrize("slow", ["making a table", "a move"])
def test_the_server_exits_within_seconds_of_sigterm_while_uploaded_rules_are_busy(tmp_path, slow):
    process = subprocess.Popen([sys.executable, "-m", "kittens", "serve", "--host", "127.0.0.1", "--port", "0",
                                "--data", str(tmp_path / "data"), "--format", "json", "--bot-delay", "0.05"],
                               stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "KITTENS_STEP_BUDGET": UNBOUNDED})
    try:
        base = f"http://127.0.0.1:{json.loads(process.stdout.readline())['port']}"
        name, text = ("heavy_start.yaml", HOSTILE.HEAVY_START) if slow == "making a table" else \
            ("heavy_turns.yaml", HOSTILE.HEAVY_TURNS)
        key = HOSTILE.upload(base, name, text, 120)
        if slow == "making a table":  # sent, and not waited for: the deal takes minutes
            threading.Thread(target=HOSTILE.make, args=(base, key, 1, 60), daemon=True).start()
        else:  # a person draws: the end of their turn is a slow move
            draw_a_card(base, key)
        time.sleep(1.5)  # the slow work runs now
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            pass
        took = time.monotonic() - started
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert took < 5, f"the server took {took:.1f} s to exit after SIGTERM"
