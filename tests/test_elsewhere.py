"""A file may name a card its edition does not load (issue 42): a warning, and that part
does nothing until the card's library is there; then it works as written."""

from __future__ import annotations

import pytest

from kittens import Game, RuleError, load_edition
from kittens.interpreter.engine.compiled import legal
from kittens.interpreter.lang.machine import Ctx
from kittens.interpreter.rules.check import validate_paths

RULE = """format: 1
kind: edition
id: no_reverse
name: No Reverse when attacked
extends: original
{apply}restrictions:
  - id: no_reverse
    text: You may not play a Reverse while you owe more than one turn.
    allows: owed() < 2 or title(this) != "reverse"
"""


def written(tmp_path, apply: str = ""):
    path = tmp_path / "rule.yaml"
    path.write_text(RULE.format(apply=apply), encoding="utf-8")
    return str(path)


def test_naming_a_card_the_edition_does_not_load_is_a_warning_and_the_game_plays(tmp_path):
    path = written(tmp_path)
    found = validate_paths([path], allow_outside=True).diagnostics
    assert [(d.code, d.severity) for d in found] == [("card-not-loaded", "warning")], [d.render() for d in found]
    assert "rulebook/imploding.yaml" in found[0].message
    game = Game(load_edition(path), 3)
    assert "reverse" not in game.cards


def test_with_the_cards_library_loaded_the_same_rule_applies(tmp_path):
    path = written(tmp_path, "apply: [imploding]\n")
    assert not [d for d in validate_paths([path], allow_outside=True).diagnostics if d.code == "card-not-loaded"]
    edition = load_edition(path)
    state = Game(edition, 3).new_state(0)
    state.table.owed[state.table.current] = 2
    reverse = state.game.cards["reverse"]
    held = [inst for inst in state.table.draw_pile.cards if inst.id == "reverse"][:1]
    assert held and not legal(reverse, Ctx(state, state.table.current), held[0])


def test_a_card_nobody_ships_is_still_an_error(tmp_path):
    path = tmp_path / "rule.yaml"
    path.write_text(RULE.format(apply="").replace('"reverse"', '"revers"'), encoding="utf-8")
    with pytest.raises(RuleError) as caught:
        load_edition(str(path))
    assert [d.code for d in caught.value.diagnostics] == ["unknown-card"]
