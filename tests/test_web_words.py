"""The web table's sentences read right for whoever reads them: "you owe", "Seat 1 owes",
a player's button with its hand size in plain words; the table tells the order of play."""

from __future__ import annotations

from types import SimpleNamespace

from kittens.interpreter.rules.load import load_edition
from kittens.web.words import Words


def words() -> Words:
    return Words(load_edition("original"), ["person", "person", "heuristic"])


def test_a_turn_owed_twice_reads_right_for_you_and_for_the_others():
    turn = {"type": "turn", "number": 7, "seat": 1, "owed": 2}
    assert words().event(turn, 1) == "Turn 7: you (owe 2 turns)."
    assert words().event(turn, 0) == "Turn 7: Seat 1 (owes 2 turns)."
    assert words().event(turn, None) == "Turn 7: Seat 1 (owes 2 turns)."
    assert words().event(dict(turn, owed=1), 1) == "Turn 7: you."


def test_a_player_to_pick_is_named_with_their_hand_size_once_in_brackets():
    decision = SimpleNamespace(kind="choose_player", options=[1, 2], info={})
    w = words()
    assert w.option(decision, 2, {2: 9})["label"] == "Seat 2 (heuristic bot), 9 cards"
    assert w.option(decision, 1, {1: 1})["label"] == "Seat 1, 1 card"
    assert w.option(decision, 1, {})["label"] == "Seat 1"


def test_the_table_tells_the_order_of_play_from_the_seat_whose_turn_it_is():
    from kittens.interpreter.engine.game import Game
    from kittens.web.render import SPECTATOR, table_view

    state = Game(load_edition("original"), 4).new_state(3)
    table = state.table
    first = table.current
    assert table_view(state, 0)["turn"]["order"] == [(first + i) % 4 for i in range(4)]
    table.direction = -1  # as a Reverse leaves it
    table.alive[(first + 2) % 4] = False
    table._orders.clear()
    order = table_view(state, SPECTATOR)["turn"]["order"]
    assert order == [first, (first - 1) % 4, (first - 3) % 4]
