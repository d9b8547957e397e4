"""`kittens serve` as a person runs it: a real process on 127.0.0.1, stopped with Ctrl-C
and started again on the same data; and the exit statuses of what it refuses."""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
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


def start(data):
    process = subprocess.Popen(KITTENS + ["serve", "--port", "0", "--format", "json", "--data", str(data)],
                               stdout=subprocess.PIPE, text=True)
    info = json.loads(process.stdout.readline())
    assert info["host"] == "127.0.0.1"
    return process, info["urls"][0].rstrip("/")


def get(url):
    with DIRECT.open(url, timeout=20) as response:
        return response.status, response.read().decode()


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
