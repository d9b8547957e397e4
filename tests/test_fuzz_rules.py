"""Generated rule files: refused with a position, or played to the end (issue 42).

Hypothesis writes house rules (tests/rulegen.py: a new card with a random `when`,
`requires`, `choose` and effect from the primitive table, a card that plays it
through `play_as`, a trigger at a random moment, a free action), and each is:

- refused by `kittens validate` with every error at a file, line and column, or
- validated, and then played in every context a card can run in: on its own turn,
  in answer to another card, through `play_as`, by the trigger and the free action,
  and in answer by a player who is out (`who:`), to the end or a decision budget, or
  stopped by a GameError that says where (the rule's file and line: the step
  budget, a runaway number).

Never an internal error; cards are conserved throughout. A kept example is a file
that once broke the invariant. ``KITTENS_FUZZ_SCALE`` multiplies the examples
(``KITTENS_FUZZ_SCALE=20 pytest --timeout 0 tests/test_fuzz_rules.py`` for a long run:
pytest-timeout stops a test at ten minutes otherwise).
"""

from __future__ import annotations

import os
import random
import tempfile

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from rulegen import rule_files, written

from kittens.interpreter.engine.game import Game, GameError, RuleRuntimeError
from kittens.interpreter.rules.check import validate_paths
from kittens.interpreter.rules.load import RuleError, load_edition

SCALE = float(os.environ.get("KITTENS_FUZZ_SCALE", "1"))
PLAYERS = 3
DECISIONS = 150  # per game: the invariant is about crashes; long games are other tests'
PILE = ["tacocat", "beard_cat", "exploding_kitten", "cattermelon", "defuse", "nope", "skip",
        "exploding_kitten", "shuffle", "tacocat"]
#: each context: the cards it deals (seat -> cards), seats out, and the options the
#: driver takes first when offered, in order (the rest of the game is played at random)
CONTEXTS = {
    "own turn": ({0: ["fuzz_card", "fuzz_card"]}, [], ["play fuzz_card"]),
    "in answer": ({0: ["attack"], 1: ["fuzz_card"]}, [], ["play attack", "play fuzz_card"]),
    "play_as": ({0: ["copycat"]}, [], ["play copycat"]),
    "free action": ({}, [], ["act fuzz_act"]),
    "trigger": ({}, [], []),  # the trigger runs at its moment in every game; here it alone
    # a player who is out answers with it (a card with `who: out` or `anyone`)
    "by a player who is out": ({0: ["attack"], 2: ["fuzz_card"]}, [2], ["play attack", "play fuzz_card"]),
}
#: what every seat holds besides, so that choices among cards and players have candidates
HANDS = {0: ["defuse", "tacocat"], 1: ["defuse", "nope", "beard_cat"], 2: ["defuse", "skip"]}

#: the crash of issue 42: a card with `when: any_time` and a `choose:` section, played in
#: answer to another card, ran without its own choices (KeyError: 'target')
ANSWER_WITH_CHOICES = """\
format: 1
kind: edition
id: fuzz_rule
name: Fuzz rule
description: A generated house rule.
extends: EXTENDS
add_cards: {fuzz_card: 2, copycat: 1}
define_cards:
  - id: fuzz_card
    title: Fuzz Card
    tags: [action]
    text: Generated.
    when: any_time
    choose:
      target: choose_player(others())
    effect: |
      attack(target, 1)
  - id: copycat
    title: Copycat
    tags: [action]
    text: Does what the Fuzz Card does.
    when: own_turn
    effect: play_as("fuzz_card", this)
actions:
  - id: fuzz_act
    title: Fuzz act
    text: Generated.
    effect: |
      play_as("fuzz_card", hand(me))
"""


def _layout(edition, context: str):
    dealt, out, _prefer = CONTEXTS[context]

    def layout(table) -> None:
        for seat in range(PLAYERS):
            for card in dealt.get(seat, []) + HANDS[seat]:
                table.new_card(edition.cards[card], table.hands[seat])
        for card in PILE:
            table.new_card(edition.cards[card], table.draw_pile)
        for seat in out:
            table.alive[seat] = False
        table.current, table.owed[0] = 0, 1
    return layout


def _positioned(exc: Exception, path: str) -> bool:
    """Whether an engine error names the rule file and a line in it."""
    return f"{os.path.basename(path)}:" in str(exc)


def _play(edition, path: str, context: str, seed: int) -> None:
    """One game of ``context``: preferred options first, then random ones."""
    _dealt, _out, prefer = CONTEXTS[context]
    rng = random.Random(seed)
    try:  # a game_start trigger runs as the game is made
        state = Game(edition, PLAYERS).new_state(seed, layout=_layout(edition, context))
    except (GameError, RuleRuntimeError) as exc:
        assert _positioned(exc, path), f"{context}: an engine error that does not say where: {exc}"
        return
    total = sum(len(zone.cards) for zone in state.table.zones())
    try:
        for _ in range(DECISIONS):
            if state.is_terminal():
                break
            options = state.legal_actions()
            wanted = [o for label in prefer for o in options if o == label]
            state.apply_action(wanted[0] if wanted else rng.choice(options))
    except (GameError, RuleRuntimeError) as exc:
        assert _positioned(exc, path), f"{context}: an engine error that does not say where: {exc}"
    assert sum(len(zone.cards) for zone in state.table.zones()) == total, f"{context}: cards not conserved"


def check_rule_file(text: str, seed: int) -> str:
    """The invariant for one generated file: 'refused' or 'played'."""
    with tempfile.TemporaryDirectory() as folder:
        path = written(folder, text)
        report = validate_paths([path])
        errors = [d for d in report.diagnostics if d.is_error]
        if errors:
            for error in errors:
                assert error.path and error.line >= 1 and error.column >= 1, error
            return "refused"
        try:
            edition = load_edition(path)
        except RuleError as exc:
            raise AssertionError(f"validated, yet refused when loaded:\n{exc}") from None
        for context in CONTEXTS:
            _play(edition, path, context, seed)
    return "played"


@settings(max_examples=int(25 * SCALE), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(generated=rule_files(), seed=st.integers(0, 1000))
@example(generated=(ANSWER_WITH_CHOICES, {"when": "any_time"}), seed=0)
def test_generated_rule_files_are_refused_with_a_position_or_play_to_the_end(generated, seed):
    text, _about = generated
    check_rule_file(text, seed)


def test_the_kept_example_plays_its_card_in_answer():
    """The first kept example is not vacuous: it validates, and its card is played in
    answer to the Attack (the context that crashed)."""
    assert check_rule_file(ANSWER_WITH_CHOICES, 0) == "played"
    with tempfile.TemporaryDirectory() as folder:
        edition = load_edition(written(folder, ANSWER_WITH_CHOICES))
    state = Game(edition, PLAYERS).new_state(0, layout=_layout(edition, "in answer"))
    state.apply_action("play attack")
    assert "play fuzz_card" in state.legal_actions()
    state.apply_action("play fuzz_card")
    assert state.decision().kind == "choose_player"  # the answer's own choice
