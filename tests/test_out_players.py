"""Players who are out but still act (issue 42): a card's `who` says whether players who
are out may play it (`out`: only they; `anyone`: they too). They take no turns, so they
play it in answer to a card; the round of answers asks them at their place in turn order.
Examples: examples/house-rules/ghosts.yaml and its scenarios."""

from __future__ import annotations

from pathlib import Path

import pytest

from kittens import Game, load_edition
from kittens.interpreter.engine.reactions import answering_order, answers
from kittens.interpreter.words.rulesheet import render_rulesheet

ROOT = Path(__file__).resolve().parent.parent

HOUSE = """format: 1
kind: edition
id: out_test
name: Out test
extends: original
patch_cards:
  nope: {{who: {who}}}
"""


def state_with(tmp_path, who: str, out: tuple):
    path = tmp_path / f"{who}.yaml"
    path.write_text(HOUSE.format(who=who), encoding="utf-8")
    edition = load_edition(str(path))

    def layout(table):
        for seat in range(4):
            table.new_card(edition.cards["nope"], table.hands[seat])
        for _ in range(6):
            table.new_card(edition.cards["skip"], table.draw_pile)
        for seat in out:
            table.alive[seat] = False
        table._orders.clear()
    return Game(edition, 4).new_state(0, layout=layout)


@pytest.mark.parametrize("who, out, asked, may_nope", [
    ("in", (), [1, 2, 3, 0], [True] * 4),
    ("in", (2,), [1, 3, 0], [True, True, False, True]),  # the shipped rule: the out seat is not asked
    ("anyone", (2,), [1, 2, 3, 0], [True] * 4),
    ("out", (2,), [1, 2, 3, 0], [False, False, True, False]),
    ("out", (), [1, 2, 3, 0], [False] * 4),
])
def test_who_may_answer_and_in_what_order(tmp_path, who, out, asked, may_nope):
    state = state_with(tmp_path, who, out)
    assert answering_order(state, 0) == asked
    offered = [answers(state, seat)[0] is not None and "play nope" in answers(state, seat)[0]
               for seat in range(4)]
    assert offered == may_nope


def test_an_out_seat_that_answered_last_is_asked_last_in_the_next_round(tmp_path):
    state = state_with(tmp_path, "anyone", (2,))
    assert answering_order(state, 2) == [3, 0, 1, 2]


@pytest.mark.parametrize("who, sentence", [
    ("out", "Only a player who is out may play it"),
    ("anyone", "A player who is out may play it too"),
])
def test_the_rulesheet_says_who_may_play_the_card(tmp_path, who, sentence):
    path = tmp_path / f"{who}.yaml"
    path.write_text(HOUSE.format(who=who), encoding="utf-8")
    sheet = render_rulesheet(load_edition(str(path)), 4)
    nope = sheet[sheet.index("### Nope"):]
    assert sentence in nope[:nope.index("\n### ")]


def test_a_card_only_players_who_are_out_may_play_is_never_offered_on_a_turn():
    edition = load_edition(str(ROOT / "examples" / "house-rules" / "ghosts.yaml"))
    game = Game(edition, 3)
    assert "boo" not in game.on_turn and "boo" in game.out_answers and "boo" in game.out_only
