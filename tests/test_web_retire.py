"""The web table closes tables: a finished game after ``keep_finished``, any table nobody
has played in for ``idle_seconds``, and, when the server is full, the table that ended
longest ago. A closed table leaves memory and the database (its rows are counted), a
restarted server deletes what expired while it was down, a database of the first schema
is brought up to date, and a link to a closed table says so.

Time is the test's: a clock (the rooms' monotonic time) and a wall clock (what the
database stores) that move only when the test says so."""

from __future__ import annotations

import json
import queue
import sqlite3
import threading

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from webtable import TestClock  # noqa: E402

from kittens.interpreter.rules.load import UsageError  # noqa: E402
from kittens.web.app import Settings, Tables, create_app  # noqa: E402
from kittens.web.room import ActError, Listener  # noqa: E402
from kittens.web.storage import Storage  # noqa: E402

KEEP, IDLE = 100.0, 1000.0
WALL = 1_700_000_000.0  # the wall clock when a test starts

# the rooms table as kittens made it before tables closed (no active_at, no finished_at)
OLD_SCHEMA = """
CREATE TABLE rooms (id TEXT PRIMARY KEY, created REAL NOT NULL, config TEXT NOT NULL,
    seed INTEGER NOT NULL, released INTEGER NOT NULL DEFAULT 0, round_at INTEGER,
    finished INTEGER NOT NULL DEFAULT 0);
CREATE TABLE seats (room TEXT NOT NULL, seat INTEGER NOT NULL, token TEXT NOT NULL, PRIMARY KEY (room, seat));
CREATE TABLE actions (room TEXT NOT NULL, n INTEGER NOT NULL, option TEXT NOT NULL, PRIMARY KEY (room, n));
"""


def Time(wall: float = WALL, origin: float = 0.0) -> TestClock:  # noqa: N802 (reads as the clock it makes)
    """The rooms' clock (``now``, ``later``) and the wall clock (``wall``), moved together
    by ``advance``; a restarted server gets a new one with another monotonic origin."""
    return TestClock(origin, wall - origin)


def settings_for(tmp_path, **changes) -> Settings:
    return Settings(data=str(tmp_path / "data"), answer_seconds=5.0, bot_delay=0,
                    keep_finished=KEEP, idle_seconds=IDLE, **changes)


def open_tables(tmp_path, time: Time, **changes) -> Tables:
    tables = Tables(settings_for(tmp_path, **changes), clock=time, wall=time.wall)
    tables.restore()
    return tables


def original(tables: Tables) -> str:
    return next(e["key"] for e in tables.rulesets.lobby()["rulesets"]
                if e["name"].startswith("Exploding Kittens (Original"))


def new_room(tables: Tables, seats=("person", "person"), seed=3) -> str:
    """A table made as the lobby makes one; bots alone play theirs to the end at once."""
    made = tables.create({"ruleset": original(tables), "players": len(seats), "seats": list(seats), "seed": seed})
    room = tables.rooms[made["room"]]
    room.step()
    assert room.finished == all(seat != "person" for seat in seats)
    return made["room"]


def rows(tables: Tables, room_id: str) -> dict:
    """How many rows of each table the database holds for one room."""
    db = sqlite3.connect(tables.storage.path)
    try:
        return {table: db.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", (room_id,)).fetchone()[0]
                for table, column in (("rooms", "id"), ("seats", "room"), ("actions", "room"))}
    finally:
        db.close()


def draw(tables: Tables, room_id: str) -> None:
    """The seat whose turn it is draws (a person's decision, through the room)."""
    room = tables.rooms[room_id]
    pending = room.state.decision()
    room.act(pending.seat, room.prompt(pending.seat)["id"], pending.options.index("draw"))


def test_a_finished_table_stays_open_for_keep_finished_and_then_closes(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time)
    done = new_room(tables, seats=("random", "heuristic"))
    playing = new_room(tables)
    got: list = []
    tables.rooms[done].attach(Listener(None, got.append))
    assert rows(tables, done)["actions"] > 0
    time.advance(KEEP - 1)
    assert tables.retire() == 0 and done in tables.rooms
    assert rows(tables, done)["rooms"] == 1
    time.advance(1)
    assert tables.retire() == 1
    assert done not in tables.rooms and playing in tables.rooms
    assert rows(tables, done) == {"rooms": 0, "seats": 0, "actions": 0}
    assert rows(tables, playing)["rooms"] == 1 and rows(tables, playing)["seats"] == 2
    assert got[-1]["type"] == "error" and got[-1]["code"] == "closed"
    assert "ended more than 100 seconds ago" in got[-1]["message"]
    assert "ended" in tables.closed(done) and tables.closed(playing) is None
    tables.close()


