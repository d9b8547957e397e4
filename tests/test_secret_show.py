"""`show(cards, to, secret=true)` (issue 42): a look nobody else learns of, for hidden
roles (an informant tipped off) and secret partners. Twin tables that differ only in who
was shown must look the same to everyone else, event for event and view for view."""

from __future__ import annotations

import pytest
from test_phases import house, laid_out  # a house rule on the Original, a table laid by hand

from kittens.interpreter.engine.events import for_seat

INFORMANT = """counters:
  informant: {visible: owner, max: 1}
patch_cards:
  see_the_future:
    effect: |
      show(top(draw_pile, 3), me)
      for p in others() {
        if counter("informant", p) == 1 { show(top(draw_pile, 3), p, secret=SECRET) }
      }
"""
PILE = ["cattermelon", "exploding_kitten", "beard_cat", "tacocat"]
HANDS = {0: ["see_the_future"], 1: ["skip"], 2: ["skip"], 3: ["skip"]}


def played(tmp_path, secret: bool, informant: int):
    edition = house(tmp_path, INFORMANT.replace("SECRET", "true" if secret else "false"),
                    name=f"informant_{secret}_{informant}.yaml")
    marks = [1 if seat == informant else 0 for seat in range(4)]
    state = laid_out(edition, 4, HANDS, PILE, counters={"informant": marks})
    state.apply_action("play see_the_future")
    while state.decision().kind == "answer":
        state.apply_action("pass")
    return state


def observed(state, seat: int) -> list:
    return [seen for seen in (for_seat(e, seat) for e in state.events) if seen is not None]


def test_the_informant_sees_the_cards(tmp_path):
    state = played(tmp_path, True, 2)
    assert state.view(2).draw_pile_known() == {0: "cattermelon", 1: "exploding_kitten", 2: "beard_cat"}
    assert state.view(3).draw_pile_known() == {}


@pytest.mark.parametrize("seat", [0, 1])
def test_nobody_else_learns_who_was_shown(tmp_path, seat):
    with_two, with_three = played(tmp_path, True, 2), played(tmp_path, True, 3)
    # the counters' own events differ by seat only in what their owner sees; everything
    # else, the shows above all, must be the same for a seat that is neither informant
    strip = lambda events: [e for e in events if e["type"] != "counter"]  # noqa: E731
    assert strip(observed(with_two, seat)) == strip(observed(with_three, seat))
    assert with_two.view(seat).to_dict() == with_three.view(seat).to_dict()


def test_without_secret_the_show_is_public_as_before(tmp_path):
    """The test above can fail: a plain show tells everyone who was shown."""
    with_two, with_three = played(tmp_path, False, 2), played(tmp_path, False, 3)
    shows = lambda state: [e for e in observed(state, 1) if e["type"] == "show"]  # noqa: E731
    assert shows(with_two) != shows(with_three)


def test_the_search_player_decides_alike_whoever_was_shown(tmp_path):
    """Seat 1, neither informant, is dealt worlds from its view: they must not depend on
    whether seat 2 or seat 3 was shown the cards, so neither may its decision."""
    import random

    from kittens.interpreter.engine.search import ISMCTSBot
    from kittens.interpreter.engine.views import SearchView

    decisions, worlds = [], []
    for informant in (2, 3):
        state = played(tmp_path, True, informant)
        state.apply_action("draw")  # seat 0 ends its turn; seat 1 decides
        while state.decision().seat != 1 or state.decision().kind != "action":
            state.apply_action(state.legal_actions()[0])
        world = state.resample_from_view(1, random.Random(5))
        worlds.append([for_seat(e, 1) for e in world.events if e["type"] == "show"])
        bot = ISMCTSBot(3, 1, iterations=8)
        bot.start(state.game, 1)
        decisions.append(bot.choose(SearchView(state, 1), state.decision()))
    assert decisions[0] == decisions[1]
    assert worlds[0] == worlds[1]
