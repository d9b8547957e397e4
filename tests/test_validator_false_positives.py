"""Validator warnings that were wrong (issue 42): `unplayable-card` on marker cards used
through the zone setup places them in and on a card that does nothing on purpose, and
`text-mismatch` reading a 0-based place as a count, once per variant, at column 1."""

from __future__ import annotations

from conftest import ROOT

from kittens.interpreter.rules.check import validate_paths

ORIGINAL = ROOT / "editions" / "original.yaml"


def _edition(write, cards: str, deck: str, setup: str = "", extra: str = "") -> str:
    """A house rule on the Original with a playmat, the cards ``cards`` defined and
    ``deck`` added; ``setup`` steps go after the deal."""
    steps = f"add_steps:\n  - after: deal\n    steps:\n{setup}" if setup else ""
    return write("ed.yaml", f"""format: 1
kind: edition
id: ed
name: Made-up
extends: {ORIGINAL}
zones:
  playmat: {{public: true}}
define_cards:
{cards}add_cards: {deck}
{steps}{extra}""")


def _codes(path: str, code: str) -> list:
    return [d for d in validate_paths([path]).diagnostics if d.code == code]


MARKER = """\
  - id: omen
    title: Omen
    text: While the Omen lies on the playmat, Skips may not be played.
    when: never
    in_combos: false
"""


def test_a_marker_card_used_through_its_zone_is_not_unplayable(write):
    setup = "      - place: {cards: [omen], zone: playmat}\n"
    used = _edition(write, MARKER, "{omen: 1}", setup, extra="""\
restrictions:
  - id: omen_says_no
    text: While the Omen lies on the playmat, no Skip.
    allows: count(playmat) == 0 or title(this) != "skip"
""")
    assert _codes(used, "unplayable-card") == []
    # the same card left in the deck, its zone never read: still reported
    unused = _edition(write, MARKER, "{omen: 1}")
    found = _codes(unused, "unplayable-card")
    assert len(found) == 1 and "'omen'" in found[0].message and "does_nothing" in found[0].message


def test_a_card_that_does_nothing_on_purpose_is_not_reported(write):
    blank = MARKER.replace("Omen", "Blank").replace("omen", "blank") + "    does_nothing: true\n"
    path = _edition(write, blank, "{blank: 4}")
    assert _codes(path, "unplayable-card") == []
    assert [d for d in validate_paths([path]).diagnostics if d.severity == "error"] == []
    from kittens.interpreter.rules.load import load_edition
    from kittens.interpreter.words.rulesheet import render_rulesheet

    assert "It does nothing: it only takes up room in a hand." in render_rulesheet(load_edition(path), 4)


def _house(write, text: str, effect: str) -> str:
    return write("house.yaml", f"""format: 1
kind: edition
id: house
name: House
extends: {ORIGINAL}
define_cards:
  - id: tuck
    title: Tuck
    when: own_turn
    text: >-
      {text}
    effect: {effect}
add_cards:
  tuck: 2
""")


def test_a_place_counted_from_zero_agrees_with_a_text_counting_from_one(write):
    path = _house(write, "Put the top card back third from the top, among the top three cards.",
                  "move(top(draw_pile), draw_pile, at=2)")
    assert _codes(path, "text-mismatch") == []


def test_a_mismatch_is_told_once_at_the_words_of_the_text(write):
    """The Original has two variants: the card disagrees in each, and is told once, with
    its caret under the words that say the number (not at column 1 of the card)."""
    path = _house(write, "Put the top card back among the top five cards.",
                  "move(top(draw_pile), draw_pile, at=2)")
    found = _codes(path, "text-mismatch")
    assert len(found) == 1, [d.message for d in found]
    line = open(path, encoding="utf-8").read().splitlines()[found[0].line - 1]
    assert line[found[0].column - 1:].startswith("top five"), (found[0].line, found[0].column, line)
    assert "the effect uses 2" in found[0].message
