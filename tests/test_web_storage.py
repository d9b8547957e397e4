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


def test_the_people_of_a_table_are_stored_and_go_with_it(tmp_path):
    """What web/social.py keeps: names (a name chosen again replaces the first), chat lines
    (only a room's last ``keep`` stay) and the next game, each per room, dropped when the
    room is retired."""
    storage = Storage(str(tmp_path / "kittens.sqlite3"), wall=lambda: 50.0)
    storage.create_room("a", {"rules": "original"}, 1, {0: "d"})
    assert storage.names("a") == {} and storage.chat("a", 10) == [] and storage.next_game("a") is None
    storage.set_name("a", 0, "Ann")
    storage.set_name("a", 0, "Anna")
    storage.set_name("a", 1, "Ben")
    storage.set_name("b", 0, "Cat")  # another room's
    assert storage.names("a") == {0: "Anna", 1: "Ben"}
    lines = [{"n": n, "seat": n % 2, "name": f"p{n}", "text": f"line {n}", "at": float(n)} for n in range(5)]
    for line in lines:
        storage.add_chat_line("a", line, keep=3)
    storage.add_chat_line("b", dict(lines[0], text="elsewhere"), keep=3)
    assert storage.chat("a", 10) == lines[2:]  # the last three, oldest first
    assert storage.chat("a", 2) == lines[3:]
    with storage.lock:  # the older lines are gone from the database, not only from the answer
        assert storage.db.execute("SELECT COUNT(*) FROM chat WHERE room = 'a'").fetchone() == (3,)
    storage.set_next_game("a", "a2")
    storage.set_next_game("a", "a3")
    assert storage.next_game("a") == "a3"
    storage.retire({"a": "a test"})
    assert storage.names("a") == {} and storage.chat("a", 10) == [] and storage.next_game("a") is None
    assert storage.names("b") == {0: "Cat"} and [line["text"] for line in storage.chat("b", 10)] == ["elsewhere"]
    storage.close()

