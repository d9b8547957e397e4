"""The web table's SQLite store, used at once by the event loop (decisions) and by worker
threads (new rooms): every write lands, none is refused for a transaction it never began."""

from __future__ import annotations

import threading

from kittens.web.storage import Storage


def test_rooms_made_in_a_worker_while_the_loop_stores_decisions_all_land(tmp_path):
    storage = Storage(str(tmp_path / "kittens.sqlite3"))
    storage.create_room("busy", {"rules": "original"}, 1, {0: "digest"})
    failures: list = []
    count = 300

    def make_rooms():  # what the lobby's worker threads do
        try:
            for i in range(count):
                storage.create_room(f"room{i}", {"rules": "original"}, i, {0: f"d{i}", 1: f"e{i}"})
        except Exception as exc:  # noqa: BLE001 - any failure is the finding
            failures.append(exc)

    def store_decisions():  # what the event loop does on every step
        try:
            for n in range(count):
                storage.add_actions("busy", n, ["draw"], n, None, False)
        except Exception as exc:  # noqa: BLE001
            failures.append(exc)

    threads = [threading.Thread(target=make_rooms), threading.Thread(target=store_decisions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures[:3]
    assert len(storage.rooms()) == count + 1
    assert storage.actions("busy") == ["draw"] * count
    storage.close()
