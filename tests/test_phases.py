"""Issue 27's constructs: aggregates and assignment, players as values, counters,
phase triggers and games won on points, each with the cases that pin it down."""

from __future__ import annotations

import pytest

from kittens import Game, RuleError, RuleRuntimeError, load_edition
from kittens.interpreter.lang import primitives as P
from kittens.interpreter.lang.checker import CheckEnv, Checker
from kittens.interpreter.lang.compiler import compile_expression
from kittens.interpreter.lang.machine import Ctx
from kittens.interpreter.lang.parser import parse_expression, parse_program

HOUSE = """format: 1
kind: edition
id: phases_test
name: Phases test
extends: original
"""


def house(tmp_path, body: str, name: str = "house.yaml"):
    path = tmp_path / name
    path.write_text(HOUSE + body, encoding="utf-8")
    return load_edition(str(path))


def laid_out(edition, players: int, hands: dict, pile: list, *, owed: int = 1, counters=None, seed=0):
    """A game set up by hand: hands by seat, the draw pile top first."""
    def layout(table):
        for seat, cards in hands.items():
            for card_id in cards:
                table.new_card(edition.cards[card_id], table.hands[seat])
        for card_id in pile:
            table.new_card(edition.cards[card_id], table.draw_pile)
        table.owed[0] = owed
        for name, values in (counters or {}).items():
            table.counters[name][:] = values
    return Game(edition, players).new_state(seed, layout=layout)


def value(state, text: str, me: int = 0):
    code = compile_expression(parse_expression(text), frozenset(), "test")
    return code.fn(Ctx(state, me))


@pytest.fixture(scope="module")
def original():
    return load_edition("original")


@pytest.fixture(scope="module")
def four_hands(original):
    return laid_out(original, 4, {0: ["skip", "tacocat"], 1: ["skip"] * 5, 2: ["nope"] * 5},
                    ["skip"] * 6)


@pytest.mark.parametrize("text, expected", [
    ("sum(count(hand(p)) for p in players())", 12),
    ("sum(count(hand(p)) for p in players() if p != me)", 10),
    ("max(count(hand(p)) for p in others())", 5),
    ("min(count(hand(p)) for p in players())", 0),
    ("count(p for p in players() if count(hand(p)) > 1)", 3),
    ("any(count(hand(p)) == 0 for p in players())", True),
    ("all(count(hand(p)) > 0 for p in players())", False),
    ("most(count(hand(p)) for p in players())", [1, 2]),
    ("least(count(hand(p)) for p in others())", [3]),
    ("filter(p for p in players() if count(hand(p)) == 5)", [1, 2]),
    ("count(c for c in hand(me) if count(tagged(c, \"cat\")) > 0)", 1),
    ("max(count(hand(p)) for p in out_players())", 0),
    ("all(false for p in out_players())", True),
    ("sum(count(hand(p)) * 2 for p in filter(q for q in players() if q != me))", 20),
])
def test_aggregates_walk_their_list(four_hands, text, expected):
    assert value(four_hands, text) == expected


def test_an_aggregates_name_may_not_hide_a_name_in_scope(four_hands, original):
    program = parse_program("let p = 3\nlet n = sum(count(hand(p)) for p in players())")
    # the checker refuses the clash (the name is taken), as it does for `for`
    env = CheckEnv(frozenset(original.cards), None, None)
    assert [f.code for f in Checker(env, P.PLAY, dict(P.BUILTIN_NAMES)).program(program)] == ["redefined-name"]


def test_an_aggregate_charges_each_item_to_the_step_budget(four_hands):
    state = four_hands.clone()
    before = state.budget
    value(state, "sum(count(hand(p)) + count(hand(p)) for p in players())")
    assert before - state.budget == 4 * 5  # (four calls + one) per player walked


