"""random_number(low, high) (issue 42's second probe: "no random number", which a
random place in the pile stood in for)."""

from __future__ import annotations

import pytest
from test_phases import house

from kittens import Game
from kittens.interpreter.lang.errors import GameError

CARD = """counters:
  rolled: {{start: -1}}
define_cards:
  - id: dice
    title: Dice
    tags: [action]
    text: Roll a number and keep it.
    when: own_turn
    effect: set_counter("rolled", random_number({low}, {high}))
add_cards: {{dice: 1}}
"""


def rolled(edition, seed: int, explicit: bool = False):
    def layout(table):
        table.new_card(edition.cards["dice"], table.hands[0])
        for _ in range(4):
            table.new_card(edition.cards["tacocat"], table.draw_pile)
    state = Game(edition, 2).new_state(seed, layout=layout, explicit_chance=explicit)
    state.apply_action("play dice")
    return state


def test_every_number_of_the_range_comes_and_no_other(tmp_path):
    edition = house(tmp_path, CARD.format(low=2, high=4))
    seen = [rolled(edition, seed).table.counters["rolled"][0] for seed in range(60)]
    assert set(seen) == {2, 3, 4} and min(seen.count(n) for n in (2, 3, 4)) >= 10
    assert seen == [rolled(edition, seed).table.counters["rolled"][0] for seed in range(60)]  # seeded


def test_a_range_of_one_number_is_that_number(tmp_path):
    edition = house(tmp_path, CARD.format(low=5, high=5))
    assert rolled(edition, 0).table.counters["rolled"][0] == 5


def test_the_caller_may_fix_the_outcome(tmp_path):
    edition = house(tmp_path, CARD.format(low=1, high=6))
    state = rolled(edition, 0, explicit=True)
    chance = state.chance_outcomes() if hasattr(state, "chance_outcomes") else None
    assert chance is not None and [p for p, _w in chance] == list(range(6))
    state.apply_action(3)
    assert state.table.counters["rolled"][0] == 4


@pytest.mark.parametrize("low, high", [(4, 3), (0, 101)])
def test_a_range_it_cannot_pick_from_stops_the_game_naming_the_card(tmp_path, low, high):
    edition = house(tmp_path, CARD.format(low=low, high=high))
    with pytest.raises(GameError, match="random_number"):
        rolled(edition, 0)
