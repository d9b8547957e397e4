"""Answers to moments and moments met before they happen (issue 42): a card's `answers:`
and a trigger's `at: before`, with cancel() stopping the moment. Examples:
examples/house-rules/bodyguard.yaml, nine_lives.yaml and inheritance.yaml, each with
scenarios that fail on the plain Original; here the engine's side of it: who is asked,
what a window leaks (nothing), what the checker refuses, and that editions without
these constructs play as before."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_phases import house, laid_out  # a house rule on the Original, a table laid by hand

from kittens import Game, load_edition
from kittens.interpreter.engine.events import for_seat
from kittens.interpreter.rules.check import validate_paths

ROOT = Path(__file__).resolve().parent.parent
HOUSE_RULES = ROOT / "examples" / "house-rules"


def example(name: str):
    return load_edition(str(HOUSE_RULES / f"{name}.yaml"))


def take(state, *options):
    for option in options:
        assert option in state.legal_actions(), (option, state.legal_actions())
        state.apply_action(option)


def kinds(state) -> list:
    return [event["type"] for event in state.events]


# -- who is asked ------------------------------------------------------------------
def test_a_bodyguard_is_offered_only_to_others_when_a_kitten_is_drawn():
    state = laid_out(example("bodyguard"), 3, {0: ["bodyguard"], 1: ["bodyguard"], 2: ["skip"]},
                     ["exploding_kitten"])
    take(state, "draw")
    decision = state.decision()
    assert decision.seat == 1 and decision.kind == "answer"  # not seat 0, who drew it
    assert decision.info["answering"] == {"seat": 0, "id": "card_drawn", "moment": "card_drawn", "at": "before"}
    take(state, "play bodyguard")
    assert state.table.alive == [True, True, True]
    assert [c.id for c in state.table.draw_pile.cards] == ["exploding_kitten"]


def test_a_nope_answers_the_bodyguard_but_never_the_moment():
    state = laid_out(example("bodyguard"), 3, {0: ["nope"], 1: ["bodyguard"], 2: ["nope"]},
                     ["exploding_kitten"])
    take(state, "draw")
    assert state.decision().seat == 1  # seat 2's Nope is not offered against the draw itself
    assert state.legal_actions() == ["pass", "play bodyguard"]
    take(state, "play bodyguard")
    assert state.decision().seat == 2 and "play nope" in state.legal_actions()
    take(state, "play nope", "pass")  # seat 0 (in danger) may answer the Nope in turn; it passes
    assert state.table.alive[0] is False


def test_a_player_may_answer_a_moment_about_themselves(tmp_path):
    edition = house(tmp_path, """define_cards:
  - id: lucky_charm
    title: Lucky Charm
    tags: [action]
    text: Play this as you are about to go out, to stay in.
    when: reaction
    answers: [{on: player_out, at: before}]
    requires: answered_player() == me
    effect: cancel()
  - id: curse
    title: Curse
    tags: [action]
    text: Another player of your choice goes out.
    when: own_turn
    choose:
      victim: choose_player(others())
    effect: eliminate(victim)