def test_assignment_keeps_a_running_best(tmp_path):
    edition = house(tmp_path, """counters:
  best: {start: 0}
triggers:
  - id: measure
    on: game_start
    text: Note the largest hand.
    effect: |
      let best = -1
      for p in players() {
        if count(hand(p)) > best { best = count(hand(p)) }
      }
      set_counter("best", best)
""")
    state = laid_out(edition, 3, {0: ["skip"], 1: ["skip"] * 4, 2: ["nope"] * 2}, ["skip"] * 5)
    assert state.table.counters["best"] == [4, 0, 0]


@pytest.mark.parametrize("effect, code", [
    ("x = 1", "unknown-name"),
    ("me = next_player()", "fixed-name"),
    ("for p in players() { p = me }", "fixed-name"),
    ("let n = 1\nn = true", "type-mismatch"),
    ("let s = sum(count(hand(choose_player(players()))) for p in players())", "not-allowed-here"),
    ("let s = sum(c for c in hand(me))", "type-mismatch"),
    ("let s = average(1 for p in players())", "unknown-aggregate"),
    ("let s = sum(1 for p in 3)", "type-mismatch"),
    ('if choose_title() == "nopee" { end_turn() }', "unknown-card"),
    ('if choose_title() == "nope" { end_turn() }', None),
    ('let n = 0\nfor c in hand(me) { n = n + 1 }\nif n > 2 { end_turn() }', None),
    ('add_counter("points", 1)', "unknown-counter"),
])
def test_the_checker_knows_the_new_constructs(original, effect, code):
    env = CheckEnv(frozenset(original.cards), frozenset(t for c in original.cards.values() for t in c.tags),
                   None, counters=frozenset({"score"}))
    found = [f.code for f in Checker(env, P.PLAY, dict(P.BUILTIN_NAMES)).program(parse_program(effect))
             if f.severity == "error"]
    assert found == ([code] if code else [])


def test_comparing_with_me_compares_with_the_acting_player(four_hands):
    # a compiled `x == me` once compared with an internal marker, never true
    state = four_hands.clone()
    state.table.hands[0].cards[0].played_by = 0
    code = compile_expression(parse_expression("played_by(top(hand(0))) == me"), frozenset(), "test")
    assert code.fn(Ctx(state, 0)) is True
    assert code.fn(Ctx(state, 1)) is False


TURN_COUNTERS = """counters:
  starts: {}
  ends: {}
triggers:
  - {id: first_start, on: turn_start, text: Count starts., effect: 'add_counter("starts", 1)'}
  - {id: then_start, on: turn_start, text: Count again., effect: 'add_counter("starts", 10)'}
  - {id: an_end, on: turn_end, text: Count ends., effect: 'add_counter("ends", 1)'}
"""


def test_turn_triggers_run_for_every_owed_turn_in_file_order(tmp_path):
    edition = house(tmp_path, TURN_COUNTERS)
    state = laid_out(edition, 2, {0: ["defuse"], 1: ["defuse"]}, ["skip"] * 6, owed=2)
    for _ in range(2):  # seat 0 draws twice: two turns of its own
        assert state.current_player() == 0
        state.apply_action("draw")
    assert state.current_player() == 1
    assert state.table.counters == {"starts": [22, 11], "ends": [2, 0]}
    kinds = [(e["type"], e.get("id")) for e in state.events if e["type"] in ("turn", "trigger", "end_turn")]
    assert kinds[:5] == [("turn", None), ("trigger", "first_start"), ("trigger", "then_start"),
                         ("end_turn", None), ("trigger", "an_end")]


def test_a_player_out_can_be_brought_back_by_a_trigger(tmp_path):
    edition = house(tmp_path, """counters:
  lives: {start: 1, min: 0}
triggers:
  - id: second_life
    on: player_out
    text: A player with a life left comes back at once and spends it.
    if: counter("lives") > 0
    effect: |
      revive(me)
      add_counter("lives", 0 - 1)
  - {id: welcome, on: player_back, text: Say so., effect: 'reveal(hand(me))'}
""")
    state = laid_out(edition, 3, {0: ["skip"], 1: ["skip"], 2: ["skip"]}, ["exploding_kitten"] * 3 + ["skip"])
    state.apply_action("draw")  # no Defuse: seat 0 explodes, then comes back
    assert state.table.alive == [True, True, True]
    assert state.table.counters["lives"] == [0, 1, 1]
    kinds = [(e["type"], e.get("id")) for e in state.events if e["type"] in ("out", "trigger", "seat_back")]
    assert kinds == [("out", None), ("trigger", "second_life"), ("seat_back", None), ("trigger", "welcome")]
    assert state.current_player() == 1  # the turn it lost stays lost


