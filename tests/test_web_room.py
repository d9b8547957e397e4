"""The web table's rooms, driven directly on a clock the test moves: reaction windows
held open for every person alike (ruling 6), refused actions that change nothing,
and rooms that come back where they were from their stored decisions."""

from __future__ import annotations

import pytest
from webtable import TestClock

from kittens import Game, load_edition
from kittens.web.room import ActError, Listener, Room, seat_bots
from kittens.web.storage import Storage

ANSWER = 5.0


FakeClock = TestClock  # time that moves only when the test says so


GAME = Game(load_edition("original"), 3)


def make_room(seed: int, seats=("person", "person", "person"), storage=None, clock=None, room_id="r1"):
    clock = clock or FakeClock()
    config = {"rules": "original", "players": 3, "seats": list(seats)}
    room = Room(room_id, config, GAME, seed, {}, storage=storage, clock=clock,
                bots=seat_bots(GAME, list(seats), seed), answer_seconds=ANSWER, bot_delay=0)
    if storage is not None:
        storage.create_room(room_id, config, seed, {})
    room.step()
    return room, clock


def listen(room, seat):
    got = []
    room.attach(Listener(seat, got.append))
    return got


def find_seed(holders: tuple) -> int:
    """A seed where seat 0 may play a Skip on turn 1 and exactly ``holders`` hold a Nope."""
    for seed in range(500):
        state = GAME.new_state(seed)
        hands = [[card.id for card in hand.cards] for hand in state.table.hands]
        if "play skip" in state.decision().options and \
                tuple(seat for seat in (1, 2) if "nope" in hands[seat]) == holders:
            return seed
    raise AssertionError("no such seed")


def press(room, seat, label):
    prompt = room.prompt(seat)
    labels = [option["label"] for option in prompt["options"]]
    room.act(seat, prompt["id"], labels.index(label))


def test_a_window_nobody_can_answer_is_still_held_for_every_person():
    room, clock = make_room(find_seed(()))
    seen = {seat: listen(room, seat) for seat in (0, 1, 2)}
    press(room, 0, "Play Skip")
    # the engine has already closed the window and moved on to seat 1's turn ...
    assert room.state.decision().seat == 1 and room.state.decision().kind == "action"
    # ... but every person but the player is asked, with the same question, and sees the table
    # as it stood when the window opened: still seat 0's turn, nobody has a turn to take
    for seat in (1, 2):
        last = seen[seat][-1]
        assert last["window"]["question"] == "Seat 0 played Skip. Anyone answering?"
        assert [o["label"] for o in last["prompt"]["options"]] == ["Pass"]
        assert last["view"]["turn"]["seat"] == 0
    assert seen[0][-1]["prompt"] is None and seen[0][-1]["window"]["asked"] is False
    assert room.prompt(1)["kind"] == "window"  # not the action the engine waits for
    clock.advance(ANSWER - 0.1)
    assert room.round is not None  # the full time, though nobody holds an answer
    clock.advance(0.2)
    assert room.round is None
    assert room.prompt(1)["kind"] == "action"
    assert seen[2][-1]["view"]["turn"]["seat"] == 1
    assert any(entry["text"] == "Nobody answered." for entry in seen[2][-1]["log"])


def test_holders_and_non_holders_get_the_same_prompt_but_their_own_buttons():
    room, clock = make_room(find_seed((1,)))
    seen = {seat: listen(room, seat) for seat in (0, 1, 2)}
    press(room, 0, "Play Skip")
    one, two = seen[1][-1], seen[2][-1]
    assert one["window"] == two["window"]
    assert [o["label"] for o in one["prompt"]["options"]] == ["Pass", "Play Nope"]
    assert [o["label"] for o in two["prompt"]["options"]] == ["Pass"]
    assert one["prompt"]["question"] == two["prompt"]["question"]
    # seat 2 passing tells the others nothing: nobody else is sent a message
    before = {seat: len(seen[seat]) for seat in (0, 1)}
    press(room, 2, "Pass")
    assert {seat: len(seen[seat]) for seat in (0, 1)} == before
    assert seen[2][-1]["prompt"] is None and seen[2][-1]["window"]["answered"] is True
    # the Nope ends the round at once; a new round asks seats 0 and 2 about the Nope
    press(room, 1, "Play Nope")
    assert room.round is not None and room.round.event["type"] == "answer"
    assert sorted(room.round.eligible) == [0, 2]
    assert seen[0][-1]["window"]["question"] == "Seat 1 answered with Nope. Anyone answering?"
    clock.advance(ANSWER + 0.1)
    assert room.round is None
    assert any("Skip was cancelled." == e["text"] for m in seen[2][1:] for e in m["log"])
    assert room.prompt(0)["kind"] == "action"  # the Skip was cancelled: seat 0 plays on


