"""Semantics the docs promise, pinned against the engine (issue 42): what `requires`,
`choose` and `effect` see of the discard pile, `play_as` and the copied card's
`requires`, which choices are asked with one candidate, state checks and the deal,
triggers in hand-laid scenarios, players who are out asked to choose, and where
`cancel()` may be written."""

from __future__ import annotations

from conftest import ROOT

from kittens.authoring.scenario import ScenarioRunner
from kittens.interpreter.rules.check import validate_paths

ORIGINAL = ROOT / "editions" / "original.yaml"


def _house(write, body: str) -> str:
    return write("house.yaml", f"format: 1\nkind: edition\nid: house\nname: House\n"
                               f"extends: {ORIGINAL}\n{body}")


def _passes(write, house: str, scenario: str) -> None:
    _house(write, house)
    path = write("case.scenario.yaml", "format: 1\nkind: scenario\ndescription: pinned.\n"
                                       "edition: house.yaml\n" + scenario)
    outcome = ScenarioRunner().run(path)
    assert outcome.passed, outcome.failures


PROBE = """\
define_cards:
  - id: probe
    title: Probe
    when: own_turn
    text: Play it only on a discard pile of one card; take the top card of the draw pile.
    requires: count(discard_pile) == 1
    choose:
      seen: choose_card(discard_pile)
    effect: |
      if count(discard_pile) == 2 and title(seen) == "probe" { move(top(draw_pile), hand(me)) }
add_cards:
  probe: 1
"""


def test_requires_sees_the_pile_before_the_card_lands_choose_and_effect_after(write):
    # `requires` counts the one card already there, not the Probe about to land; the
    # choice among the discard pile then offers the Probe itself, and the effect counts two
    _passes(write, PROBE, """players: 2
hands: {0: [probe]}
discard_pile: [skip]
draw_pile: [tacocat, beard_cat]
steps:
  - {seat: 0, do: play probe}
  - {expect: {decision: {seat: 0, kind: choose_card, options: [probe, skip]}}}
  - {seat: 0, do: probe}
expect:
  hands: {0: [tacocat]}
  discard_pile: [probe, skip]
""")


def test_a_choice_must_have_a_candidate_before_the_card_lands(write):
    # whether a play is offered looks at the choice's candidates as they are before the
    # card lands: on an empty discard pile the Probe is not offered, although the choice,
    # made after it lands, would find the Probe there
    _passes(write, PROBE.replace("count(discard_pile) == 1", "count(discard_pile) == 0"), """players: 2
hands: {0: [probe]}
draw_pile: [tacocat, beard_cat]
steps:
  - {seat: 0, do: play probe, refused: true}
""")


def test_play_as_does_not_check_the_copied_cards_requires(write):
    # the Probe needs exactly one card in the discard pile; there are two once the Mimic
    # lands, yet play_as carries the Probe out: its choice is asked all the same
    _passes(write, """\
define_cards:
  - id: mimic
    title: Mimic
    when: own_turn
    text: Carry out a Probe.
    effect: play_as("probe", this)
""" + PROBE.replace("define_cards:\n", "").replace("add_cards:\n  probe: 1\n", "")
        + "add_cards:\n  mimic: 1\n  probe: 1\n", """players: 2
hands: {0: [mimic]}
discard_pile: [skip]
draw_pile: [tacocat, beard_cat]
steps:
  - {seat: 0, do: play mimic}
  - {expect: {decision: {seat: 0, kind: choose_card, options: [mimic, skip]}}}
  - {seat: 0, do: mimic}
expect:
  hands: {0: []}
  discard_pile: [mimic, skip]
""")


