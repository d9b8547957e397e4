"""No message to one seat carries another seat's secret: whole games are played through
the real server (people pressing random buttons over websockets, bots in some seats,
a spectator watching), and every message the server made is checked against what its
seat may know.

Three checks, each able to fail on its own:

* the message is the same in every world the seat cannot tell from the real one: the
  game's hidden cards dealt afresh (``State.resample_from_view``) give the same view
  and the same prompt (for a spectator, whichever seat's unknowns are redealt);
* each log line comes from an event the seat observes (``for_seat``), and names no card
  the event hides from that seat;
* every reaction window asks every person still in the game the same question, with a
  Pass for all; the only other buttons a seat gets are cards of its own hand.
"""

from __future__ import annotations

import json
import random

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402
from webtable import play_out  # noqa: E402

from kittens.interpreter.engine.events import for_seat  # noqa: E402
from kittens.web.app import Settings, create_app  # noqa: E402
from kittens.web.render import NOBODY, decision_prompt, table_view  # noqa: E402
from kittens.web.room import Room  # noqa: E402

TABLES = [  # (ruleset name starts with, variant, seats, seed)
    ("Exploding Kittens (Original", None, ["person", "person", "person"], 3),
    ("Imploding Kittens", None, ["person", "heuristic", "person", "random"], 8),
    ("Streaking Kittens", None, ["person", "person", "heuristic"], 2),
    ("Barking Kittens", "two_teams", ["person", "random", "person", "heuristic"], 5),
    ("Exploding Kittens: Good vs Evil", None, ["person", "person", "random"], 6),
]


@pytest.fixture
def recorded(monkeypatch):
    """Every message a room makes, with the game as that room showed it then."""
    records = []
    make = Room.update

    def update(self, seat, cursor):
        message = make(self, seat, cursor)
        records.append((self, seat, json.loads(json.dumps(message)), self.display_state().clone(),
                        self.round.eligible if self.round else None))
        return message

    monkeypatch.setattr(Room, "update", update)
    return records


@pytest.mark.parametrize("name, variant, seats, seed", TABLES, ids=[t[0].split()[0] + str(t[3]) for t in TABLES])
def test_no_message_carries_another_seats_secret(tmp_path, recorded, name, variant, seats, seed):
    settings = Settings(data=str(tmp_path), answer_seconds=0.08, bot_delay=0)
    with TestClient(create_app(settings)) as client:
        key = next(e["key"] for e in client.get("/api/lobby").json()["rulesets"] if e["name"].startswith(name))
        table = client.post("/api/rooms", json={"ruleset": key, "variant": variant, "players": len(seats),
                                                "seats": seats, "seed": seed}).json()
        tokens = {s["seat"]: s["link"].split("#seat=")[1] for s in table["seats"] if s["link"]}
        got = play_out(client, table["room"], tokens, random.Random(seed), spectators=1)
        room = client.app.state.tables.rooms[table["room"]]
    records = [r for r in recorded if r[0] is room]
    assert len(records) > 50 and room.finished
    sent = [message for messages in list(got.values())[:-1] for message in messages] + got[None][0]
    assert not any(_keys(m) & {"secret", "only"} for m in sent), "an event's secret marks reached a page"
    rng = random.Random(seed)
    for _room, seat, message, shown, _eligible in records[::3] + records[-5:]:
        _same_in_every_world(room, seat, message, shown, rng)
    for _room, seat, message, _shown, _eligible in records:
        _log_hides_what_the_event_hides(room, seat, message)
    _windows_ask_everyone_alike(room, records)


def _keys(value) -> set:
    if isinstance(value, dict):
        return set(value) | set().union(*map(_keys, value.values()))
    if isinstance(value, list):
        return set().union(*map(_keys, value)) if value else set()
    return set()


def _same_in_every_world(room, seat, message, shown, rng):
    seats = [seat] if seat is not None else range(room.game.players)
    for world_of in seats:
        for _ in range(2):
            world = shown.resample_from_view(world_of, random.Random(rng.random()))
            assert table_view(world, seat) == message["view"], f"seat {seat}'s view depends on hidden cards"
            prompt = message["prompt"]
            if prompt is not None and prompt["kind"] != "window":
                again = decision_prompt(room.words, world.decision(), prompt["id"], world)
                assert again == prompt, f"seat {seat}'s prompt depends on hidden cards"


def _log_hides_what_the_event_hides(room, seat, message):
    if message["type"] != "update":
        return
    viewer = NOBODY if seat is None else seat
    bit = 1 << viewer
    for entry in message["log"]:
        event = room.state.events[entry["n"]]
        seen = for_seat(event, viewer)
        assert seen is not None or entry["n"] == 0, f"seat {seat} was told of an event it does not observe"
        if seen is None:
            continue
        visible = json.dumps(seen)
        for field, mask in (event.get("secret") or {}).items():
            if mask & bit:
                continue
            hidden = event[field] if isinstance(event[field], list) else [event[field]]
            for card in hidden:
                if isinstance(card, str) and card in room.game.edition.cards:
                    title = room.game.edition.cards[card].title
                    if title not in visible and card not in visible:
                        assert title not in entry["text"], f"seat {seat} read a hidden {title}: {entry['text']}"


def _windows_ask_everyone_alike(room, records):
    windows: dict = {}
    for _room, seat, message, _shown, eligible in records:
        window, prompt = message.get("window"), message.get("prompt")
        if window is None or seat is None:
            continue
        event = room.state.events[int(window["id"][1:])]
        alive = {entry["seat"] for entry in message["view"]["seats"] if entry["alive"]}
        # every person still in, but the one whose card is answered (unless the rules let them)
        expected = {s for s in alive if room.labels[s] == "person" and (s != event["seat"] or room.own)}
        entry = windows.setdefault(window["id"], {"eligible": expected, "asked": set(), "questions": set()})
        if window["asked"]:
            entry["asked"].add(seat)
            entry["questions"].add(window["question"])
        if prompt is not None and prompt["kind"] == "window":
            assert prompt["options"][0]["label"] == "Pass"
            hand = {room.game.edition.cards[c].title for c in message["view"]["hand"]}
            for option in prompt["options"][1:]:
                assert option["label"].removeprefix("Play ") in hand, "an answer button that is not in the hand"
    assert windows, "no reaction window was played"
    for window_id, entry in windows.items():
        assert entry["asked"] == set(entry["eligible"]), f"window {window_id} did not ask every person"
        assert len(entry["questions"]) == 1, f"window {window_id} asked people different questions"


def test_a_view_holds_each_seats_team_as_that_seat_may_know_it():
    """Teams dealt in secret (hidden_partners.yaml): a seat's view names its own team only,
    a watcher's none; teams seated in turn (partners.yaml) are every view's."""
    from conftest import ROOT

    from kittens.interpreter.engine.game import Game
    from kittens.interpreter.rules.load import load_edition
    from kittens.web.render import SPECTATOR, table_view

    house = ROOT / "examples" / "house-rules"
    state = Game(load_edition(str(house / "hidden_partners.yaml")), 4).new_state(7)
    teams = state.table.team_list
    for seat in range(4):
        assert table_view(state, seat)["teams"] == [teams[s] if s == seat else None for s in range(4)]
    assert table_view(state, SPECTATOR)["teams"] == [None] * 4
    state = Game(load_edition(str(house / "partners.yaml")), 4).new_state(7)
    assert table_view(state, SPECTATOR)["teams"] == table_view(state, 2)["teams"] == [0, 1, 0, 1]
