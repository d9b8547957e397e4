"""How often plays may be made (issue 42): a restriction's `for:` names the plays it
limits and `per_turn` / `per_game` how many of them each player may make, together.
Example: examples/house-rules/one_steal_a_turn.yaml, whose scenarios fail on the plain
Original."""

from __future__ import annotations

import pytest
from test_phases import house, laid_out  # a house rule on the Original, a table laid by hand

from kittens import RuleError


def take(state, *options):
    for option in options:
        assert option in state.legal_actions(), (option, state.legal_actions())
        state.apply_action(option)


def pass_answers(state):
    while state.decision().kind == "answer":
        take(state, "pass")


LIMITS = [
    # (restriction keys, seat 0's plays in one turn, what is offered after them)
    ("for: [shuffle, skip]\n    per_turn: 1", ["play shuffle"],
     ["draw", "play see_the_future", "combo two_of_a_kind shuffle"]),  # the combo is not limited
    ("for: [shuffle]\n    per_turn: 2", ["play shuffle"],
     ["draw", "play shuffle", "play skip", "play see_the_future", "combo two_of_a_kind shuffle"]),
    ("for: [shuffle]\n    per_turn: 2", ["play shuffle", "play shuffle"], ["draw", "play skip", "play see_the_future"]),
    ("for: [shuffle]\n    allows: count(hand(me)) > 4\n    per_turn: 5", ["play shuffle"],
     ["draw", "play skip", "play see_the_future", "combo two_of_a_kind shuffle"]),  # and the condition
]


@pytest.mark.parametrize("keys, plays, offered", LIMITS)
def test_limits_within_a_turn(tmp_path, keys, plays, offered):
    edition = house(tmp_path, f"restrictions:\n  - id: limit\n    text: A limit.\n    {keys}\n")
    state = laid_out(edition, 2, {0: ["shuffle", "shuffle", "shuffle", "skip", "see_the_future"], 1: ["skip"]},
                     ["tacocat"] * 6)
    for play in plays:
        take(state, play)
        pass_answers(state)
    assert state.legal_actions() == offered


def test_a_per_game_limit_outlasts_the_turn_and_a_noped_play_counts(tmp_path):
    edition = house(tmp_path, "restrictions:\n  - id: once\n    text: One Shuffle a game.\n"
                              "    for: [shuffle]\n    per_game: 1\n")
    state = laid_out(edition, 2, {0: ["shuffle", "shuffle", "skip"], 1: ["nope", "skip"]}, ["tacocat"] * 6)
    take(state, "play shuffle", "play nope")  # Noped: it was played all the same
    assert "play shuffle" not in state.legal_actions()
    take(state, "play skip", "play skip")  # seat 1's turn, then seat 0's again
    assert state.decision().seat == 0 and "play shuffle" not in state.legal_actions()


def test_an_answer_is_limited_too(tmp_path):
    edition = house(tmp_path, "restrictions:\n  - id: one_nope\n    text: One Nope a turn each.\n"
                              "    for: [nope]\n    per_turn: 1\n")
    state = laid_out(edition, 2, {0: ["shuffle", "nope"], 1: ["nope", "nope", "skip"]}, ["tacocat"] * 6)
    take(state, "play shuffle", "play nope", "play nope")  # seat 1 Nopes, seat 0 Nopes back
    # seat 1 may not Nope again this turn, so it is not even asked: the Shuffle stands
    assert state.decision().seat == 0 and state.decision().kind == "action"
    assert [c.id for c in state.table.hands[1].cards] == ["nope", "skip"]


def test_an_unknown_play_is_named_with_its_place(tmp_path):
    with pytest.raises(RuleError) as failure:
        house(tmp_path, "restrictions:\n  - id: limit\n    text: A limit.\n    for: [shufle]\n    per_turn: 1\n")
    assert "no card, combo or free action of this edition is called 'shufle'; did you mean 'shuffle'?" \
        in str(failure.value)


def test_the_rulesheet_says_how_often(tmp_path):
    from kittens.interpreter.words.rulesheet import render_rulesheet

    edition = house(tmp_path, "restrictions:\n  - id: limit\n    text: Shuffle or Skip once a turn.\n"
                              "    for: [shuffle, skip]\n    per_turn: 1\n    per_game: 3\n")
    text = render_rulesheet(edition, 4)
    assert ("A Shuffle or a Skip may be played only if its player has played fewer than 1 of them "
            "this turn and fewer than 3 of them this game.") in text