def test_the_round_ends_early_when_every_person_has_answered():
    room, clock = make_room(find_seed((1,)))
    press(room, 0, "Play Skip")
    press(room, 2, "Pass")
    assert room.round is not None
    press(room, 1, "Pass")
    assert room.round is None and room.prompt(1)["kind"] == "action"


def test_bots_answer_at_the_end_of_the_round():
    seed = find_seed((1,))
    room, clock = make_room(seed, seats=("person", "random", "person"))
    press(room, 0, "Play Skip")
    assert room.round is not None and room.round.eligible == [2]
    history = len(room.state.history)
    clock.advance(ANSWER / 2)
    assert len(room.state.history) == history  # the bot has not answered yet
    clock.advance(ANSWER)
    assert room.round is None or room.round.event["type"] == "answer"
    assert len(room.state.history) > history


@pytest.mark.parametrize("mistake", ["stale", "other seat", "bad choice", "spectator", "twice"])
def test_refused_actions_change_nothing(mistake):
    room, clock = make_room(find_seed((1,)))
    if mistake == "twice":
        press(room, 0, "Play Skip")
        press(room, 2, "Pass")
    before = (room.state.serialize(), room.released, dict(room.round.chosen) if room.round else None)
    prompt = room.prompt(2 if mistake == "twice" else 0) or {"id": "r0"}
    with pytest.raises(ActError) as caught:
        if mistake == "stale":
            room.act(0, "d999", 0)
        elif mistake == "other seat":
            room.act(1, prompt["id"], 0)
        elif mistake == "bad choice":
            room.act(0, prompt["id"], 99)
        elif mistake == "spectator":
            room.act(None, prompt["id"], 0)
        else:
            room.act(2, room.round.id, 0)
    assert caught.value.code in ("stale", "not-your-turn", "bad-choice", "spectator", "answered")
    assert (room.state.serialize(), room.released, dict(room.round.chosen) if room.round else None) == before


def test_a_room_comes_back_from_its_stored_decisions(tmp_path):
    import random

    storage = Storage(str(tmp_path / "rooms.sqlite3"))
    seed = find_seed((1,))
    room, clock = make_room(seed, seats=("person", "heuristic", "person"), storage=storage)
    rng = random.Random(3)
    for _ in range(40):  # people pick at random; windows time out now and then
        if room.finished:
            break
        for seat in (0, 2):
            prompt = room.prompt(seat)
            if prompt is not None and rng.random() < 0.8:
                room.act(seat, prompt["id"], rng.randrange(len(prompt["options"])))
                break
        else:
            clock.advance(ANSWER + 0.1)
    stored = storage.rooms()[0]
    again = Room("r1", stored["config"], GAME, stored["seed"], {}, storage=None, clock=FakeClock(),
                 bots=seat_bots(GAME, stored["config"]["seats"], seed), answer_seconds=ANSWER, bot_delay=0)
    again.restore(storage.actions("r1"), stored["released"], stored["round_at"])
    assert again.state.serialize() == room.state.serialize()
    assert again.released == room.released
    assert (again.round and again.round.id) == (room.round and room.round.id)
    for seat in (0, 1, 2):
        assert again.prompt(seat) == room.prompt(seat)
        assert again.update(seat, 0)["view"] == room.update(seat, 0)["view"]
    storage.close()