@pytest.mark.parametrize("body, words", [
    ("""triggers:
  - id: ping_pong
    on: card_enters
    zone: discard_pile
    text: A card discarded comes straight back.
    effect: move(this, hand(me))
  - id: pong_ping
    on: card_leaves
    zone: hand
    text: A card leaving a hand is discarded.
    effect: move(this, discard_pile)
""", "set each other off"),
    ("""triggers:
  - {id: undying, on: player_out, text: Back at once., effect: revive(me)}
  - {id: unliving, on: player_back, text: Out at once., effect: eliminate(me)}
""", "set each other off"),
])
def test_triggers_that_set_themselves_off_stop_with_an_error_naming_them(tmp_path, body, words):
    edition = house(tmp_path, body)
    state = laid_out(edition, 3, {0: ["skip", "tacocat"], 1: ["skip"], 2: ["skip"]},
                     ["exploding_kitten"] * 2 + ["skip"])
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("play skip" if "ping" in body else "draw")
    message = str(caught.value)
    assert words in message and "house.yaml:" in message and "trigger '" in message


@pytest.mark.parametrize("body, code", [
    ("""triggers:
  - {id: ask_at_end, on: game_end, text: Ask., effect: 'if ask("Again?") { end_turn() }'}
""", "not-allowed-here"),
    ("""triggers:
  - {id: no_zone, on: card_enters, text: Watch., effect: end_turn()}
""", "missing-key"),
    ("""triggers:
  - {id: stray_zone, on: turn_end, zone: discard_pile, text: Watch., effect: end_turn()}
""", "bad-value"),
    ("""triggers:
  - {id: bad_zone, on: card_leaves, zone: discard, text: Watch., effect: end_turn()}
""", "unknown-zone"),
    ("""win:
  score: count(hand(me)) > 2
""", "type-mismatch"),
])
def test_broken_triggers_and_scores_are_reported_at_their_line(tmp_path, body, code):
    with pytest.raises(RuleError) as caught:
        house(tmp_path, body)
    found = caught.value.diagnostics
    assert [d.code for d in found] == [code], [d.render() for d in found]
    assert found[0].path.endswith("house.yaml") and found[0].line > 5


SCORED = """teams: {count: 2}
counters:
  points: {}
win:
  score: counter("points")
  ends_when: "true"
"""


@pytest.mark.parametrize("alive, points, winners", [
    ([True] * 4, [5, 3, 0, 3], [1, 3]),  # a team scores its members' points: 6 beats 5
    ([True, False, True, False], [5, 3, 0, 3], [0, 2]),  # a team with nobody left cannot win
    ([True] * 4, [3, 3, 0, 0], [0, 1, 2, 3]),  # level on points and tie-break: shared
])
def test_teams_score_together(tmp_path, alive, points, winners):
    edition = house(tmp_path, SCORED)

    def layout(table):
        for seat in range(4):
            table.new_card(edition.cards["defuse"], table.hands[seat])
            table.alive[seat] = alive[seat]
        table.new_card(edition.cards["skip"], table.draw_pile)
        table.counters["points"][:] = points
    state = Game(edition, 4).new_state(0, layout=layout)
    assert state.is_terminal()
    assert list(state.winners) == winners
    assert state.returns() == [1.0 if seat in winners else 0.0 for seat in range(4)]
    assert state.scores() == points
    over = [e for e in state.events if e["type"] in ("scores", "game_over")]
    assert over[0] == {"type": "scores", "scores": points} and over[1]["winners"] == winners


