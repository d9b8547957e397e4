"""The people of one web table, without a server: a Social made from what the database
holds changes nothing until it is attached to its room; the chat's rate is kept per
connection on a clock the test gives, so a writer stopped for writing too fast may
write again once the time has passed, without the test waiting for it."""

from __future__ import annotations

import gc

import pytest
from webtable import TestClock

from kittens.interpreter.engine.game import Game
from kittens.interpreter.rules.load import load_edition
from kittens.web.render import SPECTATOR
from kittens.web.room import Listener, Room, seat_bots
from kittens.web.social import CHAT_BURST, CHAT_EVERY, ChatLimit, Social, SocialError
from kittens.web.storage import Storage


class Ticks:
    """A clock a test moves by hand (seconds)."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def a_room(room_id: str = "s1", storage=None) -> Room:
    game = Game(load_edition("original"), 2)
    seats = ["person", "person"]
    return Room(room_id, {"rules": "original", "players": 2, "seats": seats}, game, 4, {}, storage=storage,
                clock=TestClock(), bots=seat_bots(game, seats, 4), answer_seconds=5, bot_delay=0)


def flooded(social: Social, listener) -> bool:
    try:
        social.say(listener, "one more")
    except SocialError as exc:
        assert exc.code == "chat-flood"
        return True
    return False


def test_a_writer_stopped_for_writing_too_fast_may_write_again_once_the_time_has_passed():
    ticks = Ticks()
    room = a_room()
    social = Social(room, wall=lambda: 1000.0, clock=ticks).attach()
    ann = Listener(0, lambda message: None)
    for n in range(CHAT_BURST):  # a burst at once is allowed ...
        social.say(ann, f"line {n}")
    assert flooded(social, ann)  # ... and no more
    ticks.now += CHAT_EVERY * 0.9
    assert flooded(social, ann)  # not quite a line's worth of time yet
    ticks.now += CHAT_EVERY * 0.1
    assert not flooded(social, ann)  # now one line
    assert flooded(social, ann)
    ticks.now += 1000 * CHAT_EVERY  # a long quiet fills the bucket, but only up to a burst
    for _ in range(CHAT_BURST):
        assert not flooded(social, ann)
    assert flooded(social, ann)
    assert [line["at"] for line in social.chat] == [1000.0] * len(social.chat)  # stamped by the wall clock
    assert not hasattr(ann, "chat_allowance")  # the rate is the social's, not the connection's


def test_each_connection_has_its_own_rate_and_it_goes_with_the_connection():
    ticks = Ticks()
    social = Social(a_room(), clock=ticks).attach()
    first, second = Listener(0, lambda message: None), Listener(0, lambda message: None)  # two pages, one seat
    for _ in range(CHAT_BURST):
        social.say(first, "hi")
    assert flooded(social, first) and not flooded(social, second)
    assert len(social.limit.buckets) == 2
    del first, second
    gc.collect()
    assert len(social.limit.buckets) == 0


def test_the_chat_limit_alone():
    ticks = Ticks(0.0)
    limit = ChatLimit(ticks, burst=2, every=10.0)
    writer = Listener(0, None)
    assert [limit.take(writer) for _ in range(3)] == [True, True, False]
    ticks.now = 5.0
    assert not limit.take(writer)
    ticks.now = 10.0
    assert limit.take(writer) and not limit.take(writer)


def test_making_a_social_changes_nothing_until_it_is_attached(tmp_path):
    storage = Storage(str(tmp_path / "kittens.sqlite3"))
    storage.set_name("s1", 1, "Ben")
    room = a_room(storage=storage)
    chosen = room.words.chosen
    social = Social(room, storage)
    assert room.social is None and room.words.chosen is chosen
    assert social.names == {1: "Ben"}  # read from the database all the same
    assert social.attach() is social
    assert room.social is social and room.words.chosen is social.names
    assert room.words.seat_name(1) == "Ben"
    storage.close()


def test_names_chat_and_the_next_game_come_back_from_the_database(tmp_path):
    storage = Storage(str(tmp_path / "kittens.sqlite3"))
    social = Social(a_room(storage=storage), storage, wall=lambda: 7.5, clock=Ticks()).attach()
    social.rename(0, "Ann")
    social.say(Listener(0, lambda message: None), "hello")
    social.say(Listener(1, lambda message: None), "hi Ann")
    social.storage.set_next_game("s1", "s2")
    again = Social(a_room(storage=storage), storage)  # the server started again
    assert again.names == {0: "Ann"} and again.next == "s2" and again.count == 2
    assert [(line["n"], line["seat"], line["name"], line["text"], line["at"]) for line in again.chat] == [
        (0, 0, "Ann", "hello", 7.5), (1, 1, "Seat 1", "hi Ann", 7.5)]
    storage.close()


def test_a_spectator_neither_names_nor_writes():
    social = Social(a_room(), clock=Ticks()).attach()
    with pytest.raises(SocialError, match="spectators"):
        social.rename(SPECTATOR, "Zed")
    with pytest.raises(SocialError, match="spectators"):
        social.say(Listener(SPECTATOR, lambda message: None), "hi")
    assert social.names == {} and social.chat == []
