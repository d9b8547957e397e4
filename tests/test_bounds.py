"""Effects that would hang a game or fill the memory end it with a clear error instead.

A file that checks clean can still ask for too much: numbers that double
thirty times, loops nested seven deep over the draw pile, drawn cards that
make their drawer draw in a branching tree. Play bounds both numbers and work
(interpreter/cost.py): going over either raises ``RuleRuntimeError`` naming
the card and the file and line that define it, and the command line reports it
and exits with status 1. Primitives clamp or ignore arguments that would break
the table (a negative number of turns, a player who is out of the game).

Each test builds a small house rule on the Original in ``tmp_path``; games are
set up by hand (the layout) so the card under test is in hand.
"""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from kittens.interpreter.engine import game as game_module
from kittens.interpreter.engine.game import Game, RuleRuntimeError
from kittens.interpreter.engine.simulate import run_games
from kittens.interpreter.lang import cost
from kittens.interpreter.lang.compiler import compile_expression
from kittens.interpreter.lang.parser import parse_expression, parse_program
from kittens.interpreter.lang.primitives import PRIMITIVES
from kittens.interpreter.lang.syntax import IntLit
from kittens.interpreter.rules.catalog import catalog
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import load_edition

ROOT = Path(__file__).resolve().parent.parent
ORIGINAL = ROOT / "editions" / "original.yaml"
MAX_SECONDS = 10  # a hang, not slowness, fails these


def house_rule(folder: Path, cards: dict, extra: str = "", copies: int = 2) -> Path:
    """A house rule on the Original adding ``cards`` (id -> effect), ``copies`` each."""
    defined = "".join(f"""
  - id: {card_id}
    title: {card_id.title()}
    text: A card.
    when: own_turn
    effect: |
{textwrap.indent(textwrap.dedent(effect).strip(), "      ")}""" for card_id, effect in cards.items())
    path = folder / "hostile.yaml"
    path.write_text(f"""format: 1
kind: edition
id: hostile
name: Hostile
extends: {ORIGINAL}
define_cards:{defined}
add_cards: {{{", ".join(f"{card_id}: {copies}" for card_id in cards)}}}
{extra}""", encoding="utf-8")
    return path


def card_line(path: Path, card_id: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if line.strip() == f"- id: {card_id}")


def table_with(hands: dict, pile: list, owed: int = 1):
    """A layout: these hands and this draw pile, seat 0 to play."""
    def layout(table):
        cards = table.edition.cards
        for seat, ids in hands.items():
            for card_id in ids:
                table.new_card(cards[card_id], table.hands[seat])
        for card_id in pile:
            table.new_card(cards[card_id], table.draw_pile)
        table.owed[0] = owed
        table.attacked[0] = owed > 1
    return layout


def start(path: Path, hands: dict, pile: list, players: int = 3, owed: int = 1):
    state = Game(load_edition(str(path)), players).new_state(0, layout=table_with(hands, pile, owed))
    return state


def play_until_error(state, first: str | None = None, limit: int = 100_000) -> RuleRuntimeError:
    """Take ``first``, then answer every decision with its first option until the rules
    break down."""
    begun = time.perf_counter()
    with pytest.raises(RuleRuntimeError) as caught:
        if first is not None:
            state.apply_action(first)
        for _ in range(limit):
            if state.is_terminal():
                break
            state.apply_action(state.legal_actions()[0])
    assert time.perf_counter() - begun < MAX_SECONDS
    return caught.value


def conserved(state, total: int) -> None:
    for zone in state.table.zones():
        for inst in zone.cards:
            assert inst.zone is zone
    assert sum(len(zone.cards) for zone in state.table.zones()) == total


SQUARES = "\n".join(["let a0 = 1000000 * 1000000"] + [f"let a{i} = a{i - 1} * a{i - 1}" for i in range(1, 31)]
                    + ["end_turn(a30 - a30)"])
SEVEN_LOOPS = "\n".join("  " * i + f"for c{i} in draw_pile {{" for i in range(7)) + "\n" + \
    "  " * 7 + "reveal(c6)\n" + "\n".join("  " * i + "}" for i in reversed(range(7)))


