"""Findings a designer can act on: YAML syntax in plain words with the likely cause, a
few near keys rather than all of them, one bad card not hiding the others' problems, and
a scenario step written the wrong way shown in the right form."""

from __future__ import annotations

import pytest
from conftest import ROOT

from kittens.interpreter.rules.check import validate_paths

ORIGINAL_CARDS = str(ROOT / "rulebook" / "original.yaml")


def findings(path: str) -> list:
    return [(d.code, d.line, d.column, d.message) for d in validate_paths([path], allow_outside=True).diagnostics]


@pytest.mark.parametrize("body,line,column,words", [
    ("cards:\n  - id: skip\n   title: Skip\n", 5, 4, "indentation does not match"),
    ("cards:\n  - id: skip\n    title Skip\n    text: x\n", 5, 5, "a colon is missing: `title Skip`"),
    ("cards:\n  - id: skip\n\ttitle: Skip\n", 5, 1, "a tab"),
    ("cards:\n  - id: skip\n    title: \"Skip\n    text: x\n", 5, 12, "a quoted text starts here"),
    ("cards:\n  - id: skip\n    text: a: b\n", 5, 12, "a text holding ': ' must be put in quotes"),
    ("cards:\n  - id: skip\n    title: [Skip\n", 6, 1, "opened at line 5, column 12 is not closed"),
    ("cards:\n  - id: skip\n    text: \"a\\q\"\n", 5, 13, "a backslash in double quotes"),
], ids=["indent", "colon", "tab", "quote", "second-colon", "bracket", "escape"])
def test_yaml_syntax_errors_say_the_likely_cause(write, body, line, column, words):
    path = write("broken.yaml", "format: 1\nkind: cards\n" + body)
    (code, at_line, at_column, message), = findings(path)
    assert (code, at_line, at_column) == ("yaml-syntax", line, column)
    assert words in message and "while scanning" not in message and "while parsing" not in message


def test_an_unknown_key_names_a_few_near_keys_not_all_of_them(write):
    path = write("house.yaml", "format: 1\nkind: edition\nid: h\nname: H\nextends: original\n"
                               "set_paramz: {hand_size: 3}\n")
    (code, _line, _column, message), = findings(path)
    assert code == "unknown-key"
    assert "did you mean 'set_params'?" in message and "nearest allowed keys here: " in message.lower()
    listed = message.split("keys here: ")[1].split(" (")[0].split(", ")
    assert len(listed) == 4 and "zones" not in listed


def test_a_schema_error_in_one_card_does_not_hide_the_others(write):
    path = write("cards.yaml", f"format: 1\nkind: cards\nuses: [{ORIGINAL_CARDS}]\ncards:\n"
                               "  - id: broken_one\n    title: Broken\n    text: x\n    whn: own_turn\n"
                               "  - id: good_one\n    title: Good\n    text: y\n    when: own_turn\n"
                               "    effect: end_trun()\n")
    codes = [f[0] for f in findings(path)]
    assert "unknown-key" in codes and "missing-key" in codes  # the bad card
    assert "unknown-primitive" in codes  # the deeper check of the other card still ran


@pytest.mark.parametrize("step,right", [
    ("- play skip", "- {seat: 0, do: play skip}"),
    ("- {seat: 1, play: skip}", "- {seat: 1, do: play skip}"),
    ("- {player: 1, do: play skip}", "- {seat: 1, do: play skip}"),
    ("- seat 1 plays skip", "- {seat: 1, do: play skip}"),
    ("- {1: play skip}", "- {seat: 1, do: play skip}"),
    ("- {seat: 0, do: play skip, expect: {turn: 1}}", "- {seat: 0, do: play skip}` and then"),
])
def test_a_scenario_step_in_the_wrong_form_gets_the_right_form(write, step, right):
    path = write("s.yaml", "format: 1\nkind: scenario\ndescription: x\nedition: original\nplayers: 2\n"
                           f"hands: {{0: [skip], 1: [skip]}}\nsteps:\n  {step}\n")
    problems = findings(path)
    assert len(problems) == 1, problems
    assert f"write it as `{right}" in problems[0][3] and problems[0][1] == 8