def test_choose_card_and_choose_position_ask_with_one_candidate_choose_player_does_not(write):
    _passes(write, """\
define_cards:
  - id: pick
    title: Pick
    when: own_turn
    text: Pick a player, a card and a place.
    choose:
      who: choose_player(others())
    effect: |
      let card = choose_card(hand(who), by=who)
      move(card, draw_pile, at=choose_position(draw_pile))
add_cards:
  pick: 1
""", """players: 2
hands: {0: [pick], 1: [tacocat]}
draw_pile: []
steps:
  - {seat: 0, do: play pick}
  - {expect: {decision: {seat: 1, kind: choose_card, options: [tacocat]}}}
  - {seat: 1, do: tacocat}
  - {expect: {decision: {seat: 0, kind: choose_position, options: [0]}}}
  - {seat: 0, do: 0}
expect:
  draw_pile: [tacocat]
""")


def test_state_checks_do_not_run_at_the_deal_a_game_start_trigger_does(write):
    check = """\
checks:
  - id: no_skips
    text: A Skip in hand is discarded.
    if: has(me, "skip")
    effect: discard(top(find(hand(me), "skip")))
"""
    layout = """players: 2
hands: {0: [skip], 1: [skip]}
draw_pile: [tacocat, beard_cat]
steps: []
expect:
  hand_counts: {0: %d, 1: %d}
"""
    _passes(write, check, layout % (1, 1))  # nothing has been played or drawn yet
    trigger = """\
triggers:
  - id: no_skips_at_start
    on: game_start
    text: Skips dealt are discarded.
    effect: |
      for p in players() { discard(find(hand(p), "skip")) }
"""
    _passes(write, check + trigger, layout % (0, 0))


def test_game_start_and_the_first_turn_start_run_in_a_hand_laid_scenario(write):
    _passes(write, """\
counters:
  began: {}
  turns: {}
triggers:
  - id: begin
    on: game_start
    text: The first player is marked.
    effect: add_counter("began", 1)
  - id: tick
    on: turn_start
    text: Each turn is counted.
    effect: add_counter("turns", 1)
""", """players: 2
hands: {0: [skip], 1: [skip]}
draw_pile: [tacocat, beard_cat]
steps: []
expect:
  counters: {began: {0: 1, 1: 0}, turns: {0: 1, 1: 0}}
""")


def test_a_player_who_is_out_may_be_asked_to_choose(write):
    _passes(write, """\
triggers:
  - id: last_word
    on: player_out
    text: Who goes out may give the next player a card from the discard pile.
    effect: |
      if ask("Give a card?", by=me) { move(choose_card(discard_pile, by=me), hand(next_player())) }
""", """players: 3
hands: {0: [], 1: [], 2: []}
discard_pile: [tacocat]
draw_pile: [exploding_kitten, beard_cat]
steps:
  - {seat: 0, do: draw}
  - {expect: {decision: {seat: 0, kind: ask}}}
  - {seat: 0, do: true}
  - {seat: 0, do: tacocat}
expect:
  out: [0]
  hand_has: {1: [tacocat]}
""")


def test_cancel_in_a_trigger_is_refused_naming_the_trigger(write):
    path = _house(write, """\
triggers:
  - id: stop
    on: turn_start
    text: Stop.
    effect: cancel()
""")
    found = [d for d in validate_paths([path]).diagnostics if d.code == "not-allowed-here"]
    assert len(found) == 1
    assert "cancel() cannot be used in a trigger (`triggers:`)" in found[0].message
    assert "only in the `effect` of a card with `when: reaction`" in found[0].message
    assert "turn effect" not in found[0].message and found[0].line == 10


def test_a_game_start_triggers_choice_is_a_hand_laid_scripts_first_decision(write):
    _passes(write, """\
triggers:
  - id: ready
    on: game_start
    text: The first player may draw a card before play begins.
    effect: |
      if ask("Draw one first?", by=me) { draw() }
""", """players: 2
hands: {0: [skip], 1: [skip]}
draw_pile: [tacocat, beard_cat]
steps:
  - {expect: {decision: {seat: 0, kind: ask}}}
  - {seat: 0, do: true}
expect:
  hands: {0: [skip, tacocat]}
  turn: 0
""")
