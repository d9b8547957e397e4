"""The checker: every call against the primitive table, every name and type."""

import pytest

from kittens.interpreter.lang import primitives as P
from kittens.interpreter.lang.checker import CheckEnv, Checker
from kittens.interpreter.lang.cost import Limits, weight
from kittens.interpreter.lang.parser import parse_expression, parse_program

CARDS = frozenset({"defuse", "nope", "exploding_kitten", "tacocat"})
TAGS = frozenset({"cat", "kitten"})
NAMES = {**P.BUILTIN_NAMES, "this": P.CARD, "victim": P.PLAYER}


def check(text, context=P.PLAY, pure=False, names=NAMES):
    env = CheckEnv(card_ids=CARDS, tags=TAGS, rules={"hand_size": P.INT, "attacks_stack": P.BOOL})
    checker = Checker(env, context, names, pure=pure)
    findings = checker.program(parse_program(text))
    return [(f.code, text[f.pos:f.pos + 12]) for f in findings], env


@pytest.mark.parametrize("text", [
    'move(top(find(hand(me), "defuse")), discard_pile)',
    "move(this, draw_pile, at=choose_position(draw_pile))",
    "let n = count(with_cards(others())) if n > 0 { attack(next_player(), rules.hand_size - 5) }",
    "for p in others() { show(top(draw_pile, 3), p) }",
    "for c in hand(victim) { reveal(c) }",
    'if has(victim, "nope") and not rules.attacks_stack { end_turn(owed()) }',
    "let t = choose_title() move(top(find(hand(victim), t)), hand(me))",
    'reveal(tagged(hand(me), "kitten"))',
    "move(choose_card(hand(victim), by=victim), hand(me))",
    "draw(me, from_bottom=true) end_turn()",
])
def test_valid_effects_have_no_findings(text):
    assert check(text)[0] == []


@pytest.mark.parametrize("text, code, at", [
    ("shuffel(draw_pile)", "unknown-primitive", "shuffel(draw"),
    ("shuffle(draw_pil)", "unknown-name", "draw_pil)"),
    ("shuffle()", "arity", "shuffle()"),
    ("shuffle(draw_pile, 2)", "arity", "2)"),
    ("move(hand(me), discard_pile, where=0)", "arity", "where=0)"),
    ("end_turn(me)", "type-mismatch", "me)"),
    ('move(top(find(hand(me), "defuze")), discard_pile)', "unknown-card", '"defuze")), '),
    ('reveal(tagged(hand(me), "dog"))', "unknown-tag", '"dog"))'),
    ("end_turn(rules.hand_sise)", "unknown-rule", "hand_sise)"),
    ("let me = 3", "redefined-name", "me = 3"),
    ("let x = 1 let x = 2", "redefined-name", "x = 2"),
    ("if count(hand(me)) { end_turn() }", "type-mismatch", "count(hand(m"),
    ("if me > 2 { end_turn() }", "type-mismatch", "me > 2 { end"),
    ("if me == 2 { end_turn() }", "type-mismatch", "== 2 { end_t"),
    ("for p in 3 { end_turn() }", "type-mismatch", "3 { end_turn"),
    ("count(hand(me))", "unused-value", "count(hand(m"),
    ("cancel()", "not-allowed-here", "cancel()"),
    ("end_turn(1 + true)", "type-mismatch", "true)"),
    ('show(top(draw_pile), "me")', "type-mismatch", '"me")'),
])
def test_findings_name_the_code_and_position(text, code, at):
    findings, _env = check(text)
    assert (code, at) in findings, findings


def test_cancel_is_allowed_in_reactions():
    assert check("cancel()", context=P.REACTION)[0] == []


def test_pure_expressions_refuse_choices_and_chance():
    env = CheckEnv(card_ids=CARDS, tags=TAGS, rules={})
    checker = Checker(env, P.PLAY, NAMES, pure=True)
    checker.expression(parse_expression("count(hand(choose_player(others()))) > 0"), P.BOOL)
    assert [f.code for f in checker.findings] == ["not-allowed-here"]


def test_did_you_mean_in_messages():
    env = CheckEnv(card_ids=CARDS, tags=TAGS, rules={})
    checker = Checker(env, P.PLAY, NAMES)
    checker.program(parse_program('end_trun()\nhas(victm, "nop")'))
    messages = " | ".join(f.message for f in checker.findings)
    assert "did you mean 'end_turn'?" in messages
    assert "did you mean 'victim'?" in messages
    assert "did you mean 'nope'?" in messages


