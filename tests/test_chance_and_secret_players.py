"""Issue 42's second round of choices, from the probes' findings: random_number(low,
high) (a random place in the pile stood in for it), a player kept in a counter and chosen
in secret (seat_number, player_in_seat, choose_player(secret=true)), and a claim that
offers only titles played on one's own turn (choose_title(playable=true), issue 43)."""

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


# -- a player kept in a counter, chosen in secret (probes 2 and 3: Ghost Jury, Hitman) ------------
HUNT = """counters:
  target: {start: -1, visible: owner}
actions:
  - id: mark
    title: Mark a target
    text: Pick, in secret, another player to hunt.
    per_turn: 1
    effect: set_counter("target", seat_number(choose_player(others(), secret=true)))
checks:
  - id: caught
    text: Whoever holds the Tacocats of their target's seat... (a test of reading it back)
    if: player_in_seat(counter("target")) == next_player() and count(hand(me)) > 5
    effect: draw(me)
"""


def test_a_player_chosen_in_secret_is_kept_in_a_counter_and_read_back(tmp_path):
    from test_phases import laid_out, value

    from kittens.interpreter.engine.events import for_seat

    edition = house(tmp_path, HUNT)
    state = laid_out(edition, 3, {0: ["skip"]}, ["tacocat"] * 4)
    state.apply_action("act mark")
    assert state.decision().info.get("secret") is True and state.legal_actions() == [1, 2]
    state.apply_action(2)
    assert state.table.counters["target"] == [2, -1, -1]
    assert value(state, 'player_in_seat(counter("target"))') == 2
    assert value(state, 'player_in_seat(counter("target", next_player()))') is None  # no seat -1
    for seat in (1, 2):  # nobody else learns whom seat 0 picked
        seen = [for_seat(event, seat) for event in state.events]
        assert not any(event and event.get("type") in ("decision", "counter") and
                       (event.get("option") == 2 or event.get("value") == 2) for event in seen), seat


@pytest.mark.parametrize("roll, passes, message", [
    (6, True, None),
    (1, False, "counter"),                       # a one is kept as a one
    (7, False, "a random number from 1 to 6: give the number itself"),
])
def test_a_scenario_fixes_a_random_number_by_the_number_itself(tmp_path, roll, passes, message):
    from kittens.authoring.scenario import ScenarioRunner

    house(tmp_path, CARD.format(low=1, high=6))
    (tmp_path / "roll.yaml").write_text(f"""format: 1
kind: scenario
description: Seat 0 rolls; the roll is fixed.
edition: house.yaml
players: 2
hands:
  0: [dice]
draw_pile: [tacocat, beard_cat]
steps:
  - {{seat: 0, do: play dice}}
  - {{chance: {roll}}}
expect:
  counters: {{rolled: {{0: 6}}}}
""", encoding="utf-8")
    outcome = ScenarioRunner().run(str(tmp_path / "roll.yaml"))
    assert outcome.passed is passes, outcome.message
    if message:
        assert message in outcome.message, outcome.message


def test_a_claim_offers_only_the_titles_played_on_ones_own_turn():
    """Issue 43: the bluff's claim offered the Exploding Kitten and the Defuse."""
    from pathlib import Path

    from test_phases import laid_out

    from kittens import load_edition
    bluff = load_edition(str(Path(__file__).resolve().parent.parent / "examples" / "house-rules" / "bluff.yaml"))
    state = laid_out(bluff, 3, {0: ["tacocat", "skip"]}, ["beard_cat"] * 5)
    state.apply_action("act claim")
    offered = state.legal_actions()
    assert "skip" in offered and "attack" in offered and "see_the_future" in offered
    assert not {"exploding_kitten", "defuse", "nope", "tacocat"} & set(offered)