HOUSE = "format: 1\nkind: edition\nid: h\nname: H\nextends: original\n"
ZAP = "define_cards:\n  - id: zap\n    title: {title}\n    text: Zap.\n    tags: {tags}\n    when: {when}\n" \
      "    effect: end_turn()\ndeck: {{zap: 1}}\n"


@pytest.mark.parametrize("body,line,column,code,words", [
    ("patch_cards:\n  skip: {nopeable: flase}\n", 7, 20, "bad-value",
     "should be true or false, or a `rules.NAME` parameter, not the text 'flase'; did you mean false?"),
    ("patch_combos:\n  two_of_a_kind: {nopeable: 'yes'}\n", 7, 29, "bad-value",
     "should be true or false, or a `rules.NAME` parameter, not the text 'yes'; did you mean true?"),
    ("patch_cards:\n  skip: {nopeable: 1}\n", 7, 20, "wrong-type",
     "should be true or false, or a `rules.NAME` parameter, not the whole number 1"),
    ("players: {min: two, max: 5}\n", 6, 16, "wrong-type", "should be a whole number, not the text 'two'"),
    ("players: {min: 1.5, max: 5}\n", 6, 16, "wrong-type", "should be a whole number, not the number 1.5"),
    (ZAP.format(title="Zap", tags="[action]", when="own_trun"), 11, 11, "bad-value",
     "should be one of 'own_turn', 'any_time', 'reaction' or 'never', not the text 'own_trun'; "
     "did you mean 'own_turn'?"),
    (ZAP.format(title="12", tags="[action]", when="own_turn"), 8, 12, "wrong-type",
     "should be text, not the whole number 12"),
    (ZAP.format(title="Zap", tags="action", when="own_turn"), 10, 11, "wrong-type",
     "should be a list, not the text 'action'"),
    ("set_counts: {skip: lots}\n", 6, 20, "wrong-type", "should be a whole number or a mapping, not the text 'lots'"),
], ids=["boolean-typo", "boolean-quoted", "boolean-number", "integer-text", "integer-fraction", "enum-typo",
        "string-number", "list-text", "count-text"])
def test_a_simple_value_of_the_wrong_kind_says_what_the_field_takes(write, body, line, column, code, words):
    """Issue 41: `nopeable: flase` was "'flase' is not valid under any of the given schemas"
    (jsonschema's words for a failed anyOf). A true-or-false, whole-number, text or
    listed-word field says what it takes, shows the value it got, and names the word a
    slip was probably meant to be."""
    (found,) = findings(write("house.yaml", HOUSE + body))
    assert found == (code, line, column, words)


@pytest.mark.parametrize("body,words", [
    ("patch_cards:\n  skpi: {nopeable: false}\n",
     "no card 'skpi' to patch; did you mean 'skip'? If not, define a new card with `define_cards`"),
    ("patch_cards:\n  zzzzqq: {nopeable: false}\n", "no card 'zzzzqq' to patch: define a new card with `define_cards`"),
    ("set_counts: {skpi: 3}\n", "; did you mean 'skip'? If not, put a new card in with `add_cards`"),
    ("remove_cards: [skpi]\n", "; did you mean 'skip'? If not, there is nothing to remove"),
    ("set_params: {hand_sise: 3}\n",
     "no parameter 'hand_sise' to set; did you mean 'hand_size'? If not, add a new one with `add_params`"),
])
def test_a_did_you_mean_question_ends_its_sentence(write, body, words):
    """Issue 41: "did you mean 'skip'?: define a new card ..." ran a question into a colon."""
    (found,) = findings(write("house.yaml", HOUSE + body))
    assert words in found[3] and "?:" not in found[3]
