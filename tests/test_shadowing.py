"""Names a file defines shadow primitives of the same name (issue 42).

A house rule written before a primitive existed may already use its name for a
`let`, a loop, an aggregate's name, a `choose:` name or a zone. Such a file keeps
working: the file's name wins, calls of the primitive still reach it, and the
validator says so with a `shadows-primitive` warning at the name."""

from __future__ import annotations

from pathlib import Path

import pytest

from kittens.interpreter.lang import primitives as P
from kittens.interpreter.lang.checker import CheckEnv, Checker
from kittens.interpreter.lang.diagnostics import CODES, ERROR
from kittens.interpreter.lang.names import SHADOWS
from kittens.interpreter.lang.parser import parse_program
from kittens.interpreter.rules.check import validate_paths

HOUSE = Path(__file__).parent / "scenarios" / "compat" / "shadowing" / "names_over_primitives.yaml"
#: every primitive's name, the table the cases below walk
NAMES = sorted(P.PRIMITIVES)

#: ways a program defines a name, with the name written NAME; each also uses it
DEFINITIONS = {
    "let": "let NAME = 2\nend_turn(NAME)",
    "for": "for NAME in others() { show(top(draw_pile, 1), NAME) }",
    "aggregate": "let n = sum(1 for NAME in players())\nend_turn(n)",
}


def _findings(text: str) -> list:
    env = CheckEnv(card_ids=None, tags=None, rules=None)
    checker = Checker(env, P.PLAY, {**P.BUILTIN_NAMES, "this": P.CARD})
    return checker.program(parse_program(text))


@pytest.mark.parametrize("how", DEFINITIONS)
@pytest.mark.parametrize("name", NAMES)
def test_a_defined_name_shadows_a_primitive_with_a_warning_at_the_name(name, how):
    text = DEFINITIONS[how].replace("NAME", name)
    findings = _findings(text)
    assert [(f.code, f.severity) for f in findings] == [(SHADOWS, "warning")], findings
    assert text.startswith(name, findings[0].pos)  # the caret on the name itself
    assert f"{name}()" in findings[0].message


def test_a_name_no_primitive_has_draws_no_warning():
    assert _findings(DEFINITIONS["let"].replace("NAME", "answered_by")) == []


def test_a_name_defined_twice_is_still_an_error():
    codes = [f.code for f in _findings("let answered = 1\nlet answered = 2\nend_turn(answered)")]
    assert codes == [SHADOWS, "redefined-name"]


def test_the_code_is_registered_as_a_warning_in_the_table():
    assert SHADOWS in CODES


def test_a_rule_file_naming_its_values_after_primitives_validates_with_warnings_only():
    report = validate_paths([str(HOUSE)])
    found = sorted((d.line, d.column, d.code) for d in report.diagnostics)
    assert not [d for d in report.diagnostics if d.severity == ERROR]
    # the zone `revive`, `let count`, `for top`, the choice `others`, `let answered`
    assert found == [(14, 3, SHADOWS), (18, 11, SHADOWS), (19, 11, SHADOWS), (23, 7, SHADOWS),
                     (25, 11, SHADOWS)]
