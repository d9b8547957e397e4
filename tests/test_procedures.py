"""Procedures (issue 42): named pieces of effect with typed parameters, written out in
every effect that calls them when the edition compiles. What they do when played, that
they never see or change their caller's names, and the files they make refused at the
line of the mistake."""

from __future__ import annotations

from pathlib import Path

import pytest

from kittens import Game, RuleError, load_edition
from kittens.interpreter.lang import syntax as s

ROOT = Path(__file__).resolve().parent.parent

HOUSE = """format: 1
kind: edition
id: procedures_test
name: Procedures test
extends: original
counters:
  points: {text: Points.}
"""

BUMP = """procedures:
  bump:
    text: Give a player some points.
    params: {who: player, by: int}
    effect: add_counter("points", by, who)
  double:
    params: {n: int}
    value: n * 2
"""


def house(tmp_path, body: str):
    path = tmp_path / "house.yaml"
    path.write_text(HOUSE + body, encoding="utf-8")
    return load_edition(str(path))


def points_after_the_deal(edition, players: int = 3) -> list:
    state = Game(edition, players).new_state(1)
    return list(state.table.counters["points"])


def game_start(effect: str) -> str:
    indented = "\n".join("      " + line for line in effect.strip().splitlines())
    return f"""triggers:
  - id: start
    on: game_start
    text: Points at the start.
    effect: |
{indented}
"""


@pytest.mark.parametrize("effect, expected", [
    ("bump(me, 3)", [3, 0, 0]),
    ("for p in players() { bump(p, double(2)) }", [4, 4, 4]),
    # the caller's `n` and `who` are its own: the procedure's parameters are renamed
    ("let n = 5\nlet who = next_player()\nbump(me, 1)\nadd_counter(\"points\", n, who)", [1, 5, 0]),
    ("bump(who=next_player(), by=double(double(1)))", [0, 4, 0]),
])
def test_an_effect_procedure_runs_where_it_is_called(tmp_path, effect, expected):
    edition = house(tmp_path, BUMP + game_start(effect))
    assert points_after_the_deal(edition) == expected


def test_a_value_procedure_with_an_aggregate_does_not_capture_the_callers_loop_name(tmp_path):
    body = """procedures:
  seats_before:
    params: {q: player}
    value: count(filter(p for p in players() if p != q))
""" + game_start('for p in players() { add_counter("points", seats_before(p), p) }')
    assert points_after_the_deal(house(tmp_path, body)) == [2, 2, 2]


def test_the_game_never_sees_a_procedure_call(tmp_path):
    edition = house(tmp_path, BUMP + game_start("bump(me, double(1))"))
    trigger = next(t for t in edition.triggers if t.id == "start")
    called = {n.name for n in s.walk(trigger.effect) if isinstance(n, s.Call)}
    assert called == {"add_counter"}
    assert set(edition.procedures) == {"bump", "double"}


REFUSED = [
    ("calls itself", """procedures:
  again:
    params: {n: int}
    effect: again(n)
""", "procedure-cycle", "again -> again"),
    ("a cycle through another", """procedures:
  ping:
    effect: pong()
  pong:
    effect: ping()
""", "procedure-cycle", "leads back to itself (ping -> pong -> ping)"),
    ("an unknown type", """procedures:
  give:
    params: {who: person}
    effect: add_counter("points", 1, who)
""", "bad-value", "did you mean"),
    ("an argument of the wrong type", BUMP + game_start('bump(me, "lots")'), "type-mismatch", "'by' of bump()"),
    ("a missing argument", BUMP + game_start("bump(me)"), "arity", "needs its 'by' argument"),
    ("a choice given to a value procedure", BUMP + game_start(
        'add_counter("points", double(count(hand(choose_player(others())))))'), "not-allowed-here",
     "`let` its result first"),
    ("an effect procedure used as a value", BUMP + game_start('add_counter("points", bump(me, 1))'),
     "type-mismatch", "gives no value"),
    ("a choice in a card's requires", """procedures:
  pick:
    value: choose_player(others())
define_cards:
  - id: odd
    title: Odd
    text: Odd.
    when: own_turn
    requires: pick() != me
    effect: end_turn()
""", "not-allowed-here", "only queries"),
]


@pytest.mark.parametrize("what, body, code, words", REFUSED, ids=[r[0] for r in REFUSED])
def test_a_broken_procedure_or_call_is_refused_at_its_line(tmp_path, what, body, code, words):
    with pytest.raises(RuleError) as caught:
        house(tmp_path, body)
    found = [d for d in caught.value.diagnostics if d.code == code]
    assert found, [d.render() for d in caught.value.diagnostics]
    assert words in found[0].message, found[0].render()
    assert found[0].path.endswith("house.yaml") and found[0].line > 6, found[0].render()


def test_a_procedure_named_like_a_primitive_is_warned_and_is_what_the_effects_call(tmp_path):
    body = """procedures:
  shuffle:
    params: {z: zone}
    effect: add_counter("points", 7)
""" + game_start("shuffle(draw_pile)")
    edition = house(tmp_path, body)
    assert points_after_the_deal(edition) == [7, 0, 0]
    from kittens.interpreter.rules.check import validate_paths
    report = validate_paths([str(tmp_path / "house.yaml")], allow_outside=True)
    warned = [d for d in report.diagnostics if d.code == "shadows-primitive"]
    assert warned and warned[0].severity == "warning"


def test_show_prints_the_procedures_and_diff_names_a_changed_one(tmp_path):
    from kittens.interpreter.words.resolved import diff, render_show

    first = house(tmp_path, BUMP + game_start("bump(me, 1)"))
    (tmp_path / "second").mkdir()
    second = house(tmp_path / "second", BUMP.replace("value: n * 2", "value: n * 3") + game_start("bump(me, 1)"))
    shown = render_show(first)
    assert "procedures:" in shown and "bump:" in shown and "value: n * 2" in shown
    changes = [change.render() for change in diff(first, second)]
    assert any(line.startswith("~ procedures.double.value: n * 2 -> n * 3") for line in changes), changes


def test_the_rulesheet_reads_a_call_as_what_the_procedure_does(tmp_path):
    from kittens.interpreter.words.rulesheet import render_rulesheet

    edition = load_edition(str(ROOT / "examples" / "house-rules" / "pickpockets.yaml"))
    sheet = render_rulesheet(edition, 3)
    cutpurse = sheet[sheet.index("### Cutpurse"):]
    cutpurse = cutpurse[:cutpurse.index("\n### ")]
    assert "move a random card from the chosen player's hand into your hand" in cutpurse, cutpurse
    assert "pickpocket" not in cutpurse and "cats_of" not in cutpurse, cutpurse
