"""The web table under hostile use (issue 28), through Starlette's test client: a table
whose card takes long to play does not hold up another table's pings, uploads are kept
within a quota per device and expire oldest first, and a device cut off for flooding
is refused for a while when it comes straight back."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402
from webtable import HOUSE_RULE, watch_until  # noqa: E402

from kittens.web.app import Settings, create_app  # noqa: E402


def _web_load():
    """benchmarks/web_load.py, whose slow house rule these tests play too."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "web_load", Path(__file__).resolve().parent.parent / "benchmarks" / "web_load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: a house rule whose Skip shuffles a 500-card pile 2,000 times: a second or more of rules
#: for each play; the load benchmark's own. The step budget, which charges a shuffle a
#: step per card, would stop it at once: the tests that play it raise the budget for the
#: server's lanes (KITTENS_STEP_BUDGET), so that it stands for work the language cannot
#: see coming (a validator on the usual budget warns of it: too-much-work)
SLOW_RULE = _web_load().SLOW_RULE


@pytest.fixture
def unbounded(monkeypatch):
    """A step budget no play of SLOW_RULE reaches, for the lanes the test starts."""
    monkeypatch.setenv("KITTENS_STEP_BUDGET", "1000000000000")

# generous: with rules in the loop, most pings wait for a play of the slow card (a second
# and more); without, they take milliseconds, tens of them on a machine with a load
# average of 25 on two cores, where a rare one may wait a second (measured)
PING_BOUND = 0.1


@pytest.fixture
def settings(tmp_path):
    return Settings(data=str(tmp_path / "data"), answer_seconds=0.3, bot_delay=0.02)


def ruleset(client, prefix="Exploding Kittens (Original"):
    return next(e["key"] for e in client.get("/api/lobby").json()["rulesets"] if e["name"].startswith(prefix))


