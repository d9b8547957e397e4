"""Rounds of play and turn control (issue 42): `round_number()`, the `round_start`
moment, `turn_player()` and `pass_over()`. A round is over once every player still in
has begun a turn in it; the next begins as play passes to another player. Example:
examples/house-rules/quiet_first_round.yaml, whose scenarios fail on the plain Original.
Here the cases that pin the definitions down."""

from __future__ import annotations

import pytest
from test_phases import house, laid_out  # a house rule on the Original, a table laid by hand

from kittens import load_edition

#: a house rule that writes down, at each turn's start, the round it is in, and counts
#: the `round_start` triggers that ran
WATCH = """counters:
  rounds_begun: {}
  round_seen: {}
triggers:
  - id: round_begins
    on: round_start
    text: A round begins.
    effect: add_counter("rounds_begun", 1, player_in_seat(0))
  - id: note_round
    on: turn_start
    text: Note the round.
    effect: set_counter("round_seen", round_number())
define_cards:
  - id: curse
    title: Curse
    tags: [action]
    text: Another player of your choice goes out.
    when: own_turn
    choose:
      victim: choose_player(others())
    effect: eliminate(victim)
"""


def take(state, *options):
    for option in options:
        assert option in state.legal_actions(), (option, state.legal_actions())
        state.apply_action(option)


def turns_and_rounds(state, options):
    """(seat, turn number, round number) at each turn's start, as the options are taken."""
    seen = [(state.table.current, state.table.turn, state.table.round)]
    for option in options:
        turn = state.table.turn
        take(state, option)
        if state.table.turn != turn:
            seen.append((state.table.current, state.table.turn, state.table.round))
    return seen


@pytest.fixture(scope="module")
def watched(tmp_path_factory):
    return house(tmp_path_factory.mktemp("rounds"), WATCH)


CASES = [
    ("three players in turn", 3, {0: ["skip"], 1: ["skip"], 2: ["skip"]},
     ["play skip"] * 3,
     [(0, 1, 1), (1, 2, 1), (2, 3, 1), (0, 4, 2)]),
    ("an attack stretches the round", 3, {0: ["attack"], 1: ["skip", "skip"], 2: ["skip"]},
     ["play attack", "play skip", "play skip", "play skip"],
     [(0, 1, 1), (1, 2, 1), (1, 3, 1), (2, 4, 1), (0, 5, 2)]),
    ("two players", 2, {0: ["skip", "skip"], 1: ["skip"]},
     ["play skip", "play skip", "play skip"],
     [(0, 1, 1), (1, 2, 1), (0, 3, 2), (1, 4, 2)]),
    ("the round's last player owes two turns: both in it", 2, {0: ["attack"], 1: ["skip", "skip"]},
     ["play attack", "play skip", "play skip"],
     [(0, 1, 1), (1, 2, 1), (1, 3, 1), (0, 4, 2)]),
    ("a player out before their turn no longer holds it up", 3,
     {0: ["curse", "skip"], 1: ["skip"], 2: ["skip"]},
     ["play curse", 2, "play skip", "play skip"],
     [(0, 1, 1), (1, 2, 1), (0, 3, 2)]),
]


@pytest.mark.parametrize("name, players, hands, options, expected", CASES, ids=[c[0] for c in CASES])
def test_round_numbers(watched, name, players, hands, options, expected):
    state = laid_out(watched, players, hands, ["tacocat"] * 8)
    assert turns_and_rounds(state, options) == expected