def test_counters_are_public_and_copied_with_the_game(tmp_path):
    edition = house(tmp_path, TURN_COUNTERS)
    state = laid_out(edition, 2, {0: ["defuse"], 1: ["defuse"]}, ["skip"] * 6)
    twin = state.clone()
    state.apply_action("draw")
    assert twin.table.counters == {"starts": [11, 0], "ends": [0, 0]}
    assert state.table.counters == {"starts": [11, 11], "ends": [1, 0]}
    for seat in range(2):
        assert state.view(seat).to_dict()["counters"] == state.table.counters
    assert "counters" not in laid_out(load_edition("original"), 2, {}, ["skip"]).view(0).to_dict()


def test_the_example_games_run_to_their_ends(tmp_path):
    """The shipped examples under random play: their triggers fire, nothing breaks."""
    import random
    for path, event in (("examples/house-rules/hand_limit.yaml", "trigger"),
                        ("examples/house-rules/most_cats.yaml", "counter"),
                        ("examples/expansions/zombie_kittens.yaml", "seat_back")):
        game, seen = Game(load_edition(path), 4), 0
        for seed in range(30):
            state, rng = game.new_state(seed), random.Random(seed)
            while not state.is_terminal():
                options = state.legal_actions()
                state.apply_action(options[rng.randrange(len(options))])
            seen += sum(1 for e in state.events if e["type"] == event)
        assert seen > 0, path


def test_a_title_played_as_itself_stops_with_an_error_naming_it(tmp_path):
    edition = house(tmp_path, """define_cards:
  - id: echo
    title: Echo
    tags: [action]
    text: Does what Echo does.
    when: own_turn
    effect: play_as("echo", this)
add_cards:
  echo: 2
""")
    state = laid_out(edition, 2, {0: ["echo"], 1: ["defuse"]}, ["skip"] * 3)
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("play echo")
    assert "nested more than 20" in str(caught.value) and "house.yaml:" in str(caught.value)


def test_a_restriction_limits_answers_too(tmp_path):
    edition = house(tmp_path, """restrictions:
  - id: no_nope_on_skips
    text: A Skip cannot be Noped.
    allows: title(this) != "nope" or title(answered()) != "skip"
""")
    state = laid_out(edition, 2, {0: ["skip", "attack"], 1: ["nope"]}, ["skip"] * 3)
    state.apply_action("play skip")  # nobody may answer: no window question for seat 1
    assert state.current_player() == 1 and state.decision().kind == "action"
    state = laid_out(edition, 2, {0: ["skip", "attack"], 1: ["nope"]}, ["skip"] * 3)
    state.apply_action("play attack")
    assert state.decision().kind == "answer" and "play nope" in state.legal_actions()


EXPANSION = """format: 1
kind: expansion
id: {id}
name: {id}
base: original
patch_combos:
  two_of_a_kind:
    text: {text}
"""


def test_two_expansions_patching_one_combo_differently_conflict(tmp_path):
    first, second = tmp_path / "first.yaml", tmp_path / "second.yaml"
    first.write_text(EXPANSION.format(id="first", text="One way."), encoding="utf-8")
    second.write_text(EXPANSION.format(id="second", text="Another way."), encoding="utf-8")
    with pytest.raises(RuleError) as caught:
        load_edition("original", expansions=(str(first), str(second)))
    found = caught.value.diagnostics
    assert [d.code for d in found] == ["conflict"] and found[0].path.endswith("second.yaml")
    assert "two_of_a_kind.text" in found[0].message and "first.yaml" in found[0].message
    patched = load_edition("original", expansions=(str(first),))
    assert next(c for c in patched.combos if c.id == "two_of_a_kind").text == "One way."


def test_a_free_action_cannot_be_offered_without_bound(tmp_path):
    with pytest.raises(RuleError) as caught:
        house(tmp_path, """actions:
  - id: forever
    title: Again
    text: Do it again.
    per_turn: 100000
    effect: reveal(top(draw_pile))
""")
    found = caught.value.diagnostics
    assert [d.code for d in found] == ["bad-value"] and found[0].line == 10
