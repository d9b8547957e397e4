"""Who sits at a web table (web/seating.py, issue 43): the waiting room, bots standing in
for people, and the turn clock, on a room driven directly, its time moved by the test."""

from __future__ import annotations

import pytest
from webtable import TestClock

from kittens import Game, load_edition
from kittens.web.room import ActError, Listener, Room, seat_bots
from kittens.web.social import next_seats
from kittens.web.storage import Storage

GAME = Game(load_edition("original"), 3)
ANSWER = 5.0


def make_room(seed=3, seats=("person", "person", "person"), storage=None, clock=None, room_id="r1", **config):
    clock = clock or TestClock()
    config = {"rules": "original", "players": 3, "seats": list(seats), **config}
    room = Room(room_id, config, GAME, seed, {}, storage=storage, clock=clock,
                bots=seat_bots(GAME, list(seats), seed), answer_seconds=ANSWER, bot_delay=0)
    if storage is not None:
        storage.create_room(room_id, config, seed, {})
    room.step()
    return room, clock


def current(room):
    return room.state.decision().seat


def test_a_waiting_table_starts_once_every_person_is_ready():
    room, _clock = make_room(wait=True)
    got = []
    room.attach(Listener(1, got.append))
    assert all(room.prompt(seat) is None for seat in range(3))
    assert got[-1]["waiting"] == {"ready": [False] * 3, "host": 0, "people": [0, 1, 2], "you_host": False}
    with pytest.raises(ActError) as refused:
        room.act(current(room), "d0", 0)
    assert refused.value.code == "waiting"
    room.ready(0)
    room.ready(1)
    assert room.waiting and got[-1]["waiting"]["ready"] == [True, True, False]
    assert room.state.history == []
    dealt = [line for message in got if message["type"] == "update" for line in message["log"]]
    assert len(dealt) == len({line["text"] for line in dealt}), "a line of the deal told twice"
    room.ready(2)
    assert not room.waiting and got[-1]["waiting"] is None
    assert room.prompt(current(room)) is not None  # the first turn is asked now
    with pytest.raises(ActError):
        room.ready(0)  # started: nothing to be ready for


def test_the_host_starts_with_bots_standing_in_for_who_is_not_there():
    room, _clock = make_room(wait=True)
    room.ready(1)
    with pytest.raises(ActError) as refused:
        room.start(1)
    assert refused.value.code == "not-host"
    room.start(0)
    assert set(room.standins) == {2} and not room.waiting
    assert room.config["standins"] == [2] and room.config["wait"] is False
    # the stand-in plays seat 2 whenever it is asked (at once here: no bot delay)
    assert current(room) != 2 and room.prompt(2) is None and 2 in room.bots
    room.take_over(2)
    assert room.standins == {} and 2 not in room.bots
    with pytest.raises(ActError) as refused:
        room.take_over(2)
    assert refused.value.code == "not-stood-in"


def test_the_turn_clock_hands_a_seat_to_a_bot_and_the_person_takes_it_back():
    room, clock = make_room(turn_seconds=10)
    seat = current(room)
    got = []
    room.attach(Listener(seat, got.append))
    assert got[-1]["clock"] == {"seat": seat, "seconds": 10} and got[-1]["clock_ms"] == 10000
    clock.advance(9.5)
    assert room.state.history == [] and room.standins == {}
    clock.advance(1)  # out of time: a bot plays for that person
    assert seat in room.standins and len(room.state.history) >= 1
    assert got[-1]["standins"] == [seat] and got[-1]["prompt"] is None
    room.take_over(seat)
    assert room.standins == {}


def test_a_missing_person_never_stalls_a_clocked_table_and_its_bots_are_seeded():
    """Nobody at the table presses anything: the clock plays the game to its end, and two
    tables of the same seed play the same game."""
    histories = []
    for _ in range(2):
        room, clock = make_room(seed=11, turn_seconds=5)
        for _ in range(400):
            if room.finished:
                break
            clock.advance(5.0)
        assert room.finished, "the clock did not play the game to its end"
        assert set(room.standins) == {0, 1, 2}
        histories.append(list(room.state.history))
    assert histories[0] == histories[1]


def test_a_restarted_server_keeps_who_started_and_who_stands_in(tmp_path):
    storage = Storage(str(tmp_path / "rooms.sqlite3"))
    room, clock = make_room(storage=storage, wait=True)
    room.start(0)  # nobody else ready: bots stand in for seats 1 and 2
    stored = storage.config("r1")
    assert stored["wait"] is False and stored["standins"] == [1, 2]
    again = Room("r1", stored, GAME, 3, {}, storage=storage, clock=clock,
                 bots=seat_bots(GAME, stored["seats"], 3), answer_seconds=ANSWER, bot_delay=0)
    again.restore(storage.actions("r1"), *storage.progress("r1"))
    assert not again.waiting and set(again.standins) == {1, 2}
    assert again.state.history == room.state.history
    again.take_over(1)
    assert storage.config("r1")["standins"] == [2]


def test_the_next_game_starts_at_once_with_everyone_playing_their_seat():
    room, _clock = make_room(wait=True)
    room.start(0)
    _id, config, _tokens, _names = next_seats(room, {})
    assert config["wait"] is False and config["standins"] == []
    assert config["seats"] == ["person"] * 3


def test_a_bad_turn_clock_is_refused():
    from kittens.web import seating

    assert seating.turn_seconds(None) == 0 and seating.turn_seconds(30) == 30
    for bad in (1, 4000, "30", True):
        with pytest.raises(ValueError):
            seating.turn_seconds(bad)
