"""Counters, team scores and the game's end keep to their bounds (issue 41).

A counter whose `min` is above its `max` validated clean and flipped from one bound to
the other in play; team scores reached 2,000,000,000 past the number limit; a
`game_end` trigger could take the winner out, and the log then showed the winner as
out. Each test failed before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kittens.interpreter.engine.game import Game, RuleRuntimeError
from kittens.interpreter.lang import primitives as P
from kittens.interpreter.lang.limits import NUMBER_LIMIT
from kittens.interpreter.lang.machine import Ctx
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import load_edition

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "editions" / "original.yaml"


def house_rule(folder: Path, body: str) -> Path:
    path = folder / "house.yaml"
    path.write_text(f"format: 1\nkind: edition\nid: house\nname: House\nextends: {ORIGINAL}\n{body}",
                    encoding="utf-8")
    return path


def findings(path: Path) -> list:
    return [(d.code, d.line, d.column) for d in validate_paths([str(path)]).diagnostics]


@pytest.mark.parametrize("spec, at, words", [
    ("{min: 10, max: -10}", "10", "min 10 above max -10"),
    ("{max: -10, min: 10}", "10}", "min 10 above max -10"),
    ("{start: 5, max: 1}", "5", "starts at 5, outside its min -1,000,000,000 and max 1"),
    ("{max: -3}", "-3", "starts at 0, outside its min -1,000,000,000 and max -3"),
])
def test_a_counter_no_value_fits_is_an_error_at_its_bound(tmp_path, spec, at, words):
    line = f"  pts: {spec}"
    path = house_rule(tmp_path, f"counters:\n{line}\n")
    found = validate_paths([str(path)]).diagnostics
    assert [(d.code, d.line, d.column) for d in found] == [("bad-value", 7, line.index(at) + 1)]
    assert words in found[0].message and found[0].is_error


def test_a_counter_within_its_bounds_is_clean(tmp_path):
    path = house_rule(tmp_path, "counters:\n  pts: {min: -10, max: 10, start: 10}\n  mark: {min: 0, max: 0}\n")
    assert findings(path) == []


def team_game(folder: Path, at_limit: tuple):
    """Two teams of two playing on points (seats 0 and 2 against 1 and 3), seat 0 to play
    a Skip, which ends the game; the seats ``at_limit`` hold the largest number."""
    path = house_rule(folder, """teams: {count: 2}
counters:
  pts: {}
win:
  score: counter("pts")
  ends_when: count(discard_pile) > 0
""")

    def layout(table):
        cards = table.edition.cards
        table.new_card(cards["skip"], table.hands[0])
        for _ in range(5):
            table.new_card(cards["tacocat"], table.draw_pile)
        table.owed[0] = 1
        for seat in at_limit:
            table.counters["pts"][seat] = NUMBER_LIMIT
    return path, Game(load_edition(str(path)), 4).new_state(0, layout=layout)


def test_a_team_score_beyond_the_number_limit_stops_the_game_naming_the_win_condition(tmp_path):
    """Partners at the counter's largest value add up past the limit: an error, as an
    attack stacking turns past it is, rather than a number no effect may hold."""
    path, state = team_game(tmp_path, (0, 2))
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("play skip")
    message = str(caught.value)
    assert message.startswith(f"the win condition ({path}:10): the team of seats 0, 2 adds up to a score of "
                              "2,000,000,000"), message


def test_a_team_score_at_the_limit_names_its_winners(tmp_path):
    _path, state = team_game(tmp_path, (1,))
    state.apply_action("play skip")
    assert state.is_terminal() and state.winners == (1, 3)


def test_a_game_end_trigger_may_not_take_a_player_out(tmp_path):
    """Taking the winner out there left a log naming a winner who was out."""
    path = house_rule(tmp_path, """triggers:
  - id: last_blow
    on: game_end
    text: The game ends with everyone out.
    effect: |
      for p in players() { eliminate(p) }
""")
    found = validate_paths([str(path)]).diagnostics
    assert [(d.code, d.line, d.column) for d in found] == [("not-allowed-here", 11, 28)]
    assert "eliminate()" in found[0].message and "change their score" in found[0].message


def test_eliminate_refuses_once_the_game_is_decided():
    """However an effect reaches it, eliminate does not take anyone out at the game's end."""
    state = Game(load_edition(str(ORIGINAL)), 2).new_state(0)
    state.table.ending = True
    with pytest.raises(RuleRuntimeError, match="once the game is decided"):
        P.PRIMITIVES["eliminate"].impl(Ctx(state, 0, source="skip"), 1)
    assert state.table.alive == [True, True]