# -- numbers -------------------------------------------------------------------
def test_thirty_chained_squares_stop_the_game_naming_the_card(tmp_path):
    path = house_rule(tmp_path, {"bomb": SQUARES})
    state = start(path, {0: ["bomb"]}, ["tacocat"] * 5)
    begun = time.perf_counter()
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("play bomb")
        while not state.is_terminal():  # the Nope window, if any
            state.apply_action(state.legal_actions()[0])
    assert time.perf_counter() - begun < 1
    message = str(caught.value)
    assert f"card 'bomb' ({path}:{card_line(path, 'bomb')})" in message
    assert "1,000,000,000,000" in message and "1,000,000,000" in message


@pytest.mark.parametrize("effect, breaks", [
    ("end_turn(1000000000 - 999999999)", False),
    ("let n = 0 - 1000000000\nend_turn(n + 1000000000 + 1)", False),  # the limit holds both ways
    ("let n = 0 - 1000000000 - 1\nend_turn()", True),
    ("let n = -1000000000\nend_turn(n + 1000000000 + 1)", False),  # a minus sign is `0 -`
    ("let n = -1000000000 - 1\nend_turn()", True),
    ("let n = -(1000000000 + 1)\nend_turn()", True),
    ("let n = 1000000000 + 1\nend_turn()", True),
    ("let n = 1000000000 * 2 / 4\nend_turn()", True),  # each step is checked, not just the result
    ("let n = 1000000000 / 0\nend_turn(n)", False),  # dividing by zero gives 0 (documented)
])
def test_the_number_limit_is_exact(tmp_path, effect, breaks):
    path = house_rule(tmp_path, {"sum_card": effect})
    state = start(path, {0: ["sum_card"]}, ["tacocat"] * 5)
    if breaks:
        with pytest.raises(RuleRuntimeError, match="beyond the largest number"):
            state.apply_action("play sum_card")
    else:
        state.apply_action("play sum_card")
        assert state.table.current == 1


