"""The web table's protocol, through Starlette's test client: the lobby, uploads checked
as `kittens validate` checks them, seat links, every refused frame answered with an
error that changes nothing, reconnecting, the rulesheet, the log (replayed as
`kittens replay` replays it) and a server restarted in the middle of a game."""

from __future__ import annotations

import json
import os
import random
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402
from webtable import HOUSE_RULE, play_out  # noqa: E402

from kittens.about import PACKAGE_DIR  # noqa: E402
from kittens.adapters.replay import replay_log  # noqa: E402
from kittens.web.app import Settings, create_app  # noqa: E402


@pytest.fixture
def settings(tmp_path):
    return Settings(data=str(tmp_path / "data"), answer_seconds=0.3, bot_delay=0)


@pytest.fixture
def client(settings):
    with TestClient(create_app(settings)) as client:
        yield client


def ruleset(client, prefix="Exploding Kittens (Original"):
    return next(e["key"] for e in client.get("/api/lobby").json()["rulesets"] if e["name"].startswith(prefix))


def make_table(client, seats=("person", "person"), seed=11, **extra):
    response = client.post("/api/rooms", json={"ruleset": extra.pop("key", None) or ruleset(client),
                                               "players": len(seats), "seats": list(seats), "seed": seed, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def token(table, seat):
    return table["seats"][seat]["link"].split("#seat=")[1]


def join(ws, tok):
    ws.send_json({"type": "hello", "token": tok})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    return welcome, ws.receive_json()


def test_the_lobby_lists_shipped_editions_with_their_variants(client):
    lobby = client.get("/api/lobby").json()
    names = {entry["name"]: entry for entry in lobby["rulesets"]}
    original = names["Exploding Kittens (Original Edition)"]
    assert {v["name"] for v in original["variants"]} >= {"beginner", "older_printing"}
    assert any(x["name"] == "Imploding Kittens" for x in lobby["expansions"])
    assert "heuristic" in lobby["bots"]
    assert client.get("/").status_code == 200 and "Make a table" in client.get("/").text


@pytest.mark.parametrize("form, message", [
    ({"players": 9}, "2 to 5 players"),
    ({"seats": ["person", "wizard"]}, "a person, or a bot"),
    ({"ruleset": "k999"}, "no such ruleset"),
    ({"ruleset": "upload:../../etc/passwd"}, "no such ruleset"),
    ({"variant": "no_such"}, "no variant"),
])
def test_a_bad_table_is_refused_with_a_reason(client, form, message):
    body = {"ruleset": ruleset(client), "players": 2, "seats": ["person", "person"], **form}
    response = client.post("/api/rooms", json=body)
    assert response.status_code in (400, 422)
    assert message in json.dumps(response.json())


def test_an_uploaded_house_rule_is_checked_and_played(client):
    result = client.post("/api/uploads", json={"files": [{"name": "nope_party.yaml", "text": HOUSE_RULE}]}).json()
    assert result["diagnostics"] == []
    [entry] = result["playable"]
    assert entry["name"] == "Nope Party"
    table = make_table(client, key=entry["key"])
    sheet = client.get(f"/room/{table['room']}/rules")
    assert sheet.status_code == 200 and "Nope Party" in sheet.text and "<html" in sheet.text.lower()


def test_an_uploaded_file_with_errors_gets_its_findings_at_their_lines(client):
    broken = HOUSE_RULE.replace("set_counts: {nope: 8}", "set_counts: {noep: 8}")
    result = client.post("/api/uploads", json={"files": [{"name": "house.yaml", "text": broken}]}).json()
    assert result["playable"] == []
    [finding] = [d for d in result["diagnostics"] if d["severity"] == "error"]
    assert (finding["file"], finding["line"]) == ("house.yaml", 6)
    assert finding["column"] >= 1 and "noep" in finding["message"]
    # a shipped file is named in the package, not where this server has it installed, as
    # every command names it (issue 28)
    assert "<kittens>/editions/original.yaml" in finding["message"]
    assert str(PACKAGE_DIR) not in json.dumps(result)


def test_an_upload_may_not_reach_outside_its_folder(client, settings, tmp_path):
    secret = tmp_path / "secret.yaml"
    secret.write_text(HOUSE_RULE, encoding="utf-8")
    sneaky = HOUSE_RULE.replace("extends: original", f"extends: {secret}")
    result = client.post("/api/uploads", json={"files": [{"name": "house.yaml", "text": sneaky}]}).json()
    assert [d["code"] for d in result["diagnostics"]] == ["outside-project"]
    relative = HOUSE_RULE.replace("extends: original", "extends: ../../../secret.yaml")
    result = client.post("/api/uploads", json={"files": [{"name": "house.yaml", "text": relative}]}).json()
    assert [d["code"] for d in result["diagnostics"]] == ["outside-project"]
    assert str(tmp_path) not in json.dumps(result)  # no server path in what the page is told


def test_uploaded_files_extend_and_apply_each_other(client):
    """A house rule extending a file uploaded with it, and one applying an uploaded
    expansion, are checked among the upload's files (issue 43: "no file 'partners.yaml'"),
    while a path out of the upload is still refused before anything is looked up."""
    from conftest import ROOT

    house = ROOT / "examples" / "house-rules"
    partners = (house / "partners.yaml").read_text(encoding="utf-8").replace(
        "extends: ../../editions/original.yaml", "extends: original")
    gifts = (house / "partner_gifts.yaml").read_text(encoding="utf-8")
    files = [{"name": "partner_gifts.yaml", "text": gifts}, {"name": "partners.yaml", "text": partners}]
    result = client.post("/api/uploads", json={"files": files}).json()
    assert result["diagnostics"] == []
    assert {e["name"] for e in result["playable"]} == {"Partner Gifts", "Partners"}
    gifts_key = next(e["key"] for e in result["playable"] if e["name"] == "Partner Gifts")
    made = client.post("/api/rooms", json={"ruleset": gifts_key, "players": 4, "seats": ["random"] * 4})
    assert made.status_code == 200, made.text
    alone = client.post("/api/uploads", json={"files": files[:1]}).json()
    assert [d["code"] for d in alone["diagnostics"]] == ["unknown-file"]
    extra = ("format: 1\nkind: expansion\nid: more_nopes\nname: More Nopes\nbase: original\n"
             "deck:\n  nope: 2\n")
    applied = HOUSE_RULE + "apply: [more_nopes.yaml]\n"
    result = client.post("/api/uploads", json={"files": [{"name": "house.yaml", "text": applied},
                                                         {"name": "more_nopes.yaml", "text": extra}]}).json()
    assert [d for d in result["diagnostics"] if d["severity"] == "error"] == []
    assert "Nope Party" in {e["name"] for e in result["playable"]}
    escape = gifts.replace("extends: partners.yaml", "extends: ../elsewhere/partners.yaml")
    result = client.post("/api/uploads", json={"files": [{"name": "partner_gifts.yaml", "text": escape},
                                                         files[1]]}).json()
    assert [d["code"] for d in result["diagnostics"]] == ["outside-project"]


def test_a_device_asks_which_of_its_uploads_are_kept(client):
    """The lobby remembers its uploads' keys; the server answers which still name a kept
    file, never following a key out of the uploads' folder, and only for a bounded list."""
    made = client.post("/api/uploads", json={"files": [{"name": "house.yaml", "text": HOUSE_RULE}]}).json()
    key = made["playable"][0]["key"]
    upload = key.split(":")[1].split("/")[0]
    asked = [key, key, f"upload:{upload}/other.yaml", "upload:../../etc/passwd", f"upload:{upload}/../x.yaml",
             "k0", 7, None]
    answer = client.post("/api/uploads/kept", json={"keys": asked})
    assert answer.status_code == 200 and answer.json() == {"kept": [key]}
    assert client.post("/api/uploads/kept", json={"keys": ["k0"] * 51}).status_code == 400
    assert client.post("/api/uploads/kept", json={"keys": "upload:x"}).status_code == 400


def test_open_tables_are_listed_with_their_free_seats_and_a_seat_is_taken_once(client):
    from webtable import watch_until

    key = next(e["key"] for e in client.get("/api/lobby").json()["rulesets"] if e["name"].startswith("Exploding"))
    made = client.post("/api/rooms", json={"ruleset": key, "players": 3, "seats": ["person", "person", "random"],
                                           "open": True, "wait": True}).json()
    private = client.post("/api/rooms", json={"ruleset": key, "players": 2, "seats": ["person", "person"]}).json()
    listed = client.get("/api/open").json()["tables"]
    assert [t["room"] for t in listed] == [made["room"]] and private["room"] not in json.dumps(listed)
    assert listed[0]["free"] == [0, 1] and listed[0]["seats"] == ["person", "person", "bot"] and listed[0]["waiting"]
    assert "seat=" not in json.dumps(listed)  # no token is ever listed
    host = made["seats"][0]["link"].split("#seat=")[1]
    with client.websocket_connect(f"/ws/{made['room']}") as ws:  # the host opens their link: taken
        ws.send_json({"type": "hello", "token": host})
        watch_until(ws, lambda m: m["type"] == "welcome")
    assert client.get("/api/open").json()["tables"][0]["free"] == [1]
    taken = client.post("/api/open/join", json={"room": made["room"], "seat": 1})
    assert taken.status_code == 200
    link = taken.json()["link"]
    assert link.startswith(f"/room/{made['room']}#seat=") and link != made["seats"][1]["link"]
    assert client.get("/api/open").json()["tables"] == []  # no free seat left: not listed
    again = client.post("/api/open/join", json={"room": made["room"], "seat": 1})
    assert again.status_code == 409 and "taken" in again.json()["error"]
    for bad in ({"room": made["room"], "seat": 2}, {"room": private["room"], "seat": 1}, {"room": 7, "seat": 0}):
        assert client.post("/api/open/join", json=bad).status_code == 409
    with client.websocket_connect(f"/ws/{made['room']}") as ws:  # the seat's first link opens it no more
        ws.send_json({"type": "hello", "token": made["seats"][1]["link"].split("#seat=")[1]})
        assert watch_until(ws, lambda m: m["type"] == "error")["code"] == "bad-token"
    with client.websocket_connect(f"/ws/{made['room']}") as ws:
        ws.send_json({"type": "hello", "token": link.split("#seat=")[1]})
        assert watch_until(ws, lambda m: m["type"] == "welcome")["seat"] == 1


def test_a_refused_reference_in_an_upload_says_how_to_fix_it_in_the_page(client):
    """The repository's example house rules extend '../../editions/original.yaml': uploaded,
    that path leads nowhere, and the finding says what to write instead (not a server flag)."""
    from conftest import ROOT  # the examples live in the repository, not in the installed package

    path = ROOT / "examples" / "house-rules" / "cat_collector.yaml"
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    result = client.post("/api/uploads", json={"files": [{"name": "cat_collector.yaml", "text": text}]}).json()
    [finding] = result["diagnostics"]
    assert finding["code"] == "outside-project"
    assert "write 'original' here" in finding["message"]
    assert "--allow-outside" not in finding["message"] and "KITTENS_ALLOW_OUTSIDE" not in finding["message"]
    fixed = text.replace("extends: ../../editions/original.yaml", "extends: original")
    result = client.post("/api/uploads", json={"files": [{"name": "cat_collector.yaml", "text": fixed}]}).json()
    assert result["diagnostics"] == [] and len(result["playable"]) == 1
    elsewhere = text.replace("extends: ../../editions/original.yaml", "extends: ../mine/base.yaml")
    result = client.post("/api/uploads", json={"files": [{"name": "cat_collector.yaml", "text": elsewhere}]}).json()
    assert "upload the file it names" in result["diagnostics"][0]["message"]


@pytest.mark.parametrize("files, status", [
    ([{"name": "../evil.yaml", "text": HOUSE_RULE}], 200),  # kept under its base name only
    ([{"name": "evil.py", "text": "x"}], 400),
    ([{"name": ".hidden.yaml", "text": "x"}], 400),
    ([{"name": f"f{i}.yaml", "text": "x"} for i in range(9)], 400),
    ([{"name": "big.yaml", "text": "#" * (2 * 1024 * 1024 + 1)}], 400),
])
def test_uploads_are_bounded_and_named_safely(client, settings, files, status):
    response = client.post("/api/uploads", json={"files": files})
    assert response.status_code == status
    if status == 200:
        assert response.json()["files"] == ["evil.yaml"]


def test_the_uploads_a_server_keeps_are_bounded(settings):
    """A server keeps a bounded number of uploads and bytes: past them the least lately
    used upload that no live table plays expires; with every one in play a new upload is
    refused, and a refused upload writes nothing."""
    import os

    settings.max_uploads, settings.max_upload_bytes = 2, 3 * len(HOUSE_RULE)
    uploads = os.path.join(settings.data, "uploads")
    one = {"files": [{"name": "nope_party.yaml", "text": HOUSE_RULE}]}
    with TestClient(create_app(settings)) as client:
        first = client.post("/api/uploads", json=one).json()
        big = {"files": [{"name": "a.yaml", "text": HOUSE_RULE}, {"name": "b.yaml", "text": HOUSE_RULE},
                         {"name": "c.yaml", "text": HOUSE_RULE}]}
        make_table(client, key=first["playable"][0]["key"])  # the first upload is in play
        refused = client.post("/api/uploads", json=big)  # past the bytes, and the first may not go
        assert refused.status_code == 507 and "in tables still in play" in refused.json()["error"]
        assert os.listdir(uploads) == [first["upload"]]
        second = client.post("/api/uploads", json=one).json()
        third = client.post("/api/uploads", json=one)  # past the count: the second expires
        assert third.status_code == 200
        assert sorted(os.listdir(uploads)) == sorted([first["upload"], third.json()["upload"]])
        gone = client.post("/api/rooms", json={"ruleset": second["playable"][0]["key"], "players": 2,
                                               "seats": ["person", "person"]})
        assert gone.status_code == 400 and "upload it again" in gone.json()["error"]


def test_one_device_making_tables_in_a_loop_is_slowed_down(settings):
    """New tables and uploads are limited per address: a loop on one device cannot use up
    the server's rooms (or uploads) for everyone; what is refused makes nothing."""
    settings.form_rate, settings.form_burst = 0.01, 5
    with TestClient(create_app(settings)) as client:
        key = ruleset(client)
        form = {"ruleset": key, "players": 2, "seats": ["person", "person"]}
        codes = [client.post("/api/rooms", json=form).status_code for _ in range(8)]
        assert codes == [200] * 5 + [429] * 3
        assert len(client.app.state.tables.rooms) == 5
        refused = client.post("/api/uploads", json={"files": [{"name": "nope_party.yaml", "text": HOUSE_RULE}]})
        assert refused.status_code == 429 and "wait" in refused.json()["error"]
    with TestClient(create_app(settings), client=("192.0.2.7", 50000)) as other:  # another device
        assert other.post("/api/rooms", json=form).status_code == 200
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as own:  # the server's computer
        assert [own.post("/api/rooms", json=form).status_code for _ in range(8)] == [200] * 8


def test_an_oversized_upload_request_is_refused_unread(client):
    response = client.post("/api/uploads", content=b"x" * (6 * 1024 * 1024))
    assert response.status_code == 413


def test_a_seat_link_opens_that_seat_and_no_other(client):
    table = make_table(client)
    with client.websocket_connect(f"/ws/{table['room']}") as ws:
        welcome, update = join(ws, token(table, 1))
        assert welcome["seat"] == 1 and update["view"]["hand"] is not None
    with client.websocket_connect(f"/ws/{table['room']}") as ws:
        ws.send_json({"type": "hello", "token": "not-a-token"})
        assert ws.receive_json()["code"] == "bad-token"
    with client.websocket_connect(f"/ws/{table['room']}") as ws:
        welcome, update = join(ws, "")
        assert welcome["seat"] is None and update["view"]["hand"] is None and update["prompt"] is None


FRAMES = [
    ("malformed", "{not json"),
    ("malformed", "[1, 2]"),
    ("malformed", json.dumps({"no": "type"})),
    ("too-large", json.dumps({"type": "act", "pad": "x" * 5000})),
    ("unknown-type", json.dumps({"type": "cheat"})),
    ("wrong-seat", json.dumps({"type": "act", "seat": 1, "prompt": "d0", "choice": 0})),
    ("stale", json.dumps({"type": "act", "prompt": "d7", "choice": 0})),
    ("bad-choice", json.dumps({"type": "act", "prompt": "d0", "choice": 999})),
    ("bad-choice", json.dumps({"type": "act", "prompt": "d0", "choice": "0"})),
    ("joined", json.dumps({"type": "hello", "token": ""})),
]


def test_every_bad_frame_gets_an_error_and_changes_nothing(client):
    table = make_table(client)
    room = client.app.state.tables.rooms[table["room"]]
    before = room.state.serialize()
    with client.websocket_connect(f"/ws/{table['room']}") as ws, \
            client.websocket_connect(f"/ws/{table['room']}") as other:
        ws.send_json({"type": "act", "prompt": "d0", "choice": 0})
        assert ws.receive_json()["code"] == "no-hello"
        welcome, update = join(ws, token(table, 0))
        assert update["prompt"]["id"] == "d0"
        join(other, token(table, 1))
        other.send_text(json.dumps({"type": "act", "prompt": "d0", "choice": 0}))
        assert other.receive_json()["code"] == "not-your-turn"
        for code, frame in FRAMES:
            ws.send_text(frame)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["code"] == code, (frame, reply)
        ws.send_bytes(b"\x00\x01")
        assert ws.receive_json()["code"] == "binary"
        assert room.state.serialize() == before
        ws.send_json({"type": "ping"})
        assert ws.receive_json()["type"] == "pong"
        # the room still plays: the right choice goes through
        ws.send_json({"type": "act", "prompt": "d0", "choice": update["prompt"]["options"].index(
            {"label": "Draw a card", "hint": "ends your turn"})})
        assert ws.receive_json()["type"] == "update"
    assert room.state.serialize() != before


def test_a_flood_is_refused_and_then_cut_off(settings):
    settings.flood_backoff = 0.5  # how long the device is refused after the cut-off
    with TestClient(create_app(settings)) as client:
        _flood_and_come_back(client, settings)


def _flood_and_come_back(client, settings):
    table = make_table(client)
    room = client.app.state.tables.rooms[table["room"]]
    before = room.state.serialize()
    with client.websocket_connect(f"/ws/{table['room']}") as ws:
        join(ws, token(table, 0))
        sent = settings.burst + settings.flood_limit + 50
        for _ in range(sent):
            ws.send_json({"type": "act", "prompt": "d999", "choice": 0})
        codes = []
        with pytest.raises(Exception):  # the server closes the connection in the end
            while True:
                codes.append(ws.receive_json()["code"])
        assert codes.count("flood") >= settings.flood_limit
        assert set(codes) == {"stale", "flood", "flooded"} and codes[-1] == "flooded"
    assert room.state.serialize() == before
    with client.websocket_connect(f"/ws/{table['room']}") as ws:  # the device must wait a while
        refused = ws.receive_json()
        assert refused["code"] == "backoff" and "try again in" in refused["message"]
    time.sleep(settings.flood_backoff)
    with client.websocket_connect(f"/ws/{table['room']}") as ws:  # then: the room is fine
        assert join(ws, token(table, 0))[1]["prompt"]["id"] == "d0"


def test_a_game_played_to_the_end_downloads_as_a_log_kittens_replay_verifies(client, tmp_path):
    table = make_table(client, seats=("person", "heuristic", "person"), seed=5)
    assert client.get(f"/room/{table['room']}/log").status_code == 409
    got = play_out(client, table["room"], {0: token(table, 0), 2: token(table, 2)}, random.Random(1))
    assert got[0][-1]["view"]["finished"]
    response = client.get(f"/room/{table['room']}/log")
    assert response.status_code == 200
    path = tmp_path / "game.jsonl"
    path.write_text(response.text, encoding="utf-8")
    [result] = list(replay_log(str(path)))
    assert result.verified, result.mismatch or result.incomplete
    header = json.loads(response.text.splitlines()[0])
    assert header["bots"] == ["person", "heuristic", "person"] and header["edition"] == "original"
    assert "edition_path" not in header and os.sep + "editions" + os.sep not in response.text


def test_a_restarted_server_brings_the_room_back_and_the_seat_reconnects(settings):
    rng = random.Random(4)
    with TestClient(create_app(settings)) as client:
        table = make_table(client, seats=("person", "random", "person"), seed=21)
        room = client.app.state.tables.rooms[table["room"]]
        with client.websocket_connect(f"/ws/{table['room']}") as ws0:
            join(ws0, token(table, 0))
            for _ in range(6):  # seat 0 plays a few turns (seat 2's windows time out)
                prompt = room.prompt(0)
                if prompt is None:
                    break
                ws0.send_json({"type": "act", "prompt": prompt["id"], "choice": rng.randrange(len(prompt["options"]))})
                ws0.receive_json()
        saved = room.state.serialize()
        prompts = {seat: room.prompt(seat) for seat in (0, 2)}
    with TestClient(create_app(settings)) as client:  # the same data folder: a restart
        again = client.app.state.tables.rooms[table["room"]]
        assert again.state.serialize() == saved
        for seat in (0, 2):
            if prompts[seat] is not None and prompts[seat]["kind"] != "window":
                assert again.prompt(seat) == prompts[seat]
        with client.websocket_connect(f"/ws/{table['room']}") as ws:
            welcome, update = join(ws, token(table, 2))
            assert welcome["seat"] == 2
            assert update["view"]["hand"] == again.update(2, 0)["view"]["hand"]
            assert update["log"][0]["text"] == "The cards are dealt."  # the whole log, again
