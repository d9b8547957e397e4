"""`kittens serve` as a person runs it: a real process on 127.0.0.1, stopped with Ctrl-C
and started again on the same data; and the exit statuses of what it refuses."""

from __future__ import annotations

import json
import signal
import socket
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

KITTENS = [sys.executable, "-m", "kittens"]


def run(*args, **kwargs):
    return subprocess.run(KITTENS + list(args), capture_output=True, text=True, timeout=60, **kwargs)


def test_a_rule_file_with_errors_is_refused_at_start(tmp_path):
    bad = tmp_path / "house.yaml"
    bad.write_text("format: 1\nkind: edition\nid: x\nname: X\nextends: original\nset_counts: {noep: 3}\n")
    done = run("serve", str(bad), "--format", "json", "--data", str(tmp_path / "data"))
    assert done.returncode == 1
    assert json.loads(done.stdout)["code"] == 1


def test_a_missing_rule_file_and_a_busy_port_are_usage_errors(tmp_path):
    assert run("serve", str(tmp_path / "nothing.yaml"), "--data", str(tmp_path)).returncode == 2
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run("serve", "--port", str(port), "--format", "json", "--data", str(tmp_path))
    assert done.returncode == 2 and "cannot listen" in json.loads(done.stdout)["error"]


def start(data, *options, info=None):
    process = subprocess.Popen(KITTENS + ["serve", "--port", "0", "--format", "json", "--data", str(data),
                                          *options], stdout=subprocess.PIPE, text=True)
    told = json.loads(process.stdout.readline())
    assert told["host"] == "127.0.0.1"
    if info is not None:
        info.update(told)
    return process, told["urls"][0].rstrip("/")


def get(url):
    try:
        with DIRECT.open(url, timeout=20) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as refused:  # 404, 410: the page is the answer
        return refused.code, refused.read().decode()


def make_table(base, seats, seed=4):
    lobby = json.loads(get(base + "/api/lobby")[1])
    key = next(e["key"] for e in lobby["rulesets"] if e["name"].startswith("Exploding Kittens (Original"))
    body = json.dumps({"ruleset": key, "players": len(seats), "seats": list(seats), "seed": seed}).encode()
    request = urllib.request.Request(base + "/api/rooms", data=body, headers={"Content-Type": "application/json"})
    with DIRECT.open(request, timeout=20) as response:
        return json.load(response)["room"]


def stop(process):
    process.send_signal(signal.SIGINT)
    assert process.wait(30) == 130


def test_a_served_table_survives_ctrl_c_and_a_restart(tmp_path):
    data = tmp_path / "data"
    process, base = start(data)
    try:
        lobby = json.loads(get(base + "/api/lobby")[1])
        key = next(e["key"] for e in lobby["rulesets"] if e["name"].startswith("Exploding Kittens (Original"))
        body = json.dumps({"ruleset": key, "players": 2, "seats": ["person", "random"], "seed": 4}).encode()
        request = urllib.request.Request(base + "/api/rooms", data=body, headers={"Content-Type": "application/json"})
        with DIRECT.open(request, timeout=20) as response:
            room = json.load(response)["room"]
        assert get(f"{base}/room/{room}")[0] == 200
    finally:
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 130
    process, base = start(data)
    try:
        assert get(f"{base}/room/{room}")[0] == 200  # the room came back
        status, sheet = get(f"{base}/room/{room}/rules")
        assert status == 200 and "Exploding Kittens (Original Edition)" in sheet
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)


@pytest.mark.parametrize("option", ["--keep-finished-hours", "--idle-hours"])
def test_how_long_tables_stay_is_checked(tmp_path, option):
    done = run("serve", option, "0", "--format", "json", "--data", str(tmp_path))
    assert done.returncode == 2 and option in json.loads(done.stdout)["error"]


def test_a_finished_table_stays_for_keep_finished_hours_across_restarts(tmp_path):
    data = tmp_path / "data"
    process, base = start(data, "--bot-delay", "0")
    try:
        room = make_table(base, ("random", "random"))  # bots alone: over at once
    finally:
        stop(process)
    # two days pass while the server is down (the stored times are the wall clock's)
    db = sqlite3.connect(data / "kittens.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM actions WHERE room = ?", (room,)).fetchone()[0] > 0
    with db:
        db.execute("UPDATE rooms SET active_at = active_at - 172800, finished_at = finished_at - 172800")
    db.close()
    info: dict = {}
    process, base = start(data, "--keep-finished-hours", "72", info=info)
    try:
        assert info["keep_finished_hours"] == 72 and info["idle_hours"] == 168
        assert get(f"{base}/room/{room}")[0] == 200  # two days is less than 72 hours
    finally:
        stop(process)
    process, base = start(data)  # the default: a day
    try:
        status, page = get(f"{base}/room/{room}")
        assert status == 410 and "This table has closed: its game ended more than 1 day ago" in page
    finally:
        stop(process)
    db = sqlite3.connect(data / "kittens.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM actions WHERE room = ?", (room,)).fetchone()[0] == 0
    db.close()