def make_table(client, key, seats, seed=3):
    response = client.post("/api/rooms", json={"ruleset": key, "players": len(seats), "seats": list(seats),
                                               "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def upload(client, name, text):
    return client.post("/api/uploads", json={"files": [{"name": name, "text": text}]})


def test_a_table_with_a_slow_card_does_not_hold_up_another_tables_pings(settings, unbounded):
    with TestClient(create_app(settings)) as client:
        result = upload(client, "slow_skip.yaml", SLOW_RULE).json()
        assert {d["code"] for d in result["diagnostics"]} <= {"too-much-work"}, result
        slow = make_table(client, result["playable"][0]["key"], ["random"] * 4)  # plays on its own
        ordinary = make_table(client, ruleset(client), ["person", "random"])
        runner = client.app.state.tables.runner
        waits = []
        with client.websocket_connect(f"/ws/{ordinary['room']}") as ws:
            ws.send_json({"type": "hello"})
            deadline = time.monotonic() + 30
            # ping until the slow table has played its slow card twice or so (or 30 s)
            while runner.budgets[slow["room"]].used < 2.5 and time.monotonic() < deadline:
                sent = time.perf_counter()
                ws.send_json({"type": "ping"})
                while ws.receive_json()["type"] != "pong":
                    pass
                waits.append(time.perf_counter() - sent)
                time.sleep(0.12)  # within the rate a connection may send at
        used = runner.budgets[slow["room"]].used
    assert used >= 2.5, f"the slow table used only {used:.2f} s of rules in 30 s"
    assert len(waits) >= 10
    # judged by the median and most pings, not a few: on a loaded machine (two test runs
    # at once) a third of the pings met a busy core, their median still 1 ms; with rules
    # in the loop nearly every ping waits for the slow card (median 0.78 s)
    late = [wait for wait in waits if wait >= PING_BOUND]
    assert statistics.median(waits) < PING_BOUND and len(late) <= len(waits) // 2, \
        f"{len(late)} of {len(waits)} pings waited {PING_BOUND} s or more (median {statistics.median(waits):.3f} s)"



BROKEN_RULE = HOUSE_RULE.replace("set_counts: {nope: 8}", "set_counts: {nope: lots}")


def device(settings, address):
    """A client of a server on ``settings.data`` from one address (one device)."""
    return TestClient(create_app(settings), client=(address, 50000))


def kept_uploads(settings):
    import os

    folder = os.path.join(settings.data, "uploads")
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def test_one_device_flooding_uploads_replaces_only_its_own_and_others_still_upload(settings):
    # the flood, made small: the server keeps 4 uploads, a device 2
    settings.max_uploads, settings.client_uploads = 4, 2
    with device(settings, "192.0.2.1") as other:
        theirs = upload(other, "nope_party.yaml", HOUSE_RULE).json()["upload"]
    with device(settings, "192.0.2.66") as flooder:
        sent = [upload(flooder, "nope_party.yaml", HOUSE_RULE) for _ in range(6)]
        assert [response.status_code for response in sent] == [200] * 6  # never refused: it replaces its own
    mine = [response.json()["upload"] for response in sent]
    assert kept_uploads(settings) == sorted([theirs, *mine[-2:]])  # its two latest, and the other's
    with device(settings, "192.0.2.2") as newcomer:  # the server still takes uploads from anyone
        assert upload(newcomer, "nope_party.yaml", HOUSE_RULE).status_code == 200
    assert theirs in kept_uploads(settings)


def test_a_devices_uploads_in_live_tables_are_kept_and_past_its_quota_it_is_told_why(settings):
    settings.client_uploads = 2
    with device(settings, "192.0.2.9") as client:
        first, second = (upload(client, "nope_party.yaml", HOUSE_RULE).json() for _ in range(2))
        for result in (first, second):
            make_table(client, result["playable"][0]["key"], ["person", "random"])
        refused = upload(client, "nope_party.yaml", HOUSE_RULE)
        assert refused.status_code == 429
        assert "this device's uploads are all in tables still in play" in refused.json()["error"]
        assert kept_uploads(settings) == sorted([first["upload"], second["upload"]])


def test_an_upload_that_cannot_be_played_is_not_kept(settings):
    with TestClient(create_app(settings)) as client:
        result = upload(client, "nope_party.yaml", BROKEN_RULE).json()
        assert result["diagnostics"] and result["kept"] is False and result["playable"] == []
        assert kept_uploads(settings) == []
        assert upload(client, "nope_party.yaml", HOUSE_RULE).json()["kept"] is True
        assert len(kept_uploads(settings)) == 1


def test_an_upload_is_checked_from_memory_and_stays_in_its_folder(tmp_path):
    from kittens.web.rulesets import check_upload

    folder = tmp_path / "uploads" / "abcdefghijkl"
    result = check_upload(str(folder), {"nope_party.yaml": HOUSE_RULE})
    assert result["diagnostics"] == [] and [e["name"] for e in result["entries"]][:1] == ["Nope Party"]
    assert not (tmp_path / "uploads").exists()  # checked without a file written
    # a project marker above the upload's folder does not widen what its files may read
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "secret.yaml").write_text(HOUSE_RULE.replace("id: nope_party", "id: secret"))
    result = check_upload(str(folder), {"mine.yaml": HOUSE_RULE.replace("extends: original",
                                                                        "extends: ../../secret.yaml")})
    assert any("leads outside this upload" in d["message"] for d in result["diagnostics"]), result
    assert result["entries"] == []


def test_checking_an_upload_has_a_time_limit_and_what_it_cut_short_is_not_kept(settings):
    settings.upload_seconds = 0.05  # far less than a checker process needs to start
    with TestClient(create_app(settings)) as client:
        response = upload(client, "nope_party.yaml", HOUSE_RULE)
        assert response.status_code == 422
        assert "took longer than 0.05 s" in response.json()["error"]
        assert kept_uploads(settings) == []


def test_a_device_cut_off_for_flooding_waits_longer_each_time_and_is_forgotten_later():
    from kittens.web.backoff import Backoff

    now = [100.0]
    backoff = Backoff(first=10, most=35, forget=600, clock=lambda: now[0])
    assert backoff.refused("192.0.2.5") is None
    assert backoff.strike("192.0.2.5") == 10
    assert backoff.refused("192.0.2.5") == 10 and backoff.refused("192.0.2.6") is None
    now[0] += 10
    assert backoff.refused("192.0.2.5") is None  # the wait is over
    assert [backoff.strike("192.0.2.5") for _ in range(3)] == [20, 35, 35]  # doubled, up to the most
    now[0] += 35 + 600  # quiet for long after its wait: forgotten
    assert backoff.strike("192.0.2.5") == 10


def test_a_flooder_that_reconnects_at_once_is_refused_and_told_how_long_to_wait(settings):
    settings.rate, settings.burst, settings.flood_limit, settings.flood_backoff = 1.0, 2, 3, 30.0
    with device(settings, "192.0.2.66") as flooder:
        table = make_table(flooder, ruleset(flooder), ["person", "random"])
        with flooder.websocket_connect(f"/ws/{table['room']}") as ws:
            for _ in range(10):
                ws.send_json({"type": "ping"})
            codes = []
            with pytest.raises(Exception):  # cut off
                while True:
                    codes.append(ws.receive_json().get("code"))
        assert codes[-1] == "flooded"
        for _ in range(3):  # straight back, again and again: refused each time, nothing joined
            with flooder.websocket_connect(f"/ws/{table['room']}") as ws:
                refused = ws.receive_json()
                assert refused["code"] == "backoff" and "try again in 30 s" in refused["message"]
        assert flooder.app.state.tables.rooms[table["room"]].listeners == []


def slow_table(client):
    """A table of four bots playing SLOW_RULE (they play on their own): its lobby answer."""
    key = upload(client, "slow_skip.yaml", SLOW_RULE).json()["playable"][0]["key"]
    return make_table(client, key, ["random"] * 4)


def test_a_table_over_its_budget_is_slowed_down_and_its_players_are_told_why(settings, unbounded):
    settings.rules_share, settings.rules_burst = 0.05, 0.2  # a play of the slow card is past it at once
    with TestClient(create_app(settings)) as client:
        slow = slow_table(client)
        with client.websocket_connect(f"/ws/{slow['room']}") as ws:
            ws.send_json({"type": "hello"})
            told = watch_until(ws, lambda m: m["type"] == "error")
        waiting = client.app.state.tables.runner.budgets[slow["room"]].credit
    assert told["code"] == "slow-rules" and "slows the table down" in told["message"]
    assert waiting < 0  # in debt: its next move waits


def test_one_move_over_the_limit_stops_that_tables_game_with_the_reason_not_the_server(settings, unbounded):
    # a play of the slow card takes about 0.2 s of CPU on the pure core and less compiled: the
    # limit sits well below it, or a quick machine stays under it and the test waits in vain
    settings.move_seconds = 0.05
    with TestClient(create_app(settings)) as client:
        slow = slow_table(client)
        with client.websocket_connect(f"/ws/{slow['room']}") as ws:
            ws.send_json({"type": "hello"})
            stopped = watch_until(ws, lambda m: m["type"] == "update" and m["error"])
        other = make_table(client, ruleset(client), ["person", "random"])  # the server goes on
        with client.websocket_connect(f"/ws/{other['room']}") as ws:
            ws.send_json({"type": "ping"})
            assert watch_until(ws, lambda m: m["type"] == "pong", 10)
    # an uploaded rule's move is stopped half-way, in its lane: it was never played
    assert "one move took longer than 0.05 s" in stopped["error"] and "not played" in stopped["error"]
    assert stopped["prompt"] is None


def test_the_least_lately_used_upload_expires_first_and_one_in_play_never(tmp_path):
    import os

    from kittens.web import quotas

    uploads = str(tmp_path / "uploads")
    for number, (name, client) in enumerate([("a", "x"), ("b", "x"), ("c", "y"), ("d", "x")]):
        folder = os.path.join(uploads, name)
        os.makedirs(folder)
        quotas.write_note(folder, client, 100)
        os.utime(os.path.join(folder, quotas.NOTE), (1000 + number, 1000 + number))
    quotas.touch(os.path.join(uploads, "a"))  # a table was made from the oldest one just now
    quota = quotas.Quota(most=10, most_bytes=10_000, per_client=2, per_client_bytes=10_000)
    # x holds a, b and d: two must go for a new one; b is the least lately used, then d
    assert quotas.expire_for_upload(uploads, quota, "x", 100, in_use=set()) == ["b", "d"]
    assert sorted(os.listdir(uploads)) == ["a", "c"]
    # the server's count: c (y's) is older than a, but a live table plays it
    server = quotas.Quota(most=2, most_bytes=10_000, per_client=5, per_client_bytes=10_000)
    assert quotas.expire_for_upload(uploads, server, "z", 100, in_use={"c"}) == ["a"]
    with pytest.raises(quotas.QuotaError, match="all in tables still in play") as refused:
        quotas.expire_for_upload(uploads, quotas.Quota(1, 10_000, 5, 10_000), "z", 100, in_use={"c"})
    assert refused.value.status == 507