""")
    state = laid_out(edition, 3, {0: ["curse"], 1: ["lucky_charm"], 2: ["lucky_charm"]}, ["tacocat"])
    take(state, "play curse", 1)  # seat 1 is about to go out: only it may play its charm
    assert state.decision().seat == 1 and state.legal_actions() == ["pass", "play lucky_charm"]
    take(state, "play lucky_charm")
    assert state.table.alive == [True, True, True] and "kept_in" in kinds(state)
    state = laid_out(edition, 3, {0: ["tacocat"], 1: [], 2: ["lucky_charm"]},
                     ["exploding_kitten"])
    take(state, "draw")  # seat 0 has no charm; seat 2's is for itself only: nobody is asked
    assert state.table.alive[0] is False and state.decision().kind == "action"


# -- what a window tells ---------------------------------------------------------------
def test_the_window_opens_at_every_draw_whatever_the_card_and_whoever_holds_a_bodyguard():
    """Opening a window on kittens only, or only when someone holds a Bodyguard, would tell
    every seat what was drawn or who holds one."""
    seen = []
    for hands in ({1: ["bodyguard"]}, {1: ["skip"]}):
        state = laid_out(example("bodyguard"), 3, {0: ["skip"], 2: ["skip"], **hands},
                         ["tacocat", "exploding_kitten"])
        take(state, "draw")  # a Tacocat: nobody may answer, yet the window opens and closes
        assert kinds(state)[-4:-2] == ["window", "window_closed"], kinds(state)[-6:]
        seen.append([for_seat(event, 2) for event in state.events])
    assert seen[0] == seen[1]  # seat 2 cannot tell whether seat 1 holds a Bodyguard


def test_the_plain_original_meets_no_moment():
    game = Game(load_edition("original"), 4)
    assert not game.meets_draws and not game.moment_answers and not game.phases.before_moments
    state = game.new_state(3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    windows = [event for event in state.events if event["type"] == "window"]
    assert "kept_in" not in kinds(state) and not any("at" in event for event in windows)


# -- before a moment: triggers that replace it ----------------------------------------------
def test_a_before_trigger_keeps_a_player_in_once():
    edition = example("nine_lives")
    state = laid_out(edition, 3, {0: ["tacocat"], 1: ["skip"], 2: ["skip"]},
                     ["exploding_kitten", "beard_cat", "cattermelon"])
    take(state, "draw")
    assert state.table.alive[0] and "kept_in" in kinds(state)
    assert state.table.counters["lives"] == [0, 1, 1]
    assert sum(c.id == "exploding_kitten" for c in state.table.draw_pile.cards) == 1


def test_a_before_trigger_on_a_draw_stops_its_on_draw(tmp_path):
    edition = house(tmp_path, """triggers:
  - id: dud
    on: card_drawn
    at: before
    text: An Exploding Kitten drawn on the first turn of the game is a dud and goes to the bottom.
    if: turn_number() == 1 and title(this) == "exploding_kitten"
    effect: |
      cancel()
      move(this, draw_pile, at=count(draw_pile))
""")
    state = laid_out(edition, 3, {0: ["tacocat"]}, ["exploding_kitten", "beard_cat"])
    take(state, "draw")
    assert state.table.alive[0] and "draw_cancelled" in kinds(state)
    assert [c.id for c in state.table.draw_pile.cards] == ["beard_cat", "exploding_kitten"]
    take(state, "draw", "draw")  # seats 1 and 2: the second turn's kitten goes off
    assert state.table.alive[2] is False


def test_an_after_answer_runs_once_the_moment_and_its_triggers_are_over():
    state = laid_out(example("inheritance"), 3, {0: ["skip"], 1: ["tacocat"], 2: ["inheritance"]},
                     ["exploding_kitten", "cattermelon"])
    take(state, "draw")
    assert state.table.alive[0] is False  # already out when seat 2 is asked
    assert state.decision().seat == 2 and state.decision().info["answering"]["at"] == "after"
    take(state, "play inheritance")
    assert [c.id for c in state.table.hands[2].cards] == ["skip"]


# -- the checker ----------------------------------------------------------------------
@pytest.mark.parametrize("body, code, words", [
    ("""triggers:
  - id: early
    on: turn_start
    at: before
    text: x
    effect: cancel()
""", "bad-value", "only player_out and card_drawn"),
    ("""define_cards:
  - id: grab
    title: Grab
    tags: [action]
    text: x
    when: own_turn
    answers: [{on: player_out}]
    effect: draw(me)
add_cards: {grab: 1}
""", "bad-value", "never lets it be played in answer"),
    ("""define_cards:
  - id: grab
    title: Grab
    tags: [action]
    text: x
    when: reaction
    answers: [{on: card_enters}]
    effect: draw(me)
add_cards: {grab: 1}
""", "missing-key", "watches one zone"),
])
def test_the_checker_refuses_moments_that_cannot_be_met(tmp_path, body, code, words):
    path = tmp_path / "house.yaml"
    from test_phases import HOUSE
    path.write_text(HOUSE + body, encoding="utf-8")
    found = [d for d in validate_paths([str(path)]).diagnostics if d.code == code]
    assert found and words in found[0].message, [d.render() for d in validate_paths([str(path)]).diagnostics]


def test_cancel_in_an_after_trigger_is_refused_as_before(tmp_path):
    """cancel() answers something: in a trigger that runs after its moment there is nothing
    left to cancel, and the checker says so as it always has."""
    path = tmp_path / "house.yaml"
    from test_phases import HOUSE
    path.write_text(HOUSE + """triggers:
  - id: late
    on: player_out
    text: x
    effect: cancel()
