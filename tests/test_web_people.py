"""The people around a web table, through Starlette's test client: names chosen at the
seats and kept after a restart, who is online and who watches, the chat (bounded,
kept, and never a way to learn a hand), the rematch (same links, seats rotated), and
the replay viewer's data (a seat's replay holds only what that seat saw)."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402
from webtable import play_out  # noqa: E402

from kittens.web.app import Settings, create_app  # noqa: E402
from kittens.web.social import CHAT_CHARS, CHAT_EVERY, CHAT_KEPT  # noqa: E402


@pytest.fixture
def settings(tmp_path):
    return Settings(data=str(tmp_path / "data"), answer_seconds=0.3, bot_delay=0)


def make_table(client, seats=("person", "person"), seed=11):
    key = next(e["key"] for e in client.get("/api/lobby").json()["rulesets"]
               if e["name"].startswith("Exploding Kittens (Original"))
    made = client.post("/api/rooms", json={"ruleset": key, "players": len(seats), "seats": list(seats), "seed": seed})
    assert made.status_code == 200, made.text
    return made.json()


def token(table, seat):
    return table["seats"][seat]["link"].split("#seat=")[1]


def until(ws, kind, code=None):
    """Messages until one of ``kind`` (and ``code``, for errors) arrives: that one."""
    for _ in range(50):
        message = ws.receive_json()
        if message["type"] == kind and (code is None or message.get("code") == code):
            return message
    raise AssertionError(f"no {kind} message")


def hello(ws, tok, social=True):
    ws.send_json({"type": "hello", "token": tok, "social": social})
    return until(ws, "welcome")


def test_names_presence_and_chat_reach_the_table_and_survive_a_restart(settings):
    with TestClient(create_app(settings)) as client:
        table = make_table(client)
        room = f"/ws/{table['room']}"
        with client.websocket_connect(room) as ann, client.websocket_connect(room) as ben:
            welcome = hello(ann, token(table, 0))
            assert welcome["named"] == [False, False] and welcome["online"] == [True, False]
            assert until(ann, "presence")["online"] == [True, False]  # her own arrival
            hello(ben, token(table, 1))
            assert until(ann, "presence")["online"] == [True, True]
            ann.send_json({"type": "name", "name": "  Ann \u0000 Smith "})
            named = until(ben, "names")
            assert named["names"][0] == "Ann Smith" and named["named"] == [True, False]
            ben.send_json({"type": "name", "name": "ann smith"})  # taken, whatever the case
            assert until(ben, "error", "name-taken")
            attack = "<script>window.pwned = 1</script>"
            ben.send_json({"type": "chat", "text": attack})
            line = until(ann, "chat")["line"]
            assert line["text"] == attack and line["seat"] == 1 and line["name"] == "Seat 1"
            ben.send_json({"type": "chat", "text": "x" * (CHAT_CHARS + 1)})
            assert until(ben, "error", "bad-message")
            for n in range(5):  # five at once (the first was the script), then one a second
                ben.send_json({"type": "chat", "text": f"line {n}"})
            assert until(ben, "error", "chat-flood")
            with client.websocket_connect(room) as watcher:
                seen = hello(watcher, "")
                assert seen["watchers"] == 1 and [c["text"] for c in seen["chat"]][:2] == [attack, "line 0"]
                watcher.send_json({"type": "chat", "text": "hi"})
                assert until(watcher, "error", "spectator")
                assert until(ann, "presence")["watchers"] == 1
    with TestClient(create_app(settings)) as client:  # the server restarted
        with client.websocket_connect(room) as ben:
            welcome = hello(ben, token(table, 1))
            assert welcome["names"][0] == "Ann Smith" and welcome["named"] == [True, False]
            assert [c["text"] for c in welcome["chat"]] == [attack] + [f"line {n}" for n in range(4)]
            # the log speaks of Ann by name now
            assert client.app.state.tables.rooms[table["room"]].words.seat_name(0) == "Ann Smith"


def test_a_page_that_asks_for_no_people_gets_the_game_only(settings):
    with TestClient(create_app(settings)) as client:
        table = make_table(client)
        room = f"/ws/{table['room']}"
        with client.websocket_connect(room) as ann, client.websocket_connect(room) as ben:
            hello(ann, token(table, 0), social=False)
            hello(ben, token(table, 1))
            ben.send_json({"type": "chat", "text": "hello"})
            until(ben, "chat")
            ann.send_json({"type": "ping"})
            kinds = []
            while (message := ann.receive_json())["type"] != "pong":
                kinds.append(message["type"])
            assert "chat" not in kinds and "presence" not in kinds


def test_chat_keeps_only_its_last_lines(settings):
    with TestClient(create_app(settings)) as client:
        table = make_table(client)
        room = client.app.state.tables.rooms[table["room"]]
        with client.websocket_connect(f"/ws/{table['room']}") as ann:
            hello(ann, token(table, 0))
            listener = room.listeners[0]
            ticks = itertools.count(0, CHAT_EVERY)  # a line's worth of time between lines: never too fast
            room.social.limit.clock = lambda: next(ticks)
            for n in range(CHAT_KEPT + 20):
                room.social.say(listener, f"line {n}")
        assert len(room.social.chat) == CHAT_KEPT and room.social.chat[0]["text"] == "line 20"
    with TestClient(create_app(settings)) as client:
        again = client.app.state.tables.rooms[table["room"]]
        assert len(again.social.chat) == CHAT_KEPT and again.social.chat[-1]["n"] == CHAT_KEPT + 19


def test_a_rematch_keeps_the_links_and_names_and_moves_everyone_one_seat_on(settings):
    with TestClient(create_app(settings)) as client:
        table = make_table(client, seats=("person", "random", "person"))
        tables = client.app.state.tables
        old = tables.rooms[table["room"]]
        with client.websocket_connect(f"/ws/{table['room']}") as ann:
            hello(ann, token(table, 0))
            ann.send_json({"type": "rematch"})
            assert until(ann, "error", "not-over")
            ann.send_json({"type": "name", "name": "Ann"})
            until(ann, "names")
            ann.send_json({"type": "chat", "text": "hi all"})
            until(ann, "chat")
        play_out(client, table["room"], {0: token(table, 0), 2: token(table, 2)}, random.Random(3))
        with client.websocket_connect(f"/ws/{table['room']}") as ann:
            hello(ann, token(table, 0))
            ann.send_json({"type": "rematch"})
            new_id = until(ann, "rematch")["room"]
        new = tables.rooms[new_id]
        assert new.config["seats"] == ["person", "person", "random"]  # each one seat on
        assert new.social.names == {1: "Ann"}
        # the table's chat comes along, each line's seat one on as its writer is
        assert [(line["seat"], line["name"], line["text"]) for line in new.social.chat] == [(1, "Ann", "hi all")]
        for seat, tok in ((1, token(table, 0)), (0, token(table, 2))):  # the same links open the next seats
            with client.websocket_connect(f"/ws/{new_id}") as ws:
                assert [line["text"] for line in hello(ws, tok)["chat"]][0] == "hi all"
                ws.send_json({"type": "chat", "text": "again"})  # numbered on from the carried lines
                assert until(ws, "chat")["line"]["n"] == 1 + (seat == 0)
        with client.websocket_connect(f"/ws/{table['room']}") as ws:  # the old link knows the next game
            assert hello(ws, token(table, 2))["next"] == new_id
            ws.send_json({"type": "rematch"})  # asking again: the same next game
            assert until(ws, "rematch")["room"] == new_id
        assert len(tables.rooms) == 2 and old.social.next == new_id


def secret_cards(room, seat):
    """Card ids in the other hands at the end that ``seat`` never saw (by the engine's view)."""
    view = room.state.view(seat)
    table = room.state.table
    unseen = set()
    for other in range(room.game.players):
        if other != seat:
            unseen |= {inst.id for inst in table.hands[other].cards} - set(view.known_in_hand(other))
    return unseen


def test_the_replay_of_a_finished_table_shows_a_seat_only_what_it_saw(settings):
    with TestClient(create_app(settings)) as client:
        table = make_table(client, seats=("person", "random"), seed=5)
        refused = client.get(f"/api/replay/room/{table['room']}?seat=all")
        assert refused.status_code == 409  # not while the game is played
        play_out(client, table["room"], {0: token(table, 0)}, random.Random(1))
        room = client.app.state.tables.rooms[table["room"]]
        mine = client.get(f"/api/replay/room/{table['room']}?seat=0").json()
        assert mine["problem"] is None and mine["finished"]
        assert len(mine["steps"]) == len(room.state.history) + 1
        assert mine["steps"][-1]["upto"] == len(room.state.events)
        for step in mine["steps"]:  # never a secret mark, never the other hand whole
            text = json.dumps(step)
            assert "secret" not in text and '"only"' not in text
            assert step["view"]["hand"] is not None and "hand" not in step["view"]["seats"][1]
        last = mine["steps"][-1]["view"]
        hidden = secret_cards(room, 0)
        assert not set(last["seats"][1]["known"]) & hidden
        everyone = client.get(f"/api/replay/room/{table['room']}?seat=all").json()
        seat1 = sorted(inst.id for inst in room.state.table.hands[1].cards)
        assert everyone["steps"][-1]["view"]["seats"][1]["known"] == seat1
        assert len(everyone["log"]) > len(mine["log"]) or everyone["log"] != mine["log"]
        assert client.get(f"/room/{table['room']}/replay").status_code == 200
        assert client.get(f"/api/replay/room/{table['room']}?seat=9").status_code == 400


def test_the_replay_viewer_reads_a_lab_log(settings, tmp_path):
    log = tmp_path / "lab.jsonl"
    subprocess.run([sys.executable, "-m", "kittens", "run", "original", "--games", "2", "--players", "3",
                    "--seed", "4", "--log", str(log)], check=True, capture_output=True, timeout=120)
    with TestClient(create_app(settings)) as client:
        text = log.read_text(encoding="utf-8")
        result = client.post("/api/replay", json={"log": text, "seat": 2, "game": 2})
        assert result.status_code == 200, result.text
        data = result.json()
        assert data["games"] == 2 and data["problem"] is None and data["finished"]
        header_line = next(n for n, line in enumerate(text.splitlines(), 1)
                           if json.loads(line)["type"] == "game" and n > 1)
        assert all(entry["line"] > header_line for entry in data["log"])
        wrong = client.post("/api/replay", json={"log": text.replace('"seed"', '"seeds"', 1), "seat": 0})
        assert wrong.status_code == 200 and wrong.json()["problem"]  # a different deal: it says where
        bad = client.post("/api/replay", json={"log": "not json\n", "seat": 0})
        assert bad.status_code == 400 and "line 1" in bad.json()["error"]
        outside = text.replace("\"edition\":\"original\"", "\"edition\":\"/etc/passwd\"")
        path = client.post("/api/replay", json={"log": outside, "seat": 0})
        assert path.status_code == 400 and "not on this server" in path.json()["error"]


def test_a_retired_table_takes_its_names_chat_and_rematch_with_it(settings):
    with TestClient(create_app(settings)) as client:
        table = make_table(client)
        tables = client.app.state.tables
        room = tables.rooms[table["room"]]
        with client.websocket_connect(f"/ws/{table['room']}") as ann:
            hello(ann, token(table, 0))
            ann.send_json({"type": "name", "name": "Ann"})
            until(ann, "names")
            ann.send_json({"type": "chat", "text": "hello"})
            until(ann, "chat")
        db = tables.storage.db
        def count():
            return [db.execute(f"SELECT COUNT(*) FROM {name} WHERE room = ?", (room.id,)).fetchone()[0]
                    for name in ("names", "chat")]
        assert count() == [1, 1]
        tables.storage.retire({room.id: "a test closed it"})
        assert count() == [0, 0]
