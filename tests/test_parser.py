"""The effect grammar's front door: trees with positions, errors in plain words."""

import pytest

from kittens.interpreter.lang import syntax as s
from kittens.interpreter.lang.parser import EffectError, parse_expression, parse_program


def test_program_statements_and_positions():
    text = 'let v = choose_player(others())\nif has(v, "nope") { cancel() } else { end_turn(2) }'
    program = parse_program(text)
    let, cond = program.body
    assert isinstance(let, s.Let) and let.name == "v" and let.name_pos == 4
    assert isinstance(let.value, s.Call) and let.value.name == "choose_player"
    assert text[let.value.pos:].startswith("choose_player")
    assert isinstance(cond, s.If)
    assert cond.condition.args[1] == s.StrLit(text.index('"nope"'), "nope")
    assert cond.otherwise[0].call.args[0] == s.IntLit(text.index("2)"), 2)


@pytest.mark.parametrize("text, tree", [
    ("1 + 2 - 3", s.Sum(0, s.IntLit(0, 1), ("+", "-"), (s.IntLit(4, 2), s.IntLit(8, 3)))),
    ("1 + 2 * 3", s.Sum(0, s.IntLit(0, 1), ("+",), (s.Sum(4, s.IntLit(4, 2), ("*",), (s.IntLit(8, 3),)),))),
    ("not a", s.Not(0, s.Name(4, "a"))),
    ("a or b and c", s.BoolOp(0, "or", (s.Name(0, "a"), s.BoolOp(5, "and", (s.Name(5, "b"), s.Name(11, "c")))))),
    ("rules.hand_size", s.RuleRef(0, "hand_size", 6)),
    ("count(x) >= 2", s.Compare(9, ">=", s.Call(0, "count", (s.Name(6, "x"),), ()), s.IntLit(12, 2))),
    ("f(a, by=b)", s.Call(0, "f", (s.Name(2, "a"),), (s.Keyword(5, "by", s.Name(8, "b")),))),
    ("(true)", s.BoolLit(1, True)),
    ("-1", s.Sum(0, s.IntLit(0, 0), ("-",), (s.IntLit(1, 1),))),  # a minus sign is `0 - ...`
    ("2 - -x", s.Sum(0, s.IntLit(0, 2), ("-",), (s.Sum(4, s.IntLit(4, 0), ("-",), (s.Name(5, "x"),)),))),
    ("-a * 3", s.Sum(0, s.Sum(0, s.IntLit(0, 0), ("-",), (s.Name(1, "a"),)), ("*",), (s.IntLit(5, 3),))),
])
def test_expressions(text, tree):
    assert parse_expression(text) == tree


@pytest.mark.parametrize("text, pos, words", [
    ("move(a b)", 7, "unexpected 'b'; expected ')' or ','"),
    ("move('x')", 5, "double quotes"),
    ("Move(x)", 0, "lower_case"),
    ("move(x", 6, "ends too early; expected ')'"),
    ("let = 3", 4, "expected a name"),
    ("let x 3", 6, "expected '='"),
    ("if x { end_turn() ", 17, "ends too early"),
    ("end_turn() }", 11, "unexpected '}'"),
    ("if x = 1 { end_turn() }", 5, "unexpected '='"),  # `x = 1` alone assigns (see test_phases)
    ("move(a, , b)", 8, "unexpected ','"),
    ("end_turn(5 % 2)", 11, "unexpected character '%'"),
    ("5", 0, "unexpected '5'; expected a name"),
    ("end_turn(-)", 10, "unexpected ')'"),
])
def test_syntax_errors_point_at_the_character(text, pos, words):
    with pytest.raises(EffectError) as caught:
        parse_program(text)
    assert caught.value.code == "effect-syntax"
    assert caught.value.pos == pos
    assert words in caught.value.message


def test_comments_and_semicolons():
    program = parse_program("# a comment\nshuffle(draw_pile); end_turn()  # trailing\n")
    assert [stmt.call.name for stmt in program.body] == ["shuffle", "end_turn"]


def test_size_and_nesting_limits():
    with pytest.raises(EffectError) as caught:
        parse_program("end_turn()\n" * 1000)
    assert caught.value.code == "effect-too-complex"
    deep = "x(" * 30 + ")" * 30
    with pytest.raises(EffectError) as caught:
        parse_program(deep)
    assert caught.value.code == "effect-too-complex" and caught.value.pos == deep.index("(") + 2 * 24  # the 25th '('


@pytest.mark.parametrize("text", [
    "if " + "not " * 200 + "true { end_turn() }",
    "if true { end_turn() }" + " else if true { end_turn() }" * 200,
])
def test_deep_nesting_without_brackets_is_refused_not_crashed(text):
    with pytest.raises(EffectError) as caught:
        parse_program(text)
    assert caught.value.code == "effect-too-complex"


def test_long_flat_sums_parse_without_nesting():
    tree = parse_expression(" + ".join(["1"] * 1500))
    assert isinstance(tree, s.Sum) and len(tree.terms) == 1499


def test_empty_program_is_allowed():
    assert parse_program("  # nothing\n").body == ()