""", encoding="utf-8")
    assert any(d.code for d in validate_paths([str(path)]).diagnostics if d.severity == "error")


# -- whole games ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["bodyguard", "nine_lives", "inheritance"])
@pytest.mark.parametrize("players", [2, 4])
def test_random_games_finish_and_conserve_cards(name, players):
    game = Game(example(name), players)
    for seed in range(6):
        state = game.new_state(seed)
        total = sum(len(zone.cards) for zone in state.table.zones())
        while not state.is_terminal():
            options = state.legal_actions()
            state.apply_action(options[(seed * 7 + state.decisions) % len(options)])
        assert sum(len(zone.cards) for zone in state.table.zones()) == total
        assert state.table.end_reason in ("last_standing",), state.table.end_reason


# -- words at the table ---------------------------------------------------------------------
@pytest.mark.parametrize("name, hands, pile, steps, viewer, expected", [
    ("bodyguard", {0: ["skip"], 1: ["bodyguard"]}, ["exploding_kitten"], ["draw"], 1,
     "Seat 0 drew a card, which has not taken effect yet. Answer it?"),
    ("inheritance", {0: ["skip"], 2: ["inheritance"]}, ["exploding_kitten"], ["draw"], 2,
     "Seat 0 went out. Answer it?"),
])
def test_the_web_table_words_a_moment_being_answered(name, hands, pile, steps, viewer, expected):
    from kittens.web.words import Words

    edition = example(name)
    state = laid_out(edition, 3, hands, pile)
    take(state, *steps)
    words = Words(edition, ["person"] * 3)
    assert words.question(state.decision(), viewer) == expected
    window = next(e for e in reversed(state.events) if e["type"] == "window")
    assert words.round_question(window, 0).startswith("You ")  # seat 0 reads its own moment as "you"


def test_the_web_table_words_a_player_kept_in():
    from kittens.web.words import Words

    edition = example("nine_lives")
    state = laid_out(edition, 3, {0: ["tacocat"]}, ["exploding_kitten", "beard_cat"])
    take(state, "draw")
    kept = next(e for e in state.events if e["type"] == "kept_in")
    assert Words(edition, ["person"] * 3).event(kept, 1) == "Seat 0 stays in the game!"
    assert Words(edition, ["person"] * 3).event(kept, 0) == "You stay in the game!"


def test_a_shared_zone_moment_is_about_whose_turn_it_was_as_the_card_moved(tmp_path):
    """A defused kitten going back ends its player's turn: its `card_enters draw_pile`
    moment still concerns the defuser (before: the next player, as the second probe found)."""
    edition = house(tmp_path, """counters:
  tucked: {}
triggers:
  - id: tuck
    on: card_enters
    zone: draw_pile
    text: Whoever puts a card back into the draw pile scores a point.
    effect: add_counter("tucked", 1)
""")
    state = laid_out(edition, 3, {0: ["defuse"]}, ["exploding_kitten", "cattermelon"])
    take(state, "draw", 0)
    assert state.table.current == 1 and state.table.counters["tucked"] == [1, 0, 0]


ANY_TIME = """define_cards:
  - id: rise
    title: Rise
    tags: [action]
    text: A player who is out may play this at the start of any turn, or in answer to any card, to come back.
    when: reaction
    who: out
    answers: [{on: play}, {on: turn_start}]
    effect: revive(me)