def test_card_literals_are_recorded_for_the_unplayable_check():
    _findings, env = check('if has(me, "defuse") { end_turn() }')
    assert env.mentioned_cards == {"defuse"}


def test_unknown_universe_skips_literal_checks():
    env = CheckEnv(card_ids=None, tags=None, rules=None)
    checker = Checker(env, P.PLAY, NAMES)
    checker.program(parse_program('if has(me, "anything") { end_turn(rules.whatever) }'))
    assert checker.findings == []


# -- estimates of numbers and work (cost.py) ----------------------------------
LIMITS = Limits(cards=56, players=5, values={"hand_size": 7, "huge": 5 * 10 ** 9})


def estimate(text, limits=LIMITS, context=P.PLAY):
    env = CheckEnv(card_ids=CARDS, tags=TAGS, rules={"hand_size": P.INT, "huge": P.INT}, limits=limits)
    checker = Checker(env, context, NAMES)
    checker.program(parse_program(text))
    return [(f.code, f.severity, text[f.pos:f.pos + 12]) for f in checker.findings]


PILE6 = " * ".join(["count(draw_pile)"] * 6)


@pytest.mark.parametrize("text, found", [
    (f"end_turn({PILE6})", [("may-overflow", "warning", "count(draw_p")]),  # 56^6, about 3e10
    (f"end_turn({PILE6} / 100)", [("may-overflow", "warning", "count(draw_p")]),  # too large before /
    ("end_turn(1000000000 / count(hand(me)))", []),  # whole-number division never grows a number
    ("end_turn(100 / 3 * 100000000)", [("may-overflow", "warning", "100 / 3 * 10")]),  # 100 / 1 can be
    (" end_turn(" + " * ".join(["count(players())"] * 6) + ")", []),  # players: 5^6
    ("end_turn(rules.hand_size * 100000000)", []),  # 700 million
    ("end_turn(rules.hand_size * 200000000)", [("may-overflow", "warning", "rules.hand_s")]),
    ("let a = 40000 * 30000\nend_turn(min(a, 3))", [("may-overflow", "warning", "40000 * 3000")]),
    ("let a = 40000\nlet b = a * a\nlet c = b * b\nend_turn(c)", [("may-overflow", "warning", "a * a\nlet c ")]),
    ("for a in draw_pile { for b in draw_pile { for c in draw_pile { reveal(c) } } }",
     [("too-much-work", "warning", "for a in dra")]),  # 56 * (1 + 56 * (1 + 56 * 2))
    ("for p in players() { for q in players() { for c in hand(p) { reveal(c) } } }", []),
    ("reveal(hand(me))\nfor a in draw_pile { for b in draw_pile { if true { reveal(b) reveal(a) } } }", []),
])
def test_estimates_warn_where_a_limit_can_be_reached(text, found):
    assert estimate(text) == found


def test_what_depends_on_the_edition_is_not_estimated_without_it():
    assert estimate(f"end_turn({PILE6})", limits=None) == []
    assert estimate("end_turn(rules.hand_size * 200000000)", limits=None) == []
    assert estimate("for a in draw_pile { for b in draw_pile { for c in draw_pile { reveal(c) } } }",
                    limits=None) == []
    # a calculation on written numbers alone needs no edition
    assert estimate("end_turn(100000 * 100000)", limits=None) == [("may-overflow", "warning", "100000 * 100")]


def test_a_rule_value_beyond_the_limit_is_not_reported_at_each_use():
    assert estimate("end_turn(rules.huge)\nend_turn(rules.huge * 2)") == []  # validate.py reports it once


def test_files_with_errors_get_no_estimates():
    assert [code for code, _s, _t in estimate("end_turn(100000 * 100000)\nend_turn(me)")] == ["type-mismatch"]


def test_weight_counts_the_calls_a_block_makes_outside_its_loops():
    assert weight(parse_program("draw(me)\nend_turn()").body) == 3
    assert weight(parse_program("if count(hand(me)) > 0 { reveal(hand(me)) } else { end_turn() }").body) == 6
    # a loop's iterable is the block's work; its body is the loop's, charged per item
    assert weight(parse_program("for c in top(draw_pile, 3) { reveal(c) show(c, me) }").body) == 2
