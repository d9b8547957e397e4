"""`==` between a card and a list of cards (issue 42's second probe: `c == top(this)`
validated but was never true, a card being one value and `top` a list of one)."""

from __future__ import annotations

import pytest
from test_phases import house, laid_out


@pytest.mark.parametrize("test, draws", [
    ("c == top(this)", 1),            # a card equals a list of just that card
    ("top(this) == c", 1),
    ("c != top(this)", 0),
    ("c == top(draw_pile)", 0),       # another card
    ("top(this) == top(this)", 1),    # two lists, item by item, as before
    ("c == top(draw_pile, 2)", 0),    # a list of two is never one card
])
def test_a_card_compares_with_a_list_of_one(tmp_path, test, draws):
    edition = house(tmp_path, f"""define_cards:
  - id: mirror
    title: Mirror
    tags: [action]
    text: For each card played this turn that passes the test, draw a card.
    when: own_turn
    effect: for c in played_this_turn() {{ if {test} {{ draw(me) }} }}
add_cards: {{mirror: 1}}
""")
    state = laid_out(edition, 2, {0: ["mirror"]}, ["tacocat", "beard_cat", "exploding_kitten"])
    state.apply_action("play mirror")
    assert len(state.table.hands[0].cards) == draws