def test_a_rule_value_beyond_the_limit_stops_the_card_that_reads_it(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(f"format: 1\nkind: edition\nid: big\nname: Big\nextends: {ORIGINAL}\n"
                    "set_params: {attack_turns: 5000000000}\n", encoding="utf-8")
    warnings = [d for d in validate_paths([str(path)]).diagnostics if d.code == cost.MAY_OVERFLOW]
    assert [(d.path, d.line, d.column) for d in warnings] == [(str(path), 6, 28)]
    state = start(path, {0: ["attack"]}, ["tacocat"] * 5)
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("play attack")
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
    assert "card 'attack' (" in str(caught.value) and "rules.attack_turns is 5,000,000,000" in str(caught.value)


OVERFLOW = "100000 * 100000"  # worked out in play: beyond the number limit


@pytest.mark.parametrize("patch, named, hands, action", [
    (f"patch_cards:\n  skip:\n    effect: 'let a = {OVERFLOW}'", "card 'skip'", {0: ["skip"]}, "play skip"),
    (f"patch_cards:\n  skip:\n    requires: '{OVERFLOW} > 0'", "card 'skip'", {0: ["skip"]}, None),
    (f"patch_cards:\n  tacocat:\n    on_draw: 'let a = {OVERFLOW}'", "card 'tacocat'", {0: ["skip"]}, "draw"),
    (f"patch_combos:\n  two_of_a_kind:\n    effect: 'let a = {OVERFLOW}'", "combo 'two_of_a_kind'",
     {0: ["tacocat", "tacocat"], 1: ["skip"]}, "combo two_of_a_kind tacocat"),
    ("replace_cards:\n  - id: skip\n    title: Skip\n    text: A card.\n    when: own_turn\n"
     f"    effect: 'let a = {OVERFLOW}'", "card 'skip'", {0: ["skip"]}, "play skip"),
], ids=["card effect", "card requires", "card on_draw", "combo effect", "card replaced"])
def test_an_error_in_a_patched_part_names_the_house_rule_line_that_wrote_it(tmp_path, patch, named, hands,
                                                                           action):
    """The shipped card's line was named (<kittens>/rulebook/original.yaml:96) though the
    effect that broke was the house rule's."""
    path = tmp_path / "patched.yaml"
    path.write_text(f"format: 1\nkind: edition\nid: patched\nname: Patched\nextends: {ORIGINAL}\n{patch}\n",
                    encoding="utf-8")
    line = len(path.read_text(encoding="utf-8").splitlines())  # the patched part is the last line
    if "replace_cards" in patch:  # a card defined anew is named by its own entry
        line -= 4
    with pytest.raises(RuleRuntimeError) as caught:
        state = start(path, hands, ["tacocat"] * 5)
        state.apply_action(action)
    assert str(caught.value).startswith(f"{named} ({path}:{line}): a calculation gave 10,000,000,000"), \
        str(caught.value)


def test_a_setup_count_beyond_the_limit_stops_setup_naming_the_step():
    edition = load_edition(str(ORIGINAL))
    index = next(i for i, step in enumerate(edition.setup) if step.kind == "deal" and not step.cards)
    steps = list(edition.setup)  # built by hand: the dry run refuses such a file (see tests/broken)
    steps[index] = dataclasses.replace(steps[index], count=parse_expression("players * 600000000"))
    game = Game(dataclasses.replace(edition, setup=tuple(steps)), 2)
    with pytest.raises(RuleRuntimeError) as caught:
        game.new_state(0)
    assert f"setup step {index + 1} ({steps[index].origin})" in str(caught.value)
    assert "1,200,000,000" in str(caught.value)


def test_a_literal_beyond_the_limit_built_by_hand_is_refused_in_play():
    code = compile_expression(IntLit(0, 10 ** 12), where="card 'x' (x.yaml:3)")
    with pytest.raises(RuleRuntimeError, match=r"card 'x' \(x.yaml:3\): it writes the number 1,000,000,000,000"):
        code.fn(None)


# -- work ----------------------------------------------------------------------
def test_seven_nested_loops_over_the_pile_stop_within_the_budget(tmp_path):
    path = house_rule(tmp_path, {"bomb": SEVEN_LOOPS})
    state = start(path, {0: ["bomb"]}, ["tacocat"] * 40)
    error = play_until_error(state, "play bomb")
    assert f"card 'bomb' ({path}:{card_line(path, 'bomb')})" in str(error)
    assert f"more than {cost.STEP_BUDGET:,} steps" in str(error)


def test_drawn_cards_drawing_in_a_branching_tree_stop_within_the_budget(tmp_path):
    """Each draw of the echo draws it twice more, forty levels deep: 2^40 draws, each
    level far under the draw nesting limit. One budget covers everything a draw sets off."""
    echo = """
        if count(removed) < 40 {
          move(top(hand(me)), removed)
          move(this, draw_pile)
          draw(me)
          move(this, draw_pile)
          draw(me)
          move(top(removed), hand(me))
        }"""
    path = _echo(tmp_path, echo)
    state = start(path, {0: ["tacocat"] * 45}, ["echo"] + ["tacocat"] * 5)
    error = play_until_error(state)
    assert f"card 'echo' ({path}:" in str(error) and f"more than {cost.STEP_BUDGET:,} steps" in str(error)


def _echo(folder: Path, on_draw: str) -> Path:
    path = folder / "echo.yaml"
    path.write_text(f"""format: 1
kind: edition
id: echo
name: Echo
extends: {ORIGINAL}
define_cards:
  - id: echo
    title: Echo
    text: A card.
    when: never
    on_draw: |
{textwrap.indent(textwrap.dedent(on_draw).strip(), "      ")}
add_cards: {{echo: 1}}
""", encoding="utf-8")
    return path


@pytest.mark.parametrize("loops", [1, 4, 7])
def test_drawn_cards_drawing_inside_loops_stop_before_the_stack_runs_out(tmp_path, loops):
    """Each level of the draw runs inside loops inside the draw before: Python's stack used
    to run out (a RecursionError) before the draw nesting limit was reached."""
    inner = "move(this, draw_pile)\ndraw(me)"
    for level in range(loops):
        inner = f"for x{level} in hand(me) {{\n  if true {{\n{inner}\n  }}\n}}"
    path = _echo(tmp_path, inner)
    state = start(path, {0: ["tacocat"]}, ["echo"] + ["tacocat"] * 5)
    error = play_until_error(state, "draw")
    assert f"'echo' ({path}:" in str(error) and "draw again" in str(error)


def test_loops_that_wait_for_answers_still_stop(tmp_path):
    """Every step of the loop asks a question: the budget counts the steps, not the time."""
    effect = """
        for a in draw_pile {
          for b in draw_pile {
            for c in draw_pile {
              if ask("Go on?") { reveal(c) }
            }
          }
        }"""
    path = house_rule(tmp_path, {"asker": effect})
    state = start(path, {0: ["asker"]}, ["tacocat"] * 56)
    error = play_until_error(state, "play asker", limit=200_000)
    assert "card 'asker'" in str(error) and "steps" in str(error)


def test_the_budget_is_refilled_for_each_action(tmp_path, monkeypatch):
    """A card that takes about 65,600 steps (each reveal walks its card) can be played three
    times in one turn under a budget of 70,000 (but not once under 60,000): each action gets
    the whole budget."""
    effect = "for a in draw_pile {\n  for b in draw_pile {\n" + "    reveal(b)\n" * 20 + "  }\n}"
    path = house_rule(tmp_path, {"heavy": effect})
    monkeypatch.setattr(game_module, "STEP_BUDGET", 70_000)
    state = start(path, {0: ["heavy"] * 3}, ["tacocat"] * 40)
    for _ in range(3):
        state.apply_action("play heavy")
    assert state.table.current == 0 and not state.table.hands[0].cards
    monkeypatch.setattr(game_module, "STEP_BUDGET", 60_000)
    state = start(path, {0: ["heavy"]}, ["tacocat"] * 40)
    with pytest.raises(RuleRuntimeError, match="card 'heavy'"):
        state.apply_action("play heavy")


@pytest.mark.parametrize("effect, steps", [
    # each inner pass: its weight (the pass and the call) and the one card reveal walks
    ("for a in draw_pile {\n  for b in draw_pile {\n    reveal(b)\n  }\n}", 2 + 40 * (1 + 40 * (2 + 1))),
    # the aggregate's value (two calls and the pass) for each card, and tagged's walk of the pile
    ('let n = sum(count(tagged(draw_pile, "cat")) for c in draw_pile)', 2 + 40 * 3 + 40 * 40),
    # the effect's weight counts top, which gives five cards; each pass reveals one
    ("for c in top(draw_pile, 5) { reveal(c) }", 3 + 5 + 5 * (2 + 1)),
    # a hand of 40 moved at once: a step per card, and the hand walked once
    ("move(hand(me), discard_pile)", 4 + 40 * 2),
    # one by one: each card a step, and the hand it leaves each time
    ("discard(hand(me))", 4 + 40 * (1 + 40)),
    # two lists of 40 compared, each made by walking the pile; top gives one card, reveal walks it
    ('if tagged(draw_pile, "cat") == filter(c for c in draw_pile) { reveal(top(draw_pile)) }',
     5 + 40 + 40 + 40 + 1 + 1),
], ids=["nested loops", "tagged in a sum", "top in a loop", "a hand moved", "a hand discarded",
        "lists compared"])
def test_what_play_charges_is_what_the_validator_estimates(tmp_path, effect, steps):
    """With every zone as full as the estimate assumes, the charge is the estimate exactly."""
    effect += '\nask("done?")'
    pile = 40
    estimate = cost.Estimate(cost.Limits(cards=pile, players=3), {"draw_pile": "zone", "me": "player",
                                                                   "discard_pile": "zone"})
    estimate.program(parse_program(effect))
    path = house_rule(tmp_path, {"walk": effect})
    hand = ["tacocat"] * pile if "hand(me)" in effect else []  # as full as the deck, once walk is played
    state = start(path, {0: ["walk", *hand]}, ["tacocat"] * pile)
    before = state.budget  # (offering the combos a hand of cats makes walks the other players)
    state.apply_action("play walk")
    assert state.decision().kind == "ask"  # still inside the play: nothing refilled the budget
    assert before - state.budget == estimate.steps == steps


def test_no_shipped_edition_comes_near_the_budget(monkeypatch):
    """Every shipped edition, expansion and variant plays with a twentieth of the budget."""
    monkeypatch.setattr(game_module, "STEP_BUDGET", cost.STEP_BUDGET // 20)
    editions = ROOT / "editions"
    for entry in catalog([str(editions)]):
        edition = load_edition(str(editions / os.path.basename(entry["path"])), entry.get("variant"))
        game = Game(edition, entry["players"][1])
        for bots in ("random", "heuristic"):
            run_games(game, games=3, seed=0, bots=[bots])


# -- primitives keep the table sound ---------------------------------------------
def test_bottom_with_more_than_the_list_gives_the_whole_list(tmp_path):
    bottom = PRIMITIVES["bottom"].impl
    assert bottom(None, [1, 2, 3], 5) == [1, 2, 3]  # was [2, 3]
    assert bottom(None, [1, 2, 3], 2) == [2, 3]
    assert bottom(None, [1, 2, 3], 0) == [] and bottom(None, [1, 2, 3], -4) == []
    path = house_rule(tmp_path, {"grab": "move(bottom(draw_pile, 5), hand(me))"})
    state = start(path, {0: ["grab"]}, ["tacocat", "beard_cat", "cattermelon"])
    state.apply_action("play grab")
    assert sorted(inst.id for inst in state.table.hands[0].cards) == ["beard_cat", "cattermelon", "tacocat"]


def test_top_with_no_or_too_many_cards(tmp_path):
    top = PRIMITIVES["top"].impl
    assert top(None, [1, 2, 3], 5) == [1, 2, 3] and top(None, [1, 2, 3], 0) == []
    assert top(None, [1, 2, 3], -2) == []


@pytest.mark.parametrize("turns", ["0", "0 - 3"])
def test_end_turn_with_a_number_below_one_ends_one_turn(tmp_path, turns):
    path = house_rule(tmp_path, {"stop": f"end_turn({turns})"})
    state = start(path, {0: ["stop", "stop"]}, ["tacocat"] * 5, owed=2)
    state.apply_action("play stop")
    assert state.table.owed[0] == 1 and state.table.current == 0  # one of the two owed turns ended
    state.apply_action("play stop")
    assert state.table.current == 1  # and no free turns: the second ends the last


@pytest.mark.parametrize("turns, announced, owed, attacked", [
    ("0 - 5", 0, 1, 1), ("0", 0, 1, 1), ("3", 3, 3, 1),
    ("0 - 5", 3, 3, 3), ("2", 5, 5, 3),  # under attack, the three turns the attacker owed are passed on
])
def test_attack_with_a_negative_number_adds_no_turns_and_owes_none_below_zero(tmp_path, turns, announced,
                                                                              owed, attacked):
    """The effect looks at what the victim owes right after the attack (before their turn
    starts, which would make up for a negative count) and wins if it is below zero."""
    effect = f"let v = next_player()\nattack(v, {turns})\nif owed(v) < 0 {{ win(me) }}"
    path = house_rule(tmp_path, {"poke": effect})
    state = start(path, {0: ["poke"]}, ["tacocat"] * 5, owed=attacked)
    state.apply_action("play poke")
    assert not state.is_terminal()
    assert [e["owed"] for e in state.events if e["type"] == "attacked"] == [announced]
    assert min(state.table.owed) >= 0
    assert state.table.current == 1 and state.table.owed[1] == owed


def test_a_player_who_is_out_cannot_win(tmp_path):
    path = house_rule(tmp_path, {"fluke": "eliminate(me)\nwin(me)"})
    state = start(path, {0: ["fluke"]}, ["tacocat"] * 5)
    state.apply_action("play fluke")
    assert not state.is_terminal() and state.winner is None and state.winners == ()
    assert state.table.alive == [False, True, True] and state.table.current == 1


def test_a_player_who_is_out_cannot_be_attacked_or_draw(tmp_path):
    effect = "let v = next_player()\neliminate(v)\nattack(v, 2)\ndraw(v)"
    path = house_rule(tmp_path, {"curse": effect})
    state = start(path, {0: ["curse"]}, ["tacocat"] * 5)
    state.apply_action("play curse")
    table = state.table
    assert table.alive == [True, False, True]
    assert table.owed[1] == 0 and not table.hands[1].cards and len(table.draw_pile.cards) == 5
    assert table.current == 0 and not table.turn_ended  # the attack did nothing: still seat 0's turn


@pytest.mark.parametrize("effect", [
    "move(hand(me), hand(choose_player(with_cards(others()))))",  # nobody else holds a card
    "draw(next_player(played_by(random_card(draw_pile))))",  # a card nobody has played
    "attack(next_player(played_by(random_card(draw_pile))), 2)\nwin(next_player(played_by(random_card(draw_pile))))",
])
def test_a_player_or_zone_worked_out_from_nobody_does_nothing(tmp_path, effect):
    path = house_rule(tmp_path, {"odd": effect})
    state = start(path, {0: ["odd", "tacocat"]}, ["tacocat"] * 5)
    state.apply_action("play odd")
    assert [len(hand.cards) for hand in state.table.hands] == [1, 0, 0]
    assert len(state.table.draw_pile.cards) == 5 and state.table.current == 0 and not state.is_terminal()


def test_moves_past_either_end_of_a_zone_land_at_that_end(tmp_path):
    path = house_rule(tmp_path, {"tuck": "move(find(hand(me), \"beard_cat\"), draw_pile, at=1000000)\n"
                                         "move(find(hand(me), \"cattermelon\"), draw_pile, at=0 - 5)"})
    state = start(path, {0: ["tuck", "beard_cat", "cattermelon"]}, ["tacocat"] * 3)
    state.apply_action("play tuck")
    pile = [inst.id for inst in state.table.draw_pile.cards]
    assert pile == ["cattermelon", "tacocat", "tacocat", "tacocat", "beard_cat"]


def test_rearrange_leaves_cards_that_moved_away_alone(tmp_path):
    effect = "let t = top(draw_pile, 3)\nmove(top(t), hand(me))\nshow(t, me)\nrearrange(t)"
    path = house_rule(tmp_path, {"shuffle_two": effect})
    state = start(path, {0: ["shuffle_two"]}, ["tacocat", "beard_cat", "cattermelon", "skip"])
    state.apply_action("play shuffle_two")
    while state.decision().kind != "rearrange":
        state.apply_action(state.legal_actions()[0])
    assert state.decision().info["cards"] == ["beard_cat", "cattermelon"]
    state.apply_action([1, 0])
    assert [inst.id for inst in state.table.draw_pile.cards] == ["cattermelon", "beard_cat", "skip"]
    conserved(state, 5)


def test_rearranging_more_than_six_cards_is_an_error(tmp_path):
    path = house_rule(tmp_path, {"sort_all": "show(top(draw_pile, 7), me)\nrearrange(top(draw_pile, 7))"})
    state = start(path, {0: ["sort_all"]}, ["tacocat"] * 8)
    with pytest.raises(RuleRuntimeError) as caught:
        state.apply_action("play sort_all")
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
    assert f"card 'sort_all' ({path}:" in str(caught.value) and "at most 6" in str(caught.value)


# -- the command line ----------------------------------------------------------
def _kittens(*args, timeout: float = 120) -> subprocess.CompletedProcess:
    try:
        result = subprocess.run([sys.executable, "-m", "kittens", *map(str, args)], capture_output=True,
                                text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"`kittens {' '.join(map(str, args))}` did not finish in {timeout}s")
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    return result


@pytest.mark.parametrize("command", ["run", "bench"])
@pytest.mark.parametrize("effect, words", [(SQUARES, "beyond the largest number"),
                                           (SEVEN_LOOPS, "steps")])
def test_kittens_run_and_bench_report_the_error_and_exit_1(tmp_path, command, effect, words):
    path = house_rule(tmp_path, {"bomb": effect}, copies=20)
    rounds = ["--rounds", "1"] if command == "bench" else []
    result = _kittens(command, path, "-p", "3", "-g", "20", *rounds)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"kittens {command}: the rules broke down in play: card 'bomb' (" in result.stderr
    assert words in result.stderr


def test_kittens_test_reports_the_error_and_exits_1(tmp_path):
    path = house_rule(tmp_path, {"bomb": SEVEN_LOOPS})
    scenario = tmp_path / "bomb_test.yaml"
    scenario.write_text("""format: 1
kind: scenario
description: The bomb walks the pile seven times over.
edition: hostile.yaml
players: 3
hands: {0: [bomb]}
draw_pile: [tacocat, tacocat, tacocat, tacocat, tacocat, tacocat, tacocat, tacocat, tacocat, tacocat]
steps:
  - {seat: 0, do: play bomb}
expect:
  turn: 1
""", encoding="utf-8")
    assert path.exists()
    result = _kittens("test", scenario)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the rules broke down in play: card 'bomb' (" in result.stdout + result.stderr


def test_kittens_rules_on_chained_squares_is_quick_and_small(tmp_path):
    """Reading each `let` in place used to double the words thirty times (gigabytes)."""
    path = house_rule(tmp_path, {"bomb": SQUARES})
    # the peak is read from /proc (VmHWM, this process's own address space): ru_maxrss keeps
    # the peak of the process it was forked from, so a large pytest would be measured instead
    script = ("import resource, sys; from kittens.cli import app\n"
              "sys.argv = ['kittens', 'rules', sys.argv[1], '-p', '3']\n"
              "try:\n    app()\nexcept SystemExit as exit:\n    code = exit.code\n"
              "try:\n    peak = next(int(line.split()[1]) for line in open('/proc/self/status')"
              " if line.startswith('VmHWM:'))\n"
              "except OSError:\n    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
              "print('peak', peak, file=sys.stderr)\n"
              "sys.exit(code)\n")
    begun = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True,
                            timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, result.stderr
    assert time.perf_counter() - begun < 30
    peak_kib = int(result.stderr.rsplit("peak", 1)[1])
    assert peak_kib < 300 * 1024, f"`kittens rules` peaked at {peak_kib // 1024} MB"
    assert "### Bomb" in result.stdout and len(result.stdout) < 200_000


@pytest.mark.parametrize("setting, budget", [
    (None, 100_000), ("250000", 250_000), ("1000", 1_000), ("999", 100_000), ("-5", 100_000),
    ("lots", 100_000), ("", 100_000), (" 5000 ", 5_000),
])
def test_kittens_step_budget_sets_a_process_s_budget_when_it_is_a_sensible_number(setting, budget):
    from kittens.interpreter.lang.limits import _step_budget
    assert _step_budget(setting) == budget


TWO_LOOPS_RULE = """\
format: 1
kind: edition
id: two_loops
name: Two Loops
extends: original
set_counts: {nope: 350}
triggers:
  - id: count_twice
    on: turn_start
    text: Count the pile once for every card of it.
    if: sum(sum(1 for a in draw_pile) for b in draw_pile) > 0
    effect: show(top(draw_pile, 1), me)
"""


def test_a_raised_step_budget_reaches_validation_and_play(tmp_path):
    """Set in the environment, the budget is the one the validator warns against and play
    charges: a file over the default budget validates clean and plays under a larger one."""
    import subprocess
    import sys
    rule = tmp_path / "loops.yaml"
    rule.write_text(TWO_LOOPS_RULE)
    env = {key: value for key, value in os.environ.items() if key != "KITTENS_STEP_BUDGET"}
    plain = subprocess.run([sys.executable, "-m", "kittens", "validate", str(rule)], capture_output=True,
                           text=True, env=env)
    raised = subprocess.run([sys.executable, "-m", "kittens", "validate", str(rule)], capture_output=True,
                            text=True, env={**env, "KITTENS_STEP_BUDGET": "100000000"})
    assert "too-much-work" in plain.stdout + plain.stderr, plain.stdout
    assert "too-much-work" not in raised.stdout + raised.stderr, raised.stdout
    first_turns = ("import sys; from kittens import Game, load_edition\n"
                   "state = Game(load_edition(sys.argv[1]), 2).new_state(0)\n"
                   "state.apply_action('draw')\n"
                   "print('played')")
    run = [sys.executable, "-c", first_turns, str(rule)]
    stopped = subprocess.run(run, capture_output=True, text=True, env=env)
    played = subprocess.run(run, capture_output=True, text=True, env={**env, "KITTENS_STEP_BUDGET": "100000000"})
    assert "more than 100,000 steps" in stopped.stderr, stopped.stderr
    assert played.stdout.strip() == "played", played.stderr