def test_reversed_play_ends_the_round_once_everyone_has_played():
    imploding = load_edition("imploding")
    state = laid_out(imploding, 3, {0: ["reverse"], 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 6)
    # seat 0 reverses: seat 2, then seat 1, then seat 0 again, who begins round 2
    assert turns_and_rounds(state, ["play reverse", "play skip", "play skip"]) == \
        [(0, 1, 1), (2, 2, 1), (1, 3, 1), (0, 4, 2)]


def test_round_start_runs_once_a_round_before_turn_start(watched):
    state = laid_out(watched, 3, {0: ["skip", "skip"], 1: ["skip", "skip"], 2: ["skip"]}, ["tacocat"] * 8)
    take(state, "play skip", "play skip", "play skip", "play skip")  # turn 5: seat 1, round 2
    assert state.table.counters["rounds_begun"][0] == 2
    assert state.table.counters["round_seen"] == [2, 2, 1]
    kinds = [(e["type"], e.get("id")) for e in state.events if e["type"] in ("trigger", "turn")]
    first = kinds.index(("trigger", "round_begins"))
    assert kinds[first + 1] == ("trigger", "note_round")  # before that turn's turn_start


def test_a_copy_keeps_its_round(watched):
    state = laid_out(watched, 3, {0: ["skip"], 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 8)
    take(state, "play skip", "play skip")
    twin = state.clone()
    for copy_ in (state, twin):
        take(copy_, "play skip")
    assert state.table.round == twin.table.round == 2


def test_round_number_is_zero_before_the_first_turn(tmp_path):
    edition = house(tmp_path, """counters:
  at_start: {start: -1, min: -1}
triggers:
  - id: note
    on: game_start
    text: Note the round.
    effect: set_counter("at_start", round_number())
""")
    state = laid_out(edition, 2, {0: ["skip"], 1: ["skip"]}, ["tacocat"])
    assert state.table.counters["at_start"][0] == 0


def test_turn_player_tells_the_turns_own_draw_from_one_a_card_made(tmp_path):
    """In a `card_drawn` trigger after the turn's draw, `whose_turn()` is already the next
    player; `turn_player()` is still the drawer's, and not a Favor-made draw's victim."""
    edition = house(tmp_path, """counters:
  own_draws: {}
  other_draws: {}
define_cards:
  - id: gift
    title: Gift
    tags: [action]
    text: The next player draws a card.
    when: own_turn
    effect: draw(next_player())
triggers:
  - id: count_draws
    on: card_drawn
    text: Count each player's draws on their own turn and the others.
    effect: |
      if turn_player() == me {
        add_counter("own_draws", 1)
      } else {
        add_counter("other_draws", 1)
      }
""")
    state = laid_out(edition, 3, {0: ["gift"], 1: ["skip"], 2: ["skip"]}, ["tacocat"] * 6)
    take(state, "play gift", "draw")
    assert state.table.counters["own_draws"] == [1, 0, 0]
    assert state.table.counters["other_draws"] == [0, 1, 0]
    assert state.table.current == 1  # the turn passed on: whose_turn() would say seat 1


LEAPFROG = """define_cards:
  - id: leapfrog
    title: Leapfrog
    tags: [action]
    text: End your turn without drawing; the next player is passed over.
    when: own_turn
    effect: |
      pass_over(next_player())
      end_turn()
"""


@pytest.mark.parametrize("name, players, hands, options, expected", [
    ("the next player is passed over", 3, {0: ["leapfrog"], 1: ["skip"], 2: ["skip"]},
     ["play leapfrog", "play skip"], [(0, 1, 1), (2, 2, 1), (0, 3, 1)]),
    ("with two players you go again", 2, {0: ["leapfrog", "skip"], 1: ["skip"]},
     ["play leapfrog", "play skip"], [(0, 1, 1), (0, 2, 1), (1, 3, 1)]),
    ("under attack the pass waits for the turns owed", 3,
     {0: ["attack"], 1: ["leapfrog", "skip"], 2: ["skip"]},
     ["play attack", "play leapfrog", "play skip"],
     [(0, 1, 1), (1, 2, 1), (1, 3, 1), (0, 4, 1)]),
])
def test_pass_over(tmp_path, name, players, hands, options, expected):
    edition = house(tmp_path, LEAPFROG)
    state = laid_out(edition, players, hands, ["tacocat"] * 8)
    assert turns_and_rounds(state, options) == expected
    assert sum(state.table.passed) == state.table.passes == 0