def test_an_idle_table_closes_after_idle_seconds_and_a_move_keeps_it_open(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time)
    room_id = new_room(tables)
    room = tables.rooms[room_id]
    time.advance(IDLE - 1)
    assert tables.retire() == 0
    draw(tables, room_id)  # a person plays: the week starts again
    time.advance(IDLE - 1)
    assert tables.retire() == 0 and room_id in tables.rooms
    time.advance(1)
    assert tables.retire() == 1 and room_id not in tables.rooms
    assert rows(tables, room_id) == {"rooms": 0, "seats": 0, "actions": 0}
    assert "nobody played in it for 17 minutes" in tables.closed(room_id)
    with pytest.raises(ActError) as refused:  # a connection that still holds the room
        room.act(0, "d0", 0)
    assert refused.value.code == "closed"
    tables.close()


def test_a_running_server_closes_expired_tables_on_its_own(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time, sweep_seconds=60)
    tables.sweep()  # what the server does when it starts
    room_id = new_room(tables)
    time.advance(IDLE + 60)  # the sweeps run as the clock moves
    assert room_id not in tables.rooms and rows(tables, room_id)["rooms"] == 0
    tables.close()
    assert all(timer.cancelled for timer in time.timers)  # no sweep outlives the server


def test_a_full_server_closes_the_table_that_ended_longest_ago(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time, max_rooms=3)
    first = new_room(tables, seats=("random", "random"), seed=1)
    time.advance(10)
    second = new_room(tables, seats=("random", "random"), seed=2)
    time.advance(10)
    playing = new_room(tables)
    time.advance(10)  # nothing has expired: the server is full
    newest = new_room(tables)
    assert set(tables.rooms) == {second, playing, newest}
    assert rows(tables, first) == {"rooms": 0, "seats": 0, "actions": 0}
    assert "needed its place" in tables.closed(first)
    tables.close()


def test_a_game_stopped_by_a_rule_breaking_down_is_not_in_play(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time, max_rooms=2)
    stopped = new_room(tables, seats=("person", "random"))
    room = tables.rooms[stopped]
    room.bots[1].choose = lambda view, decision: "a move the rules do not have"
    draw(tables, stopped)  # the bot's turn: its move is refused, the game stops
    assert room.error is not None and not room.finished
    time.advance(10)
    playing = new_room(tables)
    newest = new_room(tables)  # full: the stopped game makes way, not the one in play
    assert set(tables.rooms) == {playing, newest} and rows(tables, stopped)["rooms"] == 0
    tables.close()


def test_a_full_server_of_games_in_play_refuses_until_one_expires(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time, max_rooms=2)
    first, second = new_room(tables), new_room(tables)
    time.advance(IDLE / 2)
    draw(tables, second)
    with pytest.raises(UsageError, match="every one is a game still in play"):
        new_room(tables)
    assert set(tables.rooms) == {first, second}
    assert rows(tables, first)["rooms"] == rows(tables, second)["rooms"] == 1
    time.advance(IDLE / 2)  # the first table has been idle for idle_seconds: it makes way
    third = new_room(tables)
    assert set(tables.rooms) == {second, third} and rows(tables, first)["rooms"] == 0
    tables.close()


def test_a_restarted_server_deletes_what_expired_and_keeps_the_rest(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time)
    done = new_room(tables, seats=("random", "random"))
    idle, kept = new_room(tables), new_room(tables, seed=4)
    time.advance(500)
    draw(tables, kept)  # the database must hold when: the restart knows no other way
    saved = tables.rooms[kept].state.serialize()
    tables.close()
    later = Time(wall=time.wall() + 700, origin=50.0)  # down for 700 s; a new monotonic origin
    again = open_tables(tmp_path, later)
    assert set(again.rooms) == {kept}
    assert again.rooms[kept].state.serialize() == saved
    for gone in (done, idle):
        assert rows(again, gone) == {"rooms": 0, "seats": 0, "actions": 0}
    assert "ended" in again.closed(done) and "nobody played" in again.closed(idle)
    # the kept room counts from its last move (700 s ago on the wall clock), not from the restart
    later.advance(IDLE - 700 - 1)
    assert again.retire() == 0
    later.advance(1)
    assert again.retire() == 1 and rows(again, kept)["rooms"] == 0
    again.close()