"""


@pytest.mark.parametrize("steps", [
    [],                         # the first turn's start: the ghost is asked before seat 0 acts
    ["pass", "play skip"],      # in answer to a card, as a reaction
    ["pass", "draw"],           # at the start of the next turn
])
def test_a_card_that_answers_plays_and_a_moment_lets_a_ghost_act_at_any_time(tmp_path, steps):
    edition = house(tmp_path, ANY_TIME)

    def layout(table):
        for seat, cards in {0: ["skip"], 1: ["tacocat"], 2: ["rise"]}.items():
            for card_id in cards:
                table.new_card(edition.cards[card_id], table.hands[seat])
        for _ in range(4):
            table.new_card(edition.cards["beard_cat"], table.draw_pile)
        table.alive[2] = False
        table._orders.clear()
    state = Game(edition, 3).new_state(0, layout=layout)
    take(state, *steps)
    assert state.decision().seat == 2 and state.legal_actions() == ["pass", "play rise"]
    take(state, "play rise")
    assert state.table.alive[2]


@pytest.mark.parametrize("path, sentences", [
    ("examples/house-rules/bodyguard.yaml",
     ["Played only in answer, when a player draws a card, before it takes effect. Nope can cancel it."]),
    ("examples/house-rules/inheritance.yaml", ["Played only in answer, when a player goes out."]),
    ("examples/house-rules/nine_lives.yaml",
     ["Just before a player goes out (by any card or rule), if that player's “lives” count is more than 0: "
      "that player does not go out."]),
    ("examples/house-rules/muzzle.yaml", ["An effect may spend a card (as the Defuse a kitten looks for) only if"]),
    ("examples/probe2/round2/last_gasp.yaml", ["When a player draws a card, before it takes effect, if"]),
])
def test_the_rulesheet_words_moments_answers_and_limits_on_spending(path, sentences):
    from kittens.interpreter.words.rulesheet import render_rulesheet

    text = render_rulesheet(load_edition(str(ROOT / path)), 4)
    for sentence in sentences:
        assert sentence in text, sentence
    assert "Bodyguard can also cancel it" not in text  # a moment's answer never cancels a card


# -- hostile uses end, with a clear error where they cannot ---------------------------------
def test_a_replacement_that_replaces_itself_applies_once(tmp_path):
    """Instead of going out, go out: the elimination its own effect makes is not met again
    (it looped until Python's recursion limit)."""
    edition = house(tmp_path, """triggers:
  - id: again
    on: player_out
    at: before
    text: Instead of going out, go out.
    effect: |
      cancel()
      eliminate(me)
""")
    state = laid_out(edition, 3, {0: ["tacocat"]}, ["exploding_kitten", "beard_cat"])
    take(state, "draw")
    assert state.table.alive == [False, True, True] and "kept_in" not in kinds(state)


def test_a_draw_replaced_by_the_same_draw_stops_with_the_rules_error(tmp_path):
    from kittens.interpreter.lang.errors import GameError

    edition = house(tmp_path, """triggers:
  - id: again
    on: card_drawn
    at: before
    text: Instead of drawing a card, put it back and draw.
    effect: |
      cancel()
      move(this, draw_pile)
      draw(me)
""")
    state = laid_out(edition, 3, {0: ["tacocat"]}, ["beard_cat", "cattermelon"])
    with pytest.raises(GameError, match="draw again 100 times"):
        take(state, "draw")


def test_answers_that_set_each_other_off_end_with_the_cards_held(tmp_path):
    """A card that answers cards entering the discard pile lands there itself when played:
    each answer opens the next window, until nobody holds one."""
    edition = house(tmp_path, """define_cards:
  - id: echo
    title: Echo
    tags: [action]
    text: Play this when a card lands on the discard pile; draw a card.
    when: reaction
    answers: [{on: card_enters, zone: discard_pile}]
    effect: draw(me)
""")
    state = laid_out(edition, 3, {0: ["skip"], 1: ["echo", "echo"], 2: ["echo"]}, ["beard_cat"] * 8)
    take(state, "play skip")
    played = 0
    while state.decision().kind == "answer":
        take(state, state.legal_actions()[1])
        played += 1
    assert played == 3 and not any(c.id == "echo" for h in state.table.hands for c in h.cards)


@pytest.mark.parametrize("effect", ["draw(answered_player())", "draw(next_player(after=answered_player()))"])
def test_answered_player_outside_an_answer_is_nobody_and_does_nothing(tmp_path, effect):
    """Found by the generated-rules fuzzer: a card played on its own turn answers nothing,
    and what takes answered_player() then does nothing (it stopped with a TypeError)."""
    edition = house(tmp_path, f"""define_cards:
  - id: odd
    title: Odd
    tags: [action]
    text: Generated.
    when: own_turn
    effect: {effect}
add_cards: {{odd: 1}}
""")
    state = laid_out(edition, 3, {0: ["odd"]}, ["tacocat", "beard_cat"])
    take(state, "play odd")
    assert [len(h.cards) for h in state.table.hands] == [0, 0, 0]