def test_a_database_of_the_first_schema_is_brought_up_to_date(tmp_path):
    time = Time()
    scratch = Tables(settings_for(tmp_path / "scratch"), clock=time, wall=time.wall)
    config = scratch.prepare({"ruleset": original(scratch), "players": 2, "seats": ["person", "person"],
                              "seed": 5})[0].config
    scratch.close()
    (tmp_path / "data").mkdir()
    path = tmp_path / "data" / "kittens.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(OLD_SCHEMA)
    for room_id, finished in (("ended", 1), ("playing", 0)):
        old.execute("INSERT INTO rooms (id, created, config, seed, finished) VALUES (?, ?, ?, ?, ?)",
                    (room_id, WALL - 10 * IDLE, json.dumps(config), 5, finished))
        old.execute("INSERT INTO seats VALUES (?, 0, 'digest0'), (?, 1, 'digest1')", (room_id, room_id))
    old.execute("""INSERT INTO actions VALUES ('playing', 0, '"draw"')""")
    old.commit()
    old.close()

    storage = Storage(str(path), wall=time.wall)
    stored = {room["id"]: room for room in storage.rooms()}
    # nobody knows when the old rooms were played: they count from the upgrade
    assert stored["ended"]["active_at"] == stored["playing"]["active_at"] == WALL
    assert stored["ended"]["finished_at"] == WALL and stored["playing"]["finished_at"] is None
    assert storage.actions("playing") == ["draw"]
    storage.close()
    time.advance(KEEP)
    again = Storage(str(path), wall=time.wall)  # opened again: nothing changes
    assert {room["id"]: room["active_at"] for room in again.rooms()} == {"ended": WALL, "playing": WALL}
    again.close()

    tables = open_tables(tmp_path, time)  # a day later: the finished one closes, the other plays on
    assert set(tables.rooms) == {"playing"}
    assert rows(tables, "ended") == {"rooms": 0, "seats": 0, "actions": 0}
    assert tables.rooms["playing"].state.history == ["draw"]
    tables.close()


def test_closing_rooms_is_one_transaction(tmp_path):
    time = Time()
    tables = open_tables(tmp_path, time)
    room_id = new_room(tables, seats=("random", "random"))
    before = rows(tables, room_id)
    # the last delete fails: the decisions and seats deleted before it must come back
    tables.storage.db.execute("CREATE TEMP TRIGGER keep BEFORE DELETE ON rooms BEGIN SELECT RAISE(ABORT, 'kept'); END")
    with pytest.raises(sqlite3.DatabaseError, match="kept"):
        tables.storage.retire({room_id: "a test"})
    assert rows(tables, room_id) == before and before["actions"] > 0
    assert tables.closed(room_id) is None
    tables.close()


# -- through the server: links to a closed table ---------------------------------------
def receive(ws, seconds: float = 20.0):
    """The next message of a test websocket, or a failure when none comes in ``seconds``
    (the test client itself would wait for ever)."""
    box: queue.Queue = queue.Queue()

    def read():
        try:
            box.put((True, ws.receive_json()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box.put((False, exc))

    threading.Thread(target=read, daemon=True).start()
    try:
        fine, value = box.get(timeout=seconds)
    except queue.Empty:
        pytest.fail(f"the server sent nothing in {seconds} s")
    if not fine:
        raise value
    return value


def test_a_closed_table_says_so_on_its_page_its_log_and_its_websocket(tmp_path):
    settings = settings_for(tmp_path)
    with TestClient(create_app(settings)) as client:
        tables = client.app.state.tables
        key = original(tables)
        made = client.post("/api/rooms", json={"ruleset": key, "players": 2, "seats": ["person", "person"],
                                               "seed": 7}).json()
        room_id, token = made["room"], made["seats"][0]["link"].split("#seat=")[1]
        with client.websocket_connect(f"/ws/{room_id}") as ws, \
                client.websocket_connect(f"/ws/{room_id}") as late:  # says hello only after it closed
            ws.send_json({"type": "hello", "token": token})
            assert receive(ws)["type"] == "welcome"
            assert receive(ws)["type"] == "update"

            def expire():  # in the server's event loop, as its sweep runs
                tables.rooms[room_id].active -= settings.idle_seconds
                return tables.retire()

            assert client.portal.call(expire) == 1
            said = receive(ws)
            assert said["code"] == "closed" and "This table has closed: nobody played" in said["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4410
            late.send_json({"type": "hello", "token": token})
            assert receive(late)["code"] == "closed"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(late)
            assert closed.value.code == 4410
        page = client.get(f"/room/{room_id}")
        assert page.status_code == 410 and "This table has closed" in page.text
        assert client.get(f"/room/{room_id}/rules").status_code == 410
        log = client.get(f"/room/{room_id}/log")
        assert log.status_code == 410 and "closed" in log.json()["error"]
        with client.websocket_connect(f"/ws/{room_id}") as ws:  # the link, opened again
            assert receive(ws)["code"] == "closed"
        nothing = client.get("/room/never-was")
        assert nothing.status_code == 404 and "no table here" in nothing.text


def test_a_full_server_refuses_a_table_with_the_reason(tmp_path):
    with TestClient(create_app(settings_for(tmp_path, max_rooms=1))) as client:
        key = original(client.app.state.tables)
        form = {"ruleset": key, "players": 2, "seats": ["person", "person"]}
        assert client.post("/api/rooms", json=form).status_code == 200
        refused = client.post("/api/rooms", json=form)
        assert refused.status_code == 400 and "still in play" in refused.json()["error"]
        assert len(client.app.state.tables.rooms) == 1
